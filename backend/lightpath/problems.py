"""Checking input by hand: every problem is collected, then all are raised at once.

Job params and the calculators' documents are checked here rather than by serializers because
they are nested, defaulted and cross-checked against stored rows (a trace's links, a demand's
periods). One `Problems` collects what is wrong; the readers below check one value each, add a
problem when it is wrong and return the cleaned value (None when wrong), so a check goes on to
the next field and the caller gets every problem in one answer:

- `raise_if_any()` raises InvalidParams, which the jobs API and the calculators answer as a 400
  `{"errors": [{"section": "params", "field", "message"[, "line"]}, ...]}` (the fabric import's
  error shape);
- `raise_validation_error()` raises DRF's ValidationError, a 400 `{field: [messages]}`, for the
  query strings of GET endpoints (DRF's own shape for them).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, TypeGuard

from rest_framework.exceptions import ValidationError

MAX_LISTED_PROBLEMS = 100  # an answer lists at most this many, then says how many more there were
MAX_SEED = 2**63 - 1  # the engine's seeds are 64-bit; JSON clients round above 2^63


class InvalidParams(Exception):
    """Every problem of a job's params, as {"section": "params", "field", "message"} rows (the
    fabric import's error shape), plus "line" for rows of an uploaded file."""

    def __init__(self, errors: list[dict]):
        super().__init__(f"{len(errors)} problem(s) in the job's params")
        self.errors = errors


class Problems:
    """The problems found so far, in the order found; the first MAX_LISTED_PROBLEMS are listed."""

    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []
        self.unlisted = 0

    def add(self, field: str, message: str, line: int | None = None) -> None:
        """A problem of `field`; `line` (1-based) for a row of an uploaded file, also named in the message."""
        if len(self.rows) >= MAX_LISTED_PROBLEMS:
            self.unlisted += 1
            return
        row: dict[str, Any] = {"section": "params", "field": field, "message": message}
        if line is not None:
            row["line"] = line
            row["message"] = f"line {line}: {message}"
        self.rows.append(row)

    def __len__(self) -> int:
        """Every problem found, listed or not (a reader may ask whether a part added any)."""
        return len(self.rows) + self.unlisted

    def __bool__(self) -> bool:
        return bool(self.rows)

    def _listed(self) -> list[dict[str, Any]]:
        if not self.unlisted:
            return self.rows
        note = {"section": "params", "field": "", "message": f"and {self.unlisted} more problems (not listed)"}
        return [*self.rows, note]

    def raise_if_any(self) -> None:
        """InvalidParams with every listed problem (a 400 `{"errors": [...]}`), if there is one."""
        if self.rows:
            raise InvalidParams(self._listed())

    def raise_validation_error(self) -> None:
        """DRF's ValidationError `{field: [messages]}` (a 400), if there is a problem."""
        if self.rows:
            by_field: dict[str, list[str]] = {}
            for row in self._listed():
                by_field.setdefault(row["field"], []).append(row["message"])
            raise ValidationError(by_field)


# ---------------------------------------------------------------------------------------------
# Readers: each checks one value, adds a problem when it is wrong and returns None then.


def is_number(value: Any) -> TypeGuard[int | float]:
    """A finite JSON number; True and False are not numbers here (Python counts them as ints)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def interval(low: float, high: float, *, low_open: bool = False, high_open: bool = False) -> str:
    """As the messages write a range: (0, 1], [0, 10)."""
    return f"{'(' if low_open else '['}{low:g}, {high:g}{')' if high_open else ']'}"


def number(
    problems: Problems,
    value: Any,
    field: str,
    low: float,
    high: float,
    *,
    low_open: bool = False,
    high_open: bool = False,
    nullable: bool = False,
) -> float | None:
    """A finite number within [low, high] (either end open if asked), as a float; None (null) is
    accepted as itself when `nullable`."""
    if value is None and nullable:
        return None
    within = interval(low, high, low_open=low_open, high_open=high_open)
    if not is_number(value):
        problems.add(field, f"must be a number in {within}, got {value!r}")
        return None
    above = value > low if low_open else value >= low
    below = value < high if high_open else value <= high
    if not (above and below):
        problems.add(field, f"must be in {within}, got {value:g}")
        return None
    return float(value)


def integer(problems: Problems, value: Any, field: str, low: int, high: int, *, nullable: bool = False) -> int | None:
    """A whole number in [low, high] (a float such as 2.0 is not one); None accepted when `nullable`."""
    if value is None and nullable:
        return None
    if not is_int(value) or not low <= value <= high:
        problems.add(field, f"must be a whole number in [{low}, {high}], got {value!r}")
        return None
    return int(value)


def random_seed(problems: Problems, value: Any, field: str) -> int | None:
    """A random seed: a whole number in [0, 2^63)."""
    if not is_int(value) or not 0 <= value <= MAX_SEED:
        problems.add(field, f"must be a whole number in [0, 2^63), got {value!r}")
        return None
    return int(value)


def optional_bool(problems: Problems, value: Any, field: str) -> bool | None:
    if value is not None and not isinstance(value, bool):
        problems.add(field, f"must be true, false or null, got {value!r}")
        return None
    return value


def choice(problems: Problems, value: Any, field: str, choices: Sequence[str]) -> str | None:
    if not isinstance(value, str) or value not in choices:
        problems.add(field, f"must be one of {', '.join(choices)}, got {value!r}")
        return None
    return value


def choices(
    problems: Problems, values: Any, field: str, allowed: Sequence[str], *, allow_empty: bool = False
) -> list[str]:
    """A list of distinct choices, in the order given; the valid ones are kept."""
    if not isinstance(values, list) or (not values and not allow_empty):
        problems.add(field, f"must be a {'' if allow_empty else 'non-empty '}list of {', '.join(allowed)}")
        return []
    cleaned: list[str] = []
    for i, value in enumerate(values):
        if choice(problems, value, f"{field}[{i}]", allowed) is None:
            continue
        if value in cleaned:
            problems.add(f"{field}[{i}]", f"{value} is listed twice")
        else:
            cleaned.append(value)
    return cleaned


def unknown_keys(
    problems: Problems, params: Mapping[str, Any], known: set[str] | Sequence[str], prefix: str = ""
) -> None:
    """A problem per key of `params` not in `known` (sorted), its field `prefix` + key."""
    listed = ", ".join(sorted(known))
    for key in sorted(set(params) - set(known)):
        problems.add(f"{prefix}{key}", f"unknown parameter (known: {listed})")


def section(problems: Problems, params: Mapping[str, Any], key: str, known: Mapping[str, Any]) -> dict[str, Any]:
    """A nested object of params merged over its defaults (`known`); unknown keys are problems."""
    value = params.get(key)
    if value is None:
        return dict(known)
    if not isinstance(value, dict):
        problems.add(key, "must be an object")
        return dict(known)
    unknown_keys(problems, value, set(known), f"{key}.")
    return {**known, **{k: v for k, v in value.items() if k in known}}


# ---------------------------------------------------------------------------------------------
# Query-string readers: the value is text (absent or blank = the default).

TRUE_WORDS = frozenset({"true", "1", "yes"})
FALSE_WORDS = frozenset({"false", "0", "no"})


def query_flag(query: Mapping[str, str], field: str) -> bool:
    """A switch such as ?dry_run=1: on for true/1/yes (any case), off for anything else."""
    return query.get(field, "").lower() in TRUE_WORDS


def query_whole(
    problems: Problems, query: Mapping[str, str], field: str, default: int, low: int, high: int | None = None
) -> int:
    """A whole number in [low, high] (no upper end when `high` is None); the default when wrong."""
    raw = query.get(field, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        value = None
    if value is None or value < low or (high is not None and value > high):
        span = f"from {low} to {high}" if high is not None else f"of at least {low}"
        problems.add(field, f"must be a whole number {span}, got {raw!r}")
        return default
    return value


def query_bool(problems: Problems, query: Mapping[str, str], field: str) -> bool | None:
    """true/1/yes or false/0/no, any case; None when absent, blank or wrong."""
    raw = query.get(field, "").strip()
    if raw.lower() in TRUE_WORDS:
        return True
    if raw.lower() in FALSE_WORDS:
        return False
    if raw:
        problems.add(field, f"must be true or false, got {raw!r}")
    return None
