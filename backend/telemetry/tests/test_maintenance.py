"""Partitions, roll-ups and retention as the beat task runs them."""

import datetime as dt

import pytest
from django.db import connection
from django.test import override_settings
from django.utils import timezone

from fabric.models import Link
from telemetry.services import maintenance, partitions
from telemetry.services.ingest import ingest

pytestmark = pytest.mark.django_db(transaction=True)  # partitions are DDL; start from a clean slate

NOW = dt.datetime(2026, 11, 22, 12, 7, tzinfo=dt.UTC)


def count(table: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM {table}")  # noqa: S608 - fixed table names
        return cursor.fetchone()[0]


@pytest.fixture(autouse=True)
def drop_partitions():
    yield
    partitions.drop_partitions_before(dt.date(2100, 1, 1))
    partitions.drop_hourly_partitions_before(dt.date(2100, 1, 1))


def test_maintenance_creates_partitions_ahead(small_fabric):
    report = maintenance.maintain(NOW)
    days = partitions.existing_partitions()
    assert {NOW.date(), NOW.date() + dt.timedelta(days=1), NOW.date() + dt.timedelta(days=2)} <= set(days)
    assert "telemetry_hourly_p202611" in report["created"] and "telemetry_hourly_p202612" in report["created"]
    assert maintenance.maintain(NOW)["created"] == []  # idempotent


@override_settings(TELEMETRY_RAW_RETENTION_DAYS=2, TELEMETRY_HOURLY_RETENTION_DAYS=40)
def test_retention_drops_old_days_after_rolling_them_up(small_fabric):
    link = Link.objects.get(fabric=small_fabric, a_switch__name="t0", a_port="up0")
    old = dt.datetime(2026, 11, 19, 10, 0, tzinfo=dt.UTC)
    samples = [
        {"switch": "f0", "port": "d0", "time": old + dt.timedelta(minutes=15 * i), "in_pkts": 1000 * i,
         "in_fcs_errors": i, "input_power_dbm": -3.0 - i / 10}
        for i in range(8)
    ]  # fmt: skip
    ingest(small_fabric, samples, now=old + dt.timedelta(hours=3), derive=True)
    assert count("telemetry_sample") == 8

    report = maintenance.maintain(NOW)
    assert "telemetry_sample_p20261119" in report["dropped"]
    assert count("telemetry_sample") == 0
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT hour, optical_samples, input_power_dbm_min, in_pkts, in_fcs_errors FROM telemetry_hourly "
            "WHERE link_id = %s AND side = 'z' ORDER BY hour",
            [link.pk],
        )
        hours = cursor.fetchall()
    # 10:00-10:45 has 3 deltas (the first sample has no predecessor), 11:00-11:45 has 4.
    assert [(h[0].hour, h[1], h[3], h[4]) for h in hours] == [(10, 4, 3000, 3), (11, 4, 4000, 4)]
    assert hours[1][2] == pytest.approx(-3.7)

    later = NOW + dt.timedelta(days=70)
    assert "telemetry_hourly_p202611" in maintenance.maintain(later)["dropped"]
    assert count("telemetry_hourly") == 0


def test_a_counter_reset_is_not_summed_into_the_hour(small_fabric):
    t = dt.datetime(2026, 11, 22, 9, 0, tzinfo=dt.UTC)
    values = [5_000_000, 6_000_000, 100, 1_000_100]
    samples = [
        {"switch": "f0", "port": "d0", "time": t + dt.timedelta(minutes=15 * i), "in_pkts": v, "in_fcs_errors": 0}
        for i, v in enumerate(values)
    ]
    ingest(small_fabric, samples, now=NOW, derive=True)
    maintenance.rollup_hours(t, t + dt.timedelta(hours=1))
    with connection.cursor() as cursor:
        cursor.execute("SELECT in_pkts FROM telemetry_hourly WHERE side = 'z'")
        assert cursor.fetchone()[0] == 2_000_000  # the two valid deltas; the reset is skipped


def test_derived_batch_records_expire_with_the_raw_retention(small_fabric):
    from telemetry.models import IngestBatch

    now = timezone.now()
    sample = {"switch": "t0", "port": "up0", "time": now - dt.timedelta(minutes=5), "input_power_dbm": -2.0}
    derived = ingest(small_fabric, [sample], now=now, derive=True)
    # A batch committed after the last run (recorded directly: ingest would queue the worker).
    pending = IngestBatch.objects.create(fabric=small_fabric, samples=1, first_time=now, last_time=now)
    IngestBatch.objects.update(created=now - dt.timedelta(days=400))  # both older than any retention
    assert maintenance.forget_derived_batches(now - dt.timedelta(days=30)) == 1
    assert list(IngestBatch.objects.values_list("id", flat=True)) == [pending.pk]
    assert derived.batch < pending.pk
