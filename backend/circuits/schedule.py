"""Circuit schedules (job kind `circuits.schedule`): the engine's `circuit_plan` on a stored demand and
the racks of one circuit switch or of every circuit switch of a zone.

- Racks are the attached ToRs, indexed by (circuit switch name, ToR name); each switch is one engine
  zone (circuits never join racks of two switches). A rack's ports are its available optical ports
  (services.port_states: a port whose link is disabled, down or under an unresolved ticket is gone).
- The demand's windows are re-bucketed to the period: period k holds the windows starting in
  [k*T, (k+1)*T) after the first. Rows naming a ToR outside the selection are counted in `ignored`.
- The main algorithm runs, then each algorithm of `compare` on the same inputs (only its metrics
  are kept). Edge groups are scored on the main schedule.

The handler has no side effect but its result: a retried job recomputes the same answer.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeGuard

import lightpath_engine
from accounts.roles import OPERATOR, PLANNER
from fabric.models import Fabric
from jobs.models import Job
from jobs.registry import job_kind
from jobs.services import JobFailed
from lightpath.problems import InvalidParams

from . import services
from .models import CircuitAttachment, CircuitSwitch, Demand

JOB_KIND = "circuits.schedule"
ALGORITHMS = ("exact", "greedy", "round_robin", "static", "random")
RECONFIGS = ("per_port", "global")
MODES = ("replay", "drain")
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
MAX_PERIOD_S = 3600.0
MAX_SLOTS = 100_000
MAX_EDGE_GROUPS = 64
MAX_GROUP_PAIRS = 16
MAX_TIME_BUDGET_S = 3600.0
MAX_ECHOED_WINDOW_ENTRIES = 500_000  # above it `input.windows` is null (a result stays a few MB)
MAX_LISTED_PROBLEMS = 100

PARAM_KEYS = (
    "period_s",
    "dark_time_s",
    "capacity_gbps",
    "reconfig",
    "mode",
    "algorithm",
    "seed",
    "min_demand_bytes",
    "burst_active",
    "burst_reset",
    "hysteresis",
    "edge_groups",
    "time_budget_s",
    "max_slots",
    "compare",
)
REQUEST_KEYS = ("demand", "circuit_switch", "zone", "params", "circuit_switches")


class _Problems:
    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []

    def add(self, field: str, message: str) -> None:
        if len(self.rows) < MAX_LISTED_PROBLEMS:
            self.rows.append({"section": "params", "field": field, "message": message})

    def raise_if_any(self) -> None:
        if self.rows:
            raise InvalidParams(self.rows)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(problems: _Problems, params: dict, key: str, low: float, high: float, *, low_open: bool) -> float | None:
    value = params[key]
    interval = f"{'(' if low_open else '['}{low:g}, {high:g}]"
    if not _is_number(value) or not (low < value <= high if low_open else low <= value <= high):
        problems.add(f"params.{key}", f"must be a number in {interval}, got {value!r}")
        return None
    return float(value)


def _integer(problems: _Problems, params: dict, key: str, low: int, high: int) -> int | None:
    value = params[key]
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        problems.add(f"params.{key}", f"must be a whole number in [{low}, {high}], got {value!r}")
        return None
    return int(value)


def _choice(problems: _Problems, params: dict, key: str, choices: Sequence[str]) -> str | None:
    value = params[key]
    if value not in choices:
        problems.add(f"params.{key}", f"must be one of {', '.join(choices)}, got {value!r}")
        return None
    return str(value)


def period_count(demand: Demand, period_s: float) -> int:
    """Periods the demand's windows fill once re-bucketed to `period_s`."""
    return math.floor((demand.window_count - 1) * demand.window_s / period_s + 1e-9) + 1


def _selection(
    problems: _Problems, data: dict, fabric: Fabric | None
) -> tuple[Demand | None, list[CircuitSwitch], str | None, int | None]:
    demand = None
    demand_id = data.get("demand")
    if not isinstance(demand_id, int) or isinstance(demand_id, bool):
        problems.add("demand", f"must be a demand id, got {demand_id!r}")
    else:
        demand = Demand.objects.select_related("fabric").filter(pk=demand_id).first()
        if demand is None:
            problems.add("demand", f"demand {demand_id} does not exist")
        elif fabric is not None and demand.fabric_id != fabric.pk:
            problems.add("demand", f"demand {demand_id} is not in fabric {fabric.name!r}")
    switch_id, zone = data.get("circuit_switch"), data.get("zone")
    switches: list[CircuitSwitch] = []
    if (switch_id is None) == (zone is None):
        problems.add("circuit_switch", "give exactly one of circuit_switch (an id) or zone (a name)")
    elif switch_id is not None:
        if not _is_int(switch_id):
            problems.add("circuit_switch", f"must be a circuit switch id, got {switch_id!r}")
        else:
            switches = list(CircuitSwitch.objects.filter(pk=switch_id))
            if not switches:
                problems.add("circuit_switch", f"circuit switch {switch_id} does not exist")
    elif not isinstance(zone, str) or not zone.strip():
        problems.add("zone", f"must be a zone name, got {zone!r}")
    elif demand is not None:
        switches = list(CircuitSwitch.objects.filter(fabric_id=demand.fabric_id, zone=zone).order_by("name"))
        if not switches:
            problems.add("zone", f"fabric {demand.fabric.name!r} has no circuit switch in zone {zone!r}")
    if demand is not None:
        for switch in switches:
            if switch.fabric_id != demand.fabric_id:
                problems.add("circuit_switch", f"circuit switch {switch.name!r} is not in the demand's fabric")
    if switches:
        tors = list(
            CircuitAttachment.objects.filter(circuit_switch__in=switches).values_list("tor__name", "circuit_switch_id")
        )
        if not tors:
            problems.add("circuit_switch", "no ToR is attached to the selected circuit switch(es)")
        seen: dict[str, int] = {}
        for name, switch_pk in tors:
            if name in seen and seen[name] != switch_pk:
                problems.add("zone", f"ToR {name!r} is attached to two circuit switches of the zone")
            seen[name] = switch_pk
    return demand, switches, zone if switch_id is None else None, switch_id if _is_int(switch_id) else None


def _edge_groups(problems: _Problems, groups: Any, tors: set[str]) -> list[dict[str, Any]]:
    if not isinstance(groups, list):
        problems.add("params.edge_groups", 'must be a list of {"name", "pairs": [[src, dst], ...], "bonus_bytes"}')
        return []
    if len(groups) > MAX_EDGE_GROUPS:
        problems.add("params.edge_groups", f"at most {MAX_EDGE_GROUPS} groups, got {len(groups)}")
    cleaned = []
    for i, group in enumerate(groups[:MAX_EDGE_GROUPS]):
        at = f"params.edge_groups[{i}]"
        if not isinstance(group, dict):
            problems.add(at, 'must be {"name", "pairs", "bonus_bytes"}')
            continue
        pairs = group.get("pairs")
        bonus = group.get("bonus_bytes")
        if not _is_int(bonus) or bonus < 0:
            problems.add(f"{at}.bonus_bytes", f"must be a whole number of bytes >= 0, got {bonus!r}")
        if not isinstance(pairs, list) or not 1 <= len(pairs) <= MAX_GROUP_PAIRS:
            problems.add(f"{at}.pairs", f"must be a list of 1 to {MAX_GROUP_PAIRS} [src, dst] ToR name pairs")
            continue
        for j, pair in enumerate(pairs):
            if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(name, str) for name in pair)):
                problems.add(f"{at}.pairs[{j}]", f"must be [src, dst] ToR names, got {pair!r}")
                continue
            for name in pair:
                if name not in tors:
                    problems.add(f"{at}.pairs[{j}]", f"{name!r} is not a ToR attached to the selection")
            if pair[0] == pair[1]:
                problems.add(f"{at}.pairs[{j}]", "a pair needs two different ToRs")
        cleaned.append({"name": str(group.get("name") or f"group {i + 1}")[:100], "pairs": pairs, "bonus_bytes": bonus})
    return cleaned


def validate_request(data: Any, fabric: Fabric | None) -> dict[str, Any]:
    """A schedule request (`{demand, circuit_switch | zone, params}`) checked and completed with
    defaults; InvalidParams lists every problem. Accepts its own output (a retried job)."""
    problems = _Problems()
    if not isinstance(data, dict):
        raise InvalidParams([{"section": "params", "field": "", "message": "must be an object"}])
    for key in sorted(set(data) - set(REQUEST_KEYS)):
        problems.add(key, "unknown field (known: demand, circuit_switch, zone, params)")
    demand, switches, zone, switch_id = _selection(problems, data, fabric)
    params = data.get("params") or {}
    if not isinstance(params, dict):
        problems.add("params", "must be an object")
        params = {}
    for key in sorted(set(params) - set(PARAM_KEYS)):
        problems.add(f"params.{key}", f"unknown parameter (known: {', '.join(PARAM_KEYS)})")
    windows = demand.window_count if demand is not None else 2
    defaults: dict[str, Any] = {
        "period_s": demand.window_s if demand is not None else 1.0,
        "dark_time_s": max((s.dark_time_s for s in switches), default=0.01),
        "capacity_gbps": min((s.capacity_gbps for s in switches), default=10.0),
        "reconfig": "per_port",
        "mode": "replay" if windows >= 2 else "drain",
        "algorithm": "exact",
        "seed": 0,
        "min_demand_bytes": 1_000_000,
        "burst_active": 1,
        "burst_reset": 1,
        "hysteresis": 0.0,
        "edge_groups": [],
        "time_budget_s": None,
        "max_slots": MAX_SLOTS,
        "compare": [],
    }
    merged = {**defaults, **{k: v for k, v in params.items() if k in PARAM_KEYS}}
    cleaned: dict[str, Any] = {
        "period_s": _number(problems, merged, "period_s", 0, MAX_PERIOD_S, low_open=True),
        "capacity_gbps": _number(problems, merged, "capacity_gbps", 0, 100_000, low_open=True),
        "reconfig": _choice(problems, merged, "reconfig", RECONFIGS),
        "mode": _choice(problems, merged, "mode", MODES),
        "algorithm": _choice(problems, merged, "algorithm", ALGORITHMS),
        "seed": _integer(problems, merged, "seed", 0, 2**63 - 1),
        "min_demand_bytes": _integer(problems, merged, "min_demand_bytes", 0, 2**63 - 1),
        "burst_active": _integer(problems, merged, "burst_active", 1, 1000),
        "burst_reset": _integer(problems, merged, "burst_reset", 1, 1000),
        "hysteresis": _number(problems, merged, "hysteresis", 0, 10, low_open=False),
        "max_slots": _integer(problems, merged, "max_slots", 1, MAX_SLOTS),
    }
    period = cleaned["period_s"]
    dark = merged["dark_time_s"]
    if not _is_number(dark) or dark < 0 or (period is not None and dark >= period):
        below = f"{period:g}" if period is not None else "the period"
        problems.add("params.dark_time_s", f"must be a number >= 0 and below the period ({below} s), got {dark!r}")
    cleaned["dark_time_s"] = float(dark) if _is_number(dark) else None
    budget = merged["time_budget_s"]
    if budget is not None and (not _is_number(budget) or not 0 < budget <= MAX_TIME_BUDGET_S):
        problems.add("params.time_budget_s", f"must be null or a number in (0, {MAX_TIME_BUDGET_S:g}], got {budget!r}")
    cleaned["time_budget_s"] = float(budget) if _is_number(budget) else None
    compare = merged["compare"]
    cleaned["compare"] = []
    if not isinstance(compare, list):
        problems.add("params.compare", f"must be a list of {', '.join(ALGORITHMS)}")
    else:
        for i, algorithm in enumerate(compare):
            if algorithm not in ALGORITHMS:
                problems.add(f"params.compare[{i}]", f"must be one of {', '.join(ALGORITHMS)}, got {algorithm!r}")
            elif algorithm in cleaned["compare"]:
                problems.add(f"params.compare[{i}]", f"{algorithm} is listed twice")
            else:
                cleaned["compare"].append(algorithm)
    if demand is not None and period is not None:
        periods = period_count(demand, period)
        if cleaned["mode"] == "replay" and periods < 2:
            problems.add(
                "params.mode",
                f"replay needs two periods or more; the demand fills {periods} of {period:g} s (use drain)",
            )
        if periods > MAX_SLOTS:
            problems.add("params.period_s", f"the demand fills {periods} periods of {period:g} s, above {MAX_SLOTS}")
    tors = set(CircuitAttachment.objects.filter(circuit_switch__in=switches).values_list("tor__name", flat=True))
    cleaned["edge_groups"] = _edge_groups(problems, merged["edge_groups"], tors)
    problems.raise_if_any()
    assert demand is not None
    return {
        "demand": demand.pk,
        "circuit_switch": switch_id,
        "zone": zone,
        "circuit_switches": [s.pk for s in switches],
        "params": cleaned,
    }


# ---------------------------------------------------------------------------------------------
# Deleting what schedules use


class StillScheduled(Exception):
    """A demand or circuit switch a queued or running schedule still needs (the API answers 409)."""


def refuse_delete_while_scheduled(target: Demand | CircuitSwitch) -> None:
    """Raise StillScheduled if a schedule not yet finished uses `target`: it would fail halfway.
    Finished schedules do not hold it back, since their results keep the demand's name, the
    switches, the racks and the engine's input."""
    unfinished = Job.objects.filter(kind=JOB_KIND).exclude(state__in=Job.TERMINAL_STATES)
    if isinstance(target, Demand):
        unfinished = unfinished.filter(params__demand=target.pk)
        what = f"demand {target.name!r}"
    else:
        unfinished = unfinished.filter(params__circuit_switches__contains=[target.pk])
        what = f"circuit switch {target.name!r}"
    ids = list(unfinished.order_by("id").values_list("id", flat=True)[:4])
    if ids:
        listed = ", ".join(f"#{pk}" for pk in ids[:3]) + (" and more" if len(ids) > 3 else "")
        raise StillScheduled(
            f"The {what} is used by schedule {listed}, still queued or running: "
            "wait for it to finish or cancel it, then delete."
        )


# ---------------------------------------------------------------------------------------------
# Running


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


@job_kind(
    JOB_KIND,
    roles={PLANNER, OPERATOR},
    description="Circuit schedule (c-Through): circuits per period for a stored demand on a circuit switch or a zone, "
    "with metrics and an algorithm comparison. Params: demand, circuit_switch or zone, params.",
    validate=validate_request,
    csv_tables={
        "slots": lambda result: (("slot", "t0_s", "src", "dst", "count"), slot_rows(result)),
        "metrics": lambda result: (("algorithm", *METRIC_KEYS), metric_rows(result)),
    },
)
def run_schedule(job, context) -> dict[str, Any]:
    fabric = Fabric.objects.filter(pk=job.fabric_id).first()
    try:
        request = validate_request(job.params, fabric)
    except InvalidParams as exc:
        raise JobFailed(f"the schedule's params have {len(exc.errors)} problem(s)", {"errors": exc.errors}) from exc
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


def slot_rows(result: dict[str, Any]) -> Iterable[Sequence[Any]]:
    names = [rack["name"] for rack in result["racks"]]
    for slot in result["slots"]:
        for circuit in slot["circuits"]:
            yield (slot["index"], slot["t0"], names[circuit["a"]], names[circuit["b"]], circuit["count"])


def metric_rows(result: dict[str, Any]) -> Iterable[Sequence[Any]]:
    for row in result["comparison"]:
        yield (row["algorithm"], *(row[key] for key in METRIC_KEYS))
