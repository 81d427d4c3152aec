"""Telemetry ingest: validate a batch, store it, derive rates, health and corruption events.

A batch is all or nothing. Validation lists every bad sample before anything is written; the
write is one transaction: COPY into a staging table, merge into the partitioned sample table
(a re-sent (end, time) updates, never duplicates), then the derivation of docs/telemetry.md.
Ingests of one fabric are serialised by an advisory lock, so windows advance in order.
"""

from __future__ import annotations

import datetime as dt
import json
import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from fabric.models import Fabric
from lightpath.db import update_rows, upsert_rows

from ..models import CorruptionEvent, Direction, PowerThreshold
from . import derive, partitions
from .derive import COUNTERS, POWER_MAX_DBM, POWER_MIN_DBM, CounterWindow, Limits, WindowSettings
from .thresholds import effective_limits

# Accepted ranges of the non-power measurements (docs/telemetry.md).
RANGES = {
    "laser_bias_current_ma": (0.0, 500.0),
    "temperature_c": (-60.0, 150.0),
    "supply_voltage_v": (0.0, 10.0),
}
POWER_FIELDS = ("input_power_dbm", "output_power_dbm")
CHANNEL_FIELDS = {
    "input_power_channels_dbm": "input_power_dbm",
    "output_power_channels_dbm": "output_power_dbm",
    "laser_bias_current_channels_ma": "laser_bias_current_ma",
}
THRESHOLD_FIELDS = (
    "input_power_lower_dbm",
    "input_power_upper_dbm",
    "output_power_lower_dbm",
    "output_power_upper_dbm",
)
MEASUREMENTS = (*POWER_FIELDS, *CHANNEL_FIELDS, *RANGES, *COUNTERS, *THRESHOLD_FIELDS)
COUNTER_MAX = 2**64 - 1

SAMPLE_COLUMNS = (
    "time", "link_id", "side", "input_power_dbm", "output_power_dbm", "input_power_channels_dbm",
    "output_power_channels_dbm", "laser_bias_current_ma", "laser_bias_current_channels_ma", "temperature_c",
    "supply_voltage_v", "rx_no_light", "tx_no_light", *COUNTERS,
)  # fmt: skip
_FLAGS = ("rx_no_light", "tx_no_light")


def _num(value: float | int | None) -> str:
    return "\\N" if value is None else repr(value)


def _array(values: list[float | None] | None) -> str:
    if values is None:
        return "\\N"
    return "{" + ",".join("NULL" if x is None else repr(x) for x in values) + "}"


class TelemetryRejected(Exception):
    """The batch has bad samples; nothing was written. `errors` lists every one."""

    def __init__(self, errors: list[dict[str, Any]]):
        super().__init__(f"{len(errors)} bad sample(s)")
        self.errors = errors


@dataclass
class IngestResult:
    samples: int = 0
    inserted: int = 0
    merged: int = 0
    skipped_updates: int = 0
    windows: int = 0
    events_opened: list[int] = field(default_factory=list)
    events_ended: list[int] = field(default_factory=list)
    health_changes: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {
            "samples": self.samples,
            "inserted": self.inserted,
            "merged": self.merged,
            "skipped_updates": self.skipped_updates,
            "windows": self.windows,
            "events_opened": self.events_opened,
            "events_ended": self.events_ended,
            "health_changes": self.health_changes,
        }


@dataclass(slots=True)
class Row:
    """A validated sample of a resolved link end, with no-light and lane averages applied."""

    time: dt.datetime
    link_id: int
    side: str
    values: dict[str, Any]
    rx_no_light: bool
    tx_no_light: bool
    rx_min_channel: float | None
    tx_min_channel: float | None

    def copy_line(self) -> str:
        """The row in COPY's text format: psycopg's per-value dumpers cost more than the rest
        of ingest together, and every value here is a number, a flag or a time (no escaping)."""
        v = self.values
        return "\t".join(
            (
                self.time.isoformat(), str(self.link_id), self.side, _num(v.get("input_power_dbm")),
                _num(v.get("output_power_dbm")), _array(v.get("input_power_channels_dbm")),
                _array(v.get("output_power_channels_dbm")), _num(v.get("laser_bias_current_ma")),
                _array(v.get("laser_bias_current_channels_ma")), _num(v.get("temperature_c")),
                _num(v.get("supply_voltage_v")), "t" if self.rx_no_light else "f", "t" if self.tx_no_light else "f",
                *(_num(v.get(c)) for c in COUNTERS),
            )
        )  # fmt: skip

    @property
    def counters(self) -> dict[str, int]:
        return {c: self.values[c] for c in COUNTERS if c in self.values}

    @property
    def optical(self) -> bool:
        return (
            any(f in self.values for f in (*POWER_FIELDS, *CHANNEL_FIELDS, *RANGES))
            or self.rx_no_light
            or self.tx_no_light
        )


# ------------------------------------------------------------------------------------------
# Validation


def _where(index: int, where: Sequence[dict[str, int]] | None) -> dict[str, int]:
    location = {"index": index}
    if where is not None and index < len(where):
        location.update(where[index])
    return location


def resolve_ends(
    fabric: Fabric, pairs: set[tuple[str, str]]
) -> tuple[dict[tuple[str, str], tuple[int, str]], set[str]]:
    """Map (switch name, port) to (link id, side) for the pairs that name a link end, and
    return the switch names of the fabric among those asked."""
    switches = sorted({s for s, _ in pairs})
    ports = [(s, p) for s, p in pairs]
    with connection.cursor() as cursor:
        cursor.execute("SELECT name FROM fabric_switch WHERE fabric_id = %s AND name = ANY(%s)", [fabric.pk, switches])
        known = {row[0] for row in cursor.fetchall()}
        cursor.execute(
            """
            SELECT q.sw, q.port, l.id, 'a' FROM unnest(%s::text[], %s::text[]) AS q(sw, port)
              JOIN fabric_switch s ON s.fabric_id = %s AND s.name = q.sw
              JOIN fabric_link l ON l.a_switch_id = s.id AND l.a_port = q.port
            UNION ALL
            SELECT q.sw, q.port, l.id, 'z' FROM unnest(%s::text[], %s::text[]) AS q(sw, port)
              JOIN fabric_switch s ON s.fabric_id = %s AND s.name = q.sw
              JOIN fabric_link l ON l.z_switch_id = s.id AND l.z_port = q.port
            """,
            [[s for s, _ in ports], [p for _, p in ports], fabric.pk] * 2,
        )
        ends = {(sw, port): (link_id, side) for sw, port, link_id, side in cursor.fetchall()}
    return ends, known


def _power(value: float, name: str) -> tuple[float | None, bool, str | None]:
    """(stored value, no light, error) of one power reading."""
    if math.isnan(value):
        return None, False, f"{name}: NaN is not a reading"
    if value == -math.inf or (POWER_MIN_DBM <= value <= POWER_MAX_DBM and derive.is_no_light(value)):
        return None, True, None
    if not POWER_MIN_DBM <= value <= POWER_MAX_DBM:
        return None, False, f"{name}: {value:g} dBm is out of range ({POWER_MIN_DBM:g} to +{POWER_MAX_DBM:g} dBm)"
    return value, False, None


def validate(
    fabric: Fabric,
    samples: Sequence[dict[str, Any]],
    *,
    where: Sequence[dict[str, int]] | None = None,
    now: dt.datetime | None = None,
) -> tuple[list[Row], list[dict[str, Any]]]:
    """Resolve and check every sample; returns the rows and every error found."""
    now = now or timezone.now()
    latest = now + dt.timedelta(seconds=settings.TELEMETRY_MAX_CLOCK_SKEW_S)
    earliest = now - dt.timedelta(days=settings.TELEMETRY_RAW_RETENTION_DAYS)
    pairs = {(s.get("switch"), s.get("port")) for s in samples}
    ends, known_switches = resolve_ends(fabric, {(s, p) for s, p in pairs if isinstance(s, str) and isinstance(p, str)})
    rows: list[Row] = []
    errors: list[dict[str, Any]] = []
    seen: dict[tuple[int, str, dt.datetime], int] = {}

    for index, sample in enumerate(samples):
        problems: list[tuple[str | None, str]] = []
        switch, port, time = sample.get("switch"), sample.get("port"), sample.get("time")
        end = ends.get((switch, port)) if isinstance(switch, str) and isinstance(port, str) else None
        if end is None:
            if switch not in known_switches:
                problems.append(("switch", f"unknown switch {switch!r} in fabric {fabric.name!r}"))
            else:
                problems.append(("port", f"switch {switch!r} has no link on port {port!r}"))
        if not isinstance(time, dt.datetime) or time.tzinfo is None:
            problems.append(("time", "a time with a UTC offset is required"))
        elif time > latest:
            problems.append(
                ("time", f"{time.isoformat()} is more than {settings.TELEMETRY_MAX_CLOCK_SKEW_S} s in the future")
            )
        elif time < earliest:
            problems.append(
                (
                    "time",
                    f"{time.isoformat()} is older than the raw retention of {settings.TELEMETRY_RAW_RETENTION_DAYS} days",
                )
            )

        values: dict[str, Any] = {}
        no_light = {"input_power_dbm": False, "output_power_dbm": False}
        minimum: dict[str, float | None] = {"input_power_dbm": None, "output_power_dbm": None}
        for name in POWER_FIELDS:
            raw = sample.get(name)
            if raw is None:
                continue
            value, dark, problem = _power(float(raw), name)
            if problem:
                problems.append((name, problem))
            elif dark:
                no_light[name] = True
            else:
                values[name] = value
                minimum[name] = value
        for name, average in CHANNEL_FIELDS.items():
            lanes = sample.get(name)
            if lanes is None:
                continue
            if average in no_light:  # lane powers
                stored: list[float | None] = [None if x is None else float(x) for x in lanes]
                lit = [x for x in stored if x is not None]
                # Fast path: every lane a plain reading; else look at each lane for dark or bad values.
                if not lit or not (
                    min(lit) > derive.NO_LIGHT_CEILING_DBM and max(lit) <= POWER_MAX_DBM and 0.0 not in lit
                ):
                    lit = []
                    for lane, raw in enumerate(stored):
                        if raw is None:
                            continue
                        value, dark, problem = _power(raw, f"{name}[{lane}]")
                        if problem:
                            problems.append((name, problem))
                        if dark:
                            no_light[average] = True  # one dark lane is a dark receiver for the classes
                        stored[lane] = value
                        if value is not None:
                            lit.append(value)
                values[name] = stored
                if lit:
                    known = minimum[average]
                    minimum[average] = min(lit) if known is None else min(known, *lit)
                    if average not in values:
                        values[average] = derive.mean_dbm(lit)
            else:
                low, high = RANGES[average]
                for lane, raw in enumerate(lanes):
                    if raw is not None and not low <= float(raw) <= high:
                        problems.append((name, f"{name}[{lane}]: {raw:g} is out of range ({low:g} to {high:g})"))
                values[name] = [None if v is None else float(v) for v in lanes]
                present = [v for v in values[name] if v is not None]
                if present and average not in values:
                    values[average] = sum(present) / len(present)
        for name, (low, high) in RANGES.items():
            raw = sample.get(name)
            if raw is None:
                continue
            if not low <= float(raw) <= high:  # NaN fails too
                problems.append((name, f"{name}: {raw:g} is out of range ({low:g} to {high:g})"))
            else:
                values[name] = float(raw)
        for name in COUNTERS:
            raw = sample.get(name)
            if raw is None:
                continue
            if not 0 <= raw <= COUNTER_MAX:
                problems.append((name, f"{name}: {raw} is not a 64-bit counter value"))
            else:
                values[name] = int(raw)
        for name in THRESHOLD_FIELDS:
            raw = sample.get(name)
            if raw is None:
                continue
            if not POWER_MIN_DBM <= float(raw) <= POWER_MAX_DBM:
                problems.append((name, f"{name}: {raw:g} dBm is out of range"))
            else:
                values[name] = float(raw)
        if not values and not any(no_light.values()) and not problems:
            problems.append((None, "the sample has no measurement"))
        if end is not None and isinstance(time, dt.datetime):
            key = (end[0], end[1], time)
            if key in seen:
                problems.append((None, f"same link end and time as sample {seen[key]}"))
            else:
                seen[key] = index

        if problems:
            location = _where(index, where)
            errors.extend({**location, "field": f, "reason": reason} for f, reason in problems)
            continue
        assert end is not None and isinstance(time, dt.datetime)
        rows.append(
            Row(
                time=time.astimezone(dt.UTC),
                link_id=end[0],
                side=end[1],
                values=values,
                rx_no_light=no_light["input_power_dbm"],
                tx_no_light=no_light["output_power_dbm"],
                rx_min_channel=minimum["input_power_dbm"],
                tx_min_channel=minimum["output_power_dbm"],
            )
        )
    return rows, errors


# ------------------------------------------------------------------------------------------
# Writing


def ingest(
    fabric: Fabric,
    samples: Sequence[dict[str, Any]],
    *,
    where: Sequence[dict[str, int]] | None = None,
    parse_errors: Sequence[dict[str, Any]] = (),
    skipped_updates: int = 0,
    now: dt.datetime | None = None,
) -> IngestResult:
    """Validate and store one batch; raise TelemetryRejected with every error, writing nothing."""
    if len(samples) > settings.TELEMETRY_MAX_BATCH_SAMPLES:
        raise TelemetryRejected(
            [
                {
                    "field": None,
                    "reason": f"{len(samples)} samples exceed the batch limit of {settings.TELEMETRY_MAX_BATCH_SAMPLES}",
                }
            ]
        )
    rows, errors = validate(fabric, samples, where=where, now=now)
    errors = sorted([*parse_errors, *errors], key=lambda e: (e.get("index", -1), e.get("line", 0)))
    if errors:
        raise TelemetryRejected(errors)
    result = IngestResult(samples=len(rows), skipped_updates=skipped_updates)
    if not rows:
        return result
    with transaction.atomic():
        with connection.cursor() as cursor:
            # Serialise the derivation of one fabric; other fabrics ingest in parallel.
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [LOCK_NAMESPACE, fabric.pk])
        partitions.ensure_partitions({row.time.date() for row in rows})
        result.inserted, result.merged = _store_samples(rows)
        _store_device_thresholds(rows)
        _derive(fabric, rows, result)
    return result


LOCK_NAMESPACE = 0x7E1E  # advisory-lock namespace of telemetry ingest ("tele")


def _store_samples(rows: list[Row]) -> tuple[int, int]:
    columns = ", ".join(SAMPLE_COLUMNS)
    updates = ", ".join(
        f"{c} = COALESCE(EXCLUDED.{c}, s.{c})" for c in SAMPLE_COLUMNS if c not in ("time", "link_id", "side", *_FLAGS)
    )
    # A flag follows the newest reading of its power; a batch without that power keeps the old flag.
    flags = (
        "rx_no_light = CASE WHEN EXCLUDED.rx_no_light OR EXCLUDED.input_power_dbm IS NOT NULL "
        "THEN EXCLUDED.rx_no_light ELSE s.rx_no_light END, "
        "tx_no_light = CASE WHEN EXCLUDED.tx_no_light OR EXCLUDED.output_power_dbm IS NOT NULL "
        "THEN EXCLUDED.tx_no_light ELSE s.tx_no_light END"
    )
    with connection.cursor() as cursor:
        cursor.execute("DROP TABLE IF EXISTS tmp_telemetry_sample")
        cursor.execute(f"CREATE TEMP TABLE tmp_telemetry_sample AS SELECT {columns} FROM telemetry_sample WITH NO DATA")
        with cursor.cursor.copy(f"COPY tmp_telemetry_sample ({columns}) FROM STDIN") as copy:
            for start in range(0, len(rows), 10_000):
                copy.write("".join(row.copy_line() + "\n" for row in rows[start : start + 10_000]))
        # Partitioned tables hide xmax from RETURNING, so the re-sent rows are counted first.
        cursor.execute("SELECT count(*) FROM tmp_telemetry_sample JOIN telemetry_sample USING (link_id, side, time)")
        merged = cursor.fetchone()[0]
        cursor.execute(
            f"INSERT INTO telemetry_sample AS s ({columns}) SELECT {columns} FROM tmp_telemetry_sample "
            f"ON CONFLICT (link_id, side, time) DO UPDATE SET {updates}, {flags}"
        )
        inserted = cursor.rowcount - merged
        cursor.execute("DROP TABLE tmp_telemetry_sample")
    return inserted, merged


def _store_device_thresholds(rows: list[Row]) -> None:
    latest: dict[tuple[int, str], dict[str, float]] = {}
    for row in sorted((r for r in rows if any(f in r.values for f in THRESHOLD_FIELDS)), key=lambda r: r.time):
        latest.setdefault((row.link_id, row.side), {}).update(
            {f: row.values[f] for f in THRESHOLD_FIELDS if f in row.values}
        )
    if not latest:
        return
    existing = {
        (t.link_id, t.side): t
        for t in PowerThreshold.objects.filter(source=PowerThreshold.Source.DEVICE, link_id__in={k[0] for k in latest})
    }
    now = timezone.now()
    upsert_rows(
        PowerThreshold._meta.db_table,
        ["link_id", "side", "source", *THRESHOLD_FIELDS, "updated"],
        ["link_id", "side", "source"],
        [
            (
                link_id,
                side,
                PowerThreshold.Source.DEVICE,
                *(values.get(f, getattr(existing.get((link_id, side)), f, None)) for f in THRESHOLD_FIELDS),
                now,
            )
            for (link_id, side), values in latest.items()
        ],
    )


# ------------------------------------------------------------------------------------------
# Derivation: windows, health, events, optical classes


END_COLUMNS = (
    "link_id", "side", "optical_time", "input_power_dbm", "input_power_min_channel_dbm", "output_power_dbm",
    "output_power_min_channel_dbm", "laser_bias_current_ma", "temperature_c", "supply_voltage_v", "rx_no_light",
    "tx_no_light", "rx_class", "tx_class", "counter_time", "counters", "window_time", "window_counters",
)  # fmt: skip
HEALTH_COLUMNS = (
    "link_id", "direction", "health", "corruption_rate", "corruption_time", "congestion_rate", "congestion_time",
    "health_since",
)  # fmt: skip

# The direction whose receiving end is this side, and whose sending end is this side.
INTO = {"a": Direction.Z_TO_A.value, "z": Direction.A_TO_Z.value}
OUT_OF = {"a": Direction.A_TO_Z.value, "z": Direction.Z_TO_A.value}


def _derive(fabric: Fabric, rows: list[Row], result: IngestResult) -> None:
    settings_ = WindowSettings.of(fabric)
    link_ids = sorted({row.link_id for row in rows})
    ends = _load_end_states(link_ids)
    health = _load_direction_health(link_ids)
    open_events = {
        (e.link_id, e.direction): e for e in CorruptionEvent.objects.filter(link_id__in=link_ids, ended_at__isnull=True)
    }
    touched_ends: set[tuple[int, str]] = set()
    touched_health: set[tuple[int, str]] = set()
    new_events: list[CorruptionEvent] = []
    ended_events: list[CorruptionEvent] = []
    updated_events: dict[int, CorruptionEvent] = {}

    by_end: dict[tuple[int, str], list[Row]] = defaultdict(list)
    for row in rows:
        by_end[(row.link_id, row.side)].append(row)
    observations: list[tuple[dt.datetime, int, str, str, float | None]] = []  # (time, link, direction, kind, rate)
    for key, end_rows in by_end.items():
        end_rows.sort(key=lambda r: r.time)
        state = ends.setdefault(key, _empty_end(*key))
        window = CounterWindow(
            state["counter_time"], state["counters"] or {}, state["window_time"], state["window_counters"] or {}
        )
        for row in end_rows:
            touched_ends.add(key)
            if row.optical and (state["optical_time"] is None or row.time >= state["optical_time"]):
                _apply_optical(state, row)
            counters = row.counters
            if counters:
                rates = derive.advance(window, row.time, counters, settings_)
                if rates is not None:
                    result.windows += 1
                    if rates.rx_corruption is not None:
                        observations.append((rates.time, key[0], INTO[key[1]], "corruption", rates.rx_corruption))
                    if rates.tx_congestion is not None:
                        observations.append((rates.time, key[0], OUT_OF[key[1]], "congestion", rates.tx_congestion))
        state["counter_time"], state["counters"] = window.last_time, window.last or None
        state["window_time"], state["window_counters"] = window.start_time, window.start or None

    observations.sort(key=lambda o: o[0])
    action, report = fabric.corruption_action_threshold, fabric.corruption_report_threshold
    for time, link_id, direction, kind, rate in observations:
        key = (link_id, direction)
        touched_health.add(key)
        entry = health.setdefault(key, _empty_health(link_id, direction))
        if kind == "congestion":
            entry["congestion_rate"], entry["congestion_time"] = rate, time
            continue
        entry["corruption_rate"], entry["corruption_time"] = rate, time
        before, after = entry["health"], derive.health_of(rate, action, report)
        if after != before:
            entry["health"], entry["health_since"] = after, time
        event = open_events.get(key)
        if after == derive.CORRUPTING:
            assert rate is not None
            if event is None:
                event = CorruptionEvent(
                    link_id=link_id,
                    direction=direction,
                    rate=rate,
                    first_seen=time,
                    last_rate=rate,
                    peak_rate=rate,
                    last_seen=time,
                )
                open_events[key] = event
                new_events.append(event)
            else:
                event.last_rate, event.last_seen, event.peak_rate = rate, time, max(event.peak_rate, rate)
                if event.pk:
                    updated_events[event.pk] = event
        elif event is not None:
            event.ended_at = time
            del open_events[key]
            if event.pk:
                updated_events[event.pk] = event
                ended_events.append(event)
            else:  # opened and ended within this batch
                ended_events.append(event)

    _classify(link_ids, ends, touched_ends)
    upsert_rows("telemetry_endstate", END_COLUMNS, ["link_id", "side"], (_end_row(ends[k]) for k in touched_ends))
    if touched_health:
        upsert_rows(
            "telemetry_directionhealth",
            HEALTH_COLUMNS,
            ["link_id", "direction"],
            (tuple(health[k][c] for c in HEALTH_COLUMNS) for k in touched_health),
        )
    if updated_events:
        update_rows(
            "telemetry_corruptionevent",
            ["id"],
            ["last_rate", "peak_rate", "last_seen", "ended_at"],
            ((e.pk, e.last_rate, e.peak_rate, e.last_seen, e.ended_at) for e in updated_events.values()),
        )
    CorruptionEvent.objects.bulk_create(new_events)
    result.events_opened = sorted(e.pk for e in new_events if e.ended_at is None)
    result.events_ended = sorted(e.pk for e in ended_events)
    result.health_changes = _update_links(link_ids, health, ends)


def reclassify(link_ids: Sequence[int]) -> int:
    """Classify the newest readings again after thresholds changed; returns links whose
    rx_low flag changed."""
    ids = sorted(set(link_ids))
    ends = _load_end_states(ids)
    _classify(ids, ends, set(ends))
    if ends:
        update_rows(
            "telemetry_endstate",
            ["link_id", "side"],
            ["rx_class", "tx_class"],
            ((s["link_id"], s["side"], s["rx_class"], s["tx_class"]) for s in ends.values()),
        )
    return _update_links(ids, _load_direction_health(ids), ends)


def _empty_end(link_id: int, side: str) -> dict[str, Any]:
    state: dict[str, Any] = dict.fromkeys(END_COLUMNS)
    state.update(
        link_id=link_id, side=side, rx_no_light=False, tx_no_light=False, rx_class="unknown", tx_class="unknown"
    )
    return state


def _empty_health(link_id: int, direction: str) -> dict[str, Any]:
    entry: dict[str, Any] = dict.fromkeys(HEALTH_COLUMNS)
    entry.update(link_id=link_id, direction=direction, health=derive.UNKNOWN)
    return entry


def _load_end_states(link_ids: list[int]) -> dict[tuple[int, str], dict[str, Any]]:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {', '.join(END_COLUMNS)} FROM telemetry_endstate WHERE link_id = ANY(%s)", [link_ids])
        states = {(r[0], r[1]): dict(zip(END_COLUMNS, r, strict=True)) for r in cursor.fetchall()}
    for state in states.values():  # Django leaves jsonb as text for JSONField to decode
        for name in ("counters", "window_counters"):
            if isinstance(state[name], str):
                state[name] = json.loads(state[name])
    return states


def _load_direction_health(link_ids: list[int]) -> dict[tuple[int, str], dict[str, Any]]:
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {', '.join(HEALTH_COLUMNS)} FROM telemetry_directionhealth WHERE link_id = ANY(%s)", [link_ids]
        )
        return {(r[0], r[1]): dict(zip(HEALTH_COLUMNS, r, strict=True)) for r in cursor.fetchall()}


def _apply_optical(state: dict[str, Any], row: Row) -> None:
    v = row.values
    state["optical_time"] = row.time
    if "input_power_dbm" in v or row.rx_no_light:
        state["input_power_dbm"], state["input_power_min_channel_dbm"] = v.get("input_power_dbm"), row.rx_min_channel
        state["rx_no_light"] = row.rx_no_light
    if "output_power_dbm" in v or row.tx_no_light:
        state["output_power_dbm"], state["output_power_min_channel_dbm"] = v.get("output_power_dbm"), row.tx_min_channel
        state["tx_no_light"] = row.tx_no_light
    for name in ("laser_bias_current_ma", "temperature_c", "supply_voltage_v"):
        if name in v:
            state[name] = v[name]


def _classify(link_ids: list[int], ends: dict[tuple[int, str], dict[str, Any]], touched: set[tuple[int, str]]) -> None:
    limits = effective_limits(link_ids)
    for key in touched:
        state = ends[key]
        end_limits = limits.get(key)
        if end_limits is None:
            rx_limits = tx_limits = Limits(None, None)
        else:
            rx_limits = Limits(end_limits["input_power_lower_dbm"].value, end_limits["input_power_upper_dbm"].value)
            tx_limits = Limits(end_limits["output_power_lower_dbm"].value, end_limits["output_power_upper_dbm"].value)
        rx = (
            state["input_power_min_channel_dbm"]
            if state["input_power_min_channel_dbm"] is not None
            else state["input_power_dbm"]
        )
        tx = (
            state["output_power_min_channel_dbm"]
            if state["output_power_min_channel_dbm"] is not None
            else state["output_power_dbm"]
        )
        state["rx_class"] = derive.rx_class(rx, state["rx_no_light"], rx_limits)
        state["tx_class"] = derive.tx_class(tx, state["tx_no_light"], tx_limits)


def _end_row(state: dict[str, Any]) -> tuple:
    return tuple(
        json.dumps(state[c]) if c in ("counters", "window_counters") and state[c] is not None else state[c]
        for c in END_COLUMNS
    )


def _update_links(link_ids: list[int], health: dict[tuple[int, str], dict[str, Any]], ends: dict) -> int:
    """Write each link's worse direction and its rx_low flag where they changed."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT id, health, rx_low FROM fabric_link WHERE id = ANY(%s)", [link_ids])
        current = {r[0]: (r[1], r[2]) for r in cursor.fetchall()}
    changes = []
    for link_id in link_ids:
        worst = derive.worse(
            health.get((link_id, Direction.A_TO_Z.value), {}).get("health") or derive.UNKNOWN,
            health.get((link_id, Direction.Z_TO_A.value), {}).get("health") or derive.UNKNOWN,
        )
        rx_low = any(ends.get((link_id, side), {}).get("rx_class") == "low" for side in ("a", "z"))
        if current.get(link_id) != (worst, rx_low):
            changes.append((link_id, worst, rx_low))
    if changes:
        update_rows("fabric_link", ["id"], ["health", "rx_low"], changes)
    return len(changes)
