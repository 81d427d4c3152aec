"""Lightpath's Celery application.

Configured from Django settings (keys prefixed ``CELERY_``); tasks are discovered in the
``tasks.py`` of every installed Django app, so each domain keeps its thin tasks beside its
services. Start a worker from the repository root with::

    celery --workdir backend -A lightpath_worker worker
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lightpath.settings")

app = Celery("lightpath")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

__all__ = ["app"]
