"""Thin Celery tasks of outgoing webhooks; the logic is in services."""

from celery import shared_task

from . import services


@shared_task(name="webhooks.deliver", acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def deliver(delivery_id: int) -> dict | None:
    """One attempt of a delivery, then the next one scheduled if it failed and may be retried.
    A duplicate or early task finds nothing to claim and does nothing."""
    outcome = services.attempt_delivery(delivery_id)
    if outcome is None:
        return None
    if outcome.retry_in_s is not None:
        services.enqueue([delivery_id], countdown=outcome.retry_in_s)
    return {"delivery": delivery_id, "attempt": outcome.number, "state": outcome.state, "error": outcome.error}


@shared_task(name="webhooks.maintain")
def maintain() -> dict:
    """Every minute (beat): re-enqueue deliveries whose task was lost; purge old finished ones."""
    return {"requeued": services.requeue_overdue(), "purged": services.purge_finished()}
