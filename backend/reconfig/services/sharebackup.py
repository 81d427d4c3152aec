"""ShareBackup in the server: the `sharebackup.plan` job's params and result, and backup-pool sizing.

The engine (lightpath_engine.sharebackup_*) plans and verifies; this module checks what users send
(every problem listed), echoes the inputs, and adds what a viewer needs beside the engine's schedule:
the failure groups at the start and, per event, the full matching of every circuit switch the event
changed, before and after. docs/reconfig.md ("In the server") describes the shapes.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.utils import timezone

import lightpath_engine
from circuits.models import CircuitSwitch
from corruption.models import Ticket, TicketStep
from fabric.models import Fabric, Link, Switch
from lightpath.problems import Problems, integer, is_int, number, random_seed, unknown_keys

from .params import fat_tree

MAX_EVENTS = 500
# The engine reports every degraded slot and waiting diagnosis test at every event, so a long log
# of a degrading fabric grows quadratically (k = 16, 1,000 random events: 40 MB); a result above
# this fails the job with advice instead of filling the jobs table.
MAX_RESULT_BYTES = 48 * 1024 * 1024
MAX_BACKUPS = 8
MAX_EVENTS_BYTES = 4 * 1024 * 1024
MAX_SIMULATED_TRANSITIONS = 3_000_000
MONTE_CARLO_BATCHES = 32  # the engine's batch count for its standard error
EVENT_TYPES = ("switch_down", "link_down", "repair_done", "diagnosis_result")
PLAN_DEFAULTS: dict[str, Any] = {"pods": None, "backups": 1, "reconfig_ms": 0.5}
PLAN_KEYS = {"k", *PLAN_DEFAULTS, "events"}
SWITCH_NAME = re.compile(r"^(?:(?P<layer>edge|agg)\.p(?P<pod>\d+)|core\.c(?P<core>\d+))\.m(?P<member>\d+)$")

EVENTS_HEADER = (
    "index", "type", "switch", "a", "b", "healthy", "status", "replace_calls", "circuits_changed",
    "degraded_groups", "fallback_slots", "diagnosis_tests", "repair_tickets", "latency_ms",
)  # fmt: skip
REPLACE_HEADER = (
    "index", "order", "circuit_switch", "side", "failed_port", "backup_port", "peer_port", "failed_switch",
    "backup_switch",
)  # fmt: skip


# ---------------------------------------------------------------------------------------------
# sharebackup.plan: params


def validate_plan_params(params: Any, fabric: Fabric | None = None) -> dict[str, Any]:
    """The job's params checked and completed with defaults; InvalidParams lists every problem.

    An uploaded events file is parsed here, once, into `events`; the stored params never hold the
    file's text. Accepts its own output (a retried or re-validated job). Without a fabric, k and pods
    describe an abstract fat tree; with one, they are read from it (stored_fat_tree) and events may
    name its switches by their stored names.
    """
    problems = Problems()
    if not isinstance(params, dict):
        problems.add("", "params must be an object")
        problems.raise_if_any()
    unknown_keys(problems, params, PLAN_KEYS)
    merged = {**PLAN_DEFAULTS, **params}
    if fabric is not None:
        stored = stored_fat_tree(fabric)
        for key, value in (("k", stored.k), ("pods", stored.pods)):
            if params.get(key) not in (None, value):
                problems.add(key, f"{fabric.name} has {key} = {value}: leave {key} out to plan the stored fabric")
        merged.update(k=stored.k, pods=stored.pods)
        if isinstance(merged.get("events"), dict):
            merged["events"] = stored.engine_events(merged["events"])
        params = {**params, "events": merged["events"]}
    tree = fat_tree(problems, merged)
    backups = integer(problems, merged["backups"], "backups", 0, MAX_BACKUPS)
    reconfig_ms = number(problems, merged["reconfig_ms"], "reconfig_ms", 0, 1000, low_open=True)
    events = _events(problems, params.get("events"), tree, backups)
    problems.raise_if_any()
    assert tree is not None
    return {"k": tree[0], "pods": tree[1], "backups": backups, "reconfig_ms": reconfig_ms, "events": events}


def _events(problems: Problems, spec: Any, tree: tuple[int, int] | None, backups: int | None) -> dict[str, Any]:
    if spec is None:
        problems.add("events", 'required: {"source": "inline"|"uploaded"|"synthetic", ...}')
        return {}
    if not isinstance(spec, dict):
        problems.add("events", 'must be an object: {"source": "inline"|"uploaded"|"synthetic", ...}')
        return {}
    source = spec.get("source")
    if source == "synthetic":
        unknown_keys(problems, spec, {"source", "length", "seed"}, "events.")
        length = integer(problems, spec.get("length", 20), "events.length", 1, MAX_EVENTS)
        seed = random_seed(problems, spec.get("seed", 0), "events.seed")
        return {"source": "synthetic", "length": length, "seed": seed}
    if source == "inline":
        unknown_keys(problems, spec, {"source", "events"}, "events.")
        return {"source": "inline", "events": _event_list(problems, spec.get("events"), "events.events", tree, backups)}
    if source == "uploaded":
        unknown_keys(problems, spec, {"source", "name", "json", "events"}, "events.")
        name = spec.get("name") or "events.json"
        if not isinstance(name, str) or "\x00" in name:
            problems.add("events.name", "must be a file name")
            name = "events.json"
        if "json" in spec:
            data = _parse_json(problems, spec["json"], "events.json", "events")
            events = [] if data is None else _event_list(problems, data, "events.json", tree, backups)
        elif "events" in spec:  # already parsed (a re-validated job)
            events = _event_list(problems, spec["events"], "events.events", tree, backups)
        else:
            problems.add("events.json", "an uploaded event log needs the file's text")
            events = []
        return {"source": "uploaded", "name": name[:200], "events": events}
    problems.add("events.source", f"must be 'inline', 'uploaded' or 'synthetic', got {source!r}")
    return {}


def _parse_json(problems: Problems, text: Any, field: str, key: str) -> Any:
    """A JSON document's list, bare or under `key`; None (with a problem) when it is not."""
    if not isinstance(text, str):
        problems.add(field, "must be the file's text")
        return None
    if len(text.encode()) > MAX_EVENTS_BYTES:
        problems.add(field, f"is larger than the limit of {MAX_EVENTS_BYTES // (1024 * 1024)} MiB")
        return None
    try:
        data = json.loads(text.removeprefix("\ufeff"))
    except json.JSONDecodeError as exc:
        problems.add(field, f"is not JSON: {exc.msg} (column {exc.colno})", line=exc.lineno)
        return None
    if isinstance(data, dict) and key in data:
        data = data[key]
    if not isinstance(data, list):
        problems.add(field, f"must hold a JSON list (or an object with {key!r})")
        return None
    return data


def _event_list(
    problems: Problems, events: Any, field: str, tree: tuple[int, int] | None, backups: int | None
) -> list[dict[str, Any]]:
    if not isinstance(events, list) or not events:
        problems.add(field, "must be a non-empty list of events")
        return []
    if len(events) > MAX_EVENTS:
        problems.add(field, f"at most {MAX_EVENTS} events, got {len(events)}")
        return []
    cleaned = []
    for i, event in enumerate(events):
        where = f"{field}[{i}]"
        if not isinstance(event, dict):
            problems.add(where, f"event {i}: must be an object with a 'type'")
            continue
        kind = event.get("type")
        if kind not in EVENT_TYPES:
            problems.add(f"{where}.type", f"event {i}: type must be one of {', '.join(EVENT_TYPES)}, got {kind!r}")
            continue
        names = ("a", "b") if kind == "link_down" else ("switch",)
        allowed = {"type", *names, *(("healthy",) if kind == "diagnosis_result" else ())}
        for key in sorted(set(event) - allowed):
            problems.add(f"{where}.{key}", f"event {i}: {kind} has no {key!r} (it takes {', '.join(sorted(allowed))})")
        for name in names:
            problem = switch_name_problem(event.get(name), tree, backups)
            if problem:
                problems.add(f"{where}.{name}", f"event {i}: {name} {problem}")
        if kind == "link_down" and event.get("a") == event.get("b"):
            problems.add(f"{where}.b", f"event {i}: a link joins two different switches")
        if kind == "diagnosis_result" and not isinstance(event.get("healthy"), bool):
            problems.add(f"{where}.healthy", f"event {i}: healthy must be true or false")
        cleaned.append({key: event[key] for key in allowed if key in event})
    return cleaned


def switch_name_problem(name: Any, tree: tuple[int, int] | None, backups: int | None) -> str | None:
    """Why `name` is not a physical switch of the fabric (None when it is, or when k is unknown)."""
    if not isinstance(name, str):
        return f"must be a switch name such as 'agg.p0.m1', got {name!r}"
    match = SWITCH_NAME.fullmatch(name)
    if match is None:
        return f"{name!r} is not a switch name (edge.p<pod>.m<i>, agg.p<pod>.m<i> or core.c<group>.m<i>)"
    if tree is None or backups is None:
        return None
    k, pods = tree
    member = int(match["member"])
    if match["core"] is not None and int(match["core"]) >= k // 2:
        return f"{name!r}: there are {k // 2} core groups (c0..c{k // 2 - 1})"
    if match["pod"] is not None and int(match["pod"]) >= pods:
        return f"{name!r}: there are {pods} pods (p0..p{pods - 1})"
    if member >= k // 2 + backups:
        return f"{name!r}: a group has {k // 2 + backups} members (m0..m{k // 2 + backups - 1})"
    return None


# ---------------------------------------------------------------------------------------------
# A stored fabric as the engine's fat tree


@dataclass(frozen=True)
class StoredFatTree:
    """A stored fabric read as a k-ary fat tree: k, its pods, and each switch's engine name."""

    k: int
    pods: int
    engine_names: dict[str, str]  # stored name -> "edge.p0.m1"

    @property
    def stored_names(self) -> dict[str, str]:
        return {engine: stored for stored, engine in self.engine_names.items()}

    def engine_events(self, spec: dict[str, Any]) -> dict[str, Any]:
        """Events naming stored switches renamed for the engine (engine names pass as they are)."""
        events = spec.get("events")
        if not isinstance(events, list):
            return spec
        renamed = [
            {
                key: self.engine_names.get(value, value) if key in ("switch", "a", "b") else value
                for key, value in e.items()
            }
            if isinstance(e, dict)
            else e
            for e in events
        ]
        return {**spec, "events": renamed}


def stored_fat_tree(fabric: Fabric) -> StoredFatTree:
    """The stored fabric as a k-ary fat tree, or InvalidParams saying in one sentence why it is not.

    ShareBackup needs circuit switches between the layers, three tiers, every pod with k/2 edge
    (tier 0) and k/2 aggregation (tier 1) switches, and (k/2)^2 core switches. Within a pod, switches
    are numbered in name order; core group c holds the cores linked to the c-th aggregation switch
    of the pods (name order when the links do not say)."""
    switches: list[dict[str, Any]] = [
        dict(row)
        for row in Switch.objects.filter(fabric=fabric)
        .order_by("tier", "pod", "name")
        .values("id", "name", "tier", "pod")
    ]
    if not CircuitSwitch.objects.filter(fabric=fabric).exists():
        raise_problems("fabric", f"{fabric.name} has no circuit switches: ShareBackup splices backups in through them")
    tiers = sorted({s["tier"] for s in switches})
    if tiers != [0, 1, 2]:
        raise_problems(
            "fabric",
            f"{fabric.name} is not a k-ary fat tree: it has {len(tiers)} tiers, a fat tree has 3 (edge, aggregation, core)",
        )
    layers: dict[str, dict[int, list[dict[str, Any]]]] = {"edge": {}, "agg": {}}
    for switch in switches:
        if switch["tier"] < 2:
            if switch["pod"] is None:
                raise_problems("fabric", f"{fabric.name} is not a k-ary fat tree: {switch['name']} has no pod")
            layers["edge" if switch["tier"] == 0 else "agg"].setdefault(switch["pod"], []).append(switch)
    cores = [s for s in switches if s["tier"] == 2]
    pods = sorted(set(layers["edge"]) | set(layers["agg"]))
    first = pods[0]
    half = len(layers["edge"].get(first, []))
    for pod in pods:
        edges, aggs = len(layers["edge"].get(pod, [])), len(layers["agg"].get(pod, []))
        if edges != aggs:
            why = f"pod {pod} has {edges} edge and {aggs} aggregation switches (a fat tree's pod has k/2 of each)"
        elif edges != half:
            why = f"pod {pod} has {edges} edge switches, pod {first} has {half}"
        else:
            continue
        raise_problems("fabric", f"{fabric.name} is not a k-ary fat tree: {why}")
    if half < 1 or len(pods) > 2 * half or len(cores) != half * half:
        raise_problems(
            "fabric",
            f"{fabric.name} is not a k-ary fat tree: {len(pods)} pods of {half} edge and aggregation switches need "
            f"at most {2 * half} pods and {half * half} core switches; it has {len(cores)} core switches",
        )
    names: dict[str, str] = {}
    for layer in ("edge", "agg"):
        for p, pod in enumerate(pods):
            for m, switch in enumerate(layers[layer][pod]):
                names[switch["name"]] = f"{layer}.p{p}.m{m}"
    agg_index = {s["id"]: m for pod in pods for m, s in enumerate(layers["agg"][pod])}
    core_ids = {s["id"] for s in cores}
    seen: dict[int, set[int]] = {}
    for a, z in Link.objects.filter(fabric=fabric).values_list("a_switch_id", "z_switch_id"):
        for core, agg in ((a, z), (z, a)):
            if core in core_ids and agg in agg_index:
                seen.setdefault(core, set()).add(agg_index[agg])
    groups = [next(iter(seen[s["id"]])) if len(seen.get(s["id"], ())) == 1 else i // half for i, s in enumerate(cores)]
    if any(groups.count(c) != half for c in range(half)):
        groups = [i // half for i in range(len(cores))]  # the links do not group them evenly: name order
    members: dict[int, int] = {}
    for switch, group in zip(cores, groups, strict=True):
        names[switch["name"]] = f"core.c{group}.m{members.setdefault(group, 0)}"
        members[group] += 1
    return StoredFatTree(k=2 * half, pods=len(pods), engine_names=names)


# ---------------------------------------------------------------------------------------------
# sharebackup.plan: running


class EventLogRejected(Exception):
    """The engine refused the log (a state-dependent problem such as a link that does not exist)."""

    def __init__(self, message: str):
        super().__init__(message)
        match = re.match(r"event (\d+):", message)
        field = f"events[{match[1]}]" if match else "events"
        self.errors = [{"section": "params", "field": field, "message": message}]


def plan(
    params: dict[str, Any], progress: Callable[[float, str], None] | None = None, fabric: Fabric | None = None
) -> dict[str, Any]:
    """The engine's schedule of the (validated) params, with inputs, groups, matchings and verdict;
    of a stored fabric, also `stored_names`: each engine name's stored switch."""
    k, pods, backups = params["k"], params["pods"], params["backups"]
    spec = params["events"]
    if spec["source"] == "synthetic":
        events = lightpath_engine.sharebackup_synthetic_log(k, pods, backups, spec["length"], spec["seed"])
    else:
        events = spec["events"]
    if progress:
        progress(0.05, f"planning {len(events)} event(s)")
    try:
        schedule = lightpath_engine.sharebackup_plan(k, pods, backups, events, params["reconfig_ms"])
    except ValueError as exc:
        raise EventLogRejected(str(exc)) from exc
    if progress:
        progress(0.9, "recording the matchings")
    add_matchings(schedule)
    size = len(json.dumps(schedule))
    if size > MAX_RESULT_BYTES:
        raise EventLogRejected(
            f"the plan of {len(events)} events is {size / 1e6:.0f} MB, above the limit of "
            f"{MAX_RESULT_BYTES // (1024 * 1024)} MiB: plan a shorter log (or fewer pods)"
        )
    echo = {key: value for key, value in spec.items() if key != "events"}
    schedule["inputs"] = {
        "k": k,
        "pods": pods,
        "backups": backups,
        "reconfig_ms": params["reconfig_ms"],
        "events": {**echo, "count": len(events)},
    }
    schedule["inputs"]["fabric"] = None if fabric is None else {"id": fabric.pk, "name": fabric.name}
    schedule["stored_names"] = None if fabric is None else stored_fat_tree(fabric).stored_names
    schedule["groups"] = failure_groups(k, pods, backups)
    schedule["verdict"] = {
        "sound": not schedule["violations"],
        "violations": len(schedule["violations"]),
        "checked_events": len(schedule["events"]),
    }
    return schedule


def failure_groups(k: int, pods: int, backups: int) -> list[dict[str, Any]]:
    """The groups at the start in the engine's order: member i holds slot i, the rest are spares."""
    half = k // 2
    names = [(f"edge.p{p}", "edge") for p in range(pods)]
    names += [(f"agg.p{p}", "agg") for p in range(pods)]
    names += [(f"core.c{c}", "core") for c in range(half)]
    return [
        {
            "group": group,
            "layer": layer,
            "slots": [{"slot": f"{group}.s{i}", "switch": f"{group}.m{i}"} for i in range(half)],
            "spares": [f"{group}.m{i}" for i in range(half, half + backups)],
        }
        for group, layer in names
    ]


def add_matchings(schedule: dict[str, Any]) -> None:
    """Per event, the full configuration of each circuit switch it changed, before and after."""
    config = {cs["circuit_switch"]: {tuple(pair) for pair in cs["circuits"]} for cs in schedule["initial_circuits"]}
    for event in schedule["events"]:
        matchings = []
        for change in event["circuit_changes"]:
            circuits = config[change["circuit_switch"]]
            before = sorted(circuits)
            circuits.difference_update(tuple(pair) for pair in change["removed"])
            circuits.update(tuple(pair) for pair in change["added"])
            matchings.append(
                {
                    "circuit_switch": change["circuit_switch"],
                    "before": [list(pair) for pair in before],
                    "after": [list(pair) for pair in sorted(circuits)],
                }
            )
        event["matchings"] = matchings


def event_rows(result: dict[str, Any]) -> Iterable[Sequence[Any]]:
    for step in result["events"]:
        event = step["event"]
        yield (
            step["index"],
            event["type"],
            event.get("switch", ""),
            event.get("a", ""),
            event.get("b", ""),
            "" if "healthy" not in event else str(event["healthy"]).lower(),
            step["status"],
            len(step["replace_calls"]),
            sum(len(change["added"]) for change in step["circuit_changes"]),
            ";".join(step["degraded_groups"]),
            ";".join(fallback["slot"] for fallback in step["fallback"]),
            ";".join(test["suspect"] for test in step["diagnosis_tests"]),
            ";".join(step["repair_tickets"]),
            step["latency_ms"],
        )


def replace_call_rows(result: dict[str, Any]) -> Iterable[Sequence[Any]]:
    for step in result["events"]:
        for order, call in enumerate(step["replace_calls"]):
            yield (
                step["index"],
                order,
                call["circuit_switch"],
                call["side"],
                call["failed_port"],
                call["backup_port"],
                call["peer_port"],
                call["failed_switch"],
                call["backup_switch"],
            )


# ---------------------------------------------------------------------------------------------
# Backup-pool sizing (POST /api/sharebackup/size/)

SIZE_DEFAULTS: dict[str, Any] = {
    "k": 16,
    "pods": None,
    "target": 1e-6,
    "mtbf_hours": None,
    "mttr_hours": None,
    "fabric": None,
    "window_days": 365,
    "monte_carlo": {"seed": 0, "horizon_hours": 1e7},
}


def validate_size_params(params: Any) -> dict[str, Any]:
    problems = Problems()
    if not isinstance(params, dict):
        problems.add("", "the request must be a JSON object")
        problems.raise_if_any()
    unknown_keys(problems, params, set(SIZE_DEFAULTS))
    merged = {**SIZE_DEFAULTS, **params}
    tree = fat_tree(problems, merged)
    cleaned: dict[str, Any] = {
        "target": number(problems, merged["target"], "target", 0, 1, low_open=True),
        "window_days": integer(problems, merged["window_days"], "window_days", 1, 3650),
        "mtbf_hours": None,
        "mttr_hours": None,
        "fabric": None,
    }
    if cleaned["target"] == 1.0:
        problems.add("target", "must be below 1 (a target of 1 needs no backups)")
    for key, low, high in (("mtbf_hours", 1.0, 1e9), ("mttr_hours", 0.01, 1e6)):
        if merged[key] is not None:
            cleaned[key] = number(problems, merged[key], key, low, high, low_open=False)
    fabric_id = merged["fabric"]
    if fabric_id is not None:
        if not is_int(fabric_id) or not Fabric.objects.filter(pk=fabric_id).exists():
            problems.add("fabric", f"no fabric with id {fabric_id!r}")
        else:
            cleaned["fabric"] = fabric_id
    elif merged["mtbf_hours"] is None or merged["mttr_hours"] is None:
        for key in ("mtbf_hours", "mttr_hours"):
            if merged[key] is None:
                problems.add(key, "required unless a fabric with repair tickets is given")
    carlo = merged["monte_carlo"]
    if carlo is None:
        cleaned["monte_carlo"] = None
    elif not isinstance(carlo, dict):
        problems.add("monte_carlo", 'must be {"seed": int, "horizon_hours": number} or null')
    else:
        unknown_keys(problems, carlo, {"seed", "horizon_hours"}, "monte_carlo.")
        carlo = {**SIZE_DEFAULTS["monte_carlo"], **carlo}
        cleaned["monte_carlo"] = {
            "seed": random_seed(problems, carlo["seed"], "monte_carlo.seed"),
            "horizon_hours": number(
                problems, carlo["horizon_hours"], "monte_carlo.horizon_hours", MONTE_CARLO_BATCHES, 1e9, low_open=False
            ),
        }
    problems.raise_if_any()
    assert tree is not None
    cleaned["k"], cleaned["pods"] = tree
    return cleaned


# Switch pools back up switches: only a repair that replaced a switch's shared part (line card or
# switch; a breakout cable is a cable) is a switch failure. Links repaired by a cable, a transceiver
# or cleaning were link failures, which ShareBackup's diagnosis returns to the pool within a second.
SWITCH_REPAIR = "replace_shared_component"
BREAKOUT_RULE = "shared_component.breakout"
# Tickets of one failed part: links of a shared switch repaired this close together.
SAME_FAILURE = timedelta(hours=1)


def ticket_reliability(fabric_id: int, window_days: int) -> dict[str, Any]:
    """MTBF and MTTR of a fabric's switches from its repair tickets over the window ending now.

    A failure is a switch-part replacement (SWITCH_REPAIR) recorded in the window; the tickets of
    links on one switch repaired within SAME_FAILURE of each other are one failure. MTBF =
    switches x window hours / failures. The repair time of a failure runs from the action that took
    its first link out of service (the ticket's opening) to the link's return to service (the
    validation's start), not to the ticket's resolution 24 h of validation later. Both are None when
    the window holds no such failure.
    """
    since = timezone.now() - timedelta(days=window_days)
    switches = Switch.objects.filter(fabric_id=fabric_id).count()
    steps = (
        TicketStep.objects.filter(
            ticket__fabric_id=fabric_id, action_taken=SWITCH_REPAIR, acted_at__gte=since, acted_at__isnull=False
        )
        .exclude(rule=BREAKOUT_RULE)
        .select_related("ticket__link")
        .order_by("acted_at", "id")
    )
    failures: list[dict[str, Any]] = []
    switch_tickets: set[int] = set()
    for step in steps:
        ticket, link = step.ticket, step.ticket.link
        switch_tickets.add(ticket.pk)
        ends = {link.a_switch_id, link.z_switch_id}
        same = next((f for f in failures if f["ends"] & ends and step.acted_at - f["acted_at"] <= SAME_FAILURE), None)
        if same is None:
            same = {"ends": set(), "acted_at": step.acted_at, "out": ticket.created, "back": None}
            failures.append(same)
        same["ends"] |= ends
        same["out"] = min(same["out"], ticket.created)
        if ticket.validation_started_at is not None:
            same["back"] = max(filter(None, (same["back"], ticket.validation_started_at)))
    repairs = [(f["back"] - f["out"]).total_seconds() / 3600.0 for f in failures if f["back"] is not None]
    mtbf = switches * window_days * 24.0 / len(failures) if failures and switches else None
    mttr = sum(repairs) / len(repairs) if repairs and sum(repairs) > 0 else None
    other = Ticket.objects.filter(fabric_id=fabric_id, created__gte=since).exclude(pk__in=switch_tickets).count()
    return {
        "switches": switches,
        "failures": len(failures),
        "repairs": len(repairs),
        "switch_tickets": len(switch_tickets),
        "other_tickets": other,
        "mtbf_hours": mtbf,
        "mttr_hours": mttr,
    }


def size(params: dict[str, Any]) -> dict[str, Any]:
    """Smallest backups per group for the target, with the reliability used and a Monte Carlo check."""
    k, pods = params["k"], params["pods"]
    reliability: dict[str, Any] = {
        "source": "given",
        "mtbf_hours": params["mtbf_hours"],
        "mttr_hours": params["mttr_hours"],
        "switches": 0,
        "failures": 0,
        "repairs": 0,
        "window_days": params["window_days"],
        "note": "the given MTBF and MTTR",
    }
    if params["fabric"] is not None:
        history = ticket_reliability(params["fabric"], params["window_days"])
        reliability.update(switches=history["switches"], failures=history["failures"], repairs=history["repairs"])
        if history["mtbf_hours"] is not None and history["mttr_hours"] is not None:
            reliability.update(
                source="tickets",
                mtbf_hours=history["mtbf_hours"],
                mttr_hours=history["mttr_hours"],
                note=f"{_failures(history)} in the last {params['window_days']} days over "
                f"{history['switches']} switches, {history['repairs']} back in service; "
                f"{_others(history)}",
            )
        elif params["mtbf_hours"] is None or params["mttr_hours"] is None:
            raise_problems(
                "mtbf_hours",
                f"fabric {params['fabric']} has no switch failure repaired and back in service in the last "
                f"{params['window_days']} days (a switch failure is a ticket fixed by replacing a line card "
                f"or switch; {_others(history)}): give mtbf_hours and mttr_hours",
            )
        else:
            reliability["note"] = (
                f"the given MTBF and MTTR: the fabric has {_failures(history)} in the last "
                f"{params['window_days']} days, {history['repairs']} back in service, not enough to estimate both; "
                f"{_others(history)}"
            )
    half, groups = k // 2, 2 * pods + k // 2
    try:
        sizing = lightpath_engine.sharebackup_size(
            half, groups, reliability["mtbf_hours"], reliability["mttr_hours"], params["target"]
        )
    except ValueError as exc:
        raise_problems("", str(exc))
    carlo = params["monte_carlo"]
    monte_carlo = None
    if carlo is not None:
        # Bound the simulated up/down transitions over all runs (about 10 million per second): a short
        # MTBF with a long horizon, or a long curve, would otherwise keep the request busy for minutes.
        cycle = reliability["mtbf_hours"] + reliability["mttr_hours"]
        runs = len(sizing["curve"])
        horizon = min(carlo["horizon_hours"], MAX_SIMULATED_TRANSITIONS * cycle / (2 * half * runs))
        # A whole number of hours per batch: the engine splits the horizon into 32 batches, and
        # with a fractional batch length a boundary can round onto itself and the simulation
        # never ends (lightpath_core::reconfig::pool::monte_carlo_exhaustion, found at k = 64,
        # MTBF 10 h). Whole batches keep every boundary exact.
        horizon = max(MONTE_CARLO_BATCHES, MONTE_CARLO_BATCHES * math.floor(horizon / MONTE_CARLO_BATCHES))
        points = []
        for point in sizing["curve"]:
            estimate, error = lightpath_engine.sharebackup_monte_carlo(
                half, reliability["mtbf_hours"], reliability["mttr_hours"], point["backups"], horizon, carlo["seed"]
            )
            points.append(
                {
                    "backups": point["backups"],
                    "p_group": point["p_group"],
                    "estimate": estimate,
                    "standard_error": error,
                    # None: the run never saw the group run out, too rare to check at this horizon.
                    "within_4_se": None if error == 0 else abs(estimate - point["p_group"]) <= 4 * error,
                }
            )
        monte_carlo = {
            "seed": carlo["seed"],
            "horizon_hours": horizon,
            "horizon_capped": horizon < carlo["horizon_hours"] - MONTE_CARLO_BATCHES,
            "backups": sizing["backups"],
            "points": points,
        }
    return {
        "inputs": {**params},
        "reliability": reliability,
        "sizing": sizing,
        "monte_carlo": monte_carlo,
    }


def _failures(history: dict[str, Any]) -> str:
    count, tickets = history["failures"], history["switch_tickets"]
    return f"{count} switch failure{'s' if count != 1 else ''} ({tickets} ticket{'s' if tickets != 1 else ''})"


def _others(history: dict[str, Any]) -> str:
    count = history["other_tickets"]
    return f"{count} other repair ticket{'s' if count != 1 else ''} (links, cables, optics) not counted"


def raise_problems(field: str, message: str) -> None:
    problems = Problems()
    problems.add(field, message)
    problems.raise_if_any()
