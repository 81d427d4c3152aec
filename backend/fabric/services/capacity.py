"""Per-ToR capacity: up-paths to the top tier over usable links, against the design count."""

from typing import Any

from ..models import Fabric, Switch
from .live import live_fabric


def fabric_capacity(fabric: Fabric) -> dict:
    """Every ToR's valley-free up-paths over usable links (admin-enabled and operationally up)
    against its design count (every link usable), from the process's live engine session of the
    fabric: two small queries and the links changed since its last use (fabric.services.live),
    then O(ToRs)."""
    tors = _tor_rows(fabric.pk)
    tors.sort(key=lambda row: (row["pod"] is None, row["pod"], row["name"]))
    return {
        "fabric": fabric.pk,
        "capacity_constraint": fabric.capacity_constraint,
        "summary": {
            "tors": len(tors),
            "below_constraint": sum(row["below_constraint"] for row in tors),
            "min_fraction": min((row["fraction"] for row in tors), default=None),
        },
        "tors": tors,
    }


def tor_capacity(switch: Switch) -> dict | None:
    """One ToR's row of `fabric_capacity` (the switch page); None for a switch above the ToRs."""
    if switch.tier != 0:
        return None
    return next((row for row in _tor_rows(switch.fabric_id) if row["switch"] == switch.pk), None)


def _tor_rows(fabric_id: int) -> list[dict[str, Any]]:
    with live_fabric(fabric_id, locked=False) as live:
        state = live.state
        paths = live.session.tor_paths()
    tors: list[dict[str, Any]] = []
    for index, available, total, required in paths:
        constraint = state.constraint(index)
        fraction = available / total if total else 0.0
        tors.append(
            {
                "switch": state.switch_ids[index],
                "name": state.switch_names[index],
                "pod": state.switch_pods[index],
                "available_paths": available,
                "total_paths": total,
                "fraction": fraction,
                "constraint": constraint,
                # The guard's and CorrOpt's rule: whole paths, ceil(constraint x design).
                "required_paths": required,
                "below_constraint": available < required,
                # How many more paths this ToR can lose before it falls under its constraint.
                "headroom_paths": max(available - required, 0),
            }
        )
    return tors
