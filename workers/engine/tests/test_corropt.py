"""Golden tests of the CorrOpt bindings against a plain-Python reference:
the fast checker and switch-local baseline re-implemented greedily, and the
optimizer against brute force over every subset, on small seeded fabrics."""

import itertools
import math
import random
import re

import pytest
from test_engine import Fabric, fat_tree, random_fabric

from lightpath_engine import FabricGraph, corropt_check, corropt_optimize, corropt_switch_local

PENALTIES = {
    "linear": lambda f: f,
    "log": lambda f: math.log10(1 + f / 1e-8),
    "step": lambda f: sum(f >= b for b in (1e-8, 1e-5, 1e-4, 1e-3)),
}


def up_paths(fabric: Fabric, usable: list[bool]) -> list[int]:
    """Top-down count of upward paths over usable links (parallel links distinct)."""
    counts = [1 if tier == fabric.num_tiers - 1 else 0 for tier in fabric.switch_tiers]
    for tier in range(fabric.num_tiers - 2, -1, -1):
        for link, (a, b) in enumerate(zip(fabric.link_lower, fabric.link_upper, strict=True)):
            if usable[link] and fabric.switch_tiers[a] == tier:
                counts[a] += counts[b]
    return counts


def required(fraction: float, design: int) -> int:
    """ceil(fraction * design), with products within 1e-9 of a whole number snapped to it."""
    x = fraction * design
    nearest = round(x)
    return nearest if abs(x - nearest) <= 1e-9 * max(nearest, 1) else math.ceil(x)


class Reference:
    def __init__(self, fabric: Fabric, states: list[str], capacity: float, overrides: dict[int, float]):
        self.fabric = fabric
        self.usable = [s == "enabled" for s in states]
        design = up_paths(fabric, [True] * len(states))
        now = up_paths(fabric, self.usable)
        tors = [s for s, tier in enumerate(fabric.switch_tiers) if tier == 0]
        self.floor = {t: min(required(overrides.get(t, capacity), design[t]), now[t]) for t in tors}

    def feasible(self, usable: list[bool]) -> bool:
        counts = up_paths(self.fabric, usable)
        return all(counts[t] >= f for t, f in self.floor.items())

    def without(self, links) -> list[bool]:
        usable = list(self.usable)
        for link in links:
            usable[link] = False
        return usable


def link_penalty(entry, penalty: str) -> float:
    """I(up) + I(down) of a (link, rate) or (link, up, down) entry; None means a clean direction."""
    return sum(PENALTIES[penalty](rate or 0.0) for rate in entry[1:])


def order(corrupting, penalty):
    return sorted(((c[0], link_penalty(c, penalty)) for c in corrupting), key=lambda x: (-x[1], x[0]))


def random_instance(seed: int):
    rng = random.Random(seed)
    fabric = random_fabric(rng)
    n = len(fabric.link_lower)
    states = [rng.choice(["enabled"] * 6 + ["disabled", "down"]) for _ in range(n)]
    links = rng.sample(range(n), min(n, rng.randint(0, 10)))
    # Half of the links are given per direction; the downward one is clean (0 or None) half of the time.
    corrupting = [
        (link, 10 ** rng.uniform(-8, -2))
        if rng.random() < 0.5
        else (link, 10 ** rng.uniform(-8, -2), rng.choice([0.0, None, 10 ** rng.uniform(-8, -2)]))
        for link in links
    ]
    capacity = rng.choice([0.25, 0.5, 0.6, 0.75, 0.9])
    tors = [s for s, tier in enumerate(fabric.switch_tiers) if tier == 0]
    overrides = {rng.choice(tors): rng.choice([0.0, 0.5, 1.0])} if tors and rng.random() < 0.5 else {}
    penalty = rng.choice(list(PENALTIES))
    return fabric, states, corrupting, capacity, overrides, penalty


@pytest.mark.parametrize("seed", range(60))
def test_optimizer_matches_brute_force(seed):
    fabric, states, corrupting, capacity, overrides, penalty = random_instance(seed)
    ref = Reference(fabric, states, capacity, overrides)
    candidates = [(c[0], link_penalty(c, penalty)) for c in corrupting if states[c[0]] == "enabled"]
    total = sum(p for _, p in candidates)
    best = min(
        total - sum(p for _, p in subset)
        for size in range(len(candidates) + 1)
        for subset in itertools.combinations(candidates, size)
        if ref.feasible(ref.without(link for link, _ in subset))
    )
    result = corropt_optimize(
        fabric.graph(), corrupting, states, capacity=capacity, overrides=overrides, penalty=penalty
    )
    assert result["proven_optimal"]
    assert result["remaining_penalty"] == pytest.approx(best, rel=1e-9, abs=1e-300)
    assert result["remaining_penalty_lower_bound"] == result["remaining_penalty"]
    assert ref.feasible(ref.without(result["disable"]))
    assert sorted(result["disable"] + result["keep_enabled"]) == sorted(link for link, _ in candidates)


@pytest.mark.parametrize("seed", range(60))
def test_fast_checker_matches_greedy_reference(seed):
    fabric, states, corrupting, capacity, overrides, penalty = random_instance(seed)
    corrupting = [c for c in corrupting if states[c[0]] == "enabled"]
    ref = Reference(fabric, states, capacity, overrides)
    expected, disabled = [], []
    for link, _ in order(corrupting, penalty):
        ok = ref.feasible(ref.without([*disabled, link]))
        if ok:
            disabled.append(link)
        expected.append((link, ok))
    decisions = corropt_check(
        fabric.graph(), corrupting, states, capacity=capacity, overrides=overrides, penalty=penalty
    )
    assert [(d["link"], d["disabled"]) for d in decisions] == expected
    for d in decisions:
        if d["disabled"]:
            assert d["refusal"] is None
        else:
            assert d["refusal"]["kind"] == "tor_capacity"
            blocking = {i["tor"] for i in d["affected"] if i["paths_after"] < i["required_paths"]}
            assert set(d["refusal"]["tors"]) == blocking


@pytest.mark.parametrize("seed", range(40))
def test_switch_local_matches_reference(seed):
    fabric, states, corrupting, capacity, _, penalty = random_instance(seed)
    corrupting = [c for c in corrupting if states[c[0]] == "enabled"]
    share = capacity ** (1 / (fabric.num_tiers - 1))
    current = list(states)
    expected = []
    for link, _ in order(corrupting, penalty):
        switch = fabric.link_lower[link]
        uplinks = [up for up, a in enumerate(fabric.link_lower) if a == switch]
        allowance = math.floor(len(uplinks) * (1 - share) + 1e-9)
        ok = sum(current[up] != "enabled" for up in uplinks) < allowance
        if ok:
            current[link] = "disabled"
        expected.append((link, ok))
    decisions = corropt_switch_local(fabric.graph(), corrupting, states, capacity=capacity, penalty=penalty)
    assert [(d["link"], d["disabled"]) for d in decisions] == expected


def test_both_directions_are_two_penalties_not_one_summed_rate():
    """ToR 0 of a k=4 fat tree keeps 2 of 4 paths at c = 0.5: one of its up-links a, b may go.

    a corrupts at 1e-5 both ways, b at 1e-4 one way. Linear: a costs 2e-5 < 1e-4, b goes. Log: a costs
    2 * log10(1001) ~ 6 > 4, step: 2 + 2 > 3, so a goes; with a's rates summed into one (2e-5: log 3.3,
    step 2) b would go instead."""
    graph = fat_tree(4).graph()
    a, b = 0, 1  # ToR 0's up-links
    pair = [(a, 1e-5, 1e-5), (b, 1e-4)]
    summed = [(a, 2e-5), (b, 1e-4)]

    def chosen(corrupting, penalty):
        decisions = corropt_check(graph, corrupting, capacity=0.5, penalty=penalty)
        optimum = corropt_optimize(graph, corrupting, capacity=0.5, penalty=penalty)
        local = corropt_switch_local(graph, corrupting, capacity=0.5, penalty=penalty, share=0.5)
        assert [d["link"] for d in local if d["disabled"]] == optimum["disable"]
        assert [d["link"] for d in decisions if d["disabled"]] == optimum["disable"]
        return optimum["disable"]

    assert chosen(pair, "linear") == [b] == chosen(summed, "linear")
    for penalty in ("log", "step"):
        assert chosen(pair, penalty) == [a]
        assert chosen(summed, penalty) == [b]
    decision = corropt_check(graph, [(a, 1e-5, 1e-5)], capacity=0.5, penalty="log")[0]
    assert decision["penalty"] == pytest.approx(2 * math.log10(1001))
    # One direction given as a triple is the same as the pair form.
    assert corropt_check(graph, [(a, None, 1e-4)], penalty="step") == corropt_check(graph, [(a, 1e-4)], penalty="step")


@pytest.mark.parametrize("seed", range(20))
def test_link_states_as_bytes_equal_names(seed):
    fabric, states, corrupting, capacity, overrides, penalty = random_instance(seed)
    graph = fabric.graph()
    codes = {"enabled": 0, "disabled": 1, "down": 2}
    as_bytes = bytes(codes[s] for s in states)
    as_letters = "".join({"enabled": "e", "disabled": "d", "down": "D"}[s] for s in states).encode()
    options = {"capacity": capacity, "overrides": overrides, "penalty": penalty}
    enabled = [c for c in corrupting if states[c[0]] == "enabled"]
    for link_states in (as_bytes, as_letters, bytearray(as_bytes)):
        assert corropt_optimize(graph, corrupting, link_states, **options) == corropt_optimize(
            graph, corrupting, states, **options
        )
        assert corropt_check(graph, enabled, link_states, **options) == corropt_check(graph, enabled, states, **options)
        assert corropt_switch_local(graph, enabled, link_states, **options) == corropt_switch_local(
            graph, enabled, states, **options
        )


def figure_3_10():
    """CorrOpt Figure 3.10: ToR 0 -> A..E (1..5) -> spines 6..10, 16 corrupting links."""
    lower = [0] * 5 + [x for x in range(1, 6) for _ in range(5)]
    upper = list(range(1, 6)) + [6 + j for _ in range(5) for j in range(5)]
    graph = FabricGraph(3, [0] + [1] * 5 + [2] * 5, lower, upper)

    def spine(x, j):
        return 5 + 5 * (x - 1) + j

    corrupting = [(3, 2e-4), (4, 2e-4), (0, 1e-4), (1, 1e-4)]
    corrupting += [(spine(x, j), 1e-4) for x in (1, 2) for j in range(5)]
    corrupting += [(spine(3, j), 1e-4) for j in range(2)]
    return graph, corrupting


def test_figure_3_10():
    graph, corrupting = figure_3_10()
    naive = corropt_switch_local(graph, corrupting, capacity=0.6, share=0.6)
    assert sum(d["disabled"] for d in naive) == 8
    # The last decision touching ToR 0 leaves it 9 of its 25 paths.
    last = [i for d in naive for i in d["affected"] if i["tor"] == 0][-1]
    assert (last["paths_after"], last["design_paths"]) == (9, 25)
    safe = corropt_switch_local(graph, corrupting, capacity=0.6)
    assert sum(d["disabled"] for d in safe) == 4
    best = corropt_optimize(graph, corrupting, capacity=0.6)
    assert len(best["disable"]) == 12
    assert best["proven_optimal"]


def test_time_budget_returns_a_feasible_answer_with_a_bound():
    fabric = fat_tree(8)
    graph = fabric.graph()
    corrupting = [(link, (1e-6, 2e-5, 3e-4)[link % 3]) for link in range(graph.num_links)]
    quick = corropt_optimize(graph, corrupting, time_budget_s=0.0)
    exact = corropt_optimize(graph, corrupting)
    assert not quick["proven_optimal"] and exact["proven_optimal"]
    assert quick["remaining_penalty_lower_bound"] <= exact["remaining_penalty"] <= quick["remaining_penalty"]
    ref = Reference(fabric, ["enabled"] * graph.num_links, 0.75, {})
    assert ref.feasible(ref.without(quick["disable"]))


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda g: corropt_check(g, [(9, 1e-4)]), "link 9 does not exist (the fabric has 2 links)"),
        (lambda g: corropt_check(g, [(-1, 1e-4)]), "link -1 does not exist (the fabric has 2 links)"),
        (lambda g: corropt_check(g, [(0, 1.5)]), "link 0: loss rate 1.5 is not a fraction in [0, 1]"),
        (lambda g: corropt_check(g, [(0, 0, -1e-4)]), "link 0: downward loss rate -0.0001 is not a fraction in [0, 1]"),
        (lambda g: corropt_optimize(g, [(0, 1e-4, 1e-5, 1e-6)]), "corrupting[0]: expected (link, loss_rate) or"),
        (lambda g: corropt_check(g, [(1, 1e-4), 0]), "corrupting[1]: expected (link, loss_rate) or"),
        (lambda g: corropt_check(g, [("a", 1e-4)]), "corrupting[0]: expected (link, loss_rate) or"),
        (lambda g: corropt_check(g, [(0, 1e-4), (0, 1e-5)]), "link 0 is listed more than once"),
        (lambda g: corropt_check(g, [(0, 1e-4)], ["down", "enabled"]), "link 0 is Down, not Enabled"),
        (lambda g: corropt_check(g, [], ["up", "enabled"]), "link 0: state must be 'enabled', 'disabled' or 'down'"),
        (lambda g: corropt_check(g, [], ["enabled"]), "link states have length 1 but the fabric has 2 links"),
        (lambda g: corropt_check(g, [], b"e"), "link states have length 1 but the fabric has 2 links"),
        (lambda g: corropt_optimize(g, [], b"e\x07"), "link 1: state byte 0x07 is not b'e' or 0 (enabled)"),
        (lambda g: corropt_check(g, [], capacity=75), "capacity threshold 75 is not a fraction in [0, 1]"),
        (lambda g: corropt_check(g, [], overrides={2: 0.5}), "threshold override for switch 2, which is not a ToR"),
        (lambda g: corropt_check(g, [], penalty="square"), "penalty must be 'linear', 'log' or 'step'"),
        (lambda g: corropt_switch_local(g, [], share=2.0), "switch-local share 2 is not a fraction in [0, 1]"),
        (lambda g: corropt_optimize(g, [], time_budget_s=-1.0), "time_budget_s must be a non-negative"),
    ],
)
def test_bad_input_raises_value_error(call, message):
    graph = FabricGraph(2, [0, 0, 1], [0, 1], [2, 2])
    with pytest.raises(ValueError, match=re.escape(message)):
        call(graph)
