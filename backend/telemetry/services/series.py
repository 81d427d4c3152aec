"""A link's telemetry over a time range, shaped for charts: columns of numbers, not rows.

Raw resolution reads the raw samples of the range once (readings.read_raw) and draws the power
lines and the loss lines from that read; hour resolution reads the hourly aggregates, which
outlive the raw samples. `auto` picks raw for ranges up to RAW_AUTO_MAX inside the raw
retention, else hours. The loss signatures always come from the raw counter intervals, the
same ones the raw chart draws.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.db import connection
from django.utils import timezone

from fabric.models import Link

from ..models import DirectionHealth, EndState
from .readings import SIDES, EndInterval, read_raw
from .rules import INTO, OUT_OF
from .signatures import signatures_from
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


def link_telemetry(link: Link, start: dt.datetime, end: dt.datetime, resolution: str = "auto") -> dict[str, Any]:
    """What GET /api/links/{id}/telemetry/ returns: the chart series, the thresholds, the
    link's status and the loss signatures, with one read of the raw samples."""
    now = timezone.now()
    chosen = choose_resolution(start, end, resolution, now)
    fabric = link.fabric
    raw = read_raw(
        link.pk,
        start,
        end,
        window_s=float(fabric.telemetry_window_s),
        min_packets=int(fabric.telemetry_min_packets),
        optical=chosen == "raw",
    )
    if chosen == "raw":
        sides, loss = raw.optical, _loss_lines(raw.intervals)
    else:
        sides, loss = _hourly(link, start, end, fabric)
    limits = effective_limits([link.pk])
    thresholds = {side: _thresholds(limits, link.pk, side) for side in SIDES}
    return {
        "link": link.pk,
        "from": start,
        "to": end,
        "resolution": chosen,
        "sides": sides,
        "loss": loss,
        "thresholds": thresholds,
        "corruption_action_threshold": fabric.corruption_action_threshold,
        "corruption_report_threshold": fabric.corruption_report_threshold,
        "status": link_status(link, thresholds),
        "signatures": signatures_from(raw.intervals, float(fabric.corruption_report_threshold)),
    }


def _thresholds(limits: dict, link_id: int, side: str) -> dict[str, dict]:
    return {f: limits.get((link_id, side), {}).get(f, Resolved(None, None)).as_dict() for f in LIMIT_FIELDS}


def link_status(link: Link, thresholds: dict[str, dict]) -> dict[str, Any]:
    """The newest readings, classes and health of a link: what `links show` prints."""
    ends = {e.side: e for e in EndState.objects.filter(link=link)}
    health = {h.direction: h for h in DirectionHealth.objects.filter(link=link)}
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
                "thresholds": thresholds[side],
            }
            for side in SIDES
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


def _loss_lines(intervals: dict[str, list[EndInterval]]) -> dict[str, Any]:
    """Each end's intervals as the loss lines they feed, drawn at the interval's end: what an
    end received is corruption into it, what it sent congestion out of it. A broken interval
    (a gap, a wrap or a reset) puts a null in both lines, so the chart breaks them there rather
    than invent a rate or join across."""
    loss = _empty_loss()
    for side, end in intervals.items():
        corruption, congestion = loss[INTO[side]]["corruption"], loss[OUT_OF[side]]["congestion"]
        for interval in end:
            if interval.broken:
                for line in (corruption, congestion):
                    line["time"].append(interval.stamp)
                    line["rate"].append(None)
                continue
            if interval.received is not None:
                corruption["time"].append(interval.stamp)
                corruption["rate"].append(interval.received.rate)
            if interval.sent is not None:
                congestion["time"].append(interval.stamp)
                congestion["rate"].append(interval.sent.rate)
    return loss


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
