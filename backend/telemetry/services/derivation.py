"""Telemetry derivation: the committed samples of a fabric turned into counter windows, loss
rates, direction health, corruption events, newest readings, optical classes and link health.

Ingest only stores samples and records each batch (IngestBatch); a per-fabric Celery task
(telemetry.derive, queued once per fabric however many batches arrive) runs `derive`:
1. under the fabric's derivation lock, the batches after the fabric's watermark are read,
   their samples in (batch, end, time) order;
2. the Rust engine (lightpath_engine.TelemetryState) advances each end's window, exactly as
   ingest did batch by batch before (tests/reference.py states the rules; tests hold it there);
3. only what changed is written: the touched ends (EndState, one row each, which is also the
   checkpoint of their windows), the directions with a new window (DirectionHealth), events,
   classes and the health of links whose direction health or classes changed;
4. the watermark moves to the last batch in the same transaction, and the new events go to
   CorrOpt once it commits.
The engine state stays in the process between runs. It is a cache: a run whose cached
watermark is not the stored one (another process derived meanwhile, or this one restarted)
rebuilds it from the stored rows first.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import connection, transaction
from django.db.models import OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone
from psycopg.types.numeric import IntLoader

from fabric.models import Fabric
from lightpath_engine import TelemetryState

from ..models import Derivation, IngestBatch
from .rules import COUNTERS, MAX_GAP_WINDOWS
from .thresholds import limit_value, limits_from

LOCK_NAMESPACE = 0x7E1F  # advisory-lock namespace of telemetry derivation (ingest is 0x7E1E)
# A queued run that has not started after this long is taken as lost (broker restart) and queued again.
REQUEUE_AFTER = dt.timedelta(minutes=10)
EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
# Samples read and applied at a time when a run has a backlog of batches.
CHUNK_SAMPLES = 250_000
US = "(extract(epoch FROM {0}) * 1000000)::int8"
TIMESTAMP = "(timestamptz 'epoch' + {0} * interval '1 microsecond')"
READINGS = (
    "input_power_dbm", "input_power_min_channel_dbm", "output_power_dbm", "output_power_min_channel_dbm",
    "laser_bias_current_ma", "temperature_c", "supply_voltage_v",
)  # fmt: skip


@dataclass
class DerivationResult:
    batches: int = 0
    samples: int = 0
    windows: int = 0
    events_opened: list[int] = field(default_factory=list)
    events_ended: list[int] = field(default_factory=list)
    health_changes: int = 0
    rebuilt: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "batches": self.batches,
            "samples": self.samples,
            "windows": self.windows,
            "events_opened": self.events_opened,
            "events_ended": self.events_ended,
            "health_changes": self.health_changes,
            "rebuilt": self.rebuilt,
        }


# fabric id -> (watermark, settings, engine state) of this process
_cache: dict[int, tuple[int, tuple, TelemetryState]] = {}


def _settings(fabric: Fabric) -> tuple:
    return (
        float(fabric.telemetry_window_s),
        float(MAX_GAP_WINDOWS * fabric.telemetry_window_s),
        max(int(fabric.telemetry_min_packets), 1),
        float(fabric.corruption_action_threshold),
        float(fabric.corruption_report_threshold),
    )


def forget_cached_state() -> None:
    """Drop every cached engine state, as a restarted worker would have none."""
    _cache.clear()


# ------------------------------------------------------------------------------------------
# Queueing: one pending run per fabric


def queue_after_commit(fabric_id: int) -> None:
    """Queue a derivation run of the fabric once the current transaction commits, unless one is
    already queued and not yet started."""

    def queue() -> None:
        now = timezone.now()
        Derivation.objects.get_or_create(fabric_id=fabric_id)
        claimed = (
            Derivation.objects.filter(fabric_id=fabric_id)
            .exclude(queued_at__gt=now - REQUEUE_AFTER)
            .update(queued_at=now)
        )
        if claimed:
            from ..tasks import derive as derive_task

            derive_task.delay(fabric_id)

    transaction.on_commit(queue, robust=True)


_watermark = Derivation.objects.filter(fabric_id=OuterRef("fabric_id")).values("watermark")[:1]


def queue_pending() -> list[int]:
    """Queue a run for every fabric with batches past its watermark and no run queued recently:
    the safety net (the beat task calls it) for a queueing lost with a broker restart."""
    stale = timezone.now() - REQUEUE_AFTER
    pending = (
        IngestBatch.objects.filter(id__gt=Coalesce(Subquery(_watermark), 0))
        .exclude(fabric_id__in=Derivation.objects.filter(queued_at__gt=stale).values("fabric_id"))
        .values_list("fabric_id", flat=True)
        .distinct()
    )
    fabric_ids = sorted(pending)
    from ..tasks import derive as derive_task

    for fabric_id in fabric_ids:
        Derivation.objects.get_or_create(fabric_id=fabric_id)
        Derivation.objects.filter(fabric_id=fabric_id).update(queued_at=timezone.now())
        derive_task.delay(fabric_id)
    return fabric_ids


def mark_started(fabric_id: int) -> None:
    """A run starts: batches committed from now on queue the next one."""
    Derivation.objects.filter(fabric_id=fabric_id).update(queued_at=None)


# ------------------------------------------------------------------------------------------
# The run


def derive(fabric: Fabric) -> DerivationResult:
    """Derive every committed batch of the fabric after its watermark (nothing if none)."""
    result = DerivationResult()
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [LOCK_NAMESPACE, fabric.pk])
        progress, _ = Derivation.objects.get_or_create(fabric=fabric)
        batches = list(
            IngestBatch.objects.filter(fabric=fabric, id__gt=progress.watermark).values_list(
                "id", "samples", "first_time", "last_time"
            )
        )
        if not batches:
            return result
        settings = _settings(fabric)
        cached = _cache.pop(fabric.pk, None)  # popped: a failed run must not leave it ahead of the database
        if cached is not None and cached[0] == progress.watermark and cached[1] == settings:
            state = cached[2]
        else:
            state = rebuild(fabric)
            result.rebuilt = True
        with connection.cursor() as cursor:
            for chunk in _chunks(batches):
                samples, windows = _apply(cursor, state, chunk)
                result.samples += samples
                result.windows += windows
                _write_ends(cursor, state)
                _write_directions(cursor, state)
                _write_events(cursor, state, result)
                cursor.execute("DROP TABLE IF EXISTS tmp_health_links")
                cursor.execute(
                    "CREATE TEMP TABLE tmp_health_links ON COMMIT DROP AS SELECT unnest(%s::bigint[]) AS link_id",
                    [state.health_changed_links()],
                )
                result.health_changes += _update_links(cursor)
        result.batches = len(batches)
        watermark = batches[-1][0]
        Derivation.objects.filter(fabric=fabric).update(watermark=watermark, derived_at=timezone.now())
        transaction.on_commit(lambda: _cache.__setitem__(fabric.pk, (watermark, settings, state)))
        if result.events_opened:  # CorrOpt decides each new event once the run is visible
            from corruption.tasks import enqueue_decisions

            opened = list(result.events_opened)
            transaction.on_commit(lambda: enqueue_decisions(opened), robust=True)
    return result


def _chunks(batches: list[tuple[int, int, dt.datetime, dt.datetime]]):
    """Consecutive batches of at most CHUNK_SAMPLES samples together (a batch larger than that
    alone), so that a backlog is read in pieces of bounded memory."""
    chunk: list[tuple[int, int, dt.datetime, dt.datetime]] = []
    size = 0
    for batch in batches:
        if chunk and size + batch[1] > CHUNK_SAMPLES:
            yield chunk
            chunk, size = [], 0
        chunk.append(batch)
        size += batch[1]
    if chunk:
        yield chunk


def _columns(rows: Sequence[tuple], width: int) -> list[tuple]:
    return list(zip(*rows, strict=True)) if rows else [()] * width


def _int_counters(cursor) -> None:
    """Counter64 columns (numeric) as Python ints, not Decimals: the engine takes integers."""
    cursor.cursor.adapters.register_loader("numeric", IntLoader)


def _apply(cursor, state: TelemetryState, batches: list[tuple[int, int, dt.datetime, dt.datetime]]) -> tuple[int, int]:
    rx_min = (
        "least(s.input_power_dbm, CASE WHEN s.input_power_channels_dbm IS NOT NULL "
        "THEN lightpath_min_lit(s.input_power_channels_dbm) END)"
    )
    tx_min = (
        "least(s.output_power_dbm, CASE WHEN s.output_power_channels_dbm IS NOT NULL "
        "THEN lightpath_min_lit(s.output_power_channels_dbm) END)"
    )
    # Readings are stored as real; through their text form they come back as the decimals sent
    # (-3.4, not -3.4000000953674316).
    readings = ", ".join(
        f"({value})::real::text::float8"
        for value in ("s.input_power_dbm", rx_min, "s.output_power_dbm", tx_min, "s.laser_bias_current_ma",
                      "s.temperature_c", "s.supply_voltage_v")
    )  # fmt: skip
    _int_counters(cursor)
    cursor.execute(
        f"""
        SELECT s.batch_id, s.link_id, s.side = 'z', {US.format("s.time")}, {", ".join(f"s.{c}" for c in COUNTERS)},
               {readings},
               s.rx_no_light, s.tx_no_light
          FROM telemetry_sample s
         WHERE s.batch_id = ANY(%s) AND s.time >= %s AND s.time <= %s
         ORDER BY s.batch_id, s.link_id, s.side, s.time
        """,
        [[b[0] for b in batches], min(b[2] for b in batches), max(b[3] for b in batches)],
    )
    rows = cursor.fetchall()
    columns = _columns(rows, 18)
    windows = state.apply(
        columns[0], columns[1], columns[2], columns[3], tuple(columns[4:9]), tuple(columns[9:16]), tuple(columns[16:18])
    )
    return len(rows), windows


END_COLUMNS = (
    "link_id", "side", "counter_time",
    *(f"last_{c}" for c in COUNTERS), "window_time", *(f"window_{c}" for c in COUNTERS),
    "optical_time", *READINGS, "rx_no_light", "tx_no_light",
)  # fmt: skip
TIMES = ("counter_time", "window_time", "optical_time")


def _copy(cursor, table: str, text: str) -> None:
    with cursor.cursor.copy(f"COPY {table} FROM STDIN") as copy:
        copy.write(text)


def _write_ends(cursor, state: TelemetryState) -> None:
    """Every touched end's row: its window (the checkpoint), its newest readings and their Rx/Tx
    classes, in one write; the links whose classes changed are noted in tmp_changed."""
    types = {name: "int8" if name in TIMES or name == "link_id" else "float8" for name in END_COLUMNS}
    types.update({"side": "char(1)", "rx_no_light": "boolean", "tx_no_light": "boolean"})
    types.update(
        {name: "numeric" for name in END_COLUMNS if name.startswith(("last_", "window_")) and name != "window_time"}
    )
    cursor.execute("DROP TABLE IF EXISTS tmp_ends")
    cursor.execute(f"CREATE TEMP TABLE tmp_ends ({', '.join(f'{n} {types[n]}' for n in END_COLUMNS)}) ON COMMIT DROP")
    _copy(cursor, "tmp_ends", state.changed_ends_copy())
    values = [TIMESTAMP.format(f"s.{n}") if n in TIMES else f"s.{n}" for n in END_COLUMNS]
    updates = ", ".join(f"{n} = EXCLUDED.{n}" for n in (*END_COLUMNS[2:], "rx_class", "tx_class"))
    # All parts of one statement see the rows as they were before it: `old` holds the classes
    # the upsert replaces.
    cursor.execute("DROP TABLE IF EXISTS tmp_changed")
    cursor.execute(
        f"""
        CREATE TEMP TABLE tmp_changed ON COMMIT DROP AS
        WITH old AS (
            SELECT e.link_id, e.side, e.rx_class, e.tx_class
              FROM telemetry_endstate e JOIN tmp_ends t ON t.link_id = e.link_id AND t.side = e.side
        ),
        written AS (
            INSERT INTO telemetry_endstate AS e ({", ".join(END_COLUMNS)}, rx_class, tx_class)
            SELECT {", ".join(values)}, {RX_CLASS}, {TX_CLASS} FROM tmp_ends s {limits_from("s")}
            ON CONFLICT (link_id, side) DO UPDATE SET {updates}
            RETURNING e.link_id, e.side, e.rx_class, e.tx_class
        )
        SELECT DISTINCT w.link_id FROM written w LEFT JOIN old o ON o.link_id = w.link_id AND o.side = w.side
         WHERE w.rx_class <> coalesce(o.rx_class, 'unknown') OR w.tx_class <> coalesce(o.tx_class, 'unknown')
        """
    )


def _write_directions(cursor, state: TelemetryState) -> None:
    cursor.execute("DROP TABLE IF EXISTS tmp_directions")
    cursor.execute(
        "CREATE TEMP TABLE tmp_directions (link_id int8, direction text, health text, health_since int8, "
        "corruption_rate float8, corruption_time int8, congestion_rate float8, congestion_time int8) ON COMMIT DROP"
    )
    _copy(cursor, "tmp_directions", state.changed_directions_copy())
    cursor.execute(
        f"""
        INSERT INTO telemetry_directionhealth AS h (link_id, direction, health, health_since, corruption_rate,
                                                     corruption_time, congestion_rate, congestion_time)
        SELECT link_id, direction, health, {TIMESTAMP.format("health_since")}, corruption_rate,
               {TIMESTAMP.format("corruption_time")}, congestion_rate, {TIMESTAMP.format("congestion_time")}
          FROM tmp_directions
        ON CONFLICT (link_id, direction) DO UPDATE SET
            health = EXCLUDED.health, health_since = EXCLUDED.health_since,
            corruption_rate = EXCLUDED.corruption_rate, corruption_time = EXCLUDED.corruption_time,
            congestion_rate = EXCLUDED.congestion_rate, congestion_time = EXCLUDED.congestion_time
        """
    )


def _time(us: int | None) -> dt.datetime | None:
    return None if us is None else EPOCH + dt.timedelta(microseconds=us)


def _write_events(cursor, state: TelemetryState, result: DerivationResult) -> None:
    """Episodes the run touched: a stored open event (same direction and first_seen) is updated
    (and ended), any other is inserted. Updates go first, so that an episode ended and a new one
    opened on the same direction never hold two open events at once."""
    episodes = state.changed_episodes()
    if not episodes:
        return
    rows = [
        (link, "z_to_a" if z_to_a else "a_to_z", rate, _time(first), last_rate, peak, _time(last_seen), _time(ended))
        for link, z_to_a, rate, first, last_rate, peak, last_seen, ended in episodes
    ]
    cursor.execute("DROP TABLE IF EXISTS tmp_episodes")
    cursor.execute(
        "CREATE TEMP TABLE tmp_episodes (link_id int8, direction text, rate float8, first_seen timestamptz, "
        "last_rate float8, peak_rate float8, last_seen timestamptz, ended_at timestamptz) ON COMMIT DROP"
    )
    with cursor.cursor.copy("COPY tmp_episodes FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)
    cursor.execute(
        """
        UPDATE telemetry_corruptionevent c
           SET last_rate = t.last_rate, peak_rate = t.peak_rate, last_seen = t.last_seen, ended_at = t.ended_at
          FROM tmp_episodes t
         WHERE c.link_id = t.link_id AND c.direction = t.direction AND c.first_seen = t.first_seen
           AND c.ended_at IS NULL
        RETURNING c.id, c.ended_at IS NOT NULL
        """
    )
    ended = [event_id for event_id, is_ended in cursor.fetchall() if is_ended]
    cursor.execute(
        """
        INSERT INTO telemetry_corruptionevent (link_id, direction, rate, first_seen, last_rate, peak_rate,
                                               last_seen, ended_at)
        SELECT t.link_id, t.direction, t.rate, t.first_seen, t.last_rate, t.peak_rate, t.last_seen, t.ended_at
          FROM tmp_episodes t
         WHERE NOT EXISTS (SELECT 1 FROM telemetry_corruptionevent c WHERE c.link_id = t.link_id
                           AND c.direction = t.direction AND c.first_seen = t.first_seen)
         ORDER BY t.first_seen
        RETURNING id, ended_at IS NOT NULL
        """
    )
    for event_id, is_ended in cursor.fetchall():
        (ended if is_ended else result.events_opened).append(event_id)
    result.events_ended = sorted(ended)


# ------------------------------------------------------------------------------------------
# Rebuilding the engine state from the stored rows


def rebuild(fabric: Fabric) -> TelemetryState:
    """The fabric's engine state from its stored rows (what a process without the cache does)."""
    state = TelemetryState(*_settings(fabric))
    counters = ", ".join(f"e.last_{c}" for c in COUNTERS)
    window = ", ".join(f"e.window_{c}" for c in COUNTERS)
    readings = ", ".join(f"e.{r}" for r in READINGS)
    with connection.cursor() as cursor:
        _int_counters(cursor)
        cursor.execute(
            f"""
            SELECT e.link_id, e.side = 'z', {US.format("e.counter_time")}, {counters}, {US.format("e.window_time")},
                   {window}, {US.format("e.optical_time")}, {readings}, e.rx_no_light, e.tx_no_light
              FROM telemetry_endstate e JOIN fabric_link l ON l.id = e.link_id WHERE l.fabric_id = %s
            """,
            [fabric.pk],
        )
        c = _columns(cursor.fetchall(), 24)
        state.load_ends(c[0], c[1], c[2], tuple(c[3:8]), c[8], tuple(c[9:14]), c[14], tuple(c[15:22]), (c[22], c[23]))
        cursor.execute(
            f"""
            SELECT h.link_id, h.direction = 'z_to_a', h.health, {US.format("h.health_since")},
                   h.corruption_rate, {US.format("h.corruption_time")}, h.congestion_rate,
                   {US.format("h.congestion_time")}, o.rate, {US.format("o.first_seen")}, o.last_rate, o.peak_rate,
                   {US.format("o.last_seen")}
              FROM telemetry_directionhealth h JOIN fabric_link l ON l.id = h.link_id
              LEFT JOIN telemetry_corruptionevent o
                     ON o.link_id = h.link_id AND o.direction = h.direction AND o.ended_at IS NULL
             WHERE l.fabric_id = %s
            """,
            [fabric.pk],
        )
        rows = cursor.fetchall()
    state.load_directions(
        [r[0] for r in rows],
        [r[1] for r in rows],
        [r[2] for r in rows],
        [r[3] for r in rows],
        [None if r[4] is None or r[5] is None else (r[4], r[5]) for r in rows],
        [None if r[6] is None or r[7] is None else (r[6], r[7]) for r in rows],
        [None if r[8] is None else (r[8], r[9], r[10], r[11], r[12]) for r in rows],
    )
    return state


# ------------------------------------------------------------------------------------------
# Optical classes and link health


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


def _classify(cursor, link_ids: Sequence[int]) -> None:
    """Rx/Tx classes of the ends of `link_ids` against their effective limits; only ends whose
    class changes are written, and their links noted in tmp_changed."""
    scope = "(SELECT unnest(%(ids)s::bigint[]))"
    cursor.execute("DROP TABLE IF EXISTS tmp_changed")
    cursor.execute(
        f"""
        CREATE TEMP TABLE tmp_changed ON COMMIT DROP AS
        WITH changed AS (
            UPDATE telemetry_endstate e SET rx_class = c.rx_class, tx_class = c.tx_class
              FROM (SELECT s.id, {RX_CLASS} AS rx_class, {TX_CLASS} AS tx_class
                      FROM telemetry_endstate s {limits_from("s")}
                     WHERE s.link_id IN {scope}) c
             WHERE e.id = c.id AND (e.rx_class <> c.rx_class OR e.tx_class <> c.tx_class)
            RETURNING e.link_id
        )
        SELECT DISTINCT link_id FROM changed
        """,
        {"ids": list(link_ids)},
    )


def _update_links(cursor) -> int:
    """Each link's worse direction and its rx_low flag, where they changed: only links whose
    direction health or classes changed can change."""
    cursor.execute("DROP TABLE IF EXISTS tmp_scope")
    cursor.execute(
        "CREATE TEMP TABLE tmp_scope ON COMMIT DROP AS "
        "SELECT link_id FROM tmp_changed UNION SELECT link_id FROM tmp_health_links"
    )
    cursor.execute("ANALYZE tmp_scope")
    cursor.execute(
        """
        WITH health AS (
            SELECT link_id, max(CASE health WHEN 'corrupting' THEN 3 WHEN 'lossy' THEN 2
                                            WHEN 'clean' THEN 1 ELSE 0 END) AS severity
              FROM telemetry_directionhealth JOIN tmp_scope USING (link_id) GROUP BY link_id
        ),
        rx AS (
            SELECT link_id, bool_or(rx_class = 'low') AS rx_low
              FROM telemetry_endstate JOIN tmp_scope USING (link_id) GROUP BY link_id
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
        cursor.execute("DROP TABLE IF EXISTS tmp_health_links")
        cursor.execute("CREATE TEMP TABLE tmp_health_links (link_id bigint) ON COMMIT DROP")
        _classify(cursor, link_ids)
        return _update_links(cursor)
