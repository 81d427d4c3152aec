"""Starting and finishing a work order's visit, capacity-safe (issue #18, "Starting work is
capacity-safe"; README "Physical components and work orders").

    preview(order, user)  what starting it now would do: `safe` (the footprint alone passes the
                          capacity guard), `needs_restoration` (it does not, and the engine's
                          restoration, links disabled for corruption re-enabled at the least
                          added penalty, makes it pass), or `blocked` (no restoration exists: who
                          and by how much, and which visits in progress hold their paths)
    start(order, user, ...)   the footprint out of service (reason `maintenance`) and the
                          restoration in, as ONE guarded set; its tickets in progress
    finish(order, user, outcome)  repaired: each ticket's action recorded (awaiting validation,
                          its link enabled after repair as today); not repaired: tickets stay in
                          progress with a comment and the order opens again. Either way the
                          footprint links the start disabled come back and the restored links go
                          back to disabled (through the guard: any it refuses stay enabled, named)

Every step runs in one transaction under the fabric's link-state lock (link_state.lock_fabric),
so the preview a start acts on is computed on the committed state and two starts are serialised:
of two visits each safe alone but not together, the second is decided on the first's links.
Every link change goes through link_state (audited, published, the optimizer told).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.utils import timezone

import lightpath_engine
from accounts.roles import ADMIN, OPERATOR, user_roles
from audit import services as audit
from corruption import tickets
from corruption.models import Ticket
from corruption.services import ADMIN_REASON as CORRUPTION
from fabric.models import Fabric, Link
from fabric.services import engine, link_state, live

from ..models import WorkOrder
from .candidates import lossy_links

SAFE, NEEDS_RESTORATION, BLOCKED = "safe", "needs_restoration", "blocked"
APPROVERS = {OPERATOR, ADMIN}
# Restored links carry this reason while enabled for a repair.
RESTORATION = "restoration"


class VisitStateError(Exception):
    """The work order is not in a state that allows this (the API answers 409)."""

    def __init__(self, order: WorkOrder) -> None:
        super().__init__(f"work order {order.pk} is {order.state}")
        self.state = order.state


class StartRefused(Exception):
    """Starting is refused as asked: `preview` says why (the API answers 409 with it)."""

    def __init__(self, preview: Preview) -> None:
        super().__init__(preview.detail)
        self.preview = preview


class ApprovalNeeded(Exception):
    """A restoration asked by someone who may not approve it (the API answers 403)."""


@dataclass
class Preview:
    """What starting the order now would do (the contract's WorkOrderStartPreview)."""

    work_order: int
    verdict: str
    detail: str
    footprint: list[dict[str, Any]]
    affected_tors: list[dict[str, Any]]
    blocking_tors: list[dict[str, Any]]
    restoration: dict[str, Any] | None = None
    unreachable_tors: list[dict[str, Any]] = field(default_factory=list)
    waits_for: list[dict[str, Any]] = field(default_factory=list)
    # Not answered: what start() applies.
    taking_down: list[int] = field(default_factory=list, repr=False)
    restoring: list[int] = field(default_factory=list, repr=False)

    def as_dict(self) -> dict[str, Any]:
        return {
            "work_order": self.work_order,
            "verdict": self.verdict,
            "detail": self.detail,
            "footprint": self.footprint,
            "affected_tors": link_state.public_rows(self.affected_tors),
            "blocking_tors": link_state.public_rows(self.blocking_tors),
            "restoration": self.restoration,
            "unreachable_tors": self.unreachable_tors,
            "waits_for": self.waits_for,
        }


def maintenance_reason(order: WorkOrder) -> str:
    return f"{link_state.MAINTENANCE}: work order {order.pk} ({order.action} {order.component_name})"


def _ours(order: WorkOrder) -> str:
    """The prefix of the reason the start gave the links it disabled (an override appends to it)."""
    return f"{link_state.MAINTENANCE}: work order {order.pk} ("


VISIT_FIELDS = ("state", "started_at", "started_by", "finished_at", "outcome", "taken_down", "restored_links")


def _snapshot(order: WorkOrder) -> dict[str, Any]:
    """What the audit keeps of a visit (audit.snapshot would read the many-to-many tickets)."""
    row = {name: getattr(order, name) for name in VISIT_FIELDS}
    row["started_by"] = order.started_by_id
    return json.loads(json.dumps(row, cls=DjangoJSONEncoder))


def _audit(user, order: WorkOrder, before: dict[str, Any], note: str) -> None:
    audit.record(user, audit.UPDATE, order, before=before, after=_snapshot(order), note=note)


def _restoration_reason(order_id: int) -> str:
    return f"{RESTORATION}: work order {order_id}"


def _locked_order(order: WorkOrder) -> WorkOrder:
    return WorkOrder.objects.select_for_update().get(pk=order.pk)


def _in_progress(fabric_id: int, exclude: int) -> list[WorkOrder]:
    return list(
        WorkOrder.objects.filter(fabric_id=fabric_id, state=WorkOrder.State.IN_PROGRESS)
        .exclude(pk=exclude)
        .order_by("pk")
    )


def _names(link_ids: Iterable[int]) -> dict[int, str]:
    links = Link.objects.filter(pk__in=list(link_ids)).select_related("a_switch", "z_switch")
    return {link.pk: str(link) for link in links}


def _tor_numbers(row: dict[str, Any]) -> str:
    return (
        f"{row['name']} would fall to {row['paths_after']} of {row['design_paths']} up-paths, "
        f"under the {row['required_paths']} its constraint ({row['constraint']:g}) requires"
    )


def _guard_changes(preview: Preview, reason: str) -> dict[int, link_state.AdminChange]:
    changes = {pk: link_state.AdminChange(Link.AdminState.DISABLED, reason) for pk in preview.taking_down}
    for pk in preview.restoring:
        changes[pk] = link_state.AdminChange(Link.AdminState.ENABLED, _restoration_reason(preview.work_order))
    return changes


def _decide(order: WorkOrder, user) -> Preview:
    """The preview, under the fabric's lock held by the caller."""
    footprint = (
        Link.objects.filter(pk__in=order.footprint, fabric_id=order.fabric_id)
        .select_related("a_switch", "z_switch")
        .order_by("id")
    )
    rows: list[dict[str, Any]] = [{"id": link.pk, "name": str(link)} for link in footprint]
    footprint_ids = [link.pk for link in footprint]
    taking_down = [link.pk for link in footprint if link.admin_state == Link.AdminState.ENABLED]
    reason = maintenance_reason(order)
    alone = link_state.change_admin_states(
        order.fabric_id,
        {pk: link_state.AdminChange(Link.AdminState.DISABLED, reason) for pk in taking_down},
        user,
        dry_run=True,
    )
    preview = Preview(order.pk, SAFE, "", rows, alone.affected_tors, alone.blocking_tors, taking_down=taking_down)
    what = f"work order {order.pk} ({order.component_name}) takes {len(rows)} link{'s' if len(rows) != 1 else ''} down"
    if alone.safe:
        worst = min(
            alone.affected_tors, key=lambda r: (r["paths_after"] - r["required_paths"], r["name"]), default=None
        )
        numbers = (
            f"; {worst['name']} keeps {worst['paths_after']} of {worst['design_paths']} up-paths "
            f"({worst['required_paths']} required)"
            if worst
            else ""
        )
        preview.detail = f"Safe: {what}{numbers}."
        return preview

    others = _in_progress(order.fabric_id, exclude=order.pk)
    under_repair = {pk for other in others for pk in other.footprint}
    candidates = lossy_links(order.fabric_id, exclude={*order.footprint, *under_repair})
    with live.live_fabric(order.fabric_id, locked=True) as current:
        restoration = engine.restore(current.state, candidates, footprint_ids, session=current.session)
    if restoration.restores_all:
        names = _names(restoration.enable)
        preview.verdict = NEEDS_RESTORATION
        preview.restoring = restoration.enable
        preview.restoration = {
            "links": [
                {
                    "id": pk,
                    "name": names[pk],
                    "loss_rate": max(candidates[pk]),
                    "penalty": lightpath_engine.corropt_penalty("linear", *candidates[pk]),
                }
                for pk in restoration.enable
            ],
            "added_penalty": restoration.added_penalty,
            "proven_optimal": restoration.proven_optimal,
            "needs_approval": not (
                Fabric.objects.filter(pk=order.fabric_id, auto_restore=True).exists() or user_roles(user) & APPROVERS
            ),
        }
        count = len(restoration.enable)
        preview.detail = (
            f"Needs a restoration: {_tor_numbers(alone.blocking_tors[0])}; re-enabling {count} lossy "
            f"link{'s' if count != 1 else ''} for the repair's duration (added penalty "
            f"{restoration.added_penalty:.3g}) keeps every ToR at or above its floor."
        )
        return preview

    preview.verdict = BLOCKED
    preview.unreachable_tors = [
        {
            "name": tor.name,
            "paths_before": tor.paths_before,
            "paths_best": tor.paths_best,
            "floor": tor.floor,
            "required_paths": tor.required_paths,
            "design_paths": tor.design_paths,
        }
        for tor in restoration.unreachable
    ]
    preview.waits_for = _holding(order.fabric_id, others, {row["name"] for row in alone.blocking_tors}, user)
    unreachable = restoration.unreachable[0] if restoration.unreachable else None
    best = (
        f" (the most any restoration gives {unreachable.name} is {unreachable.paths_best} of the "
        f"{unreachable.floor} it needs)"
        if unreachable
        else ""
    )
    if preview.waits_for:
        advice = (
            "; finishing "
            + ", ".join(f"work order {row['work_order']}" for row in preview.waits_for)
            + " frees capacity"
        )
    elif _short_by_footprint_alone(order.fabric_id, footprint_ids, alone.blocking_tors):
        # Nothing to wait for: repairing other links would not help, so say what does.
        advice = (
            f". Nothing else is in the way: with every other link back in service, this footprint alone still "
            f"takes {alone.blocking_tors[0]['name']} under. Drain the rack's traffic first, then an admin starts it "
            "with an override and a reason"
        )
    else:
        advice = "; repairing the other links out of service on its paths (disabled or down) frees capacity"
    preview.detail = (
        f"Blocked: {_tor_numbers(alone.blocking_tors[0])}, and no lossy link can bring it back{best}{advice}."
    )
    return preview


def _short_by_footprint_alone(fabric_id: int, footprint: list[int], blocking: list[dict[str, Any]]) -> bool:
    """Whether a blocking ToR stays under its requirement with the footprint down and every other
    link of the fabric in service (disabled or down ones repaired): then no repair elsewhere helps."""
    with live.live_fabric(fabric_id, locked=True) as current:
        state = current.state
        states = bytearray(engine.ENABLED * len(state.link_states))
        for pk in footprint:
            states[state.link_index[pk]] = engine.DISABLED[0]
        repaired = dataclasses.replace(state, link_states=bytes(states)).session()
        short = {state.switch_names[tor] for tor, paths, _, required in repaired.tor_paths() if paths < required}
    return bool(short & {row["name"] for row in blocking})


def _holding(fabric_id: int, others: list[WorkOrder], tors: set[str], user) -> list[dict[str, Any]]:
    """The visits in progress whose footprints hold paths of `tors`: putting their links back
    (a dry run) changes those ToRs' up-paths."""
    holding = []
    for other in others:
        back = list(
            Link.objects.filter(
                pk__in=other.taken_down, admin_state=Link.AdminState.DISABLED, admin_reason__startswith=_ours(other)
            ).values_list("id", flat=True)
        )
        if not back:
            continue
        verdict = link_state.change_admin_states(
            fabric_id, {pk: link_state.AdminChange(Link.AdminState.ENABLED) for pk in back}, user, dry_run=True
        )
        if tors & {row["name"] for row in verdict.affected_tors}:
            holding.append(
                {
                    "work_order": other.pk,
                    "action": other.action,
                    "component_name": other.component_name,
                    "state": other.state,
                }
            )
    return holding


def _check_open(order: WorkOrder) -> None:
    if order.state != WorkOrder.State.OPEN:
        raise VisitStateError(order)


def preview(order: WorkOrder, user) -> Preview:
    """What starting the order now would do; nothing changes. Raises VisitStateError unless open."""
    with transaction.atomic():
        link_state.lock_fabric(order.fabric_id)
        order = _locked_order(order)
        _check_open(order)
        return _decide(order, user)


def start(
    order: WorkOrder,
    user,
    *,
    restoration: list[int] | None = None,
    override: bool = False,
    admin_reason: str = "",
) -> WorkOrder:
    """Start the visit (see the module docstring). `restoration`: the link ids of the preview's
    restoration, which must be exactly the one offered now (else StartRefused, the preview
    saying it changed or is needed); ApprovalNeeded when the user may not approve it. A blocked
    order starts only with `override` (the caller checks it is an admin's, with a reason)."""
    with transaction.atomic():
        link_state.lock_fabric(order.fabric_id)
        order = _locked_order(order)
        _check_open(order)
        found = _decide(order, user)
        reason = maintenance_reason(order)
        forced = False
        if found.verdict == NEEDS_RESTORATION:
            asked = sorted(set(restoration or []))
            if asked != found.restoring:
                cause = "changed" if restoration else "is needed"
                found.detail = f"The restoration {cause}: start it with the links offered now. {found.detail}"
                raise StartRefused(found)
            assert found.restoration is not None
            if found.restoration["needs_approval"]:
                raise ApprovalNeeded("an operator must approve the restoration")
        elif found.verdict == BLOCKED:
            if not override:
                raise StartRefused(found)
            forced = True
            reason = f"{reason}: {admin_reason.strip()}"
        verdict = link_state.change_admin_states(
            order.fabric_id,
            _guard_changes(found, reason),
            user,
            override=forced,
            why=f"work order {order.pk} started: restoration {', '.join(map(str, found.restoring))}",
        )
        if not verdict.applied:  # decided under the same lock: cannot differ, but never half-start
            raise StartRefused(found)
        for ticket in Ticket.objects.filter(work_order_entries__work_order=order, work_order_entries__current=True):
            if ticket.state in tickets.STARTABLE:
                tickets.start(ticket, user)
        before = _snapshot(order)
        order.state = WorkOrder.State.IN_PROGRESS
        order.started_at = timezone.now()
        order.started_by = user if user is not None and user.is_authenticated else None
        order.finished_at = None
        order.outcome = ""
        order.taken_down = found.taking_down
        order.restored_links = found.restoring
        order.save()
        _audit(user, order, before, link_state.OVERRIDE_NOTE if forced else "")
    return order


@dataclass
class Finished:
    order: WorkOrder
    detail: str
    kept_enabled: list[int]  # restored links the guard would not disable again


def finish(order: WorkOrder, user, outcome: str, notes: str = "") -> Finished:
    """End the visit (see the module docstring). Raises VisitStateError unless in progress."""
    if outcome not in WorkOrder.Outcome.values:
        raise ValueError(f"outcome must be one of {', '.join(WorkOrder.Outcome.values)}, got {outcome!r}")
    with transaction.atomic():
        link_state.lock_fabric(order.fabric_id)
        order = _locked_order(order)
        if order.state != WorkOrder.State.IN_PROGRESS:
            raise VisitStateError(order)
        repaired = outcome == WorkOrder.Outcome.REPAIRED
        working = Ticket.objects.filter(
            work_order_entries__work_order=order, work_order_entries__current=True, state=Ticket.State.IN_PROGRESS
        ).order_by("pk")
        validating: list[int] = []  # repaired links enabled (or in service) for validation
        for ticket in working:
            if repaired:
                if tickets.record_action(ticket, user, order.action, notes).link_enabled:
                    validating.append(ticket.link_id)
            else:
                text = f"Work order {order.pk} ({order.action} {order.component_name}): not repaired."
                tickets.comment(ticket, user, f"{text} {notes}".strip())
        put_back = _put_back(order, user)
        before = _snapshot(order)
        order.outcome = outcome
        order.taken_down = []
        order.restored_links = []
        if repaired:
            order.state = WorkOrder.State.DONE
            order.finished_at = timezone.now()
            # Its tickets wait for no visit now: free them for a later order (a recurrence).
            order.entries.update(current=False)
        else:
            order.state = WorkOrder.State.OPEN
            order.started_at = order.started_by = order.finished_at = None
        order.save()
        _audit(user, order, before, notes[:200])
    return Finished(order, _finish_detail(order, repaired, validating, put_back), put_back.kept_enabled)


def _finish_detail(order: WorkOrder, repaired: bool, validating: list[int], put_back: PutBack) -> str:
    """What happened to each link: the technician reads it to know what is in service now."""
    names = _names([*validating, *put_back.back, *put_back.disabled_again, *put_back.kept_enabled])

    def listed(link_ids: list[int]) -> str:
        return ", ".join(names[pk] for pk in link_ids)

    parts = [f"{'Repaired' if repaired else 'Not repaired'}: work order {order.pk} is {order.state}"]
    if validating:
        parts.append(f"enabled for validation: {listed(validating)}")
    if put_back.back:
        parts.append(f"back in service: {listed(put_back.back)}")
    if put_back.disabled_again:
        parts.append(f"disabled again for corruption: {listed(put_back.disabled_again)}")
    if not repaired:
        parts.append("its tickets stay in progress")
    detail = "; ".join(parts) + "."
    kept = put_back.kept_enabled
    if kept:
        many = len(kept) > 1
        detail += (
            f" Restored link{'s' if many else ''} {listed(kept)} {'stay' if many else 'stays'} enabled: disabling "
            f"{'them' if many else 'it'} now would put a ToR under its constraint (the optimizer decides "
            f"{'them' if many else 'it'} later)."
        )
    return detail


@dataclass
class PutBack:
    back: list[int]  # footprint links the start disabled, enabled again
    disabled_again: list[int]  # restored links disabled again for corruption
    kept_enabled: list[int]  # restored links the guard would not disable again


def _put_back(order: WorkOrder, user) -> PutBack:
    """The footprint links the start disabled enabled again, the restored links disabled again
    (as one set; if the guard refuses it, each on its own)."""
    back = list(
        Link.objects.filter(
            pk__in=order.taken_down, admin_state=Link.AdminState.DISABLED, admin_reason__startswith=_ours(order)
        )
        .order_by("pk")
        .values_list("id", flat=True)
    )
    # Still enabled for this restoration: one enabled since for another reason is left alone.
    restored = list(
        Link.objects.filter(
            pk__in=order.restored_links,
            admin_state=Link.AdminState.ENABLED,
            admin_reason__startswith=_restoration_reason(order.pk),
        )
        .order_by("pk")
        .values_list("id", flat=True)
    )
    why = f"work order {order.pk} ended"
    changes = {pk: link_state.AdminChange(Link.AdminState.ENABLED) for pk in back}
    together = {**changes, **{pk: link_state.AdminChange(Link.AdminState.DISABLED, CORRUPTION) for pk in restored}}
    if not together or link_state.change_admin_states(order.fabric_id, together, user, why=why).applied:
        return PutBack(back, restored, [])
    link_state.change_admin_states(order.fabric_id, changes, user, why=why)
    kept = []
    for pk in restored:
        one = {pk: link_state.AdminChange(Link.AdminState.DISABLED, CORRUPTION)}
        if not link_state.change_admin_states(order.fabric_id, one, user).applied:
            kept.append(pk)
    return PutBack(back, [pk for pk in restored if pk not in kept], kept)


def restored_links(order: WorkOrder) -> list[dict[str, Any]]:
    """The order's restoration as the work order's page shows it (one query)."""
    names = _names(order.restored_links) if order.restored_links else {}
    return [{"id": pk, "name": names[pk]} for pk in order.restored_links if pk in names]
