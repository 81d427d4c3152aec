"""The simulation's params: checked, completed with defaults, the trace resolved to link ids."""

from __future__ import annotations

from typing import Any

from fabric.models import Fabric, Link
from lightpath.problems import InvalidParams, Problems, choice, choices, is_number, number, random_seed, unknown_keys

from .trace_csv import MAX_ONSETS, parse_csv

POLICIES = ("corropt", "fast-checker", "switch-local")
PENALTIES = ("linear", "log", "step")

# Limits, documented in the README: they bound a job's memory, run time and result size.
MAX_CONSTRAINTS = 8
MAX_ACCURACIES = 4
MAX_HOURS = 366 * 24.0

DEFAULTS: dict[str, Any] = {
    "constraints": [0.5, 0.75],
    "accuracies": [0.5, 0.8],
    "policies": list(POLICIES),
    "penalty": "linear",
    "repair_delay_hours": 48.0,
    "seed": 0,
    "optimizer_time_budget_s": 2.0,
    "horizon_hours": None,
}
GENERATED_DEFAULTS: dict[str, Any] = {"hours": 720.0, "mttf_hours": 2000.0}
KNOWN_KEYS = {*DEFAULTS, "trace"}


def _fractions(problems: Problems, params: dict, key: str, limit: int, *, low_open: bool) -> list[float]:
    values = params.get(key)
    if not isinstance(values, list) or not values:
        problems.add(key, "must be a non-empty list of fractions, e.g. [0.5, 0.75]")
        return []
    if len(values) > limit:
        problems.add(key, f"at most {limit} values, got {len(values)}")
    cleaned: list[float] = []
    for i, value in enumerate(values):
        if not is_number(value) or not (0.0 < value <= 1.0 if low_open else 0.0 <= value <= 1.0):
            interval = "(0, 1]" if low_open else "[0, 1]"
            problems.add(f"{key}[{i}]", f"must be a fraction in {interval}, got {value!r}")
        elif float(value) in cleaned:
            problems.add(f"{key}[{i}]", f"{value:g} is listed twice")
        else:
            cleaned.append(float(value))
    return cleaned


def validate_params(params: Any, fabric: Fabric | None) -> dict[str, Any]:
    """The job's params checked and completed with defaults; InvalidParams lists every problem.

    An uploaded CSV trace is parsed here, once, into `onsets` of [time_s, link id, loss_rate]:
    the job then never parses text, and a link named in the file is resolved at submission time.
    Accepts its own output (a retried or re-validated job).
    """
    problems = Problems()
    if not isinstance(params, dict):
        problems.add("", "params must be an object")
        problems.raise_if_any()
    if fabric is None:
        raise InvalidParams([{"section": "params", "field": "fabric", "message": "a simulation needs a fabric"}])
    unknown_keys(problems, params, KNOWN_KEYS)
    merged = {**DEFAULTS, **{k: v for k, v in params.items() if k in KNOWN_KEYS}}
    cleaned: dict[str, Any] = {
        "constraints": _fractions(problems, merged, "constraints", MAX_CONSTRAINTS, low_open=True),
        "accuracies": _fractions(problems, merged, "accuracies", MAX_ACCURACIES, low_open=False),
        "policies": choices(problems, merged["policies"], "policies", POLICIES),
    }
    choice(problems, merged["penalty"], "penalty", PENALTIES)
    cleaned["penalty"] = merged["penalty"]
    cleaned["repair_delay_hours"] = number(
        problems, merged["repair_delay_hours"], "repair_delay_hours", 0, MAX_HOURS, low_open=True
    )
    cleaned["optimizer_time_budget_s"] = number(
        problems, merged["optimizer_time_budget_s"], "optimizer_time_budget_s", 0, 60, low_open=True
    )
    cleaned["horizon_hours"] = number(
        problems, merged["horizon_hours"], "horizon_hours", 0, MAX_HOURS, low_open=True, nullable=True
    )
    cleaned["seed"] = random_seed(problems, merged["seed"], "seed")
    cleaned["trace"] = _trace(problems, params.get("trace"), fabric, cleaned["seed"] or 0)
    problems.raise_if_any()
    return cleaned


def _trace(problems: Problems, trace: Any, fabric: Fabric, seed: int) -> dict[str, Any]:
    if trace is None:
        trace = {"source": "generated"}
    if not isinstance(trace, dict):
        problems.add("trace", 'must be an object: {"source": "generated", ...} or {"source": "uploaded", "csv": ...}')
        return {}
    source = trace.get("source")
    if source == "generated":
        unknown_keys(problems, trace, {"source", "hours", "mttf_hours", "seed"}, "trace.")
        merged = {**GENERATED_DEFAULTS, **trace}
        hours = number(problems, merged["hours"], "trace.hours", 0, MAX_HOURS, low_open=True)
        mttf = number(problems, merged["mttf_hours"], "trace.mttf_hours", 0, 1e9, low_open=True)
        trace_seed = random_seed(problems, merged.get("seed", seed), "trace.seed")
        if hours is not None and mttf is not None:
            expected = fabric.links.count() * hours / mttf
            if expected > MAX_ONSETS:
                problems.add(
                    "trace.mttf_hours",
                    f"about {expected:.0f} onsets expected ({fabric.links.count()} links x {hours:g} h / {mttf:g} h),"
                    f" above the limit of {MAX_ONSETS}: raise mttf_hours or shorten hours",
                )
        return {"source": "generated", "hours": hours, "mttf_hours": mttf, "seed": trace_seed}
    if source == "uploaded":
        name = trace.get("name") or "trace.csv"
        if not isinstance(name, str):
            problems.add("trace.name", "must be a file name")
            name = "trace.csv"
        if "csv" in trace:
            onsets = parse_csv(problems, trace["csv"], fabric)
        elif "onsets" in trace:
            onsets = _check_onsets(problems, trace["onsets"], fabric)
        else:
            problems.add("trace.csv", "an uploaded trace needs its CSV text (header time_s,link,loss_rate)")
            onsets = []
        return {"source": "uploaded", "name": name[:200], "onsets": onsets}
    problems.add("trace.source", f"must be 'generated' or 'uploaded', got {source!r}")
    return {}


def _check_onsets(problems: Problems, onsets: Any, fabric: Fabric) -> list[list[Any]]:
    """Already parsed onsets [time_s, link id, loss_rate] (a re-validated job, or an API client)."""
    if not isinstance(onsets, list) or len(onsets) > MAX_ONSETS:
        problems.add("trace.onsets", f"must be a list of at most {MAX_ONSETS} [time_s, link id, loss_rate]")
        return []
    link_ids = set(Link.objects.filter(fabric=fabric).values_list("id", flat=True))
    previous = 0.0
    for i, onset in enumerate(onsets):
        ok = (
            isinstance(onset, list)
            and len(onset) == 3
            and is_number(onset[0])
            and onset[0] >= previous
            and isinstance(onset[1], int)
            and onset[1] in link_ids
            and is_number(onset[2])
            and 0.0 < onset[2] <= 1.0
        )
        if not ok:
            problems.add(
                f"trace.onsets[{i}]", "must be [time_s >= the previous, link id of the fabric, rate in (0, 1]]"
            )
        else:
            previous = onset[0]
    return onsets
