"""CorrOpt's fast checker on live fabrics: one decision per new corruption event.

Flow (issue #5, reference corropt.md sections 0 and 3.4): telemetry ingest opens a
CorruptionEvent and, once its batch commits, enqueues `corruption.decide_event`; the task calls
`decide_event`, which

1. takes the fabric's advisory lock (fabric.services.link_state.lock_fabric) for the rest of its
   transaction, the one every change of link state takes, so decisions and people's changes on
   one fabric run one at a time and each sees the links its predecessors disabled (without it,
   two workers could each find a link safe that together break a ToR's constraint);
2. skips the event if it already has a fast-checker decision (a re-delivered task), has ended,
   or its link is not enabled and up (already disabled, or down);
3. asks the capacity guard (fabric.services.link_state) to disable the link (reason "corruption",
   changed by the system): the fast checker's rule is the guard's, "disable iff no ToR below it
   falls under its threshold", decided on the process's live engine session of the fabric;
4. if safe, the guard disables it (audited, published); if not, it stays enabled: "corrupting,
   kept for capacity", with the ToR that blocks it. Either way a Decision row records the link's
   penalty (both directions' rates; engine "up" = our a_to_z, side A being the lower tier) and
   the affected ToRs' before/after;
6. a disabled link gets its repair ticket, or a new step on it (corruption.tickets), in the same
   transaction.

The live session costs two small queries per decision, not a read of every link
(fabric.services.live).
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings as django_settings
from django.db import transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone

import lightpath_engine
from fabric.models import Fabric, Link
from fabric.services import link_state
from lightpath import dispatch
from telemetry.models import CorruptionEvent, Direction, DirectionHealth

from . import tickets
from .models import Decision

logger = logging.getLogger(__name__)

ADMIN_REASON = "corruption"
DECIDE_TASK = "corruption.decide_event"


def link_loss_rates(link: Link, event: CorruptionEvent) -> dict[str, float]:
    """Corruption rate per direction: the event's newest rate for its own direction, and the
    other direction's rate where its health is corrupting or lossy (0 otherwise)."""
    rates = {Direction.A_TO_Z.value: 0.0, Direction.Z_TO_A.value: 0.0}
    for direction, rate in DirectionHealth.objects.filter(
        link=link,
        health__in=[Link.Health.CORRUPTING, Link.Health.LOSSY],
        corruption_rate__isnull=False,
    ).values_list("direction", "corruption_rate"):
        rates[direction] = rate or 0.0
    rates[event.direction] = event.last_rate
    # The engine refuses rates outside [0, 1]; a rate is a fraction of frames.
    return {direction: min(max(rate, 0.0), 1.0) for direction, rate in rates.items()}


@dataclass
class Outcome:
    """What decide_event did: a decision, or why it skipped the event."""

    event: int
    decision: Decision | None = None
    skipped: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "event": self.event,
            "decision": self.decision.pk if self.decision else None,
            "action": self.decision.action if self.decision else None,
            "skipped": self.skipped,
        }


def enqueue_decisions(event_ids: Iterable[int], *, queue: str | None = None) -> None:
    """One decide_event task per event, largest rate first (reference section 6.6). Telemetry
    derivation calls this once its run has committed, so the worker sees the events. What the
    broker does not take, `requeue_undecided` sends later."""
    ordered = CorruptionEvent.objects.filter(pk__in=list(event_ids)).order_by("-last_rate", "id")
    for event_id in ordered.values_list("pk", flat=True):
        if not dispatch.send(DECIDE_TASK, [event_id], queue=queue):
            break


def open_events_on_usable_links() -> QuerySet[CorruptionEvent]:
    """Corruption events still open on links enabled and up: what CorrOpt may act on."""
    return CorruptionEvent.objects.filter(
        ended_at__isnull=True,
        link__admin_state=Link.AdminState.ENABLED,
        link__oper_state=Link.OperState.UP,
    )


def requeue_undecided(now: dt.datetime | None = None) -> int:
    """The liveness net of decisions: send decide_event again for every open event that
    decide_event would act on (its link enabled and up, no fast-checker decision) and that has
    waited longer than JOB_LIVENESS["stale_after_s"] since it was last seen. A duplicate finds the
    event decided and skips it."""
    stale = (now or timezone.now()) - dt.timedelta(seconds=django_settings.JOB_LIVENESS["stale_after_s"])
    undecided = (
        open_events_on_usable_links()
        .filter(last_seen__lt=stale)
        .exclude(decisions__kind=Decision.Kind.FAST_CHECKER)
        .values_list("pk", flat=True)
    )
    event_ids = list(undecided)
    enqueue_decisions(event_ids)
    return len(event_ids)


def decide_event(event_id: int) -> Outcome:
    """Run the fast checker for one corruption event (see the module docstring)."""
    with transaction.atomic():
        fabric_id = CorruptionEvent.objects.filter(pk=event_id).values_list("link__fabric_id", flat=True).first()
        if fabric_id is None:
            return Outcome(event_id, skipped="no such event")
        link_state.lock_fabric(fabric_id)
        # Read everything after the lock: the previous decision on this fabric has committed.
        event = CorruptionEvent.objects.filter(pk=event_id).first()
        if event is None:
            return Outcome(event_id, skipped="no such event")
        if Decision.objects.filter(event=event, kind=Decision.Kind.FAST_CHECKER).exists():
            return Outcome(event_id, skipped="already decided")
        if event.ended_at is not None:
            return Outcome(event_id, skipped="event ended")
        link = Link.objects.select_for_update(of=("self",)).select_related("fabric").get(pk=event.link_id)
        if not link.usable:
            return Outcome(event_id, skipped=f"link is {link.admin_state} and {link.oper_state}")
        decision = _check_and_apply(link, event)
        decision.save()
        if decision.action == Decision.Action.DISABLED:
            tickets.open_or_add_step(decision, event)
    logger.info("corruption event %s on link %s: %s", event_id, link.pk, decision.action)
    return Outcome(event_id, decision=decision)


def _check_and_apply(link: Link, event: CorruptionEvent) -> Decision:
    return check_and_apply(link, event, link_loss_rates(link, event), Decision.Kind.FAST_CHECKER, time.perf_counter())


def check_and_apply(link: Link, event: CorruptionEvent, rates: dict[str, float], kind: str, started: float) -> Decision:
    """The fast checker for one enabled corrupting link, through the capacity guard: disabled (by
    the system, audited, published) or kept with its blocking ToR; the Decision (not saved) has
    the affected ToRs' before/after. `started` (perf_counter) is when the engine work began.
    Shared by decide_event and the optimizer, which applies its answer link by link this way."""
    verdict = link_state.set_admin_state(link, Link.AdminState.DISABLED, ADMIN_REASON, None)
    decision = Decision(
        fabric_id=link.fabric_id,
        link=link,
        event=event,
        kind=kind,
        loss_rate_a_to_z=rates[Direction.A_TO_Z],
        loss_rate_z_to_a=rates[Direction.Z_TO_A],
        penalty=lightpath_engine.corropt_penalty("linear", rates[Direction.A_TO_Z], rates[Direction.Z_TO_A]),
        affected=[_decision_row(row) for row in verdict.affected_tors],
        engine_ms=(time.perf_counter() - started) * 1000,
    )
    if verdict.applied:
        decision.action = Decision.Action.DISABLED
    else:
        decision.action = Decision.Action.KEPT
        if verdict.blocking_tors:
            blocking = verdict.blocking_tors[0]
            decision.blocking_tor_id = blocking["switch"]
            decision.blocking_tor_fraction = blocking["fraction_before"]
    return decision


DECISION_ROW_KEYS = (
    "switch", "name", "paths_before", "paths_after", "design_paths", "required_paths",
    "fraction_before", "fraction_after", "threshold",
)  # fmt: skip


def _decision_row(row: dict[str, Any]) -> dict[str, Any]:
    """A guard row as Decision.affected stores it."""
    return {key: row[key] for key in DECISION_ROW_KEYS}


def dry_run(link: Link, loss_rate: float | None = None, loss_rate_down: float | None = None) -> dict[str, Any]:
    """What the fast checker would decide for `link` on the fabric as it is now, changing nothing
    (the capacity guard's dry run). Rates per direction as decide_event reads them (the
    link's largest open event, the other direction's health), or `loss_rate` (a_to_z, the engine's
    up) and `loss_rate_down` (z_to_a) where given: "what if this link corrupted at this rate"."""
    event = CorruptionEvent.objects.filter(link=link, ended_at__isnull=True).order_by("-last_rate", "id").first()
    if event is not None:
        rates = link_loss_rates(link, event)
    else:
        rates = {Direction.A_TO_Z.value: 0.0, Direction.Z_TO_A.value: 0.0}
        for direction, rate in DirectionHealth.objects.filter(
            link=link, health__in=[Link.Health.CORRUPTING, Link.Health.LOSSY], corruption_rate__isnull=False
        ).values_list("direction", "corruption_rate"):
            rates[direction] = min(max(rate or 0.0, 0.0), 1.0)
    if loss_rate is not None:
        rates[Direction.A_TO_Z] = loss_rate
    if loss_rate_down is not None:
        rates[Direction.Z_TO_A] = loss_rate_down
    newest = Decision.objects.filter(link=link).order_by("-created", "-id").first()
    answer: dict[str, Any] = {
        "link": link.pk,
        "link_name": str(link),
        "fabric": link.fabric_id,
        "admin_state": link.admin_state,
        "admin_reason": link.admin_reason,
        "oper_state": link.oper_state,
        "health": link.health,
        "event": event.pk if event else None,
        "loss_rate_a_to_z": rates[Direction.A_TO_Z],
        "loss_rate_z_to_a": rates[Direction.Z_TO_A],
        "last_decision": None
        if newest is None
        else {"id": newest.pk, "kind": newest.kind, "action": newest.action, "created": newest.created},
        "verdict": "not_applicable",
        "reason": "",
        "penalty": lightpath_engine.corropt_penalty("linear", rates[Direction.A_TO_Z], rates[Direction.Z_TO_A]),
        "affected": [],
        "blocking_tor": None,
    }
    if not link.usable:
        answer["reason"] = (
            f"the link is {link.admin_state} and {link.oper_state}; the fast checker decides only links "
            "that are enabled and up"
        )
        return answer
    verdict = link_state.set_admin_state(link, Link.AdminState.DISABLED, ADMIN_REASON, None, dry_run=True)
    answer["affected"] = [_decision_row(row) for row in verdict.affected_tors]
    if verdict.safe:
        answer["verdict"] = "disable"
        answer["reason"] = "every ToR below the link keeps its capacity constraint without it"
        return answer
    answer["verdict"] = "keep"
    blocking = verdict.blocking_tors[0]
    answer["blocking_tor"] = {
        "switch": blocking["switch"],
        "name": blocking["name"],
        "fraction": blocking["fraction_before"],
        "required_paths": blocking["required_paths"],
        "paths": blocking["paths_before"],
    }
    answer["reason"] = (
        f"{blocking['name']} would fall to {blocking['paths_after']} of {blocking['design_paths']} up-paths, "
        f"under the {blocking['required_paths']} its constraint ({blocking['threshold']:g}) requires"
    )
    return answer


def undecided_open_events(fabric: Fabric) -> QuerySet[CorruptionEvent]:
    """Open events on the fabric's usable links that the fast checker has not decided, largest
    rate first (reference section 6.6: several arrivals are processed in decreasing penalty)."""
    decided = Decision.objects.filter(event=OuterRef("pk"), kind=Decision.Kind.FAST_CHECKER)
    return (
        CorruptionEvent.objects.filter(
            link__fabric=fabric,
            ended_at__isnull=True,
            link__admin_state=Link.AdminState.ENABLED,
            link__oper_state=Link.OperState.UP,
        )
        .exclude(Exists(decided))
        .order_by("-last_rate", "id")
    )


def decide_open_events(fabric: Fabric) -> list[Outcome]:
    """Decide every undecided open event of a fabric (after downtime of the workers, say);
    each event in its own transaction, as the task would."""
    return [decide_event(event_id) for event_id in undecided_open_events(fabric).values_list("pk", flat=True)]


def kept_for_capacity(queryset: QuerySet[Decision] | None = None) -> QuerySet[Decision]:
    """Decisions whose link is now "corrupting, kept for capacity": the link's newest decision
    kept it, it is still admin-enabled, and the event is still open."""
    queryset = Decision.objects.all() if queryset is None else queryset
    newer = Decision.objects.filter(link=OuterRef("link"), pk__gt=OuterRef("pk"))
    return queryset.filter(
        action=Decision.Action.KEPT,
        event__ended_at__isnull=True,
        link__admin_state=Link.AdminState.ENABLED,
    ).exclude(Exists(newer))
