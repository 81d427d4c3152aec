"""Work orders: tickets whose repairs share links become one visit (issue #18).

`regroup(fabric_id)` runs whenever a ticket opens, gets a new recommendation or leaves the
technician's hands (corruption.tickets asks for it, once per transaction, on commit): the fabric's tickets that wait for a visit (open,
reopened, in progress) are grouped so that tickets whose repairs' footprints share a link are one
work order (the p1-tor5 breakout cable of two tickets: one order, one footprint). Each ticket keeps
its own steps and validation. An open order whose tickets are still exactly one group stays (its
repair brought up to date); the others end (done when none of their tickets waits any more,
cancelled when their tickets were regrouped) and the new groups open as new orders.

A work order's action is its broadest repair (footprints.BREADTH), its footprint the union of its
repairs' footprints, its duration the sum of its distinct repairs' (one per action and component:
two tickets on one cable are one replacement) and its chance of success the seed's for a followed
recommendation. In-progress orders are left as they are (starting and finishing come with the
engine's restoration, next).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.postgres.aggregates import ArrayAgg
from django.contrib.postgres.fields import ArrayField
from django.db import connection, transaction
from django.db.models import Case, CharField, JSONField, OuterRef, QuerySet, Subquery, Value, When
from django.db.models.fields.json import KeyTransform
from django.db.models.functions import Coalesce

from corruption.models import Ticket, TicketStep
from corruption.recommend import Action
from fabric.models import Link
from fabric.services import link_state
from lightpath_engine import maintenance_row
from telemetry.models import LinkForecast

from ..models import WorkOrder, WorkOrderTicket
from .footprints import BREADTH, Repair, StepAdvice, repairs, success_chance

WAITING = [Ticket.State.OPEN, Ticket.State.REOPENED, Ticket.State.IN_PROGRESS]
CURRENT = [WorkOrder.State.OPEN, WorkOrder.State.IN_PROGRESS]


def waiting_advice(fabric_id: int, exclude: Iterable[int] = ()) -> list[StepAdvice]:
    """The newest step of each of the fabric's tickets waiting for a visit (one query)."""
    steps = (
        TicketStep.objects.filter(ticket__fabric_id=fabric_id, ticket__state__in=WAITING)
        .exclude(ticket_id__in=list(exclude))
        .order_by("ticket_id", "-number")
        .distinct("ticket_id")
        # Of the evidence (kilobytes a step), only a shared component's neighbours are read.
        .annotate(
            neighbours=Case(
                When(recommended_action=Action.REPLACE_SHARED_COMPONENT, then=KeyTransform("neighbours", "evidence")),
                default=None,
                output_field=JSONField(),
            )
        )
        .values_list("ticket_id", "ticket__link_id", "direction", "recommended_action", "rule", "neighbours")
    )
    return [
        StepAdvice(ticket, link, direction, action, rule, {"neighbours": neighbours or []})
        for ticket, link, direction, action, rule, neighbours in steps
    ]


def group(found: list[Repair]) -> list[list[Repair]]:
    """Repairs whose footprints share a link, transitively, in groups (each sorted by ticket)."""
    parent = list(range(len(found)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner: dict[int, int] = {}
    for index, repair in enumerate(found):
        for link_id in repair.footprint:
            if link_id in owner:
                parent[root(index)] = root(owner[link_id])
            else:
                owner[link_id] = index
    groups: dict[int, list[Repair]] = {}
    for index, repair in enumerate(found):
        groups.setdefault(root(index), []).append(repair)
    return sorted((sorted(g, key=lambda r: r.ticket) for g in groups.values()), key=lambda g: g[0].ticket)


def order_fields(repairs_of_order: list[Repair]) -> dict:
    """What a work order of these repairs does, takes down, and how long it takes."""
    lead = min(repairs_of_order, key=lambda r: (BREADTH.index(r.action), -len(r.footprint), r.ticket))
    distinct = {(r.action, r.component): r.duration_s for r in repairs_of_order}
    return {
        "action": str(lead.action),
        "component": lead.component,
        "component_name": lead.component_name,
        "footprint": sorted(set().union(*(r.footprint for r in repairs_of_order))),
        "location_link_id": lead.link,
        "location_side": lead.side,
        "location_both_ends": lead.both_ends,
        "duration_s": sum(distinct.values()),
        "success_chance": success_chance(followed=True),
    }


def regroup_on_commit(fabric_id: int) -> None:
    """Regroup the fabric's work orders once the current transaction commits, once however many
    tickets it changed (the optimizer opens a ticket per link it disables, in one transaction:
    a regroup each would cost O(tickets^2)). Outside a transaction it runs at once."""
    queued = getattr(connection, "run_on_commit", [])
    if any(isinstance(callback, _Regroup) and callback.waits(fabric_id) for _, callback, _ in queued):
        return
    # Robust: work orders are derived from the tickets, which are committed by now; a failed
    # regroup is logged and the next one catches up.
    transaction.on_commit(_Regroup(fabric_id), robust=True)


class _Regroup:
    """A queued regroup of one fabric, recognisable in the connection's on-commit list until it ran."""

    def __init__(self, fabric_id: int) -> None:
        self.fabric_id = fabric_id
        self.ran = False

    def waits(self, fabric_id: int) -> bool:
        return self.fabric_id == fabric_id and not self.ran

    def __call__(self) -> None:
        self.ran = True
        regroup(self.fabric_id)


def regroup(fabric_id: int) -> list[WorkOrder]:
    """Bring the fabric's open work orders in line with its waiting tickets; returns the open
    orders. Runs in its own transaction (or the caller's) under the fabric's link-state lock, so
    two regroups of one fabric never interleave, nor with a change of its links."""
    with transaction.atomic():
        link_state.lock_fabric(fabric_id)
        busy = WorkOrderTicket.objects.filter(
            current=True, work_order__fabric_id=fabric_id, work_order__state=WorkOrder.State.IN_PROGRESS
        ).values_list("ticket_id", flat=True)
        wanted = group(repairs(waiting_advice(fabric_id, exclude=busy)))
        existing: dict[frozenset[int], WorkOrder] = {}
        for order in WorkOrder.objects.filter(fabric_id=fabric_id, state=WorkOrder.State.OPEN).prefetch_related(
            "entries"
        ):
            existing[frozenset(entry.ticket_id for entry in order.entries.all() if entry.current)] = order
        kept: list[WorkOrder] = []
        new_groups: list[list[Repair]] = []
        for repairs_of_order in wanted:
            tickets = frozenset(r.ticket for r in repairs_of_order)
            same = existing.pop(tickets, None)
            if same is None:
                new_groups.append(repairs_of_order)
                continue
            fields = order_fields(repairs_of_order)
            if any(getattr(same, name) != value for name, value in fields.items()):
                for name, value in fields.items():
                    setattr(same, name, value)
                same.save(update_fields=[*fields, "updated"])
            kept.append(same)
        waiting = {r.ticket for g in wanted for r in g}
        for tickets, order in existing.items():
            # Every ticket repaired (none waits any more): done; else its tickets were regrouped.
            order.state = WorkOrder.State.CANCELLED if tickets & waiting else WorkOrder.State.DONE
            order.save(update_fields=["state", "updated"])
        WorkOrderTicket.objects.filter(work_order__in=list(existing.values())).update(current=False)
        for repairs_of_order in new_groups:
            order = WorkOrder.objects.create(fabric_id=fabric_id, **order_fields(repairs_of_order))
            WorkOrderTicket.objects.bulk_create(
                WorkOrderTicket(work_order=order, ticket_id=r.ticket) for r in repairs_of_order
            )
            kept.append(order)
    return sorted(kept, key=lambda order: order.pk)


def with_kinds_and_deadline(orders: QuerySet[WorkOrder]) -> QuerySet[WorkOrder]:
    """The orders with `kinds` (its current tickets' kinds, each once, sorted: a planner tells a
    preventive visit from a repair) and `deadline` (the soonest forecast crossing among its current
    unresolved preventive tickets' links: by then the link is expected to corrupt; null without
    one), each a subquery so a list stays one query."""
    current = WorkOrderTicket.objects.filter(work_order=OuterRef("pk"), current=True)
    kinds = current.values("work_order").annotate(
        kinds=ArrayAgg("ticket__kind", distinct=True, order_by="ticket__kind")
    )
    crossings = LinkForecast.objects.filter(
        link__tickets__work_order_entries__work_order=OuterRef("pk"),
        link__tickets__work_order_entries__current=True,
        link__tickets__kind=Ticket.Kind.PREVENTIVE,
        link__tickets__state__in=[*WAITING, Ticket.State.AWAITING_VALIDATION],
    ).order_by("crossing_at")
    return orders.annotate(
        kinds=Coalesce(Subquery(kinds.values("kinds")), Value([]), output_field=ArrayField(CharField())),
        deadline=Subquery(crossings.values("crossing_at")[:1]),
    )


def row_of(rack: str, pod: int | None) -> str:
    """A rack's row, where a technician walks (the planner's travel times and the location answer):
    the switch's pod when it has one (a pod's racks stand in one row), else the rack name before
    its last '-' (`p1-rack5` in row `p1`), else the rack. The rule is the engine's
    (`lightpath_core::maintenance::row_of`), which the CLI's offline planner uses too. No `Switch.row`
    field: the documents we import carry pods and rack names, and a row field nobody fills would make
    every rack its own row."""
    return maintenance_row(rack, pod)


def location(order: WorkOrder) -> dict | None:
    """Where the work is: the switch, rack, row and port of the repaired component's end, and for a
    cable or fiber its other end as `far` (None while the order has no location: its link was
    deleted). Reads order.location_link with its switches (the list selects them together)."""
    link = order.location_link
    if link is None or order.location_side not in ("a", "z"):
        return None
    ends = [(link.a_switch, link.a_port), (link.z_switch, link.z_port)]
    here, there = ends if order.location_side == "a" else ends[::-1]

    def end(switch, port: str) -> dict:
        # A switch without a rack stands for its own rack, as the planner reads it.
        row = row_of(switch.rack or switch.name, switch.pod)
        return {"switch": switch.name, "rack": switch.rack, "row": row, "port": port}

    return {**end(*here), "far": end(*there) if order.location_both_ends else None}


def footprint_links(order: WorkOrder) -> list[dict]:
    """The footprint's links as a technician reads them (one query; a deleted link drops out)."""
    links = Link.objects.filter(pk__in=order.footprint).select_related("a_switch", "z_switch").order_by("id")
    return [
        {
            "id": link.pk,
            "name": str(link),
            "admin_state": link.admin_state,
            "admin_reason": link.admin_reason,
            "oper_state": link.oper_state,
            "health": link.health,
            "tor": next((s.name for s in (link.a_switch, link.z_switch) if s.tier == 0), None),
        }
        for link in links
    ]


def tickets_of(order: WorkOrder) -> list[dict]:
    """The order's tickets with their newest recommendation (one query)."""
    steps = (
        TicketStep.objects.filter(ticket__work_order_entries__work_order=order)
        .order_by("ticket_id", "-number")
        .distinct("ticket_id")
        .select_related("ticket__link__a_switch", "ticket__link__z_switch")
    )
    return [
        {
            "id": step.ticket_id,
            "state": step.ticket.state,
            "link": step.ticket.link_id,
            "link_name": str(step.ticket.link),
            "direction": step.direction,
            "recommended_action": step.recommended_action,
            "rule": step.rule,
        }
        for step in steps
    ]


def guard_preview(order: WorkOrder, links: list[dict], user) -> dict:
    """The capacity guard's dry run of taking the footprint alone out of service for maintenance:
    what it would do to the fabric's ToRs now (nothing changes). Unsafe reads "Not safe alone", not
    the guard's "Refused": starting may still offer a restoration that makes it safe (the start's
    own dry run, visits.preview, decides that)."""
    reason = f"{link_state.MAINTENANCE}: work order {order.pk}"
    changes = {link["id"]: link_state.AdminChange(Link.AdminState.DISABLED, reason) for link in links}
    verdict = link_state.change_admin_states(order.fabric_id, changes, user, dry_run=True)
    preview = verdict.as_preview()
    if verdict.blocking_tors:
        worst = verdict.blocking_tors[0]
        more = len(verdict.blocking_tors) - 1
        tail = f" ({more} more ToR{'s' if more > 1 else ''} too)" if more else ""
        preview["detail"] = (
            f"Not safe alone: {worst['name']} would fall to {worst['paths_after']} of {worst['design_paths']} "
            f"up-paths, under the {worst['required_paths']} its constraint ({worst['constraint']:g}) requires{tail}."
        )
    return preview


def detail(order: WorkOrder, user) -> dict:
    """What the work order's page shows beyond its row: tickets, footprint links, the ToRs on the
    footprint (at its links' ends, and those whose up-paths it takes: a spine cable's ToRs below)
    and the guard's verdict on starting it."""
    links = footprint_links(order)
    guard = guard_preview(order, links, user)
    losing = {row["name"] for row in guard["affected_tors"] if row["paths_after"] < row["paths_before"]}
    return {
        "ticket_details": tickets_of(order),
        "footprint_links": links,
        "tors": sorted({link["tor"] for link in links if link["tor"]} | losing),
        "guard": guard,
    }
