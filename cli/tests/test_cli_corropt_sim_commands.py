"""`lightpath corropt trace|simulate`: offline on files, the engine called directly (no server)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from cli_testing import FIXTURE_DATA, Cli

import lightpath_engine
from lightpath_cli.offline.fabric import load_fabric

FABRIC = FIXTURE_DATA / "fat-tree-k4.json"  # 32 links; links 0 and 1 are p0-tor0's two up-links
POLICIES = ["corropt", "fast-checker", "switch-local"]
REPORT_KEYS = ["fabric", "trace", "settings", "policies", "corropt_penalty_seconds"]
POLICY_KEYS = [
    "policy",
    "share",
    "penalty_seconds",
    "active_corrupting_seconds",
    "disabled_seconds",
    "lowest_worst_fraction",
    "counts",
    "penalty_ratio_vs_corropt",
]
COUNT_KEYS = [
    "onsets",
    "absorbed_onsets",
    "refused_arrivals",
    "disables",
    "repairs",
    "second_rounds",
    "optimizer_runs",
    "optimizer_unproven",
    "threshold_breaches",
]
SERIES_HEADER = ["policy", "time_s", "penalty", "active_corrupting", "disabled", "worst_fraction"]
TRACE_ARGS = ("--mttf-hours", "500", "--hours", "720")  # about 50 onsets on the 32 links


def trace(cli: Cli, *extra: str) -> str:
    result = cli("corropt", "trace", "--fabric", str(FABRIC), *TRACE_ARGS, *extra)
    assert result.exit_code == 0, result.stderr
    return result.stdout


def simulate(cli: Cli, trace_file: Path, *extra: str, fmt: str = "json") -> Any:
    result = cli("corropt", "simulate", "--fabric", str(FABRIC), "--trace", str(trace_file), *extra, "--output", fmt)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout) if fmt == "json" else result.stdout


@pytest.fixture
def trace_file(cli: Cli, tmp_path: Path) -> Path:
    path = tmp_path / "trace.csv"
    result = cli("corropt", "trace", "--fabric", str(FABRIC), *TRACE_ARGS, "--seed", "1", "-o", str(path))
    assert result.exit_code == 0, result.stderr
    return path


def engine_graph() -> Any:
    fabric = load_fabric(FABRIC)
    return lightpath_engine.FabricGraph(fabric.num_tiers, fabric.switch_tiers, fabric.link_lower, fabric.link_upper)


# ---------------------------------------------------------------------------------------------
# corropt trace


def test_trace_is_deterministic_in_the_seed(cli: Cli) -> None:
    first = trace(cli, "--seed", "5")
    assert first == trace(cli, "--seed", "5")
    assert first != trace(cli, "--seed", "6")
    assert trace(cli) == trace(cli, "--seed", "0")  # the default seed is 0


def test_trace_csv_is_the_engines_trace_exactly(cli: Cli) -> None:
    rows = list(csv.reader(io.StringIO(trace(cli, "--seed", "5"))))
    assert rows[0] == ["time_s", "link", "loss_rate"]
    expected = lightpath_engine.corropt_trace(engine_graph(), 500.0, 720.0, 5)
    assert [(float(t), int(link), float(rate)) for t, link, rate in rows[1:]] == expected
    assert 20 < len(expected) < 100


def test_trace_to_a_file_with_names_and_a_summary_on_stderr(cli: Cli, tmp_path: Path) -> None:
    out = tmp_path / "named.csv"
    result = cli("corropt", "trace", "--fabric", str(FABRIC), *TRACE_ARGS, "--seed", "5", "--names", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    assert result.stderr.startswith(f"wrote {out}: ")
    assert "onsets on" in result.stderr and "of 32 links over 720 h" in result.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["named.csv"]  # no temporary file left behind
    fabric = load_fabric(FABRIC)
    named = list(csv.reader(io.StringIO(out.read_text())))[1:]
    by_index = list(csv.reader(io.StringIO(trace(cli, "--seed", "5"))))[1:]
    assert [[t, fabric.link_names[int(link)], rate] for t, link, rate in by_index] == named


def test_trace_to_stdout_puts_the_summary_on_stderr(cli: Cli) -> None:
    result = cli("corropt", "trace", "--fabric", str(FABRIC), "--mttf-hours", "500", "--hours", "0")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "time_s,link,loss_rate\n"
    assert result.stderr == "0 onsets on 0 of 32 links over 0 h (horizon 0 s; MTTF 500 h, seed 0)\n"


def test_trace_write_failure_is_one_error_line(cli: Cli, tmp_path: Path) -> None:
    out = tmp_path / "missing-dir" / "trace.csv"
    result = cli("corropt", "trace", "--fabric", str(FABRIC), *TRACE_ARGS, "-o", str(out))
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: cannot write {out}: ")
    assert result.stderr.count("\n") == 1


# ---------------------------------------------------------------------------------------------
# corropt simulate


def test_trace_round_trips_into_simulate(cli: Cli, trace_file: Path) -> None:
    report = simulate(cli, trace_file, "--seed", "3")
    onsets = lightpath_engine.corropt_trace(engine_graph(), 500.0, 720.0, 1)
    assert report["trace"] == {"file": str(trace_file), "onsets": len(onsets), "horizon_s": onsets[-1][0]}
    for row in report["policies"]:
        direct = lightpath_engine.corropt_simulate(engine_graph(), onsets, policy=row["policy"], seed=3)
        assert row["penalty_seconds"] == direct["penalty_seconds"]
        assert row["disabled_seconds"] == direct["disabled_seconds"]
        assert row["counts"] == direct["counts"]


def test_named_trace_gives_the_same_answer(cli: Cli, trace_file: Path, tmp_path: Path) -> None:
    named = tmp_path / "named.csv"
    result = cli("corropt", "trace", "--fabric", str(FABRIC), *TRACE_ARGS, "--seed", "1", "--names", "-o", str(named))
    assert result.exit_code == 0, result.stderr
    by_index, by_name = simulate(cli, trace_file), simulate(cli, named)
    assert by_index["policies"] == by_name["policies"]


def test_json_shape_and_the_policy_comparison(cli: Cli, trace_file: Path) -> None:
    report = simulate(cli, trace_file)
    assert list(report) == REPORT_KEYS
    assert report["fabric"] == "fat-tree-k4"
    assert list(report["trace"]) == ["file", "onsets", "horizon_s"]
    assert report["settings"] == {
        "capacity": 0.75,
        "penalty_function": "linear",
        "repair_delay_s": 172800.0,
        "fix_probability": 0.8,
        "seed": 0,
        "time_budget_s": None,
        "state_file": None,
        "initially_disabled": 0,
        "initially_down": 0,
    }
    rows = report["policies"]
    assert [row["policy"] for row in rows] == POLICIES
    for row in rows:
        assert list(row) == POLICY_KEYS
        assert list(row["counts"]) == COUNT_KEYS
        assert row["counts"]["onsets"] == report["trace"]["onsets"]
        assert row["lowest_worst_fraction"] >= 0.75
    corropt, checker, local = rows
    assert corropt["share"] is None and local["share"] == pytest.approx(0.75**0.5)
    assert corropt["counts"]["optimizer_runs"] > 0 and checker["counts"]["optimizer_runs"] == 0
    assert local["penalty_seconds"] >= corropt["penalty_seconds"] > 0
    assert corropt["penalty_ratio_vs_corropt"] == 1.0
    assert local["penalty_ratio_vs_corropt"] == pytest.approx(local["penalty_seconds"] / corropt["penalty_seconds"])
    assert local["penalty_ratio_vs_corropt"] >= 1.0
    assert report["corropt_penalty_seconds"] == corropt["penalty_seconds"]


def test_policy_selection_settings_and_horizon(cli: Cli, trace_file: Path) -> None:
    extra = ["--policy", "switch-local", "--policy", "fast-checker", "--policy", "switch-local"]
    report = simulate(cli, trace_file, *extra, "--share", "0.5", "--horizon-hours", "800", "--penalty", "log")
    rows = report["policies"]
    assert [row["policy"] for row in rows] == ["switch-local", "fast-checker"]  # in order, duplicates dropped
    # corropt is not listed but still runs as the reference of the ratios.
    reference = report["corropt_penalty_seconds"]
    direct = lightpath_engine.corropt_simulate(
        engine_graph(),
        lightpath_engine.corropt_trace(engine_graph(), 500.0, 720.0, 1),
        horizon_s=800 * 3600.0,
        penalty="log",
    )
    assert reference == direct["penalty_seconds"] > 0
    assert [row["penalty_ratio_vs_corropt"] for row in rows] == [row["penalty_seconds"] / reference for row in rows]
    assert rows[0]["share"] == 0.5
    assert report["trace"]["horizon_s"] == 800 * 3600.0
    assert report["settings"]["penalty_function"] == "log"


def test_hand_checked_trace_with_the_series_file(cli: Cli, tmp_path: Path) -> None:
    # capacity 0.5: p0-tor0 may lose one of its two up-links (links 0 and 1). Link 0 is disabled at
    # t=10 s and repaired at 370 s; link 1 arrives at 20 s, is refused, and is disabled at 370 s by
    # corropt's optimizer or the fast checker's re-run. Switch-local (share sqrt(0.5)) disables
    # floor(2 * 0.29) = 0 up-links, so both links corrupt until the horizon at 3600 s.
    trace_file = tmp_path / "hand.csv"
    trace_file.write_text("time_s,link,loss_rate\n10,0,1e-3\n20,p0-tor0:eth2/2-p0-agg1:eth1/1,1e-5\n")
    series = tmp_path / "series.csv"
    extra = ("--capacity", "0.5", "--repair-delay-hours", "0.1", "--fix-probability", "1", "--horizon-hours", "1")
    result = cli("corropt", "simulate", "--fabric", str(FABRIC), "--trace", str(trace_file), *extra)
    assert result.exit_code == 0, result.stderr
    report = simulate(cli, trace_file, *extra, "--series", str(series))
    corropt, checker, local = report["policies"]
    assert corropt["penalty_seconds"] == pytest.approx(1e-5 * 350)
    assert checker["penalty_seconds"] == pytest.approx(1e-5 * 350)
    assert local["penalty_seconds"] == pytest.approx(1e-3 * 3590 + 1e-5 * 3580)
    assert local["penalty_ratio_vs_corropt"] == pytest.approx(local["penalty_seconds"] / (1e-5 * 350))
    rows = list(csv.reader(io.StringIO(series.read_text())))
    assert rows[0] == SERIES_HEADER
    corropt_rows = [row[1:] for row in rows[1:] if row[0] == "corropt"]
    assert [float(row[0]) for row in corropt_rows] == pytest.approx([0, 10, 20, 370, 730])
    assert [int(row[3]) for row in corropt_rows] == [0, 1, 1, 1, 0]  # disabled links
    assert [float(row[4]) for row in corropt_rows] == [1.0, 0.5, 0.5, 0.5, 1.0]
    assert {row[0] for row in rows[1:]} == set(POLICIES)


def test_simulation_starts_from_the_document_and_the_state_file(cli: Cli, tmp_path: Path) -> None:
    """p0-tor0 (capacity 0.5) may lose one of its two up-links, links 0 and 1; link 1 corrupts at t=20 s.

    With link 0 disabled by the state file, link 1 is refused until link 0's repair at 360 s (then
    disabled, back at 720 s); with link 0 down in the document it corrupts to the horizon at 3600 s."""
    trace_file = tmp_path / "one.csv"
    trace_file.write_text("time_s,link,loss_rate\n20,1,1e-5\n")
    extra = ("--capacity", "0.5", "--repair-delay-hours", "0.1", "--fix-probability", "1", "--horizon-hours", "1")
    extra += ("--policy", "corropt", "--policy", "fast-checker")
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"links": {"p0-tor0:eth2/1-p0-agg0:eth1/1": "disabled"}}))
    report = simulate(cli, trace_file, *extra, "--state", str(state))
    settings = report["settings"]
    assert (settings["state_file"], settings["initially_disabled"], settings["initially_down"]) == (str(state), 1, 0)
    for row in report["policies"]:
        assert row["penalty_seconds"] == pytest.approx(1e-5 * 340)
        assert row["disabled_seconds"] == pytest.approx(360 + 360)  # link 0 to 360 s, link 1 from 360 s to 720 s
        assert row["counts"]["repairs"] == 2 and row["counts"]["disables"] == 1
    assert simulate(cli, trace_file, *extra)["policies"][0]["penalty_seconds"] == 0.0  # all enabled: link 1 goes

    doc = json.loads(FABRIC.read_text())
    doc["links"][0]["oper_state"] = "down"
    fabric = tmp_path / "fabric.json"
    fabric.write_text(json.dumps(doc))
    args = ("corropt", "simulate", "--fabric", str(fabric), "--trace", str(trace_file), *extra, "--output", "json")
    result = cli(*args)
    assert result.exit_code == 0, result.stderr
    down = json.loads(result.stdout)
    assert down["settings"]["initially_down"] == 1
    for row in down["policies"]:
        assert row["penalty_seconds"] == pytest.approx(1e-5 * 3580)
        assert row["disabled_seconds"] == 0.0
    table = cli(*args[:-2], "--output", "table").stdout
    assert "start: 0 links disabled (awaiting repair), 1 down" in table
    # A bad state file names its line, as for check.
    state.write_text('{"links": {\n  "nope": "down"\n}}')
    result = cli("corropt", "simulate", "--fabric", str(FABRIC), "--trace", str(trace_file), "--state", str(state))
    assert result.exit_code == 1
    assert result.stderr == f"error: {state} line 2: unknown link 'nope'\n"


def test_ratio_against_a_corropt_penalty_of_zero_is_null(cli: Cli, tmp_path: Path) -> None:
    # capacity 0.5: corropt disables link 0 at once (no penalty); switch-local at share sqrt(0.5) may not.
    trace_file = tmp_path / "one.csv"
    trace_file.write_text("time_s,link,loss_rate\n10,0,1e-3\n")
    report = simulate(cli, trace_file, "--capacity", "0.5", "--horizon-hours", "1")
    corropt, checker, local = report["policies"]
    assert report["corropt_penalty_seconds"] == corropt["penalty_seconds"] == 0.0
    assert checker["penalty_ratio_vs_corropt"] == 1.0  # 0 / 0
    assert local["penalty_seconds"] > 0 and local["penalty_ratio_vs_corropt"] is None


def test_csv_and_table_output(cli: Cli, trace_file: Path) -> None:
    rows = list(csv.DictReader(io.StringIO(simulate(cli, trace_file, fmt="csv"))))
    assert [row["policy"] for row in rows] == POLICIES
    assert list(rows[0]) == POLICY_KEYS
    assert list(json.loads(rows[0]["counts"])) == COUNT_KEYS
    assert rows[0]["share"] == "" and rows[0]["penalty_ratio_vs_corropt"] == "1.0"
    table = simulate(cli, trace_file, fmt="table")
    assert all(policy in table for policy in POLICIES)
    onsets = json.loads(rows[0]["counts"])["onsets"]
    assert f"fat-tree-k4: {onsets} onsets from {trace_file}" in table
    assert "capacity 0.750, linear penalty, repair after 48 h" in table
    assert "switch-local share 0.866" in table


def test_header_only_trace_is_an_empty_window(cli: Cli, tmp_path: Path) -> None:
    trace_file = tmp_path / "empty.csv"
    trace_file.write_text("\ufeffTime_s, link ,loss_rate\n\n")  # a byte-order mark, case and spaces are fine
    report = simulate(cli, trace_file)
    assert report["trace"] == {"file": str(trace_file), "onsets": 0, "horizon_s": 0.0}
    for row in report["policies"]:
        assert row["penalty_seconds"] == 0.0 and row["lowest_worst_fraction"] == 1.0
        assert row["penalty_ratio_vs_corropt"] == 1.0  # 0 / 0: the same as corropt


# ---------------------------------------------------------------------------------------------
# Bad trace files: one error line naming the line


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty file, expected the header 'time_s,link,loss_rate'"),
        (
            "time,link,loss_rate\n1,0,1e-3\n",
            "line 1: expected the header 'time_s,link,loss_rate', got 'time,link,loss_rate'",
        ),
        ("time_s,link,loss_rate\n1,0,1e-3\n2,0\n", "line 3: expected 3 fields (time_s,link,loss_rate), got 2"),
        ("time_s,link,loss_rate\n\n1,0,1e-3,x\n", "line 3: expected 3 fields (time_s,link,loss_rate), got 4"),
        ("time_s,link,loss_rate\nsoon,0,1e-3\n", "line 2: time 'soon' is not a number"),
        ("time_s,link,loss_rate\n-1,0,1e-3\n", "line 2: time -1 is not a finite number of seconds >= 0"),
        ("time_s,link,loss_rate\nnan,0,1e-3\n", "line 2: time nan is not a finite number of seconds >= 0"),
        ("time_s,link,loss_rate\ninf,0,1e-3\n", "line 2: time inf is not a finite number of seconds >= 0"),
        (
            "time_s,link,loss_rate\n5,0,1e-3\n7,1,1e-3\n6,2,1e-3\n",
            "line 4: time 6 s is before line 3's 7.0 s (the trace must be sorted by time)",
        ),
        ("time_s,link,loss_rate\n1,32,1e-3\n", "line 2: unknown link '32'"),
        ("time_s,link,loss_rate\n1,-1,1e-3\n", "line 2: unknown link '-1'"),
        ("time_s,link,loss_rate\n1,nope:1-other:2,1e-3\n", "line 2: unknown link 'nope:1-other:2'"),
        ("time_s,link,loss_rate\n1,0,lots\n", "line 2: loss rate 'lots' is not a number"),
        ("time_s,link,loss_rate\n1,0,0\n", "line 2: loss rate 0 is not a fraction in (0, 1]"),
        ("time_s,link,loss_rate\n1,0,1.5\n", "line 2: loss rate 1.5 is not a fraction in (0, 1]"),
        ("time_s,link,loss_rate\n1,0,nan\n", "line 2: loss rate nan is not a fraction in (0, 1]"),
    ],
)
def test_bad_trace_row_is_one_error_line_with_its_number(cli: Cli, tmp_path: Path, text: str, message: str) -> None:
    trace_file = tmp_path / "bad.csv"
    trace_file.write_text(text)
    result = cli("corropt", "simulate", "--fabric", str(FABRIC), "--trace", str(trace_file))
    assert result.exit_code == 1
    separator = ": " if message.startswith("empty") else " "
    assert result.stderr == f"error: {trace_file}{separator}{message}\n"
    assert result.stdout == ""


def test_missing_trace_file_is_an_error(cli: Cli, tmp_path: Path) -> None:
    result = cli("corropt", "simulate", "--fabric", str(FABRIC), "--trace", str(tmp_path / "none.csv"))
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: cannot read {tmp_path / 'none.csv'}: ")


# ---------------------------------------------------------------------------------------------
# Usage errors: exit 2


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["trace", "--fabric", str(FABRIC), "--hours", "10"], "--mttf-hours"),
        (["trace", "--fabric", str(FABRIC), "--mttf-hours", "0", "--hours", "10"], "--mttf-hours"),
        (["trace", "--fabric", str(FABRIC), "--mttf-hours", "nan", "--hours", "10"], "--mttf-hours"),
        (["trace", "--fabric", str(FABRIC), "--mttf-hours", "10", "--hours", "-1"], "--hours"),
        (["trace", "--fabric", str(FABRIC), "--mttf-hours", "10", "--hours", "inf"], "--hours"),
        (["trace", "--fabric", str(FABRIC), "--mttf-hours", "10", "--hours", "1", "--seed", "-1"], "--seed"),
        (["trace", "--fabric", str(FABRIC), "--mttf-hours", "10", "--hours", "1", "--seed", str(2**64)], "--seed"),
        (["simulate", "--fabric", str(FABRIC)], "--trace"),
        (["simulate", "--trace", "{trace}", "--fabric", str(FABRIC), "--policy", "greedy"], "--policy"),
        (
            ["simulate", "--trace", "{trace}", "--fabric", str(FABRIC), "--policy", "corropt", "--share", "0.5"],
            "--share",
        ),
        (["simulate", "--trace", "{trace}", "--fabric", str(FABRIC), "--share", "1.5"], "--share"),
        (["simulate", "--trace", "{trace}", "--fabric", str(FABRIC), "--capacity", "2"], "--capacity"),
        (["simulate", "--trace", "{trace}", "--fabric", str(FABRIC), "--penalty", "square"], "--penalty"),
        (
            ["simulate", "--trace", "{trace}", "--fabric", str(FABRIC), "--repair-delay-hours", "0"],
            "--repair-delay-hours",
        ),
        (["simulate", "--trace", "{trace}", "--fabric", str(FABRIC), "--fix-probability", "1.5"], "--fix-probability"),
        (["simulate", "--trace", "{trace}", "--fabric", str(FABRIC), "--horizon-hours", "-1"], "--horizon-hours"),
        (["simulate", "--trace", "{trace}", "--fabric", str(FABRIC), "--time-budget", "nan"], "--time-budget"),
        (["simulate", "--trace", "{trace}", "--fabric", str(FABRIC), "--output", "yaml"], "--output"),
    ],
)
def test_usage_errors_exit_2(cli: Cli, trace_file: Path, args: list[str], fragment: str) -> None:
    result = cli("corropt", *(arg.replace("{trace}", str(trace_file)) for arg in args))
    assert result.exit_code == 2, result.output
    assert fragment in result.stderr
