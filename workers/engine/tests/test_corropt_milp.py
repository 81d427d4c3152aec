"""MILP cross-check of the CorrOpt optimizer with HiGHS (highspy) on medium random instances.

The exact problem: choose enabled corrupting links to disable, maximising the penalty removed, so that
every ToR keeps at least its floor of up-paths. Path counts are products, so the MILP is written on
paths: a binary x_l per candidate link (1 = disable), and per ToR up-path p over enabled links a
variable y_p in [0, 1] with y_p <= 1 - x_l for every candidate l on p (the path survives only if none
of its candidates is disabled); then sum_p y_p >= floor(t). Since the constraint only asks for enough
paths, y_p can be continuous: at an optimum it is at most min_l (1 - x_l), which is 0 or 1.

Semantics match lightpath-core's corropt module: required(t) = ceil(c_t * design(t)), products within
a relative 1e-9 of a whole number snapped to it; floor(t) = min(required(t), current(t)); design counts
every link, current only enabled ones; corrupting links that are disabled or down are ignored.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import pytest

from lightpath_engine import FabricGraph, corropt_check, corropt_optimize

highspy = pytest.importorskip("highspy")

PENALTIES = {
    "linear": lambda f: f,
    "log": lambda f: math.log10(1 + f / 1e-8),
    "step": lambda f: float(sum(f >= b for b in (1e-8, 1e-5, 1e-4, 1e-3))),
}


@dataclass
class Instance:
    num_tiers: int
    switch_tiers: list[int]
    lower: list[int]
    upper: list[int]
    states: list[str]
    corrupting: list[tuple[int, float]]
    capacity: float
    overrides: dict[int, float]
    penalty: str

    def graph(self) -> FabricGraph:
        return FabricGraph(self.num_tiers, self.switch_tiers, self.lower, self.upper)


def pod_fabric(rng: random.Random) -> tuple[int, list[int], list[int], list[int]]:
    """A Facebook-style 3-tier fabric (pods of ToRs and fabric switches, fabric switch j in plane j), or
    a 2-tier leaf-spine, with now and then a parallel link."""
    if rng.random() < 0.2:
        leaves, spines = rng.randint(6, 10), rng.randint(4, 6)
        tiers = [0] * leaves + [1] * spines
        lower = [leaf for leaf in range(leaves) for _ in range(spines)]
        upper = [leaves + s for _ in range(leaves) for s in range(spines)]
        return 2, tiers, lower, upper
    pods, tors, planes, spines = rng.randint(3, 5), rng.randint(3, 6), rng.randint(3, 4), rng.randint(2, 4)
    n_tor, n_fab = pods * tors, pods * planes
    tiers = [0] * n_tor + [1] * n_fab + [2] * (planes * spines)
    lower: list[int] = []
    upper: list[int] = []
    for pod in range(pods):
        for tor in range(tors):
            for plane in range(planes):
                for _ in range(2 if rng.random() < 0.05 else 1):
                    lower.append(pod * tors + tor)
                    upper.append(n_tor + pod * planes + plane)
        for plane in range(planes):
            for spine in range(spines):
                lower.append(n_tor + pod * planes + plane)
                upper.append(n_tor + n_fab + plane * spines + spine)
    return 3, tiers, lower, upper


def random_instance(seed: int) -> Instance:
    rng = random.Random(seed)
    num_tiers, tiers, lower, upper = pod_fabric(rng)
    n = len(lower)
    states = [rng.choices(["enabled", "disabled", "down"], weights=[85, 5, 10])[0] for _ in range(n)]
    enabled = [link for link in range(n) if states[link] == "enabled"]
    count = min(len(enabled), rng.randint(20, 40))
    chosen = rng.sample(enabled, count)
    # A few corrupting links that are already out of service: the optimizer must ignore them.
    chosen += rng.sample([link for link in range(n) if states[link] != "enabled"], min(2, n - len(enabled)))
    corrupting = [(link, 10 ** rng.uniform(-8, -2)) for link in chosen]
    tors = [s for s, tier in enumerate(tiers) if tier == 0]
    overrides = {t: rng.choice([0.0, 0.3, 0.5, 0.9, 1.0]) for t in rng.sample(tors, min(len(tors), 2))}
    return Instance(
        num_tiers,
        tiers,
        lower,
        upper,
        states,
        corrupting,
        capacity=rng.choice([0.5, 0.6, 0.7, 0.75]),
        overrides=overrides if rng.random() < 0.5 else {},
        penalty=rng.choice(list(PENALTIES)),
    )


def required(fraction: float, design: int) -> int:
    x = fraction * design
    nearest = round(x)
    return nearest if abs(x - nearest) <= 1e-9 * max(nearest, 1) else math.ceil(x)


def up_paths(inst: Instance, usable: list[bool]) -> list[list[tuple[int, ...]]]:
    """Per switch, its up-paths to the top tier as tuples of link indices (parallel links distinct)."""
    uplinks: dict[int, list[int]] = {}
    for link, a in enumerate(inst.lower):
        if usable[link]:
            uplinks.setdefault(a, []).append(link)
    paths: list[list[tuple[int, ...]]] = [[()] if tier == inst.num_tiers - 1 else [] for tier in inst.switch_tiers]
    for tier in range(inst.num_tiers - 2, -1, -1):
        for switch, t in enumerate(inst.switch_tiers):
            if t == tier:
                paths[switch] = [(link, *rest) for link in uplinks.get(switch, []) for rest in paths[inst.upper[link]]]
    return paths


def milp_optimum(inst: Instance) -> tuple[float, list[int]]:
    """The least remaining penalty and a subset reaching it, solved exactly by HiGHS."""
    penalty = PENALTIES[inst.penalty]
    enabled = [state == "enabled" for state in inst.states]
    candidates = {link: penalty(f) for link, f in inst.corrupting if enabled[link]}
    design = [len(p) for p in up_paths(inst, [True] * len(inst.lower))]
    current = up_paths(inst, enabled)
    scale = max(candidates.values(), default=1.0) or 1.0  # objective coefficients near 1 for HiGHS

    h = highspy.Highs()
    h.silent()
    h.setOptionValue("mip_rel_gap", 0.0)
    h.setOptionValue("mip_abs_gap", 0.0)
    x = {link: h.addBinary() for link in candidates}
    for tor, tier in enumerate(inst.switch_tiers):
        if tier != 0:
            continue
        floor = min(required(inst.overrides.get(tor, inst.capacity), design[tor]), len(current[tor]))
        fixed, alive = 0, []
        for path in current[tor]:
            on_path = [link for link in path if link in x]
            if not on_path:
                fixed += 1
                continue
            y = h.addVariable(0.0, 1.0)
            for link in on_path:
                h.addConstr(y + x[link] <= 1)
            alive.append(y)
        if floor - fixed > 0:
            h.addConstr(sum(alive) >= floor - fixed)
    if x:
        h.maximize(sum((p / scale) * x[link] for link, p in candidates.items()))
        assert h.getModelStatus() == highspy.HighsModelStatus.kOptimal
        disable = sorted(link for link in x if h.val(x[link]) > 0.5)
    else:
        disable = []
    return sum(p for link, p in candidates.items() if link not in disable), disable


def feasible(inst: Instance, disable: list[int]) -> bool:
    enabled = [state == "enabled" for state in inst.states]
    design = [len(p) for p in up_paths(inst, [True] * len(inst.lower))]
    before = [len(p) for p in up_paths(inst, enabled)]
    usable = [on and link not in set(disable) for link, on in enumerate(enabled)]
    after = [len(p) for p in up_paths(inst, usable)]
    return all(
        after[t] >= min(required(inst.overrides.get(t, inst.capacity), design[t]), before[t])
        for t, tier in enumerate(inst.switch_tiers)
        if tier == 0
    )


@pytest.mark.parametrize("seed", range(80))
def test_optimizer_matches_the_milp_optimum(seed: int) -> None:
    inst = random_instance(seed)
    result = corropt_optimize(
        inst.graph(),
        inst.corrupting,
        inst.states,
        capacity=inst.capacity,
        overrides=inst.overrides,
        penalty=inst.penalty,
    )
    best, milp_disable = milp_optimum(inst)
    assert feasible(inst, milp_disable)
    assert feasible(inst, result["disable"])
    assert result["proven_optimal"]
    assert result["remaining_penalty"] == pytest.approx(best, rel=1e-9, abs=1e-300)
    # The engine's figure is the penalty of the links it keeps.
    penalty = PENALTIES[inst.penalty]
    rates = dict(inst.corrupting)
    assert result["remaining_penalty"] == pytest.approx(
        sum(penalty(rates[link]) for link in result["keep_enabled"]), rel=1e-9, abs=1e-300
    )


def test_instances_are_medium_and_constrained() -> None:
    """The instances exercise the search: 20-40 candidates, and the capacity constraints bind."""
    binding = 0
    for seed in range(80):
        inst = random_instance(seed)
        candidates = [link for link, _ in inst.corrupting if inst.states[link] == "enabled"]
        assert 20 <= len(candidates) <= 40
        greedy = corropt_check(
            inst.graph(), [(link, f) for link, f in inst.corrupting if inst.states[link] == "enabled"],
            inst.states, capacity=inst.capacity, overrides=inst.overrides, penalty=inst.penalty,
        )  # fmt: skip
        binding += any(not d["disabled"] for d in greedy)
    assert binding >= 60
