"""A fabric from the database as the native engine sees it: switch and link indices, the graph,
link states and the capacity thresholds. Capacity reports and CorrOpt decisions both start here.

Cost: two queries and an O(switches + links) pass to build the engine's graph.
"""

from dataclasses import dataclass, field
from typing import Literal

import lightpath_engine

from ..models import Fabric, Link, Switch

# Engine link-state bytes (see lightpath_engine.CorrOptSession).
ENABLED, DISABLED, DOWN = b"e", b"d", b"D"


StateName = Literal["enabled", "disabled", "down"]  # lightpath_engine.LinkStateName


def engine_state(admin_state: str, oper_state: str) -> StateName:
    """A link's state as the engine names it: disabled wins over down."""
    if admin_state != Link.AdminState.ENABLED:
        return "disabled"
    return "enabled" if oper_state == Link.OperState.UP else "down"


@dataclass
class EngineFabric:
    graph: lightpath_engine.FabricGraph
    switch_ids: list[int]
    switch_names: list[str]
    switch_pods: list[int | None]
    link_index: dict[int, int]  # link id -> engine link index
    link_states: bytes  # one of ENABLED, DISABLED, DOWN per engine link
    capacity: float  # the fabric's constraint
    overrides: dict[int, float]  # engine switch index of a ToR -> its own constraint
    fabric_id: int = 0
    versions: dict[int, int] = field(default_factory=dict, repr=False)  # link id -> state_version

    def usable(self) -> list[bool]:
        """A link is usable when it is admin-enabled and operationally up."""
        return [state == ENABLED[0] for state in self.link_states]

    def constraint(self, switch_index: int) -> float:
        return self.overrides.get(switch_index, self.capacity)

    def session(self) -> lightpath_engine.CorrOptSession:
        return lightpath_engine.CorrOptSession(
            self.graph, self.link_states, capacity=self.capacity, overrides=self.overrides
        )


def engine_fabric(fabric: Fabric) -> EngineFabric:
    switches = list(
        Switch.objects.filter(fabric=fabric)
        .order_by("id")
        .values_list("id", "name", "tier", "pod", "capacity_constraint")
    )
    index_of = {row[0]: i for i, row in enumerate(switches)}
    lower: list[int] = []
    upper: list[int] = []
    states = bytearray()
    link_index: dict[int, int] = {}
    versions: dict[int, int] = {}
    for link_id, a_id, z_id, admin_state, oper_state, version in (
        Link.objects.filter(fabric=fabric)
        .order_by("id")
        .values_list("id", "a_switch_id", "z_switch_id", "admin_state", "oper_state", "state_version")
    ):
        versions[link_id] = version
        link_index[link_id] = len(lower)
        lower.append(index_of[a_id])
        upper.append(index_of[z_id])
        if admin_state != Link.AdminState.ENABLED:
            states += DISABLED
        elif oper_state != Link.OperState.UP:
            states += DOWN
        else:
            states += ENABLED
    graph = lightpath_engine.FabricGraph(len(fabric.tiers), [row[2] for row in switches], lower, upper)
    return EngineFabric(
        graph=graph,
        switch_ids=[row[0] for row in switches],
        switch_names=[row[1] for row in switches],
        switch_pods=[row[3] for row in switches],
        link_index=link_index,
        link_states=bytes(states),
        capacity=fabric.capacity_constraint,
        # Thresholds only mean something for ToRs.
        overrides={i: row[4] for i, row in enumerate(switches) if row[4] is not None and row[2] == 0},
        fabric_id=fabric.pk,
        versions=versions,
    )
