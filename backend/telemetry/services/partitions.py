"""Daily partitions of the raw sample table: created ahead of the data, dropped after retention.

A partition covers one UTC day and is named telemetry_sample_pYYYYMMDD. Retention drops whole
partitions, which costs nothing like a DELETE of millions of rows.
"""

import datetime as dt
import re
from collections.abc import Iterable

from django.db import connection

PARENT = "telemetry_sample"
_NAME = re.compile(r"^telemetry_sample_p(\d{8})$")


def partition_name(day: dt.date) -> str:
    return f"{PARENT}_p{day:%Y%m%d}"


def existing_partitions() -> dict[dt.date, str]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT child.relname FROM pg_inherits "
            "JOIN pg_class parent ON parent.oid = pg_inherits.inhparent "
            "JOIN pg_class child ON child.oid = pg_inherits.inhrelid "
            "WHERE parent.relname = %s",
            [PARENT],
        )
        names = [row[0] for row in cursor.fetchall()]
    days = {}
    for name in names:
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
