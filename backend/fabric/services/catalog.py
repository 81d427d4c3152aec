"""The transceiver catalog's RAIL fields (docs/rail.md): checking a part's stretched reaches."""

import itertools
import math
from typing import Any, TypeGuard


def _finite_number(value: object) -> TypeGuard[float]:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def clean_stretch(value: Any, rated_reach_m: float | None) -> tuple[list[dict], list[str]]:
    """The stretch list sorted by decreasing NRB, and every problem of it."""
    if not isinstance(value, list):
        return [], ['must be a list of {"nrb": fraction, "reach_m": metres}']
    problems: list[str] = []
    entries: list[dict] = []
    seen: set[float] = set()
    for i, entry in enumerate(value):
        where = f"stretch[{i}]"
        if not isinstance(entry, dict):
            problems.append(f'{where}: must be an object {{"nrb": fraction, "reach_m": metres}}')
            continue
        unknown = sorted(set(entry) - {"nrb", "reach_m"})
        if unknown:
            problems.append(f"{where}: unknown keys {', '.join(unknown)}")
        raw_nrb, raw_reach = entry.get("nrb"), entry.get("reach_m")
        nrb = float(raw_nrb) if _finite_number(raw_nrb) and 0 < raw_nrb < 1 else None
        reach = float(raw_reach) if _finite_number(raw_reach) and raw_reach > 0 else None
        if nrb is None:
            problems.append(f"{where}.nrb: must be a fraction in (0, 1), got {raw_nrb!r}")
        elif nrb in seen:
            problems.append(f"{where}.nrb: {nrb:g} is listed twice")
            nrb = None
        if reach is None:
            problems.append(f"{where}.reach_m: must be a positive number of metres, got {raw_reach!r}")
        elif rated_reach_m is not None and reach <= rated_reach_m:
            problems.append(f"{where}.reach_m: {reach:g} is not beyond the rated reach {rated_reach_m:g}")
            reach = None
        if nrb is not None and reach is not None:
            seen.add(nrb)
            entries.append({"nrb": nrb, "reach_m": reach})
    entries.sort(key=lambda e: -e["nrb"])
    for higher, lower in itertools.pairwise(entries):
        if lower["reach_m"] < higher["reach_m"]:
            problems.append(
                f"stretch: NRB {lower['nrb']:g} reaches {lower['reach_m']:g} m, less than the "
                f"{higher['reach_m']:g} m of the stricter NRB {higher['nrb']:g} (a lower bound never shortens a reach)"
            )
    return entries, problems
