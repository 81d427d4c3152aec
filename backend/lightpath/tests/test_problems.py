"""The one validation helper: what a client reads in a 400 when its input is wrong."""

import math

import pytest
from rest_framework.exceptions import ValidationError

from lightpath.problems import (
    MAX_LISTED_PROBLEMS,
    MAX_SEED,
    InvalidParams,
    Problems,
    choice,
    choices,
    integer,
    is_int,
    is_number,
    number,
    optional_bool,
    random_seed,
    section,
    unknown_keys,
)


def messages(problems: Problems) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for row in problems.rows:
        found.setdefault(row["field"], []).append(row["message"])
    return found


# ---------------------------------------------------------------------------------------------
# The collector


def test_no_problem_raises_nothing():
    problems = Problems()
    problems.raise_if_any()
    problems.raise_validation_error()
    assert not problems and len(problems) == 0


def test_every_problem_is_raised_at_once_as_error_rows():
    problems = Problems()
    problems.add("k", "must be even, got 3")
    problems.add("trace.csv", "unknown link 't9'", line=3)
    with pytest.raises(InvalidParams) as raised:
        problems.raise_if_any()
    assert raised.value.errors == [
        {"section": "params", "field": "k", "message": "must be even, got 3"},
        {"section": "params", "field": "trace.csv", "line": 3, "message": "line 3: unknown link 't9'"},
    ]
    assert str(raised.value) == "2 problem(s) in the job's params"


def test_problems_beyond_the_limit_are_counted_in_one_last_row():
    problems = Problems()
    for i in range(MAX_LISTED_PROBLEMS + 7):
        problems.add(f"rows[{i}]", "bad")
    assert len(problems) == MAX_LISTED_PROBLEMS + 7
    with pytest.raises(InvalidParams) as raised:
        problems.raise_if_any()
    errors = raised.value.errors
    assert len(errors) == MAX_LISTED_PROBLEMS + 1
    assert errors[-2]["field"] == f"rows[{MAX_LISTED_PROBLEMS - 1}]"
    assert errors[-1] == {"section": "params", "field": "", "message": "and 7 more problems (not listed)"}
    with pytest.raises(InvalidParams) as again:  # raising twice does not add the note twice
        problems.raise_if_any()
    assert again.value.errors == errors


def test_query_string_problems_are_drf_field_messages():
    problems = Problems()
    problems.add("loss", "must be in [0, 1], got 1.5")
    problems.add("target", "must be in (0, 1), got 1")
    problems.add("target", "second")
    with pytest.raises(ValidationError) as raised:
        problems.raise_validation_error()
    assert raised.value.detail == {
        "loss": ["must be in [0, 1], got 1.5"],
        "target": ["must be in (0, 1), got 1", "second"],
    }
    assert raised.value.status_code == 400


# ---------------------------------------------------------------------------------------------
# Readers


@pytest.mark.parametrize("value", [0, -3, 2.5, 1e300])
def test_is_number_accepts_finite_numbers(value):
    assert is_number(value)


@pytest.mark.parametrize("value", [True, False, math.nan, math.inf, -math.inf, "1", None, [1], {"a": 1}])
def test_is_number_refuses_bools_non_finite_and_text(value):
    assert not is_number(value)


def test_is_int_refuses_bools_and_whole_floats():
    assert is_int(3) and is_int(-1)
    assert not is_int(True) and not is_int(3.0) and not is_int("3")


def test_number_closed_interval_keeps_its_ends():
    problems = Problems()
    assert number(problems, 0, "x", 0.0, 1.0) == 0.0
    assert number(problems, 1, "x", 0.0, 1.0) == 1.0
    assert isinstance(number(problems, 1, "x", 0.0, 1.0), float)
    assert not problems


def test_number_open_ends_refuse_the_bound_itself():
    problems = Problems()
    assert number(problems, 0, "low", 0.0, 1.0, low_open=True) is None
    assert number(problems, 1, "high", 0.0, 1.0, low_open=True, high_open=True) is None
    assert number(problems, 1.5, "range", 0.0, 1.0) is None
    assert messages(problems) == {
        "low": ["must be in (0, 1], got 0"],
        "high": ["must be in (0, 1), got 1"],
        "range": ["must be in [0, 1], got 1.5"],
    }


@pytest.mark.parametrize(
    ("value", "shown"),
    [(math.nan, "nan"), (math.inf, "inf"), (True, "True"), ("0.5", "'0.5'"), (None, "None"), ([1], "[1]")],
)
def test_number_refuses_what_is_not_a_finite_number(value, shown):
    problems = Problems()
    assert number(problems, value, "nrb", 0.0, 1.0, low_open=True) is None
    assert messages(problems) == {"nrb": [f"must be a number in (0, 1], got {shown}"]}


def test_number_null_only_where_nullable():
    problems = Problems()
    assert number(problems, None, "horizon_hours", 0.0, 10.0, nullable=True) is None
    assert not problems
    assert number(problems, None, "horizon_hours", 0.0, 10.0) is None
    assert messages(problems) == {"horizon_hours": ["must be a number in [0, 10], got None"]}


def test_integer_range_and_type():
    problems = Problems()
    assert integer(problems, 5, "k", 2, 64) == 5
    assert integer(problems, 2, "k", 2, 64) == 2 and integer(problems, 64, "k", 2, 64) == 64
    assert integer(problems, None, "max_hops", 1, 16, nullable=True) is None
    assert not problems
    for i, value in enumerate([1, 65, 4.0, True, "4", None, math.nan]):
        assert integer(problems, value, f"v{i}", 2, 64) is None
    assert [row["message"] for row in problems.rows] == [
        f"must be a whole number in [2, 64], got {shown}" for shown in ("1", "65", "4.0", "True", "'4'", "None", "nan")
    ]


def test_random_seed():
    problems = Problems()
    assert random_seed(problems, 0, "seed") == 0
    assert random_seed(problems, MAX_SEED, "seed") == 2**63 - 1
    assert not problems
    assert random_seed(problems, 2**63, "a") is None
    assert random_seed(problems, -1, "b") is None
    assert random_seed(problems, False, "c") is None
    assert random_seed(problems, 1.0, "d") is None
    assert messages(problems) == {
        "a": [f"must be a whole number in [0, 2^63), got {2**63}"],
        "b": ["must be a whole number in [0, 2^63), got -1"],
        "c": ["must be a whole number in [0, 2^63), got False"],
        "d": ["must be a whole number in [0, 2^63), got 1.0"],
    }


def test_optional_bool():
    problems = Problems()
    assert optional_bool(problems, True, "a") is True
    assert optional_bool(problems, False, "a") is False
    assert optional_bool(problems, None, "a") is None
    assert not problems
    assert optional_bool(problems, 1, "b") is None
    assert optional_bool(problems, "true", "c") is None
    assert messages(problems) == {
        "b": ["must be true, false or null, got 1"],
        "c": ["must be true, false or null, got 'true'"],
    }


def test_choice():
    problems = Problems()
    assert choice(problems, "drain", "mode", ("replay", "drain")) == "drain"
    assert not problems
    assert choice(problems, "DRAIN", "mode", ("replay", "drain")) is None
    assert choice(problems, None, "mode", ("replay", "drain")) is None
    assert choice(problems, ["drain"], "mode", ("replay", "drain")) is None
    assert messages(problems)["mode"] == [
        "must be one of replay, drain, got 'DRAIN'",
        "must be one of replay, drain, got None",
        "must be one of replay, drain, got ['drain']",
    ]


def test_choices_keep_the_valid_ones_once_in_order():
    problems = Problems()
    allowed = ("corropt", "fast-checker", "switch-local")
    assert choices(problems, ["switch-local", "corropt"], "policies", allowed) == ["switch-local", "corropt"]
    assert not problems
    picked = choices(problems, ["corropt", "nope", "corropt", 3], "policies", allowed)
    assert picked == ["corropt"]
    assert messages(problems) == {
        "policies[1]": ["must be one of corropt, fast-checker, switch-local, got 'nope'"],
        "policies[2]": ["corropt is listed twice"],
        "policies[3]": ["must be one of corropt, fast-checker, switch-local, got 3"],
    }


def test_choices_empty_or_not_a_list():
    problems = Problems()
    assert choices(problems, [], "compare", ("exact", "greedy"), allow_empty=True) == []
    assert not problems
    assert choices(problems, [], "policies", ("a", "b")) == []
    assert choices(problems, "a", "compare", ("exact", "greedy"), allow_empty=True) == []
    assert messages(problems) == {
        "policies": ["must be a non-empty list of a, b"],
        "compare": ["must be a list of exact, greedy"],
    }


def test_unknown_keys_are_listed_sorted_with_their_prefix():
    problems = Problems()
    unknown_keys(problems, {"k": 4, "zeta": 1, "alpha": 2}, {"k", "pods"}, "events.")
    assert messages(problems) == {
        "events.alpha": ["unknown parameter (known: k, pods)"],
        "events.zeta": ["unknown parameter (known: k, pods)"],
    }


def test_section_merges_over_defaults():
    problems = Problems()
    defaults = {"max_length_m": 100.0, "step_m": 1.0}
    assert section(problems, {}, "sweep", defaults) == defaults
    assert section(problems, {"sweep": None}, "sweep", defaults) == defaults
    assert section(problems, {"sweep": {"step_m": 5.0}}, "sweep", defaults) == {"max_length_m": 100.0, "step_m": 5.0}
    assert not problems
    assert section(problems, {"sweep": {"steps": 5}}, "sweep", defaults) == defaults
    assert section(problems, {"sweep": [1]}, "sweep", defaults) == defaults
    assert messages(problems) == {
        "sweep.steps": ["unknown parameter (known: max_length_m, step_m)"],
        "sweep": ["must be an object"],
    }
