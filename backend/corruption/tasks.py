"""Thin Celery tasks of CorrOpt decisions; the logic is in services."""

from celery import shared_task

from . import services, tickets


@shared_task(name="corruption.decide_event", acks_late=True, reject_on_worker_lost=True)
def decide_event(event_id: int) -> dict:
    """Idempotent: a re-delivered task finds the event decided and skips it."""
    return services.decide_event(event_id).as_dict()


@shared_task(name="corruption.requeue_undecided", ignore_result=True)
def requeue_undecided() -> dict:
    """Every 30 s (beat): send again the decisions whose task was lost with the broker."""
    return {"sent": services.requeue_undecided()}


@shared_task(name="corruption.validate_tickets")
def validate_tickets() -> dict:
    """Every 15 minutes (beat): resolve tickets whose link stayed clean for the validation window."""
    return {"resolved": tickets.validate_tickets()}
