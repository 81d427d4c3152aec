"""The derivation checkpoint stored split (issue #19's cost): the trends' closed buckets live in
TrendSegment rows (links grouped by bucket phase) that a run rewrites only where a bucket
closed; the checkpoint row holds the rest and the watermark each segment it needs was written
at, all in the run's transaction. A restarted worker resumes the same trends; a run that fails
after writing leaves the previous run's rows; a segment of another run is refused, never mixed."""

import datetime as dt
import random

import pytest
from django.db import DatabaseError, connection, transaction

from fabric.models import Link
from telemetry.models import Checkpoint, Derivation, LinkForecast, TrendSegment
from telemetry.services import derivation
from telemetry.services.ingest import ingest

from .test_forecast_derivation import NOW, at, derive_in_batches, falling, flat, polls

pytestmark = pytest.mark.django_db


@pytest.fixture
def link(small_fabric):
    derivation.forget_cached_state()  # each test starts as a fresh worker
    return Link.objects.get(fabric=small_fabric, a_switch__name="t0", a_port="up0")


def receiver_falling(days: float) -> list[dict]:
    return polls(days, random.Random(8), rx_a=falling(-3.0, -1.2), rx_z=flat(-2.6), tx_a=flat(-1.8), tx_z=flat(-1.5))


def segments(fabric) -> dict[int, int]:
    return dict(TrendSegment.objects.filter(fabric=fabric).values_list("segment", "watermark"))


def stored_trend(fabric, link) -> list:
    """What a restarted worker restores of the link's trends."""
    derivation.forget_cached_state()
    state = derivation.restore(fabric, Derivation.objects.get(fabric=fabric).watermark)
    return [state.trend(link.pk, side) for side in (False, True)]


def forecast(link) -> dict:
    return LinkForecast.objects.filter(link=link).values().get()


class Rollback(Exception):
    pass


def test_only_runs_that_close_a_bucket_rewrite_its_segment_and_a_restart_resumes_the_trends(
    small_fabric, link, django_capture_on_commit_callbacks
):
    rows = receiver_falling(4)
    written = []
    for day in range(4):
        derive_in_batches(small_fabric, [r for r in rows if at(day) <= r["time"] < at(day + 1)],
                          dt.timedelta(hours=1), django_capture_on_commit_callbacks)  # fmt: skip
        written.append(segments(small_fabric))
    # One link polled: its ends share one segment, written by the last run that closed a bucket
    # (every 6 hours), not by every hourly run.
    assert all(len(w) == 1 for w in written)
    watermark = Derivation.objects.get(fabric=small_fabric).watermark
    (stamp,) = written[-1].values()
    assert watermark - 6 < stamp <= watermark
    # The state in memory, and the one a restarted worker restores from the rows.
    live = [derivation._cache[small_fabric.pk][2].trend(link.pk, side) for side in (False, True)]
    assert live[0]["rx"][0]["buckets"]
    assert stored_trend(small_fabric, link) == live
    assert forecast(link)["at_risk"]


def test_a_run_failing_after_its_checkpoint_write_leaves_the_previous_runs_rows(
    small_fabric, link, django_capture_on_commit_callbacks
):
    rows = receiver_falling(4)
    last_day = [r for r in rows if r["time"] >= at(3)]
    derive_in_batches(small_fabric, rows[: len(rows) - len(last_day)], dt.timedelta(hours=8),
                      django_capture_on_commit_callbacks)  # fmt: skip
    before = (Checkpoint.objects.values_list("watermark", "data").get(fabric=small_fabric), segments(small_fabric))
    ingest(small_fabric, last_day, now=NOW)  # a whole day: the link's buckets close
    # What an uninterrupted worker makes of the day (rolled back afterwards).
    try:
        with transaction.atomic():
            derivation.derive(small_fabric)
            kept = forecast(link)
            raise Rollback
    except Rollback:
        pass
    # The run dies after the checkpoint and the segments are written: PostgreSQL refuses the
    # watermark's move (as a full disk or a lost connection would end it).
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE FUNCTION lp_refuse() RETURNS trigger LANGUAGE plpgsql AS "
            "$$ BEGIN RAISE EXCEPTION 'disk full'; END $$"
        )
        cursor.execute(
            "CREATE TRIGGER lp_refuse BEFORE UPDATE ON telemetry_derivation FOR EACH ROW EXECUTE FUNCTION lp_refuse()"
        )
    with pytest.raises(DatabaseError, match="disk full"):
        derivation.derive(small_fabric)
    after = (Checkpoint.objects.values_list("watermark", "data").get(fabric=small_fabric), segments(small_fabric))
    assert after == before
    with connection.cursor() as cursor:
        cursor.execute("DROP TRIGGER lp_refuse ON telemetry_derivation; DROP FUNCTION lp_refuse()")
    # The next run (a fresh worker, from the previous run's rows) derives the day as if nothing
    # had happened.
    assert derivation.derive(small_fabric).rebuilt is True
    assert forecast(link) == kept
    assert segments(small_fabric) != before[1]


def test_a_segment_of_a_later_run_under_an_older_checkpoint_is_refused(
    small_fabric, link, django_capture_on_commit_callbacks
):
    rows = receiver_falling(4)
    derive_in_batches(small_fabric, [r for r in rows if r["time"] < at(3)], dt.timedelta(hours=8),
                      django_capture_on_commit_callbacks)  # fmt: skip
    older = Checkpoint.objects.values_list("watermark", "data").get(fabric=small_fabric)
    ((segment, stamp),) = segments(small_fabric).items()
    derive_in_batches(small_fabric, [r for r in rows if r["time"] >= at(3)], dt.timedelta(hours=8),
                      django_capture_on_commit_callbacks)  # fmt: skip
    newer = segments(small_fabric)[segment]
    assert newer > stamp
    # The checkpoint row put back as it was (a restored backup of one table, say): its rings are
    # no longer stored, and the restore says so rather than mixing runs.
    Checkpoint.objects.filter(fabric=small_fabric).update(watermark=older[0], data=older[1])
    with pytest.raises(ValueError, match=f"trend segment {segment} holds segment {segment} of run {newer}, "
                                         f"the checkpoint needs that of run {stamp}"):  # fmt: skip
        derivation.restore(small_fabric, older[0])


def test_a_whole_checkpoint_from_before_the_split_restores_and_the_next_run_splits_it(
    small_fabric, link, django_capture_on_commit_callbacks
):
    rows = receiver_falling(4)
    last_day = [r for r in rows if r["time"] >= at(3)]
    derive_in_batches(small_fabric, rows[: len(rows) - len(last_day)], dt.timedelta(hours=8),
                      django_capture_on_commit_callbacks)  # fmt: skip
    trend = stored_trend(small_fabric, link)
    # As an older Lightpath stored it: the whole state in one row (version 3), no segments.
    watermark = Derivation.objects.get(fabric=small_fabric).watermark
    whole = derivation.restore(small_fabric, watermark).checkpoint()
    Checkpoint.objects.filter(fabric=small_fabric).update(data=whole)
    TrendSegment.objects.filter(fabric=small_fabric).delete()
    assert stored_trend(small_fabric, link) == trend
    ingest(small_fabric, last_day[:2], now=NOW)  # one poll of each end: no bucket closes
    derivation.forget_cached_state()
    with django_capture_on_commit_callbacks(execute=True):
        assert derivation.derive(small_fabric).rebuilt is True
    new_watermark = Derivation.objects.get(fabric=small_fabric).watermark
    assert list(segments(small_fabric).values()) == [new_watermark]
    assert len(Checkpoint.objects.get(fabric=small_fabric).data) < len(whole)
    buckets = [[lane["buckets"] for lane in side["rx"]] for side in stored_trend(small_fabric, link)]
    assert buckets == [[lane["buckets"] for lane in side["rx"]] for side in trend]
