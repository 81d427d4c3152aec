"""A technician's day (issue #18, the "Today" page): their visits in the newest maintenance plan
that names them, each with its work order as it is now, and whether the plan still holds; then the
orders in progress that are theirs though the plan did not give them (they started one, or one of
its tickets is assigned to them), so that an order an operator started at their request shows.

The plan is a `tickets.plan` job's result (maintenance.jobs): nothing is stored beside it. It goes
stale when the orders it was made from change under it: an order opened after the plan ran (the
planner never saw it) or an order of the plan cancelled since (its tickets regrouped into another
order, or repaired without the visit), or an order it left for later or gave to someone else
started since. An order done since is the day going as planned.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q

from fabric.models import Fabric
from jobs.models import Job

from ..models import WorkOrder
from .visits import restored_links
from .work_orders import footprint_links

PLAN_KIND = "tickets.plan"
MAX_STALE_REASONS = 20  # then one sentence counts the rest


@dataclass
class Day:
    """What GET /api/work-orders/today/ answers, before each work order is serialized."""

    user: str
    plan: dict[str, Any] | None
    visits: list[dict[str, Any]] = field(default_factory=list)  # "work_order" is the WorkOrder row
    detail: str = ""


def newest_plan(username: str, fabric: Fabric | None) -> Job | None:
    """The newest succeeded plan whose assignees include `username` (of `fabric` if given)."""
    plans = Job.objects.filter(kind=PLAN_KIND, state=Job.State.SUCCEEDED, result__assignees__contains=[username])
    if fabric is not None:
        plans = plans.filter(fabric=fabric)
    return plans.select_related("fabric").order_by("-finished", "-id").first()


def _clock(moment: dt.datetime) -> str:
    """08:00 UTC, as the UI writes times (lib/format.ts)."""
    return f"{moment.astimezone(dt.UTC):%H:%M} UTC"


def _where(order: WorkOrder) -> str:
    """' in rack R', else ' at switch S' (a switch without a rack), else '' (no location)."""
    link = order.location_link
    if link is None or order.location_side not in ("a", "z"):
        return ""
    switch = link.z_switch if order.location_side == "z" else link.a_switch
    return f" in rack {switch.rack}" if switch.rack else f" at switch {switch.name}"


def _started_elsewhere(job: Job, result: dict[str, Any]) -> list[str]:
    """Orders the plan left for later, or gave to another name than the one who started them,
    started after the plan ran: the day is no longer the plan's."""
    given = {
        visit["work_order"]: result["assignees"][visit["technician"]]
        for visit in result["visits"]
        if visit["technician"] < len(result["assignees"])
    }
    considered = [order["id"] for order in result.get("work_orders", [])] or list(given)
    started = (
        WorkOrder.objects.filter(pk__in=considered, started_at__gt=job.started or job.created)
        .select_related("started_by")
        .order_by("started_at", "id")
    )
    reasons = []
    for order in started:
        starter = order.started_by.username if order.started_by else "someone"
        if order.pk not in given:
            reasons.append(f"Work order {order.pk}, which this plan left for later, was started by {starter}.")
        elif starter != given[order.pk]:
            reasons.append(f"Work order {order.pk}, planned for {given[order.pk]}, was started by {starter}.")
    return reasons


def _stale_reasons(job: Job, result: dict[str, Any], planned: dict[int, WorkOrder], missing: list[int]) -> list[str]:
    reasons = [f"Work order {pk} no longer exists." for pk in missing]
    reasons += [
        f"Work order {pk} was cancelled after this plan (its tickets were regrouped or repaired)."
        for pk, order in sorted(planned.items())
        if order.state == WorkOrder.State.CANCELLED
    ]
    if job.fabric_id is None:
        return reasons  # the fabric was deleted, and its orders with it
    reasons += _started_elsewhere(job, result)
    # The planner read the open orders when the job started: any opened since were not planned.
    opened = list(
        WorkOrder.objects.filter(
            fabric_id=job.fabric_id,
            state__in=[WorkOrder.State.OPEN, WorkOrder.State.IN_PROGRESS],
            created__gt=job.started or job.created,
        )
        .exclude(pk__in=list(planned))
        .order_by("id")
        .values_list("id", flat=True)
    )
    reasons += [f"Work order {pk} opened after this plan." for pk in opened]
    if len(reasons) > MAX_STALE_REASONS:
        more = len(reasons) - MAX_STALE_REASONS
        reasons = [*reasons[:MAX_STALE_REASONS], f"And {more} more change{'s' if more != 1 else ''} since this plan."]
    return reasons


def _in_progress_beside(username: str, fabric_id: int | None, planned_ids: list[int]) -> list[dict[str, Any]]:
    """The user's orders in progress that the plan did not give them: started by them, or with a
    ticket assigned to them (an operator started it at their request). Each is a visit not from
    the plan: it began when the order started, and no plan says when it ends."""
    mine = Q(started_by__username=username) | Q(entries__current=True, entries__ticket__assignee__username=username)
    orders = (
        WorkOrder.objects.filter(mine, state=WorkOrder.State.IN_PROGRESS)
        .exclude(pk__in=planned_ids)
        .select_related("started_by", "location_link__a_switch", "location_link__z_switch")
        .prefetch_related("entries")
        .distinct()
        .order_by("started_at", "id")
    )
    if fabric_id is not None:
        orders = orders.filter(fabric_id=fabric_id)
    return [
        {
            "work_order": order,
            "planned": False,
            "start_s": None,
            "end_s": None,
            "start_at": order.started_at,
            "end_at": None,
            "links_down": [{"id": link["id"], "name": link["name"]} for link in footprint_links(order)],
            "restored": restored_links(order),
            "done": False,
        }
        for order in orders
    ]


def _beside_plan(beside: list[dict[str, Any]], who: str) -> str:
    if not beside:
        return ""
    ids = ", ".join(str(visit["work_order"].pk) for visit in beside)
    orders = f"work order{'s' if len(beside) != 1 else ''} {ids}"
    return f" Also in progress for {who}, not from the plan: {orders}."


def _detail(username: str, asked_by_self: bool, visits: list[dict[str, Any]]) -> str:
    who = "you" if asked_by_self else username
    if not visits:
        return f"The newest maintenance plan naming {who} gives {who} no visit."
    count = f"{len(visits)} visit{'s' if len(visits) != 1 else ''}"
    done = sum(visit["done"] for visit in visits)
    waiting = [v for v in visits if not v["done"] and v["work_order"].state != WorkOrder.State.CANCELLED]
    if not waiting:
        return f"{count}, all done." if done == len(visits) else f"{count}, none left to do."
    head = f"{count} ({done} done), the next" if done else f"{count}, the first"
    return f"{head} at {_clock(waiting[0]['start_at'])}{_where(waiting[0]['work_order'])}."


def day_of(username: str, fabric: Fabric | None, *, asked_by_self: bool) -> Day:
    """The user's visits in the newest plan naming them, in order, with their orders now; then
    their orders in progress the plan did not give them."""
    who = "you" if asked_by_self else username
    job = newest_plan(username, fabric)
    if job is None:
        beside = _in_progress_beside(username, fabric.pk if fabric else None, [])
        return Day(
            user=username,
            plan=None,
            visits=beside,
            detail=f"No maintenance plan names {who} yet: an operator plans the day on Work orders > Plan the day."
            + _beside_plan(beside, who),
        )
    result = job.result or {}
    technician = result["assignees"].index(username)
    shift_start = dt.datetime.fromisoformat(result["shift_start"])
    planned_ids = [visit["work_order"] for visit in result["visits"]]
    planned = WorkOrder.objects.select_related(
        "started_by", "location_link__a_switch", "location_link__z_switch"
    ).prefetch_related("entries")
    rows = planned.in_bulk(planned_ids)
    missing = sorted(set(planned_ids) - set(rows))
    visits = [
        {
            "work_order": rows[visit["work_order"]],
            "planned": True,
            "start_s": visit["start_s"],
            "end_s": visit["end_s"],
            "start_at": shift_start + dt.timedelta(seconds=visit["start_s"]),
            "end_at": shift_start + dt.timedelta(seconds=visit["end_s"]),
            "links_down": visit["links_down"],
            "restored": visit["restored"],
            "done": rows[visit["work_order"]].state == WorkOrder.State.DONE,
        }
        for visit in sorted(result["visits"], key=lambda v: (v["start_s"], v["work_order"]))
        if visit["technician"] == technician and visit["work_order"] in rows
    ]
    mine = [visit["work_order"].pk for visit in visits]
    beside = _in_progress_beside(username, job.fabric_id, mine)
    reasons = _stale_reasons(job, result, rows, missing)
    plan = {
        "job": job.pk,
        "fabric": result["fabric"] if job.fabric is None else {"id": job.fabric.pk, "name": job.fabric.name},
        "planned_at": job.finished,
        "shift_start": shift_start,
        "shift_end": shift_start + dt.timedelta(seconds=result["shift_s"]),
        "stale": bool(reasons),
        "stale_reasons": reasons,
    }
    detail = _detail(username, asked_by_self, visits) + _beside_plan(beside, who)
    return Day(user=username, plan=plan, visits=[*visits, *beside], detail=detail)
