"""CorrOptSession: the CorrOpt state kept between calls. Its decisions must equal corropt_check's on the
same state, and the one-source helpers corropt_penalty / corropt_required_paths must match the engine."""

import gc
import re

import pytest
from test_corropt import PENALTIES, random_instance
from test_engine import fat_tree

from lightpath_engine import (
    CorrOptSession,
    FabricGraph,
    corropt_check,
    corropt_optimize,
    corropt_penalty,
    corropt_required_paths,
)

NAMES = {ord("e"): "enabled", ord("d"): "disabled", ord("D"): "down"}
CODES = {"enabled": b"e", "disabled": b"d", "down": b"D"}


def names(session: CorrOptSession) -> list[str]:
    return [NAMES[b] for b in session.link_states()]


def without_affected(decision: dict) -> dict:
    return {k: v for k, v in decision.items() if k != "affected"}


@pytest.mark.parametrize("seed", range(60))
def test_batch_equals_corropt_check(seed):
    fabric, states, corrupting, capacity, overrides, penalty = random_instance(seed)
    corrupting = [c for c in corrupting if states[c[0]] == "enabled"]
    graph = fabric.graph()
    expected = corropt_check(graph, corrupting, states, capacity=capacity, overrides=overrides, penalty=penalty)
    session = CorrOptSession(graph, states, capacity=capacity, overrides=overrides, penalty=penalty)
    assert session.check_batch(corrupting) == expected
    # The session now holds the batch's disables.
    after = list(states)
    for d in expected:
        if d["disabled"]:
            after[d["link"]] = "disabled"
    assert names(session) == after


@pytest.mark.parametrize("seed", range(60))
def test_single_checks_equal_corropt_check_on_the_current_state(seed):
    fabric, states, corrupting, capacity, overrides, penalty = random_instance(seed)
    corrupting = [c for c in corrupting if states[c[0]] == "enabled"]
    graph = fabric.graph()
    session = CorrOptSession(graph, states, capacity=capacity, overrides=overrides, penalty=penalty)
    batch = corropt_check(graph, corrupting, states, capacity=capacity, overrides=overrides, penalty=penalty)
    entries = {c[0]: c for c in corrupting}
    for want in batch:
        link = want["link"]
        current = names(session)
        same_state = corropt_check(
            graph, [entries[link]], current, capacity=capacity, overrides=overrides, penalty=penalty
        )
        up, down = (*entries[link][1:], 0.0)[:2]
        got = session.check(link, up or 0.0, loss_rate_down=down or 0.0)
        assert got == same_state[0] == want


def test_state_persists_between_calls():
    # k=4 fat tree at c = 0.5: ToR 0 has 4 paths over up-links 0 and 1 and may lose 2.
    session = CorrOptSession(fat_tree(4).graph(), capacity=0.5)
    first = session.check(0, 1e-4)
    assert first["disabled"]
    assert session.link_state(0) == "disabled"
    assert session.capacity_fraction(0) == 0.5
    assert session.worst_tor() == (0, 0.5)
    assert session.tors_below_threshold() == []
    second = session.check(1, 1e-3)
    assert not second["disabled"]
    assert second["refusal"] == {"kind": "tor_capacity", "tors": [0]}
    assert session.link_state(1) == "enabled"
    assert session.capacity_fraction(0) == 0.5
    # Once link 0 is repaired, link 1 may go.
    assert session.set_link_state(0, "enabled") == [0]
    assert session.capacity_fraction(0) == 1.0
    assert session.check(1, 1e-3)["disabled"]


def test_set_link_state_returns_the_tors_whose_capacity_changed():
    graph = fat_tree(4).graph()
    session = CorrOptSession(graph, capacity=0.9)
    # Link 4 joins aggregation switch 8 to a core: both ToRs of pod 0 lose a path.
    assert sorted(session.set_link_state(4, "down")) == [0, 1]
    assert session.link_state(4) == "down"
    assert session.capacity_fraction(0) == 0.75
    assert session.capacity_fraction(8) == 0.5  # any switch: the aggregation switch has 1 of 2
    assert session.tors_below_threshold() == [0, 1]
    assert session.worst_tor() == (0, 0.75)
    assert session.set_link_state(4, "down") == []  # no change
    assert session.set_link_state(4, "disabled") == []  # neither counts
    assert sorted(session.set_link_state(4, "enabled")) == [0, 1]
    assert session.tors_below_threshold() == []
    # A ToR under its threshold may lose nothing more, as in corropt_check.
    session.set_link_state(0, "down")
    states = names(session)
    assert session.check(1, 1e-4) == corropt_check(graph, [(1, 1e-4)], states, capacity=0.9)[0]


def test_link_states_as_bytes():
    graph = fat_tree(4).graph()
    states = ["enabled"] * graph.num_links
    states[0], states[5], states[9] = "down", "disabled", "down"
    letters = b"".join(CODES[s] for s in states)
    codes = bytes(b"edD".index(c) for c in letters)
    sessions = [
        CorrOptSession(graph, states, capacity=0.5),
        CorrOptSession(graph, letters, capacity=0.5),
        CorrOptSession(graph, codes, capacity=0.5),
        CorrOptSession(graph, bytearray(letters), capacity=0.5),
        CorrOptSession(graph, tuple(states), capacity=0.5),
    ]
    corrupting = [(link, 10.0 ** -(link % 5 + 3)) for link in range(graph.num_links) if states[link] == "enabled"]
    expected = corropt_check(graph, corrupting, states, capacity=0.5)
    for session in sessions:
        assert session.link_states() == letters
        assert session.check_batch(corrupting) == expected
    # link_states() goes back in.
    again = CorrOptSession(graph, sessions[0].link_states(), capacity=0.5)
    assert again.link_states() == sessions[0].link_states()


def test_include_affected_false_omits_the_list():
    graph = fat_tree(4).graph()
    full, brief = CorrOptSession(graph, capacity=0.5), CorrOptSession(graph, capacity=0.5)
    a, b = full.check(4, 1e-4), brief.check(4, 1e-4, include_affected=False)
    assert "affected" not in b
    assert len(a["affected"]) == 2
    assert b == without_affected(a)
    corrupting = [(link, 1e-4 * (link + 1)) for link in range(8) if link != 4]
    a_batch = full.check_batch(corrupting)
    b_batch = brief.check_batch(corrupting, include_affected=False)
    assert b_batch == [without_affected(d) for d in a_batch]
    assert any(not d["disabled"] for d in b_batch)
    assert full.link_states() == brief.link_states()


@pytest.mark.parametrize("penalty", list(PENALTIES))
def test_penalty_helper_matches_the_engine(penalty):
    rates = [0.0, 1e-9, 1e-8, 3e-7, 1e-5, 2.5e-5, 1e-4, 7e-4, 1e-3, 0.02, 1.0]
    graph = FabricGraph(2, [0] * len(rates) + [1], list(range(len(rates))), [len(rates)] * len(rates))
    session = CorrOptSession(graph, capacity=0.0, penalty=penalty)
    assert session.penalty == penalty
    for link, rate in enumerate(rates):
        decision = session.check(link, rate)
        assert decision["penalty"] == corropt_penalty(penalty, rate)
        assert corropt_penalty(penalty, rate) == pytest.approx(PENALTIES[penalty](rate), rel=1e-12)
    # Both directions: one penalty per direction, summed.
    session = CorrOptSession(graph, capacity=0.0, penalty=penalty)
    for link, rate in enumerate(rates):
        down = rates[-1 - link]
        decision = session.check(link, rate, loss_rate_down=down)
        assert decision["penalty"] == corropt_penalty(penalty, rate, down)
        assert decision["penalty"] == pytest.approx(PENALTIES[penalty](rate) + PENALTIES[penalty](down), rel=1e-12)


def test_required_paths_helper_matches_the_engine():
    assert corropt_required_paths(0.7, 10) == 7  # 0.7 * 10 is 7.000000000000001
    assert corropt_required_paths(0.6, 25) == 15
    assert corropt_required_paths(0.61, 25) == 16
    assert corropt_required_paths(0.75, 192) == 144
    assert corropt_required_paths(0.0, 25) == 0
    assert corropt_required_paths(1.0, 2**40 + 1) == 2**40 + 1
    seen = set()
    for capacity in (0.1, 0.3, 0.6, 0.7, 0.75, 0.9, 1.0):
        session = CorrOptSession(fat_tree(6).graph(), capacity=capacity, overrides={0: 0.35})
        for link in range(30):
            for impact in session.check(link, 1e-4)["affected"]:
                assert impact["required_paths"] == corropt_required_paths(impact["threshold"], impact["design_paths"])
                seen.add((impact["threshold"], impact["design_paths"]))
    assert len(seen) == 8  # seven defaults and the override, on 9 design paths


def test_optimize_equals_corropt_optimize_and_applies_only_when_asked():
    graph = fat_tree(6).graph()
    states = ["enabled"] * graph.num_links
    states[3] = "down"
    corrupting = [(link, (1e-6, 2e-5, 3e-4)[link % 3]) for link in range(0, graph.num_links, 2)]
    session = CorrOptSession(graph, states, capacity=0.75, penalty="log")
    below = session.tors_below_threshold()
    assert below == [1]  # link 3 is one of ToR 1's three up-links
    expected = corropt_optimize(graph, corrupting, states, capacity=0.75, penalty="log")
    assert session.optimize(corrupting) == expected
    assert names(session) == states
    assert session.optimize(corrupting, time_budget_s=10.0, apply=True) == expected
    assert expected["disable"]
    after = names(session)
    assert all(after[link] == "disabled" for link in expected["disable"])
    assert all(after[link] == states[link] for link in range(graph.num_links) if link not in expected["disable"])
    assert session.tors_below_threshold() == below


def test_session_keeps_its_graph_alive():
    session = CorrOptSession(fat_tree(4).graph(), capacity=0.5)
    gc.collect()
    assert session.check(0, 1e-4)["disabled"]
    assert session.graph.num_links == 32
    assert session.capacity == 0.5
    assert repr(session) == "CorrOptSession(num_links=32, capacity=0.5, penalty='linear', disabled=1, down=0)"


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda s: s.check(9, 1e-4), "link 9 does not exist (the fabric has 2 links)"),
        (lambda s: s.check(-1, 1e-4), "link -1 does not exist (the fabric has 2 links)"),
        (lambda s: s.check(0, 1.5), "link 0: loss rate 1.5 is not a fraction in [0, 1]"),
        (lambda s: s.check(0, 0.0, loss_rate_down=2.0), "link 0: downward loss rate 2 is not a fraction in [0, 1]"),
        (lambda s: s.check_batch([(0, 1e-4, 1.5)]), "link 0: downward loss rate 1.5 is not a fraction"),
        (lambda s: s.check_batch([(0,)]), "corrupting[0]: expected (link, loss_rate) or (link, loss_rate_up,"),
        (lambda s: s.check(1, 1e-4), "link 1 is Down, not Enabled; nothing to decide"),
        (lambda s: s.check_batch([(0, 1e-4), (0, 1e-5)]), "link 0 is listed more than once"),
        (lambda s: s.check_batch([(0, 1e-4), (1, 1e-5)]), "link 1 is Down, not Enabled"),
        (lambda s: s.check_batch([(0, 1e-4), (-3, 1e-5)]), "link -3 does not exist"),
        (lambda s: s.optimize([(0, 1e-4)], time_budget_s=-1.0), "time_budget_s must be a non-negative"),
        (lambda s: s.optimize([(7, 1e-4)]), "link 7 does not exist"),
        (lambda s: s.set_link_state(0, "up"), "link 0: state must be 'enabled', 'disabled' or 'down', got \"up\""),
        (lambda s: s.set_link_state(2, "down"), "link 2 does not exist (the fabric has 2 links)"),
        (lambda s: s.link_state(5), "link 5 does not exist (the fabric has 2 links)"),
        (lambda s: s.capacity_fraction(3), "switch 3 does not exist (the fabric has 3 switches)"),
        (lambda s: s.capacity_fraction(-1), "switch -1 does not exist (the fabric has 3 switches)"),
    ],
)
def test_bad_calls_raise_value_error_and_change_nothing(call, message):
    session = CorrOptSession(FabricGraph(2, [0, 0, 1], [0, 1], [2, 2]), b"eD", capacity=0.0)
    with pytest.raises(ValueError, match=re.escape(message)):
        call(session)
    assert session.link_states() == b"eD"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"link_states": ["enabled"]}, "link states have length 1 but the fabric has 2 links"),
        ({"link_states": b"eee"}, "link states have length 3 but the fabric has 2 links"),
        ({"link_states": ["enabled", "up"]}, "link 1: state must be 'enabled', 'disabled' or 'down', got \"up\""),
        ({"link_states": ["enabled", 1]}, "link 1: state must be 'enabled', 'disabled' or 'down', got 1"),
        ({"link_states": b"ex"}, "link 1: state byte 0x78 is not b'e' or 0 (enabled)"),
        ({"link_states": bytes([0, 3])}, "link 1: state byte 0x03 is not"),
        ({"capacity": 75}, "capacity threshold 75 is not a fraction in [0, 1]"),
        ({"overrides": {2: 0.5}}, "threshold override for switch 2, which is not a ToR"),
        ({"overrides": {0: -0.1}}, "ToR 0: capacity threshold -0.1 is not a fraction in [0, 1]"),
        ({"penalty": "square"}, "penalty must be 'linear', 'log' or 'step'"),
    ],
)
def test_bad_construction_raises_value_error(kwargs, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        CorrOptSession(FabricGraph(2, [0, 0, 1], [0, 1], [2, 2]), **kwargs)


def test_link_states_as_a_str_is_a_type_error():
    with pytest.raises(TypeError, match="link_states must be bytes or a sequence of state names, not a str"):
        CorrOptSession(FabricGraph(2, [0, 0, 1], [0, 1], [2, 2]), "ee")


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: corropt_penalty("square", 1e-4), "penalty must be 'linear', 'log' or 'step'"),
        (lambda: corropt_penalty("linear", 1.5), "loss rate 1.5 is not a fraction in [0, 1]"),
        (lambda: corropt_penalty("log", float("nan")), "loss rate NaN is not a fraction in [0, 1]"),
        (lambda: corropt_penalty("log", 0.0, 3.0), "downward loss rate 3 is not a fraction in [0, 1]"),
        (lambda: corropt_required_paths(1.5, 10), "capacity threshold 1.5 is not a fraction in [0, 1]"),
        (lambda: corropt_required_paths(0.5, -1), "design_paths must be a whole number in [0, 2**64 - 1], got -1"),
        (lambda: corropt_required_paths(0.5, 2**64), "design_paths must be a whole number in [0, 2**64 - 1]"),
    ],
)
def test_helper_errors(call, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        call()
