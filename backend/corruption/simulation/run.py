"""Running a simulation: the engine's trace simulator once per constraint x accuracy, its series
downsampled, the job's progress over the whole sweep."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from typing import Any

import lightpath_engine
from fabric.models import Fabric
from fabric.services.engine import DISABLED, DOWN, engine_fabric
from jobs.services import JobFailed
from lightpath.problems import MAX_LISTED_PROBLEMS

from .tables import COUNT_KEYS, SERIES_KEYS

HOUR_S = 3600.0
MAX_POINTS = 400  # per series of a run and policy


def downsample(series: Mapping[str, Any], horizon_s: float, max_points: int = MAX_POINTS) -> dict[str, Any]:
    """The engine's step series with at most `max_points` steps, in a compact JSON form.

    Short series keep every step (`binned` false). Longer ones become `max_points` equal bins of the
    window, each a step from its start: `penalty` is the bin's time-weighted mean (so the area, the
    penalty integral, is kept), `worst_fraction` its minimum over the steps that lasted (a dip under
    the constraint is never hidden), `disabled` and `active_corrupting` their maxima. Times are
    rounded to the millisecond and values to 6 significant digits: a month's run stays a few
    hundred kilobytes.
    """
    times = series["time_s"]
    if len(times) <= max_points or horizon_s <= 0:
        return _compact(False, list(times), *(list(series[key]) for key in SERIES_KEYS))
    width = horizon_s / max_points
    area = [0.0] * max_points
    worst = [math.inf] * max_points
    disabled = [0] * max_points
    active = [0] * max_points
    for i, start in enumerate(times):
        end = min(times[i + 1] if i + 1 < len(times) else horizon_s, horizon_s)
        if end <= start:  # replaced at the same instant, or past the window: it never held
            continue
        first = min(int(start / width), max_points - 1)
        last = min(int(end / width), max_points - 1)
        for b in range(first, last + 1):
            overlap = min(end, (b + 1) * width) - max(start, b * width)
            if overlap <= 0 and b != first:
                continue
            area[b] += series["penalty"][i] * max(overlap, 0.0)
            worst[b] = min(worst[b], series["worst_fraction"][i])
            disabled[b] = max(disabled[b], series["disabled"][i])
            active[b] = max(active[b], series["active_corrupting"][i])
    # Steps cover the window, so every bin is reached; guard the first against an empty series.
    for b in range(max_points):
        if worst[b] == math.inf:
            worst[b] = worst[b - 1] if b else 1.0
    return _compact(True, [b * width for b in range(max_points)], [a / width for a in area], worst, disabled, active)


def _compact(binned: bool, times: list, penalty: list, worst: list, disabled: list, active: list) -> dict[str, Any]:
    return {
        "binned": binned,
        "time_s": [round(t, 3) for t in times],
        "penalty": [float(f"{v:.6g}") for v in penalty],
        "worst_fraction": [float(f"{v:.6g}") for v in worst],
        "disabled": list(disabled),
        "active_corrupting": list(active),
    }


class SweepProgress:
    """The job's progress over every engine run of the sweep (constraints x accuracies x policies).

    The engine reports each run's fraction, runs in order, each ending at 1.0, at each hundredth of
    the run's window and at least every 1,024 events. This reports the whole job's fraction with
    the cell and policy as the message when it grew by a percent, at the end of every run, and at
    least every REPORT_INTERVAL_S while the engine reports. A report is a database write and a
    look for a cancel request: the job's `progress` raises JobCancelled, which stops the engine
    mid-run, so a cancel takes effect within about a second or a percent of the sweep.
    """

    REPORT_INTERVAL_S = 1.0

    def __init__(self, total_runs: int, report: Callable[[float, str], None]):
        self.total_runs = total_runs
        self.report = report
        self.finished_runs = 0
        self.last_reported = 0.0
        self.last_report_time = time.monotonic()

    def reporter(self, label: str) -> Callable[[str, float], None]:
        def engine_progress(policy: str, fraction: float) -> None:
            overall = (self.finished_runs + fraction) / self.total_runs
            if fraction >= 1.0:
                self.finished_runs += 1
            now = time.monotonic()
            due = now - self.last_report_time >= self.REPORT_INTERVAL_S
            if overall - self.last_reported >= 0.01 or fraction >= 1.0 or due:
                self.last_reported, self.last_report_time = overall, now
                self.report(overall, f"{label}: {policy}")

        return engine_progress


def _counts(counts: Mapping[str, Any]) -> dict[str, int]:
    return {key: counts[key] for key in COUNT_KEYS}


def _finite_or_none(value: float) -> float | None:
    """JSON has no infinity: a ratio against a CorrOpt penalty of 0 is null."""
    return value if math.isfinite(value) else None


def _engine_trace(params: dict[str, Any], fabric: Fabric, ef) -> tuple[list[tuple[float, int, float]], float | None]:
    """The onsets with engine link indices, and the window's end (None: the last onset)."""
    trace = params["trace"]
    horizon = None if params["horizon_hours"] is None else params["horizon_hours"] * HOUR_S
    if trace["source"] == "generated":
        onsets = lightpath_engine.corropt_trace(ef.graph, trace["mttf_hours"], trace["hours"], trace["seed"])
        return onsets, horizon if horizon is not None else trace["hours"] * HOUR_S
    missing = sorted({link for _, link, _ in trace["onsets"] if link not in ef.link_index})
    if missing:
        raise JobFailed(
            f"{len(missing)} link(s) of the trace are no longer in fabric {fabric.name!r}",
            {"errors": [{"section": "params", "field": "trace", "message": f"link {link} was deleted"}
                        for link in missing[:MAX_LISTED_PROBLEMS]]},
        )  # fmt: skip
    return [(t, ef.link_index[link], rate) for t, link, rate in trace["onsets"]], horizon


def simulate(fabric: Fabric, params: dict[str, Any], context) -> dict[str, Any]:
    """The sweep's result for validated `params` (see validate_params); `context` is the job's."""
    context.progress(0.0, "building the fabric and the trace")
    ef = engine_fabric(fabric)
    onsets, horizon = _engine_trace(params, fabric, ef)
    policies = params["policies"]
    cells = [(c, a) for c in params["constraints"] for a in params["accuracies"]]
    # corropt_compare runs corropt as the reference of the ratios even when it is not asked for.
    progress = SweepProgress(len(cells) * (len(policies) + (0 if "corropt" in policies else 1)), context.progress)

    runs = []
    for constraint, accuracy in cells:
        comparison = lightpath_engine.corropt_compare(
            ef.graph,
            onsets,
            policies,
            capacity=constraint,
            penalty=params["penalty"],
            repair_delay_s=params["repair_delay_hours"] * HOUR_S,
            fix_probability=accuracy,
            seed=params["seed"],
            progress=progress.reporter(f"constraint {constraint:g}, accuracy {accuracy:g}"),
            horizon_s=horizon,
            time_budget_s=params["optimizer_time_budget_s"],
            link_states=ef.link_states,
        )
        runs.append(
            {
                "constraint": constraint,
                "accuracy": accuracy,
                "corropt_penalty_seconds": comparison["corropt_penalty_seconds"],
                "policies": [
                    {
                        "policy": result["policy"],
                        "share": result.get("share"),
                        "penalty_seconds": result["penalty_seconds"],
                        "penalty_ratio_vs_corropt": _finite_or_none(ratio),
                        "active_corrupting_seconds": result["active_corrupting_seconds"],
                        "disabled_seconds": result["disabled_seconds"],
                        "lowest_worst_fraction": result["lowest_worst_fraction"],
                        "counts": _counts(result["counts"]),
                        "series": downsample(result["series"], result["horizon_s"]),
                    }
                    for result, ratio in zip(comparison["results"], comparison["penalty_ratio"], strict=True)
                ],
            }
        )
    horizon_s = comparison["results"][0]["horizon_s"]
    trace = params["trace"]
    return {
        "fabric": {"id": fabric.pk, "name": fabric.name},
        "trace": {
            **{key: value for key, value in trace.items() if key != "onsets"},
            "onsets": len(onsets),
            "links": len({link for _, link, _ in onsets}),
            "horizon_s": horizon_s,
        },
        "settings": {
            "policies": policies,
            "constraints": params["constraints"],
            "accuracies": params["accuracies"],
            "penalty_function": params["penalty"],
            "repair_delay_s": params["repair_delay_hours"] * HOUR_S,
            "seed": params["seed"],
            "optimizer_time_budget_s": params["optimizer_time_budget_s"],
            "initially_disabled": ef.link_states.count(DISABLED),
            "initially_down": ef.link_states.count(DOWN),
            "links": len(ef.link_states),
            "max_points": MAX_POINTS,
        },
        "runs": runs,
    }
