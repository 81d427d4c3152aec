from celery import shared_task

from .services import maintenance


@shared_task(name="telemetry.maintain", acks_late=True)
def maintain() -> dict:
    """Partitions ahead, hourly roll-ups, retention (Celery beat runs it; see settings)."""
    return maintenance.maintain()
