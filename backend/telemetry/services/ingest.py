"""Telemetry ingest: validate a batch, store it, derive rates, health and corruption events.

A batch is all or nothing and works set-based inside PostgreSQL, so its cost does not grow
with Python loops over samples:
1. the parsed samples are COPYed into a staging table (the only per-sample Python work);
2. one query lists every bad sample (unknown end, out-of-range value, time, duplicate...);
3. the good batch is merged into the partitioned sample table (a re-sent (end, time) updates);
4. the derivation of docs/telemetry.md runs as a few statements per "round": round k holds
   the k-th counter sample of every end in the batch, so windows advance in time order
   (one round for a live poll, more for a backfill);
5. optical classes and link health follow.
Ingests of one fabric are serialised by an advisory lock; the SQL rules for no light and
lane averages in mW live in migration 0003 of this app, the effective limits in thresholds.py.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from fabric.models import Fabric

from . import partitions
from .rules import COUNTERS, MAX_GAP_WINDOWS, POWER_MAX_DBM, POWER_MIN_DBM
from .thresholds import limit_value, limits_from

LANE_FIELDS = ("input_power_channels_dbm", "output_power_channels_dbm", "laser_bias_current_channels_ma")
THRESHOLD_FIELDS = (
    "input_power_lower_dbm",
    "input_power_upper_dbm",
    "output_power_lower_dbm",
    "output_power_upper_dbm",
)
VALUE_FIELDS = (
    "input_power_dbm", "output_power_dbm", "input_power_channels_dbm", "output_power_channels_dbm",
    "laser_bias_current_ma", "laser_bias_current_channels_ma", "temperature_c", "supply_voltage_v",
    *COUNTERS, *THRESHOLD_FIELDS,
)  # fmt: skip
# Accepted ranges of the non-power measurements (docs/telemetry.md).
RANGES = {"laser_bias_current_ma": (0.0, 500.0), "temperature_c": (-60.0, 150.0), "supply_voltage_v": (0.0, 10.0)}
COUNTER_MAX = 2**64 - 1
LOCK_NAMESPACE = 0x7E1E  # advisory-lock namespace of telemetry ingest


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
    skipped_samples: int = 0
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
            "skipped_samples": self.skipped_samples,
            "windows": self.windows,
            "events_opened": self.events_opened,
            "events_ended": self.events_ended,
            "health_changes": self.health_changes,
        }


# ------------------------------------------------------------------------------------------
# Staging: the parsed samples as COPY text


def _text(value: Any) -> str:
    if value is None:
        return "\\N"
    if isinstance(value, float):
        # float.__repr__: numpy's float64 (a float subclass) would print as np.float64(...)
        return float.__repr__(value) if value == value and abs(value) != float("inf") else _special(value)
    if isinstance(value, list):
        return "{" + ",".join("NULL" if x is None else _text(x) for x in value) + "}"
    if isinstance(value, dt.datetime):
        return value.isoformat()
    if isinstance(value, str):  # switch and port names: COPY text escapes
        return value.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")
    return str(value)


def _special(value: float) -> str:
    return "NaN" if value != value else ("Infinity" if value > 0 else "-Infinity")


STAGING_COLUMNS = ("idx", "switch", "port", "time", *VALUE_FIELDS)


def _stage(samples: Sequence[dict[str, Any]]) -> None:
    """COPY the samples into the session's staging table tmp_ingest (dropped with the transaction)."""
    types = dict.fromkeys(VALUE_FIELDS, "float8")
    types.update(dict.fromkeys(LANE_FIELDS, "float8[]"))
    types.update(dict.fromkeys(COUNTERS, "numeric"))
    columns = ", ".join(f"{name} {types[name]}" for name in VALUE_FIELDS)
    with connection.cursor() as cursor:
        cursor.execute("DROP TABLE IF EXISTS tmp_ingest")
        cursor.execute(
            f"CREATE TEMP TABLE tmp_ingest (idx integer, switch text, port text, time timestamptz, {columns}) "
            "ON COMMIT DROP"
        )
        with cursor.cursor.copy(f"COPY tmp_ingest ({', '.join(STAGING_COLUMNS)}) FROM STDIN") as copy:
            for start in range(0, len(samples), 10_000):
                lines = []
                for index in range(start, min(start + 10_000, len(samples))):
                    sample = samples[index]
                    get = sample.get
                    lines.append(
                        f"{index}\t{_text(get('switch'))}\t{_text(get('port'))}\t{_text(get('time'))}\t"
                        + "\t".join([_text(get(name)) for name in VALUE_FIELDS])
                        + "\n"
                    )
                copy.write("".join(lines))
        # Temporary tables have no statistics until analysed: without them the planner takes
        # them for empty and joins 100,000 rows by nested index lookups.
        cursor.execute("ANALYZE tmp_ingest")


# ------------------------------------------------------------------------------------------
# Validation: every problem of every sample, in one query


def _validation_sql() -> str:
    power_checks = [
        f"""SELECT idx, '{name}', format('%%s: %%s dBm is out of range ({POWER_MIN_DBM:g} to +{POWER_MAX_DBM:g} dBm)', '{name}', {name})
              FROM tmp_ingest WHERE NOT lightpath_power_ok({name}) OR {name} = 'NaN'"""
        for name in ("input_power_dbm", "output_power_dbm", *THRESHOLD_FIELDS)
    ]
    lane_checks = [
        f"""SELECT idx, '{name}', format('%%s[%%s]: %%s dBm is out of range ({POWER_MIN_DBM:g} to +{POWER_MAX_DBM:g} dBm)', '{name}', o - 1, x)
              FROM tmp_ingest, unnest({name}) WITH ORDINALITY AS u(x, o)
             WHERE {name} IS NOT NULL AND (NOT lightpath_power_ok(x) OR x = 'NaN')"""
        for name in ("input_power_channels_dbm", "output_power_channels_dbm")
    ]
    low, high = RANGES["laser_bias_current_ma"]
    lane_checks.append(
        f"""SELECT idx, 'laser_bias_current_channels_ma', format('laser_bias_current_channels_ma[%%s]: %%s is out of range ({low:g} to {high:g})', o - 1, x)
              FROM tmp_ingest, unnest(laser_bias_current_channels_ma) WITH ORDINALITY AS u(x, o)
             WHERE laser_bias_current_channels_ma IS NOT NULL AND NOT (x BETWEEN {low} AND {high})"""
    )
    range_checks = [
        f"""SELECT idx, '{name}', format('%%s: %%s is out of range ({low:g} to {high:g})', '{name}', {name})
              FROM tmp_ingest WHERE {name} IS NOT NULL AND NOT ({name} BETWEEN {low} AND {high})"""
        for name, (low, high) in RANGES.items()
    ]
    counter_checks = [
        f"""SELECT idx, '{name}', format('%%s: %%s is not a 64-bit counter value', '{name}', {name})
              FROM tmp_ingest WHERE NOT ({name} BETWEEN 0 AND {COUNTER_MAX})"""
        for name in COUNTERS
    ]
    measured = " AND ".join(f"{name} IS NULL" for name in VALUE_FIELDS)
    return "\nUNION ALL\n".join(
        [
            """SELECT s.idx, 'switch', format('unknown switch %%L in fabric %%L', s.switch, %(fabric_name)s)
                 FROM tmp_ingest s
                WHERE NOT EXISTS (SELECT 1 FROM fabric_switch w WHERE w.fabric_id = %(fabric)s AND w.name = s.switch)""",
            """SELECT s.idx, 'port', format('switch %%L has no link on port %%L', s.switch, s.port)
                 FROM tmp_ingest s JOIN fabric_switch w ON w.fabric_id = %(fabric)s AND w.name = s.switch
                WHERE NOT EXISTS (SELECT 1 FROM fabric_link l WHERE l.a_switch_id = w.id AND l.a_port = s.port)
                  AND NOT EXISTS (SELECT 1 FROM fabric_link l WHERE l.z_switch_id = w.id AND l.z_port = s.port)""",
            """SELECT idx, 'time', format('%%s is more than %%s s in the future', time, %(skew)s)
                 FROM tmp_ingest WHERE time > %(latest)s""",
            """SELECT idx, 'time', format('%%s is older than the raw retention of %%s days', time, %(retention)s)
                 FROM tmp_ingest WHERE time < %(earliest)s""",
            *power_checks,
            *lane_checks,
            *range_checks,
            *counter_checks,
            f"SELECT idx, NULL, 'the sample has no measurement' FROM tmp_ingest WHERE {measured}",
            """SELECT idx, NULL, format('same link end and time as sample %%s', first)
                 FROM (SELECT idx, time, min(idx) OVER (PARTITION BY switch, port, time) AS first FROM tmp_ingest) d
                WHERE idx <> first""",
        ]
    )


def _drop_other_ports(fabric: Fabric) -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            """
            DELETE FROM tmp_ingest s USING fabric_switch w
             WHERE w.fabric_id = %s AND w.name = s.switch
               AND NOT EXISTS (SELECT 1 FROM fabric_link l WHERE l.a_switch_id = w.id AND l.a_port = s.port)
               AND NOT EXISTS (SELECT 1 FROM fabric_link l WHERE l.z_switch_id = w.id AND l.z_port = s.port)
            """,
            [fabric.pk],
        )
        return cursor.rowcount


def _validate(fabric: Fabric, now: dt.datetime) -> list[dict[str, Any]]:
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT idx, field, reason FROM ({_validation_sql()}) AS e(idx, field, reason) ORDER BY idx, field",
            {
                "fabric": fabric.pk,
                "fabric_name": fabric.name,
                "skew": settings.TELEMETRY_MAX_CLOCK_SKEW_S,
                "retention": settings.TELEMETRY_RAW_RETENTION_DAYS,
                "latest": now + dt.timedelta(seconds=settings.TELEMETRY_MAX_CLOCK_SKEW_S),
                "earliest": now - dt.timedelta(days=settings.TELEMETRY_RAW_RETENTION_DAYS),
            },
        )
        return [{"index": idx, "field": name, "reason": reason} for idx, name, reason in cursor.fetchall()]


# ------------------------------------------------------------------------------------------
# The batch


def ingest(
    fabric: Fabric,
    samples: Sequence[dict[str, Any]],
    *,
    where: Sequence[dict[str, int]] | None = None,
    parse_errors: Sequence[dict[str, Any]] = (),
    skipped_updates: int = 0,
    skip_other_ports: bool = False,
    now: dt.datetime | None = None,
) -> IngestResult:
    """Validate and store one batch; raise TelemetryRejected with every error, writing nothing.

    `skip_other_ports`: samples of a known switch on a port that is no link end (a management
    port, a server port) are skipped and counted instead of rejected. Collectors subscribed
    to a whole device (gNMI, Prometheus exporters) send those; our own formats do not."""
    limit = settings.TELEMETRY_MAX_BATCH_SAMPLES
    if len(samples) > limit:
        raise TelemetryRejected(
            [{"field": None, "reason": f"{len(samples)} samples exceed the batch limit of {limit}"}]
        )
    now = now or timezone.now()
    result = IngestResult(samples=len(samples), skipped_updates=skipped_updates)
    with transaction.atomic():
        _stage(samples)
        if skip_other_ports:
            result.skipped_samples = _drop_other_ports(fabric)
            result.samples -= result.skipped_samples
        errors = _validate(fabric, now)
        for error in errors:
            if where is not None and error["index"] < len(where):
                error.update(where[error["index"]])  # the parser's line or notification, and body index
        errors = sorted([*parse_errors, *errors], key=lambda e: (e.get("index", -1), e.get("line", 0)))
        if errors:
            raise TelemetryRejected(errors)
        if not result.samples:
            return result
        with connection.cursor() as cursor:
            # Serialise the derivation of one fabric; other fabrics ingest in parallel.
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [LOCK_NAMESPACE, fabric.pk])
            _resolve(cursor, fabric)
            cursor.execute("SELECT DISTINCT (time AT TIME ZONE 'UTC')::date FROM tmp_rows")
            partitions.ensure_partitions(row[0] for row in cursor.fetchall())
            result.inserted, result.merged = _store_samples(cursor)
            _store_device_thresholds(cursor)
            _update_optical(cursor)
            _track_health_links(cursor)
            _advance_windows(cursor, fabric, result)
            _classify(cursor)
            result.health_changes = _update_links(cursor)
        if result.events_opened:  # CorrOpt decides each new event once the batch is visible
            from corruption.tasks import enqueue_decisions

            opened = list(result.events_opened)
            transaction.on_commit(lambda: enqueue_decisions(opened), robust=True)
    return result


def _resolve(cursor, fabric: Fabric) -> None:
    """tmp_rows: the staged samples on their link ends, with no light and lane rules applied."""
    cursor.execute("DROP TABLE IF EXISTS tmp_rows")
    cursor.execute(
        """
        CREATE TEMP TABLE tmp_rows ON COMMIT DROP AS
        WITH ends AS (
            SELECT s.name AS switch, l.a_port AS port, l.id AS link_id, 'a'::char(1) AS side
              FROM fabric_link l JOIN fabric_switch s ON s.id = l.a_switch_id WHERE l.fabric_id = %(fabric)s
            UNION ALL
            SELECT s.name, l.z_port, l.id, 'z'::char(1)
              FROM fabric_link l JOIN fabric_switch s ON s.id = l.z_switch_id WHERE l.fabric_id = %(fabric)s
        ),
        lanes AS (
            -- Lane functions run a subquery each: only where there are lanes.
            SELECT t.*, e.link_id, e.side,
                   CASE WHEN t.input_power_channels_dbm IS NOT NULL THEN lightpath_lit(t.input_power_channels_dbm) END AS rx_lanes,
                   CASE WHEN t.output_power_channels_dbm IS NOT NULL THEN lightpath_lit(t.output_power_channels_dbm) END AS tx_lanes
              FROM tmp_ingest t JOIN ends e ON e.switch = t.switch AND e.port = t.port
        )
        SELECT time, link_id, side,
               CASE WHEN lightpath_dark(input_power_dbm) THEN NULL
                    WHEN input_power_dbm IS NOT NULL OR rx_lanes IS NULL THEN input_power_dbm
                    ELSE lightpath_mean_dbm(rx_lanes) END AS input_power_dbm,
               CASE WHEN lightpath_dark(output_power_dbm) THEN NULL
                    WHEN output_power_dbm IS NOT NULL OR tx_lanes IS NULL THEN output_power_dbm
                    ELSE lightpath_mean_dbm(tx_lanes) END AS output_power_dbm,
               rx_lanes AS input_power_channels_dbm,
               tx_lanes AS output_power_channels_dbm,
               CASE WHEN laser_bias_current_ma IS NOT NULL OR laser_bias_current_channels_ma IS NULL
                    THEN laser_bias_current_ma
                    ELSE (SELECT avg(x) FROM unnest(laser_bias_current_channels_ma) AS x) END AS laser_bias_current_ma,
               laser_bias_current_channels_ma, temperature_c, supply_voltage_v,
               coalesce(lightpath_dark(input_power_dbm), false)
                 OR (input_power_channels_dbm IS NOT NULL AND lightpath_any_dark(input_power_channels_dbm)) AS rx_no_light,
               coalesce(lightpath_dark(output_power_dbm), false)
                 OR (output_power_channels_dbm IS NOT NULL AND lightpath_any_dark(output_power_channels_dbm)) AS tx_no_light,
               least(CASE WHEN lightpath_dark(input_power_dbm) THEN NULL ELSE input_power_dbm END,
                     CASE WHEN rx_lanes IS NOT NULL THEN lightpath_min_lit(rx_lanes) END) AS rx_min_channel,
               least(CASE WHEN lightpath_dark(output_power_dbm) THEN NULL ELSE output_power_dbm END,
                     CASE WHEN tx_lanes IS NOT NULL THEN lightpath_min_lit(tx_lanes) END) AS tx_min_channel,
               in_pkts, in_fcs_errors, in_discards, out_pkts, out_discards,
               input_power_lower_dbm, input_power_upper_dbm, output_power_lower_dbm, output_power_upper_dbm
          FROM lanes
        """,
        {"fabric": fabric.pk},
    )
    cursor.execute("ANALYZE tmp_rows")


SAMPLE_COLUMNS = (
    "time", "link_id", "side", "input_power_dbm", "output_power_dbm", "input_power_channels_dbm",
    "output_power_channels_dbm", "laser_bias_current_ma", "laser_bias_current_channels_ma", "temperature_c",
    "supply_voltage_v", "rx_no_light", "tx_no_light", *COUNTERS,
)  # fmt: skip


def _store_samples(cursor) -> tuple[int, int]:
    columns = ", ".join(SAMPLE_COLUMNS)
    merged_values = ", ".join(
        f"{c} = COALESCE(EXCLUDED.{c}, s.{c})"
        for c in SAMPLE_COLUMNS
        if c not in ("time", "link_id", "side", "rx_no_light", "tx_no_light")
    )
    # A flag follows the newest reading of its power; a batch without that power keeps the old flag.
    flags = (
        "rx_no_light = CASE WHEN EXCLUDED.rx_no_light OR EXCLUDED.input_power_dbm IS NOT NULL "
        "THEN EXCLUDED.rx_no_light ELSE s.rx_no_light END, "
        "tx_no_light = CASE WHEN EXCLUDED.tx_no_light OR EXCLUDED.output_power_dbm IS NOT NULL "
        "THEN EXCLUDED.tx_no_light ELSE s.tx_no_light END"
    )
    # Partitioned tables hide xmax from RETURNING, so the re-sent rows are counted first.
    cursor.execute("SELECT count(*) FROM tmp_rows JOIN telemetry_sample USING (link_id, side, time)")
    merged = cursor.fetchone()[0]
    cursor.execute(
        f"INSERT INTO telemetry_sample AS s ({columns}) SELECT {columns} FROM tmp_rows "
        f"ON CONFLICT (link_id, side, time) DO UPDATE SET {merged_values}, {flags}"
    )
    return cursor.rowcount - merged, merged


def _store_device_thresholds(cursor) -> None:
    """The newest device-reported limits of each end; manual rows are never touched here."""
    present = " OR ".join(f"{name} IS NOT NULL" for name in THRESHOLD_FIELDS)
    names = ", ".join(THRESHOLD_FIELDS)
    cursor.execute(
        f"""
        INSERT INTO telemetry_powerthreshold AS p (link_id, side, source, {names}, updated)
        SELECT DISTINCT ON (link_id, side) link_id, side, 'device', {names}, now()
          FROM tmp_rows WHERE {present} ORDER BY link_id, side, time DESC
        ON CONFLICT (link_id, side, source) DO UPDATE SET
        """
        + ", ".join(f"{n} = COALESCE(EXCLUDED.{n}, p.{n})" for n in THRESHOLD_FIELDS)
        + ", updated = EXCLUDED.updated"
    )


OPTICAL = (
    "input_power_dbm IS NOT NULL OR output_power_dbm IS NOT NULL OR rx_no_light OR tx_no_light "
    "OR laser_bias_current_ma IS NOT NULL OR temperature_c IS NOT NULL OR supply_voltage_v IS NOT NULL"
)


def _update_optical(cursor) -> None:
    """The newest optical sample of each end in the batch updates the readings it carries,
    unless the end already holds a newer one (an out-of-order batch is stored, not shown)."""
    cursor.execute(
        f"""
        INSERT INTO telemetry_endstate AS e (
            link_id, side, optical_time, input_power_dbm, input_power_min_channel_dbm, output_power_dbm,
            output_power_min_channel_dbm, laser_bias_current_ma, temperature_c, supply_voltage_v,
            rx_no_light, tx_no_light, rx_class, tx_class)
        SELECT DISTINCT ON (link_id, side) link_id, side, time, input_power_dbm, rx_min_channel, output_power_dbm,
               tx_min_channel, laser_bias_current_ma, temperature_c, supply_voltage_v, rx_no_light, tx_no_light,
               'unknown', 'unknown'
          FROM tmp_rows WHERE {OPTICAL} ORDER BY link_id, side, time DESC
        ON CONFLICT (link_id, side) DO UPDATE SET
            optical_time = EXCLUDED.optical_time,
            input_power_dbm = CASE WHEN EXCLUDED.input_power_dbm IS NOT NULL OR EXCLUDED.rx_no_light
                                   THEN EXCLUDED.input_power_dbm ELSE e.input_power_dbm END,
            input_power_min_channel_dbm = CASE WHEN EXCLUDED.input_power_dbm IS NOT NULL OR EXCLUDED.rx_no_light
                                   THEN EXCLUDED.input_power_min_channel_dbm ELSE e.input_power_min_channel_dbm END,
            rx_no_light = CASE WHEN EXCLUDED.input_power_dbm IS NOT NULL OR EXCLUDED.rx_no_light
                               THEN EXCLUDED.rx_no_light ELSE e.rx_no_light END,
            output_power_dbm = CASE WHEN EXCLUDED.output_power_dbm IS NOT NULL OR EXCLUDED.tx_no_light
                                    THEN EXCLUDED.output_power_dbm ELSE e.output_power_dbm END,
            output_power_min_channel_dbm = CASE WHEN EXCLUDED.output_power_dbm IS NOT NULL OR EXCLUDED.tx_no_light
                                    THEN EXCLUDED.output_power_min_channel_dbm ELSE e.output_power_min_channel_dbm END,
            tx_no_light = CASE WHEN EXCLUDED.output_power_dbm IS NOT NULL OR EXCLUDED.tx_no_light
                               THEN EXCLUDED.tx_no_light ELSE e.tx_no_light END,
            laser_bias_current_ma = coalesce(EXCLUDED.laser_bias_current_ma, e.laser_bias_current_ma),
            temperature_c = coalesce(EXCLUDED.temperature_c, e.temperature_c),
            supply_voltage_v = coalesce(EXCLUDED.supply_voltage_v, e.supply_voltage_v)
        WHERE e.optical_time IS NULL OR EXCLUDED.optical_time >= e.optical_time
        """
    )


def _track_health_links(cursor) -> None:
    """tmp_health_links: the links whose direction health may have changed in this batch."""
    cursor.execute("DROP TABLE IF EXISTS tmp_health_links")
    cursor.execute("CREATE TEMP TABLE tmp_health_links (link_id bigint PRIMARY KEY) ON COMMIT DROP")


def _advance_windows(cursor, fabric: Fabric, result: IngestResult) -> None:
    """Feed the batch's counter samples into each end's window, round by round; every
    completed window gives rates, health and events (tests/reference.py states the rules; tests hold
    this SQL to it)."""
    present = " OR ".join(f"{c} IS NOT NULL" for c in COUNTERS)
    cursor.execute("DROP TABLE IF EXISTS tmp_counters")
    cursor.execute(
        f"""
        CREATE TEMP TABLE tmp_counters ON COMMIT DROP AS
        SELECT link_id, side, time, {", ".join(COUNTERS)},
               row_number() OVER (PARTITION BY link_id, side ORDER BY time) AS round
          FROM tmp_rows WHERE {present}
        """
    )
    cursor.execute("ANALYZE tmp_counters")
    cursor.execute("SELECT coalesce(max(round), 0) FROM tmp_counters")
    rounds = cursor.fetchone()[0]
    params = {
        "window": dt.timedelta(seconds=fabric.telemetry_window_s),
        "max_gap": dt.timedelta(seconds=MAX_GAP_WINDOWS * fabric.telemetry_window_s),
        "min_packets": max(fabric.telemetry_min_packets, 1),
        "action": fabric.corruption_action_threshold,
        "report": fabric.corruption_report_threshold,
    }
    went_back = " OR ".join(f"coalesce(c.{k} < e.last_{k}, false)" for k in COUNTERS)
    last = ", ".join(f"last_{k} = s.{k}" for k in COUNTERS)
    for round_ in range(1, rounds + 1):
        cursor.execute("DROP TABLE IF EXISTS tmp_step")
        cursor.execute(
            f"""
            CREATE TEMP TABLE tmp_step ON COMMIT DROP AS
            SELECT c.*,
                   e.link_id IS NULL OR e.counter_time IS NULL OR e.window_time IS NULL
                       OR c.time - e.counter_time > %(max_gap)s OR {went_back} AS restart,
                   e.window_time IS NOT NULL AND c.time - e.window_time >= %(window)s AS complete,
                   e.window_time AS window_start,
                   c.in_pkts - e.window_in_pkts AS d_in_pkts, c.in_fcs_errors - e.window_in_fcs_errors AS d_fcs,
                   c.out_pkts - e.window_out_pkts AS d_out_pkts, c.out_discards - e.window_out_discards AS d_discards
              FROM tmp_counters c LEFT JOIN telemetry_endstate e USING (link_id, side)
             WHERE c.round = %(round)s AND (e.counter_time IS NULL OR c.time > e.counter_time)
            """,
            {**params, "round": round_},
        )
        cursor.execute("ANALYZE tmp_step")
        # New ends first get a row; then every stepped end records its newest counters, and
        # restarts or completes its window.
        cursor.execute(
            "INSERT INTO telemetry_endstate (link_id, side, rx_no_light, tx_no_light, rx_class, tx_class) "
            "SELECT link_id, side, false, false, 'unknown', 'unknown' FROM tmp_step "
            "ON CONFLICT (link_id, side) DO NOTHING"
        )
        cursor.execute(
            f"""
            UPDATE telemetry_endstate e SET counter_time = s.time, {last},
                   window_time = CASE WHEN s.restart OR s.complete THEN s.time ELSE e.window_time END,
                   """
            + ", ".join(
                f"window_{k} = CASE WHEN s.restart OR s.complete THEN s.{k} ELSE e.window_{k} END" for k in COUNTERS
            )
            + " FROM tmp_step s WHERE e.link_id = s.link_id AND e.side = s.side"
        )
        cursor.execute("DROP TABLE IF EXISTS tmp_windows")
        cursor.execute(
            """
            CREATE TEMP TABLE tmp_windows ON COMMIT DROP AS
            SELECT link_id, CASE side WHEN 'z' THEN 'a_to_z' ELSE 'z_to_a' END AS direction, 'corruption' AS kind,
                   time, (d_fcs / (d_in_pkts + d_fcs))::float8 AS rate
              FROM tmp_step
             WHERE complete AND NOT restart AND d_in_pkts IS NOT NULL AND d_fcs IS NOT NULL
               AND d_in_pkts + d_fcs >= %(min_packets)s
            UNION ALL
            SELECT link_id, CASE side WHEN 'a' THEN 'a_to_z' ELSE 'z_to_a' END, 'congestion', time,
                   (d_discards / d_out_pkts)::float8
              FROM tmp_step
             WHERE complete AND NOT restart AND d_out_pkts IS NOT NULL AND d_discards IS NOT NULL
               AND d_out_pkts >= %(min_packets)s
            """,
            params,
        )
        cursor.execute("ANALYZE tmp_windows")
        cursor.execute(
            "SELECT count(*) FROM tmp_step WHERE complete AND NOT restart "
            "AND (coalesce(d_in_pkts + d_fcs >= %(min_packets)s, false) OR coalesce(d_out_pkts >= %(min_packets)s, false))",
            params,
        )
        result.windows += cursor.fetchone()[0]
        cursor.execute(
            "INSERT INTO tmp_health_links SELECT DISTINCT link_id FROM tmp_windows WHERE kind = 'corruption' "
            "ON CONFLICT DO NOTHING"
        )
        _apply_windows(cursor, params, result)


def _apply_windows(cursor, params: dict[str, Any], result: IngestResult) -> None:
    """Rates of this round's windows into direction health, and transitions into events."""
    health = "CASE WHEN w.rate >= %(action)s THEN 'corrupting' WHEN w.rate >= %(report)s THEN 'lossy' ELSE 'clean' END"
    # Events first: they compare the new health with the direction's health before this window.
    cursor.execute(
        f"""
        WITH obs AS (SELECT w.*, {health} AS health FROM tmp_windows w WHERE w.kind = 'corruption')
        INSERT INTO telemetry_corruptionevent (link_id, direction, rate, first_seen, last_rate, peak_rate, last_seen)
        SELECT o.link_id, o.direction, o.rate, o.time, o.rate, o.rate, o.time FROM obs o
         WHERE o.health = 'corrupting'
           AND NOT EXISTS (SELECT 1 FROM telemetry_corruptionevent c WHERE c.link_id = o.link_id
                           AND c.direction = o.direction AND c.ended_at IS NULL)
        RETURNING id
        """,
        params,
    )
    result.events_opened += [row[0] for row in cursor.fetchall()]
    cursor.execute(
        f"""
        WITH obs AS (SELECT w.*, {health} AS health FROM tmp_windows w WHERE w.kind = 'corruption')
        UPDATE telemetry_corruptionevent c
           SET last_rate = CASE WHEN o.health = 'corrupting' THEN o.rate ELSE c.last_rate END,
               last_seen = CASE WHEN o.health = 'corrupting' THEN o.time ELSE c.last_seen END,
               peak_rate = CASE WHEN o.health = 'corrupting' THEN greatest(c.peak_rate, o.rate) ELSE c.peak_rate END,
               ended_at = CASE WHEN o.health = 'corrupting' THEN NULL ELSE o.time END
          FROM obs o
         WHERE c.link_id = o.link_id AND c.direction = o.direction AND c.ended_at IS NULL AND c.first_seen < o.time
        RETURNING c.id, c.ended_at IS NOT NULL
        """,
        params,
    )
    ended = {event_id for event_id, is_ended in cursor.fetchall() if is_ended}
    result.events_opened = [e for e in result.events_opened if e not in ended]
    result.events_ended = sorted({*result.events_ended, *ended})
    cursor.execute(
        f"""
        INSERT INTO telemetry_directionhealth AS h (link_id, direction, health, corruption_rate, corruption_time,
                                                     congestion_rate, congestion_time, health_since)
        SELECT w.link_id, w.direction, {health}, w.rate, w.time, NULL, NULL, w.time
          FROM tmp_windows w WHERE w.kind = 'corruption'
        ON CONFLICT (link_id, direction) DO UPDATE SET
            health_since = CASE WHEN h.health = EXCLUDED.health THEN h.health_since ELSE EXCLUDED.health_since END,
            health = EXCLUDED.health, corruption_rate = EXCLUDED.corruption_rate,
            corruption_time = EXCLUDED.corruption_time
        """,
        params,
    )
    cursor.execute(
        """
        INSERT INTO telemetry_directionhealth AS h (link_id, direction, health, congestion_rate, congestion_time)
        SELECT w.link_id, w.direction, 'unknown', w.rate, w.time FROM tmp_windows w WHERE w.kind = 'congestion'
        ON CONFLICT (link_id, direction) DO UPDATE SET
            congestion_rate = EXCLUDED.congestion_rate, congestion_time = EXCLUDED.congestion_time
        """
    )


def _class_sql(value: str, dark: str, lower: str, upper: str, low_op: str) -> str:
    return f"""CASE WHEN {dark} THEN 'low'
                    WHEN {value} IS NULL OR ({lower} IS NULL AND {upper} IS NULL) THEN 'unknown'
                    WHEN {value} {low_op} {lower} THEN 'low'
                    WHEN {value} > {upper} THEN 'high'
                    ELSE 'ok' END"""


# Rx below its lower limit is low (Algorithm 1 compares Rx < ThreshRx), Tx at or below it
# (Tx <= ThreshTx); the lowest lane decides where there are lanes.
RX_CLASS = _class_sql(
    "coalesce(s.input_power_min_channel_dbm, s.input_power_dbm)", "s.rx_no_light",
    limit_value("input_power_lower_dbm"), limit_value("input_power_upper_dbm"), "<",
)  # fmt: skip
TX_CLASS = _class_sql(
    "coalesce(s.output_power_min_channel_dbm, s.output_power_dbm)", "s.tx_no_light",
    limit_value("output_power_lower_dbm"), limit_value("output_power_upper_dbm"), "<=",
)  # fmt: skip


def _scope(link_ids: Sequence[int] | None) -> str:
    return "(SELECT DISTINCT link_id FROM tmp_rows)" if link_ids is None else "(SELECT unnest(%(ids)s::bigint[]))"


def _classify(cursor, link_ids: Sequence[int] | None = None) -> None:
    """Rx/Tx classes of the ends of this batch (or of `link_ids`) against their effective
    limits; only ends whose class changes are written, and their links noted in tmp_changed."""
    cursor.execute("DROP TABLE IF EXISTS tmp_changed")
    cursor.execute(
        f"""
        CREATE TEMP TABLE tmp_changed ON COMMIT DROP AS
        WITH changed AS (
            UPDATE telemetry_endstate e SET rx_class = c.rx_class, tx_class = c.tx_class
              FROM (SELECT s.id, {RX_CLASS} AS rx_class, {TX_CLASS} AS tx_class
                      FROM telemetry_endstate s {limits_from("s")}
                     WHERE s.link_id IN {_scope(link_ids)}) c
             WHERE e.id = c.id AND (e.rx_class <> c.rx_class OR e.tx_class <> c.tx_class)
            RETURNING e.link_id
        )
        SELECT DISTINCT link_id FROM changed
        """,
        {"ids": list(link_ids or [])},
    )


def _update_links(cursor) -> int:
    """Each link's worse direction and its rx_low flag, where they changed: only links with a
    new corruption window or a changed class can change."""
    scope = "(SELECT link_id FROM tmp_changed UNION SELECT link_id FROM tmp_health_links)"
    cursor.execute(
        f"""
        WITH health AS (
            SELECT link_id, max(CASE health WHEN 'corrupting' THEN 3 WHEN 'lossy' THEN 2
                                            WHEN 'clean' THEN 1 ELSE 0 END) AS severity
              FROM telemetry_directionhealth WHERE link_id IN {scope} GROUP BY link_id
        ),
        rx AS (
            SELECT link_id, bool_or(rx_class = 'low') AS rx_low
              FROM telemetry_endstate WHERE link_id IN {scope} GROUP BY link_id
        ),
        state AS (
            SELECT coalesce(h.link_id, r.link_id) AS id,
                   CASE coalesce(h.severity, 0) WHEN 3 THEN 'corrupting' WHEN 2 THEN 'lossy'
                                                WHEN 1 THEN 'clean' ELSE 'unknown' END AS health,
                   coalesce(r.rx_low, false) AS rx_low
              FROM health h FULL JOIN rx r ON r.link_id = h.link_id
        )
        UPDATE fabric_link l SET health = s.health, rx_low = s.rx_low FROM state s
         WHERE l.id = s.id AND (l.health <> s.health OR l.rx_low <> s.rx_low)
        """
    )
    return cursor.rowcount


def reclassify(link_ids: Sequence[int]) -> int:
    """Classify the newest readings again after thresholds changed; returns links whose flags changed."""
    with transaction.atomic(), connection.cursor() as cursor:
        _track_health_links(cursor)
        _classify(cursor, link_ids)
        return _update_links(cursor)
