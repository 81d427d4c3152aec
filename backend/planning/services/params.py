"""Checking a job's params: every problem is collected, then all are raised at once."""

from __future__ import annotations

import math
from typing import Any

from jobs.registry import InvalidParams

MAX_LISTED_PROBLEMS = 100


class Problems:
    """Every problem as the jobs API's error rows ({"section": "params", "field", "message"})."""

    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []
        self.more = 0

    def add(self, field: str, message: str) -> None:
        if len(self.rows) >= MAX_LISTED_PROBLEMS:
            self.more += 1
            return
        self.rows.append({"section": "params", "field": field, "message": message})

    def raise_if_any(self) -> None:
        if self.more:
            self.rows.append({"section": "params", "field": "", "message": f"and {self.more} more problems"})
        if self.rows:
            raise InvalidParams(self.rows)


def is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


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
    """A finite number within [low, high] (either end open if asked); None with a problem otherwise."""
    if value is None and nullable:
        return None
    interval = f"{'(' if low_open else '['}{low:g}, {high:g}{')' if high_open else ']'}"
    if not is_number(value):
        problems.add(field, f"must be a number in {interval}, got {value!r}")
        return None
    above = value > low if low_open else value >= low
    below = value < high if high_open else value <= high
    if not (above and below):
        problems.add(field, f"must be in {interval}, got {value:g}")
        return None
    return float(value)


def integer(problems: Problems, value: Any, field: str, low: int, high: int, *, nullable: bool = False) -> int | None:
    if value is None and nullable:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        problems.add(field, f"must be a whole number in [{low}, {high}], got {value!r}")
        return None
    return value


def optional_bool(problems: Problems, value: Any, field: str) -> bool | None:
    if value is not None and not isinstance(value, bool):
        problems.add(field, f"must be true, false or null, got {value!r}")
        return None
    return value


def section(problems: Problems, params: dict, key: str, known: dict[str, Any]) -> dict[str, Any]:
    """A nested object of params merged over its defaults; unknown keys are problems."""
    value = params.get(key)
    if value is None:
        return dict(known)
    if not isinstance(value, dict):
        problems.add(key, "must be an object")
        return dict(known)
    for name in sorted(set(value) - set(known)):
        problems.add(f"{key}.{name}", f"unknown parameter (known: {', '.join(sorted(known))})")
    return {**known, **{k: v for k, v in value.items() if k in known}}


def unknown_keys(problems: Problems, params: dict, known: set[str]) -> None:
    for key in sorted(set(params) - known):
        problems.add(key, f"unknown parameter (known: {', '.join(sorted(known))})")
