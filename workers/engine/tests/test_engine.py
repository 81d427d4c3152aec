"""Golden tests of lightpath_engine against a networkx reference on small fabrics."""

import random
from dataclasses import dataclass

import networkx as nx
import pytest

import lightpath_engine
from lightpath_engine import FabricGraph


@dataclass
class Fabric:
    num_tiers: int
    switch_tiers: list[int]
    link_lower: list[int]
    link_upper: list[int]

    def graph(self) -> FabricGraph:
        return FabricGraph(self.num_tiers, self.switch_tiers, self.link_lower, self.link_upper)


def random_fabric(rng: random.Random) -> Fabric:
    """2-4 tiers of 1-5 switches with shuffled ids and random (possibly parallel) links."""
    sizes = [rng.randint(1, 5) for _ in range(rng.randint(2, 4))]
    ids = list(range(sum(sizes)))
    rng.shuffle(ids)
    members, start = [], 0
    for size in sizes:
        members.append(ids[start : start + size])
        start += size
    switch_tiers = [0] * len(ids)
    for tier, switches in enumerate(members):
        for s in switches:
            switch_tiers[s] = tier
    lower, upper = [], []
    for tier in range(len(sizes) - 1):
        for _ in range(rng.randint(0, 15)):
            lower.append(rng.choice(members[tier]))
            upper.append(rng.choice(members[tier + 1]))
    return Fabric(len(sizes), switch_tiers, lower, upper)


def reference_up_paths(fabric: Fabric, usable: list[bool]) -> list[int]:
    """Enumerates upward paths with networkx; parallel links are distinct edges."""
    g = nx.MultiDiGraph()
    g.add_nodes_from(range(len(fabric.switch_tiers)))
    for link, (a, b) in enumerate(zip(fabric.link_lower, fabric.link_upper, strict=True)):
        if usable[link]:
            g.add_edge(a, b, key=link)
    top = [s for s, tier in enumerate(fabric.switch_tiers) if tier == fabric.num_tiers - 1]
    counts = []
    for s, tier in enumerate(fabric.switch_tiers):
        if tier == fabric.num_tiers - 1:
            counts.append(1)
        else:
            counts.append(sum(sum(1 for _ in nx.all_simple_edge_paths(g, s, t)) for t in top))
    return counts


def fat_tree(k: int) -> Fabric:
    """k-ary fat tree: ToRs, then aggregation switches, then cores."""
    half = k // 2
    tors, aggs, cores = k * half, k * half, half * half
    lower, upper = [], []
    for pod in range(k):
        for i in range(half):
            for j in range(half):
                lower.append(pod * half + i)
                upper.append(tors + pod * half + j)
        for j in range(half):
            for c in range(half):
                lower.append(tors + pod * half + j)
                upper.append(tors + aggs + j * half + c)
    return Fabric(3, [0] * tors + [1] * aggs + [2] * cores, lower, upper)


def test_version_is_a_string():
    assert isinstance(lightpath_engine.__version__, str)
    assert lightpath_engine.__version__.count(".") == 2


@pytest.mark.parametrize("seed", range(40))
def test_up_paths_match_networkx(seed):
    rng = random.Random(seed)
    fabric = random_fabric(rng)
    usable = [rng.random() < 0.7 for _ in fabric.link_lower]
    graph = fabric.graph()
    assert graph.up_paths(usable) == reference_up_paths(fabric, usable)
    all_usable = [True] * len(fabric.link_lower)
    assert graph.up_paths() == reference_up_paths(fabric, all_usable)


@pytest.mark.parametrize("seed", range(20))
def test_tor_capacity_matches_networkx(seed):
    rng = random.Random(1000 + seed)
    fabric = random_fabric(rng)
    usable = [rng.random() < 0.7 for _ in fabric.link_lower]
    available = reference_up_paths(fabric, usable)
    total = reference_up_paths(fabric, [True] * len(fabric.link_lower))
    expected = [(s, available[s], total[s]) for s, tier in enumerate(fabric.switch_tiers) if tier == 0]
    assert fabric.graph().tor_capacity(usable) == expected


def test_fat_tree_capacity_after_a_core_link_fails():
    fabric = fat_tree(4)
    graph = fabric.graph()
    assert (graph.num_tiers, graph.num_switches, graph.num_links) == (3, 20, 32)
    assert [row[1:] for row in graph.tor_capacity()] == [(4, 4)] * 8
    # The first aggregation-to-core link of pod 0: each ToR of pod 0 loses one of its 4 paths.
    usable = [True] * graph.num_links
    usable[fabric.link_lower.index(8)] = False
    assert graph.tor_capacity(usable) == [(0, 3, 4), (1, 3, 4)] + [(t, 4, 4) for t in range(2, 8)]


def test_properties_and_repr():
    graph = FabricGraph(2, [0, 0, 1], [0, 1], [2, 2])
    assert (graph.num_tiers, graph.num_switches, graph.num_links) == (2, 3, 2)
    assert repr(graph) == "FabricGraph(num_tiers=2, num_switches=3, num_links=2)"


def test_accepts_any_sequence():
    graph = FabricGraph(2, (0, 0, 1), range(2), [2, 2])
    assert graph.up_paths((True, False)) == [1, 0, 1]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((3, [0, 1, 2], [0, 0], [1, 2]), "link 1 joins tiers 0 and 2; links must join adjacent tiers"),
        ((2, [0, 1, 1], [2], [1]), "link 0 joins tiers 1 and 1; links must join adjacent tiers"),
        (
            (2, [0, 1], [1], [0]),
            "link 0 goes from tier 1 down to tier 0; link_lower must name the lower-tier switch",
        ),
        ((2, [0, 1], [0], [5]), "link 0: upper switch 5 does not exist (the fabric has 2 switches)"),
        ((2, [0, 1], [-1], [1]), "link 0: lower switch -1 does not exist (the fabric has 2 switches)"),
        ((2, [0, 2], [], []), "switch 1 has tier 2 but the fabric has 2 tiers (0 to 1)"),
        ((2, [-1], [], []), "switch 0 has tier -1 but the fabric has 2 tiers (0 to 1)"),
        ((0, [-1], [], []), "num_tiers must be between 1 and 255, got 0"),
        ((256, [], [], []), "num_tiers must be between 1 and 255, got 256"),
        ((2, [0, 1], [0, 0], [1]), "link_lower has length 2 but link_upper has length 1; they must be equal"),
    ],
)
def test_invalid_fabrics_raise_value_error(args, message):
    with pytest.raises(ValueError) as excinfo:
        FabricGraph(*args)
    assert str(excinfo.value) == message


def test_mask_of_wrong_length_raises_value_error():
    graph = FabricGraph(2, [0, 1], [0], [1])
    with pytest.raises(ValueError, match="usable mask has length 2 but the fabric has 1 links"):
        graph.up_paths([True, True])
    with pytest.raises(ValueError, match="usable mask has length 0"):
        graph.tor_capacity([])


def test_overflow_raises_overflow_error():
    # 9 tiers of 2 switches, each joined to both switches above by 128 parallel
    # links: a ToR has 256**8 == 2**64 up-paths, one more than a u64 holds.
    tiers, parallel = 9, 128
    lower, upper = [], []
    for t in range(tiers - 1):
        for a in range(2):
            for b in range(2):
                lower += [2 * t + a] * parallel
                upper += [2 * (t + 1) + b] * parallel
    graph = FabricGraph(tiers, [t for t in range(tiers) for _ in range(2)], lower, upper)
    with pytest.raises(OverflowError, match="switch 0 exceeds 18446744073709551615"):
        graph.up_paths()
    # Without one top-tier link every count fits again.
    usable = [True] * graph.num_links
    usable[-1] = False
    assert graph.up_paths(usable)[0] == 128 * (255 + 256) * 256**6
