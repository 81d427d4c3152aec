"""Loss signatures of a link over a time range: does a direction's loss look like corruption or
like congestion? (docs/telemetry.md, "Loss signatures"; corropt.md section 1.)

The seed's two signatures: corruption is stable over time (the coefficient of variation of the
rate is below 4 for 80% of corrupting links, about twice that for congestion) and independent of
load (mean Pearson correlation between utilisation and log(loss) 0.19, versus 0.62 for congestion).

Each pair of consecutive counter samples of one end is an interval. The receiving end's
interval gives a corruption rate and the good frames per second it received; the sending end's gives
a congestion rate and the packets per second it sent. Packets per second stand in for
utilisation: Pearson correlation does not change when one variable is scaled by a constant
(the link speed and mean packet size), so r is the same.
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from django.db import connection

from fabric.models import Link

from .rules import INTO, MAX_GAP_WINDOWS, OUT_OF

# Fewer intervals than this (about two hours at the seed's 15-minute polls) say nothing about
# stability or load; the same minimum applies to the lossy intervals the correlation uses.
MIN_INTERVALS = 8
# The seed: CV below 4 for 80% of corrupting links; congestion is about twice as variable.
STABLE_CV = 4.0
# The seed: 85% of corrupting links have r in [-0.5, 0.5]; congestion averages 0.62.
LOAD_FOLLOWING_R = 0.5

CORRUPTION_LIKE = "corruption-like"
CONGESTION_LIKE = "congestion-like"
UNCLEAR = "unclear"
CLEAN = "clean"
INSUFFICIENT = "insufficient data"

DIRECTIONS = ("a_to_z", "z_to_a")


@dataclass(frozen=True)
class CounterSample:
    """One end's cumulative counters at one time (None: not reported in that sample)."""

    time: dt.datetime
    in_pkts: int | None
    in_fcs_errors: int | None
    out_pkts: int | None
    out_discards: int | None


@dataclass(frozen=True)
class Interval:
    rate: float  # lost / carried, a fraction
    packets_per_s: float  # the utilisation proxy


def end_intervals(
    samples: Sequence[CounterSample], max_gap_s: float, min_packets: int
) -> tuple[list[Interval], list[Interval]]:
    """(received corruption, sent congestion) intervals of one end, samples in time order.

    An interval longer than `max_gap_s` is a gap, not a rate. A pair of counters that went
    back (wrap or reset) drops that rate only: the other pair may still be good.
    """
    received: list[Interval] = []
    sent: list[Interval] = []
    floor = max(min_packets, 1)
    for before, after in itertools.pairwise(samples):
        seconds = (after.time - before.time).total_seconds()
        if seconds <= 0 or seconds > max_gap_s:
            continue
        frames_errors = _deltas(before.in_pkts, before.in_fcs_errors, after.in_pkts, after.in_fcs_errors)
        if frames_errors is not None:
            good, errors = frames_errors
            frames = good + errors
            if frames >= floor:
                # Good frames only for the load: counting the errors too would tie it to the rate.
                received.append(Interval(errors / frames, good / seconds))
        sent_dropped = _deltas(before.out_pkts, before.out_discards, after.out_pkts, after.out_discards)
        if sent_dropped is not None:
            packets, dropped = sent_dropped
            if packets >= floor:
                sent.append(Interval(dropped / packets, packets / seconds))
    return received, sent


def _deltas(count0: int | None, lost0: int | None, count1: int | None, lost1: int | None) -> tuple[int, int] | None:
    if count0 is None or lost0 is None or count1 is None or lost1 is None:
        return None
    d_count, d_lost = count1 - count0, lost1 - lost0
    if d_count < 0 or d_lost < 0:
        return None
    return d_count, d_lost


def summarise(intervals: Sequence[Interval], report_threshold: float) -> dict[str, Any]:
    """Statistics of one loss series and its signature.

    The CV runs over every interval, zeros included: an on-and-off loss is unstable, and
    dropping the zeros would hide exactly that. The correlation runs over the intervals with a
    positive rate only, as log(0) has no value.
    """
    rates = np.array([i.rate for i in intervals], dtype=float)
    mean_rate = float(rates.mean()) if len(rates) else None
    cv = float(rates.std() / mean_rate) if mean_rate else None  # population std (ddof=0)
    lossy = [i for i in intervals if i.rate > 0]
    correlation, constant_loss = _load_correlation(lossy)
    summary: dict[str, Any] = {
        "intervals": len(intervals),
        "lossy_intervals": len(lossy),
        "mean_rate": mean_rate,
        "cv": cv,
        "load_correlation": correlation,
        "mean_packets_per_s": float(np.mean([i.packets_per_s for i in intervals])) if intervals else None,
    }
    summary["signature"] = _signature(summary, constant_loss, report_threshold)
    return summary


def _load_correlation(lossy: Sequence[Interval]) -> tuple[float | None, bool]:
    """Pearson r of packets/s against log10(rate); None when either side does not vary.

    The flag says the loss itself was constant: it then cannot follow the load, whatever the
    load did, which the verdict counts as load-independent.
    """
    if len(lossy) < MIN_INTERVALS:
        return None, False
    load = np.array([i.packets_per_s for i in lossy], dtype=float)
    log_rate = np.log10(np.array([i.rate for i in lossy], dtype=float))
    constant_loss = bool(np.ptp(log_rate) == 0)
    if constant_loss or np.ptp(load) == 0:
        return None, constant_loss
    return float(np.corrcoef(load, log_rate)[0, 1]), False


def _is_lossy(summary: dict[str, Any], report_threshold: float) -> bool:
    mean_rate = summary["mean_rate"]
    return summary["intervals"] >= MIN_INTERVALS and bool(mean_rate) and mean_rate >= report_threshold


def _signature(summary: dict[str, Any], constant_loss: bool, report_threshold: float) -> str:
    if summary["intervals"] < MIN_INTERVALS:
        return INSUFFICIENT
    if not _is_lossy(summary, report_threshold):
        return CLEAN
    r = summary["load_correlation"]
    if r is None and not constant_loss:
        return INSUFFICIENT  # too few lossy intervals, or a load that never changed
    if r is not None and r >= LOAD_FOLLOWING_R:
        return CONGESTION_LIKE
    if summary["cv"] < STABLE_CV and (r is None or abs(r) < LOAD_FOLLOWING_R):
        return CORRUPTION_LIKE
    return UNCLEAR  # unstable but not load-following, or loss falling as load rises


def direction_verdict(corruption: dict[str, Any], congestion: dict[str, Any], report_threshold: float) -> str:
    """The signature of the direction's larger loss among the lossy ones (enough intervals, mean
    at or above the report threshold); `clean` when neither is lossy but one had enough intervals."""
    series = (corruption, congestion)
    lossy = [s for s in series if _is_lossy(s, report_threshold)]
    if lossy:
        return str(max(lossy, key=lambda s: s["mean_rate"])["signature"])
    if any(s["signature"] == CLEAN for s in series):
        return CLEAN
    return INSUFFICIENT


def signatures_of(
    ends: Mapping[str, Sequence[CounterSample]], *, window_s: float, min_packets: int, report_threshold: float
) -> dict[str, dict[str, Any]]:
    """Per direction: corruption and congestion statistics and the verdict, from both ends' samples."""
    received: dict[str, list[Interval]] = {d: [] for d in DIRECTIONS}
    sent: dict[str, list[Interval]] = {d: [] for d in DIRECTIONS}
    for side, samples in ends.items():
        into, out_of = end_intervals(samples, MAX_GAP_WINDOWS * window_s, min_packets)
        received[INTO[side]] = into
        sent[OUT_OF[side]] = out_of
    result: dict[str, dict[str, Any]] = {}
    for direction in DIRECTIONS:
        corruption = summarise(received[direction], report_threshold)
        congestion = summarise(sent[direction], report_threshold)
        result[direction] = {
            "verdict": direction_verdict(corruption, congestion, report_threshold),
            "corruption": corruption,
            "congestion": congestion,
        }
    return result


def link_signatures(link: Link, start: dt.datetime, end: dt.datetime) -> dict[str, dict[str, Any]]:
    """Signatures of both directions from the raw counter samples in [start, end).

    Only intervals with both samples inside the range count. Raw samples are kept for the raw
    retention only, so an older range has no intervals and the verdict says so.
    """
    fabric = link.fabric
    with connection.cursor() as cursor:
        # The primary key (link_id, side, time) makes this an index range scan per day partition.
        cursor.execute(
            """
            SELECT side, time, in_pkts, in_fcs_errors, out_pkts, out_discards
              FROM telemetry_sample
             WHERE link_id = %s AND time >= %s AND time < %s AND (in_pkts IS NOT NULL OR out_pkts IS NOT NULL)
             ORDER BY side, time
            """,
            [link.pk, start, end],
        )
        rows = cursor.fetchall()
    return signatures_of(
        _by_side(rows),
        window_s=float(fabric.telemetry_window_s),
        min_packets=int(fabric.telemetry_min_packets),
        report_threshold=float(fabric.corruption_report_threshold),
    )


def _by_side(rows: Iterable[tuple]) -> dict[str, list[CounterSample]]:
    ends: dict[str, list[CounterSample]] = {"a": [], "z": []}
    for side, time, *counters in rows:
        # numeric(20,0) arrives as Decimal; Python ints keep 64-bit counters exact.
        in_pkts, fcs, out_pkts, discards = (None if c is None else int(c) for c in counters)
        ends[side].append(CounterSample(time, in_pkts, fcs, out_pkts, discards))
    return ends
