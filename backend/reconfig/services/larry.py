"""Larry in the server: rack sets, the feasibility check, the `larry.run` job and its tables.

A rack set is a document (uploaded or typed, cables out of service listed in its `excluded`) or a
reference {"fabric", "circuit_switches"} to a stored fabric's circuit switches, built by
rack_sets.py so that cables whose links are disabled, down or ticketed are excluded. Counters are uploaded (CSV or JSON) or read from the job's fabric's telemetry: then the
rack set's `racks` name ToR switches of that fabric, and each rack's traffic is the packet counters
of its ToR's uplink ends (see `telemetry_samples`).
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Callable, Iterable, Sequence
from datetime import timedelta
from typing import Any

from django.db.models import Max, Min
from django.utils.dateparse import parse_datetime

import lightpath_engine
from fabric.models import Fabric, Link, Switch
from lightpath.problems import Problems, integer, is_int, is_number, number, unknown_keys
from telemetry.models import Sample

from . import rack_sets
from .sharebackup import _parse_json

POLICIES = ("conservative", "static", "one_big_switch", "proportional")
MAX_RACKS = 128
MAX_CIRCUIT_SWITCHES = 128
MAX_CABLES_PER_PAIR = 64
MAX_PORTS = 1024
MAX_SAMPLES = 200_000
MAX_RACK_SAMPLES = 1_000_000  # racks x samples: bounds a run's time (four policies) and memory
MAX_COUNTERS_BYTES = 48 * 1024 * 1024
MAX_POINTS = 500
MAX_CHANGES = 2000
MAX_MOVES = 100_000
COUNTER_LIMIT = 2**64 - 1
CSV_HEADER = ("time_s", "rack", "ingress_bytes", "egress_bytes")
RACK_SET_KEYS = {"static_uplinks", "cables", "cs_uplinks", "capacity_gbps", "excluded", "racks"}
RUN_DEFAULTS: dict[str, Any] = {"period_s": None, "threshold": 0.85, "policy": "conservative"}
RUN_KEYS = {"rack_set", "rack_set_source", "counters", *RUN_DEFAULTS}
TELEMETRY_DEFAULTS: dict[str, Any] = {"bytes_per_packet": 1500.0}
TELEMETRY_PERIOD_S = 900.0  # the counters' poll interval in the seed's fleet (docs/telemetry.md)
MAX_TELEMETRY_DAYS = 31
UPLINKS_HEADER = ("time_s", "rack", "uplinks", "demand_gbps")
CHANGES_HEADER = ("step", "time_s", "cs", "uplink", "from_rack", "from_port", "to_rack", "to_port")


# ---------------------------------------------------------------------------------------------
# Rack sets


def clean_rack_set(problems: Problems, rack_set: Any, field: str = "rack_set") -> dict[str, Any] | None:
    """The rack set checked (every problem listed) with its defaults; None when unusable."""
    if not isinstance(rack_set, dict):
        problems.add(field, "must be an object: static_uplinks, cables, cs_uplinks, capacity_gbps[, excluded, racks]")
        return None
    before = len(problems)
    unknown_keys(problems, rack_set, RACK_SET_KEYS, f"{field}.")
    static = integer(problems, rack_set.get("static_uplinks"), f"{field}.static_uplinks", 0, MAX_PORTS)
    capacity = number(problems, rack_set.get("capacity_gbps"), f"{field}.capacity_gbps", 0, 1e5, low_open=True)
    cables = rack_set.get("cables")
    racks = switches = 0
    if not isinstance(cables, list) or not cables or not all(isinstance(row, list) for row in cables):
        problems.add(f"{field}.cables", "must be a non-empty list of rows, cables[tor][cs]")
        cables = None
    else:
        racks, switches = len(cables), len(cables[0])
        if racks > MAX_RACKS:
            problems.add(f"{field}.cables", f"at most {MAX_RACKS} racks (rows), got {racks}")
        if not 1 <= switches <= MAX_CIRCUIT_SWITCHES:
            problems.add(f"{field}.cables", f"rows must have 1 to {MAX_CIRCUIT_SWITCHES} circuit switches")
        for t, row in enumerate(cables):
            if len(row) != switches:
                problems.add(f"{field}.cables[{t}]", f"has {len(row)} entries, row 0 has {switches}")
                continue
            for c, count in enumerate(row):
                if not is_int(count) or not 0 <= count <= MAX_CABLES_PER_PAIR:
                    problems.add(f"{field}.cables[{t}][{c}]", f"must be a cable count in [0, {MAX_CABLES_PER_PAIR}]")
    cs_uplinks = rack_set.get("cs_uplinks")
    if not isinstance(cs_uplinks, list):
        problems.add(f"{field}.cs_uplinks", "must be a list, one uplink count per circuit switch")
    else:
        if cables is not None and len(cs_uplinks) != switches:
            problems.add(f"{field}.cs_uplinks", f"has {len(cs_uplinks)} entries for {switches} circuit switches")
        for c, count in enumerate(cs_uplinks):
            if not is_int(count) or not 0 <= count <= MAX_PORTS:
                problems.add(f"{field}.cs_uplinks[{c}]", f"must be a whole number in [0, {MAX_PORTS}]")
    excluded = rack_set.get("excluded", [])
    if not isinstance(excluded, list):
        problems.add(f"{field}.excluded", "must be a list of [tor, cs] pairs")
        excluded = []
    taken: dict[tuple[int, int], int] = {}
    for i, pair in enumerate(excluded):
        if not (isinstance(pair, list) and len(pair) == 2 and all(is_int(x) for x in pair)):
            problems.add(f"{field}.excluded[{i}]", "must be a [tor, cs] pair of indices")
            continue
        if cables is None:
            continue
        t, c = pair
        if not (0 <= t < racks and 0 <= c < switches):
            problems.add(f"{field}.excluded[{i}]", f"[{t}, {c}] is outside the {racks} x {switches} cable matrix")
            continue
        taken[(t, c)] = taken.get((t, c), 0) + 1
        available = cables[t][c] if is_int(cables[t][c]) else 0
        if taken[(t, c)] > available:
            problems.add(f"{field}.excluded[{i}]", f"excludes more cables of ToR {t} to CS {c} than its {available}")
    names = rack_set.get("racks")
    if names is None:
        names = [f"rack {t}" for t in range(racks)]
    elif not isinstance(names, list) or not all(isinstance(n, str) and n.strip() and "\x00" not in n for n in names):
        problems.add(f"{field}.racks", "must be a list of rack names")
    elif cables is not None and len(names) != racks:
        problems.add(f"{field}.racks", f"names {len(names)} racks, the cable matrix has {racks}")
    elif len(set(names)) != len(names):
        problems.add(f"{field}.racks", "names must be distinct")
    if len(problems) > before:
        return None
    return {
        "static_uplinks": static,
        "cables": cables,
        "cs_uplinks": cs_uplinks,
        "capacity_gbps": capacity,
        "excluded": excluded,
        "racks": names,
    }


def rack_set_of(problems: Problems, value: Any, field: str = "rack_set") -> tuple[dict | None, dict | None]:
    """The rack set of a request: the inline document checked, or a stored fabric's built (with
    what it was built from: switch names and the excluded cables' reasons)."""
    if rack_sets.is_reference(value):
        document, source = rack_sets.resolve(problems, value, field)
        if document is not None:  # built within the limits the engine's inputs have
            document = clean_rack_set(problems, document, field)
        return document, source if document is not None else None
    return clean_rack_set(problems, value, field), None


def engine_rack_set(rack_set: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in rack_set.items() if key != "racks"}


# ---------------------------------------------------------------------------------------------
# POST /api/larry/check/


def validate_check(params: Any) -> dict[str, Any]:
    problems = Problems()
    if not isinstance(params, dict):
        problems.add("", "the request must be a JSON object: {rack_set, uplinks}")
        problems.raise_if_any()
    unknown_keys(problems, params, {"rack_set", "uplinks"})
    rack_set, source = rack_set_of(problems, params.get("rack_set"))
    uplinks = params.get("uplinks")
    if not isinstance(uplinks, list) or not uplinks:
        problems.add("uplinks", "must be a list of circuit uplinks per rack, e.g. [3, 3, 2, 0]")
    else:
        if rack_set is not None and len(uplinks) != len(rack_set["cables"]):
            problems.add("uplinks", f"has {len(uplinks)} entries for {len(rack_set['cables'])} racks")
        for t, count in enumerate(uplinks):
            if not is_int(count) or not 0 <= count <= MAX_PORTS:
                problems.add(f"uplinks[{t}]", f"must be a whole number in [0, {MAX_PORTS}], got {count!r}")
    problems.raise_if_any()
    assert rack_set is not None
    checked = {"rack_set": rack_set, "uplinks": uplinks}
    if source is not None:
        checked["rack_set_source"] = source
    return checked


def check(params: dict[str, Any]) -> dict[str, Any]:
    """Whether the request fits the cabling (integral max flow), or its min cut, with the numbers
    that tell the whole request from the cut's racks (see labelled_totals)."""
    answer = lightpath_engine.larry_check(engine_rack_set(params["rack_set"]), params["uplinks"])
    return {"inputs": params, **labelled_totals(answer)}


def labelled_totals(answer: dict[str, Any]) -> dict[str, Any]:
    """The engine's answer plus `total_requested` and `total_granted` (the max flow: what the whole
    request can get) and, on a min cut, `racks_requested` and `racks_reach`: what the racks on the
    cut's source side ask for and the most their cables can reach, the two numbers of its
    `explanation`. The cut's `capacity` is the whole request's max flow, so it counts the requests
    of the racks outside the cut as well: reach = capacity - those requests."""
    requested = answer["requested"]
    labelled = {**answer, "total_requested": sum(requested), "total_granted": sum(answer["granted"])}
    cut = answer["min_cut"]
    if cut is not None:
        inside = set(cut["racks"])
        outside = sum(count for rack, count in enumerate(requested) if rack not in inside)
        labelled["min_cut"] = {
            **cut,
            "racks_requested": sum(requested[rack] for rack in inside),
            "racks_reach": cut["capacity"] - outside,
        }
    return labelled


# ---------------------------------------------------------------------------------------------
# larry.run: params


def validate_run_params(params: Any, fabric: Fabric | None = None) -> dict[str, Any]:
    """The job's params checked and completed; uploaded counters are parsed here into `samples`.
    Accepts its own output (a retried or re-validated job). Only telemetry counters use the fabric."""
    problems = Problems()
    if not isinstance(params, dict):
        problems.add("", "params must be an object")
        problems.raise_if_any()
    unknown_keys(problems, params, RUN_KEYS)
    merged = {**RUN_DEFAULTS, **params}
    rack_set, source = rack_set_of(problems, params.get("rack_set"))
    if source is not None and fabric is not None and source["fabric"]["id"] != fabric.pk:
        problems.add("rack_set.fabric", f"must be the job's fabric {fabric.name!r} (id {fabric.pk})")
    if source is None and "rack_set_source" in params:
        # a re-validated job: its rack set was built from the fabric when it was submitted
        source = params["rack_set_source"]
        if not isinstance(source, dict):
            problems.add("rack_set_source", "must be the object the server built the rack set from")
    period = None
    if merged["period_s"] is not None:
        period = number(problems, merged["period_s"], "period_s", 0, 86400, low_open=True)
    threshold = number(problems, merged["threshold"], "threshold", 0, 1, low_open=True)
    if merged["policy"] not in POLICIES:
        problems.add("policy", f"must be one of {', '.join(POLICIES)}, got {merged['policy']!r}")
    counters = _counters(problems, params.get("counters"), rack_set, fabric)
    if counters.get("source") == "telemetry" and period is None:
        period = TELEMETRY_PERIOD_S
    problems.raise_if_any()
    checked = {
        "rack_set": rack_set,
        "counters": counters,
        "period_s": period,
        "threshold": threshold,
        "policy": merged["policy"],
    }
    if source is not None:
        checked["rack_set_source"] = source
    return checked


def _counters(problems: Problems, spec: Any, rack_set: dict[str, Any] | None, fabric: Fabric | None) -> dict[str, Any]:
    if not isinstance(spec, dict):
        problems.add(
            "counters", 'must be an object: {"source": "uploaded"|"inline"|"telemetry", ...} (see docs/reconfig.md)'
        )
        return {}
    racks = None if rack_set is None else rack_set["racks"]
    source = spec.get("source")
    if source == "telemetry":
        return _telemetry_spec(problems, spec, rack_set, fabric)
    if source == "inline":
        unknown_keys(problems, spec, {"source", "samples"}, "counters.")
        return {"source": "inline", "samples": _check_samples(problems, spec.get("samples"), "counters.samples", racks)}
    if source != "uploaded":
        problems.add("counters.source", f"must be 'uploaded', 'inline' or 'telemetry', got {source!r}")
        return {}
    unknown_keys(problems, spec, {"source", "name", "csv", "json", "samples"}, "counters.")
    name = spec.get("name") or "counters"
    if not isinstance(name, str) or "\x00" in name:
        problems.add("counters.name", "must be a file name")
        name = "counters"
    if "csv" in spec:
        samples = _parse_csv(problems, spec["csv"], racks)
    elif "json" in spec:
        data = _parse_json(problems, spec["json"], "counters.json", "samples")
        samples = [] if data is None else _check_samples(problems, data, "counters.json", racks)
    elif "samples" in spec:
        samples = _check_samples(problems, spec["samples"], "counters.samples", racks)
    else:
        problems.add("counters.csv", "uploaded counters need the file's text (csv or json)")
        samples = []
    return {"source": "uploaded", "name": name[:200], "samples": samples}


def _sample_count_problem(count: int, racks: int) -> str | None:
    if count < 2:
        return f"needs at least 2 samples (one period), got {count}"
    if count > MAX_SAMPLES:
        return f"at most {MAX_SAMPLES} samples, got {count}"
    if count * racks > MAX_RACK_SAMPLES:
        return f"racks x samples must be at most {MAX_RACK_SAMPLES:,}, got {racks} x {count}"
    return None


def _check_samples(problems: Problems, samples: Any, field: str, racks: list[str] | None) -> list[dict[str, Any]]:
    """Engine-format samples [{time_s, ingress_bytes: [m], egress_bytes: [m]}], each problem by index."""
    if not isinstance(samples, list):
        problems.add(field, "must be a list of {time_s, ingress_bytes, egress_bytes}")
        return []
    m = None if racks is None else len(racks)
    problem = _sample_count_problem(len(samples), m or 1)
    if problem:
        problems.add(field, problem)
        return []
    previous = -math.inf
    for i, sample in enumerate(samples):
        where = f"{field}[{i}]"
        if not isinstance(sample, dict):
            problems.add(where, f"sample {i}: must be an object")
            continue
        for key in sorted(set(sample) - {"time_s", "ingress_bytes", "egress_bytes"}):
            problems.add(f"{where}.{key}", f"sample {i}: unknown key {key!r}")
        time_s: Any = sample.get("time_s")
        if not is_number(time_s) or time_s < 0:
            problems.add(f"{where}.time_s", f"sample {i}: time_s must be a number of seconds >= 0")
        elif time_s <= previous:
            problems.add(f"{where}.time_s", f"sample {i}: time {time_s:g} s is not after the previous {previous:g} s")
        else:
            previous = time_s
        for key in ("ingress_bytes", "egress_bytes"):
            values = sample.get(key)
            if not isinstance(values, list) or (m is not None and len(values) != m):
                problems.add(f"{where}.{key}", f"sample {i}: {key} must list one counter per rack ({m})")
            elif not all(is_int(v) and 0 <= v <= COUNTER_LIMIT for v in values):
                problems.add(f"{where}.{key}", f"sample {i}: {key} must be whole byte counts in [0, 2^64)")
    return samples


def _parse_csv(problems: Problems, text: Any, racks: list[str] | None) -> list[dict[str, Any]]:
    """CSV time_s,rack,ingress_bytes,egress_bytes: one row per rack per time, times increasing."""
    field = "counters.csv"
    if not isinstance(text, str):
        problems.add(field, "must be the CSV file's text")
        return []
    if len(text.encode()) > MAX_COUNTERS_BYTES:
        problems.add(field, f"is larger than the limit of {MAX_COUNTERS_BYTES // (1024 * 1024)} MiB")
        return []
    rows = csv.reader(io.StringIO(text.removeprefix("\ufeff")))
    header = next(rows, None)
    expected = ",".join(CSV_HEADER)
    if header is None or tuple(cell.strip().lower() for cell in header) != CSV_HEADER:
        problems.add(field, f"expected the header {expected}, got {','.join(header or [])!r}", line=1)
        return []
    if racks is None:  # the rack set is invalid: rack names and counts cannot be checked
        return []
    index = {name: t for t, name in enumerate(racks)}
    m = len(racks)
    samples: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    seen: dict[int, int] = {}  # rack -> line, in the current time
    start_line = 0

    def close() -> None:
        if current is None:
            return
        missing = [racks[t] for t in range(m) if t not in seen]
        if missing:
            problems.add(
                field, f"time {current['time_s']:g} s lists no row for {', '.join(missing[:5])}", line=start_line
            )
        samples.append(current)

    try:
        for row in rows:
            line = rows.line_num
            if not row or all(not cell.strip() for cell in row):
                continue
            if len(row) != len(CSV_HEADER):
                problems.add(field, f"expected 4 fields ({expected}), got {len(row)}", line=line)
                continue
            time_text, rack_text, ingress_text, egress_text = (cell.strip() for cell in row)
            try:
                time_s = float(time_text)
                if not (math.isfinite(time_s) and time_s >= 0):
                    raise ValueError
            except ValueError:
                problems.add(field, f"time {time_text!r} is not a number of seconds >= 0", line=line)
                continue
            rack = index.get(rack_text)
            if rack is None and rack_text.isdigit() and int(rack_text) < m:
                rack = int(rack_text)
            if rack is None:
                problems.add(
                    field, f"unknown rack {rack_text!r} (an index 0..{m - 1} or a name of rack_set.racks)", line=line
                )
                continue
            counts = []
            for label, value in (("ingress_bytes", ingress_text), ("egress_bytes", egress_text)):
                if not value.isdigit() or int(value) > COUNTER_LIMIT:
                    problems.add(field, f"{label} {value!r} is not a whole byte count in [0, 2^64)", line=line)
                else:
                    counts.append(int(value))
            if current is None or time_s != current["time_s"]:
                if current is not None and time_s < current["time_s"]:
                    problems.add(
                        field,
                        f"time {time_text} s is before {current['time_s']:g} s (rows must be sorted by time)",
                        line=line,
                    )
                    continue
                close()
                if len(samples) >= MAX_SAMPLES:
                    problems.add(field, f"more than {MAX_SAMPLES} sample times", line=line)
                    current = None
                    break
                current = {"time_s": time_s, "ingress_bytes": [0] * m, "egress_bytes": [0] * m}
                seen, start_line = {}, line
            if rack in seen:
                problems.add(
                    field, f"rack {racks[rack]} is listed twice at {time_s:g} s (line {seen[rack]})", line=line
                )
                continue
            seen[rack] = line
            if len(counts) == 2:
                current["ingress_bytes"][rack], current["egress_bytes"][rack] = counts
        close()
    except csv.Error as exc:
        problems.add(field, str(exc), line=rows.line_num)
    problem = _sample_count_problem(len(samples), m)
    if problem:
        problems.add(field, problem)
    return samples


def _telemetry_spec(
    problems: Problems, spec: dict[str, Any], rack_set: dict[str, Any] | None, fabric: Fabric | None
) -> dict[str, Any]:
    """Counters from the job's fabric: a window [from, to] and the bytes a packet stands for."""
    unknown_keys(problems, spec, {"source", "from", "to", "bytes_per_packet"}, "counters.")
    merged = {**TELEMETRY_DEFAULTS, **spec}
    said = len(problems)
    if (merged.get("from") is None or merged.get("to") is None) and fabric is not None and rack_set is not None:
        merged.update(_counters_range(problems, fabric, rack_set["racks"], merged.get("from"), merged.get("to")))
    no_counters = len(problems) > said  # already said why a missing bound cannot be filled
    bounds = {}
    for key in ("from", "to"):
        text = merged.get(key)
        if text is None and no_counters:
            continue
        try:
            moment = parse_datetime(text) if isinstance(text, str) else None
        except ValueError:  # well formed but not a date, such as month 13
            moment = None
        if moment is None or moment.tzinfo is None:
            problems.add(f"counters.{key}", f"must be an ISO 8601 time with its offset, got {text!r}")
        else:
            bounds[key] = moment
    if len(bounds) == 2:
        span = (bounds["to"] - bounds["from"]).total_seconds()
        if not 0 < span <= MAX_TELEMETRY_DAYS * 86400:
            problems.add("counters.to", f"must be after counters.from, by at most {MAX_TELEMETRY_DAYS} days")
    size = number(problems, merged["bytes_per_packet"], "counters.bytes_per_packet", 0, 65536, low_open=True)
    if fabric is None:
        problems.add("fabric", "telemetry counters are read from a stored fabric: give the job's fabric")
    elif rack_set is not None:
        tors = set(
            Switch.objects.filter(fabric=fabric, tier=0, name__in=rack_set["racks"]).values_list("name", flat=True)
        )
        for i, name in enumerate(rack_set["racks"]):
            if name not in tors:
                problems.add(f"rack_set.racks[{i}]", f"{name!r} is not a ToR (tier 0) of fabric {fabric.name!r}")
    return {
        "source": "telemetry",
        "from": merged.get("from"),
        "to": merged.get("to"),
        "bytes_per_packet": size,
    }


def _counters_range(problems: Problems, fabric: Fabric, racks: Sequence[str], start: Any, end: Any) -> dict[str, Any]:
    """A window left out, from the racks' uplink counters: to their last sample, from their first
    (at most MAX_TELEMETRY_DAYS before the end). A missing bound is only ever filled, never sent empty."""
    samples = Sample.objects.filter(
        link__fabric=fabric, link__a_switch__tier=0, link__a_switch__name__in=racks, side="a"
    ).exclude(in_pkts=None, out_pkts=None)
    span = samples.aggregate(first=Min("time"), last=Max("time"))
    if span["last"] is None:
        problems.add(
            "counters.from",
            f"fabric {fabric.name!r} has no uplink counter samples of these racks: give from and to",
        )
        return {}
    filled: dict[str, Any] = {}
    last = span["last"]
    if end is None:
        filled["to"] = last.isoformat()
    else:  # a given end (checked with the rest) bounds the default start
        try:
            given = parse_datetime(end) if isinstance(end, str) else None
        except ValueError:
            given = None
        last = given if given is not None and given.tzinfo is not None else last
    if start is None:
        filled["from"] = max(span["first"], last - timedelta(days=MAX_TELEMETRY_DAYS)).isoformat()
    return filled


def telemetry_samples(
    fabric: Fabric, racks: Sequence[str], spec: dict[str, Any], period_s: float
) -> list[dict[str, Any]]:
    """Per-rack cumulative byte counters every `period_s` over the window, from telemetry.

    A rack's traffic is what its ToR's uplink ends (side A: the lower tier) counted: ingress =
    packets received (`in_pkts`), egress = packets sent (`out_pkts`), times `bytes_per_packet`
    (telemetry counts packets, not bytes). Ends are polled at their own times, so each end's
    counters are carried forward to every point of a grid of `period_s` from the window's start;
    a point is emitted once every end with samples in the window has reported. A counter that
    went back (a wrap or a reset) restarts from its new value: that interval's traffic is lost,
    never negative. Raises ValueError when a rack has no counter samples in the window.
    """
    start, end = parse_datetime(spec["from"]), parse_datetime(spec["to"])
    assert start is not None and end is not None
    tor_rack = {
        switch_id: racks.index(name)
        for switch_id, name in Switch.objects.filter(fabric=fabric, tier=0, name__in=racks).values_list("id", "name")
    }
    link_rack = {
        link: tor_rack[tor]
        for link, tor in Link.objects.filter(fabric=fabric, a_switch_id__in=tor_rack).values_list("id", "a_switch_id")
    }
    rows = list(
        Sample.objects.filter(link_id__in=link_rack, side="a", time__gte=start, time__lte=end)
        .exclude(in_pkts=None, out_pkts=None)
        .order_by("time")
        .values_list("link_id", "time", "in_pkts", "out_pkts")
    )
    reporting = {row[0] for row in rows}
    silent = sorted({racks[link_rack[link]] for link in link_rack} - {racks[link_rack[link]] for link in reporting})
    silent += sorted(set(racks) - {racks[rack] for rack in link_rack.values()})
    if silent:
        raise ValueError(f"no uplink counter samples in the window for {', '.join(silent[:10])}")
    # per link: [last in, last out, in offset, out offset]; None until it reports
    state: dict[int, list[int]] = {}
    samples: list[dict[str, Any]] = []
    rows_iter = iter(rows)
    pending = next(rows_iter, None)
    grid = 0
    while True:
        at = start.timestamp() + grid * period_s
        if at > end.timestamp() + 1e-6:
            break
        while pending is not None and pending[1].timestamp() <= at + 1e-6:
            counters = state.setdefault(pending[0], [0, 0, 0, 0])
            for i, reported in ((0, pending[2]), (1, pending[3])):
                if reported is None:
                    continue
                value = int(reported)
                if value < counters[i]:  # went back: restart from the new value
                    counters[i + 2] += counters[i]
                counters[i] = value
            pending = next(rows_iter, None)
        if len(state) == len(reporting):
            ingress = [0] * len(racks)
            egress = [0] * len(racks)
            for link, (received, sent, received_before, sent_before) in state.items():
                ingress[link_rack[link]] += received + received_before
                egress[link_rack[link]] += sent + sent_before
            samples.append(
                {
                    "time_s": grid * period_s,
                    "ingress_bytes": [round(packets * spec["bytes_per_packet"]) for packets in ingress],
                    "egress_bytes": [round(packets * spec["bytes_per_packet"]) for packets in egress],
                }
            )
        grid += 1
        if len(samples) > MAX_SAMPLES or len(samples) * len(racks) > MAX_RACK_SAMPLES:
            raise ValueError(
                f"the window holds more than {MAX_SAMPLES} periods of {period_s:g} s, or too many for {len(racks)} racks"
            )
    return samples


# ---------------------------------------------------------------------------------------------
# larry.run: running


def thin(samples: list[dict[str, Any]], period_s: float | None) -> list[dict[str, Any]]:
    """The samples the controller acts on: all of them, or each at least `period_s` after the last kept."""
    if period_s is None:
        return samples
    kept = [samples[0]]
    for sample in samples[1:]:
        if sample["time_s"] - kept[-1]["time_s"] >= period_s - 1e-9:
            kept.append(sample)
    return kept


def run(
    params: dict[str, Any], progress: Callable[[float, str], None] | None = None, fabric: Fabric | None = None
) -> dict[str, Any]:
    """The controller under the chosen policy, and the metrics of every policy as baselines."""
    rack_set = params["rack_set"]
    counters = params["counters"]
    if counters["source"] == "telemetry":
        if fabric is None:
            raise ValueError("telemetry counters need the job's fabric")
        if progress:
            progress(0.0, "reading the uplink counters")
        raw = telemetry_samples(fabric, rack_set["racks"], counters, params["period_s"])
    else:
        raw = counters["samples"]
    if len(raw) < 2:
        raise ValueError("the counters give fewer than 2 samples (one period)")
    samples = thin(raw, params["period_s"])
    if len(samples) < 2:
        raise ValueError(f"period_s {params['period_s']:g} leaves fewer than 2 samples (one period)")
    spec = engine_rack_set(rack_set)
    policy = params["policy"]
    order = [policy, *(name for name in POLICIES if name != policy)]
    baselines: dict[str, Any] = {}
    result: dict[str, Any] = {}
    for i, name in enumerate(order):
        if progress:
            progress(i / len(order), f"policy {name}")
        answer = lightpath_engine.larry_run(spec, samples, params["threshold"], name)
        baselines[name] = answer["metrics"]
        if name == policy:
            result = answer
    steps = result.pop("steps")
    changes = [{"step": i, **step} for i, step in enumerate(steps) if step["diff"]]
    kept = kept_changes(changes)
    result.update(
        inputs={
            "rack_set": rack_set,
            **({"rack_set_source": params["rack_set_source"]} if "rack_set_source" in params else {}),
            "period_s": params["period_s"],
            "threshold": params["threshold"],
            "policy": policy,
            "counters": {
                **{key: value for key, value in counters.items() if key != "samples"},
                "samples": len(raw),
                "used_samples": len(samples),
            },
        },
        racks=rack_set["racks"],
        baselines={name: baselines[name] for name in POLICIES},
        series=downsample(steps),
        changes=changes[:kept],
        changes_truncated=len(changes) - kept,
        total_circuits=sum(rack_set["cs_uplinks"]),
    )
    return result


def kept_changes(changes: list[dict[str, Any]]) -> int:
    """How many of the first changes the result keeps: at most MAX_CHANGES steps and MAX_MOVES moved
    circuits in all (a step of a large rack set may move thousands)."""
    moves = 0
    for kept, change in enumerate(changes[:MAX_CHANGES]):
        moves += len(change["diff"])
        if moves > MAX_MOVES:
            return kept
    return min(len(changes), MAX_CHANGES)


def _round(value: float) -> float:
    return float(f"{value:.6g}")


def downsample(steps: list[dict[str, Any]], max_points: int = MAX_POINTS) -> dict[str, Any]:
    """Per-rack uplinks and demand over time with at most `max_points` points.

    A longer run becomes equal bins of its steps: each point is a bin's start time, the uplinks at
    its last step (what the racks held when the bin ended) and each rack's highest demand in it (a
    burst is never hidden).
    """
    if len(steps) <= max_points:
        return {
            "binned": False,
            "time_s": [round(step["time_s"], 6) for step in steps],
            "uplinks": [list(step["uplinks"]) for step in steps],
            "demand_gbps": [[_round(d) for d in step["demand_gbps"]] for step in steps],
        }
    times, uplinks, demand = [], [], []
    for b in range(max_points):
        first, last = b * len(steps) // max_points, (b + 1) * len(steps) // max_points
        chunk = steps[first:last]
        times.append(round(chunk[0]["time_s"], 6))
        uplinks.append(list(chunk[-1]["uplinks"]))
        demand.append([_round(max(column)) for column in zip(*(s["demand_gbps"] for s in chunk), strict=True)])
    return {"binned": True, "time_s": times, "uplinks": uplinks, "demand_gbps": demand}


def uplink_rows(result: dict[str, Any]) -> Iterable[Sequence[Any]]:
    series = result["series"]
    for time_s, uplinks, demand in zip(series["time_s"], series["uplinks"], series["demand_gbps"], strict=True):
        for rack, (count, gbps) in enumerate(zip(uplinks, demand, strict=True)):
            yield (time_s, result["racks"][rack], count, gbps)


def change_rows(result: dict[str, Any]) -> Iterable[Sequence[Any]]:
    racks = result["racks"]
    for change in result["changes"]:
        for move in change["diff"]:
            source, target = move["from"], move["to"]
            yield (
                change["step"],
                change["time_s"],
                move["cs"],
                move["uplink"],
                "" if source is None else racks[source[0]],
                "" if source is None else source[1],
                "" if target is None else racks[target[0]],
                "" if target is None else target[1],
            )
