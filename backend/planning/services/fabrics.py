"""The fabric a RAIL job works on, as the engine sees it, with names for what it reports.

A stored fabric comes from fabric.services.engine (links in id order); a generated one is a k-ary fat
tree built here (ToRs pod by pod, then aggregation switches, then cores, as `lightpath rail plan
--fat-tree` builds it, so both give the same numbers).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import lightpath_engine
from fabric.models import Fabric, Link
from fabric.services.engine import engine_fabric


@dataclass
class NamedFabric:
    graph: lightpath_engine.FabricGraph
    switch_ids: list[int | None]
    switch_names: list[str]
    link_ids: list[int]  # engine link index -> stored link id (the index itself when generated)
    link_names: list[str]
    link_ends: list[tuple[int, int]]  # engine link index -> (lower, upper) switch index
    tor_count: int
    usable: list[bool]

    def switch(self, index: int) -> dict[str, Any]:
        return {"id": self.switch_ids[index], "name": self.switch_names[index]}

    def name_fractions(self, fractions: dict[str, Any] | None) -> dict[str, Any] | None:
        """The engine's per-pair statistics with switch names (and stored ids) beside its indices."""
        if fractions is None:
            return None
        for row in fractions["per_tor"]:
            row["name"] = self.switch_names[row["tor"]]
            row["switch"] = self.switch_ids[row["tor"]]
            row["min_dst_name"] = None if row["min_dst"] is None else self.switch_names[row["min_dst"]]
        worst = fractions["worst_pair"]
        if worst is not None:
            worst["src_name"] = self.switch_names[worst["src"]]
            worst["dst_name"] = self.switch_names[worst["dst"]]
        return fractions


def link_name(a_switch: str, a_port: str, z_switch: str, z_port: str) -> str:
    """As Link.__str__ and the links API print a link."""
    return f"{a_switch}:{a_port} - {z_switch}:{z_port}"


def stored(fabric: Fabric) -> tuple[NamedFabric, list[tuple]]:
    """The stored fabric and its link rows (id, a switch, a port, z switch, z port, length_m, speed_gbps,
    a switch id, z switch id) in the engine's link order."""
    state = engine_fabric(fabric)
    rows = list(
        Link.objects.filter(fabric=fabric)
        .order_by("id")
        .values_list(
            "id", "a_switch__name", "a_port", "z_switch__name", "z_port", "length_m", "speed_gbps", "a_switch_id",
            "z_switch_id",
        )
    )  # fmt: skip
    index_of = {switch_id: i for i, switch_id in enumerate(state.switch_ids)}
    named = NamedFabric(
        graph=state.graph,
        switch_ids=list(state.switch_ids),
        switch_names=state.switch_names,
        link_ids=[row[0] for row in rows],
        link_names=[link_name(*row[1:5]) for row in rows],
        link_ends=[(index_of[row[7]], index_of[row[8]]) for row in rows],
        tor_count=sum(1 for _ in state.graph.tor_capacity()),
        usable=state.usable(),
    )
    return named, rows


def fat_tree(k: int) -> NamedFabric:
    """A k-ary fat tree: k pods of k/2 ToRs and k/2 aggregation switches, (k/2)^2 cores."""
    half = k // 2
    tors, aggs, cores = k * half, k * half, half * half
    lower: list[int] = []
    upper: list[int] = []
    for pod in range(k):
        for i in range(half):
            for j in range(half):
                lower.append(pod * half + i)
                upper.append(tors + pod * half + j)
    for pod in range(k):
        for j in range(half):
            for c in range(half):
                lower.append(tors + pod * half + j)
                upper.append(tors + aggs + j * half + c)
    names = [f"tor{i}" for i in range(tors)] + [f"agg{i}" for i in range(aggs)] + [f"core{i}" for i in range(cores)]
    graph = lightpath_engine.FabricGraph(3, [0] * tors + [1] * aggs + [2] * cores, lower, upper)
    return NamedFabric(
        graph=graph,
        switch_ids=[None] * len(names),
        switch_names=names,
        link_ids=list(range(len(lower))),
        link_names=[f"{names[a]}-{names[z]}" for a, z in zip(lower, upper, strict=True)],
        link_ends=list(zip(lower, upper, strict=True)),
        tor_count=tors,
        usable=[True] * len(lower),
    )
