"""Telemetry ingest, the write path: validate a batch and store its samples.

A batch is all or nothing. It takes one of two paths:
- the fast path, for a good batch of new samples (a live poll, the usual batch): link ends are
  resolved from a per-process index of the fabric (endpoints.py, checked current by a fingerprint
  query), every rule is checked in Python while the rows are built (the no-light and lane rules as
  migration 0003's SQL functions state them), and the rows are COPYed (binary) straight into the
  partitioned sample table inside a savepoint;
- the full path, set-based in PostgreSQL, for any batch the fast path gives up on (a bad sample,
  an unusual value type, or a re-sent (end, time): the COPY then fails on the primary key and its
  savepoint is rolled back): 1. the samples are COPYed into a staging table; 2. one query lists
  every bad sample (unknown end, out-of-range value, time, duplicate...); 3. the batch is merged
  into the sample table (a re-sent (end, time) updates).
Either way a reading nearer zero than rules.RESOLUTION is read as 0 first (rules.at_resolution:
PostgreSQL raises on float underflow), each row is stamped with the batch's id, device-reported
thresholds are kept, the batch is recorded (IngestBatch) and derivation (services/derivation.py:
windows, rates, health, events, classes) is queued for the fabric once the batch commits, or run
at once.
Ingests of one fabric are serialised by an advisory lock, so batch ids grow in commit order per
fabric; link deletions take the same lock (migration 0006: samples go with their links by a
trigger, not a foreign key, whose per-row check cost more than half of the insert).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import psycopg
from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from fabric.models import Fabric

from ..formats import OPER_STATUSES
from ..models import IngestBatch
from . import derivation, endpoints, partitions, rules
from .derivation import reclassify  # noqa: F401  (the threshold API calls it through this module)
from .rules import COUNTERS, NO_LIGHT_CEILING_DBM, POWER_MAX_DBM, POWER_MIN_DBM

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
    *COUNTERS, *THRESHOLD_FIELDS, "oper_status",
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
    batch: int | None = None
    # Set when derivation ran with the batch (derive=True); otherwise it is queued.
    derived: derivation.DerivationResult | None = None

    @property
    def windows(self) -> int:
        return self.derived.windows if self.derived else 0

    @property
    def events_opened(self) -> list[int]:
        return self.derived.events_opened if self.derived else []

    @property
    def events_ended(self) -> list[int]:
        return self.derived.events_ended if self.derived else []

    @property
    def health_changes(self) -> int:
        return self.derived.health_changes if self.derived else 0

    def as_dict(self) -> dict[str, Any]:
        """The API's answer: what was stored; derivation runs after the commit ("queued")."""
        return {
            "samples": self.samples,
            "inserted": self.inserted,
            "merged": self.merged,
            "skipped_updates": self.skipped_updates,
            "skipped_samples": self.skipped_samples,
            "batch": self.batch,
            "derivation": "done" if self.derived else "queued",
        }


# ------------------------------------------------------------------------------------------
# Staging: the parsed samples as COPY text


STAGING_COLUMNS = ("idx", "switch", "port", "time", *VALUE_FIELDS)


def _stage(samples: Sequence[dict[str, Any]]) -> None:
    """COPY the samples into the session's staging table tmp_ingest (dropped with the transaction)."""
    types = dict.fromkeys(VALUE_FIELDS, "float8")
    types.update(dict.fromkeys(LANE_FIELDS, "float8[]"))
    types.update(dict.fromkeys(COUNTERS, "numeric"))
    types["oper_status"] = "text"
    columns = ", ".join(f"{name} {types[name]}" for name in VALUE_FIELDS)
    with connection.cursor() as cursor:
        cursor.execute("DROP TABLE IF EXISTS tmp_ingest")
        cursor.execute(
            f"CREATE TEMP TABLE tmp_ingest (idx integer, switch text, port text, time timestamptz, {columns}) "
            "ON COMMIT DROP"
        )
        with cursor.cursor.copy(f"COPY tmp_ingest ({', '.join(STAGING_COLUMNS)}) FROM STDIN") as copy:
            # Declared types: psycopg's C row writer then takes ints in float columns and lanes
            # that mix ints and floats, with no per-value Python formatting.
            copy.set_types(["int4", "text", "text", "timestamptz", *(types[name] for name in VALUE_FIELDS)])
            write_row = copy.write_row
            resolved = rules.at_resolution  # as the fast path reads them (no call for the many Nones)
            for index, sample in enumerate(samples):
                get = sample.get
                values = [v if (v := get(name)) is None else resolved(v) for name in VALUE_FIELDS]
                write_row((index, get("switch"), get("port"), get("time"), *values))
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
    oper_check = f"""SELECT idx, 'oper_status', format('oper_status: %%s is not an oper-status (one of {", ".join(OPER_STATUSES)})', to_json(oper_status))
              FROM tmp_ingest WHERE oper_status IS NOT NULL AND oper_status NOT IN ({_OPER_NAMES})"""
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
            oper_check,
            f"SELECT idx, NULL, 'the sample has no measurement' FROM tmp_ingest WHERE {measured}",
            """SELECT idx, NULL, format('same link end and time as sample %%s', first)
                 FROM (SELECT idx, time, min(idx) OVER (PARTITION BY switch, port, time) AS first FROM tmp_ingest) d
                WHERE idx <> first""",
        ]
    )


_OPER_NAMES = ", ".join(f"'{name}'" for name in OPER_STATUSES)
# The stored code of a staged oper-status name (IF-MIB's ifOperStatus number).
_OPER_CODE_SQL = (
    "CASE oper_status " + " ".join(f"WHEN '{name}' THEN {code}" for name, code in OPER_STATUSES.items()) + " END::int2"
)


def _suspect_sql() -> str:
    """One scan of the staged batch: whether any sample breaks a rule that needs no lookup
    (the conditions of _validation_sql)."""
    powers = ("input_power_dbm", "output_power_dbm", *THRESHOLD_FIELDS)
    low, high = RANGES["laser_bias_current_ma"]
    conditions = [
        *(f"NOT lightpath_power_ok({name}) OR {name} = 'NaN'" for name in powers),
        *(
            f"{name} IS NOT NULL AND EXISTS (SELECT 1 FROM unnest({name}) x WHERE NOT lightpath_power_ok(x) OR x = 'NaN')"
            for name in ("input_power_channels_dbm", "output_power_channels_dbm")
        ),
        "laser_bias_current_channels_ma IS NOT NULL AND EXISTS "
        f"(SELECT 1 FROM unnest(laser_bias_current_channels_ma) x WHERE NOT (x BETWEEN {low} AND {high}))",
        *(f"{name} IS NOT NULL AND NOT ({name} BETWEEN {lo} AND {hi})" for name, (lo, hi) in RANGES.items()),
        *(f"NOT ({name} BETWEEN 0 AND {COUNTER_MAX})" for name in COUNTERS),
        "time > %(latest)s OR time < %(earliest)s",
        f"oper_status IS NOT NULL AND oper_status NOT IN ({_OPER_NAMES})",
        " AND ".join(f"{name} IS NULL" for name in VALUE_FIELDS),
    ]
    return (
        "SELECT EXISTS (SELECT 1 FROM tmp_ingest WHERE "
        + " OR ".join(f"coalesce({c}, false)" for c in conditions)
        + ")"
    )


def _suspect(fabric: Fabric, now: dt.datetime) -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            _suspect_sql(),
            {
                "latest": now + dt.timedelta(seconds=settings.TELEMETRY_MAX_CLOCK_SKEW_S),
                "earliest": now - dt.timedelta(days=settings.TELEMETRY_RAW_RETENTION_DAYS),
            },
        )
        return bool(cursor.fetchone()[0])


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
    derive: bool = False,
    now: dt.datetime | None = None,
) -> IngestResult:
    """Validate and store one batch; raise TelemetryRejected with every error, writing nothing.

    `skip_other_ports`: samples of a known switch on a port that is no link end (a management
    port, a server port) are skipped and counted instead of rejected. Collectors subscribed
    to a whole device (gNMI, Prometheus exporters) send those; our own formats do not.
    `derive`: derive the fabric's pending batches in this transaction (scripts, tests, the demo
    loader) instead of queueing the derivation task for after the commit."""
    limit = settings.TELEMETRY_MAX_BATCH_SAMPLES
    if len(samples) > limit:
        raise TelemetryRejected(
            [{"field": None, "reason": f"{len(samples)} samples exceed the batch limit of {limit}"}]
        )
    now = now or timezone.now()
    result = IngestResult(samples=len(samples), skipped_updates=skipped_updates)
    with transaction.atomic():
        written = False if parse_errors else _write_checked_in_python(fabric, samples, now, skip_other_ports, result)
        if written is None:
            return result  # every sample was of a port without a link, and skipped
        if not written and not _write_staged(fabric, samples, now, where, parse_errors, skip_other_ports, result):
            return result
        if derive:
            result.derived = derivation.derive(fabric)
        else:
            derivation.queue_after_commit(fabric.pk)
    return result


def _write_staged(
    fabric: Fabric,
    samples: Sequence[dict[str, Any]],
    now: dt.datetime,
    where: Sequence[dict[str, int]] | None,
    parse_errors: Sequence[dict[str, Any]],
    skip_other_ports: bool,
    result: IngestResult,
) -> bool:
    """The full path, set-based in SQL: every problem listed, re-sent samples merged. Returns
    whether anything was written (all samples may be skipped ports)."""
    result.samples = len(samples)
    _stage(samples)
    if skip_other_ports:
        result.skipped_samples = _drop_other_ports(fabric)
        result.samples -= result.skipped_samples

    def reject_if_invalid() -> None:
        errors = _validate(fabric, now)
        for error in errors:
            if where is not None and error["index"] < len(where):
                error.update(where[error["index"]])  # the parser's line or notification, and body index
        errors = sorted([*parse_errors, *errors], key=lambda e: (e.get("index", -1), e.get("line", 0)))
        if errors:
            raise TelemetryRejected(errors)

    # The full validation lists every problem but reads the batch about twenty times; a good
    # batch (the usual one) is recognised by one scan and the end lookup it needs anyway.
    if parse_errors or _suspect(fabric, now):
        reject_if_invalid()
    if not result.samples:
        return False
    with connection.cursor() as cursor:
        # Serialise the batches of one fabric, so that their ids grow in commit order (the
        # derivation watermark relies on it); other fabrics ingest in parallel.
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [LOCK_NAMESPACE, fabric.pk])
        resolved = _resolve(cursor, fabric)
        if resolved < result.samples:  # unknown switches or ports
            reject_if_invalid()
        cursor.execute(
            "SELECT DISTINCT (time AT TIME ZONE 'UTC')::date, min(time) OVER (), max(time) OVER () FROM tmp_rows"
        )
        days = cursor.fetchall()
        partitions.ensure_partitions(row[0] for row in days)
        batch = IngestBatch.objects.create(
            fabric=fabric, samples=result.samples, first_time=days[0][1], last_time=days[0][2]
        )
        result.batch = batch.pk
        result.inserted = _insert_new(cursor, batch.pk)
        if result.inserted < resolved:
            # Conflicts: re-sent samples, or the same end and time twice in this batch (an
            # error, which the full validation names; the transaction then writes nothing).
            reject_if_invalid()
            result.merged = _merge(cursor, batch.pk)
        _store_device_thresholds(cursor)
    return True


def _resolve(cursor, fabric: Fabric) -> int:
    """tmp_rows: the staged samples on their link ends, with no light and lane rules applied."""
    cursor.execute("DROP TABLE IF EXISTS tmp_rows")
    cursor.execute(
        f"""
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
               in_pkts, in_fcs_errors, in_discards, out_pkts, out_discards,
               input_power_lower_dbm, input_power_upper_dbm, output_power_lower_dbm, output_power_upper_dbm,
               {_OPER_CODE_SQL} AS oper_status
          FROM lanes
        """,
        {"fabric": fabric.pk},
    )
    return cursor.rowcount


SAMPLE_COLUMNS = (
    "time", "link_id", "side", "input_power_dbm", "output_power_dbm", "input_power_channels_dbm",
    "output_power_channels_dbm", "laser_bias_current_ma", "laser_bias_current_channels_ma", "temperature_c",
    "supply_voltage_v", "rx_no_light", "tx_no_light", *COUNTERS, "oper_status",
)  # fmt: skip


def _insert_new(cursor, batch: int) -> int:
    """Insert the batch's new samples, without looking anything up (live polls are all new);
    returns how many were new."""
    columns = ", ".join(SAMPLE_COLUMNS)
    cursor.execute(
        f"WITH new AS (INSERT INTO telemetry_sample ({columns}, batch_id) SELECT {columns}, %s FROM tmp_rows "
        "ON CONFLICT (link_id, side, time) DO NOTHING RETURNING 1) SELECT count(*) FROM new",
        [batch],
    )
    return cursor.fetchone()[0]


def _merge(cursor, batch: int) -> int:
    """Merge the re-sent samples (those this batch did not insert) into the stored ones."""
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
    # The re-sent sample takes the new batch's id, so derivation sees its merged values.
    cursor.execute(
        f"INSERT INTO telemetry_sample AS s ({columns}, batch_id) SELECT {columns}, %(batch)s FROM tmp_rows t "
        "WHERE NOT EXISTS (SELECT 1 FROM telemetry_sample n WHERE n.link_id = t.link_id AND n.side = t.side "
        "AND n.time = t.time AND n.batch_id = %(batch)s) "
        f"ON CONFLICT (link_id, side, time) DO UPDATE SET {merged_values}, {flags}, batch_id = EXCLUDED.batch_id",
        {"batch": batch},
    )
    return cursor.rowcount


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


# ------------------------------------------------------------------------------------------
# The fast path: checked and resolved in Python, COPYed straight into the sample table


class _NothingWritten(Exception):
    """Every sample of the batch was skipped."""


class _FullPath(Exception):
    """A sample the fast path does not take: an error to list, or a value of an unusual type."""


_NUMBER = (float, int)  # exact types: a bool is no measurement


def _power_lanes(lanes: Any) -> tuple[list[float | None], float | None, bool]:
    if type(lanes) is not list:
        raise _FullPath
    return rules.classify_lanes(rules.at_resolution(lanes))


def _in_range(value: Any, name: str) -> Any:
    """The value as stored (rules.at_resolution); raises _FullPath if it is out of range."""
    value = rules.at_resolution(value)
    if value is not None:
        low, high = RANGES[name]
        if type(value) not in _NUMBER or not low <= value <= high:
            raise _FullPath
    return value


def _counter(value: Any) -> Any:
    if value is not None and (type(value) is not int or not 0 <= value <= COUNTER_MAX):
        raise _FullPath
    return value


def _checked_rows(
    ends: Mapping[tuple[Any, Any], tuple[int, str]],
    switches: frozenset[str] | None,
    samples: Iterable[dict[str, Any]],
    batch: int,
    thresholds: dict[tuple[int, str], tuple[dt.datetime, tuple[Any, ...]]],
    skipped: list[int],
) -> Iterator[tuple[Any, ...]]:
    """The rows of telemetry_sample (SAMPLE_COLUMNS and the batch id) of a batch with no problem,
    the no-light and lane rules of rules.py applied (its SQL functions apply the same on the full path). Collects the
    newest device thresholds per end in `thresholds`, and counts in `skipped[0]` the samples of
    ports without a link of a known switch (when `switches` is given). Raises _FullPath at the
    first sample that needs the full path; the times are the caller's to check, once per distinct
    time of the batch. A generator, so that the COPY sends each row as it is
    checked and PostgreSQL stores rows while Python checks the next ones (the two processes run
    on the two cores)."""
    dark_ceiling, power_max, zero = NO_LIGHT_CEILING_DBM, POWER_MAX_DBM, rules.RESOLUTION
    (bias_low, bias_high), (temp_low, temp_high), (volt_low, volt_high) = RANGES.values()
    no_limits = (None, None, None, None)
    oper_codes = OPER_STATUSES
    for sample in samples:
        get = sample.get
        end = ends.get((get("switch"), get("port")))
        if end is None:
            if switches is not None and get("switch") in switches:
                skipped[0] += 1
                continue
            raise _FullPath
        time = sample["time"]  # the caller checked the batch's distinct times
        # The usual values (lit floats in range, not zero at rules.RESOLUTION: what
        # rules.classify_power keeps as they are) are checked inline, for speed; None, ints, no
        # light, readings read as zero and errors go to the rules.
        rx = rx_reported = get("input_power_dbm")
        rx_dark = False
        if type(rx) is not float or not dark_ceiling < rx <= power_max or -zero < rx < zero:
            rx, rx_dark = rules.classify_power(rules.at_resolution(rx))
        tx = tx_reported = get("output_power_dbm")
        tx_dark = False
        if type(tx) is not float or not dark_ceiling < tx <= power_max or -zero < tx < zero:
            tx, tx_dark = rules.classify_power(rules.at_resolution(tx))
        rx_lanes = get("input_power_channels_dbm")
        if rx_lanes is not None:
            rx_lanes, rx_mean, rx_lane_dark = _power_lanes(rx_lanes)
            rx_dark = rx_dark or rx_lane_dark
            if rx_reported is None:
                rx = rx_mean
        tx_lanes = get("output_power_channels_dbm")
        if tx_lanes is not None:
            tx_lanes, tx_mean, tx_lane_dark = _power_lanes(tx_lanes)
            tx_dark = tx_dark or tx_lane_dark
            if tx_reported is None:
                tx = tx_mean
        bias = get("laser_bias_current_ma")
        if type(bias) is not float or not bias_low <= bias <= bias_high or -zero < bias < zero:
            bias = _in_range(bias, "laser_bias_current_ma")
        bias_lanes = get("laser_bias_current_channels_ma")
        if bias_lanes is not None:
            if type(bias_lanes) is not list:
                raise _FullPath
            bias_lanes = [_in_range(x, "laser_bias_current_ma") for x in bias_lanes]
            measured = [x for x in bias_lanes if x is not None]
            if bias is None and measured:
                bias = sum(measured) / len(measured)
        temperature = get("temperature_c")
        if type(temperature) is not float or not temp_low <= temperature <= temp_high or -zero < temperature < zero:
            temperature = _in_range(temperature, "temperature_c")
        voltage = get("supply_voltage_v")
        if type(voltage) is not float or not volt_low <= voltage <= volt_high or -zero < voltage < zero:
            voltage = _in_range(voltage, "supply_voltage_v")
        counters = (get("in_pkts"), get("in_fcs_errors"), get("in_discards"), get("out_pkts"), get("out_discards"))
        for counter in counters:
            if type(counter) is not int or not 0 <= counter <= COUNTER_MAX:
                _counter(counter)
        limits = tuple(get(name) for name in THRESHOLD_FIELDS)
        if limits != no_limits:
            limits = tuple(map(rules.at_resolution, limits))
            for limit in limits:
                rules.classify_power(limit)
            newest = thresholds.get(end)
            if newest is None or newest[0] <= time:
                thresholds[end] = (time, limits)
        oper = get("oper_status")
        if oper is not None:
            oper = oper_codes.get(oper) if type(oper) is str else None
            if oper is None:
                raise _FullPath
        elif rx_reported is None and tx_reported is None and all(get(name) is None for name in VALUE_FIELDS):
            raise _FullPath  # a sample with no measurement
        yield (time, *end, rx, tx, rx_lanes, tx_lanes, bias, bias_lanes, temperature, voltage, rx_dark, tx_dark,
               *counters, oper, batch)  # fmt: skip


COPY_TYPES = (
    "timestamptz", "int8", "text", "float4", "float4", "float4[]", "float4[]", "float4", "float4[]",
    "float4", "float4", "bool", "bool", *(["numeric"] * len(COUNTERS)), "int2", "int8",
)  # fmt: skip


def _write_checked_in_python(
    fabric: Fabric, samples: Sequence[dict[str, Any]], now: dt.datetime, skip_other_ports: bool, result: IngestResult
) -> bool | None:
    """The write path of a good batch of new samples (a live poll): ends resolved from the
    process's index, every rule checked in Python, the rows COPYed into the partitioned table.
    Returns False, having written nothing, when the batch needs the full path (a bad sample, or a
    re-sent one: the COPY then fails on the primary key and its savepoint is rolled back); None
    when every sample was skipped."""
    earliest = now - dt.timedelta(days=settings.TELEMETRY_RAW_RETENTION_DAYS)
    latest = now + dt.timedelta(seconds=settings.TELEMETRY_MAX_CLOCK_SKEW_S)
    with connection.cursor() as cursor:
        # The fabric's ingest lock before the ends are resolved: a link deletion takes it too
        # (migration 0006's trigger deletes the samples of deleted links, in place of a foreign key).
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [LOCK_NAMESPACE, fabric.pk])
        index = endpoints.end_index(fabric.pk)
        try:
            times: set[dt.datetime] = {sample["time"] for sample in samples}
        except (
            KeyError,
            TypeError,
        ):  # a missing or unhashable time: the full path names it  # an unhashable time: the full path names it
            return False
        if not all(type(t) is dt.datetime and t.tzinfo is not None and earliest <= t <= latest for t in times):
            return False
        partitions.ensure_partitions({time.astimezone(dt.UTC).date() for time in times})
        thresholds: dict[tuple[int, str], tuple[dt.datetime, tuple[Any, ...]]] = {}
        skipped = [0]
        columns = ", ".join(SAMPLE_COLUMNS)
        try:
            with transaction.atomic():
                # The batch's row first, for its id; its counts and times are set once the rows are in.
                batch = IngestBatch.objects.create(fabric=fabric, samples=0, first_time=now, last_time=now)
                rows = _checked_rows(
                    index.ends, index.switches if skip_other_ports else None, samples, batch.pk, thresholds, skipped,
                )  # fmt: skip
                written = 0
                with cursor.cursor.copy(
                    f"COPY telemetry_sample ({columns}, batch_id) FROM STDIN (FORMAT BINARY)"
                ) as copy:
                    copy.set_types(COPY_TYPES)
                    write_row = copy.write_row
                    for row in rows:
                        write_row(row)
                        written += 1
                if not written:
                    raise _NothingWritten
        except (_FullPath, rules.RefusedPower, IntegrityError, psycopg.IntegrityError):
            return False  # a bad sample, or a re-sent one that the full path merges; nothing was written
        except _NothingWritten:
            result.samples, result.skipped_samples = 0, skipped[0]
            return None
        if skipped[0]:
            times = {sample["time"] for sample in samples if (sample.get("switch"), sample.get("port")) in index.ends}
        batch.samples, batch.first_time, batch.last_time = written, min(times), max(times)
        batch.save(update_fields=["samples", "first_time", "last_time"])
        if thresholds:
            _store_thresholds(cursor, thresholds)
    result.samples, result.skipped_samples = written, skipped[0]
    result.batch, result.inserted = batch.pk, written
    return True


def _store_thresholds(cursor, thresholds: dict[tuple[int, str], tuple[dt.datetime, tuple[Any, ...]]]) -> None:
    """_store_device_thresholds for the fast path's newest limits per end."""
    names = ", ".join(THRESHOLD_FIELDS)
    ends = list(thresholds)
    columns = [[limits[i] for _, limits in thresholds.values()] for i in range(len(THRESHOLD_FIELDS))]
    cursor.execute(
        f"""
        INSERT INTO telemetry_powerthreshold AS p (link_id, side, source, {names}, updated)
        SELECT link_id, side, 'device', {names}, now()
          FROM unnest(%s::bigint[], %s::text[], %s::float8[], %s::float8[], %s::float8[], %s::float8[])
            AS t(link_id, side, {names})
        ON CONFLICT (link_id, side, source) DO UPDATE SET
        """
        + ", ".join(f"{n} = COALESCE(EXCLUDED.{n}, p.{n})" for n in THRESHOLD_FIELDS)
        + ", updated = EXCLUDED.updated",
        [[link for link, _ in ends], [side for _, side in ends], *columns],
    )
