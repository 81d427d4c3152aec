"""The server's sentences write numbers as the UI does (frontend/src/lib/format: formatDbm)."""

import math

from lightpath.numbers import dbm_text


def test_a_power_reads_as_formatdbm_writes_it():
    # The true minus sign, as the evidence beside a step's explanation (trial 30: a hyphen next to it).
    assert dbm_text(-7.94) == "\N{MINUS SIGN}7.9 dBm"
    assert dbm_text(2) == "2.0 dBm"
    assert dbm_text(-0.04) == "0.0 dBm"  # never minus zero
    assert dbm_text(None) == "unknown"
    assert dbm_text(math.nan) == "unknown"
