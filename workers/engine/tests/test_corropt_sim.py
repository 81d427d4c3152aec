"""Tests of the CorrOpt trace generator and simulator bindings: determinism,
the capacity invariant read off the returned series, the progress callback,
a hand-checked scenario, and the errors for bad arguments."""

import itertools
import math
import re

import pytest
from test_engine import fat_tree

from lightpath_engine import corropt_compare, corropt_simulate, corropt_trace

POLICIES = ["corropt", "fast-checker", "switch-local"]
SERIES_KEYS = ["time_s", "penalty", "active_corrupting", "disabled", "worst_fraction"]
HOUR = 3600.0


@pytest.fixture(scope="module")
def graph():
    return fat_tree(8).graph()


@pytest.fixture(scope="module")
def trace(graph):
    # 256 links, MTTF 200 h, two weeks: about 430 onsets.
    return corropt_trace(graph, 200.0, 336.0, 7)


def test_trace_is_sorted_deterministic_and_within_table_3_1(graph, trace):
    assert trace == corropt_trace(graph, 200.0, 336.0, 7)
    assert trace != corropt_trace(graph, 200.0, 336.0, 8)
    assert 300 < len(trace) < 560
    times = [t for t, _, _ in trace]
    assert times == sorted(times)
    assert all(0 <= t < 336 * HOUR for t in times)
    assert all(0 <= link < graph.num_links for _, link, _ in trace)
    assert all(1e-8 <= rate < 1e-2 for _, _, rate in trace)


@pytest.mark.parametrize("policy", POLICIES)
def test_same_inputs_give_the_same_result(graph, trace, policy):
    first = corropt_simulate(graph, trace, policy=policy, seed=3)
    assert first == corropt_simulate(graph, trace, policy=policy, seed=3)
    assert first["policy"] == policy
    series = first["series"]
    assert sorted(series) == sorted(SERIES_KEYS)
    assert len({len(series[k]) for k in SERIES_KEYS}) == 1
    assert series["time_s"][0] == 0.0
    assert all(a < b for a, b in itertools.pairwise(series["time_s"]))
    assert first["counts"]["onsets"] == len(trace)


@pytest.mark.parametrize("capacity", [0.5, 0.75, 0.9])
@pytest.mark.parametrize("policy", POLICIES)
def test_worst_fraction_never_below_threshold(graph, trace, policy, capacity):
    # No link is ever down in the simulation, so the worst ToR fraction must
    # stay at or above the threshold for the checker and CorrOpt, and for
    # switch-local with its default share capacity ** (1/2) on a fat tree.
    result = corropt_simulate(graph, trace, policy=policy, capacity=capacity, repair_delay_s=12 * HOUR)
    assert min(result["series"]["worst_fraction"]) >= capacity
    assert result["lowest_worst_fraction"] >= capacity
    assert result["counts"]["threshold_breaches"] == 0


def test_integrals_match_the_series(graph, trace):
    horizon = 336 * HOUR
    result = corropt_simulate(graph, trace, policy="fast-checker", horizon_s=horizon)
    series = result["series"]
    ends = [*series["time_s"][1:], horizon]
    spans = [end - start for start, end in zip(series["time_s"], ends, strict=True)]
    assert result["horizon_s"] == horizon
    assert math.isclose(result["penalty_seconds"], sum(p * s for p, s in zip(series["penalty"], spans, strict=True)))
    assert result["disabled_seconds"] == pytest.approx(
        sum(d * s for d, s in zip(series["disabled"], spans, strict=True))
    )


def test_corropt_leaves_less_penalty_than_switch_local(graph, trace):
    # At c = 0.75 with share sqrt(0.75), a k=8 fat tree switch may disable no
    # up-link at all (floor(4 * 0.134) = 0), so switch-local keeps everything.
    corropt = corropt_simulate(graph, trace, policy="corropt")
    local = corropt_simulate(graph, trace, policy="switch-local")
    assert local["counts"]["disables"] == 0
    assert corropt["counts"]["disables"] > 0
    assert corropt["penalty_seconds"] < local["penalty_seconds"]
    assert local["share"] == pytest.approx(0.75**0.5)


def test_repair_model_on_a_hand_checked_trace():
    # k=4 fat tree at c = 0.5: ToR 0 may lose one of its two up-links (links
    # 0 and 1 in this fabric). Link 0 is disabled at t=10 and back at 110;
    # link 1 arrives at t=20, is refused, and is disabled at 110 by the re-run.
    graph = fat_tree(4).graph()
    trace = [(10.0, 0, 1e-3), (20.0, 1, 1e-5)]
    result = corropt_simulate(graph, trace, capacity=0.5, repair_delay_s=100.0, fix_probability=1.0, horizon_s=1000.0)
    assert result["series"] == {
        "time_s": [0.0, 10.0, 20.0, 110.0, 210.0],
        "penalty": [0.0, 0.0, 1e-5, 0.0, 0.0],
        "active_corrupting": [0, 0, 1, 0, 0],
        "disabled": [0, 1, 1, 1, 0],
        "worst_fraction": [1.0, 0.5, 0.5, 0.5, 1.0],
    }
    assert result["penalty_seconds"] == pytest.approx(1e-5 * 90)
    assert result["counts"]["refused_arrivals"] == 1
    assert result["counts"]["optimizer_runs"] == 1
    # Without a first-round fix, each repair takes two rounds.
    slow = corropt_simulate(graph, trace, capacity=0.5, repair_delay_s=100.0, fix_probability=0.0)
    assert slow["counts"]["second_rounds"] == slow["counts"]["disables"]


def test_simulation_starts_from_the_given_link_states():
    """ToR 0's up-link 0 starts disabled (awaiting repair) or down; link 1 starts corrupting at t=10.

    Disabled: ToR 0 is at its floor (2 of 4 paths) until link 0 is repaired at t=100; the re-run then
    disables link 1, back at t=200. Down: link 0 never comes back, so link 1 corrupts to the horizon."""
    graph = fat_tree(4).graph()
    trace = [(10.0, 1, 1e-5)]
    options = {"capacity": 0.5, "repair_delay_s": 100.0, "fix_probability": 1.0, "horizon_s": 1000.0}
    states = ["enabled"] * graph.num_links
    states[0] = "disabled"
    from_disabled = corropt_simulate(graph, trace, link_states=states, **options)
    assert from_disabled["series"] == {
        "time_s": [0.0, 10.0, 100.0, 200.0],
        "penalty": [0.0, 1e-5, 0.0, 0.0],
        "active_corrupting": [0, 1, 0, 0],
        "disabled": [1, 1, 1, 0],
        "worst_fraction": [0.5, 0.5, 0.5, 1.0],
    }
    assert from_disabled["counts"]["repairs"] == 2 and from_disabled["counts"]["disables"] == 1
    # The same state as bytes (what CorrOptSession.link_states() returns) gives the same run.
    as_bytes = bytes([1]) + bytes(graph.num_links - 1)
    assert corropt_simulate(graph, trace, link_states=as_bytes, **options) == from_disabled
    assert corropt_simulate(graph, trace, link_states=b"d" + b"e" * (graph.num_links - 1), **options) == from_disabled
    for policy in POLICIES:
        from_down = corropt_simulate(graph, trace, policy=policy, link_states=b"D" + b"e" * 31, **options)
        assert from_down["series"]["disabled"] == [0] * len(from_down["series"]["time_s"])
        assert from_down["penalty_seconds"] == pytest.approx(1e-5 * 990)
        assert from_down["lowest_worst_fraction"] == 0.5
    assert corropt_simulate(graph, trace, **options)["penalty_seconds"] == 0.0


def test_compare_equals_one_simulation_per_policy(graph, trace):
    options = {"capacity": 0.7, "penalty": "log", "seed": 4, "horizon_s": 300 * HOUR}
    states = b"e" * 10 + b"d" + b"e" * 20 + b"D" + b"e" * (graph.num_links - 32)
    seen = []
    comparison = corropt_compare(
        graph, trace, link_states=states, share=0.6, progress=lambda *a: seen.append(a), **options
    )
    assert list(comparison) == ["results", "corropt_penalty_seconds", "penalty_ratio"]
    alone = {
        policy: corropt_simulate(
            graph, trace, policy=policy, link_states=states, share=0.6 if policy == "switch-local" else None, **options
        )
        for policy in POLICIES
    }
    assert comparison["results"] == [alone[policy] for policy in POLICIES]
    reference = alone["corropt"]["penalty_seconds"]
    assert comparison["corropt_penalty_seconds"] == reference > 0
    assert comparison["penalty_ratio"] == [alone[p]["penalty_seconds"] / reference for p in POLICIES]
    assert comparison["penalty_ratio"][0] == 1.0
    # Progress: each policy in turn, increasing to 1.0.
    assert [policy for policy, fraction in seen if fraction == 1.0] == POLICIES
    for policy in POLICIES:
        fractions = [fraction for name, fraction in seen if name == policy]
        assert all(a < b for a, b in itertools.pairwise(fractions))


def test_compare_without_corropt_still_runs_it_as_the_reference(graph, trace):
    seen = []
    comparison = corropt_compare(graph, trace, ["switch-local"], progress=lambda *a: seen.append(a))
    local = corropt_simulate(graph, trace, policy="switch-local")
    assert comparison["results"] == [local]
    reference = corropt_simulate(graph, trace)["penalty_seconds"]
    assert comparison["corropt_penalty_seconds"] == reference
    assert comparison["penalty_ratio"] == [local["penalty_seconds"] / reference]
    assert [name for name, fraction in seen if fraction == 1.0] == ["switch-local", "corropt"]
    # Only CorrOpt's penalty is 0: the ratio is infinite. Both 0: 1.0.
    small = fat_tree(4).graph()
    one = [(10.0, 0, 1e-3), (20.0, 1, 1e-5)]  # ToR 0 may lose one of links 0, 1 at c = 0.5
    ratios = corropt_compare(small, one, ["switch-local", "fast-checker"], capacity=0.5, share=0.9)["penalty_ratio"]
    assert ratios == [math.inf, 1.0]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"policies": []}, "policies must name at least one policy"),
        ({"policies": ["corropt", "corropt"]}, 'policy "corropt" is listed more than once'),
        ({"policies": ["greedy"]}, "policy must be 'corropt', 'fast-checker' or 'switch-local', got \"greedy\""),
        ({"policies": ["corropt"], "share": 0.5}, "share applies only to 'switch-local', which is not among"),
        ({"fix_probability": 2.0}, "fix_probability must be a probability in [0, 1], got 2"),
        ({"link_states": b"x"}, "link 0: state byte 0x78 is not"),
    ],
)
def test_compare_bad_arguments_raise_value_error(graph, trace, kwargs, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        corropt_compare(graph, trace, **kwargs)


def test_compare_progress_exception_stops_the_comparison(graph, trace):
    seen = []

    def progress(policy, fraction):
        seen.append((policy, fraction))
        if policy == "fast-checker" and fraction >= 0.5:
            raise RuntimeError(f"stop {policy}")

    with pytest.raises(RuntimeError, match="stop fast-checker"):
        corropt_compare(graph, trace, progress=progress)
    # CorrOpt ran to its end; the fast checker stopped halfway; switch-local never started.
    assert ("corropt", 1.0) in seen
    assert seen[-1][0] == "fast-checker" and 0.5 <= seen[-1][1] < 1.0
    assert "switch-local" not in {policy for policy, _ in seen}


def test_progress_increases_to_one(graph, trace):
    seen = []
    corropt_simulate(graph, trace, progress=seen.append)
    assert 2 <= len(seen) <= 102
    assert all(a < b for a, b in itertools.pairwise(seen))
    assert seen[-1] == 1.0
    assert 0 < seen[0] < 1


def test_progress_exception_stops_the_run_and_is_raised(graph, trace):
    calls = []

    def progress(fraction):
        calls.append(fraction)
        if len(calls) == 3:
            raise RuntimeError("stop")

    with pytest.raises(RuntimeError, match="stop"):
        corropt_simulate(graph, trace, progress=progress)
    assert len(calls) == 3 and calls[-1] < 1.0
    with pytest.raises(TypeError, match="progress must be a callable"):
        corropt_simulate(graph, trace, progress=5)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"policy": "greedy"}, "policy must be 'corropt', 'fast-checker' or 'switch-local', got \"greedy\""),
        ({"share": 0.5}, "share applies only to policy='switch-local'"),
        ({"policy": "switch-local", "share": 1.5}, "switch-local share 1.5 is not a fraction in [0, 1]"),
        ({"capacity": 1.2}, "capacity threshold 1.2 is not a fraction in [0, 1]"),
        ({"overrides": {40: 0.5}}, "threshold override for switch 40, which is not a ToR"),
        ({"penalty": "square"}, "penalty must be 'linear', 'log' or 'step'"),
        ({"repair_delay_s": 0.0}, "repair_delay_s must be a finite number above 0, got 0"),
        ({"fix_probability": -0.1}, "fix_probability must be a probability in [0, 1], got -0.1"),
        ({"seed": -1}, "seed must be an integer in [0, 2**64), got -1"),
        ({"horizon_s": math.inf}, "horizon_s must be a finite number at least 0, got inf"),
        ({"time_budget_s": -1.0}, "time_budget_s must be a non-negative number of seconds"),
        ({"link_states": b"e"}, "link states have length 1 but the fabric has 256 links"),
        ({"link_states": ["enabled", "up"]}, "link 1: state must be 'enabled', 'disabled' or 'down', got \"up\""),
    ],
)
def test_bad_arguments_raise_value_error(graph, trace, kwargs, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        corropt_simulate(graph, trace, **kwargs)


@pytest.mark.parametrize(
    ("trace", "message"),
    [
        ([(5.0, 0, 1e-4), (4.0, 1, 1e-4)], "trace onset 1: time 4 s is before the previous onset's 5 s"),
        ([(1.0, 999, 1e-4)], "trace onset 0: link 999 does not exist"),
        ([(1.0, -1, 1e-4)], "trace onset 0: link -1 does not exist"),
        ([(1.0, 0, 2.0)], "trace onset 0: loss rate 2 is not a fraction"),
        ([(math.nan, 0, 1e-4)], "trace onset 0: time NaN s is not a finite number"),
    ],
)
def test_bad_trace_names_the_onset(graph, trace, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        corropt_simulate(graph, trace)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((0.0, 10.0, 1), "mttf_hours must be a finite number above 0, got 0"),
        ((10.0, -1.0, 1), "hours must be a finite number at least 0, got -1"),
        ((10.0, 10.0, 2**64), "seed must be an integer in"),
    ],
)
def test_bad_trace_parameters_raise_value_error(graph, args, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        corropt_trace(graph, *args)
