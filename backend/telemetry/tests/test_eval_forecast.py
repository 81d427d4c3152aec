"""backend/scripts/eval_forecast.py on a tiny fleet (40 links, 14 days): what a reader of its
BENCHMARKS.md table relies on. The JSON has a row per Table 3.2 cause and the false-alarm rate,
the decaying transmitters are flagged before their corruption onset with the right cause and end,
and the same seed gives the same numbers."""

import json
from pathlib import Path

import pytest

from lightpath.tests.scripts import load_script

TINY = ["--links", "40", "--days", "14", "--seeds", "7"]


@pytest.fixture(scope="module")
def script():
    with load_script("eval_forecast") as module:
        yield module


def run(script, tmp_path: Path, name: str, *args: str) -> dict:
    out = tmp_path / name
    assert script.main([*TINY, *args, "--json", str(out)]) == 0
    return json.loads(out.read_text())


def test_a_tiny_fleet_flags_its_decaying_transmitters_before_they_corrupt(script, tmp_path, capsys) -> None:
    # dirty_connector: the generator's old name of contamination, still accepted
    mix = "decaying_transmitter=2,dirty_connector=2,bent_fiber=1,loose_transceiver=1"
    result = run(script, tmp_path, "a.json", "--faults", mix)
    assert (result["links"], result["days"], result["poll_minutes"]) == (40, 14.0, 15.0)
    assert result["fault_mix"] == {
        "decaying_transmitter": 2,
        "contamination": 2,
        "bent_fiber": 1,
        "loose_transceiver": 1,
    }
    assert result["held_out_seeds"] == [7] and 7 in result["tuning_seeds"]
    assert set(result["causes"]) == {
        "contamination",
        "bent_fiber",
        "decaying_transmitter",
        "loose_transceiver",
        "shared_component",
    }
    decaying = result["causes"]["decaying_transmitter"]
    assert decaying["faults"] == 2
    assert decaying["flagged_before_onset_pct"] > 0
    assert decaying["median_lead_days"] > 0
    assert decaying["cause_named_pct"] == 100.0 and decaying["end_named_pct"] == 100.0
    # A loose transceiver corrupts with normal powers: nothing can flag it before its onset.
    assert result["causes"]["loose_transceiver"]["flagged_before_onset_pct"] == 0.0
    assert result["causes"]["shared_component"]["faults"] == 0
    alarms = result["false_alarms"]
    assert alarms["healthy_links"] == 40 - 6
    assert alarms["weeks"] == pytest.approx((14 - 4) / 7, abs=1e-3)
    assert alarms["per_1000_links_per_week"] == pytest.approx(
        1000 * alarms["episodes"] / 34 / alarms["weeks"], abs=1e-3
    )
    assert set(result["targets_met"]) >= {
        "decaying_transmitter_median_lead_ge_3_days",
        "false_alarms_lt_1_per_1000_links_week",
    }
    printed = capsys.readouterr().out
    assert "decaying_transmitter" in printed and "per 1,000 healthy links per week" in printed
    # The same seed gives the same numbers.
    again = run(script, tmp_path, "b.json", "--faults", mix)
    assert again["causes"] == result["causes"] and again["false_alarms"] == result["false_alarms"]


def test_the_default_mix_follows_table_3_2(script) -> None:
    mix = script.fault_mix(10_000, 0.03, 30)
    assert sum(mix.values()) >= 300
    # Contamination > bent fiber > loose transceiver > shared component, as the midpoints of the shares.
    assert mix["contamination"] > mix["bent_fiber"] > mix["loose_transceiver"] > mix["shared_component"]
    assert mix["decaying_transmitter"] == 30  # "<1%": the floor, so its median means something
