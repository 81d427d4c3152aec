"""Lightpath's Django project: settings, URL map and the REST plumbing shared by all apps."""

# Bind @shared_task to Lightpath's Celery app whenever Django is loaded (web, worker, tests).
from lightpath_worker import app as celery_app

__all__ = ["celery_app"]
