"""Thin Celery tasks of telemetry; the logic is in services."""

from celery import shared_task

from .services import derivation, maintenance


@shared_task(name="telemetry.maintain", acks_late=True)
def maintain() -> dict:
    """Partitions ahead, hourly roll-ups, retention (Celery beat runs it; see settings)."""
    return maintenance.maintain()


@shared_task(name="telemetry.requeue_lost", ignore_result=True)
def requeue_lost() -> dict:
    """Every 30 s (beat): a derivation run for any fabric whose committed batches wait without one
    queued (its queueing was lost with the broker)."""
    return {"derivation_queued": derivation.queue_pending()}


@shared_task(name="telemetry.derive", acks_late=True, reject_on_worker_lost=True)
def derive(fabric_id: int) -> dict:
    """Derive a fabric's batches committed since its last run."""
    return derivation.run(fabric_id)
