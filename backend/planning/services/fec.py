"""Sizing the end-to-end coding of one path (GET /api/rail/fec/): the engine's rail_fec."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from rest_framework.exceptions import ValidationError

import lightpath_engine

DEFAULT_TARGET = 1e-3


def _fraction(raw: str | None, *, low_open: bool, high_open: bool) -> tuple[float | None, str | None]:
    interval = f"{'(' if low_open else '['}0, 1{')' if high_open else ']'}"
    try:
        value = float(raw) if raw is not None else None
    except ValueError:
        value = None
    if value is None or not math.isfinite(value):
        return None, f"must be a number in {interval}, got {raw!r}"
    if (value <= 0 if low_open else value < 0) or (value >= 1 if high_open else value > 1):
        return None, f"must be in {interval}, got {value:g}"
    return value, None


def choose(query: Mapping[str, str]) -> dict[str, Any]:
    """The engine's answer for ?loss=&target=; a ValidationError (400) lists every problem."""
    problems: dict[str, list[str]] = {}
    loss: float | None = None
    if query.get("loss") in (None, ""):
        problems["loss"] = ["required: the path's loss rate, a fraction such as 0.003"]
    else:
        loss, problem = _fraction(query.get("loss"), low_open=False, high_open=False)
        if problem:
            problems["loss"] = [problem]
    target, problem = _fraction(query.get("target", str(DEFAULT_TARGET)), low_open=True, high_open=True)
    if problem:
        problems["target"] = [problem]
    if problems or loss is None or target is None:
        raise ValidationError(problems)
    return dict(lightpath_engine.rail_fec(loss, target))
