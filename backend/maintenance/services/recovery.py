"""Capacity recovery (issue #18, "Starting work is capacity-safe", its last bullet): links went
down (telemetry) and a ToR is under its capacity constraint; the engine's restoration in mode
"recover" names the links disabled for corruption whose re-enabling brings every ToR it can back
to its requirement at the least added penalty, and the ToRs no lossy link can bring back (they
need a repair).

    proposal(fabric)            the ToRs under their requirement now and the engine's answer
    apply(fabric, user, links)  enable exactly the proposed links (decided again under the
                                fabric's lock; another list raises RecoveryChanged with the
                                fresh proposal), reason `restoration: capacity recovery`, audited
    recover_automatically(id)   the same, applied by the system when the fabric's auto_restore is
                                on (the task `maintenance.recover`, sent once the transaction in
                                which links went down commits: never inside the telemetry
                                request); off, nothing is applied and the proposal waits for an
                                operator

Going back needs no code here: when the down links come up, link_state sends `capacity_changed`
and CorrOpt's optimizer (corruption.optimizer) re-examines every enabled, up link with an open
corruption event, the recovered ones included, and disables every one the capacity guard allows
(its fast checker keeps the others, naming the ToR). A recovered link whose corruption event has
ended stays enabled: it no longer corrupts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.db.models import Q

import lightpath_engine
from audit import services as audit
from fabric.models import Fabric, Link
from fabric.services import engine, link_state, live
from lightpath import dispatch

from ..models import WorkOrder
from .candidates import lossy_links

TASK = "maintenance.recover"  # maintenance/tasks.py; routed to the decisions queue (settings)
REASON = "restoration: capacity recovery"  # the reason of the links it enables
AUTOMATIC_NOTE = "capacity recovery: automatic (auto_restore)"
NOTE = "capacity recovery"


@dataclass
class Proposal:
    """What recovering the fabric's capacity now would do (the contract's RecoveryProposal)."""

    fabric: int
    auto_restore: bool
    under_tors: list[dict[str, Any]]
    links: list[dict[str, Any]]  # id, name, loss_rate, penalty
    added_penalty: float
    proven_optimal: bool
    unreachable_tors: list[dict[str, Any]]
    detail: str

    @property
    def enable(self) -> list[int]:
        return [row["id"] for row in self.links]

    def as_dict(self) -> dict[str, Any]:
        return {
            "fabric": self.fabric,
            "auto_restore": self.auto_restore,
            "detail": self.detail,
            "under_tors": self.under_tors,
            "links": self.links,
            "added_penalty": self.added_penalty,
            "proven_optimal": self.proven_optimal,
            "unreachable_tors": self.unreachable_tors,
        }


@dataclass
class Applied:
    enabled: Proposal  # the proposal that was applied
    after: Proposal  # the fabric's proposal once it was


class RecoveryChanged(Exception):
    """The links asked are not the proposal now (the API answers 409 with `proposal`)."""

    def __init__(self, proposal: Proposal) -> None:
        super().__init__(proposal.detail)
        self.proposal = proposal


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' if count != 1 else ''}"


def _detail(under: list[dict[str, Any]], links: list[dict[str, Any]], penalty: float, unreachable) -> str:
    if not under:
        return "Every ToR is at or above its requirement: nothing to recover."
    worst = under[0]
    text = (
        f"{_plural(len(under), 'ToR')} under {'its' if len(under) == 1 else 'their'} requirement, "
        f"worst {worst['name']} at {worst['paths']} of {worst['design_paths']} up-paths "
        f"({worst['required_paths']} required)"
    )
    if links:
        back = len(under) - len(unreachable)
        text += (
            f"; re-enabling {_plural(len(links), 'lossy link')} (added penalty {penalty:.3g}) brings "
            f"{_plural(back, 'ToR')} back"
        )
    if unreachable:
        tor = unreachable[0]
        text += (
            f"; {', '.join(row['name'] for row in unreachable)} need{'s' if len(unreachable) == 1 else ''} a "
            f"repair (no lossy link brings {tor['name']} above {tor['paths_best']} of the "
            f"{tor['required_paths']} it requires)"
        )
    return text + "."


def _decide(fabric: Fabric) -> Proposal:
    """The proposal, under the fabric's lock held by the caller."""
    # Links under repair stay out: a visit in progress holds its footprint.
    under_repair = {
        pk
        for footprint in WorkOrder.objects.filter(fabric=fabric, state=WorkOrder.State.IN_PROGRESS).values_list(
            "footprint", flat=True
        )
        for pk in footprint
    }
    candidates = lossy_links(fabric.pk, exclude=under_repair)
    with live.live_fabric(fabric.pk, locked=True) as current:
        state = current.state
        under: list[dict[str, Any]] = [
            {
                "switch": state.switch_ids[index],
                "name": state.switch_names[index],
                "paths": available,
                "required_paths": required,
                "design_paths": total,
            }
            for index, available, total, required in current.session.tor_paths()
            if available < required
        ]
        restoration = engine.restore(state, candidates, mode="recover", session=current.session) if under else None
    under.sort(key=lambda row: (row["paths"] - row["required_paths"], row["name"]))
    links: list[dict[str, Any]] = []
    unreachable: list[dict[str, Any]] = []
    if restoration is not None:
        names = {
            link.pk: str(link)
            for link in Link.objects.filter(pk__in=restoration.enable).select_related("a_switch", "z_switch")
        }
        links = [
            {
                "id": pk,
                "name": names[pk],
                "loss_rate": max(candidates[pk]),
                "penalty": lightpath_engine.corropt_penalty("linear", *candidates[pk]),
            }
            for pk in restoration.enable
        ]
        unreachable = [
            {
                "switch": tor.switch,
                "name": tor.name,
                "paths_before": tor.paths_before,
                "paths_best": tor.paths_best,
                "floor": tor.floor,
                "required_paths": tor.required_paths,
                "design_paths": tor.design_paths,
            }
            for tor in restoration.unreachable
        ]
        out = _uplinks_out([row["switch"] for row in unreachable])
        for row in unreachable:
            row["links_out"] = out.get(row["switch"], [])
    penalty = restoration.added_penalty if restoration is not None else 0.0
    return Proposal(
        fabric=fabric.pk,
        auto_restore=fabric.auto_restore,
        under_tors=under,
        links=links,
        added_penalty=penalty,
        proven_optimal=restoration.proven_optimal if restoration is not None else True,
        unreachable_tors=unreachable,
        detail=_detail(under, links, penalty, unreachable),
    )


def _uplinks_out(tor_ids: list[int]) -> dict[int, list[dict[str, Any]]]:
    """ToR id -> its own uplinks out of service (down, or disabled for any reason): what a repair
    of a ToR no lossy link brings back starts with. Paths lost higher up are not listed here."""
    out: dict[int, list[dict[str, Any]]] = {}
    if not tor_ids:
        return out
    for link in (
        Link.objects.filter(a_switch_id__in=tor_ids)
        .filter(Q(admin_state=Link.AdminState.DISABLED) | Q(oper_state=Link.OperState.DOWN))
        .select_related("a_switch", "z_switch")
        .order_by("a_port", "id")
    ):
        state = "down" if link.oper_state == Link.OperState.DOWN else "disabled"
        out.setdefault(link.a_switch_id, []).append({"id": link.pk, "name": str(link), "state": state})
    return out


def proposal(fabric: Fabric) -> Proposal:
    """What recovering now would do; nothing changes."""
    with transaction.atomic():
        link_state.lock_fabric(fabric.pk)
        return _decide(Fabric.objects.get(pk=fabric.pk))


def _enable(fabric: Fabric, found: Proposal, user) -> None:
    """The proposal's links enabled through the guard (audited per link, published, the
    optimizer told), and one audit row on the fabric saying who recovered what."""
    link_state.change_admin_states(
        fabric.pk,
        {pk: link_state.AdminChange(Link.AdminState.ENABLED, REASON) for pk in found.enable},
        user,
        why=f"capacity recovery: link{'s' if len(found.enable) > 1 else ''} {', '.join(map(str, found.enable))}",
    )
    audit.record(
        user,
        audit.UPDATE,
        fabric,
        before=None,
        after={"capacity_recovery": {"enabled": found.enable, "added_penalty": found.added_penalty}},
        note=NOTE if user is not None else AUTOMATIC_NOTE,
    )


def apply(fabric: Fabric, user, links: list[int]) -> Applied:
    """Enable exactly the proposal's links (see the module docstring); RecoveryChanged when
    `links` are not the proposal now (decided under the same lock as the write)."""
    with transaction.atomic():
        link_state.lock_fabric(fabric.pk)
        fabric = Fabric.objects.get(pk=fabric.pk)
        found = _decide(fabric)
        if sorted(set(links)) != found.enable or not found.enable:
            if found.enable:
                found.detail = f"The recovery changed: apply the links proposed now. {found.detail}"
            raise RecoveryChanged(found)
        _enable(fabric, found, user)
        return Applied(found, _decide(fabric))


def recover_automatically(fabric_id: int) -> dict[str, Any]:
    """The task's service: apply the proposal as the system when the fabric's auto_restore is on."""
    with transaction.atomic():
        link_state.lock_fabric(fabric_id)
        fabric = Fabric.objects.filter(pk=fabric_id).first()
        if fabric is None or not fabric.auto_restore:
            return {"fabric": fabric_id, "enabled": [], "detail": "auto_restore is off (or the fabric is gone)."}
        found = _decide(fabric)
        if found.enable:
            _enable(fabric, found, None)
    return {"fabric": fabric_id, "enabled": found.enable, "detail": found.detail}


# ---------------------------------------------------------------------------------------------
# Triggers


def request_recovery(fabric_id: int) -> None:
    """Send the recovery task once the current transaction commits, once per transaction and
    fabric however many signals it sent (outside a transaction: at once)."""
    queued = getattr(connection, "run_on_commit", [])
    if any(isinstance(callback, _Send) and callback.fabric_id == fabric_id for _, callback, _ in queued):
        return
    transaction.on_commit(_Send(fabric_id), robust=True)


class _Send:
    """A queued send of one fabric's recovery, recognisable in the connection's on-commit list."""

    def __init__(self, fabric_id: int) -> None:
        self.fabric_id = fabric_id

    def __call__(self) -> None:
        dispatch.send(TASK, [self.fabric_id])


def on_capacity_lost(sender, fabric_id: int, **kwargs) -> None:
    """Receiver of fabric.signals.capacity_lost (links went down; MaintenanceConfig.ready)."""
    request_recovery(fabric_id)
