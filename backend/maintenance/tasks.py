"""Thin Celery tasks of maintenance; the logic is in services."""

from celery import shared_task

from .services import recovery


@shared_task(name="maintenance.recover", acks_late=True, reject_on_worker_lost=True)
def recover(fabric_id: int) -> dict:
    """Links of the fabric went down: apply the capacity recovery if its auto_restore allows it.
    Idempotent: a re-delivered task finds the ToRs recovered and enables nothing."""
    return recovery.recover_automatically(fabric_id)
