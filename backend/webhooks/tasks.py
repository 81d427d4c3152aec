"""Thin Celery tasks of outgoing webhooks; the logic is in services."""

from celery import shared_task

from . import services


@shared_task(name="webhooks.deliver", acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def deliver(delivery_id: int) -> dict | None:
    """One attempt of a delivery (a duplicate or early task does nothing)."""
    return services.deliver(delivery_id)


@shared_task(name="webhooks.maintain")
def maintain() -> dict:
    """Every minute (beat): re-enqueue deliveries whose task was lost; purge old finished ones."""
    return services.maintain()
