"""The numbers behind the telemetry rules of docs/telemetry.md, shared by ingest, derivation
(which hands them to the engine), roll-ups, charts and the API. tests/reference.py restates the
rules in plain Python, and the tests hold derivation to it.

The optical rules (which powers are accepted, which mean no light, how lanes average) are
declared here once: as Python for ingest's fast path and as the SQL functions of its set-based
path (`sql_functions`, generated from the same numbers). A migration installs them with the
numbers it names (telemetry 0010, OPTICAL_NUMBERS); a number changed here needs a new migration
naming the new numbers, and tests/test_optical_rules.py fails until it exists.
"""

import math
from collections.abc import Sequence
from typing import Any

COUNTERS = ("in_pkts", "in_fcs_errors", "in_discards", "out_pkts", "out_discards")
# A gap longer than this many windows between two polls leaves a gap, not a rate.
MAX_GAP_WINDOWS = 3
# Accepted optical power; devices report a dark receiver as 0, as -40 or lower, or as -inf.
POWER_MIN_DBM = -50.0
POWER_MAX_DBM = 10.0
NO_LIGHT_CEILING_DBM = -40.0
# A reading nearer zero than this (in its field's unit) is that unit's zero: far finer than any
# instrument resolves, and PostgreSQL raises "value out of range: underflow" on the subnormal
# floats that lie below it (a dBm divided by 10, a float8 stored in a float4 column) where Python
# rounds quietly. Ingest applies it to every measurement at intake, on both paths (at_resolution).
RESOLUTION = 1e-9
# The direction whose receiving end is this side, and whose sending end is this side (side A is
# the lower tier, so a_to_z is upward).
INTO = {"a": "z_to_a", "z": "a_to_z"}
OUT_OF = {"a": "a_to_z", "z": "z_to_a"}


class RefusedPower(ValueError):
    """A reported power that is no accepted one: the sample has an error to list."""


_NUMBER = (float, int)  # exact types: a bool is no measurement


def at_resolution(value: Any) -> Any:
    """A reported measurement (a number or a list of lanes) with readings below RESOLUTION made
    0.0 (also -0.0); anything else, even of a type no field takes, as it is, for the checks."""
    if type(value) is float:
        return 0.0 if -RESOLUTION < value < RESOLUTION else value
    if type(value) is list:
        return [0.0 if type(x) is float and -RESOLUTION < x < RESOLUTION else x for x in value]
    return value


def classify_power(value: Any) -> tuple[float | None, bool]:
    """(power to store, whether it means no light) of a reported power in dBm. Accepted: None,
    POWER_MIN_DBM to POWER_MAX_DBM, and -inf; of those, 0, -inf and powers at the no-light ceiling
    or below mean no light and are stored as None. Raises RefusedPower for anything else."""
    if value is None:
        return None, False
    if type(value) not in _NUMBER or not (POWER_MIN_DBM <= value <= POWER_MAX_DBM or value == -math.inf):
        raise RefusedPower(value)
    if value == 0 or value <= NO_LIGHT_CEILING_DBM:  # also -inf
        return None, True
    return value, False


def classify_lanes(lanes: Sequence[Any]) -> tuple[list[float | None], float | None, bool]:
    """(lanes with no-light values cleared, the mean of the lit ones in milliwatts as dBm, whether
    any lane is dark). A dBm mean would understate a weak lane. Raises RefusedPower."""
    lit: list[float | None] = []
    milliwatts, count, dark = 0.0, 0, False
    for lane in lanes:
        power, lane_dark = classify_power(lane)
        dark = dark or lane_dark
        lit.append(power)
        if power is not None:
            milliwatts += 10 ** (power / 10)
            count += 1
    return lit, (10 * math.log10(milliwatts / count) if count else None), dark


def sql_functions(
    power_min_dbm: float = POWER_MIN_DBM,
    no_light_ceiling_dbm: float = NO_LIGHT_CEILING_DBM,
    power_max_dbm: float = POWER_MAX_DBM,
) -> str:
    """The same rules as PostgreSQL functions (CREATE OR REPLACE), for the given numbers: a
    migration passes the numbers it installs, so that it stays what it was when the numbers move."""
    # repr: the exact decimal text of the floats.
    return f"""
CREATE OR REPLACE FUNCTION lightpath_dark(p float8) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN p = 0 OR p = '-Infinity' OR (p >= {power_min_dbm!r} AND p <= {no_light_ceiling_dbm!r});

CREATE OR REPLACE FUNCTION lightpath_power_ok(p float8) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN p IS NULL OR p = '-Infinity' OR (p >= {power_min_dbm!r} AND p <= {power_max_dbm!r});

CREATE OR REPLACE FUNCTION lightpath_lit(lanes float8[]) RETURNS float8[]
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN CASE WHEN lanes IS NULL THEN NULL ELSE ARRAY(
        SELECT CASE WHEN lightpath_dark(x) THEN NULL ELSE x END
          FROM unnest(lanes) WITH ORDINALITY AS u(x, o) ORDER BY o) END;

CREATE OR REPLACE FUNCTION lightpath_mean_dbm(lanes float8[]) RETURNS float8
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN (SELECT 10 * log(avg(power(10, x / 10)))
              FROM unnest(lanes) AS x WHERE x IS NOT NULL AND NOT lightpath_dark(x));

CREATE OR REPLACE FUNCTION lightpath_min_lit(lanes float8[]) RETURNS float8
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN (SELECT min(x) FROM unnest(lanes) AS x WHERE x IS NOT NULL AND NOT lightpath_dark(x));

CREATE OR REPLACE FUNCTION lightpath_any_dark(lanes float8[]) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN coalesce((SELECT bool_or(lightpath_dark(x)) FROM unnest(lanes) AS x), false);
"""
