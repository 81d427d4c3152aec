"""The simulation result's CSV tables (GET /api/jobs/{id}/result/?format=csv&table=summary|series)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

COUNT_KEYS = (
    "onsets",
    "absorbed_onsets",
    "refused_arrivals",
    "disables",
    "repairs",
    "second_rounds",
    "optimizer_runs",
    "optimizer_unproven",
    "threshold_breaches",
)
SUMMARY_HEADER = (
    "constraint",
    "accuracy",
    "policy",
    "share",
    "penalty_seconds",
    "penalty_ratio_vs_corropt",
    "active_corrupting_seconds",
    "disabled_seconds",
    "lowest_worst_fraction",
    *COUNT_KEYS,
)
SERIES_KEYS = ("penalty", "worst_fraction", "disabled", "active_corrupting")
SERIES_HEADER = ("constraint", "accuracy", "policy", "time_s", *SERIES_KEYS)


def summary_rows(result: dict[str, Any]) -> Iterable[Sequence[Any]]:
    for run in result["runs"]:
        for row in run["policies"]:
            yield (
                run["constraint"],
                run["accuracy"],
                row["policy"],
                "" if row["share"] is None else row["share"],
                row["penalty_seconds"],
                "" if row["penalty_ratio_vs_corropt"] is None else row["penalty_ratio_vs_corropt"],
                row["active_corrupting_seconds"],
                row["disabled_seconds"],
                row["lowest_worst_fraction"],
                *(row["counts"][key] for key in COUNT_KEYS),
            )


def series_rows(result: dict[str, Any]) -> Iterable[Sequence[Any]]:
    for run in result["runs"]:
        for row in run["policies"]:
            series = row["series"]
            for values in zip(series["time_s"], *(series[key] for key in SERIES_KEYS), strict=True):
                yield (run["constraint"], run["accuracy"], row["policy"], *values)
