"""Capacity constraints of a fabric: the fraction of its up-paths every ToR must keep (the
fabric's default) and per-ToR overrides (`Switch.capacity_constraint`, ToRs only).

One document for reading and writing them (`GET/PUT/PATCH /api/fabrics/{id}/constraints/`):

    {"default": 0.75, "overrides": {"t0": 0.5, "t1": 0.9}}

PUT replaces: `default` is required and `overrides` is the whole set (a ToR not named loses its
override). PATCH merges: only what is given changes, and `null` clears a ToR's override. Every
problem is reported at once; every change is audited (who, before, after) and sends
`fabric.signals.capacity_changed`, on which CorrOpt re-runs its optimizer.
"""

from __future__ import annotations

import math
from typing import Any

from django.db import transaction

from audit import services as audit

from ..models import Fabric, Switch
from ..signals import capacity_changed

FIELDS = ("default", "overrides")


class ConstraintError(Exception):
    """Every problem of a constraints document, shaped like DRF's errors: field -> messages,
    with `overrides` mapping a ToR's name to its messages."""

    def __init__(self, errors: dict[str, Any]):
        super().__init__(f"{len(errors)} problem(s) in the constraints")
        self.errors = errors


def constraints(fabric: Fabric) -> dict[str, Any]:
    overrides = (
        Switch.objects.filter(fabric=fabric, tier=0, capacity_constraint__isnull=False)
        .order_by("name")
        .values_list("name", "capacity_constraint")
    )
    return {
        "fabric": fabric.pk,
        "default": fabric.capacity_constraint,
        "overrides": dict(overrides),
        "tors": Switch.objects.filter(fabric=fabric, tier=0).count(),
    }


def _fraction_problem(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return f"must be a number between 0 and 1, got {value!r}"
    if not math.isfinite(value) or not 0.0 <= value <= 1.0:
        return f"must be between 0 and 1 (a fraction of the ToR's up-paths), got {value!r}"
    return None


def _validate(fabric: Fabric, data: Any, replace: bool) -> tuple[float | None, dict[str, float | None]]:
    if not isinstance(data, dict):
        raise ConstraintError({"non_field_errors": ['expected an object {"default": ..., "overrides": {...}}']})
    errors: dict[str, Any] = {}
    for key in data:
        if key not in FIELDS:
            errors[str(key)] = ["unknown field; the fields are default and overrides"]
    default = data.get("default")
    if "default" not in data:
        if replace:
            errors["default"] = ["required (PUT replaces the constraints; PATCH changes some)"]
    elif (problem := _fraction_problem(default)) is not None:
        errors["default"] = [problem]
    overrides = data.get("overrides", {})
    if not isinstance(overrides, dict):
        errors["overrides"] = ["must be an object mapping ToR names to a fraction (or null to clear)"]
        overrides = {}
    # A name with NUL cannot be a switch's (PostgreSQL text cannot hold it): not looked up, reported below.
    names = [name for name in overrides if "\x00" not in name]
    tiers = dict(Switch.objects.filter(fabric=fabric, name__in=names).values_list("name", "tier"))
    problems: dict[str, list[str]] = {}
    for name, value in overrides.items():
        messages = []
        if name not in tiers:
            messages.append(f"no switch named {name!r} in fabric {fabric.name!r}")
        elif tiers[name] != 0:
            messages.append(f"{name!r} is on tier {tiers[name]}; only ToRs (tier 0) have a capacity constraint")
        if value is not None and (problem := _fraction_problem(value)) is not None:
            messages.append(problem)
        if messages:
            problems[str(name)] = messages
    if problems:
        errors["overrides"] = problems
    if errors:
        raise ConstraintError(errors)
    return (default if "default" in data else None), overrides


def set_constraints(fabric: Fabric, data: Any, user, *, replace: bool) -> dict[str, Any]:
    """Validate and apply a constraints document (see the module docstring) in one transaction.
    Returns the constraints now and `changes`, one {"switch", "before", "after"} row per change
    (switch None for the fabric's default)."""
    default, overrides = _validate(fabric, data, replace)
    changes: list[dict[str, Any]] = []
    with transaction.atomic():
        fabric = Fabric.objects.select_for_update().get(pk=fabric.pk)
        if default is not None and default != fabric.capacity_constraint:
            before = audit.snapshot(fabric)
            changes.append({"switch": None, "before": fabric.capacity_constraint, "after": float(default)})
            fabric.capacity_constraint = float(default)
            fabric.save(update_fields=["capacity_constraint", "updated"])
            audit.record(user, audit.UPDATE, fabric, before=before)
        wanted = {name: None if value is None else float(value) for name, value in overrides.items()}
        tors = Switch.objects.select_for_update().filter(fabric=fabric, tier=0).order_by("name")
        if not replace:
            tors = tors.filter(name__in=list(wanted))
        for switch in tors:
            after = wanted.get(switch.name)
            if after == switch.capacity_constraint:
                continue
            before = audit.snapshot(switch)
            changes.append({"switch": switch.name, "before": switch.capacity_constraint, "after": after})
            switch.capacity_constraint = after
            switch.save(update_fields=["capacity_constraint"])
            audit.record(user, audit.UPDATE, switch, before=before)
        if changes:
            constraint_changed(fabric, changes, user)
    return {**constraints(fabric), "changes": changes}


def constraint_changed(fabric: Fabric, changes: list[dict[str, Any]], user) -> None:
    """Tell whoever listens (CorrOpt's optimizer) that the fabric's constraints changed."""

    def describe(change: dict[str, Any]) -> str:
        return f"{change['switch'] or 'default'} {_show(change['before'])} -> {_show(change['after'])}"

    shown = ", ".join(describe(change) for change in changes[:5]) + (
        f" and {len(changes) - 5} more" if len(changes) > 5 else ""
    )
    capacity_changed.send(
        sender=Fabric, fabric_id=fabric.pk, reason=f"capacity constraints changed: {shown}", user=user
    )


def _show(value: float | None) -> str:
    return "none" if value is None else f"{value:g}"
