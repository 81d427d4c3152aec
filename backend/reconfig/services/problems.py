"""Input checking shared by the reconfig jobs and endpoints: every problem is collected, then
raised at once as the API's error rows (jobs.registry.InvalidParams)."""

from __future__ import annotations

import math
from typing import Any

from jobs.registry import InvalidParams

MAX_LISTED_PROBLEMS = 100
MAX_SEED = 2**63


class Problems:
    """Collects error rows {"section": "params", "field", "message"[, "line"]}."""

    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []
        self.more = 0

    def add(self, field: str, message: str, line: int | None = None) -> None:
        if len(self.rows) >= MAX_LISTED_PROBLEMS:
            self.more += 1
            return
        row: dict[str, Any] = {"section": "params", "field": field, "message": message}
        if line is not None:
            row["line"] = line
            row["message"] = f"line {line}: {message}"
        self.rows.append(row)

    def __bool__(self) -> bool:
        return bool(self.rows)

    def raise_if_any(self) -> None:
        if self.more:
            self.rows.append(
                {"section": "params", "field": "", "message": f"and {self.more} more problems (not listed)"}
            )
            self.more = 0
        if self.rows:
            raise InvalidParams(self.rows)


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def integer(problems: Problems, value: Any, field: str, low: int, high: int) -> int | None:
    """A whole number in [low, high]; None (with a problem) otherwise."""
    if not is_int(value) or not low <= value <= high:
        problems.add(field, f"must be a whole number in [{low}, {high}], got {value!r}")
        return None
    return int(value)


def number(
    problems: Problems, value: Any, field: str, low: float, high: float, *, low_open: bool = True
) -> float | None:
    """A finite number in (low, high] (or [low, high]); None (with a problem) otherwise."""
    interval = f"{'(' if low_open else '['}{low:g}, {high:g}]"
    if not is_number(value) or not (low < value <= high if low_open else low <= value <= high):
        problems.add(field, f"must be a number in {interval}, got {value!r}")
        return None
    return float(value)


def fat_tree(problems: Problems, params: dict[str, Any], *, k_default: int | None = None) -> tuple[int, int] | None:
    """k (even, 2..64) and pods (1..k, default k)."""
    k = integer(problems, params.get("k", k_default), "k", 2, 64)
    if k is not None and k % 2:
        problems.add("k", f"must be even, got {k}")
        k = None
    pods_value = params.get("pods")
    if k is None:
        return None
    pods = k if pods_value is None else integer(problems, pods_value, "pods", 1, k)
    return None if pods is None else (k, pods)


def unknown_keys(problems: Problems, params: dict[str, Any], known: set[str], prefix: str = "") -> None:
    for key in sorted(set(params) - known):
        problems.add(f"{prefix}{key}", f"unknown parameter (known: {', '.join(sorted(known))})")
