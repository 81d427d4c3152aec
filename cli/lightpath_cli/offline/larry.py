"""Larry on files: the rack set (a JSON file, or a uniform one from counts) as the engine takes it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..errors import CliError, UsageError


def read_rack_set(
    path: Path | None, racks: int, static: int, links: int, cs_uplinks: int, capacity: float
) -> dict[str, Any]:
    """The rack set of --rack-set FILE, or without it a uniform one: `links` cables per ToR spread evenly."""
    if path is None:
        if racks < 1 or links % racks:
            raise UsageError(
                f"--circuit-links ({links}) must be a multiple of --racks ({racks}) for a uniform rack set"
            )
        return {
            "static_uplinks": static,
            "cables": [[links // racks] * racks for _ in range(racks)],
            "cs_uplinks": [cs_uplinks] * racks,
            "capacity_gbps": capacity,
        }
    try:
        data = json.loads(path.read_text())
    except OSError as exc:
        raise CliError(f"--rack-set: cannot read {path}: {exc.strerror}") from exc
    except json.JSONDecodeError as exc:
        raise CliError(f"--rack-set: {path} is not JSON ({exc.msg} at line {exc.lineno})") from exc
    if not isinstance(data, dict):
        raise CliError(f"--rack-set: {path} must hold a JSON object")
    return data


def engine_rack_set(spec: dict[str, Any]) -> dict[str, Any]:
    """The rack set without its display names (`racks`, which the server reads), as the engine takes it."""
    return {key: value for key, value in spec.items() if key != "racks"}
