"""Per-ToR capacity: up-paths to the top tier over usable links, against the design count."""

import math
from typing import Any

import lightpath_engine

from ..models import Fabric, Link, Switch


def fabric_capacity(fabric: Fabric) -> dict:
    """Counts every ToR's valley-free up-paths with the native engine.

    A link is usable when it is admin-enabled and operationally up; the design count has
    every link usable. Cost: two queries and O(switches + links) in the engine.
    """
    switches = list(
        Switch.objects.filter(fabric=fabric)
        .order_by("id")
        .values_list("id", "name", "tier", "pod", "capacity_constraint")
    )
    index_of = {row[0]: i for i, row in enumerate(switches)}
    lower, upper, usable = [], [], []
    for a_id, z_id, admin_state, oper_state in Link.objects.filter(fabric=fabric).values_list(
        "a_switch_id", "z_switch_id", "admin_state", "oper_state"
    ):
        lower.append(index_of[a_id])
        upper.append(index_of[z_id])
        usable.append(admin_state == Link.AdminState.ENABLED and oper_state == Link.OperState.UP)

    graph = lightpath_engine.FabricGraph(len(fabric.tiers), [row[2] for row in switches], lower, upper)
    tors: list[dict[str, Any]] = []
    for index, available, total in graph.tor_capacity(usable):
        switch_id, name, _tier, pod, override = switches[index]
        constraint = override if override is not None else fabric.capacity_constraint
        fraction = available / total if total else 0.0
        tors.append(
            {
                "switch": switch_id,
                "name": name,
                "pod": pod,
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
