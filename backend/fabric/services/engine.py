"""A fabric from the database as the native engine sees it: switch and link indices, the graph,
link states and the capacity thresholds. Capacity reports and CorrOpt decisions both start here.

Cost: two queries and an O(switches + links) pass to build the engine's graph.
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

import lightpath_engine

from ..models import Fabric, Link, Switch

# Engine link-state bytes (see lightpath_engine.CorrOptSession).
ENABLED, DISABLED, DOWN = b"e", b"d", b"D"


StateName = Literal["enabled", "disabled", "down"]  # lightpath_engine.LinkStateName


def version() -> str:
    """The loaded engine's version (the health check reports it)."""
    return lightpath_engine.__version__


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


@dataclass(frozen=True)
class UnreachableTor:
    """A ToR no restoration brings to its floor, with its up-path numbers."""

    switch: int  # switch id
    name: str
    paths_before: int  # now
    paths_best: int  # footprint down, every candidate enabled: the most any restoration gives
    floor: int  # what it needed
    required_paths: int
    design_paths: int


@dataclass(frozen=True)
class Restoration:
    """Links disabled for corruption to enable (ids, ascending) and the penalty that adds."""

    enable: list[int]
    added_penalty: float
    added_penalty_lower_bound: float
    proven_optimal: bool
    unreachable: list[UnreachableTor]

    @property
    def restores_all(self) -> bool:
        return not self.unreachable


RestoreMode = Literal["restore", "recover"]  # lightpath_engine.RestoreMode


def restore(
    state: EngineFabric,
    candidates: Mapping[int, tuple[float, float]],
    footprint: Iterable[int] = (),
    *,
    mode: RestoreMode = "restore",
    session: lightpath_engine.CorrOptSession | None = None,
    time_budget_s: float | None = None,
) -> Restoration:
    """The capacity restoration (docs/capacity-guard.md's rule, seed 000 section 3.7).

    `candidates`: link id -> (loss_rate_up, loss_rate_down) of links disabled for corruption.
    "restore": the candidates to enable, at the least added penalty, so that taking `footprint`
    (link ids) out of service leaves every ToR at or above the guard's floor; disabling the footprint
    and enabling `enable` as one set passes the guard. None exists: `enable` is empty and
    `unreachable` names the ToRs. "recover" (no footprint): every ToR back at its requirement; ToRs
    no candidate can bring back are in `unreachable`, `enable` brings back every other one.
    `session`: the fabric's live session if the caller holds one (fabric.services.live), else one is
    built from `state`. Raises ValueError naming unknown links or a footprint with "recover"."""
    footprint = list(footprint)
    unknown = sorted({link for link in (*candidates, *footprint) if link not in state.link_index})
    if unknown:
        raise ValueError(f"links not in fabric {state.fabric_id}: {', '.join(map(str, unknown))}")
    index = state.link_index
    link_ids = list(index)  # engine_fabric numbers links in insertion order
    result = (session or state.session()).restore(
        [(index[link], up, down) for link, (up, down) in candidates.items()],
        [index[link] for link in footprint],
        mode=mode,
        time_budget_s=time_budget_s,
    )
    return Restoration(
        enable=sorted(link_ids[i] for i in result["enable"]),
        added_penalty=result["added_penalty"],
        added_penalty_lower_bound=result["added_penalty_lower_bound"],
        proven_optimal=result["proven_optimal"],
        unreachable=[
            UnreachableTor(
                switch=state.switch_ids[tor["tor"]],
                name=state.switch_names[tor["tor"]],
                paths_before=tor["paths_before"],
                paths_best=tor["paths_best"],
                floor=tor["floor"],
                required_paths=tor["required_paths"],
                design_paths=tor["design_paths"],
            )
            for tor in result["unreachable"]
        ],
    )


@dataclass(frozen=True)
class PlanOrder:
    """One work order for the maintenance planner, in link ids (lightpath_engine.PlanWorkOrder)."""

    id: int
    footprint: list[int]
    duration_s: int
    success_probability: float
    rack: int
    row: int
    penalty_rate: float  # penalty per hour while unrepaired
    restoration: list[int] | None = None  # link ids enabled during the visit when its footprint alone is unsafe
    restoration_penalty_rate: float = 0.0


def maintenance_plan(
    state: EngineFabric,
    orders: Iterable[PlanOrder],
    *,
    technicians: int,
    shift_s: int,
    travel: tuple[int, int, int] | None = None,
    session: lightpath_engine.CorrOptSession | None = None,
    time_budget_s: float | None = None,
) -> "lightpath_engine.MaintenancePlan":
    """The maintenance planner (lightpath_engine.maintenance_plan) on the fabric's state, in link ids:
    each visit's `links_down` and `restored` are link ids. `session`: the live one if the caller holds
    it, else one is built from `state`; it is left as it was. Raises ValueError naming unknown links
    or the order the engine refuses."""
    orders = list(orders)
    index = state.link_index
    unknown = sorted(
        {link for order in orders for link in (*order.footprint, *(order.restoration or ())) if link not in index}
    )
    if unknown:
        raise ValueError(f"links not in fabric {state.fabric_id}: {', '.join(map(str, unknown))}")
    link_ids = list(index)  # engine_fabric numbers links in insertion order
    result = lightpath_engine.maintenance_plan(
        session or state.session(),
        [
            {
                "id": order.id,
                "footprint": [index[link] for link in order.footprint],
                "duration_s": order.duration_s,
                "success_probability": order.success_probability,
                "rack": order.rack,
                "row": order.row,
                "penalty_rate": order.penalty_rate,
                "restoration": None
                if order.restoration is None
                else {
                    "links": [index[link] for link in order.restoration],
                    "penalty_rate": order.restoration_penalty_rate,
                },
            }
            for order in orders
        ],
        technicians,
        shift_s,
        travel=travel,
        time_budget_s=time_budget_s,
    )
    for visit in result["visits"]:
        visit["links_down"] = [link_ids[i] for i in visit["links_down"]]
        visit["restored"] = [link_ids[i] for i in visit["restored"]]
    return result
