"""Ingest through the real database: validation lists every bad sample and writes nothing,
re-sent samples merge, windows give rates, health and corruption events follow."""

import datetime as dt
import time

import pytest
from django.db import connection

from corruption.models import Decision
from fabric.models import Link, Switch
from telemetry.models import CorruptionEvent, Derivation, DirectionHealth, EndState, PowerThreshold
from telemetry.services import derivation
from telemetry.services.ingest import TelemetryRejected, ingest

T0 = dt.datetime(2026, 11, 20, 12, 0, tzinfo=dt.UTC)
NOW = T0 + dt.timedelta(days=1)
WINDOW = dt.timedelta(minutes=15)


def sample(switch="t0", port="up0", minutes=0.0, **values):
    return {"switch": switch, "port": port, "time": T0 + dt.timedelta(minutes=minutes), **values}


def stored_rows():
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM telemetry_sample")
        return cursor.fetchone()[0]


def link(fabric, switch="t0", port="up0"):
    return Link.objects.get(fabric=fabric, a_switch__name=switch, a_port=port)


def counters_into_z(polls, *, errors_per_poll, packets_per_poll=1_000_000, start=0):
    """Samples of the Z end (f0:d0) of t0:up0 receiving `packets_per_poll` frames per poll."""
    out = []
    pkts = fcs = start
    for i in range(polls):
        out.append(sample("f0", "d0", minutes=15 * i, in_pkts=pkts, in_fcs_errors=fcs, out_pkts=pkts, out_discards=0))
        pkts += packets_per_poll
        fcs += errors_per_poll(i) if callable(errors_per_poll) else errors_per_poll
    return out


@pytest.mark.django_db
class TestValidation:
    def test_every_bad_sample_is_listed_and_nothing_is_written(self, small_fabric):
        batch = [
            sample(input_power_dbm=-2.0),  # good
            sample("nope", "up0", minutes=1, input_power_dbm=-2.0),
            sample("t0", "eth9", minutes=2, input_power_dbm=-2.0),
            sample(minutes=3, input_power_dbm=12.5),
            sample(minutes=4, temperature_c=400.0),
            {"switch": "t0", "port": "up0", "time": NOW + dt.timedelta(hours=1), "in_pkts": 1},
            sample(minutes=5),
            sample(minutes=0, output_power_dbm=-1.0),  # same end and time as the first
        ]
        with pytest.raises(TelemetryRejected) as caught:
            ingest(small_fabric, batch, now=NOW, derive=True)
        reasons = {(e["index"], e["field"]): e["reason"] for e in caught.value.errors}
        assert set(reasons) == {(1, "switch"), (2, "port"), (3, "input_power_dbm"), (4, "temperature_c"),
                                (5, "time"), (6, None), (7, None)}  # fmt: skip
        assert "unknown switch 'nope'" in reasons[(1, "switch")]
        assert "no link on port 'eth9'" in reasons[(2, "port")]
        assert "out of range" in reasons[(3, "input_power_dbm")]
        assert "future" in reasons[(5, "time")]
        assert "no measurement" in reasons[(6, None)]
        assert "sample 0" in reasons[(7, None)]
        assert stored_rows() == 0

    def test_a_batch_whose_only_problem_is_a_repeated_sample_writes_nothing(self, small_fabric):
        ingest(small_fabric, [sample(input_power_dbm=-2.0)], now=NOW)
        with pytest.raises(TelemetryRejected) as caught:
            ingest(small_fabric, [sample(minutes=5, input_power_dbm=-2.1), sample(minutes=5, output_power_dbm=-1.0)],
                   now=NOW)  # fmt: skip
        assert [(e["index"], e["reason"]) for e in caught.value.errors] == [(1, "same link end and time as sample 0")]
        assert stored_rows() == 1

    def test_an_unknown_port_alone_is_listed(self, small_fabric):
        with pytest.raises(TelemetryRejected) as caught:
            ingest(small_fabric, [sample(input_power_dbm=-2.0), sample("t0", "eth9", input_power_dbm=-2.0)], now=NOW)
        assert [(e["index"], e["field"]) for e in caught.value.errors] == [(1, "port")]
        assert stored_rows() == 0

    def test_no_light_values_are_flagged_not_stored_as_power(self, small_fabric):
        ingest(small_fabric, [sample(input_power_dbm=-40.0, output_power_dbm=0.0),
                              sample(minutes=5, input_power_dbm=float("-inf"))], now=NOW, derive=True)  # fmt: skip
        with connection.cursor() as cursor:
            cursor.execute("SELECT input_power_dbm, rx_no_light, tx_no_light FROM telemetry_sample ORDER BY time")
            assert cursor.fetchall() == [(None, True, True), (None, True, False)]
        end = EndState.objects.get(link=link(small_fabric), side="a")
        assert end.rx_no_light and end.rx_class == "low"
        assert link(small_fabric).rx_low


@pytest.mark.django_db
class TestStorage:
    def test_resending_merges_instead_of_duplicating(self, small_fabric):
        first = ingest(
            small_fabric, [sample(input_power_dbm=-2.0), sample(minutes=5, input_power_dbm=-2.1)], now=NOW, derive=True
        )
        again = ingest(small_fabric, [sample(in_pkts=10, in_fcs_errors=0)], now=NOW, derive=True)
        assert (first.inserted, first.merged) == (2, 0)
        assert (again.inserted, again.merged) == (0, 1)
        with connection.cursor() as cursor:
            cursor.execute("SELECT input_power_dbm, in_pkts FROM telemetry_sample ORDER BY time")
            rows = cursor.fetchall()
        assert len(rows) == 2
        assert rows[0][0] == pytest.approx(-2.0) and rows[0][1] == 10

    def test_lanes_give_the_average_in_milliwatts_and_the_lowest_lane(self, small_fabric):
        ingest(small_fabric, [sample(input_power_channels_dbm=[0.5, -3.0, -1.0, -2.0])], now=NOW, derive=True)
        end = EndState.objects.get(link=link(small_fabric), side="a")
        assert end.input_power_min_channel_dbm == pytest.approx(-3.0)
        # mean of 1.122, 0.501, 0.794, 0.631 mW = 0.762 mW = -1.18 dBm
        assert end.input_power_dbm == pytest.approx(-1.18, abs=0.01)

    def test_lanes_and_no_light_follow_the_sql_rules_on_the_fast_path(self, small_fabric):
        ingest(small_fabric, [sample(input_power_channels_dbm=[0.5, -45.0, None, -3.0],
                                     output_power_channels_dbm=[-1.0, 0.0], laser_bias_current_channels_ma=[6.0, None, 7.0])],
               now=NOW)  # fmt: skip
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT input_power_dbm, lightpath_mean_dbm(ARRAY[0.5, -45.0, NULL, -3.0]::float8[]), "
                "input_power_channels_dbm, output_power_dbm, rx_no_light, tx_no_light, laser_bias_current_ma "
                "FROM telemetry_sample"
            )
            ((rx, rx_by_sql, rx_lanes, tx, rx_dark, tx_dark, bias),) = cursor.fetchall()
        assert rx == pytest.approx(rx_by_sql, abs=1e-6) and rx_lanes == [0.5, None, None, -3.0]
        assert tx == pytest.approx(-1.0) and rx_dark and tx_dark and bias == pytest.approx(6.5)

    def test_a_renamed_port_is_known_by_its_new_name_at_once(self, small_fabric):
        ingest(small_fabric, [sample(input_power_dbm=-2.0)], now=NOW)
        renamed = link(small_fabric)
        Link.objects.filter(pk=renamed.pk).update(a_port="up9")
        ingest(small_fabric, [sample(port="up9", minutes=5, input_power_dbm=-2.1)], now=NOW)
        with pytest.raises(TelemetryRejected) as caught:
            ingest(small_fabric, [sample(minutes=10, input_power_dbm=-2.2)], now=NOW)
        assert [(e["index"], e["field"]) for e in caught.value.errors] == [(0, "port")]
        with connection.cursor() as cursor:
            cursor.execute("SELECT link_id, side FROM telemetry_sample ORDER BY time")
            assert cursor.fetchall() == [(renamed.pk, "a"), (renamed.pk, "a")]

    def test_a_renamed_switch_is_known_by_its_new_name_at_once(self, small_fabric):
        ingest(small_fabric, [sample(input_power_dbm=-2.0)], now=NOW)
        Switch.objects.filter(fabric=small_fabric, name="t0").update(name="t0-new")
        ingest(small_fabric, [sample("t0-new", minutes=5, input_power_dbm=-2.1)], now=NOW)
        with pytest.raises(TelemetryRejected) as caught:
            ingest(small_fabric, [sample(minutes=10, input_power_dbm=-2.2)], now=NOW)
        assert [(e["index"], e["field"]) for e in caught.value.errors] == [(0, "switch")]
        assert stored_rows() == 2

    def test_deleting_a_link_deletes_its_samples_and_no_others(self, small_fabric):
        deleted = link(small_fabric)
        kept = Link.objects.filter(fabric=small_fabric).exclude(pk=deleted.pk).select_related("a_switch").first()
        ingest(small_fabric, [sample(input_power_dbm=-2.0), sample(kept.a_switch.name, kept.a_port, input_power_dbm=-2.5)],
               now=NOW)  # fmt: skip
        Link.objects.filter(pk=deleted.pk).delete()
        with connection.cursor() as cursor:
            cursor.execute("SELECT link_id FROM telemetry_sample")
            assert cursor.fetchall() == [(kept.pk,)]


@pytest.mark.django_db
class TestDerivation:
    def test_a_corrupting_window_opens_an_event_and_a_clean_one_ends_it(self, small_fabric):
        errors = [0, 0, 50, 50, 0, 0]  # per poll: 0, then 5e-5, then 0
        result = ingest(
            small_fabric, counters_into_z(7, errors_per_poll=lambda i: errors[i] if i < 6 else 0), now=NOW, derive=True
        )
        assert result.windows == 6
        event = CorruptionEvent.objects.get()
        assert event.direction == "a_to_z"  # corruption received at Z travels from A to Z
        assert event.rate == pytest.approx(50 / 1_000_050)
        assert event.first_seen == T0 + 3 * WINDOW
        assert event.ended_at == T0 + 5 * WINDOW
        health = DirectionHealth.objects.get(link=link(small_fabric), direction="a_to_z")
        assert health.health == "clean" and health.corruption_rate == 0.0
        assert link(small_fabric).health == "clean"

    def test_event_stays_open_across_batches_and_tracks_its_peak(self, small_fabric):
        polls = counters_into_z(4, errors_per_poll=lambda i: [10, 100, 10, 0][i])
        ingest(small_fabric, polls[:2], now=NOW, derive=True)
        ingest(small_fabric, polls[2:], now=NOW, derive=True)
        event = CorruptionEvent.objects.get()
        assert event.ended_at is None
        assert event.peak_rate == pytest.approx(100 / 1_000_100)
        assert event.last_rate == pytest.approx(10 / 1_000_010)
        assert link(small_fabric).health == "corrupting"

    def test_counter_reset_skips_the_window(self, small_fabric):
        polls = counters_into_z(3, errors_per_poll=0, start=5_000_000)
        polls.append(sample("f0", "d0", minutes=45, in_pkts=10, in_fcs_errors=9, out_pkts=10, out_discards=0))
        polls.append(
            sample("f0", "d0", minutes=60, in_pkts=2_000_010, in_fcs_errors=9, out_pkts=2_000_010, out_discards=0)
        )
        result = ingest(small_fabric, polls, now=NOW, derive=True)
        assert result.windows == 3  # two before the reset, one after; none across it
        assert not CorruptionEvent.objects.exists()

    def test_a_gap_leaves_no_rate(self, small_fabric):
        polls = [
            sample("f0", "d0", minutes=0, in_pkts=0, in_fcs_errors=0),
            sample("f0", "d0", minutes=15 * 5, in_pkts=10_000_000, in_fcs_errors=500),
        ]
        assert ingest(small_fabric, polls, now=NOW, derive=True).windows == 0
        assert DirectionHealth.objects.count() == 0
        assert link(small_fabric).health == "unknown"

    def test_a_window_with_too_few_packets_has_no_corruption_rate(self, small_fabric):
        polls = counters_into_z(2, errors_per_poll=1, packets_per_poll=100)
        assert ingest(small_fabric, polls, now=NOW, derive=True).windows == 0

    def test_device_thresholds_classify_until_a_manual_override(self, small_fabric):
        the_link = link(small_fabric)
        ingest(small_fabric, [sample(input_power_dbm=-9.0, input_power_lower_dbm=-8.0)], now=NOW, derive=True)
        assert EndState.objects.get(link=the_link, side="a").rx_class == "low"
        PowerThreshold.objects.create(link=the_link, side="a", source="manual", input_power_lower_dbm=-12.0)
        ingest(
            small_fabric, [sample(minutes=5, input_power_dbm=-9.0, input_power_lower_dbm=-8.0)], now=NOW, derive=True
        )
        assert EndState.objects.get(link=the_link, side="a").rx_class == "ok"
        assert PowerThreshold.objects.get(link=the_link, side="a", source="manual").input_power_lower_dbm == -12.0


@pytest.mark.django_db
def test_deleting_a_fabric_takes_its_telemetry_with_it(small_fabric):
    from fabric.services import delete_fabric

    ingest(small_fabric, counters_into_z(4, errors_per_poll=50), now=NOW, derive=True)
    assert CorruptionEvent.objects.exists() and EndState.objects.exists()
    delete_fabric(small_fabric)
    assert not CorruptionEvent.objects.exists() and not EndState.objects.exists()
    assert not DirectionHealth.objects.exists()
    assert stored_rows() == 0


@pytest.mark.django_db
class TestDerivationRuns:
    def test_the_write_path_stores_samples_and_leaves_derivation_queued(self, small_fabric):
        result = ingest(small_fabric, counters_into_z(4, errors_per_poll=50), now=NOW)
        assert (result.inserted, result.as_dict()["derivation"]) == (4, "queued")
        assert stored_rows() == 4 and not EndState.objects.exists() and not CorruptionEvent.objects.exists()
        run = derivation.derive(small_fabric)
        assert (run.batches, run.samples, run.windows, len(run.events_opened)) == (1, 4, 3, 1)
        assert link(small_fabric).health == "corrupting"
        assert derivation.derive(small_fabric).batches == 0  # nothing new: a re-delivered task is a no-op

    def test_batches_left_without_a_queued_run_are_queued_by_the_beat_task(self, small_fabric, monkeypatch):
        from lightpath import dispatch

        queued = []
        monkeypatch.setattr(dispatch, "send", lambda task, args: queued.append((task, *args)) or True)
        ingest(small_fabric, counters_into_z(2, errors_per_poll=0), now=NOW)  # its queueing never ran
        assert derivation.queue_pending() == [small_fabric.pk] and queued == [("telemetry.derive", small_fabric.pk)]
        assert derivation.queue_pending() == []  # queued recently: not again
        derivation.derive(small_fabric)
        Derivation.objects.update(queued_at=None)
        assert derivation.queue_pending() == []  # nothing left to derive

    def test_a_lost_state_is_rebuilt_from_the_stored_rows(self, small_fabric, django_capture_on_commit_callbacks):
        """Polls every 5 minutes, so windows span runs; every run starts without the cached state
        (as a restarted worker or another worker process does) except the one it checks."""
        polls = [
            sample("f0", "d0", minutes=5 * i, in_pkts=1_000_000 * i, in_fcs_errors=(30 * i if i > 6 else 0),
                   out_pkts=1_000_000 * i, out_discards=0)
            for i in range(10)
        ]  # fmt: skip
        runs = []
        for i, poll in enumerate(polls):
            ingest(small_fabric, [poll], now=NOW)
            if i != 5:
                derivation.forget_cached_state()
            with django_capture_on_commit_callbacks(execute=True):
                runs.append(derivation.derive(small_fabric))
        assert [r.rebuilt for r in runs] == [True] * 5 + [False] + [True] * 4
        assert sum(r.windows for r in runs) == 3  # at 15, 30 and 45 minutes
        event = CorruptionEvent.objects.get()
        # 0-30 min: no errors; the window from poll 6 (30 min) to poll 9 (45 min): 3M packets and
        # 270 errors. Its start was stored by the run of poll 6 and read back by later runs.
        assert event.first_seen == T0 + 3 * WINDOW
        assert event.rate == pytest.approx(270 / (3_000_000 + 270))


@pytest.mark.django_db(transaction=True)
def test_a_worker_derives_the_committed_batches(small_fabric, worker):
    """The write path commits, the derivation task runs in a real worker process (its own engine
    state, built from the stored rows), health and the event follow."""
    polls = counters_into_z(4, errors_per_poll=50)
    first = ingest(small_fabric, polls[:2], now=NOW)
    last = ingest(small_fabric, polls[2:], now=NOW)
    assert first.batch < last.batch and last.as_dict()["derivation"] == "queued"
    deadline = time.monotonic() + 60
    while Derivation.objects.filter(fabric=small_fabric, watermark=last.batch).count() == 0:
        assert time.monotonic() < deadline, "the worker did not derive the batches"
        time.sleep(0.1)
    assert link(small_fabric).health == "corrupting"
    event = CorruptionEvent.objects.get()
    assert (event.first_seen, event.ended_at) == (T0 + WINDOW, None)
    # ... and once the run committed, CorrOpt decided the new event (in the same worker).
    while not Decision.objects.filter(event=event).exists():
        assert time.monotonic() < deadline, "the event was not decided"
        time.sleep(0.1)
    time.sleep(0.5)  # let the worker finish the task before the test database is flushed
