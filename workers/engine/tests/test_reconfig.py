"""Goldens for the ShareBackup and Larry engine (issue #8): reference counts,
max-flow feasibility against networkx, pool sizing against an exact
binomial and the engine's own Monte Carlo, deterministic replays."""

import json
import math
from itertools import product

import networkx as nx
import pytest

import lightpath_engine as engine


def test_reference_counts_of_the_testbed_and_k16():
    testbed = engine.sharebackup_plan(4, 2, 1, [])["counts"]
    assert (testbed["active_switches"], testbed["backup_switches"], testbed["hosts"]) == (12, 6, 8)
    k16 = engine.sharebackup_plan(16, 16, 1, [])["counts"]
    assert (k16["active_switches"], k16["backup_switches"], k16["hosts"]) == (320, 40, 1024)


def test_switch_failure_splices_the_groups_backup_and_replays_identically():
    events = [{"type": "switch_down", "switch": "agg.p1.m0"}]
    plan = engine.sharebackup_plan(4, 2, 1, events)
    step = plan["events"][0]
    assert step["status"] == "normal"
    assert [c["circuit_switch"] for c in step["replace_calls"]] == ["ea.p1.j0", "ea.p1.j1", "ac.p1.c0", "ac.p1.c1"]
    assert {c["backup_switch"] for c in step["replace_calls"]} == {"agg.p1.m2"}
    assert plan["violations"] == []
    log = engine.sharebackup_synthetic_log(8, 8, 1, 60, 3)
    first, second = engine.sharebackup_plan(8, 8, 1, log), engine.sharebackup_plan(8, 8, 1, log)
    assert first["violations"] == []
    assert json.dumps(first) == json.dumps(second)


def test_invalid_input_lists_every_problem():
    with pytest.raises(ValueError, match=r"k must be even.*; pods must be"):
        engine.sharebackup_plan(5, 9, 1, [])
    with pytest.raises(ValueError, match="unknown switch"):
        engine.sharebackup_plan(4, 2, 1, [{"type": "switch_down", "switch": "agg.p7.m0"}])


def networkx_max_flow(rack_set, request):
    graph = nx.DiGraph()
    usable = [row[:] for row in rack_set["cables"]]
    for t, c in rack_set.get("excluded", []):
        usable[t][c] -= 1
    for t, r in enumerate(request):
        graph.add_edge("s", ("tor", t), capacity=r)
        for c, cables in enumerate(usable[t]):
            graph.add_edge(("tor", t), ("cs", c), capacity=cables)
    for c, r in enumerate(rack_set["cs_uplinks"]):
        graph.add_edge(("cs", c), "t", capacity=r)
    return nx.maximum_flow_value(graph, "s", "t")


DEGRADED = {
    "static_uplinks": 2,
    "cables": [[1, 1, 1, 1]] * 4,
    "cs_uplinks": [2, 2, 2, 2],
    "capacity_gbps": 100.0,
    "excluded": [[0, 0], [1, 0]],
}


def test_reference_degraded_cabling_and_its_certificate():
    bad = engine.larry_check(DEGRADED, [3, 3, 2, 0])
    assert not bad["feasible"]
    assert bad["min_cut"]["capacity"] == networkx_max_flow(DEGRADED, [3, 3, 2, 0]) == 7
    good = engine.larry_check(DEGRADED, [3, 3, 1, 1])
    assert good["feasible"] and good["min_cut"] is None


def test_feasibility_agrees_with_networkx_on_small_rack_sets():
    rack_set = {
        "static_uplinks": 2,
        "cables": [[2, 0, 1], [1, 1, 0], [0, 2, 2]],
        "cs_uplinks": [2, 1, 3],
        "capacity_gbps": 100.0,
        "excluded": [[2, 2]],
    }
    for request in product(range(4), repeat=3):
        answer = engine.larry_check(rack_set, list(request))
        flow = networkx_max_flow(rack_set, request)
        assert answer["feasible"] == (flow == sum(request)), request
        assert sum(answer["granted"]) == flow


def counters(rates_gbps, period=0.5):
    acc = [0] * len(rates_gbps[0])
    samples = [{"time_s": 0.0, "ingress_bytes": acc[:], "egress_bytes": acc[:]}]
    for i, rates in enumerate(rates_gbps, 1):
        acc = [a + int(r * 1e9 / 8 * period) for a, r in zip(acc, rates, strict=True)]
        samples.append({"time_s": i * period, "ingress_bytes": acc[:], "egress_bytes": [0] * len(acc)})
    return samples


def test_congested_rack_reaches_fourteen_uplinks_and_static_does_not():
    rack_set = {"static_uplinks": 6, "cables": [[2] * 4] * 4, "cs_uplinks": [2] * 4, "capacity_gbps": 100.0}
    samples = counters([[5000.0, 1.0, 1.0, 1.0]] * 3)
    run = engine.larry_run(rack_set, samples)
    assert [s["uplinks"] for s in run["steps"]] == [[14, 6, 6, 6]] * 3
    assert [len(s["diff"]) for s in run["steps"]] == [6, 0, 0]
    assert engine.larry_run(rack_set, samples, policy="static")["steps"][0]["uplinks"] == [8, 8, 8, 8]
    with pytest.raises(ValueError, match="policy must be"):
        engine.larry_run(rack_set, samples, policy="greedy")


def test_pool_sizing_matches_the_exact_binomial_and_monte_carlo():
    sizing = engine.sharebackup_size(8, 40, 95.0, 5.0, 1e-3)
    q = 5.0 / 100.0
    for point in sizing["curve"]:
        n = point["backups"]
        exact = sum(math.comb(8, i) * q**i * (1 - q) ** (8 - i) for i in range(n + 1, 9))
        assert point["p_group"] == pytest.approx(exact, rel=1e-9)
        assert point["p_any"] == pytest.approx(1 - (1 - exact) ** 40, rel=1e-9)
    assert sizing["curve"][-1]["p_any"] <= 1e-3 < sizing["curve"][-2]["p_any"]
    estimate, error = engine.sharebackup_monte_carlo(8, 95.0, 5.0, 1, 1_000_000.0, 11)
    exact = sizing["curve"][1]["p_group"]
    assert abs(estimate - exact) < 4 * error + 1e-4


def test_costs_normalise_to_the_reference_designs():
    rows = engine.reconfig_costs(4, 16, 4, 2, 4, 2, 16, 16, 1)
    by_design = {row["design"]: row for row in rows}
    assert by_design["static u=16"]["normalised_cost"] == 1.0
    assert by_design["fat tree k=16 P=16"]["normalised_cost"] == 1.0
    larry = by_design["larry S=2 L=4 R=2"]
    assert larry["circuit_ports"] == 24
    assert by_design["static u=4"]["cost"] < larry["cost"] < by_design["static u=16"]["cost"]
