"""Thin Celery tasks of CorrOpt decisions; the logic is in services."""

from collections.abc import Iterable

from celery import shared_task

from telemetry.models import CorruptionEvent

from . import services, tickets


@shared_task(name="corruption.decide_event", acks_late=True, reject_on_worker_lost=True)
def decide_event(event_id: int) -> dict:
    """Idempotent: a re-delivered task finds the event decided and skips it."""
    return services.decide_event(event_id).as_dict()


def enqueue_decisions(event_ids: Iterable[int], *, queue: str | None = None) -> None:
    """One decide_event task per event, largest rate first (reference section 6.6). Telemetry
    ingest calls this once its batch has committed, so the worker sees the events."""
    ordered = CorruptionEvent.objects.filter(pk__in=list(event_ids)).order_by("-last_rate", "id")
    for event_id in ordered.values_list("pk", flat=True):
        decide_event.apply_async((event_id,), queue=queue)


@shared_task(name="corruption.validate_tickets")
def validate_tickets() -> dict:
    """Every 15 minutes (beat): resolve tickets whose link stayed clean for the validation window."""
    return {"resolved": tickets.validate_tickets()}
