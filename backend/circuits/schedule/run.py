"""Running a schedule: the racks' available ports, the demand re-bucketed to the period, the engine's
circuit_plan for the main algorithm and each compared one, edge groups scored."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import lightpath_engine
from jobs.services import JobFailed

from .. import services
from ..models import CircuitAttachment, CircuitSwitch, Demand
from .params import period_count
from .tables import METRIC_KEYS

MAX_ECHOED_WINDOW_ENTRIES = 500_000  # above it `input.windows` is null (a result stays a few MB)


def _racks(switches: list[CircuitSwitch]) -> list[dict[str, Any]]:
    attachments = list(
        CircuitAttachment.objects.filter(circuit_switch__in=switches)
        .select_related("tor", "circuit_switch")
        .order_by("circuit_switch__name", "tor__name")
    )
    states = services.port_states(attachments)
    zone_of = {s.pk: i for i, s in enumerate(sorted(switches, key=lambda s: s.name))}
    return [
        {
            "index": i,
            "id": a.tor_id,
            "name": a.tor.name,
            "circuit_switch": a.circuit_switch_id,
            "zone_index": zone_of[a.circuit_switch_id],
            "optical_ports": a.optical_ports,
            "available_ports": states[a.pk].available,
            "unavailable": states[a.pk].unavailable,
        }
        for i, a in enumerate(attachments)
    ]


def engine_windows(
    demand: Demand, index_of: dict[int, int], period_s: float
) -> tuple[list[list[tuple[int, int, int]]], dict[str, int]]:
    """The demand per period with rack indices (directed; repeated pairs of a period summed), and
    the rows and bytes left out because a ToR is outside the selection."""
    periods = period_count(demand, period_s)
    windows: list[list[tuple[int, int, int]]] = [[] for _ in range(periods)]
    ignored = {"rows": 0, "bytes": 0}
    same_period = abs(period_s - demand.window_s) < 1e-12
    for index, src, dst, volumes in demand.windows.order_by("index").values_list("index", "src", "dst", "bytes"):
        slot = index if same_period else math.floor(index * demand.window_s / period_s + 1e-9)
        try:  # the common case: every ToR of the window is in the selection
            entries = [(index_of[a], index_of[b], v) for a, b, v in zip(src, dst, volumes, strict=True)]
        except KeyError:
            entries = []
            for a, b, volume in zip(src, dst, volumes, strict=True):
                if a in index_of and b in index_of:
                    entries.append((index_of[a], index_of[b], volume))
                else:
                    ignored["rows"] += 1
                    ignored["bytes"] += volume
        windows[slot].extend(entries)
    if not same_period:  # windows merged into one period may repeat a pair
        windows = [_summed(window) for window in windows]
    return windows, ignored


def _summed(window: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    sums: dict[tuple[int, int], int] = {}
    for a, b, volume in window:
        sums[(a, b)] = sums.get((a, b), 0) + volume
    return [(a, b, volume) for (a, b), volume in sums.items()]


def engine_input(racks: list[dict[str, Any]], params: dict[str, Any], windows: list) -> dict[str, Any]:
    """The engine's arguments, in the shape `lightpath circuits plan --output json` writes as `input`
    (edge groups with rack indices)."""
    index = {rack["name"]: rack["index"] for rack in racks}
    return {
        "racks": len(racks),
        "ports": [rack["available_ports"] for rack in racks],
        "zones": [rack["zone_index"] for rack in racks],
        "capacity_bytes_per_s": params["capacity_gbps"] * 1e9 / 8,
        "period_s": params["period_s"],
        "dark_time_s": params["dark_time_s"],
        "reconfig": params["reconfig"],
        "mode": params["mode"],
        "algorithm": params["algorithm"],
        "seed": params["seed"],
        "min_demand_bytes": params["min_demand_bytes"],
        "burst_active": params["burst_active"],
        "burst_reset": params["burst_reset"],
        "hysteresis": params["hysteresis"],
        "time_budget_s": params["time_budget_s"],
        "max_slots": params["max_slots"],
        "groups": [
            [[[index[a], index[b]] for a, b in group["pairs"]], group["bonus_bytes"]] for group in params["edge_groups"]
        ],
        "windows": windows,
    }


def engine_arguments(inputs: dict[str, Any]) -> tuple[list[int], list, dict[str, Any]]:
    """`circuit_plan`/`circuit_verify` arguments from an `input` (also one read back from JSON, whose
    tuples became lists): ports, windows and the keyword options."""
    options = {k: v for k, v in inputs.items() if k not in ("racks", "ports", "windows", "groups")}
    options["groups"] = [([(a, b) for a, b in pairs], bonus) for pairs, bonus in inputs.get("groups") or []]
    windows = [[tuple(entry) for entry in window] for window in inputs["windows"]]
    return inputs["ports"], windows, options


PROGRESS_REPORTS_PER_RUN = 100  # each is a database write and a look for a cancel request


def _plan(inputs: dict[str, Any], algorithm: str, report: Callable[[int], None], every: int) -> dict[str, Any]:
    """One engine run; `report(slots planned)` every `every` slots (it raises JobCancelled to stop)."""
    ports, windows, options = engine_arguments(inputs)
    options["algorithm"] = algorithm
    try:
        planned = lightpath_engine.circuit_plan(ports, windows, **options, progress=report, progress_every=every)
    except ValueError as exc:
        raise JobFailed(f"the engine refused the plan: {exc}") from exc
    return dict(planned)


def score_edge_groups(
    groups: list[dict[str, Any]], racks: list[dict[str, Any]], slots: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Per group, the slots in which every pair of the group had a circuit, and the bonus earned."""
    if not groups:
        return []
    index = {rack["name"]: rack["index"] for rack in racks}
    circuits_per_slot = [{frozenset((c["a"], c["b"])) for c in slot["circuits"]} for slot in slots]
    scored = []
    for group in groups:
        pairs = [frozenset((index[a], index[b])) for a, b in group["pairs"]]
        completed = sum(1 for circuits in circuits_per_slot if all(pair in circuits for pair in pairs))
        scored.append({**group, "completed_slots": completed, "bonus_earned_bytes": completed * group["bonus_bytes"]})
    return scored


def _metrics_row(algorithm: str, metrics: dict[str, Any]) -> dict[str, Any]:
    """The scalar metrics (the CSV table's columns) and the visit-delay histogram (at most 33 bins)."""
    return {
        "algorithm": algorithm,
        **{key: metrics[key] for key in METRIC_KEYS},
        "visit_delay_histogram": metrics["visit_delay_histogram"],
    }


def plan_schedule(request: dict[str, Any], context) -> dict[str, Any]:
    """The schedule's result for a validated request (see validate_request); `context` is the job's."""
    params = request["params"]
    demand = Demand.objects.select_related("fabric").get(pk=request["demand"])
    switches = list(CircuitSwitch.objects.filter(pk__in=request["circuit_switches"]).order_by("name"))
    context.progress(0.0, "loading the demand and the ports")
    racks = _racks(switches)
    windows, ignored = engine_windows(demand, {rack["id"]: rack["index"] for rack in racks}, params["period_s"])
    inputs = engine_input(racks, params, windows)
    algorithms = [params["algorithm"], *(a for a in params["compare"] if a != params["algorithm"])]
    runs = len(algorithms)
    # Replay plans one slot per period but the last; drain at least one per period, until served.
    expected = max(len(windows) - 1 if params["mode"] == "replay" else len(windows), 1)
    every = max(expected // PROGRESS_REPORTS_PER_RUN, 1)
    comparison = []
    schedule: dict[str, Any] = {}
    for i, algorithm in enumerate(algorithms):
        run_label = f"run {i + 1} of {runs}"

        def report(done: int, i: int = i, algorithm: str = algorithm, run_label: str = run_label) -> None:
            of = f" of {expected}" if params["mode"] == "replay" else ""
            context.progress((i + min(done / expected, 0.99)) / runs, f"{algorithm}: slot {done}{of} ({run_label})")

        context.progress(i / runs, f"{algorithm}: planning {len(windows)} periods ({run_label})")
        planned = _plan(inputs, algorithm, report, every)
        if i == 0:
            schedule = planned
        comparison.append(_metrics_row(algorithm, planned["metrics"]))
    context.progress(1.0, "storing the schedule")
    entries = sum(len(window) for window in windows)
    echoed = {
        **inputs,
        "windows": [[list(e) for e in w] for w in windows] if entries <= MAX_ECHOED_WINDOW_ENTRIES else None,
    }
    return {
        "demand": {
            "id": demand.pk,
            "name": demand.name,
            "window_s": demand.window_s,
            "first_window_start": demand.first_window_start,
        },
        "fabric": {"id": demand.fabric_id, "name": demand.fabric.name},
        "circuit_switches": [
            {"id": s.pk, "name": s.name, "zone": s.zone, "port_count": s.port_count} for s in switches
        ],
        "racks": [{k: v for k, v in rack.items() if k != "zone_index"} for rack in racks],
        "params": params,
        "input": echoed,
        "ignored": ignored,
        "slots": schedule["slots"],
        "metrics": schedule["metrics"],
        "comparison": comparison,
        "edge_groups": score_edge_groups(params["edge_groups"], racks, schedule["slots"]),
    }
