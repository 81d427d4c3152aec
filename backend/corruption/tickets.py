"""Repair tickets: the technician's loop around a link disabled for corruption (issue #5).

    decide_event disables a link ──► open_or_add_step: a ticket (or a new step on the link's
                                     unresolved ticket) with recommend()'s advice
    start(ticket, user)          ──► in_progress (assigned to the user if nobody has it)
    record_action(...)           ──► the step records what was done (followed or not), the link's
                                     open corruption events end (the repair ends the episode), the
                                     link is enabled again (the optimizer re-runs on the fabric once
                                     this commits: corruption.optimizer), awaiting_validation
    corruption returns           ──► decide_event disables it again: same ticket, previous step
                                     "recurred", new (escalated) step, state open
    validate_tickets(now)        ──► clean for the validation window: resolved, step "fixed"
                                     (a preventive ticket: also as soon as it is clean since the
                                     action and its link's forecast is no longer at risk)
    corruption within reopen_days of resolution ──► the same ticket, reopened; later: a new ticket

"Clean" for validation: no open corruption event on the link, none that started since the
window began, no direction with health `corrupting`, the link admin-enabled, and both
directions measured through the end of the window (silence is not evidence); the window counts
from the action (or, when the link stayed disabled for another reason then, from its
re-enabling). Every change is audited (who did what); the settings are CORRUPTION_TICKETS.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.conf import settings as django_settings
from django.db import transaction
from django.db.models import Count, Min, Q
from django.utils import timezone

from audit import services as audit
from fabric.models import Fabric, Link, Transceiver
from fabric.services import link_state
from maintenance.models import WorkOrder, WorkOrderTicket
from maintenance.services import work_orders
from telemetry.models import CorruptionEvent, Direction, DirectionHealth, LinkForecast
from telemetry.services import forecasts

from .models import Decision, Ticket, TicketComment, TicketStep
from .recommend import Action, HistoryStep, Recommendation, recommend

State = Ticket.State
UNRESOLVED = [State.OPEN, State.IN_PROGRESS, State.AWAITING_VALIDATION, State.REOPENED]
STARTABLE = [State.OPEN, State.REOPENED]
ACTIONS = [str(action) for action in Action]
PREVENTIVE_RULE_PREFIX = "preventive."  # corruption.preventive's rules (it imports this module)


class TicketStateError(Exception):
    """The ticket is not in a state that allows this (the API answers 409)."""


class WorkOrderNotStarted(Exception):
    """A preventive repair would take an in-service link down outside its work order's
    capacity-safe start (the API answers 400 with the message)."""


def config() -> dict[str, Any]:
    return {
        "validation_window_hours": 24,
        "reopen_days": 7,
        # A forecast older than this no longer speaks for the link (the CLI's and UI's stale mark).
        "forecast_fresh_hours": 12,
        **getattr(django_settings, "CORRUPTION_TICKETS", {}),
    }


def history(ticket: Ticket) -> list[HistoryStep]:
    return [
        HistoryStep(step.recommended_action, step.action_taken or None, step.acted_at or step.created, step.outcome)
        for step in ticket.steps.order_by("number")
    ]


def open_or_add_step(decision: Decision, event: CorruptionEvent, now: dt.datetime | None = None) -> Ticket:
    """Called by decide_event, in its transaction and under the fabric's lock, after it disabled
    a link: the link's unresolved ticket (or one resolved within reopen_days) gets a new step;
    otherwise a new ticket opens. A decision has at most one step (OneToOne), so a re-delivered
    task never adds another."""
    now = now or timezone.now()
    existing = TicketStep.objects.filter(decision=decision).select_related("ticket").first()
    if existing is not None:
        return existing.ticket
    link = decision.link
    ticket = (
        Ticket.objects.select_for_update()
        .filter(link=link)
        .filter(Q(state__in=UNRESOLVED) | Q(resolved_at__gte=now - dt.timedelta(days=config()["reopen_days"])))
        .order_by("-created", "-id")
        .first()
    )
    if ticket is None:
        ticket = Ticket.objects.create(
            fabric_id=decision.fabric_id, link=link, direction=event.direction, decision=decision, created=now
        )
        audit.record(None, audit.CREATE, ticket)
    else:
        before = audit.snapshot(ticket)
        # A step "fixed" less than reopen_days ago did not fix it after all (the seed's success rule).
        done = ticket.steps.filter(outcome__in=[TicketStep.Outcome.PENDING, TicketStep.Outcome.FIXED])
        for step in done.exclude(action_taken=""):
            step_before = audit.snapshot(step)
            step.outcome = TicketStep.Outcome.RECURRED
            step.save(update_fields=["outcome"])
            audit.record(None, audit.UPDATE, step, before=step_before)
        if ticket.state == State.RESOLVED:
            ticket.state = State.REOPENED
            ticket.resolved_at = None
        elif ticket.state == State.AWAITING_VALIDATION:
            ticket.state = State.OPEN
        ticket.validation_started_at = None
        ticket.save()
        audit.record(None, audit.UPDATE, ticket, before=before)
    _add_step(ticket, decision, event.direction, now)
    # A new recommendation may join this ticket's repair to another's visit (or split one).
    work_orders.regroup_on_commit(ticket.fabric_id)
    return ticket


# Corruption rules whose evidence outweighs the link's forecast: a reading at the moment of corruption
# that names the component (the far transmitter below its minimum, both receivers low: the cable,
# both directions corrupting: the cable), or a history escalation (the forecast's repair was tried
# and corruption came anyway). The others say less about this link than its days of trend did: a low
# Rx only says light is missing (the forecast says why), a neighbour corrupting at the same time may
# be an unrelated fault (trial 27 item 7: a breakout neighbour's own decaying transmitter), and the
# reseat rules and the generic sequence are guesses.
OUTWEIGH_THE_FORECAST = {"opposite_direction", "far_tx_low", "both_rx_low"}
FORECAST_CAUSE_RULE = "forecast_cause."


def forecast_evidence(forecast: LinkForecast, link: Link) -> dict[str, Any]:
    """The forecast as GET /api/links/{id}/forecast/ shows it, JSON-ready (a step's evidence)."""
    return {
        key: value.isoformat() if isinstance(value, dt.datetime) else value
        for key, value in forecasts.details(forecast, link).items()
    }


@dataclass
class ForecastRepair:
    """The repair a forecast named for a link: its action, cause, and the forecast as evidence."""

    action: str
    cause: str
    evidence: dict[str, Any]


def _forecast_repair(ticket: Ticket, now: dt.datetime) -> ForecastRepair | None:
    """The forecast's repair not yet tried on this ticket: a preventive ticket's first step (its
    forecast as it was opened), else the link's current forecast when it is at risk with a known
    cause and fresh (made within `forecast_fresh_hours`: derivation still sees the optics). A repair
    ticket without a preventive one thus reads the same days of trend (trial 27 item 7)."""
    steps = list(ticket.steps.order_by("number"))
    if ticket.kind == Ticket.Kind.PREVENTIVE:
        first = steps[0] if steps else None
        if first is None or first.decision_id is not None or first.action_taken:
            return None  # tried: corruption came anyway, and the history's escalation decides
        cause = first.rule.removeprefix(PREVENTIVE_RULE_PREFIX)
        return ForecastRepair(first.recommended_action, cause, first.evidence.get("forecast") or {})
    fresh = now - dt.timedelta(hours=config()["forecast_fresh_hours"])
    forecast = (
        LinkForecast.objects.filter(link_id=ticket.link_id, at_risk=True, computed_at__gte=fresh)
        .exclude(cause=LinkForecast.Cause.UNKNOWN)  # "inspect" is no repair to put first
        .first()
    )
    if forecast is None:
        return None
    action = str(forecasts.ACTIONS[forecast.cause][0])
    if any(step.action_taken == action for step in steps):
        return None  # tried on this ticket already
    return ForecastRepair(action, forecast.cause, forecast_evidence(forecast, ticket.link))


def _forecast_first(ticket: Ticket, advice: Recommendation, now: dt.datetime) -> Recommendation:
    """A link forecast to fail now corrupts: the forecast's repair (_forecast_repair) stays the first
    thing to try unless the corruption rule outweighs it (above)."""
    if advice.rule.startswith("escalation.") or advice.rule in OUTWEIGH_THE_FORECAST:
        return advice
    repair = _forecast_repair(ticket, now)
    if repair is None or repair.action == advice.action:
        return advice
    forecast = repair.evidence
    cause = forecast.get("cause_label") or repair.cause
    what = forecast.get("recommended_action_label") or repair.action
    explanation = (
        f"{what}: the link was forecast to fail from {cause} before it corrupted, and that repair stays the first "
        f"to try; the corruption rule {advice.rule} ({advice.action}) reads less about this link. {advice.explanation}"
    )
    evidence = {
        **advice.evidence,
        "forecast": forecast,
        "corruption_rule": {"rule": advice.rule, "action": str(advice.action)},
    }
    return Recommendation(Action(repair.action), f"{FORECAST_CAUSE_RULE}{repair.cause}", explanation, evidence)


def _add_step(ticket: Ticket, decision: Decision, direction: str, now: dt.datetime) -> TicketStep:
    advice = _forecast_first(ticket, recommend(ticket.link, direction, history=history(ticket), now=now), now)
    step = TicketStep.objects.create(
        ticket=ticket,
        number=ticket.steps.count() + 1,
        decision=decision,
        direction=direction,
        recommended_action=str(advice.action),
        rule=advice.rule,
        explanation=advice.explanation,
        evidence=advice.evidence,
        created=now,
    )
    audit.record(None, audit.CREATE, step)
    return step


def _locked(ticket: Ticket) -> Ticket:
    return Ticket.objects.select_for_update().select_related("link").get(pk=ticket.pk)


def _change(ticket: Ticket, user, **fields: Any) -> Ticket:
    before = audit.snapshot(ticket)
    for name, value in fields.items():
        setattr(ticket, name, value)
    ticket.save()
    audit.record(user, audit.UPDATE, ticket, before=before)
    return ticket


def start(ticket: Ticket, user) -> Ticket:
    """open or reopened -> in_progress; the user takes it if nobody has."""
    with transaction.atomic():
        ticket = _locked(ticket)
        if ticket.state not in STARTABLE:
            raise TicketStateError(
                f"ticket {ticket.pk} is {ticket.get_state_display()}; only an open or reopened ticket can start"
            )
        return _change(ticket, user, state=State.IN_PROGRESS, assignee=ticket.assignee or user)


@dataclass
class ActionResult:
    ticket: Ticket
    step: TicketStep
    link_enabled: bool
    message: str


def record_action(
    ticket: Ticket,
    user,
    action_taken: str,
    notes: str = "",
    now: dt.datetime | None = None,
    new_serial: str = "",
) -> ActionResult:
    """The technician did `action_taken` on the current step: it is recorded (followed or not),
    the link's open corruption events end, the link is enabled again and validation starts (unless the link is disabled for another
    reason than corruption, which the message says: validation then starts when it is enabled).
    A reseat or replacement also updates the transceiver it touched (_update_transceiver)."""
    if action_taken not in ACTIONS:
        raise ValueError(f"action_taken must be one of {', '.join(ACTIONS)}, got {action_taken!r}")
    now = now or timezone.now()
    with transaction.atomic():
        ticket = _locked(ticket)
        if ticket.state != State.IN_PROGRESS:
            raise TicketStateError(
                f"ticket {ticket.pk} is {ticket.get_state_display()}; record an action on a ticket in progress (start it first)"
            )
        _check_taken_down_safely(ticket)
        step = ticket.steps.order_by("-number").first()
        assert step is not None  # a ticket opens with its first step
        before = audit.snapshot(step)
        step.action_taken = action_taken
        step.followed = action_taken == step.recommended_action
        step.technician = user
        step.notes = notes
        step.acted_at = now
        step.save()
        audit.record(user, audit.UPDATE, step, before=before)
        _update_transceiver(ticket.link_id, step, user, action_taken, new_serial.strip(), now)
        # The repair ends the fault episode: corruption after it opens a new event and decision.
        CorruptionEvent.objects.filter(link=ticket.link, ended_at__isnull=True).update(ended_at=now)
        link = Link.objects.select_for_update(of=("self",)).get(pk=ticket.link_id)
        enabled, message = _enable_after_repair(link, user, action_taken)
        _change(
            ticket,
            user,
            state=State.AWAITING_VALIDATION,
            validation_started_at=now if enabled else None,
            assignee=ticket.assignee or user,
        )
        work_orders.regroup_on_commit(ticket.fabric_id)  # repaired: no longer waits for a visit
    return ActionResult(ticket, step, enabled, message)


TRANSCEIVER_ACTIONS = {Action.RESEAT_TRANSCEIVER, Action.REPLACE_TRANSCEIVER, Action.REPLACE_FAR_TRANSCEIVER}


def acted_end(step: TicketStep, action: str) -> str:
    """Which end ("a" or "z") a transceiver action touches: the step's local end (the receiving
    end of its direction, or a preventive step's end), the far one for replace_far_transceiver."""
    local = step.evidence.get("local_end") or ("z" if step.direction == Direction.A_TO_Z else "a")
    return ("a" if local == "z" else "z") if action == Action.REPLACE_FAR_TRANSCEIVER else local


def _update_transceiver(link_id: int, step: TicketStep, user, action: str, new_serial: str, now: dt.datetime) -> None:
    """The transceiver record follows the repair, so the next recommendation (reseated recently?)
    and the ticket's "what to bring" read the part in the port. A reseat stamps last_reseated_at; a
    replacement is a new part: installed now, never reseated, with the new serial when the technician
    gave it, else a blank serial (the old one is gone; the audit keeps it)."""
    if action not in TRANSCEIVER_ACTIONS:
        return
    transceiver = Transceiver.objects.select_for_update().filter(link_id=link_id, side=acted_end(step, action)).first()
    if transceiver is None:  # the import recorded no optic at that end: nothing to update
        return
    before = audit.snapshot(transceiver)
    if action == Action.RESEAT_TRANSCEIVER:
        transceiver.last_reseated_at = now
    else:
        transceiver.serial = new_serial
        transceiver.installed_at = now
        transceiver.last_reseated_at = None
    transceiver.save()
    audit.record(user, audit.UPDATE, transceiver, before=before)


# Parallel optics take a multi-fibre MPO cable; the others a duplex LC pair (one fibre each way).
PARALLEL_OPTICS = ("SR4", "PSM4", "DR4", "SR8", "DR8", "SR10")


def connector(transceiver_model: str) -> str:
    """The cable connector a transceiver model takes: what the technician brings with the cable."""
    return "MPO" if transceiver_model.upper().endswith(PARALLEL_OPTICS) else "LC duplex"


def _check_taken_down_safely(ticket: Ticket) -> None:
    """A preventive ticket's link is in service: its repair takes the link down, which only the
    work order's start does safely (maintenance.services.visits: through the capacity guard, with a
    restoration if needed). So its action is recorded while that order is in progress (its finish
    records it), not straight from the ticket. A repair ticket's link is already out of service."""
    if ticket.kind != Ticket.Kind.PREVENTIVE or ticket.link.admin_state != Link.AdminState.ENABLED:
        return
    entry = WorkOrderTicket.objects.filter(ticket=ticket, current=True).select_related("work_order").first()
    if entry is not None and entry.work_order.state == WorkOrder.State.IN_PROGRESS:
        return
    order = f"work order {entry.work_order_id}" if entry is not None else "its work order"
    raise WorkOrderNotStarted(
        f"The link {ticket.link} is in service and this repair takes it down: start {order} first: "
        "starting takes the link down only if every ToR keeps its capacity."
    )


def _enable_after_repair(link: Link, user, action_taken: str) -> tuple[bool, str]:
    if link.admin_state == Link.AdminState.ENABLED:
        return True, "The link is enabled; validation has started."
    if link.admin_reason != "corruption":
        reason = link.admin_reason or "no reason given"
        return False, (
            f"The link stays disabled for another reason ({reason}); validation starts once it is enabled again."
        )
    # Through the guard (always allowed): audited, published, and the optimizer re-runs, since
    # the capacity it gives back may let links kept for capacity go.
    link_state.set_admin_state(
        link,
        Link.AdminState.ENABLED,
        f"repair: {action_taken}",
        user,
        why=f"link {link.pk} enabled after repair ({action_taken})",
    )
    return True, "The link is enabled again; validation has started."


def counts(user) -> dict[str, int]:
    """The nav's numbers: unresolved tickets, and those of them assigned to the user, in one query."""
    return Ticket.objects.filter(state__in=UNRESOLVED).aggregate(
        unresolved=Count("pk"), assigned_to_me=Count("pk", filter=Q(assignee=user))
    )


def comment(ticket: Ticket, user, text: str) -> TicketComment:
    with transaction.atomic():
        note = TicketComment.objects.create(ticket=ticket, author=user, text=text)
        audit.record(user, audit.CREATE, note)
    return note


def assign(ticket: Ticket, user, assignee) -> Ticket:
    with transaction.atomic():
        ticket = _locked(ticket)
        if ticket.state == State.RESOLVED:
            raise TicketStateError(f"ticket {ticket.pk} is resolved; a resolved ticket cannot be assigned")
        return _change(ticket, user, assignee=assignee)


def _clean_since(ticket: Ticket) -> dt.datetime | None:
    """When the validation window of an awaiting ticket began, or None if it is not clean now."""
    link = ticket.link
    if link.admin_state != Link.AdminState.ENABLED:
        return None
    # Kept disabled for another reason at the repair: the window starts when it was enabled.
    since = ticket.validation_started_at or link.admin_changed_at
    if since is None:
        return None
    events = CorruptionEvent.objects.filter(link=link)
    if events.filter(Q(ended_at__isnull=True) | Q(first_seen__gte=since)).exists():
        return None
    if DirectionHealth.objects.filter(link=link, health=Link.Health.CORRUPTING).exists():
        return None
    return since


def validation_ends_at(ticket: Ticket) -> dt.datetime | None:
    """When an awaiting ticket's validation window ends: its start (the action, or the link's return
    to service when it stayed out then, e.g. a work order's visit) plus the window; None while it
    awaits no validation or its link is still out of service. A preventive ticket may resolve
    before (_preventive_done)."""
    if ticket.state != State.AWAITING_VALIDATION:
        return None
    link = ticket.link
    since = ticket.validation_started_at or (
        link.admin_changed_at if link.admin_state == Link.AdminState.ENABLED else None
    )
    return None if since is None else since + dt.timedelta(hours=config()["validation_window_hours"])


def _measured_through(link_id: int, until: dt.datetime) -> bool:
    """Whether both directions of the link have a loss rate from a window ending at or after
    `until`: polls kept arriving through the validation window. A link whose polls stopped is not
    validated by silence; its ticket waits until fresh clean windows cover the whole window."""
    newest = DirectionHealth.objects.filter(link_id=link_id).aggregate(
        directions=Count("pk", filter=Q(corruption_time__isnull=False)), oldest=Min("corruption_time")
    )
    return newest["directions"] == len(Direction.values) and newest["oldest"] >= until


def _preventive_done(step: TicketStep | None) -> bool:
    """A preventive step (no decision: its advice came from the forecast) has done its work once
    the link's forecast is no longer at risk: the trend no longer heads for the limit. Corruption
    since the action was ruled out by _clean_since; without the forecast clearing, the usual
    validation window decides, as for a repair."""
    return (
        step is not None
        and step.decision_id is None
        and not LinkForecast.objects.filter(link_id=step.ticket.link_id, at_risk=True).exists()
    )


def validate_tickets(now: dt.datetime | None = None, fabric: Fabric | None = None) -> list[int]:
    """Resolve every ticket awaiting validation whose link has been clean for the validation
    window, with measurements through its end in both directions, or (a preventive step) clean
    since the action with its forecast no longer at risk; its last step's outcome becomes fixed.
    Returns the resolved tickets' ids."""
    now = now or timezone.now()
    window = dt.timedelta(hours=config()["validation_window_hours"])
    awaiting = Ticket.objects.filter(state=State.AWAITING_VALIDATION).filter(
        Q(validation_started_at__isnull=True)
        | Q(validation_started_at__lte=now - window)
        | Q(kind=Ticket.Kind.PREVENTIVE)  # may resolve before the window ends (_preventive_done)
    )
    if fabric is not None:
        awaiting = awaiting.filter(fabric=fabric)
    resolved = []
    for ticket_id in awaiting.values_list("pk", flat=True):
        with transaction.atomic():
            ticket = _locked(Ticket(pk=ticket_id))
            if ticket.state != State.AWAITING_VALIDATION:
                continue
            since = _clean_since(ticket)
            if since is None:
                continue
            step = ticket.steps.order_by("-number").first()
            if not _preventive_done(step) and (
                now - since < window or not _measured_through(ticket.link_id, since + window)
            ):
                continue
            if step is not None:
                before = audit.snapshot(step)
                step.outcome = TicketStep.Outcome.FIXED
                step.save(update_fields=["outcome"])
                audit.record(None, audit.UPDATE, step, before=before)
            _change(ticket, None, state=State.RESOLVED, resolved_at=now)
            resolved.append(ticket_id)
    return resolved
