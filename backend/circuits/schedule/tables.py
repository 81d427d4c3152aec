"""The schedule result's CSV tables (GET /api/jobs/{id}/result/?format=csv&table=slots|metrics)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

METRIC_KEYS = (
    "total_bytes",
    "offloaded_bytes",
    "optical_ratio",
    "uniform_ratio",
    "visit_delay_max_slots",
    "visit_delay_p95_slots",
    "flap_count",
    "weight",
    "bound",
    "gap",
    "fallback_slots",
    "runtime_s",
)
SLOT_HEADER = ("slot", "t0_s", "src", "dst", "count")
METRIC_HEADER = ("algorithm", *METRIC_KEYS)


def slot_rows(result: dict[str, Any]) -> Iterable[Sequence[Any]]:
    names = [rack["name"] for rack in result["racks"]]
    for slot in result["slots"]:
        for circuit in slot["circuits"]:
            yield (slot["index"], slot["t0"], names[circuit["a"]], names[circuit["b"]], circuit["count"])


def metric_rows(result: dict[str, Any]) -> Iterable[Sequence[Any]]:
    for row in result["comparison"]:
        yield (row["algorithm"], *(row[key] for key in METRIC_KEYS))
