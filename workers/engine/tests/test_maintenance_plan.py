"""`maintenance_plan` (the maintenance planner, #18) from Python: its answer's shape, its errors, and
a HiGHS MILP cross-check of the optimum on small instances.

The MILP is time-indexed on a 15-minute grid: x[o, k, t] = 1 when technician k starts work order o
at slot t. Every duration and the shift are multiples of the grid and there is no travel, so every
start the planner can choose (0, or the end of other visits) lies on the grid: the MILP's optimum is
the planner's exact optimum. Capacity is written with the sets of orders whose footprints together
put a ToR under its floor, min(required, paths now), computed here by counting paths in Python (not
by the engine): at no slot may all orders of such a set be in progress.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field

import pytest
from test_corropt_milp import pod_fabric, required, up_paths

from lightpath_engine import CorrOptSession, FabricGraph, maintenance_plan

highspy = pytest.importorskip("highspy")

GRID_S = 900
SERVICE_S = 2 * 24 * 3600


@dataclass
class Instance:
    num_tiers: int
    switch_tiers: list[int]
    lower: list[int]
    upper: list[int]
    states: list[str]
    capacity: float
    shift_s: int
    orders: list[dict] = field(default_factory=list)

    def session(self) -> CorrOptSession:
        graph = FabricGraph(self.num_tiers, self.switch_tiers, self.lower, self.upper)
        return CorrOptSession(graph, self.states, capacity=self.capacity)

    def counts(self, usable: list[bool]) -> list[int]:
        return [len(paths) for paths in up_paths(self, usable)]

    def floors(self) -> dict[int, int]:
        design = self.counts([True] * len(self.lower))
        now = self.counts([state == "enabled" for state in self.states])
        tors = [s for s, tier in enumerate(self.switch_tiers) if tier == 0]
        return {t: min(required(self.capacity, design[t]), now[t]) for t in tors}

    def safe(self, down: set[int], enabled: set[int] = frozenset()) -> bool:
        usable = [
            link not in down and (state == "enabled" or link in enabled) for link, state in enumerate(self.states)
        ]
        after = self.counts(usable)
        return all(after[t] >= floor for t, floor in self.floors().items())


def random_instance(seed: int) -> Instance:
    rng = random.Random(seed)
    num_tiers, tiers, lower, upper = pod_fabric(rng)
    n = len(lower)
    states = [rng.choices(["enabled", "down"], weights=[96, 4])[0] for _ in range(n)]
    inst = Instance(
        num_tiers,
        tiers,
        lower,
        upper,
        states,
        capacity=rng.choice([0.25, 0.4, 0.5, 0.6]),
        shift_s=rng.choice([4, 6, 8]) * GRID_S,
    )
    # Orders on a few switches, so that footprints meet at the same ToRs.
    switches = rng.sample([s for s, tier in enumerate(tiers) if tier < num_tiers - 1], 2)
    for order_id in range(1, rng.randint(3, 5) + 1):
        switch = rng.choice(switches)
        links = [link for link in range(n) if lower[link] == switch and states[link] == "enabled"]
        footprint = rng.sample(links, min(len(links), rng.randint(1, 2)))
        inst.orders.append(
            {
                "id": order_id,
                "footprint": footprint,
                "duration_s": rng.randint(1, 3) * GRID_S,
                "success_probability": rng.choice([0.5, 0.8]),
                "rack": switch,
                "row": 0,
                "penalty_rate": round(rng.uniform(0.1, 5.0), 3),
            }
        )
    return inst


def cost_hours(order: dict, end_s: int | None, shift_s: int) -> float:
    rate, p = order["penalty_rate"], order["success_probability"]
    if end_s is None:
        return rate * (shift_s + SERVICE_S) / 3600
    return rate * (end_s + (1 - p) * SERVICE_S) / 3600


def minimal_unsafe_sets(inst: Instance) -> list[tuple[int, ...]]:
    """Index sets of orders whose footprints together are unsafe, none containing another."""
    found: list[tuple[int, ...]] = []
    for size in range(1, len(inst.orders) + 1):
        for combo in itertools.combinations(range(len(inst.orders)), size):
            if any(set(small) <= set(combo) for small in found):
                continue
            down = {link for i in combo for link in inst.orders[i]["footprint"]}
            if not inst.safe(down):
                found.append(combo)
    return found


def milp_optimum(inst: Instance, technicians: int) -> float:
    slots = inst.shift_s // GRID_S
    h = highspy.Highs()
    h.silent()
    h.setOptionValue("mip_rel_gap", 0.0)
    h.setOptionValue("mip_abs_gap", 0.0)
    x: dict[tuple[int, int, int], object] = {}
    for o, order in enumerate(inst.orders):
        length = order["duration_s"] // GRID_S
        for k in range(technicians):
            for t in range(slots - length + 1):
                x[o, k, t] = h.addBinary()

    def running(o: int, slot: int, k: int | None = None) -> list:
        length = inst.orders[o]["duration_s"] // GRID_S
        return [v for (oo, kk, t), v in x.items() if oo == o and (k is None or kk == k) and t <= slot < t + length]

    for o in range(len(inst.orders)):
        starts = [v for (oo, _, _), v in x.items() if oo == o]
        if starts:
            h.addConstr(sum(starts) <= 1)
    for k in range(technicians):
        for slot in range(slots):
            busy = [v for o in range(len(inst.orders)) for v in running(o, slot, k)]
            if len(busy) > 1:
                h.addConstr(sum(busy) <= 1)
    for unsafe in minimal_unsafe_sets(inst):
        for slot in range(slots):
            terms = [v for o in unsafe for v in running(o, slot)]
            if terms:
                h.addConstr(sum(terms) <= len(unsafe) - 1)
    base = sum(cost_hours(order, None, inst.shift_s) for order in inst.orders)
    if not x:
        return base
    saving = {
        key: cost_hours(inst.orders[key[0]], (key[2] * GRID_S) + inst.orders[key[0]]["duration_s"], inst.shift_s)
        - cost_hours(inst.orders[key[0]], None, inst.shift_s)
        for key in x
    }
    h.minimize(sum(saving[key] * v for key, v in x.items()))
    assert h.getModelStatus() == highspy.HighsModelStatus.kOptimal
    return base + h.getInfo().objective_function_value


def replay(inst: Instance, plan: dict, technicians: int) -> float:
    """Checks the plan as a technician and the guard would see it; returns its cost recomputed."""
    by_id = {order["id"]: order for order in inst.orders}
    ends: dict[int, int] = {}
    for visit in plan["visits"]:
        order = by_id[visit["work_order"]]
        assert 0 <= visit["technician"] < technicians
        assert visit["end_s"] - visit["start_s"] == order["duration_s"]
        assert visit["start_s"] >= 0 and visit["end_s"] <= inst.shift_s
        assert visit["links_down"] == order["footprint"]
        assert visit["work_order"] not in ends
        ends[visit["work_order"]] = visit["end_s"]
    for a, b in itertools.combinations(plan["visits"], 2):
        if a["technician"] == b["technician"]:
            assert a["end_s"] <= b["start_s"] or b["end_s"] <= a["start_s"]
    assert sorted(plan["unscheduled"]) == sorted(set(by_id) - set(ends))
    for instant in sorted({v["start_s"] for v in plan["visits"]}):
        active = [v for v in plan["visits"] if v["start_s"] <= instant < v["end_s"]]
        down = {link for v in active for link in v["links_down"]}
        enabled = {link for v in active for link in v["restored"]} - down
        assert inst.safe(down, enabled), (instant, active)
    return sum(cost_hours(order, ends.get(order["id"]), inst.shift_s) for order in inst.orders)


@pytest.mark.parametrize("seed", range(40))
def test_plan_is_safe_and_matches_the_milp_optimum(seed: int) -> None:
    inst = random_instance(seed)
    plan = maintenance_plan(inst.session(), inst.orders, 2, inst.shift_s)
    assert plan["proven_optimal"]
    assert plan["gap"] == 0.0 and plan["lower_bound"] == pytest.approx(plan["expected_penalty_hours"])
    assert replay(inst, plan, 2) == pytest.approx(plan["expected_penalty_hours"], rel=1e-9)
    assert plan["expected_penalty_hours"] == pytest.approx(milp_optimum(inst, 2), rel=1e-9)
    assert plan["expected_penalty_hours"] <= plan["fifo_penalty_hours"] + 1e-9


def test_instances_make_footprints_compete() -> None:
    """The cross-check means something: footprints often cannot all be down at once, some orders
    are unsafe even alone, and the plan often beats first in first out."""
    conflicting = alone = better = 0
    for seed in range(40):
        inst = random_instance(seed)
        unsafe = minimal_unsafe_sets(inst)
        conflicting += any(len(s) > 1 for s in unsafe)
        alone += any(len(s) == 1 for s in unsafe)
        plan = maintenance_plan(inst.session(), inst.orders, 2, inst.shift_s)
        better += plan["expected_penalty_hours"] < plan["fifo_penalty_hours"] - 1e-9
    assert conflicting >= 8 and alone >= 3 and better >= 5, (conflicting, alone, better)


def one_tor_session(states: list[str] | None = None) -> CorrOptSession:
    """ToR 0 with four up-links to spines 1 to 4; 0.75 requires three."""
    graph = FabricGraph(2, [0, 1, 1, 1, 1], [0, 0, 0, 0], [1, 2, 3, 4])
    return CorrOptSession(graph, states or ["enabled", "enabled", "enabled", "disabled"], capacity=0.75)


def order(order_id: int, footprint: list[int], **extra: object) -> dict:
    return {
        "id": order_id,
        "footprint": footprint,
        "duration_s": 1800,
        "success_probability": 0.8,
        "rack": 1,
        "row": 1,
        "penalty_rate": 2.0,
        **extra,
    }


def test_a_restoration_makes_an_unsafe_footprint_plannable() -> None:
    session = one_tor_session()
    alone = maintenance_plan(session, [order(7, [0])], 1, 8 * 3600)
    assert alone["visits"] == [] and alone["unscheduled"] == [7]
    # Unvisited: 2 per hour over the 8-hour shift and the two days of service.
    assert alone["expected_penalty_hours"] == pytest.approx(2.0 * (8 + 48))
    restored = maintenance_plan(session, [order(7, [0], restoration={"links": [3], "penalty_rate": 0.5})], 1, 8 * 3600)
    assert restored["visits"] == [
        {"technician": 0, "work_order": 7, "start_s": 0, "end_s": 1800, "links_down": [0], "restored": [3]}
    ]
    assert restored["unscheduled"] == []
    # Ends at 0.5 h, fails with chance 0.2 (two more days), plus the restored link for half an hour.
    assert restored["expected_penalty_hours"] == pytest.approx(2.0 * (0.5 + 0.2 * 48) + 0.5 * 0.5)
    assert restored["proven_optimal"] and restored["fifo_penalty_hours"] >= restored["expected_penalty_hours"]
    # The session is left as it was.
    assert session.link_states() == one_tor_session().link_states()


def test_travel_and_options_are_used() -> None:
    session = one_tor_session(["enabled"] * 4)  # any one link down is safe, two are not
    orders = [order(1, [0], rack=1, row=1), order(2, [1], rack=9, row=2)]
    plan = maintenance_plan(session, orders, 1, 8 * 3600, travel=(0, 60, 600), service_time_s=3600)
    starts = [(v["work_order"], v["start_s"], v["end_s"]) for v in plan["visits"]]
    assert starts == [(1, 0, 1800), (2, 2400, 4200)]
    assert plan["expected_penalty_hours"] == pytest.approx(2.0 * (0.5 + 0.2) + 2.0 * (4200 / 3600 + 0.2))


@pytest.mark.parametrize(
    ("orders", "technicians", "message"),
    [
        ([order(1, [0]), order(1, [1])], 1, "work order 1 is given twice"),
        ([order(2, [9])], 1, "work order 2: link 9 does not exist (the fabric has 4 links)"),
        ([order(3, [])], 1, "work order 3: the footprint names no link"),
        ([order(4, [0], duration_s=0)], 1, "work order 4: duration_s must be at least 1"),
        ([order(5, [0], success_probability=1.5)], 1, "work order 5: success_probability 1.5 is out of range"),
        ([order(6, [0], restoration={"links": [1], "penalty_rate": 1.0})], 1, "restoration link 1 is Enabled"),
        ([order(7, [0])], 0, "at least one technician is needed"),
        ([{"id": 8, "footprint": [0]}], 1, "work order 8: duration_s is missing"),
        ([{"footprint": [0]}], 1, "work order 0: id is missing"),
        ([order(9, [0], rack="r1")], 1, "work order 9: rack must be a non-negative integer"),
        ([order(10, [0], restoration=[3])], 1, "work order 10: restoration must be"),
        (["not a mapping"], 1, "work order 0: must be a mapping"),
    ],
)
def test_bad_input_is_a_value_error_naming_the_order(orders: list, technicians: int, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        maintenance_plan(one_tor_session(), orders, technicians, 3600)


def test_bad_time_budget_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="time_budget_s must be a non-negative number"):
        maintenance_plan(one_tor_session(), [order(1, [0])], 1, 3600, time_budget_s=-1.0)
