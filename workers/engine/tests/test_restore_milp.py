"""MILP cross-check of the capacity restoration (`CorrOptSession.restore`) with HiGHS on random fabrics.

The exact problem: a repair takes the footprint's links out of service; choose links now disabled for
corruption (the candidates) to enable, minimising the penalty added, so that every ToR keeps its floor,
min(required(t), current(t)) with current counted before the footprint goes down. Written on paths as
test_corropt_milp.py does: a binary x_l per candidate (1 = enable), and per ToR up-path p over the
links usable with the footprint down and every candidate enabled a variable y_p in [0, 1] with
y_p <= x_l for every candidate l on p; then sum_p y_p >= floor(t). No feasible x: no restoration.

Mode "recover" (no footprint): floor(t) = required(t) for every ToR that every candidate enabled
brings back; the others are named by the engine and left out.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from test_corropt_milp import PENALTIES, pod_fabric, required, up_paths

from lightpath_engine import CorrOptSession, FabricGraph

highspy = pytest.importorskip("highspy")


@dataclass
class Instance:
    num_tiers: int
    switch_tiers: list[int]
    lower: list[int]
    upper: list[int]
    states: list[str]
    candidates: list[tuple[int, float, float]]  # (link, loss up, loss down), disabled now
    footprint: list[int]
    capacity: float
    penalty: str

    def session(self) -> CorrOptSession:
        graph = FabricGraph(self.num_tiers, self.switch_tiers, self.lower, self.upper)
        return CorrOptSession(graph, self.states, capacity=self.capacity, penalty=self.penalty)

    def penalty_of(self, link: int) -> float:
        rate = PENALTIES[self.penalty]
        return next(rate(up) + rate(down) for cand, up, down in self.candidates if cand == link)

    def tors(self) -> list[int]:
        return [s for s, tier in enumerate(self.switch_tiers) if tier == 0]

    def counts(self, usable: list[bool]) -> list[int]:
        return [len(paths) for paths in up_paths(self, usable)]

    def usable_now(self) -> list[bool]:
        return [state == "enabled" for state in self.states]

    def usable_with(self, enabled: list[int]) -> list[bool]:
        usable = self.usable_now()
        for link in self.footprint:
            usable[link] = False
        for link in enabled:
            usable[link] = True
        return usable

    def design(self) -> list[int]:
        return self.counts([True] * len(self.lower))


def random_instance(seed: int) -> Instance:
    rng = random.Random(seed)
    num_tiers, tiers, lower, upper = pod_fabric(rng)
    n = len(lower)
    states = [rng.choices(["enabled", "down"], weights=[95, 5])[0] for _ in range(n)]
    candidates = rng.sample(range(n), rng.randint(15, 30))
    for link in candidates:
        states[link] = "disabled"
    # A footprint: a breakout of one switch's up-links, or a line card of links below one switch.
    switch = rng.choice([s for s, tier in enumerate(tiers) if tier < num_tiers - 1])
    if rng.random() < 0.5:
        links = [link for link in range(n) if lower[link] == switch]
    else:
        above = rng.choice([s for s, tier in enumerate(tiers) if tier > 0])
        links = [link for link in range(n) if upper[link] == above]
    footprint = rng.sample(links, min(len(links), rng.randint(1, 4)))
    return Instance(
        num_tiers,
        tiers,
        lower,
        upper,
        states,
        [(link, 10 ** rng.uniform(-8, -2), rng.choice([0.0, 10 ** rng.uniform(-8, -2)])) for link in candidates],
        footprint,
        capacity=rng.choice([0.5, 0.6, 0.7, 0.75]),
        penalty=rng.choice(list(PENALTIES)),
    )


def milp_least_added(inst: Instance, floors: dict[int, int]) -> tuple[float, list[int]] | None:
    """The least added penalty and a set reaching it, or None when no set meets `floors`."""
    enableable = [link for link, _, _ in inst.candidates if link not in inst.footprint]
    penalty = {link: inst.penalty_of(link) for link in enableable}
    paths = up_paths(inst, inst.usable_with(enableable))
    scale = max(penalty.values(), default=1.0) or 1.0

    h = highspy.Highs()
    h.silent()
    h.setOptionValue("mip_rel_gap", 0.0)
    h.setOptionValue("mip_abs_gap", 0.0)
    x = {link: h.addBinary() for link in enableable}
    for tor, floor in floors.items():
        fixed, alive = 0, []
        for path in paths[tor]:
            on_path = [link for link in path if link in x]
            if not on_path:
                fixed += 1
                continue
            y = h.addVariable(0.0, 1.0)
            for link in on_path:
                h.addConstr(y <= x[link])
            alive.append(y)
        if floor > fixed:
            if not alive:
                return None
            h.addConstr(sum(alive) >= floor - fixed)
    if not x:
        return 0.0, []
    h.minimize(sum((p / scale) * x[link] for link, p in penalty.items()))
    status = h.getModelStatus()
    if status == highspy.HighsModelStatus.kInfeasible:
        return None
    assert status == highspy.HighsModelStatus.kOptimal
    enable = sorted(link for link in x if h.val(x[link]) > 0.5)
    return sum(penalty[link] for link in enable), enable


def restore_floors(inst: Instance) -> dict[int, int]:
    design, now = inst.design(), inst.counts(inst.usable_now())
    return {t: min(required(inst.capacity, design[t]), now[t]) for t in inst.tors()}


def meets(inst: Instance, enable: list[int], floors: dict[int, int]) -> bool:
    after = inst.counts(inst.usable_with(enable))
    return all(after[t] >= floor for t, floor in floors.items())


@pytest.mark.parametrize("seed", range(60))
def test_restore_matches_the_milp(seed: int) -> None:
    inst = random_instance(seed)
    session = inst.session()
    result = session.restore(inst.candidates, inst.footprint)
    floors = restore_floors(inst)
    milp = milp_least_added(inst, floors)
    if milp is None:
        assert not result["restores_all"]
        assert result["enable"] == []
        everything = [link for link, _, _ in inst.candidates if link not in inst.footprint]
        best = inst.counts(inst.usable_with(everything))
        assert [(u["tor"], u["paths_best"], u["floor"]) for u in result["unreachable"]] == [
            (t, best[t], floor) for t, floor in floors.items() if best[t] < floor
        ]
        return
    least, milp_enable = milp
    assert meets(inst, milp_enable, floors)
    assert result["restores_all"] and result["proven_optimal"]
    assert meets(inst, result["enable"], floors)
    assert result["added_penalty"] == pytest.approx(least, rel=1e-9, abs=1e-300)
    assert result["added_penalty"] == pytest.approx(
        sum(inst.penalty_of(link) for link in result["enable"]), rel=1e-9, abs=1e-300
    )
    # The guard agrees: the footprint and the restoration applied together are safe.
    changes = [(link, "disabled") for link in inst.footprint] + [(link, "enabled") for link in result["enable"]]
    assert session.evaluate(changes)["safe"]


@pytest.mark.parametrize("seed", range(30))
def test_recover_matches_the_milp_for_the_tors_it_can_bring_back(seed: int) -> None:
    inst = random_instance(seed)
    inst.footprint = []
    # Some links went down: that is what put ToRs under their requirement.
    rng = random.Random(1000 + seed)
    for link in rng.sample([link for link, state in enumerate(inst.states) if state == "enabled"], 6):
        inst.states[link] = "down"
    result = inst.session().restore(inst.candidates, mode="recover")
    design = inst.design()
    best = inst.counts(inst.usable_with([link for link, _, _ in inst.candidates]))
    reachable = {
        t: required(inst.capacity, design[t]) for t in inst.tors() if best[t] >= required(inst.capacity, design[t])
    }
    assert [u["tor"] for u in result["unreachable"]] == [t for t in inst.tors() if t not in reachable]
    milp = milp_least_added(inst, reachable)
    assert milp is not None
    assert result["proven_optimal"]
    assert meets(inst, result["enable"], reachable)
    assert result["added_penalty"] == pytest.approx(milp[0], rel=1e-9, abs=1e-300)


def test_instances_mix_restorable_unrestorable_and_binding() -> None:
    """The footprints are unsafe alone often enough, and both answers occur."""
    unsafe = restorable = none = 0
    for seed in range(60):
        inst = random_instance(seed)
        session = inst.session()
        unsafe += not session.evaluate([(link, "disabled") for link in inst.footprint])["safe"]
        result = session.restore(inst.candidates, inst.footprint)
        restorable += bool(result["enable"])
        none += not result["restores_all"]
    assert unsafe >= 20 and restorable >= 10 and none >= 5, (unsafe, restorable, none)


def test_bad_input_is_named() -> None:
    inst = random_instance(0)
    session = inst.session()
    with pytest.raises(ValueError, match="listed more than once"):
        session.restore(inst.candidates, [inst.footprint[0], inst.footprint[0]])
    with pytest.raises(ValueError, match="takes no footprint"):
        session.restore(inst.candidates, inst.footprint, mode="recover")
    with pytest.raises(ValueError, match="mode must be"):
        session.restore(inst.candidates, mode="undo")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="does not exist"):
        session.restore(inst.candidates, [len(inst.lower)])
