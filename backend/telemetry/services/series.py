"""A link's telemetry over a time range, shaped for charts: columns of numbers, not rows.

Raw resolution reads the day partitions of the range (the primary key (link_id, side, time)
makes it an index range scan per partition); hour resolution reads the hourly aggregates,
which outlive the raw samples. `auto` picks raw for ranges up to RAW_AUTO_MAX inside the
raw retention, else hours.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.db import connection
from django.utils import timezone

from fabric.models import Link

from ..models import DirectionHealth, EndState
from .rules import INTO, MAX_GAP_WINDOWS, OUT_OF
from .thresholds import LIMIT_FIELDS, Resolved, effective_limits

RESOLUTIONS = ("auto", "raw", "hour")
RAW_AUTO_MAX = dt.timedelta(days=7)
MAX_RANGE = dt.timedelta(days=400)


class RangeError(ValueError):
    """The requested range or resolution is unusable; the message says why."""


def choose_resolution(start: dt.datetime, end: dt.datetime, resolution: str, now: dt.datetime) -> str:
    if resolution not in RESOLUTIONS:
        raise RangeError(f"resolution must be one of {', '.join(RESOLUTIONS)}")
    if end <= start:
        raise RangeError("'from' must be before 'to'")
    if end - start > MAX_RANGE:
        raise RangeError(f"the range may span at most {MAX_RANGE.days} days")
    if resolution != "auto":
        return resolution
    raw_horizon = now - dt.timedelta(days=settings.TELEMETRY_RAW_RETENTION_DAYS)
    return "raw" if end - start <= RAW_AUTO_MAX and start >= raw_horizon else "hour"


def link_series(link: Link, start: dt.datetime, end: dt.datetime, resolution: str = "auto") -> dict[str, Any]:
    now = timezone.now()
    chosen = choose_resolution(start, end, resolution, now)
    fabric = link.fabric
    if chosen == "raw":
        sides, loss = _raw(link, start, end, fabric)
    else:
        sides, loss = _hourly(link, start, end, fabric)
    limits = effective_limits([link.pk])
    return {
        "link": link.pk,
        "from": start,
        "to": end,
        "resolution": chosen,
        "sides": sides,
        "loss": loss,
        "thresholds": {
            side: {f: limits.get((link.pk, side), {}).get(f, Resolved(None, None)).as_dict() for f in LIMIT_FIELDS}
            for side in ("a", "z")
        },
        "corruption_action_threshold": fabric.corruption_action_threshold,
        "corruption_report_threshold": fabric.corruption_report_threshold,
    }


def link_status(link: Link) -> dict[str, Any]:
    """The newest readings, classes and health of a link: what `links show` prints."""
    ends = {e.side: e for e in EndState.objects.filter(link=link)}
    health = {h.direction: h for h in DirectionHealth.objects.filter(link=link)}
    limits = effective_limits([link.pk])
    return {
        "link": link.pk,
        "health": link.health,
        "rx_low": link.rx_low,
        "sides": {
            side: {
                "optical_time": getattr(ends.get(side), "optical_time", None),
                **{
                    name: getattr(ends.get(side), name, None)
                    for name in (
                        "input_power_dbm",
                        "input_power_min_channel_dbm",
                        "output_power_dbm",
                        "output_power_min_channel_dbm",
                        "laser_bias_current_ma",
                        "temperature_c",
                        "supply_voltage_v",
                        "rx_no_light",
                        "tx_no_light",
                        "rx_class",
                        "tx_class",
                        "counter_time",
                    )
                },
                "thresholds": {
                    f: limits.get((link.pk, side), {}).get(f, Resolved(None, None)).as_dict() for f in LIMIT_FIELDS
                },
            }
            for side in ("a", "z")
        },
        "directions": {
            direction: {
                name: getattr(health.get(direction), name, None)
                for name in (
                    "health",
                    "corruption_rate",
                    "corruption_time",
                    "congestion_rate",
                    "congestion_time",
                    "health_since",
                )
            }
            for direction in ("a_to_z", "z_to_a")
        },
    }


def _empty_loss() -> dict[str, Any]:
    return {
        direction: {"corruption": {"time": [], "rate": []}, "congestion": {"time": [], "rate": []}}
        for direction in ("a_to_z", "z_to_a")
    }


def _raw(link: Link, start: dt.datetime, end: dt.datetime, fabric) -> tuple[dict, dict]:
    sides: dict[str, dict[str, list]] = {
        side: {"time": [], "input_power_dbm": [], "output_power_dbm": [], "rx_no_light": [], "tx_no_light": []}
        for side in ("a", "z")
    }
    loss = _empty_loss()
    max_gap = dt.timedelta(seconds=MAX_GAP_WINDOWS * fabric.telemetry_window_s)
    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT side, time, input_power_dbm, output_power_dbm, rx_no_light, tx_no_light
              FROM telemetry_sample
             WHERE link_id = %s AND time >= %s AND time < %s
               AND (input_power_dbm IS NOT NULL OR output_power_dbm IS NOT NULL OR rx_no_light OR tx_no_light)
             ORDER BY side, time
            """,
            [link.pk, start, end],
        )
        for side, time, rx, tx, rx_dark, tx_dark in cursor.fetchall():
            column = sides[side]
            column["time"].append(time)
            column["input_power_dbm"].append(rx)
            column["output_power_dbm"].append(tx)
            column["rx_no_light"].append(rx_dark)
            column["tx_no_light"].append(tx_dark)
        # One sample before the range gives the first interval its start.
        cursor.execute(
            """
            SELECT side, time, in_pkts, in_fcs_errors, out_pkts, out_discards
              FROM telemetry_sample
             WHERE link_id = %s AND time >= %s AND time < %s AND (in_pkts IS NOT NULL OR out_pkts IS NOT NULL)
             ORDER BY side, time
            """,
            [link.pk, start - max_gap, end],
        )
        previous: dict[str, tuple] = {}
        for side, time, in_pkts, fcs, out_pkts, discards in cursor.fetchall():
            before = previous.get(side)
            previous[side] = (time, in_pkts, fcs, out_pkts, discards)
            if before is None or time < start:
                continue
            interval = _interval(
                before, (time, in_pkts, fcs, out_pkts, discards), max_gap, fabric.telemetry_min_packets
            )
            if interval is None:  # a gap, a wrap or a reset: break the line rather than invent a rate
                for kind in ("corruption", "congestion"):
                    direction = INTO[side] if kind == "corruption" else OUT_OF[side]
                    loss[direction][kind]["time"].append(time)
                    loss[direction][kind]["rate"].append(None)
                continue
            corruption, congestion = interval
            if corruption is not None:
                loss[INTO[side]]["corruption"]["time"].append(time)
                loss[INTO[side]]["corruption"]["rate"].append(corruption)
            if congestion is not None:
                loss[OUT_OF[side]]["congestion"]["time"].append(time)
                loss[OUT_OF[side]]["congestion"]["rate"].append(congestion)
    return sides, loss


def _interval(before: tuple, after: tuple, max_gap: dt.timedelta, min_packets: int):
    """(corruption, congestion) between two counter samples of one end, None for no rate."""
    t0, in0, fcs0, out0, disc0 = before
    t1, in1, fcs1, out1, disc1 = after
    if t1 - t0 > max_gap:
        return None
    corruption = congestion = None
    if None not in (in0, fcs0, in1, fcs1):
        d_in, d_fcs = in1 - in0, fcs1 - fcs0
        if d_in < 0 or d_fcs < 0:
            return None
        if d_in + d_fcs >= max(min_packets, 1):
            corruption = float(d_fcs / (d_in + d_fcs))
    if None not in (out0, disc0, out1, disc1):
        d_out, d_disc = out1 - out0, disc1 - disc0
        if d_out < 0 or d_disc < 0:
            return None
        if d_out >= max(min_packets, 1):
            congestion = float(d_disc / d_out)
    return corruption, congestion


def _hourly(link: Link, start: dt.datetime, end: dt.datetime, fabric) -> tuple[dict, dict]:
    names = (
        "input_power_dbm_avg",
        "input_power_dbm_min",
        "input_power_dbm_max",
        "output_power_dbm_avg",
        "output_power_dbm_min",
        "output_power_dbm_max",
    )
    sides: dict[str, dict[str, list]] = {
        side: {"time": [], **{name: [] for name in names}, "rx_no_light_samples": []} for side in ("a", "z")
    }
    loss = _empty_loss()
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            SELECT side, hour, {", ".join(names)}, rx_no_light_samples, optical_samples,
                   in_pkts, in_fcs_errors, out_pkts, out_discards
              FROM telemetry_hourly
             WHERE link_id = %s AND hour >= %s AND hour < %s
             ORDER BY side, hour
            """,
            [link.pk, start, end],
        )
        for row in cursor.fetchall():
            side, hour = row[0], row[1]
            values = row[2:8]
            dark, optical = row[8], row[9]
            in_pkts, fcs, out_pkts, discards = row[10:14]
            if optical:
                column = sides[side]
                column["time"].append(hour)
                for name, value in zip(names, values, strict=True):
                    column[name].append(value)
                column["rx_no_light_samples"].append(dark)
            if in_pkts is not None and fcs is not None and in_pkts + fcs >= max(fabric.telemetry_min_packets, 1):
                loss[INTO[side]]["corruption"]["time"].append(hour)
                loss[INTO[side]]["corruption"]["rate"].append(float(fcs / (in_pkts + fcs)))
            if out_pkts is not None and discards is not None and out_pkts >= max(fabric.telemetry_min_packets, 1):
                loss[OUT_OF[side]]["congestion"]["time"].append(hour)
                loss[OUT_OF[side]]["congestion"]["rate"].append(float(discards / out_pkts))
    return sides, loss
