"""A schedule request checked: the demand, the circuit switches (one, or a zone's) and the params."""

from __future__ import annotations

import math
from typing import Any

from fabric.models import Fabric
from lightpath.problems import (
    InvalidParams,
    Problems,
    choice,
    choices,
    integer,
    is_int,
    is_number,
    number,
    random_seed,
    unknown_keys,
)

from ..models import CircuitAttachment, CircuitSwitch, Demand

JOB_KIND = "circuits.schedule"
ALGORITHMS = ("exact", "greedy", "round_robin", "static", "random")
RECONFIGS = ("per_port", "global")
MODES = ("replay", "drain")
MAX_PERIOD_S = 3600.0
MAX_SLOTS = 100_000
MAX_EDGE_GROUPS = 64
MAX_GROUP_PAIRS = 16
MAX_TIME_BUDGET_S = 3600.0

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


def period_count(demand: Demand, period_s: float) -> int:
    """Periods the demand's windows fill once re-bucketed to `period_s`."""
    return math.floor((demand.window_count - 1) * demand.window_s / period_s + 1e-9) + 1


def _selection(
    problems: Problems, data: dict, fabric: Fabric | None
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
        if not is_int(switch_id):
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
    return demand, switches, zone if switch_id is None else None, switch_id if is_int(switch_id) else None


def _edge_groups(problems: Problems, groups: Any, tors: set[str]) -> list[dict[str, Any]]:
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
        if not is_int(bonus) or bonus < 0:
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
    problems = Problems()
    if not isinstance(data, dict):
        raise InvalidParams([{"section": "params", "field": "", "message": "must be an object"}])
    for key in sorted(set(data) - set(REQUEST_KEYS)):
        problems.add(key, "unknown field (known: demand, circuit_switch, zone, params)")
    demand, switches, zone, switch_id = _selection(problems, data, fabric)
    params = data.get("params") or {}
    if not isinstance(params, dict):
        problems.add("params", "must be an object")
        params = {}
    unknown_keys(problems, params, PARAM_KEYS, "params.")
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
        "period_s": number(problems, merged["period_s"], "params.period_s", 0, MAX_PERIOD_S, low_open=True),
        "capacity_gbps": number(problems, merged["capacity_gbps"], "params.capacity_gbps", 0, 100_000, low_open=True),
        "reconfig": choice(problems, merged["reconfig"], "params.reconfig", RECONFIGS),
        "mode": choice(problems, merged["mode"], "params.mode", MODES),
        "algorithm": choice(problems, merged["algorithm"], "params.algorithm", ALGORITHMS),
        "seed": random_seed(problems, merged["seed"], "params.seed"),
        "min_demand_bytes": integer(problems, merged["min_demand_bytes"], "params.min_demand_bytes", 0, 2**63 - 1),
        "burst_active": integer(problems, merged["burst_active"], "params.burst_active", 1, 1000),
        "burst_reset": integer(problems, merged["burst_reset"], "params.burst_reset", 1, 1000),
        "hysteresis": number(problems, merged["hysteresis"], "params.hysteresis", 0, 10),
        "max_slots": integer(problems, merged["max_slots"], "params.max_slots", 1, MAX_SLOTS),
    }
    period = cleaned["period_s"]
    dark = merged["dark_time_s"]
    if not is_number(dark) or dark < 0 or (period is not None and dark >= period):
        below = f"{period:g}" if period is not None else "the period"
        problems.add("params.dark_time_s", f"must be a number >= 0 and below the period ({below} s), got {dark!r}")
    cleaned["dark_time_s"] = float(dark) if is_number(dark) else None
    budget = merged["time_budget_s"]
    if budget is not None and (not is_number(budget) or not 0 < budget <= MAX_TIME_BUDGET_S):
        problems.add("params.time_budget_s", f"must be null or a number in (0, {MAX_TIME_BUDGET_S:g}], got {budget!r}")
    cleaned["time_budget_s"] = float(budget) if is_number(budget) else None
    cleaned["compare"] = choices(problems, merged["compare"], "params.compare", ALGORITHMS, allow_empty=True)
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
