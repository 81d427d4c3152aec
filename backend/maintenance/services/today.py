"""A technician's day (issue #18, the "Today" page): their visits in the newest maintenance plan
that names them, each with its work order as it is now, and whether the plan still holds.

The plan is a `tickets.plan` job's result (maintenance.jobs): nothing is stored beside it. It goes
stale when the orders it was made from change under it: an order opened after the plan ran (the
planner never saw it) or an order of the plan cancelled since (its tickets regrouped into another
order, or repaired without the visit). An order done since is the day going as planned.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from fabric.models import Fabric
from jobs.models import Job

from ..models import WorkOrder

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


def _rack(order: WorkOrder) -> str | None:
    link = order.location_link
    if link is None or order.location_side not in ("a", "z"):
        return None
    switch = link.z_switch if order.location_side == "z" else link.a_switch
    return switch.rack or switch.name


def _stale_reasons(job: Job, planned: dict[int, WorkOrder], missing: list[int]) -> list[str]:
    reasons = [f"Work order {pk} no longer exists." for pk in missing]
    reasons += [
        f"Work order {pk} was cancelled after this plan (its tickets were regrouped or repaired)."
        for pk, order in sorted(planned.items())
        if order.state == WorkOrder.State.CANCELLED
    ]
    if job.fabric_id is None:
        return reasons  # the fabric was deleted, and its orders with it
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
    rack = _rack(waiting[0]["work_order"])
    where = f" in rack {rack}" if rack else ""
    return f"{head} at {_clock(waiting[0]['start_at'])}{where}."


def day_of(username: str, fabric: Fabric | None, *, asked_by_self: bool) -> Day:
    """The user's visits in the newest plan naming them, in order, with their orders now."""
    job = newest_plan(username, fabric)
    if job is None:
        who = "you" if asked_by_self else username
        return Day(
            user=username,
            plan=None,
            detail=f"No maintenance plan names {who} yet: an operator plans the day on Work orders > Plan.",
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
    reasons = _stale_reasons(job, rows, missing)
    plan = {
        "job": job.pk,
        "fabric": result["fabric"] if job.fabric is None else {"id": job.fabric.pk, "name": job.fabric.name},
        "planned_at": job.finished,
        "shift_start": shift_start,
        "shift_end": shift_start + dt.timedelta(seconds=result["shift_s"]),
        "stale": bool(reasons),
        "stale_reasons": reasons,
    }
    return Day(user=username, plan=plan, visits=visits, detail=_detail(username, asked_by_self, visits))
