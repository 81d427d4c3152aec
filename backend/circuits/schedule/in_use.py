"""Deleting what schedules use: a demand or circuit switch an unfinished schedule needs is kept."""

from __future__ import annotations

from jobs.models import Job

from ..models import CircuitSwitch, Demand
from .params import JOB_KIND


class StillScheduled(Exception):
    """A demand or circuit switch a queued or running schedule still needs (the API answers 409)."""


def refuse_delete_while_scheduled(target: Demand | CircuitSwitch) -> None:
    """Raise StillScheduled if a schedule not yet finished uses `target`: it would fail halfway.
    Finished schedules do not hold it back, since their results keep the demand's name, the
    switches, the racks and the engine's input."""
    unfinished = Job.objects.filter(kind=JOB_KIND).exclude(state__in=Job.TERMINAL_STATES)
    if isinstance(target, Demand):
        unfinished = unfinished.filter(params__demand=target.pk)
        what = f"demand {target.name!r}"
    else:
        unfinished = unfinished.filter(params__circuit_switches__contains=[target.pk])
        what = f"circuit switch {target.name!r}"
    ids = list(unfinished.order_by("id").values_list("id", flat=True)[:4])
    if ids:
        listed = ", ".join(f"#{pk}" for pk in ids[:3]) + (" and more" if len(ids) > 3 else "")
        raise StillScheduled(
            f"The {what} is used by schedule {listed}, still queued or running: "
            "wait for it to finish or cancel it, then delete."
        )
