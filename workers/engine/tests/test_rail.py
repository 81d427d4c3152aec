"""Golden tests of the RAIL bindings against a plain-Python reference: every ECMP path
enumerated with networkx (shortest valley-free paths: up to the lowest tier where the two ToRs
share an ancestor, then down), the cheapest-part rule re-implemented, and FEC with exact
fractions. Small seeded fabrics, plus the seed's Table 4.1 on the k = 32 fat tree."""

import math
import random
from fractions import Fraction

import networkx as nx
import pytest
from test_engine import Fabric, fat_tree, random_fabric

from lightpath_engine import (
    rail_classes,
    rail_fec,
    rail_plan,
    rail_standard_catalog,
    rail_worst_path,
    rail_xor_residual,
)

LEVELS = [0.0, 1e-9, 1e-8, 1e-5, 1e-3, 0.02, 0.3]


def ecmp_paths(fabric: Fabric, usable: list[bool]) -> dict[tuple[int, int], list[tuple[list[int], list[int]]]]:
    """(src, dst) -> [(up links, down links)] for every ordered ToR pair with a path."""
    g = nx.MultiDiGraph()
    g.add_nodes_from(range(len(fabric.switch_tiers)))
    for link, (a, b) in enumerate(zip(fabric.link_lower, fabric.link_upper, strict=True)):
        if usable[link]:
            g.add_edge(a, b, key=link)
    tors = [s for s, t in enumerate(fabric.switch_tiers) if t == 0]
    ups: dict[int, dict[int, list[list[int]]]] = {}
    for a in tors:
        ups[a] = {}
        for s in nx.descendants(g, a):
            ups[a][s] = [[key for _, _, key in p] for p in nx.all_simple_edge_paths(g, a, s)]
    pairs = {}
    for a in tors:
        for b in tors:
            if a == b:
                continue
            common = set(ups[a]) & set(ups[b])
            if not common:
                continue
            peak = min(fabric.switch_tiers[s] for s in common)
            pairs[(a, b)] = [
                (up, list(reversed(down)))
                for s in common
                if fabric.switch_tiers[s] == peak
                for up in ups[a][s]
                for down in ups[b][s]
            ]
    return pairs


def path_loss(path: tuple[list[int], list[int]], up: list[float], down: list[float]) -> float:
    log_kept = sum(math.log1p(-up[link]) for link in path[0]) + sum(math.log1p(-down[link]) for link in path[1])
    return -math.expm1(log_kept)


def losses(rng: random.Random, n: int) -> tuple[list[float], list[float], list[bool]]:
    return (
        [rng.choice(LEVELS) for _ in range(n)],
        [rng.choice(LEVELS) for _ in range(n)],
        [rng.random() < 0.85 for _ in range(n)],
    )


def fabrics(seed: int) -> Fabric:
    rng = random.Random(seed)
    return fat_tree(rng.choice([2, 4, 6])) if seed % 2 else random_fabric(rng)


@pytest.mark.parametrize("seed", range(30))
def test_worst_path_is_the_worst_enumerated_path(seed):
    fabric = fabrics(seed)
    rng = random.Random(1000 + seed)
    up, down, usable = losses(rng, len(fabric.link_lower))
    pairs = ecmp_paths(fabric, usable)
    found = rail_worst_path(fabric.graph(), up, down, usable)
    if not pairs:
        assert found is None
        return
    assert found is not None
    expected = max(path_loss(p, up, down) for paths in pairs.values() for p in paths)
    assert found["loss"] == pytest.approx(expected, rel=1e-12, abs=1e-18)
    ups = [h["link"] for h in found["hops"] if h["upward"]]
    downs = [h["link"] for h in found["hops"] if not h["upward"]]
    assert (ups, downs) in pairs[(found["src"], found["dst"])]


def test_worst_path_when_a_spine_has_two_children_in_one_pod():
    # Pod 0: ToRs 0, 1 under fabric switches 2 and 3, both under spine 6; pod 1: ToR 4 under 5 under 6.
    # Combining 2 and 3 at the spine would make a path from ToR 0 back to a pod-mate over 4 hops.
    fabric = Fabric(3, [0, 0, 1, 1, 0, 1, 2], [0, 0, 1, 1, 2, 3, 4, 5], [2, 3, 2, 3, 6, 6, 5, 6])
    up = [0.0] * 8
    up[4] = 0.01  # 2 -> spine
    down = [0.0] * 8
    down[5] = 0.01  # spine -> 3
    found = rail_worst_path(fabric.graph(), up, down)
    assert found is not None
    # The worst real path crosses one of the two lossy directions, never both.
    assert found["loss"] == pytest.approx(0.01)
    assert {found["src"], found["dst"]} & {4}


@pytest.mark.parametrize("seed", range(12))
def test_classes_nest_meet_bounds_and_keep_the_right_paths(seed):
    fabric = fabrics(seed)
    rng = random.Random(2000 + seed)
    up, down, alive = losses(rng, len(fabric.link_lower))
    bounds = [1e-8, 1e-3, 0.1]
    result = rail_classes(fabric.graph(), up, down, alive, bounds=bounds, repair_above=0.25)
    assert result["repair"] == [i for i in range(len(up)) if alive[i] and (up[i] > 0.25 or down[i] > 0.25)]
    physical = ecmp_paths(fabric, alive)
    previous: set[int] = set()
    for bound, cls in zip(bounds, result["classes"], strict=True):
        members = set(cls["links"])
        assert previous <= members
        previous = members
        usable = [i in members for i in range(len(up))]
        inside = ecmp_paths(fabric, usable)
        worst = max((path_loss(p, up, down) for paths in inside.values() for p in paths), default=None)
        assert (cls["worst"] is None) == (worst is None)
        if worst is not None:
            assert worst <= bound * (1 + 1e-12)
            assert cls["worst"]["loss"] == pytest.approx(worst, rel=1e-12, abs=1e-18)
        # kept_paths: per pair, the share of its physical paths lying entirely in the class.
        shares = [
            sum(all(link in members for link in p[0] + p[1]) for p in paths) / len(paths) for paths in physical.values()
        ]
        kept = cls["kept_paths"]
        assert kept["connected_pairs"] == len(shares)
        if shares:
            assert kept["worst_pair"]["fraction"] == pytest.approx(min(shares))
            assert kept["mean"] == pytest.approx(sum(shares) / len(shares))
        # fec: every path of the class coded for t = 0.1 %.
        coded = [rail_fec(path_loss(p, up, down), 1e-3) for paths in inside.values() for p in paths]
        assert cls["fec"]["paths"] == len(coded)
        assert cls["fec"]["uncoded"] == sum(c["scheme"] == "none" for c in coded)
        assert cls["fec"]["xor"] == sum(c["scheme"] == "xor" for c in coded)


def q_exact(n: int, p: Fraction) -> Fraction:
    return 1 - (1 - p) ** (n + 1) - (n + 1) * p * (1 - p) ** n


@pytest.mark.parametrize("seed", range(40))
def test_fec_n_is_the_largest_meeting_the_target_in_exact_arithmetic(seed):
    rng = random.Random(seed)
    p = 10 ** rng.uniform(-4, -1.5)
    t = 10 ** rng.uniform(-4, -2)
    result = rail_fec(p, t)
    exact_p, exact_t = Fraction(p), Fraction(t)
    if p < t:
        assert result["scheme"] == "none"
    elif result["scheme"] == "xor":
        n = result["n"]
        assert q_exact(n, exact_p) <= exact_t < q_exact(n + 1, exact_p)
        assert result["overhead"] == pytest.approx(1 / n)
        assert result["residual_loss"] == pytest.approx(float(q_exact(n, exact_p)), rel=1e-9)
    else:
        assert result["scheme"] == "replicate3"
        assert q_exact(1, exact_p) > exact_t
        assert result["residual_loss"] == pytest.approx(p**3)


def test_fec_reference_values():
    r = rail_fec(3e-3, 1e-3)
    assert (r["scheme"], r["n"]) == ("xor", 14)
    assert r["residual_loss"] == pytest.approx(9.21e-4, rel=1e-3)
    assert rail_fec(0.03)["n"] == 1
    assert rail_fec(0.05)["scheme"] == "replicate3"
    assert rail_fec(0.2)["scheme"] == "unusable"
    assert rail_xor_residual(15, 3e-3) > 1e-3
    with pytest.raises(ValueError, match=r"loss: 1.5 is not a fraction in \[0, 1\]; target: 0"):
        rail_fec(1.5, 0.0)


def test_table_4_1_k32_fat_tree_expected_value():
    graph = fat_tree(32).graph()
    plan = rail_plan(graph, uniform=(0, 500), speed_gbps=10, pair_stats=False, sweep_max_lengths_m=[])
    lines = {line["item"]: line for line in plan["baseline"]["lines"]}
    assert lines["10GBASE-SR"]["quantity"] == 19_660
    assert lines["10GBASE-LR"]["quantity"] == 13_108
    assert round(lines["MMF"]["quantity"] / 1000) == 1_475
    assert round(lines["SMF"]["quantity"] / 1000) == 2_621
    assert lines["ports"]["quantity"] == 32_768
    assert round(lines["energy"]["quantity"] / 1e9 * 1000) == 5  # GWh
    assert plan["baseline"]["total_usd"] == pytest.approx(8_573_467.6)
    assert round(plan["baseline"]["transceiver_share"], 3) == 0.475
    assert plan["savings"] == 0


def cheapest(catalog: list[dict], speed: int, length: float, nrb: float | None) -> tuple[str, float]:
    """The reference rule: the lowest 2 x price + length x fiber price among parts reaching the length."""
    fiber = {"MMF": 0.44, "SMF": 0.21}
    best = None
    for t in catalog:
        if t["speed_gbps"] != speed:
            continue
        reach = t["rated_reach_m"]
        if nrb is not None:
            eligible = [s for s in t["stretch"] if s["nrb"] >= nrb]
            if eligible:
                reach = min(eligible, key=lambda s: s["nrb"])["reach_m"]
        if reach < length:
            continue
        cost = 2 * t["price_usd"] + length * fiber[t["fiber"]]
        if best is None or cost < best[1]:
            best = (t["name"], cost)
    assert best is not None
    return best


@pytest.mark.parametrize("nrb", [None, 0.99, 0.97, 0.95])
def test_per_link_plan_matches_the_reference(nrb):
    rng = random.Random(7)
    fabric = fat_tree(4)
    lengths = [rng.uniform(0, 700) for _ in fabric.link_lower]
    catalog = rail_standard_catalog()
    plan = rail_plan(fabric.graph(), length_m=lengths, speed_gbps=10, nrb=nrb, sweep_max_lengths_m=[])
    for link, length in zip(plan["links"], lengths, strict=True):
        assert link["baseline"] == cheapest(catalog, 10, length, None)[0]
        assert link["plan"] == cheapest(catalog, 10, length, nrb)[0]
        assert link["plan_usd"] == pytest.approx(cheapest(catalog, 10, length, nrb)[1])
    baseline = sum(cheapest(catalog, 10, length, None)[1] for length in lengths)
    transceivers_and_fiber = sum(
        line["total_usd"] for line in plan["baseline"]["lines"] if line["category"] in ("transceivers", "fiber")
    )
    assert transceivers_and_fiber == pytest.approx(baseline)
    assert plan["plan"]["total_usd"] <= plan["baseline"]["total_usd"]
    # Expected good fraction per ToR pair: mean over its paths of the product of p_good (Appendix B).
    pairs = ecmp_paths(fabric, [True] * len(lengths))
    p_good = [link["p_good"] for link in plan["links"]]
    fractions = [
        sum(math.prod(p_good[link] for link in p[0] + p[1]) for p in paths) / len(paths) for paths in pairs.values()
    ]
    good = plan["good_paths"]
    assert good["worst_pair"]["fraction"] == pytest.approx(min(fractions))
    assert good["mean"] == pytest.approx(sum(fractions) / len(fractions))
    if nrb is not None:
        assert min(fractions) >= plan["path_bound"] - 1e-12
        assert plan["path_bound"] >= nrb - 1e-12


def test_bad_plan_input_lists_every_problem():
    graph = fat_tree(2).graph()
    with pytest.raises(ValueError) as raised:
        rail_plan(graph, length_m=[1, 2, 3, -4], speed_gbps=40, nrb=1.5, costs={"port_usd": -1})
    message = str(raised.value)
    for part in (
        "costs.port_usd: -1 is not a non-negative number",
        "nrb: 1.5 is not a fraction in (0, 1]",
        "length_m[3]: -4 is not a non-negative length",
        "40GBASE-SR4: price unknown",
    ):
        assert part in message
    with pytest.raises(ValueError, match="give either length_m"):
        rail_plan(graph)
