"""Partitions of the telemetry tables: created ahead of the data, dropped after retention.

Raw samples live in one partition per UTC day (telemetry_sample_pYYYYMMDD), hourly
aggregates in one per month (telemetry_hourly_pYYYYMM). Retention drops whole partitions,
which costs nothing like a DELETE of millions of rows.
"""

import datetime as dt
import re
from collections.abc import Iterable

from django.db import connection

PARENT = "telemetry_sample"
HOURLY = "telemetry_hourly"
_NAME = re.compile(r"^telemetry_sample_p(\d{8})$")
_HOURLY_NAME = re.compile(r"^telemetry_hourly_p(\d{6})$")


def partition_name(day: dt.date) -> str:
    return f"{PARENT}_p{day:%Y%m%d}"


def _children(parent: str) -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT child.relname FROM pg_inherits "
            "JOIN pg_class parent ON parent.oid = pg_inherits.inhparent "
            "JOIN pg_class child ON child.oid = pg_inherits.inhrelid "
            "WHERE parent.relname = %s",
            [parent],
        )
        return [row[0] for row in cursor.fetchall()]


def existing_partitions() -> dict[dt.date, str]:
    days = {}
    for name in _children(PARENT):
        match = _NAME.match(name)
        if match:
            days[dt.datetime.strptime(match.group(1), "%Y%m%d").date()] = name
    return days


def ensure_partitions(days: Iterable[dt.date]) -> list[str]:
    """Create the missing partitions for `days`; returns the names created."""
    wanted = sorted(set(days))
    if not wanted:
        return []
    have = existing_partitions()
    created = []
    with connection.cursor() as cursor:
        for day in wanted:
            if day in have:
                continue
            name = partition_name(day)
            start = dt.datetime.combine(day, dt.time(), dt.UTC)
            end = start + dt.timedelta(days=1)
            # IF NOT EXISTS: two ingests may race to create the same day.
            cursor.execute(
                f"CREATE TABLE IF NOT EXISTS {name} PARTITION OF {PARENT} FOR VALUES FROM (%s) TO (%s)",
                [start, end],
            )
            created.append(name)
    return created


def drop_partitions_before(day: dt.date) -> list[str]:
    """Drop every partition whose whole day lies before `day`; returns the names dropped."""
    dropped = []
    with connection.cursor() as cursor:
        for partition_day, name in sorted(existing_partitions().items()):
            if partition_day < day:
                cursor.execute(f"DROP TABLE IF EXISTS {name}")
                dropped.append(name)
    return dropped


def existing_hourly_partitions() -> dict[dt.date, str]:
    """Month partitions of the hourly table, keyed by the month's first day."""
    months = {}
    for name in _children(HOURLY):
        match = _HOURLY_NAME.match(name)
        if match:
            months[dt.datetime.strptime(match.group(1), "%Y%m").date()] = name
    return months


def ensure_hourly_partitions(months: Iterable[dt.date]) -> list[str]:
    """Create the missing month partitions of the hourly table (any day of the month will do)."""
    wanted = sorted({month.replace(day=1) for month in months})
    have = existing_hourly_partitions()
    created = []
    with connection.cursor() as cursor:
        for month in wanted:
            if month in have:
                continue
            name = f"{HOURLY}_p{month:%Y%m}"
            start = dt.datetime.combine(month, dt.time(), dt.UTC)
            end = dt.datetime.combine((month + dt.timedelta(days=32)).replace(day=1), dt.time(), dt.UTC)
            cursor.execute(
                f"CREATE TABLE IF NOT EXISTS {name} PARTITION OF {HOURLY} FOR VALUES FROM (%s) TO (%s)", [start, end]
            )
            created.append(name)
    return created


def drop_hourly_partitions_before(day: dt.date) -> list[str]:
    """Drop the month partitions that end on or before `day`."""
    dropped = []
    with connection.cursor() as cursor:
        for month, name in sorted(existing_hourly_partitions().items()):
            month_end = (month + dt.timedelta(days=32)).replace(day=1)
            if month_end <= day:
                cursor.execute(f"DROP TABLE IF EXISTS {name}")
                dropped.append(name)
    return dropped
