"""The numbers behind the telemetry rules of docs/telemetry.md, shared by ingest, derivation
(which hands them to the engine), roll-ups, charts and the API. tests/reference.py restates the
rules in plain Python, and the tests hold derivation to it."""

COUNTERS = ("in_pkts", "in_fcs_errors", "in_discards", "out_pkts", "out_discards")
# A gap longer than this many windows between two polls leaves a gap, not a rate.
MAX_GAP_WINDOWS = 3
# Accepted optical power; devices report a dark receiver as 0, as -40 or lower, or as -inf.
POWER_MIN_DBM = -50.0
POWER_MAX_DBM = 10.0
NO_LIGHT_CEILING_DBM = -40.0
# The direction whose receiving end is this side, and whose sending end is this side (side A is
# the lower tier, so a_to_z is upward).
INTO = {"a": "z_to_a", "z": "a_to_z"}
OUT_OF = {"a": "a_to_z", "z": "z_to_a"}
