"""The maintenance plan of a stored fabric's open work orders (issue #18, "Maintenance planner"):
which technician visits which order when, so that no instant puts a ToR under its floor, with the
least expected penalty-hours (lightpath_core::maintenance explains the model).

What the planner is given, per open work order:
- its footprint, duration and chance of success (the work order's own fields);
- its penalty rate: the CorrOpt penalty (linear, as the optimizer's) of the corrupting links the
  visit repairs that are still in service: its tickets' links and its footprint's links that are
  enabled, up and have an open corruption event. A ticket's own link is usually disabled already
  (rate 0); what costs while the order waits is a corrupting sibling kept for capacity on the same
  cable or component, which the visit replaces too;
  A preventive ticket's link is in service and not corrupting yet: it is given the penalty it is
  expected to cost (forecast_penalties), so a preventive-only order is planned when there is room
  rather than left for later with rate 0;
- its restoration when its footprint alone is unsafe: the capacity restoration (engine.restore) over
  the links disabled for corruption, as starting the visit would offer it now; none when none exists
  (the planner then leaves the order for later unless other visits free capacity, which they don't:
  nothing a visit repairs is counted on);
- its location: the rack of the switch where the work is (the work order's location: a far-end
  transceiver's switch, a breakout cable's breakout side; an order without one, its link deleted,
  goes by its first footprint link's A switch; null when the switch has no rack, the planner then
  grouping by the switch's name) and the row of that rack (work_orders.row_of, the rule the work
  order's location answer shows too).

The plan runs on a session built for it (engine.engine_fabric), not the fabric's live one: the search
takes up to its time budget, and the live session is held under a lock every capacity guard waits on.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils import timezone

import lightpath_engine
from corruption import services as corruption
from corruption.models import Ticket
from fabric.models import Fabric, Link, Switch
from fabric.services import engine
from telemetry.models import DirectionHealth, LinkForecast

from ..models import WorkOrder
from .candidates import lossy_links
from .headroom import headroom, short_before
from .work_orders import row_of

TRAVEL_KEYS = ("same_rack_s", "same_row_s", "elsewhere_s")


@dataclass(frozen=True)
class PlanParams:
    technicians: int
    shift_hours: float
    travel: dict[str, int] | None = None
    time_budget_s: float | None = None
    shift_start: dt.datetime | None = None  # None: now, to the minute
    assignees: list[str] | None = None  # technician i is assignees[i]; None: "Technician i+1"


def default_travel() -> dict[str, int]:
    """Walking times between visits, seconds (settings MAINTENANCE["travel_s"])."""
    maintenance: dict[str, Any] = settings.MAINTENANCE
    return {key: int(maintenance["travel_s"][key]) for key in TRAVEL_KEYS}


def corrupting_penalties(link_ids: Iterable[int]) -> dict[int, float]:
    """Link id -> CorrOpt penalty of the links among `link_ids` that corrupt while in service (an
    open event on a link enabled and up), rates as the optimizer reads them: the largest open
    event's rate for its direction, the other direction's measured rate where it corrupts or is lossy."""
    events: dict[int, tuple[str, float]] = {}
    for link_id, direction, rate in (
        corruption.open_events_on_usable_links()
        .filter(link_id__in=list(link_ids))
        .order_by("-last_rate", "id")
        .values_list("link_id", "direction", "last_rate")
    ):
        events.setdefault(link_id, (direction, rate))
    rates = {link_id: {"a_to_z": 0.0, "z_to_a": 0.0} for link_id in events}
    for link_id, direction, measured in DirectionHealth.objects.filter(
        link_id__in=list(events),
        health__in=[Link.Health.CORRUPTING, Link.Health.LOSSY],
        corruption_rate__isnull=False,
    ).values_list("link_id", "direction", "corruption_rate"):
        rates[link_id][direction] = measured or 0.0
    for link_id, (direction, rate) in events.items():
        rates[link_id][direction] = rate
    return {
        link_id: lightpath_engine.corropt_penalty(
            "linear", min(max(r["a_to_z"], 0.0), 1.0), min(max(r["z_to_a"], 0.0), 1.0)
        )
        for link_id, r in rates.items()
    }


def forecast_penalties(fabric: Fabric, link_ids: Iterable[int], now: dt.datetime) -> dict[int, float]:
    """Link id -> expected penalty rate of the links among `link_ids` with a forecast: the CorrOpt
    penalty the link would cost once it corrupts (at the fabric's action threshold, the least loss
    rate CorrOpt acts on), weighted by the forecast's confidence and by how near its crossing is
    (1 when due, 1/2 at the fabric's horizon, falling after: horizon / (horizon + time to crossing)).
    Below a corrupting link's penalty, so repairs of corruption still come first."""
    horizon = dt.timedelta(days=fabric.forecast_horizon_days)
    corrupt = lightpath_engine.corropt_penalty("linear", min(max(fabric.corruption_action_threshold, 0.0), 1.0))
    return {
        link_id: corrupt * confidence * (horizon / (horizon + max(crossing - now, dt.timedelta(0))))
        for link_id, confidence, crossing in LinkForecast.objects.filter(link_id__in=list(link_ids)).values_list(
            "link_id", "confidence", "crossing_at"
        )
    }


def _work_switch(order: WorkOrder) -> Switch | None:
    """The switch at the order's location (see work_orders.location), None without one."""
    link = order.location_link
    if link is None:
        return None
    return link.z_switch if order.location_side == "z" else link.a_switch


def link_names(link_ids: Iterable[int]) -> dict[int, str]:
    return {
        link.pk: str(link) for link in Link.objects.filter(pk__in=list(link_ids)).select_related("a_switch", "z_switch")
    }


def plan_fabric(fabric: Fabric, params: PlanParams) -> dict[str, Any]:
    """The plan of the fabric's open work orders: the engine's answer with link and work order
    names, and what each order was given (penalty rate, restoration, location)."""
    orders = list(
        WorkOrder.objects.filter(fabric=fabric, state=WorkOrder.State.OPEN)
        .order_by("id")
        .select_related("location_link__a_switch", "location_link__z_switch")
        .prefetch_related("entries__ticket")
    )
    ticket_links = {
        order.pk: [entry.ticket.link_id for entry in order.entries.all() if entry.current] for order in orders
    }
    penalties = corrupting_penalties({pk for o in orders for pk in (*o.footprint, *ticket_links[o.pk])})
    preventive_links = {
        entry.ticket.link_id
        for order in orders
        for entry in order.entries.all()
        if entry.current and entry.ticket.kind == Ticket.Kind.PREVENTIVE
    }
    expected = forecast_penalties(fabric, preventive_links - penalties.keys(), timezone.now())
    state = engine.engine_fabric(fabric)
    session = state.session()
    in_progress = {
        pk
        for footprint in WorkOrder.objects.filter(fabric=fabric, state=WorkOrder.State.IN_PROGRESS).values_list(
            "footprint", flat=True
        )
        for pk in footprint
    }
    candidates: dict[int, tuple[float, float]] | None = None
    footprints = {order.pk: [pk for pk in order.footprint if pk in state.link_index] for order in orders}
    unlocated = Link.objects.select_related("a_switch").in_bulk(
        [footprints[order.pk][0] for order in orders if footprints[order.pk] and order.location_link is None]
    )
    racks: dict[str, int] = {}
    rows: dict[str, int] = {}
    given: list[engine.PlanOrder] = []
    described: dict[int, dict[str, Any]] = {}
    for order in orders:
        footprint = footprints[order.pk]
        if not footprint:
            continue  # its links were deleted: nothing to take down, nothing to plan
        switch = _work_switch(order) or unlocated[footprint[0]].a_switch
        rack = switch.rack or switch.name  # the planner's grouping: a switch without a rack is its own
        row = row_of(rack, switch.pod)
        repaired = {*order.footprint, *ticket_links[order.pk]}
        forecast_rate = sum(expected.get(pk, 0.0) for pk in ticket_links[order.pk])
        rate = sum(penalties.get(pk, 0.0) for pk in repaired) + forecast_rate
        restoration: engine.Restoration | None = None
        alone = session.evaluate([(state.link_index[pk], "disabled") for pk in footprint])
        if not alone["safe"]:
            if candidates is None:
                candidates = lossy_links(fabric.pk, exclude=in_progress)
            usable = {pk: rates for pk, rates in candidates.items() if pk not in footprint}
            found = engine.restore(state, usable, footprint, session=session)
            restoration = found if found.restores_all and found.enable else None
        given.append(
            engine.PlanOrder(
                id=order.pk,
                footprint=footprint,
                duration_s=order.duration_s,
                success_probability=order.success_chance,
                rack=racks.setdefault(rack, len(racks)),
                row=rows.setdefault(row, len(rows)),
                penalty_rate=rate,
                restoration=None if restoration is None else restoration.enable,
                restoration_penalty_rate=0.0 if restoration is None else restoration.added_penalty,
            )
        )
        described[order.pk] = {
            "id": order.pk,
            "action": order.action,
            "component_name": order.component_name,
            "rack": switch.rack or None,  # a place to walk to: never the switch's name
            "row": row,
            "penalty_rate": rate,
            "forecast_penalty_rate": forecast_rate,
            "safe_alone": bool(alone["safe"]),
            "restoration": None
            if restoration is None
            else {"links": restoration.enable, "penalty_rate": restoration.added_penalty},
        }
    travel = params.travel or default_travel()
    shift_s = round(params.shift_hours * 3600)
    shift_start = params.shift_start or timezone.now().replace(second=0, microsecond=0)
    result = engine.maintenance_plan(
        state,
        given,
        technicians=params.technicians,
        shift_s=shift_s,
        travel=(travel["same_rack_s"], travel["same_row_s"], travel["elsewhere_s"]),
        session=session,
        time_budget_s=params.time_budget_s,
    )
    day = headroom(state, session, result["visits"], shift_s)
    names = link_names(
        {pk for visit in result["visits"] for pk in (*visit["links_down"], *visit["restored"])}
        | {pk for entry in described.values() if entry["restoration"] for pk in entry["restoration"]["links"]}
    )

    def named(link_ids: Iterable[int]) -> list[dict[str, Any]]:
        return [{"id": pk, "name": names[pk]} for pk in link_ids]

    def technician_name(index: int) -> str:
        return params.assignees[index] if params.assignees else f"Technician {index + 1}"

    def at(offset_s: int) -> str:
        return (shift_start + dt.timedelta(seconds=offset_s)).isoformat()

    visits = [
        {
            **visit,
            "technician_name": technician_name(visit["technician"]),
            "start_at": at(visit["start_s"]),
            "end_at": at(visit["end_s"]),
            "links_down": named(visit["links_down"]),
            "restored": named(visit["restored"]),
        }
        for visit in result["visits"]
    ]
    for entry in described.values():
        if entry["restoration"]:
            entry["restoration"]["links"] = named(entry["restoration"]["links"])
    return {
        "fabric": {"id": fabric.pk, "name": fabric.name},
        "technicians": params.technicians,
        "assignees": params.assignees,
        "shift_start": shift_start.isoformat(),
        "shift_s": shift_s,
        "travel": travel,
        **result,
        "visits": visits,
        "headroom": day,
        "short_before": short_before(state, session),
        "work_orders": [described[order.id] for order in given],
    }
