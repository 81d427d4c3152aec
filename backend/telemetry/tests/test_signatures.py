"""Loss signatures: CV and load correlation per direction, and the corruption/congestion verdict.

Hand-built counter sequences check the arithmetic and the intervals that are skipped; telemetry
from the synthetic generator, ingested for real, checks that a loose transceiver reads as
corruption and a congested sender as congestion.
"""

import datetime as dt
import math
import statistics

import pytest
from django.db.models import Q
from django.utils import timezone

from accounts.roles import COLLECTOR
from fabric.models import Link
from lightpath_fixtures.telemetry import FaultSpec, generate_telemetry
from telemetry.services import readings
from telemetry.services.ingest import ingest
from telemetry.services.readings import CounterSample, Interval
from telemetry.services.signatures import (
    CLEAN,
    CONGESTION_LIKE,
    CORRUPTION_LIKE,
    INSUFFICIENT,
    UNCLEAR,
    link_signatures,
    signatures_of,
    summarise,
)

T0 = dt.datetime(2026, 11, 20, 0, 0, tzinfo=dt.UTC).timestamp()  # intervals work in epoch seconds
POLL_S = 900
REPORT = 1e-8


def receiving_end(deltas, *, start_counts=(0, 0), poll_s=POLL_S, times=None):
    """Samples of an end that receives (good, errors) frames per poll; it sends nothing."""
    good, errors = start_counts
    samples = [CounterSample(T0, good, errors, None, None)]
    for i, (d_good, d_errors) in enumerate(deltas, start=1):
        good, errors = good + d_good, errors + d_errors
        time = T0 + poll_s * i if times is None else times[i]
        samples.append(CounterSample(time, good, errors, None, None))
    return samples


def sending_end(deltas, *, poll_s=POLL_S):
    """Samples of an end that sends (packets, discards) per poll; it receives nothing."""
    sent = dropped = 0
    samples = [CounterSample(T0, None, None, 0, 0)]
    for i, (d_sent, d_dropped) in enumerate(deltas, start=1):
        sent, dropped = sent + d_sent, dropped + d_dropped
        samples.append(CounterSample(T0 + poll_s * i, None, None, sent, dropped))
    return samples


def end_intervals(samples, max_gap_s, min_packets):
    """(received, sent) rates of one end's intervals, as the signatures take them."""
    intervals = readings.end_intervals(samples, max_gap_s, min_packets)
    return (
        [i.received for i in intervals if i.received is not None],
        [i.sent for i in intervals if i.sent is not None],
    )


# Loads that rise and fall over a day, in frames per poll.
LOADS = [
    4_000_000,
    6_000_000,
    9_000_000,
    12_000_000,
    10_000_000,
    7_000_000,
    5_000_000,
    3_000_000,
    8_000_000,
    11_000_000,
]
# A few percent of noise on a steady rate, unrelated to LOADS.
WOBBLE = [1.00, 0.93, 1.05, 0.97, 1.08, 0.95, 1.02, 0.99, 1.06, 0.94]


class TestArithmetic:
    def test_cv_and_correlation_match_the_textbook_formulas(self):
        # Errors chosen freely, not from the load: the rates wander on their own.
        errors = [40, 55, 90, 100, 130, 60, 45, 33, 70, 150]
        received, _ = end_intervals(receiving_end(list(zip(LOADS, errors, strict=True))), 3 * POLL_S, 1000)
        rates = [e / (g + e) for g, e in zip(LOADS, errors, strict=True)]
        per_second = [g / POLL_S for g in LOADS]
        assert [i.rate for i in received] == pytest.approx(rates)
        assert [i.packets_per_s for i in received] == pytest.approx(per_second)

        summary = summarise(received, REPORT)
        assert summary["intervals"] == summary["lossy_intervals"] == 10
        assert summary["mean_rate"] == pytest.approx(statistics.fmean(rates))
        assert summary["cv"] == pytest.approx(statistics.pstdev(rates) / statistics.fmean(rates))
        expected_r = statistics.correlation(per_second, [math.log10(r) for r in rates])
        assert summary["load_correlation"] == pytest.approx(expected_r)
        assert summary["mean_packets_per_s"] == pytest.approx(statistics.fmean(per_second))

    def test_cv_counts_zero_intervals_but_the_correlation_skips_them(self):
        # Eight lossy polls at a rate that drifts, then four clean ones.
        deltas = [(1_000_000, e) for e in (10, 12, 9, 11, 10, 13, 8, 10)] + [(1_000_000, 0)] * 4
        summary = summarise(end_intervals(receiving_end(deltas), 3 * POLL_S, 1000)[0], REPORT)
        rates = [e / (1_000_000 + e) for _, e in deltas]
        assert summary["intervals"] == 12 and summary["lossy_intervals"] == 8
        assert summary["cv"] == pytest.approx(statistics.pstdev(rates) / statistics.fmean(rates))
        # Every lossy poll carried the same good frames: the load never moved, so no correlation.
        assert summary["load_correlation"] is None
        assert summary["signature"] == INSUFFICIENT

    def test_loss_growing_with_load_is_congestion_like(self):
        # Discards rise as a power of the load, as congestion does.
        deltas = [(sent, round(sent * 1e-4 * (sent / 12_000_000) ** 6)) for sent in LOADS]
        summary = summarise(end_intervals(sending_end(deltas), 3 * POLL_S, 1000)[1], REPORT)
        assert summary["load_correlation"] > 0.9
        assert summary["signature"] == CONGESTION_LIKE

    def test_steady_loss_under_a_changing_load_is_corruption_like(self):
        deltas = [(load, round(load * 1e-5 * w)) for load, w in zip(LOADS, WOBBLE, strict=True)]
        summary = summarise(end_intervals(receiving_end(deltas), 3 * POLL_S, 1000)[0], REPORT)
        assert summary["cv"] < 0.1
        assert abs(summary["load_correlation"]) < 0.5
        assert summary["signature"] == CORRUPTION_LIKE

    def test_a_perfectly_constant_loss_cannot_follow_the_load(self):
        deltas = [(load, load // 100_000) for load in LOADS]  # exactly 1e-5 of the good frames
        summary = summarise(end_intervals(sending_end(deltas), 3 * POLL_S, 1000)[1], REPORT)
        assert summary["cv"] == pytest.approx(0.0, abs=1e-12)
        assert summary["load_correlation"] is None
        assert summary["signature"] == CORRUPTION_LIKE

    def test_unstable_loss_that_ignores_the_load_is_unclear(self):
        # 29 polls at 1e-8 and one burst at 1e-3: CV above 4; the burst sits at the middle load.
        loads = [10_000_000 + 100_000 * ((7 * i) % 30) for i in range(30)]
        rates = [1e-8] * 30
        rates[15] = 1e-3
        intervals = [Interval(rate, load / POLL_S) for rate, load in zip(rates, loads, strict=True)]
        summary = summarise(intervals, REPORT)
        assert summary["cv"] > 4
        assert abs(summary["load_correlation"]) < 0.5
        assert summary["signature"] == UNCLEAR

    def test_loss_falling_as_load_rises_is_unclear(self):
        intervals = [Interval(1e3 / load, load / POLL_S) for load in LOADS]
        summary = summarise(intervals, REPORT)
        assert summary["load_correlation"] < -0.9
        assert summary["signature"] == UNCLEAR


class TestSkippedIntervals:
    def test_a_wrap_or_reset_of_any_counter_skips_the_whole_interval(self):
        samples = [
            CounterSample(T0, 100, 0, 500, 0),
            CounterSample(T0 + 15 * 60, 1_100, 1, 1_500, 2),
            # in_pkts went back (a reset): neither rate of this interval is trusted
            CounterSample(T0 + 30 * 60, 50, 1, 2_500, 3),
            CounterSample(T0 + 45 * 60, 2_050, 3, 3_500, 3),
            # out_discards went back: the corruption rate goes too
            CounterSample(T0 + 60 * 60, 4_050, 3, 5_500, 0),
            # in_discards, which no rate uses, went back: still a reset
            CounterSample(T0 + 75 * 60, 6_050, 4, 7_500, 1, in_discards=5),
            CounterSample(T0 + 90 * 60, 8_050, 5, 9_500, 2, in_discards=0),
        ]
        intervals = readings.end_intervals(samples, 3 * POLL_S, 1000)
        assert [i.broken for i in intervals] == [False, True, False, True, False, True]
        received, sent = end_intervals(samples, 3 * POLL_S, 1000)
        assert [i.rate for i in received] == pytest.approx([1 / 1001, 2 / 2002, 1 / 2001])
        assert [i.rate for i in sent] == pytest.approx([2 / 1000, 0.0, 1 / 2000])

    def test_a_gap_longer_than_three_windows_is_skipped_and_three_windows_is_not(self):
        minutes = [0, 15, 15 + 45, 15 + 45 + 46]  # 45 minutes = 3 windows: kept; 46: a gap
        times = [T0 + 60 * m for m in minutes]
        received, _ = end_intervals(receiving_end([(1_000, 1), (3_000, 3), (4_000, 4)], times=times), 3 * POLL_S, 1000)
        assert [i.rate for i in received] == pytest.approx([1 / 1001, 3 / 3003])
        assert [i.packets_per_s for i in received] == pytest.approx([1000 / POLL_S, 3000 / (3 * POLL_S)])

    def test_an_interval_under_the_minimum_packets_gives_no_rate(self):
        received, _ = end_intervals(receiving_end([(998, 1), (999, 1), (5_000, 0)]), 3 * POLL_S, 1000)
        assert [i.rate for i in received] == pytest.approx([1 / 1000, 0.0])  # 999 frames fall short

    def test_seven_intervals_are_insufficient_and_eight_decide(self):
        steady = [(1_000_000 + 10_000 * i, 0) for i in range(8)]
        seven = summarise(end_intervals(receiving_end(steady[:7]), 3 * POLL_S, 1000)[0], REPORT)
        eight = summarise(end_intervals(receiving_end(steady), 3 * POLL_S, 1000)[0], REPORT)
        assert (seven["intervals"], seven["signature"]) == (7, INSUFFICIENT)
        assert (eight["intervals"], eight["signature"]) == (8, CLEAN)
        assert eight["cv"] is None  # a zero mean has no CV

    def test_no_intervals_at_all(self):
        summary = summarise([], REPORT)
        assert summary == {
            "intervals": 0,
            "lossy_intervals": 0,
            "mean_rate": None,
            "cv": None,
            "load_correlation": None,
            "mean_packets_per_s": None,
            "signature": INSUFFICIENT,
        }


class TestDirections:
    def test_each_end_feeds_the_direction_it_receives_and_the_one_it_sends(self):
        corrupt = [(load, round(load * 1e-5 * w)) for load, w in zip(LOADS, WOBBLE, strict=True)]
        # Side Z receives with FCS errors (a_to_z) and sends clean traffic back (z_to_a).
        z_samples = [
            CounterSample(rx.time, rx.in_pkts, rx.in_fcs_errors, tx.out_pkts, tx.out_discards)
            for rx, tx in zip(receiving_end(corrupt), sending_end([(load, 0) for load in LOADS]), strict=True)
        ]
        result = signatures_of({"a": [], "z": z_samples}, window_s=POLL_S, min_packets=1000, report_threshold=REPORT)
        assert result["a_to_z"]["verdict"] == CORRUPTION_LIKE
        assert result["a_to_z"]["corruption"]["intervals"] == 10
        assert result["a_to_z"]["congestion"]["intervals"] == 0  # side A sent nothing we saw
        assert result["z_to_a"]["verdict"] == CLEAN
        assert result["z_to_a"]["congestion"]["intervals"] == 10

    def test_the_larger_lossy_series_decides_the_direction(self):
        congested = [(sent, round(sent * 1e-4 * (sent / 12_000_000) ** 6)) for sent in LOADS]
        a_sends = sending_end(congested)
        # Congestion averages about 2e-5: more than 5e-6 of corruption, less than 1e-3.
        for corruption_rate, verdict in ((5e-6, CONGESTION_LIKE), (1e-3, CORRUPTION_LIKE)):
            corrupt = [(load, round(load * corruption_rate * w)) for load, w in zip(LOADS, WOBBLE, strict=True)]
            result = signatures_of(
                {"a": a_sends, "z": receiving_end(corrupt)}, window_s=POLL_S, min_packets=1000, report_threshold=REPORT
            )
            assert result["a_to_z"]["corruption"]["signature"] == CORRUPTION_LIKE
            assert result["a_to_z"]["congestion"]["signature"] == CONGESTION_LIKE
            assert result["a_to_z"]["verdict"] == verdict, corruption_rate

    def test_a_lossy_series_too_short_for_a_correlation_keeps_the_direction_undecided(self):
        # Ten polls, only three with errors: lossy on average, but r needs eight lossy intervals.
        deltas = [(1_000_000, 50 if i in (2, 5, 8) else 0) for i in range(10)]
        result = signatures_of(
            {"a": [], "z": receiving_end(deltas)}, window_s=POLL_S, min_packets=1000, report_threshold=REPORT
        )
        assert result["a_to_z"]["corruption"]["signature"] == INSUFFICIENT
        assert result["a_to_z"]["verdict"] == INSUFFICIENT


# --- Through the database ---------------------------------------------------------------------


def the_link(fabric, a_switch: str, a_port: str) -> Link:
    return Link.objects.get(fabric=fabric, a_switch__name=a_switch, a_port=a_port)


def link_with_end(fabric, end: str) -> Link:
    """The link with `switch:port` at either end (the generator's truth names ends that way)."""
    switch, port = end.split(":")
    return Link.objects.get(
        Q(a_switch__name=switch, a_port=port) | Q(z_switch__name=switch, z_port=port), fabric=fabric
    )


def ingest_all(fabric, samples, batch=50_000):
    samples = list(samples)
    for first in range(0, len(samples), batch):
        ingest(fabric, samples[first : first + batch])


@pytest.mark.django_db
class TestFromStoredSamples:
    def test_generated_loose_transceiver_is_corruption_like_and_congestion_is_congestion_like(
        self, small_fabric, small_document
    ):
        fabric = small_fabric
        start = (timezone.now() - dt.timedelta(days=2)).replace(minute=0, second=0, microsecond=0)
        telemetry = generate_telemetry(
            small_document,
            start=start,
            hours=24,
            seed=2,
            congested_fraction=0.25,
            faults=[FaultSpec("loose_transceiver", link="t1:up0", direction="a_to_z", loss_rate=1e-5)],
        )
        ingest_all(fabric, telemetry)
        end = start + dt.timedelta(hours=24)
        congested = telemetry.truth["congested"]
        assert not any(c["tx"] == "t1:up0" for c in congested)  # the fault's own loss is pure corruption

        corrupting = link_signatures(the_link(fabric, "t1", "up0"), start, end)["a_to_z"]
        assert corrupting["verdict"] == CORRUPTION_LIKE
        assert corrupting["corruption"]["intervals"] == 95  # 96 polls in 24 hours
        assert corrupting["corruption"]["cv"] < 4
        assert abs(corrupting["corruption"]["load_correlation"]) < 0.5

        # The congested direction with the highest peak drops in most polls.
        worst = max(congested, key=lambda c: c["peak_loss_rate"])
        loaded = link_signatures(link_with_end(fabric, worst["tx"]), start, end)[worst["direction"]]
        assert loaded["verdict"] == CONGESTION_LIKE
        assert loaded["congestion"]["load_correlation"] >= 0.5
        assert loaded["corruption"]["signature"] == CLEAN

    def test_stored_counters_with_a_reset_and_a_range_edge(self, small_fabric):
        # f0:d0 is side Z of t0:up0, so what it receives is a_to_z and what it sends z_to_a.
        start = (timezone.now() - dt.timedelta(hours=6)).replace(second=0, microsecond=0)
        good = errors = 0
        samples = []
        for i, (load, w) in enumerate(zip([0, *LOADS], [1.0, *WOBBLE], strict=True)):
            good, errors = good + load, errors + round(load * 1e-5 * w)
            if i == 5:
                good, errors = load, 0  # the device restarted: counters from zero again
            time = start + dt.timedelta(seconds=POLL_S * i)
            samples.append({"switch": "f0", "port": "d0", "time": time, "in_pkts": good, "in_fcs_errors": errors})
        ingest(small_fabric, samples)
        link = the_link(small_fabric, "t0", "up0")
        whole = link_signatures(link, start, start + dt.timedelta(hours=3))
        assert whole["a_to_z"]["corruption"]["intervals"] == 9  # ten intervals less the reset
        assert whole["a_to_z"]["verdict"] == CORRUPTION_LIKE
        assert whole["z_to_a"]["verdict"] == INSUFFICIENT  # f0:d0 reported nothing it sent
        # The range is half-open: ending at the fourth poll keeps three polls, two intervals.
        first_polls = link_signatures(link, start, start + dt.timedelta(seconds=POLL_S * 3))
        assert first_polls["a_to_z"]["corruption"]["intervals"] == 2


@pytest.mark.django_db
def test_link_telemetry_api_carries_signatures(small_fabric, client_for):
    start = (timezone.now() - dt.timedelta(hours=4)).replace(second=0, microsecond=0)
    samples = [
        {
            "time": (start + dt.timedelta(seconds=POLL_S * i)).isoformat(),
            "switch": "f0",
            "port": "d0",
            "in_pkts": sum(LOADS[:i]),
            "in_fcs_errors": sum(load // 100_000 for load in LOADS[:i]),
        }
        for i in range(len(LOADS) + 1)
    ]
    pushed = client_for(COLLECTOR).post("/api/telemetry/?fabric=small", {"samples": samples}, format="json")
    assert pushed.status_code == 200, pushed.content
    link = the_link(small_fabric, "t0", "up0")
    body = (
        client_for("viewer")
        .get(f"/api/links/{link.pk}/telemetry/", {"from": start.isoformat().replace("+00:00", "Z")})
        .json()
    )
    signatures = body["signatures"]
    assert set(signatures) == {"a_to_z", "z_to_a"}
    a_to_z = signatures["a_to_z"]
    assert set(a_to_z) == {"verdict", "corruption", "congestion"}
    assert a_to_z["verdict"] == CORRUPTION_LIKE
    assert a_to_z["corruption"]["intervals"] == 10
    assert a_to_z["corruption"]["mean_rate"] == pytest.approx(1e-5, rel=1e-4)
    assert signatures["z_to_a"]["verdict"] == INSUFFICIENT
    # A range before any sample has no intervals.
    earlier = client_for("viewer").get(
        f"/api/links/{link.pk}/telemetry/",
        {"from": (start - dt.timedelta(hours=2)).isoformat(), "to": start.isoformat()},
    )
    assert earlier.json()["signatures"]["a_to_z"]["corruption"]["intervals"] == 0
