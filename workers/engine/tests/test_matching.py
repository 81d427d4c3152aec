"""Golden tests of the circuit-schedule engine (issue #7) against Python references.

- exact matching equals networkx's max_weight_matching on random graphs up to 200 racks;
- exact b-matching (several optical ports per rack, parallel circuits allowed) equals a HiGHS ILP;
- the ordering exact/2 <= greedy <= exact <= bound and maximality;
- schedules: uniform demand gives the optical ratio 1/(n-1) (3/21 on the seed's 7 racks), plans
  verify clean and a tampered slot is reported;
- edge groups beat the seed's Lemma 1 greedy on the reference's counter-example.
"""

from __future__ import annotations

import random

import networkx as nx
import pytest

from lightpath_engine import (
    circuit_groups,
    circuit_plan,
    circuit_slot,
    circuit_verify,
    max_weight_matching,
)

highspy = pytest.importorskip("highspy")


def random_edges(rng: random.Random, n: int, density: float, max_weight: int) -> list[tuple[int, int, int]]:
    return [(a, b, rng.randint(1, max_weight)) for a in range(n) for b in range(a + 1, n) if rng.random() < density]


def weight_of(edges: list[tuple[int, int, int]], mate: list[int | None]) -> int:
    return sum(w for a, b, w in edges if mate[a] == b)


@pytest.mark.parametrize(
    ("n", "density", "max_weight", "seed"),
    [
        (2, 1.0, 5, 0),
        (13, 0.5, 3, 1),  # many ties
        (40, 0.3, 100, 2),
        (100, 0.1, 10**6, 3),
        (150, 1.0, 50, 4),
        (200, 0.05, 10**9, 5),
    ],
)
def test_exact_matching_equals_networkx(n: int, density: float, max_weight: int, seed: int) -> None:
    edges = random_edges(random.Random(seed), n, density, max_weight)
    mate = max_weight_matching(n, edges)
    for v, u in enumerate(mate):
        assert u is None or mate[u] == v
    graph = nx.Graph()
    graph.add_weighted_edges_from(edges)
    reference = nx.max_weight_matching(graph)
    expected = sum(graph[a][b]["weight"] for a, b in reference)
    assert weight_of(edges, mate) == expected


def ilp_b_matching(ports: list[int], pairs: list[tuple[int, int, int]]) -> int:
    h = highspy.Highs()
    h.silent()
    h.setOptionValue("mip_rel_gap", 0.0)
    x = {}
    for a, b, w in pairs:
        cap = min(ports[a], ports[b])
        if cap > 0:
            x[(a, b)] = (h.addIntegral(lb=0, ub=cap), w)
    if not x:
        return 0
    for v, k in enumerate(ports):
        incident = [var for (a, b), (var, _) in x.items() if v in (a, b)]
        if incident:
            h.addConstr(sum(incident) <= k)
    h.maximize(sum(w * var for var, w in x.values()))
    assert h.getModelStatus() == highspy.HighsModelStatus.kOptimal
    return round(sum(w * h.val(var) for var, w in x.values()))


@pytest.mark.parametrize("seed", range(12))
def test_exact_b_matching_equals_ilp(seed: int) -> None:
    rng = random.Random(100 + seed)
    n = rng.randint(3, 30)
    ports = [rng.randint(0, 3) for _ in range(n)]
    pairs = random_edges(rng, n, 0.3, 1000)
    choice = circuit_slot(ports, pairs, "exact")
    assert choice["exact"]
    used = [0] * n
    for c in choice["circuits"]:
        used[c["a"]] += c["count"]
        used[c["b"]] += c["count"]
    assert all(u <= k for u, k in zip(used, ports, strict=True))
    assert choice["weight"] == ilp_b_matching(ports, pairs)
    assert choice["weight"] <= choice["bound"]


@pytest.mark.parametrize("seed", range(5))
def test_baselines_are_ordered(seed: int) -> None:
    rng = random.Random(seed)
    n = 60
    pairs = random_edges(rng, n, 0.4, 10**6)
    ports = [1] * n
    exact = circuit_slot(ports, pairs, "exact")
    greedy = circuit_slot(ports, pairs, "greedy")
    rand = circuit_slot(ports, pairs, "random", seed=seed)
    assert exact["weight"] / 2 <= greedy["weight"] <= exact["weight"] <= exact["bound"]
    assert rand["weight"] <= exact["weight"]
    assert exact["maximal"] and greedy["maximal"] and rand["maximal"]
    assert circuit_slot(ports, pairs, "random", seed=seed) == rand


def uniform(n: int, windows: int, volume: int) -> list[list[tuple[int, int, int]]]:
    return [[(a, b, volume) for a in range(n) for b in range(a + 1, n)] for _ in range(windows)]


@pytest.mark.parametrize("n", [7, 8, 20])
def test_uniform_demand_gives_one_circuit_per_pair_share(n: int) -> None:
    schedule = circuit_plan([1] * n, uniform(n, 4, 200_000_000))
    metrics = schedule["metrics"]
    assert metrics["optical_ratio"] == pytest.approx((n // 2) / (n * (n - 1) / 2))
    assert metrics["uniform_ratio"] == pytest.approx(metrics["optical_ratio"])
    if n == 7:
        assert metrics["optical_ratio"] == pytest.approx(3 / 21)
        assert all(len(s["circuits"]) == 3 for s in schedule["slots"])


def test_plan_verifies_and_a_tampered_slot_is_reported() -> None:
    rng = random.Random(9)
    n = 12
    windows = [
        [(rng.randrange(n), rng.randrange(n), rng.randint(10**6, 2 * 10**9)) for _ in range(40)] for _ in range(6)
    ]
    windows = [[(s, d, b) for s, d, b in w if s != d] for w in windows]
    options = {"zones": [0] * 6 + [1] * 6, "reconfig": "global", "hysteresis": 0.1}
    schedule = circuit_plan([1] * n, windows, **options)
    assert circuit_verify([1] * n, windows, schedule["slots"], **options) == []
    tampered = [dict(s) for s in schedule["slots"]]
    tampered[1]["circuits"] = [{"a": 0, "b": 7, "count": 1}]
    tampered[1]["offloaded_bytes"] += 1
    problems = circuit_verify([1] * n, windows, tampered, **options)
    assert any("crosses zones 0 and 1" in p for p in problems)
    assert any("offloaded_bytes" in p for p in problems)


def test_plan_rejects_bad_input_listing_every_problem() -> None:
    with pytest.raises(ValueError) as err:
        circuit_plan([1, 1], [[(0, 5, 10)]], period_s=0.0, algorithm="best")
    text = str(err.value)
    assert "algorithm" in text and "period" in text
    assert "replay needs at least two windows" in text and "out of range" in text


def test_edge_groups_beat_the_lemma_1_greedy() -> None:
    edges = [(0, 2, 10), (1, 3, 10), (0, 1, 1), (2, 3, 1)]
    best = circuit_groups(4, edges, [([(0, 1)], 10), ([(2, 3)], 10)])
    assert best["weight"] == 22
    assert best["completed"] == [0, 1]
    assert best["exact"]
