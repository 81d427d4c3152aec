"""CorrOpt's optimizer on live fabrics (issue #5; reference corropt.md sections 0, 3.5 and 6).

The fast checker decides each new corruption event on its own, so once capacity comes back (a
repaired link is enabled again, a capacity constraint is relaxed) the links it kept for capacity
may no longer need to stay up, and a better set may exist. `optimize_fabric` re-examines every
enabled corrupting link of a fabric:

1. in one transaction, under the fabric's advisory lock (the one decide_event takes, so no fast
   checker decision interleaves), it reads the candidates: links admin-enabled and oper-up with an
   open CorruptionEvent, each with its rate per direction (as decide_event reads them) and its
   largest open event;
2. the engine's exact optimizer (`CorrOptSession.optimize`, within the configured time budget)
   names the links to disable; disabled and down links are never re-enabled (footnote 6);
3. the answer is applied link by link, largest penalty first, through the fast checker, that is
   the capacity guard (services.check_and_apply): any subset of a feasible set is feasible, so
   each check disables its link, and it records the affected ToRs' before/after exactly as a
   fast-checker decision does;
4. then the fast checker runs over the links the optimizer kept, largest penalty first: when the
   time budget cut the search short the answer may not be maximal (reference 6.8: fall back to
   greedy), and for the others it names the ToR that blocks them;
5. a disabled link gets an OPTIMIZER Decision and its ticket (tickets.open_or_add_step); a kept
   link gets an OPTIMIZER "kept" Decision unless its newest decision already keeps it for the same
   ToR, so it stays "corrupting, kept for capacity" with the ToR that blocks it now.

Idempotent: the decisions carry their job (unique per job and link). A worker that dies before
the commit leaves nothing behind, and the retried job starts over; a job re-run after its commit
finds its decisions and answers from them without deciding again.

Triggers (`request_optimization`): tickets.record_action when it enables a link again, and the
fabric app's `capacity_changed` signal (a capacity constraint edited, a link enabled through the
API). The job is submitted once the triggering transaction commits and is coalesced: while a
job for the fabric is still queued, a new trigger joins it (its reason is added to the job's
params) instead of queueing another; the queued job reads the fabric only when it starts, so it
sees the change. A trigger joins only a job that will run: one whose message was lost (the broker
was down, or restarted without it) is sent again as it is joined.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings as django_settings
from django.db import connection, transaction

import lightpath_engine
from fabric.models import Fabric, Link
from fabric.services import link_state
from fabric.services.engine import engine_fabric
from jobs import liveness
from jobs import services as jobs
from jobs.models import Job
from telemetry.models import CorruptionEvent, Direction, DirectionHealth
from webhooks.services import batched_link_changes

from . import services, tickets
from .models import Decision

logger = logging.getLogger(__name__)

JOB_KIND = "corruption.optimize"
QUEUE_LOCK_NAMESPACE = 0xC023  # advisory lock taken while deciding whether to queue an optimizer job
MAX_REASONS = 20  # reasons kept on a coalesced job's params
Progress = Callable[[float, str], None]


def config() -> dict[str, Any]:
    """CORRUPTION_OPTIMIZER: `time_budget_s`, the engine's search limit per run (None: run to
    optimality). On a budget the best set found is used, then the fast checker completes it."""
    return {"time_budget_s": 30.0, **getattr(django_settings, "CORRUPTION_OPTIMIZER", {})}


@dataclass
class Candidate:
    link: Link
    event: CorruptionEvent  # the link's open event with the largest rate
    rates: dict[str, float]
    index: int  # engine link index
    penalty: float


def _candidates(fabric: Fabric, link_index: dict[int, int]) -> list[Candidate]:
    events = (
        services.open_events_on_usable_links()
        .filter(link__fabric=fabric)
        .select_related("link__a_switch", "link__z_switch")
        .order_by("-last_rate", "id")
    )
    largest: dict[int, CorruptionEvent] = {}
    for event in events:
        largest.setdefault(event.link_id, event)
    health: dict[tuple[int, str], float] = {
        (link_id, direction): rate or 0.0
        for link_id, direction, rate in DirectionHealth.objects.filter(
            link_id__in=list(largest),
            health__in=[Link.Health.CORRUPTING, Link.Health.LOSSY],
            corruption_rate__isnull=False,
        ).values_list("link_id", "direction", "corruption_rate")
    }
    candidates = []
    for link_id, event in largest.items():
        # As services.link_loss_rates: the other direction's rate where it corrupts or is lossy.
        rates = {direction: health.get((link_id, direction), 0.0) for direction in Direction.values}
        rates[event.direction] = event.last_rate
        rates = {direction: min(max(rate, 0.0), 1.0) for direction, rate in rates.items()}
        penalty = lightpath_engine.corropt_penalty("linear", rates[Direction.A_TO_Z], rates[Direction.Z_TO_A])
        candidates.append(Candidate(event.link, event, rates, link_index[link_id], penalty))
    candidates.sort(key=lambda c: (-c.penalty, c.index))
    return candidates


def optimize_fabric(
    fabric_id: int, job: Job | None = None, progress: Progress | None = None, time_budget_s: float | None = None
) -> dict[str, Any]:
    """Run the optimizer over the fabric's enabled corrupting links and apply its answer (see the
    module docstring). Returns a JSON-able summary; `progress(fraction, message)` may raise to
    cancel, which rolls everything back."""
    report = progress or (lambda fraction, message: None)
    budget = config()["time_budget_s"] if time_budget_s is None else time_budget_s
    with transaction.atomic():
        link_state.lock_fabric(fabric_id)
        if job is not None and Decision.objects.filter(job=job).exists():
            return _summary_of(job)  # this job committed before its worker was lost
        fabric = Fabric.objects.get(pk=fabric_id)
        report(0.05, "reading the fabric")
        started = time.perf_counter()
        state = engine_fabric(fabric)
        candidates = _candidates(fabric, state.link_index)
        session = state.session()
        report(0.2, f"optimizing {len(candidates)} corrupting links")
        answer = session.optimize(
            [(c.index, c.rates[Direction.A_TO_Z], c.rates[Direction.Z_TO_A]) for c in candidates],
            time_budget_s=budget,
        )
        chosen = set(answer["disable"])
        # The optimizer's set first, then the links it kept (the fast checker may still take some).
        ordered = [c for c in candidates if c.index in chosen] + [c for c in candidates if c.index not in chosen]
        decisions = []
        # One set-based write of the webhook outbox for every link this run disables.
        with batched_link_changes():
            for number, candidate in enumerate(ordered, start=1):
                report(0.3 + 0.65 * (number - 1) / max(len(ordered), 1), f"applying {number}/{len(ordered)}")
                decision = services.check_and_apply(
                    candidate.link, candidate.event, candidate.rates, Decision.Kind.OPTIMIZER, started
                )
                if decision.action == Decision.Action.DISABLED:
                    session.set_link_state(candidate.index, "disabled")  # this run's view of the fabric
                decision.job = job
                decision.engine_ms = (time.perf_counter() - started) * 1000
                if decision.action == Decision.Action.KEPT and _still_kept_by(candidate.link, decision):
                    continue
                decision.save()
                decisions.append(decision)
                if decision.action == Decision.Action.DISABLED:
                    tickets.open_or_add_step(decision, candidate.event)
        worst = session.worst_tor()
        disabled = [_row(d) for d in decisions if d.action == Decision.Action.DISABLED]
        summary: dict[str, Any] = {
            "fabric": fabric_id,
            "reasons": list(job.params.get("reasons", [])) if job is not None else [],
            "candidates": len(candidates),
            "penalty_before": sum(c.penalty for c in candidates),
            "disabled": disabled,
            "kept": [_row(d) for d in decisions if d.action == Decision.Action.KEPT],
            "still_kept": len(candidates) - len(decisions),
            "remaining_penalty": sum(c.penalty for c in candidates if session.link_state(c.index) == "enabled"),
            "remaining_penalty_lower_bound": answer["remaining_penalty_lower_bound"],
            "proven_optimal": answer["proven_optimal"],
            "time_budget_s": budget,
            "worst_tor": None
            if worst is None
            else {"switch": state.switch_ids[worst[0]], "name": state.switch_names[worst[0]], "fraction": worst[1]},
            "tors_below_threshold": [state.switch_names[tor] for tor in session.tors_below_threshold()],
            "engine_ms": (time.perf_counter() - started) * 1000,
        }
    logger.info("optimizer on fabric %s: %d candidates, %d disabled", fabric_id, len(candidates), len(disabled))
    return summary


def _still_kept_by(link: Link, decision: Decision) -> bool:
    """The link's newest decision already keeps it for the same ToR: nothing new to record."""
    newest = Decision.objects.filter(link=link).order_by("-created", "-id").first()
    return (
        newest is not None
        and newest.action == Decision.Action.KEPT
        and newest.blocking_tor_id == decision.blocking_tor_id
        and newest.event_id == decision.event_id
    )


def _row(decision: Decision) -> dict[str, Any]:
    return {
        "decision": decision.pk,
        "link": decision.link_id,
        "link_name": str(decision.link),
        "penalty": decision.penalty,
        "blocking_tor": decision.blocking_tor_id,
        "blocking_tor_name": decision.blocking_tor.name if decision.blocking_tor else None,
        "blocking": next(
            (
                {key: row[key] for key in ("paths_before", "paths_after", "required_paths", "threshold")}
                for row in decision.affected
                if row["switch"] == decision.blocking_tor_id
            ),
            None,
        ),
    }


def _summary_of(job: Job) -> dict[str, Any]:
    decisions = Decision.objects.filter(job=job).select_related("link__a_switch", "link__z_switch", "blocking_tor")
    decisions = decisions.order_by("id")
    return {
        "fabric": job.fabric_id,
        "disabled": [_row(d) for d in decisions if d.action == Decision.Action.DISABLED],
        "kept": [_row(d) for d in decisions if d.action == Decision.Action.KEPT],
        "resumed": True,
    }


# ---------------------------------------------------------------------------------------------
# Triggers


def request_optimization(fabric_id: int, reason: str, user=None) -> None:
    """Queue an optimizer run for the fabric once the current transaction commits (at once
    outside one), joining a job of the fabric that is still queued (see the module docstring)."""
    transaction.on_commit(lambda: submit_coalesced(fabric_id, reason, user))


def submit_coalesced(fabric_id: int, reason: str, user=None) -> Job | None:
    """The fabric's queued optimizer job with `reason` added, or a new one. None if the fabric
    is gone. The lock makes two concurrent triggers agree on one job."""
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [QUEUE_LOCK_NAMESPACE, fabric_id])
        fabric = Fabric.objects.filter(pk=fabric_id).first()
        if fabric is None:
            return None
        queued = (
            Job.objects.select_for_update()
            .filter(kind=JOB_KIND, fabric=fabric, state=Job.State.QUEUED, cancel_requested=False)
            .order_by("id")
            .first()
        )
        if queued is not None:
            reasons = [*queued.params.get("reasons", []), reason][-MAX_REASONS:]
            queued.params = {**queued.params, "reasons": reasons}
            queued.save(update_fields=["params"])
            if not liveness.is_waiting_in_broker(queued):  # its message was lost: join it and send it again
                transaction.on_commit(lambda: liveness.send(queued))
            return queued
        return jobs.submit(JOB_KIND, user=user, fabric=fabric, params={"reasons": [reason]})


def pending_job(fabric: Fabric) -> Job | None:
    """The fabric's newest optimizer job that has not finished."""
    return (
        Job.objects.filter(kind=JOB_KIND, fabric=fabric, state__in=[Job.State.QUEUED, Job.State.RUNNING])
        .order_by("-id")
        .first()
    )


def on_capacity_changed(sender, fabric_id: int, reason: str, user=None, **kwargs) -> None:
    """Receiver of fabric.signals.capacity_changed (connected in CorruptionConfig.ready)."""
    request_optimization(fabric_id, reason, user)
