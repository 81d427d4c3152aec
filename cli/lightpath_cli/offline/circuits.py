"""Circuit schedules on files: demand series (CSV or JSON, parsed as the server parses them), rack lists,
edge groups, and the schedule inputs as the engine takes them."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lightpath_fixtures.demand import bucket_windows, looks_like_json, parse_demand

from ..errors import CliError, UsageError

MAX_LISTED_PROBLEMS = 20


def _rack_index(racks: int) -> Callable[[str], int]:
    def resolve(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise ValueError(f"{text!r} is not an integer") from None
        if value < 0:
            raise ValueError(f"{value} is negative")
        if value >= racks:
            raise ValueError(f"{value} is not a rack (0 to {racks - 1})")
        return value

    return resolve


def read_demand(path: Path, racks: int, period: float) -> list[list[tuple[int, int, int]]]:
    """Demand windows from a CSV or JSON file; every bad row is reported (CSV by line, JSON by entry)."""
    try:
        text = path.read_text()
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror}") from exc
    is_json = path.suffix.lower() == ".json" or looks_like_json(text)
    parsed = parse_demand(text, _rack_index(racks), is_json=is_json)
    if parsed.problems:
        if not parsed.rows and len(parsed.problems) == 1 and parsed.problems[0].number is None:
            raise CliError(parsed.problems[0].text(path.name))
        shown = [problem.text(path.name) for problem in parsed.problems[:MAX_LISTED_PROBLEMS]]
        more = len(parsed.problems) - len(shown)
        raise CliError(
            f"{path.name}: {len(parsed.problems)} bad demand row(s)",
            details=shown + ([f"... and {more} more"] if more else []),
        )
    _, windows = bucket_windows(parsed.rows, period)
    return windows


def racks_list(text: str | None, racks: int, option: str) -> list[int]:
    if not text:
        return []
    try:
        values = [int(part) for part in text.split(",") if part.strip()]
    except ValueError as exc:
        raise UsageError(f"{option}: expected comma-separated rack numbers, got {text!r}") from exc
    bad = [v for v in values if not 0 <= v < racks]
    if bad:
        raise UsageError(f"{option}: racks {bad} out of range (0 to {racks - 1})")
    return values


def engine_options(inputs: dict[str, Any]) -> dict[str, Any]:
    keys = (
        "zones",
        "capacity_bytes_per_s",
        "period_s",
        "dark_time_s",
        "reconfig",
        "mode",
        "algorithm",
        "seed",
        "min_demand_bytes",
        "burst_active",
        "burst_reset",
        "hysteresis",
        "time_budget_s",
        "max_slots",
    )
    options = {key: inputs[key] for key in keys if key in inputs}
    # Edge groups as JSON has them ([[[a, b], ...], bonus]); the engine takes tuples.
    options["groups"] = [([tuple(pair) for pair in pairs], bonus) for pairs, bonus in inputs.get("groups") or []]
    return options


def read_groups(path: Path | None) -> list[dict[str, Any]]:
    """Edge groups from a JSON file, shape-checked here; racks are checked by the engine or server."""
    if path is None:
        return []
    try:
        data = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CliError(f"{path.name}: not a readable JSON file ({exc})") from exc
    groups = data.get("edge_groups") if isinstance(data, dict) else data
    shaped = all(
        isinstance(g, dict) and isinstance(g.get("pairs"), list) and isinstance(g.get("bonus_bytes"), int)
        for g in (groups if isinstance(groups, list) else [None])
    )
    if not isinstance(groups, list) or not shaped:
        raise CliError(f'{path.name}: expected a list of {{"name", "pairs": [[a, b], ...], "bonus_bytes"}}')
    return groups
