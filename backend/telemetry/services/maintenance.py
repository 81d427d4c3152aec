"""Telemetry upkeep, run by Celery beat: partitions ahead of the data, hourly roll-ups, retention.

Everything here is idempotent: a roll-up of an hour replaces that hour's aggregates, so the
task can run again, late, or twice without harm.
"""

import datetime as dt
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from . import partitions
from .rules import MAX_GAP_WINDOWS

# Hours behind the clock that each run rolls up again, so late samples still reach the aggregates.
ROLLUP_LOOKBACK_HOURS = 3
# The longest fabric window (s) a poll-to-poll delta may span in an aggregate (rules.MAX_GAP_WINDOWS).
_MAX_DELTA_S = MAX_GAP_WINDOWS * 3600


def _hour(t: dt.datetime) -> dt.datetime:
    return t.replace(minute=0, second=0, microsecond=0)


def rollup_hours(start: dt.datetime, end: dt.datetime) -> int:
    """(Re)compute the hourly aggregates of the hours in [start, end); returns rows written."""
    start, end = _hour(start), _hour(end)
    if end <= start:
        return 0
    partitions.ensure_hourly_partitions({start.date(), (end - dt.timedelta(seconds=1)).date()})
    with connection.cursor() as cursor:
        # Counter deltas need the sample before the hour; the lag looks back up to the gap limit.
        cursor.execute(
            """
            WITH counters AS (
                SELECT link_id, side, time,
                       in_pkts - lag(in_pkts) OVER w AS d_in_pkts,
                       in_fcs_errors - lag(in_fcs_errors) OVER w AS d_in_fcs_errors,
                       in_discards - lag(in_discards) OVER w AS d_in_discards,
                       out_pkts - lag(out_pkts) OVER w AS d_out_pkts,
                       out_discards - lag(out_discards) OVER w AS d_out_discards,
                       time - lag(time) OVER w AS gap
                  FROM telemetry_sample
                 WHERE time >= %(lookback)s AND time < %(end)s AND in_pkts IS NOT NULL
                WINDOW w AS (PARTITION BY link_id, side ORDER BY time)
            ),
            deltas AS (
                SELECT link_id, side, date_trunc('hour', time) AS hour,
                       sum(d_in_pkts) AS in_pkts, sum(d_in_fcs_errors) AS in_fcs_errors,
                       sum(d_in_discards) AS in_discards, sum(d_out_pkts) AS out_pkts,
                       sum(d_out_discards) AS out_discards
                  FROM counters
                 WHERE time >= %(start)s AND gap <= make_interval(secs => %(max_gap_s)s)
                   AND d_in_pkts >= 0 AND coalesce(d_in_fcs_errors, 0) >= 0 AND coalesce(d_in_discards, 0) >= 0
                   AND coalesce(d_out_pkts, 0) >= 0 AND coalesce(d_out_discards, 0) >= 0
                 GROUP BY 1, 2, 3
            ),
            optical AS (
                SELECT link_id, side, date_trunc('hour', time) AS hour,
                       count(*) FILTER (WHERE input_power_dbm IS NOT NULL OR output_power_dbm IS NOT NULL
                                        OR rx_no_light) AS optical_samples,
                       avg(input_power_dbm) AS input_avg, min(input_power_dbm) AS input_min,
                       max(input_power_dbm) AS input_max, avg(output_power_dbm) AS output_avg,
                       min(output_power_dbm) AS output_min, max(output_power_dbm) AS output_max,
                       count(*) FILTER (WHERE rx_no_light) AS dark
                  FROM telemetry_sample
                 WHERE time >= %(start)s AND time < %(end)s
                 GROUP BY 1, 2, 3
            )
            INSERT INTO telemetry_hourly AS h (
                hour, link_id, side, optical_samples, input_power_dbm_avg, input_power_dbm_min,
                input_power_dbm_max, output_power_dbm_avg, output_power_dbm_min, output_power_dbm_max,
                rx_no_light_samples, in_pkts, in_fcs_errors, in_discards, out_pkts, out_discards)
            SELECT o.hour, o.link_id, o.side, o.optical_samples, o.input_avg, o.input_min, o.input_max,
                   o.output_avg, o.output_min, o.output_max, o.dark,
                   d.in_pkts, d.in_fcs_errors, d.in_discards, d.out_pkts, d.out_discards
              FROM optical o LEFT JOIN deltas d USING (link_id, side, hour)
            ON CONFLICT (link_id, side, hour) DO UPDATE SET
                optical_samples = EXCLUDED.optical_samples,
                input_power_dbm_avg = EXCLUDED.input_power_dbm_avg,
                input_power_dbm_min = EXCLUDED.input_power_dbm_min,
                input_power_dbm_max = EXCLUDED.input_power_dbm_max,
                output_power_dbm_avg = EXCLUDED.output_power_dbm_avg,
                output_power_dbm_min = EXCLUDED.output_power_dbm_min,
                output_power_dbm_max = EXCLUDED.output_power_dbm_max,
                rx_no_light_samples = EXCLUDED.rx_no_light_samples,
                in_pkts = EXCLUDED.in_pkts, in_fcs_errors = EXCLUDED.in_fcs_errors,
                in_discards = EXCLUDED.in_discards, out_pkts = EXCLUDED.out_pkts,
                out_discards = EXCLUDED.out_discards
            """,
            {
                "start": start,
                "end": end,
                "lookback": start - dt.timedelta(seconds=_MAX_DELTA_S),
                "max_gap_s": _MAX_DELTA_S,
            },
        )
        return cursor.rowcount


def maintain(now: dt.datetime | None = None) -> dict[str, Any]:
    """Create tomorrow's partitions, roll up recent hours, and apply retention."""
    now = now or timezone.now()
    today = now.date()
    report: dict[str, Any] = {}
    with transaction.atomic():
        report["created"] = partitions.ensure_partitions(today + dt.timedelta(days=d) for d in range(3))
        report["created"] += partitions.ensure_hourly_partitions([today, today + dt.timedelta(days=31)])
        report["rolled_up"] = rollup_hours(now - dt.timedelta(hours=ROLLUP_LOOKBACK_HOURS), now)
    raw_cutoff = today - dt.timedelta(days=settings.TELEMETRY_RAW_RETENTION_DAYS)
    expiring = sorted(day for day in partitions.existing_partitions() if day < raw_cutoff)
    with transaction.atomic():
        # Aggregate a day once more before its raw samples go: late data may have arrived.
        for day in expiring:
            start = dt.datetime.combine(day, dt.time(), dt.UTC)
            report["rolled_up"] += rollup_hours(start, start + dt.timedelta(days=1))
        report["dropped"] = partitions.drop_partitions_before(raw_cutoff)
        report["dropped"] += partitions.drop_hourly_partitions_before(
            today - dt.timedelta(days=settings.TELEMETRY_HOURLY_RETENTION_DAYS)
        )
        report["batches_forgotten"] = forget_derived_batches(
            now - dt.timedelta(days=settings.TELEMETRY_RAW_RETENTION_DAYS)
        )
    return report


def forget_derived_batches(before: dt.datetime) -> int:
    """Delete the records of ingest batches older than `before` that derivation has taken (the
    watermark in Derivation stays); their samples go with the raw retention."""
    with connection.cursor() as cursor:
        cursor.execute(
            "DELETE FROM telemetry_ingestbatch b USING telemetry_derivation d "
            "WHERE d.fabric_id = b.fabric_id AND b.id <= d.watermark AND b.created < %s",
            [before],
        )
        return cursor.rowcount
