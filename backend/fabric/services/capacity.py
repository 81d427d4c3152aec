"""Per-ToR capacity: up-paths to the top tier over usable links, against the design count."""

import math
from typing import Any

from ..models import Fabric
from .engine import engine_fabric


def fabric_capacity(fabric: Fabric) -> dict:
    """Counts every ToR's valley-free up-paths with the native engine.

    A link is usable when it is admin-enabled and operationally up; the design count has
    every link usable. Cost: two queries and O(switches + links) in the engine.
    """
    state = engine_fabric(fabric)
    tors: list[dict[str, Any]] = []
    for index, available, total in state.graph.tor_capacity(state.usable()):
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
                "below_constraint": fraction < constraint,
                # How many more paths this ToR can lose before it falls under its constraint.
                "headroom_paths": max(available - math.ceil(constraint * total - 1e-9), 0),
            }
        )
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
