"""Ingest's two paths classify powers alike: the Python of its fast path (rules.classify_power and
classify_lanes) and the SQL functions of its set-based path (rules.sql_functions, installed by a
migration), over a grid of every boundary of the rules, the floats just beside each, and values
between."""

import itertools
import math
import sys

import pytest
from django.db import connection
from django.db.migrations.loader import MigrationLoader

from telemetry.services import rules

BOUNDARIES = (rules.POWER_MIN_DBM, rules.NO_LIGHT_CEILING_DBM, 0.0, rules.POWER_MAX_DBM)
GRID = sorted(
    {
        *(edge for bound in BOUNDARIES for edge in (math.nextafter(bound, -math.inf), bound, math.nextafter(bound, math.inf))),
        *(step / 4 for step in range(int(rules.POWER_MIN_DBM * 4) - 8, int(rules.POWER_MAX_DBM * 4) + 9)),
        -0.0, -math.inf, math.inf, -1e300, 1e300,
    }
)  # fmt: skip


def _python(dbm: float) -> tuple[bool, bool]:
    """(accepted, dark) as the fast path decides."""
    try:
        _, dark = rules.classify_power(dbm)
    except rules.RefusedPower:
        return False, False
    return True, dark


def _sql(query: str, values: list) -> list:
    with connection.cursor() as cursor:
        cursor.execute(query, [values])
        return [row[0] for row in cursor.fetchall()]


@pytest.mark.django_db
def test_python_and_sql_accept_and_darken_the_same_powers():
    values = [*GRID, math.nan]
    rows = _sql(
        "SELECT ARRAY[lightpath_power_ok(x) AND x <> 'NaN', lightpath_power_ok(x) AND lightpath_dark(x)] "
        "FROM unnest(%s::float8[]) WITH ORDINALITY AS u(x, o) ORDER BY o",
        values,
    )
    sql = dict(zip(map(repr, values), map(tuple, rows), strict=True))
    assert {repr(v): _python(v) for v in values} == sql
    # The grid does cross every rule: accepted lit, accepted dark and refused powers all occur.
    assert set(sql.values()) == {(True, False), (True, True), (False, False)}


@pytest.mark.django_db
def test_python_and_sql_agree_on_lanes():
    """Which lanes are dark, and the mean of the lit ones in milliwatts, for every pair of
    accepted grid values and a lane not reported."""
    # Not subnormal floats (5e-324 dBm): PostgreSQL's float8 arithmetic raises underflow on them
    # where Python's rounds to 0. Ingest never hands these functions one: it reads every reading
    # below rules.RESOLUTION as 0 at intake, on both paths (tests/test_tiny_values.py).
    accepted = [v for v in GRID if _python(v)[0] and (v == 0 or abs(v) >= sys.float_info.min)][::3]
    pairs = [list(pair) for pair in itertools.product([*accepted, None], repeat=2)]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT lightpath_lit(l), lightpath_any_dark(l), lightpath_mean_dbm(l) "
            "FROM (SELECT %s::float8[] AS a) t, generate_subscripts(t.a, 1) AS i, "
            "LATERAL (SELECT ARRAY[t.a[i][1], t.a[i][2]]) AS lanes(l) ORDER BY i",
            [pairs],
        )
        rows = cursor.fetchall()
    assert len(rows) == len(pairs)
    for lanes, (sql_lit, sql_dark, sql_mean) in zip(pairs, rows, strict=True):
        lit, mean, dark = rules.classify_lanes(lanes)
        assert (lit, dark) == (sql_lit, sql_dark), lanes
        assert sql_mean == (None if mean is None else pytest.approx(mean, rel=1e-12)), lanes


def test_the_newest_migration_installs_the_numbers_of_the_rules():
    """A test database is migrated from the code of today, so the grid above cannot see a number
    changed in rules.py without a migration: a production database would keep the old one."""
    loader = MigrationLoader(None, ignore_no_migrations=True)
    installing = sorted(
        (name, module.OPTICAL_NUMBERS)
        for (app, name), migration in loader.disk_migrations.items()
        if app == "telemetry" and hasattr(module := sys.modules[type(migration).__module__], "OPTICAL_NUMBERS")
    )
    assert installing, "no telemetry migration installs the optical rules"
    assert installing[-1][1] == {
        "power_min_dbm": rules.POWER_MIN_DBM,
        "no_light_ceiling_dbm": rules.NO_LIGHT_CEILING_DBM,
        "power_max_dbm": rules.POWER_MAX_DBM,
    }, (
        f"rules.py's numbers changed: add a migration that runs rules.sql_functions with them (after {installing[-1][0]})"
    )
