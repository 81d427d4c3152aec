"""Telemetry derivation: the committed samples of a fabric turned into counter windows, loss
rates, direction health, corruption events, newest readings, optical classes and link health.

Ingest only stores samples and records each batch (IngestBatch); a per-fabric Celery task
(telemetry.derive, queued once per fabric however many batches arrive) runs `derive`:
1. under the fabric's derivation lock, the batches after the fabric's watermark are read,
   their samples in (batch, end, time) order;
2. the Rust engine (lightpath_engine.TelemetryState) advances each end's window, exactly as
   ingest did batch by batch before (tests/reference.py states the rules; tests hold it there);
3. what readers see is written where it changed: the ends whose newest counter time or
   readings moved (EndState, with their classes), the directions with a new window
   (DirectionHealth), events, and the health of links whose direction health or classes changed;
4. links whose operational state the engine decided anew from their ends' oper_status (and
   dark receivers) and that differ from the stored state go through the capacity guard's
   service (fabric.services.link_state.set_oper_states: audit, webhooks, optimizer); then the
   health and flapping flags of links are written (after the guard's lock, see _write_links);
5. the links a trend bucket of which closed get their optics forecast anew (services/forecasts.py:
   crossing of the low limit, confidence, probable cause), and with the fabric's
   `auto_preventive_tickets` a preventive ticket when at risk (corruption.preventive);
6. the engine's state goes to the fabric's Checkpoint (one row of compact bytes, all but the
   trends' closed buckets) with the TrendSegments where a bucket closed (the rest stay as
   stored), and the watermark moves to the last batch, in the same transaction; the new events
   go to CorrOpt once it commits.
The engine state stays in the process between runs. It is a cache: a run whose cached
watermark is not the stored one (another process derived meanwhile, or this one restarted)
restores it from the checkpoint first.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import psycopg
from django.conf import settings as django_settings
from django.db import connection, transaction
from django.utils import timezone

from corruption import preventive
from corruption import services as corropt
from fabric.models import Fabric, Link
from fabric.services import link_state
from lightpath import dispatch
from lightpath_engine import TelemetryState

from ..models import Checkpoint, Derivation, IngestBatch, TrendSegment
from . import forecasts
from .rules import COUNTERS, MAX_GAP_WINDOWS
from .thresholds import limit_value, limits_from

LOCK_NAMESPACE = 0x7E1F  # advisory-lock namespace of telemetry derivation (ingest is 0x7E1E)
DERIVE_TASK = "telemetry.derive"
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
    # Links whose operational state derivation changed (through link_state.set_oper_states).
    oper_changed: list[int] = field(default_factory=list)
    # Links whose flapping flag changed, with the new flag.
    flapping_changed: dict[int, bool] = field(default_factory=dict)
    # Links whose optics forecast was made anew (a trend bucket closed), and those it reports.
    forecast_links: list[int] = field(default_factory=list)
    forecasts: int = 0
    preventive_tickets: list[int] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "batches": self.batches,
            "samples": self.samples,
            "windows": self.windows,
            "events_opened": self.events_opened,
            "events_ended": self.events_ended,
            "health_changes": self.health_changes,
            "rebuilt": self.rebuilt,
            "oper_changed": self.oper_changed,
            "flapping_changed": sorted(self.flapping_changed.items()),
            "forecast_links": len(self.forecast_links),
            "forecasts": self.forecasts,
            "preventive_tickets": self.preventive_tickets,
        }


# fabric id -> (watermark, settings, engine state, the fabric's ends version it holds only links of)
_cache: dict[int, tuple[int, tuple, TelemetryState, int | None]] = {}


def _settings(fabric: Fabric) -> tuple:
    flapping = django_settings.LINK_FLAPPING
    return (
        float(fabric.telemetry_window_s),
        float(MAX_GAP_WINDOWS * fabric.telemetry_window_s),
        max(int(fabric.telemetry_min_packets), 1),
        float(fabric.corruption_action_threshold),
        float(fabric.corruption_report_threshold),
        bool(fabric.dark_end_is_down),
        int(flapping["changes"]),
        float(flapping["window_s"]),
        # Off: no trends and no forecasts at all (the benchmark's "without forecasting").
        bool(django_settings.TELEMETRY_TRENDS),
    )


def _new_state(settings: tuple) -> TelemetryState:
    *windows, dark_end_is_down, flap_changes, flap_window_s, trends = settings
    return TelemetryState(
        *windows,
        dark_end_is_down=dark_end_is_down,
        flap_changes=flap_changes,
        flap_window_s=flap_window_s,
        trends=trends,
    )


def forget_cached_state() -> None:
    """Drop every cached engine state, as a restarted worker would have none."""
    _cache.clear()


# ------------------------------------------------------------------------------------------
# Queueing: one pending run per fabric


def queue_after_commit(fabric_id: int) -> None:
    """Queue a derivation run of the fabric once the current transaction commits, unless one is
    already queued and not yet started. With the broker down the claim is given back, so that
    the liveness net (`queue_pending`) sends the run once the broker is back."""

    def queue() -> None:
        now = timezone.now()
        Derivation.objects.get_or_create(fabric_id=fabric_id)
        claimed = (
            Derivation.objects.filter(fabric_id=fabric_id)
            .exclude(queued_at__gt=now - requeue_after())
            .update(queued_at=now)
        )
        if claimed and not dispatch.send(DERIVE_TASK, [fabric_id]):
            Derivation.objects.filter(fabric_id=fabric_id, queued_at=now).update(queued_at=None)

    transaction.on_commit(queue, robust=True)


def requeue_after() -> dt.timedelta:
    """A queued run that has not started after this long is taken as lost and queued again (a
    duplicate run finds nothing new and returns at once)."""
    return dt.timedelta(seconds=django_settings.JOB_LIVENESS["stale_after_s"])


def queue_pending() -> list[int]:
    """Queue a run for every fabric with batches past its watermark and no run queued recently:
    the liveness net (beat task `telemetry.requeue_lost`) for a run lost with the broker."""
    stale = timezone.now() - requeue_after()
    fabric_ids = []
    for fabric_id in Fabric.objects.order_by("pk").values_list("pk", flat=True):
        progress = Derivation.objects.filter(fabric_id=fabric_id).values_list("watermark", "queued_at").first()
        watermark, queued_at = progress or (0, None)
        if queued_at is not None and queued_at > stale:
            continue
        if IngestBatch.objects.filter(fabric_id=fabric_id, id__gt=watermark).exists():
            Derivation.objects.update_or_create(fabric_id=fabric_id, defaults={"queued_at": timezone.now()})
            if dispatch.send(DERIVE_TASK, [fabric_id]):
                fabric_ids.append(fabric_id)
            else:
                Derivation.objects.filter(fabric_id=fabric_id).update(queued_at=None)
    return fabric_ids


def mark_started(fabric_id: int) -> None:
    """A run starts: batches committed from now on queue the next one."""
    Derivation.objects.filter(fabric_id=fabric_id).update(queued_at=None)


def run(fabric_id: int) -> dict[str, Any]:
    """The task `telemetry.derive`: a fabric's batches committed since its last run (queued by
    ingest, once per fabric until it starts; a re-delivered run finds nothing new and returns at once)."""
    mark_started(fabric_id)
    fabric = Fabric.objects.filter(pk=fabric_id).first()
    if fabric is None:  # deleted meanwhile
        return {"fabric": fabric_id, "batches": 0}
    return {"fabric": fabric_id, **derive(fabric).as_dict()}


# ------------------------------------------------------------------------------------------
# The run


def derive(fabric: Fabric) -> DerivationResult:
    """Derive every committed batch of the fabric after its watermark (nothing if none)."""
    result = DerivationResult()
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [LOCK_NAMESPACE, fabric.pk])
            # The run joins its changes (up to a row per link end) in hash tables: in memory, not
            # in batches spilled to disk as the default 4 MB would have them.
            cursor.execute("SET LOCAL work_mem = '64MB'")
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
        with connection.cursor() as cursor:
            cursor.execute("SELECT version FROM telemetry_ends_version WHERE fabric_id = %s", [fabric.pk])
            row = cursor.fetchone()
            ends_version = row[0] if row else None
        if cached is not None and cached[0] == progress.watermark and cached[1] == settings:
            state = cached[2]
            pruned = cached[3] == ends_version
        else:
            state = restore(fabric, progress.watermark, settings)
            result.rebuilt, pruned = True, False
        with connection.cursor() as cursor:
            if not pruned:  # links were deleted (or the state is new to this process): forget theirs
                state.retain_links(list(Link.objects.filter(fabric=fabric).values_list("id", flat=True)))
            _sync_open_episodes(cursor, fabric, state)
            cursor.execute("DROP TABLE IF EXISTS tmp_link_scope")
            cursor.execute("CREATE TEMP TABLE tmp_link_scope (link_id bigint) ON COMMIT DROP")
            oper: dict[int, bool] = {}
            for chunk in _chunks(batches):
                samples, windows = _apply(cursor, state, chunk)
                result.samples += samples
                result.windows += windows
                _write_ends(cursor, state)
                _write_directions(cursor, state)
                _write_events(cursor, state, result)
                # The links whose health or rx_low may change, written once after the oper states.
                cursor.execute(
                    "INSERT INTO tmp_link_scope SELECT link_id FROM tmp_changed UNION SELECT unnest(%s::bigint[])",
                    [state.health_changed_links()],
                )
                oper.update(state.oper_changes())
                result.flapping_changed.update(state.flapping_changes())
                # Made at the batches' newest sample time: a replayed history is judged as it was then.
                links, reported = forecasts.write(cursor, fabric, state, max(b[3] for b in chunk))
                result.forecast_links = sorted({*result.forecast_links, *links})
                result.forecasts += reported
            judged_by = (fabric.forecast_horizon_days, fabric.forecast_min_confidence)
            if (progress.forecast_horizon_days, progress.forecast_min_confidence) != judged_by:
                # The horizon or the least confidence changed since the stored forecasts were
                # judged: every link's forecast anew, not only those whose trend moved.
                every = list(Link.objects.filter(fabric=fabric).values_list("id", flat=True))
                links, result.forecasts = forecasts.write(
                    cursor, fabric, state, max(b[3] for b in batches), links=every
                )
                result.forecast_links = links
            _write_links(cursor, fabric, oper, result)
            tickets = preventive.auto_open(fabric, result.forecast_links)
            result.preventive_tickets = [ticket.pk for ticket in tickets]
        result.batches = len(batches)
        watermark = batches[-1][0]
        _write_checkpoint(fabric, watermark, state)
        Derivation.objects.filter(fabric=fabric).update(
            watermark=watermark,
            derived_at=timezone.now(),
            forecast_horizon_days=judged_by[0],
            forecast_min_confidence=judged_by[1],
        )
        transaction.on_commit(lambda: _cache.__setitem__(fabric.pk, (watermark, settings, state, ends_version)))
        if result.events_opened:  # CorrOpt decides each new event once the run is visible
            opened = list(result.events_opened)
            transaction.on_commit(lambda: corropt.enqueue_decisions(opened), robust=True)
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


def _apply(cursor, state: TelemetryState, batches: list[tuple[int, int, dt.datetime, dt.datetime]]) -> tuple[int, int]:
    """The batches' samples, as COPY text straight into the engine (no Python object per value)."""
    rx_min = (
        "least(s.input_power_dbm, CASE WHEN s.input_power_channels_dbm IS NOT NULL "
        "THEN lightpath_min_lit(s.input_power_channels_dbm) END)"
    )
    tx_min = (
        "least(s.output_power_dbm, CASE WHEN s.output_power_channels_dbm IS NOT NULL "
        "THEN lightpath_min_lit(s.output_power_channels_dbm) END)"
    )
    # Readings are stored as real; printed as real they read back as the decimals sent (-3.4,
    # not -3.4000000953674316).
    readings = ", ".join(
        f"({value})::real"
        for value in ("s.input_power_dbm", rx_min, "s.output_power_dbm", tx_min, "s.laser_bias_current_ma",
                      "s.temperature_c", "s.supply_voltage_v")
    )  # fmt: skip
    query = f"""
        COPY (SELECT s.batch_id, s.link_id, s.side = 'z', {US.format("s.time")}, {", ".join(f"s.{c}" for c in COUNTERS)},
                     {readings}, s.rx_no_light, s.tx_no_light, s.oper_status,
                     s.input_power_channels_dbm, s.output_power_channels_dbm, s.laser_bias_current_channels_ma
                FROM telemetry_sample s
               WHERE s.batch_id = ANY(%s) AND s.time >= %s AND s.time <= %s
               ORDER BY s.batch_id, s.link_id, s.side, s.time) TO STDOUT
        """
    data = bytearray()
    params = [[b[0] for b in batches], min(b[2] for b in batches), max(b[3] for b in batches)]
    with cursor.cursor.copy(query, params) as copy:
        for block in copy:
            data += block
    return state.apply_copy(bytes(data))


END_COLUMNS = ("link_id", "side", "counter_time", "optical_time", *READINGS, "rx_no_light", "tx_no_light")
TIMES = ("counter_time", "optical_time")


def _copy(cursor, table: str, text: str) -> None:
    with cursor.cursor.copy(f"COPY {table} FROM STDIN") as copy:
        copy.write(text)


def _write_ends(cursor, state: TelemetryState) -> None:
    """The ends whose newest counter time or readings changed (and ends new to the state): their
    row with its Rx/Tx classes against the effective limits, updated in place, inserted where
    there is none yet. The links whose classes changed are noted in tmp_changed."""
    types = {name: "int8" if name in TIMES or name == "link_id" else "float8" for name in END_COLUMNS}
    types.update({"side": "char(1)", "rx_no_light": "boolean", "tx_no_light": "boolean"})
    cursor.execute("DROP TABLE IF EXISTS tmp_ends")
    cursor.execute(f"CREATE TEMP TABLE tmp_ends ({', '.join(f'{n} {types[n]}' for n in END_COLUMNS)}) ON COMMIT DROP")
    text = state.changed_ends_copy()
    _copy(cursor, "tmp_ends", text)
    cursor.execute("ANALYZE tmp_ends")  # a temporary table has no statistics otherwise
    values = [f"{TIMESTAMP.format(f's.{n}')} AS {n}" if n in TIMES else f"s.{n}" for n in END_COLUMNS]
    classed = (
        f"SELECT {', '.join(values)}, {RX_CLASS} AS rx_class, {TX_CLASS} AS tx_class FROM tmp_ends s {limits_from('s')}"
    )
    sets = ", ".join(f"{n} = c.{n}" for n in (*END_COLUMNS[2:], "rx_class", "tx_class"))
    # `old` is the row as it was before the statement: its classes against the new ones.
    cursor.execute(
        f"""
        WITH updated AS (
            UPDATE telemetry_endstate e SET {sets}
              FROM ({classed}) c JOIN telemetry_endstate old ON old.link_id = c.link_id AND old.side = c.side
             WHERE e.id = old.id
            RETURNING e.link_id, old.rx_class <> c.rx_class OR old.tx_class <> c.tx_class AS moved
        )
        SELECT count(*), coalesce(array_agg(DISTINCT link_id) FILTER (WHERE moved), '{{}}') FROM updated
        """
    )
    updated, moved = cursor.fetchone()
    if updated < text.count("\n"):
        cursor.execute(
            f"""
            WITH inserted AS (
                INSERT INTO telemetry_endstate AS e ({", ".join(END_COLUMNS)}, rx_class, tx_class)
                {classed}
                ON CONFLICT (link_id, side) DO NOTHING
                RETURNING e.link_id, e.rx_class <> 'unknown' OR e.tx_class <> 'unknown' AS moved
            )
            SELECT coalesce(array_agg(DISTINCT link_id) FILTER (WHERE moved), '{{}}') FROM inserted
            """
        )
        moved = [*moved, *cursor.fetchone()[0]]
    cursor.execute("DROP TABLE IF EXISTS tmp_changed")
    cursor.execute(
        "CREATE TEMP TABLE tmp_changed ON COMMIT DROP AS SELECT DISTINCT unnest(%s::bigint[]) AS link_id", [moved]
    )


def _write_directions(cursor, state: TelemetryState) -> None:
    cursor.execute("DROP TABLE IF EXISTS tmp_directions")
    cursor.execute(
        "CREATE TEMP TABLE tmp_directions (link_id int8, direction text, health text, health_since int8, "
        "corruption_rate float8, corruption_time int8, congestion_rate float8, congestion_time int8) ON COMMIT DROP"
    )
    text = state.changed_directions_copy()
    _copy(cursor, "tmp_directions", text)
    cursor.execute("ANALYZE tmp_directions")
    values = (
        f"health = t.health, health_since = {TIMESTAMP.format('t.health_since')}, corruption_rate = t.corruption_rate, "
        f"corruption_time = {TIMESTAMP.format('t.corruption_time')}, congestion_rate = t.congestion_rate, "
        f"congestion_time = {TIMESTAMP.format('t.congestion_time')}"
    )
    cursor.execute(
        f"""
        UPDATE telemetry_directionhealth h SET {values}
          FROM tmp_directions t WHERE h.link_id = t.link_id AND h.direction = t.direction
        """
    )
    if cursor.rowcount < text.count("\n"):
        cursor.execute(
            f"""
            INSERT INTO telemetry_directionhealth (link_id, direction, health, health_since, corruption_rate,
                                                   corruption_time, congestion_rate, congestion_time)
            SELECT link_id, direction, health, {TIMESTAMP.format("health_since")}, corruption_rate,
                   {TIMESTAMP.format("corruption_time")}, congestion_rate, {TIMESTAMP.format("congestion_time")}
              FROM tmp_directions
            ON CONFLICT (link_id, direction) DO NOTHING
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
# The checkpoint


def restore(fabric: Fabric, watermark: int, settings: tuple | None = None) -> TelemetryState:
    """The fabric's engine state as of `watermark` from its checkpoint (what a process without
    the cache does); an empty state if it was never derived."""
    state = _new_state(settings or _settings(fabric))
    checkpoint = Checkpoint.objects.filter(fabric=fabric).values_list("watermark", "data").first()
    if checkpoint is None:
        if watermark:
            raise RuntimeError(f"fabric {fabric.pk} was derived up to batch {watermark} but has no checkpoint")
        return state
    if checkpoint[0] != watermark:
        raise RuntimeError(
            f"fabric {fabric.pk}: the checkpoint is at batch {checkpoint[0]}, the watermark at {watermark}"
        )
    # Every stored segment: the engine reads those the checkpoint lists, checking each was
    # written by the run the checkpoint expects.
    segments = TrendSegment.objects.filter(fabric=fabric).values_list("segment", "data")
    state.restore(bytes(checkpoint[1]), [(segment, bytes(data)) for segment, data in segments])
    return state


def _sync_open_episodes(cursor, fabric: Fabric, state: TelemetryState) -> None:
    """The stored open events are the truth about episodes: a repair ends its link's events
    (corruption.tickets), and corruption after it must open a new one."""
    cursor.execute(
        f"""
        SELECT o.link_id, o.direction = 'z_to_a', o.rate, {US.format("o.first_seen")}, o.last_rate, o.peak_rate,
               {US.format("o.last_seen")}
          FROM telemetry_corruptionevent o JOIN fabric_link l ON l.id = o.link_id
         WHERE o.ended_at IS NULL AND l.fabric_id = %s
        """,
        [fabric.pk],
    )
    rows = cursor.fetchall()
    state.set_open_episodes([r[0] for r in rows], [r[1] for r in rows], [r[2:] for r in rows])


def _write_checkpoint(fabric: Fabric, watermark: int, state: TelemetryState) -> None:
    # The closed trend buckets change only for the links whose bucket closed (1/72 of them per
    # 5-minute run): they go to the few segments that changed, stamped with the watermark, and
    # the checkpoint lists each segment's stamp; both in this transaction, so a killed run leaves
    # the previous run's rows. (38 MB rewritten per run at 100K links before.)
    data, segments = state.checkpoint_split(watermark)
    # Django's cursor binds parameters on the client: tens of MB of bytea would travel as a hex
    # literal inside the SQL text (twice the bytes, then parsed). A server-bound psycopg cursor on
    # the same connection (so in the same transaction) sends them as binary parameters (%b):
    # 1.5 CPU s became 0.4 s for a 41 MB checkpoint (BENCHMARKS.md, "Derivation with forecasting").
    connection.ensure_connection()
    with psycopg.Cursor(connection.connection) as cursor:
        cursor.execute(
            "INSERT INTO telemetry_checkpoint (fabric_id, watermark, data) VALUES (%s, %s, %b) "
            "ON CONFLICT (fabric_id) DO UPDATE SET watermark = EXCLUDED.watermark, data = EXCLUDED.data",
            [fabric.pk, watermark, data],
        )
        if segments:
            cursor.execute(
                "INSERT INTO telemetry_trendsegment (fabric_id, segment, watermark, data) "
                "SELECT %s, unnest(%b::int[]), %s, unnest(%b::bytea[]) "
                "ON CONFLICT (fabric_id, segment) DO UPDATE SET watermark = EXCLUDED.watermark, data = EXCLUDED.data",
                [fabric.pk, [segment for segment, _ in segments], watermark, [data for _, data in segments]],
            )


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


def _write_links(cursor, fabric: Fabric, oper: dict[int, bool], result: DerivationResult) -> None:
    """What the run changed on the links themselves: operational state, health and rx_low,
    flapping.

    The operational state goes only through the capacity guard's service, and only for links
    whose stored state differs from the engine's decision. Lock order: this run holds the
    derivation lock (0x7E1F) and the service takes the fabric's link-state lock (0xC022) inside it;
    nothing takes 0x7E1F under 0xC022. The one lock taken under 0xC022 that a run may hold is the
    ingest lock (0x7E1E, by the trigger of a link deletion), and a run holds it only inside
    `ingest(..., derive=True)` (scripts, tests, the demo loader), never in the worker: that
    combination can deadlock with a deletion, as docs/telemetry.md says of it already. The service
    is called before this run writes any link row: a row this run had updated (health) could
    otherwise be one a guarded change holding 0xC022 waits for while this run waits for 0xC022.
    """
    if oper:
        ids = list(oper)
        cursor.execute(
            "SELECT l.id, d.up FROM unnest(%s::bigint[], %s::bool[]) AS d(id, up) JOIN fabric_link l ON l.id = d.id "
            "WHERE l.fabric_id = %s AND l.oper_state <> CASE WHEN d.up THEN 'up' ELSE 'down' END",
            [ids, [oper[i] for i in ids], fabric.pk],
        )
        states = {link: "up" if up else "down" for link, up in cursor.fetchall()}
        if states:
            result.oper_changed = sorted(link_state.set_oper_states(fabric.pk, states))
    result.health_changes += _update_links(cursor)
    link_state.set_flapping(fabric.pk, result.flapping_changed)


def _update_links(cursor) -> int:
    """Each link's worse direction and its rx_low flag, where they changed: only links whose
    direction health or classes changed (tmp_link_scope) can change."""
    cursor.execute("DROP TABLE IF EXISTS tmp_scope")
    cursor.execute("CREATE TEMP TABLE tmp_scope ON COMMIT DROP AS SELECT DISTINCT link_id FROM tmp_link_scope")
    cursor.execute("ANALYZE tmp_scope")
    return link_state.set_measured_health(
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
        SELECT id, health, rx_low FROM state
        """
    )


def reclassify(link_ids: Sequence[int]) -> int:
    """Classify the newest readings again after thresholds changed; returns links whose flags changed."""
    with transaction.atomic(), connection.cursor() as cursor:
        _classify(cursor, link_ids)
        cursor.execute("DROP TABLE IF EXISTS tmp_link_scope")
        cursor.execute("CREATE TEMP TABLE tmp_link_scope ON COMMIT DROP AS SELECT link_id FROM tmp_changed")
        return _update_links(cursor)
