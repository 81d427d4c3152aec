"""Loss signatures of a link over a time range: does a direction's loss look like corruption or
like congestion? (docs/telemetry.md, "Loss signatures"; corropt.md section 1.)

The seed's two signatures: corruption is stable over time (the coefficient of variation of the
rate is below 4 for 80% of corrupting links, about twice that for congestion) and independent of
load (mean Pearson correlation between utilisation and log(loss) 0.19, versus 0.62 for congestion).

The intervals are readings.py's, the same the chart draws: each pair of consecutive counter
samples of one end, with its rule for gaps, wraps and resets. The receiving end's interval gives a
corruption rate and the good frames per second it received; the sending end's gives a congestion
rate and the packets per second it sent. Packets per second stand in for
utilisation: Pearson correlation does not change when one variable is scaled by a constant
(the link speed and mean packet size), so r is the same.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from fabric.models import Link

from .readings import CounterSample, EndInterval, Interval, end_intervals, max_gap, read_raw
from .rules import INTO, OUT_OF

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


def signatures_from(intervals: Mapping[str, Sequence[EndInterval]], report_threshold: float) -> dict[str, Any]:
    """Per direction: corruption and congestion statistics and the verdict, from each end's
    intervals (readings.end_intervals): what an end received is the corruption of the direction
    into it, what it sent the congestion of the direction out of it."""
    received: dict[str, list[Interval]] = {d: [] for d in DIRECTIONS}
    sent: dict[str, list[Interval]] = {d: [] for d in DIRECTIONS}
    for side, end in intervals.items():
        received[INTO[side]] = [i.received for i in end if i.received is not None]
        sent[OUT_OF[side]] = [i.sent for i in end if i.sent is not None]
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


def signatures_of(
    ends: Mapping[str, Sequence[CounterSample]], *, window_s: float, min_packets: int, report_threshold: float
) -> dict[str, Any]:
    """Signatures from both ends' counter samples, each end's in time order."""
    max_gap_s = max_gap(window_s).total_seconds()
    return signatures_from(
        {side: end_intervals(samples, max_gap_s, min_packets) for side, samples in ends.items()}, report_threshold
    )


def link_signatures(link: Link, start: dt.datetime, end: dt.datetime) -> dict[str, Any]:
    """Signatures of both directions over the raw counter intervals that end in [start, end).

    Raw samples are kept for the raw retention only, so an older range has no intervals and the
    verdict says so. The telemetry endpoint gets the same result from its one read
    (series.link_telemetry); this is the same computation for one link on its own.
    """
    fabric = link.fabric
    read = read_raw(
        link.pk,
        start,
        end,
        window_s=float(fabric.telemetry_window_s),
        min_packets=int(fabric.telemetry_min_packets),
        optical=False,
    )
    return signatures_from(read.intervals, float(fabric.corruption_report_threshold))
