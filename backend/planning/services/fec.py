"""Sizing the end-to-end coding of one path (GET /api/rail/fec/): the engine's rail_fec."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import lightpath_engine
from lightpath.problems import Problems, number

DEFAULT_TARGET = 1e-3


def _fraction(problems: Problems, raw: str | None, field: str, *, low_open: bool, high_open: bool) -> float | None:
    """A query string's fraction; text that is not a finite number is reported as given."""
    try:
        value: Any = float(raw) if raw is not None else None
    except ValueError:
        value = None
    if value is None or not math.isfinite(value):
        value = raw
    return number(problems, value, field, 0.0, 1.0, low_open=low_open, high_open=high_open)


def choose(query: Mapping[str, str]) -> dict[str, Any]:
    """The engine's answer for ?loss=&target=; a ValidationError (400) lists every problem."""
    problems = Problems()
    loss: float | None = None
    if query.get("loss") in (None, ""):
        problems.add("loss", "required: the path's loss rate, a fraction such as 0.003")
    else:
        loss = _fraction(problems, query.get("loss"), "loss", low_open=False, high_open=False)
    target = _fraction(problems, query.get("target", str(DEFAULT_TARGET)), "target", low_open=True, high_open=True)
    problems.raise_validation_error()
    assert loss is not None and target is not None
    return dict(lightpath_engine.rail_fec(loss, target))
