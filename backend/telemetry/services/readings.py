"""One read of a link's raw samples over a range, and the one rule that turns an end's
consecutive counter samples into loss intervals (docs/telemetry.md, "Charts and loss intervals").

The chart's loss lines (series.py) and the loss signatures (signatures.py) both come from the
intervals made here, from the same read, so they cannot disagree about which intervals exist.

The rule, per end, for each pair of consecutive counter samples (before, after]:
- longer than MAX_GAP_WINDOWS windows: a gap, no rate;
- any counter reported in both samples went back (a wrap or a device reset): the interval is
  skipped whole, no corruption rate and no congestion rate. A reset clears every counter of
  the interface at once, so a counter that did not go back may still have restarted (an error
  count of 0 before and 0 after), and its delta cannot be trusted either. Ingest's derivation
  skips the window on the same condition;
- otherwise a corruption rate where both samples have in_pkts and in_fcs_errors and at least
  `telemetry_min_packets` frames arrived, and a congestion rate where both have out_pkts and
  out_discards and at least that many packets left.
An interval belongs to a range when it ends inside it, so the first sample of a range pairs with
the newest sample up to MAX_GAP_WINDOWS windows before it.

Times come from PostgreSQL as seconds since the epoch (for the arithmetic) and as text (for the
API, reshaped into DRF's ISO 8601 form): building thousands of datetime objects per request only
to subtract them and print them again was more than half of the chart request's time.
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db import connection

from .rules import MAX_GAP_WINDOWS

SIDES = ("a", "z")
OPTICAL_COLUMNS = ("input_power_dbm", "output_power_dbm", "rx_no_light", "tx_no_light")


# Not frozen: a frozen dataclass costs about four times as much to build, and a week's chart
# builds thousands of these per request.
@dataclass(slots=True)
class CounterSample:
    """One end's cumulative counters at one time (None: not reported in that sample).
    `time` is in seconds since the epoch; `stamp` is its ISO 8601 text, when it has one."""

    time: float
    in_pkts: int | None
    in_fcs_errors: int | None
    out_pkts: int | None
    out_discards: int | None
    in_discards: int | None = None
    stamp: str = ""


@dataclass(slots=True)
class Interval:
    rate: float  # lost / carried, a fraction
    packets_per_s: float  # the utilisation proxy of the signatures


@dataclass(slots=True)
class EndInterval:
    """Two consecutive counter samples of one end, ending at `time` (seconds since the epoch);
    `stamp` is the ISO 8601 text of `time`, where the chart draws the interval.

    `received` is the corruption this end saw arriving, `sent` the congestion it had leaving;
    None where the interval gives no such rate. `broken` marks a gap or a counter that went back:
    no rates at all, and the chart breaks its lines there rather than join across.
    """

    time: float
    stamp: str
    received: Interval | None
    sent: Interval | None
    broken: bool


def max_gap(window_s: float) -> dt.timedelta:
    return dt.timedelta(seconds=MAX_GAP_WINDOWS * window_s)


def end_intervals(samples: Sequence[CounterSample], max_gap_s: float, min_packets: int) -> list[EndInterval]:
    """The intervals of one end's counter samples, in time order."""
    intervals = []
    floor = max(min_packets, 1)
    for before, after in itertools.pairwise(samples):
        seconds = after.time - before.time
        if seconds <= 0:
            continue
        if seconds > max_gap_s or _went_back(before, after):
            intervals.append(EndInterval(after.time, after.stamp, None, None, broken=True))
            continue
        received = sent = None
        in0, fcs0, in1, fcs1 = before.in_pkts, before.in_fcs_errors, after.in_pkts, after.in_fcs_errors
        if in0 is not None and fcs0 is not None and in1 is not None and fcs1 is not None:
            good, errors = in1 - in0, fcs1 - fcs0
            frames = good + errors
            if frames >= floor:
                # Good frames only for the load: counting the errors too would tie it to the rate.
                received = Interval(errors / frames, good / seconds)
        out0, drop0, out1, drop1 = before.out_pkts, before.out_discards, after.out_pkts, after.out_discards
        if out0 is not None and drop0 is not None and out1 is not None and drop1 is not None:
            packets, dropped = out1 - out0, drop1 - drop0
            if packets >= floor:
                sent = Interval(dropped / packets, packets / seconds)
        intervals.append(EndInterval(after.time, after.stamp, received, sent, broken=False))
    return intervals


def _went_back(before: CounterSample, after: CounterSample) -> bool:
    for old, new in (
        (before.in_pkts, after.in_pkts),
        (before.in_fcs_errors, after.in_fcs_errors),
        (before.in_discards, after.in_discards),
        (before.out_pkts, after.out_pkts),
        (before.out_discards, after.out_discards),
    ):
        if old is not None and new is not None and new < old:
            return True
    return False


def iso_utc(text: str) -> str:
    """PostgreSQL's text of a UTC timestamp ("2026-11-22 20:15:00", "2026-11-22 20:15:00.25") as
    DRF prints a UTC datetime: "2026-11-22T20:15:00Z", "2026-11-22T20:15:00.250000Z". The text
    is in DateStyle ISO, PostgreSQL's default, which psycopg's own date loading requires too."""
    if len(text) == 19:
        return f"{text[:10]}T{text[11:]}Z"
    return f"{text[:10]}T{text[11:19]}.{text[20:].ljust(6, '0')}Z"


@dataclass
class RawRead:
    """A link's raw samples over [start, end): the optical columns of each side for the chart
    (when asked for) and each end's intervals that end inside the range."""

    optical: dict[str, dict[str, list]] = field(default_factory=dict)
    intervals: dict[str, list[EndInterval]] = field(default_factory=dict)


def read_raw(
    link_id: int,
    start: dt.datetime,
    end: dt.datetime,
    *,
    window_s: float,
    min_packets: int,
    optical: bool,
) -> RawRead:
    """One query over the day partitions of the range (an index range scan each, on the primary
    key (link_id, side, time)), reaching back MAX_GAP_WINDOWS windows for the first interval."""
    lead_in = max_gap(window_s)
    counters_only = "" if optical else "AND (in_pkts IS NOT NULL OR out_pkts IS NOT NULL)"
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            SELECT side, date_part('epoch', time), (time AT TIME ZONE 'UTC')::text,
                   input_power_dbm, output_power_dbm, rx_no_light, tx_no_light,
                   in_pkts, in_fcs_errors, in_discards, out_pkts, out_discards
              FROM telemetry_sample
             WHERE link_id = %s AND time >= %s AND time < %s {counters_only}
             ORDER BY side, time
            """,
            [link_id, start - lead_in, end],
        )
        rows = cursor.fetchall()
    since = start.timestamp()
    columns: dict[str, dict[str, list]] = {side: {"time": [], **{c: [] for c in OPTICAL_COLUMNS}} for side in SIDES}
    counters: dict[str, list[CounterSample]] = {side: [] for side in SIDES}
    for side, time, utc_text, rx, tx, rx_dark, tx_dark, in_pkts, fcs, in_disc, out_pkts, out_disc in rows:
        stamp = iso_utc(utc_text)
        if optical and time >= since and (rx is not None or tx is not None or rx_dark or tx_dark):
            column = columns[side]
            column["time"].append(stamp)
            column["input_power_dbm"].append(rx)
            column["output_power_dbm"].append(tx)
            column["rx_no_light"].append(rx_dark)
            column["tx_no_light"].append(tx_dark)
        if in_pkts is not None or out_pkts is not None:
            # numeric(20,0) arrives as Decimal; Python ints keep 64-bit counters exact.
            counters[side].append(
                CounterSample(
                    time,
                    None if in_pkts is None else int(in_pkts),
                    None if fcs is None else int(fcs),
                    None if out_pkts is None else int(out_pkts),
                    None if out_disc is None else int(out_disc),
                    None if in_disc is None else int(in_disc),
                    stamp,
                )
            )
    max_gap_s = lead_in.total_seconds()
    intervals = {
        side: [i for i in end_intervals(counters[side], max_gap_s, min_packets) if i.time >= since] for side in SIDES
    }
    return RawRead(optical=columns if optical else {}, intervals=intervals)
