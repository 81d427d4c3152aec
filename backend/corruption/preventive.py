"""Preventive tickets (issue #19): repair a link whose optics are forecast to fail, before it corrupts.

    open_preventive(link, user)    an operator's (POST /api/tickets/preventive/): the link must have
                                   an at-risk forecast (telemetry.LinkForecast) and no unresolved
                                   ticket; every problem is listed in one 400
    auto_open(fabric, link_ids)    derivation's, after it wrote the forecasts of the links whose
                                   trends moved, when the fabric's `auto_preventive_tickets` is on

A preventive ticket has kind `preventive`, no CorrOpt decision, and its link stays in service. Its
first step's advice comes from the forecast's cause (the ticket rules' actions; rule
`preventive.<cause>`: the forecast endpoint's recommended action, telemetry.services.forecasts),
its evidence is the forecast as GET /api/links/{id}/forecast/ shows it:

    decaying_transmitter   replace_transceiver  at the end to act on (the transmitting end)
    contamination          clean_fiber          the connectors, the end whose Rx falls first
    bent_fiber             replace_cable
    loose_transceiver      reseat_transceiver   at the end to act on
    unknown                clean_fiber          the endpoint's "inspect"; cleaning is the generic
                                                sequence's first step (recommend's no_optical_data)

The ticket's `direction` is the one whose receiving end is the end to act on (the forecast's
`cause_side`, else the end whose reading crosses), so a work order reads "near end" as a repair
ticket's: footprints, locations and batching with repairs on the same cable or rack need nothing new.
From there the ticket is worked as any (start, act, comment, assign); its validation is in
corruption.tickets.validate_tickets: resolved once the action is recorded, the link has had no
corruption since and its forecast is no longer at risk, or else after the usual validation window
without corruption. Corruption before that makes it a repair as usual (decide_event adds a step).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from audit import services as audit
from fabric.models import Fabric, Link
from lightpath.numbers import dbm_text
from lightpath.problems import Problems
from maintenance.services import work_orders
from telemetry.models import LinkForecast
from telemetry.services import forecasts

from .models import Ticket, TicketStep
from .recommend import Action
from .tickets import PREVENTIVE_RULE_PREFIX as PREVENTIVE_RULE
from .tickets import UNRESOLVED, config, forecast_evidence

Cause = LinkForecast.Cause

# Why the cause names that repair: the forecast's pattern (Table 3.2).
PATTERNS: dict[str, str] = {
    Cause.DECAYING_TRANSMITTER: "its Tx power falls while its laser bias rises (a decaying transmitter)",
    Cause.CONTAMINATION: "the Rx power falls at that end only while the far end's Tx holds (contamination)",
    Cause.BENT_FIBER: "the Rx power stepped down at both ends (a bent or damaged fiber)",
    Cause.LOOSE_TRANSCEIVER: "a lane is dark or erratic (a loose transceiver)",
    Cause.UNKNOWN: "no known pattern names the cause",
}


def _when(value: dt.datetime | None) -> str:
    return "never" if value is None else value.astimezone(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")


def _trend(slope_db_per_day: float) -> str:
    """'falling 0.40 dB a day', 'rising ...' or 'flat' (a reading already under its limit is at risk
    whatever its slope), as the UI's slopeText says it."""
    size = f"{abs(slope_db_per_day):.2f}"
    if size == "0.00":
        return "flat"
    return f"{'falling' if slope_db_per_day < 0 else 'rising'} {size} dB a day"


def _reading(forecast: LinkForecast) -> str:
    """What the forecast saw, in one sentence."""
    link = forecast.link
    switch, port = (link.a_switch.name, link.a_port) if forecast.side == "a" else (link.z_switch.name, link.z_port)
    # People count lanes from 1, as modules (CMIS) number them; the forecast's `lane` counts from 0.
    lane = forecast.lane + 1
    where = f"{'Tx' if forecast.quantity == LinkForecast.Quantity.TX else 'Rx'} power of lane {lane} at {switch}:{port}"
    sure = f"confidence {forecast.confidence:.0%}"
    if forecast.level_dbm is None or forecast.slope_db_per_day is None or forecast.limit_dbm is None:
        return f"The {where} is flagged from {_when(forecast.crossing_at)} ({sure})."
    return (
        f"The {where} is {dbm_text(forecast.level_dbm)}, {_trend(forecast.slope_db_per_day)}, and is "
        f"forecast to reach its limit {dbm_text(forecast.limit_dbm)} ({forecast.limit_provenance}) at "
        f"{_when(forecast.crossing_at)} (between {_when(forecast.earliest_at)} and {_when(forecast.latest_at)}; {sure})."
    )


def advice(forecast: LinkForecast) -> tuple[Action, str, str, dict[str, Any]]:
    """(action, rule, explanation, evidence) of a preventive step for this forecast: the forecast
    endpoint's recommendation (telemetry.services.forecasts), whose "inspect" for an unknown cause
    becomes cleaning, the generic sequence's first step (an action a technician can record)."""
    link = forecast.link
    action, what = forecasts.recommendation(forecast, link)
    if action == forecasts.INSPECT:
        action, what = (
            Action.CLEAN_FIBER,
            f"{what}, cleaning the connectors at the {forecasts.act_on_side(forecast).upper()} end first",
        )
    explanation = (
        f"{what}: {PATTERNS[forecast.cause]}. {_reading(forecast)} The link stays in service until the repair."
    )
    side = forecasts.act_on_side(forecast)
    evidence = {
        "link": {"id": link.pk, "name": str(link), "fabric": link.fabric_id},
        "local_end": side,
        "far_end": "z" if side == "a" else "a",
        "forecast": forecast_evidence(forecast, link),
    }
    return Action(action), f"{PREVENTIVE_RULE}{forecast.cause}", explanation, evidence


def _forecast_of(link_id: int) -> LinkForecast | None:
    return LinkForecast.objects.select_related("link__a_switch", "link__z_switch").filter(link_id=link_id).first()


def _create(forecast: LinkForecast, user, now: dt.datetime) -> Ticket:
    action, rule, explanation, evidence = advice(forecast)
    side = forecasts.act_on_side(forecast)
    ticket = Ticket.objects.create(
        fabric_id=forecast.link.fabric_id,
        link=forecast.link,
        kind=Ticket.Kind.PREVENTIVE,
        # The receiving end of this direction is the end to act on (a repair ticket's near end).
        direction="a_to_z" if side == "z" else "z_to_a",
        decision=None,
        created=now,
    )
    audit.record(user, audit.CREATE, ticket)
    step = TicketStep.objects.create(
        ticket=ticket,
        number=1,
        decision=None,
        direction=ticket.direction,
        recommended_action=str(action),
        rule=rule,
        explanation=explanation,
        evidence=evidence,
        created=now,
    )
    audit.record(user, audit.CREATE, step)
    # The new repair may share a cable or transceiver with a waiting one: one visit.
    work_orders.regroup_on_commit(ticket.fabric_id)
    return ticket


def _unresolved(link_id: int) -> Ticket | None:
    return Ticket.objects.filter(link_id=link_id, state__in=UNRESOLVED).first()


def open_preventive(link_id: Any, user, now: dt.datetime | None = None) -> Ticket:
    """Open a preventive ticket for the link (its id); a 400 (DRF ValidationError
    `{"link": [...]}`) lists every reason it cannot: an unknown link, no forecast, a forecast not
    at risk, an unresolved ticket. Each message starts with the link's name, not the word "link":
    clients print the field before it ("link: p0-tor0:eth2/1 - p0-fab0:eth1/1 already has ...")."""
    now = now or timezone.now()
    problems = Problems()
    with transaction.atomic():
        link = Link.objects.select_for_update().filter(pk=link_id).first() if isinstance(link_id, int) else None
        if link is None:
            problems.add("link", f"no link with id {link_id!r}")
            problems.raise_validation_error()
        assert link is not None
        forecast = _forecast_of(link.pk)
        if forecast is None:
            problems.add("link", f"{link} has no forecast: its optics are not trending toward a limit")
        elif not forecast.at_risk:
            problems.add(
                "link",
                f"{link} is not at risk: its forecast crossing is {_when(forecast.crossing_at)} "
                f"with confidence {forecast.confidence:.0%}",
            )
        existing = _unresolved(link.pk)
        if forecast is not None and forecast.at_risk and existing is None and forecasts.link_failed(link):
            # Corrupting in service (CorrOpt kept it for capacity): not "at risk" any more (forecasts.at_risk_q).
            problems.add(
                "link",
                f"{link} has already failed (corrupting, or out of service for corruption): its repair is a repair "
                "ticket's, not a preventive one",
            )
        if existing is not None:
            problems.add(
                "link", f"{link} already has an unresolved {existing.kind} ticket #{existing.pk} ({existing.state})"
            )
        problems.raise_validation_error()
        assert forecast is not None
        return _create(forecast, user, now)


def auto_open(fabric: Fabric, link_ids: Iterable[int], now: dt.datetime | None = None) -> list[Ticket]:
    """With the fabric's `auto_preventive_tickets`, a preventive ticket for each of these links
    that is at risk with a known cause, has no unresolved ticket and had none resolved within
    `reopen_days` (a ticket
    just validated is not opened again at once while the trend window still holds the old decline).
    Runs in the caller's transaction (derivation's); each ticket in a savepoint, so a ticket an
    operator opened at the same moment only skips that link."""
    if not fabric.auto_preventive_tickets:
        return []
    now = now or timezone.now()
    recent = now - dt.timedelta(days=config()["reopen_days"])
    at_risk = (
        LinkForecast.objects.filter(forecasts.at_risk_q(), fabric=fabric, link_id__in=list(link_ids))
        # A pattern not yet clear (the first runs of a fade can read "unclear" before the trend
        # shows whose optic it is) waits for the next bucket rather than sending a technician to
        # inspect; an operator can still open one by hand.
        .exclude(cause=LinkForecast.Cause.UNKNOWN)
        .exclude(link__tickets__state__in=UNRESOLVED)
        .exclude(link__tickets__resolved_at__gte=recent)
        .select_related("link__a_switch", "link__z_switch")
        .order_by("link_id")
    )
    opened = []
    for forecast in at_risk:
        try:
            with transaction.atomic():
                opened.append(_create(forecast, None, now))
        except IntegrityError:  # one unresolved ticket per link: someone opened it meanwhile
            continue
    return opened
