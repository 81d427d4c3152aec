"""`lightpath fixtures ...` and the file checks of `lightpath fabric validate`: offline, no server."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from cli_testing import FIXTURE_DATA, Cli
from typer.testing import Result

from lightpath_fixtures import LINK_CSV_COLUMNS


def test_help_and_version(cli: Cli) -> None:
    result = cli("--help")
    assert result.exit_code == 0
    for command in ("login", "logout", "fabric", "jobs", "fixtures"):
        assert command in result.stdout
    assert cli("--version").stdout.startswith("lightpath ")


def test_fat_tree_to_stdout_is_a_document(cli: Cli) -> None:
    result = cli("fixtures", "fat-tree", "--k", "4")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["format"] == "lightpath-fabric/1"
    assert (len(doc["switches"]), len(doc["links"])) == (20, 32)
    assert result.stderr == ""


def test_fb_fabric_to_a_file_reports_what_it_wrote(cli: Cli, tmp_path: Path) -> None:
    target = tmp_path / "fb.json"
    result = cli(
        "fixtures",
        "fb-fabric",
        "--pods",
        "3",
        "--tors-per-pod",
        "4",
        "--fabric-per-pod",
        "2",
        "--spines-per-plane",
        "3",
        "--name",
        "small-fb",
        "-o",
        str(target),
    )
    assert result.exit_code == 0, result.stderr
    doc = json.loads(target.read_text())
    assert doc["name"] == "small-fb"
    assert len(doc["links"]) == 3 * 4 * 2 + 3 * 2 * 3
    assert "small-fb" in result.stderr and f"{len(doc['links'])} links" in result.stderr
    assert result.stdout == ""


def test_same_seed_same_bytes(cli: Cli) -> None:
    first = cli("fixtures", "leaf-spine", "--leaves", "4", "--spines", "2", "--seed", "9").stdout
    second = cli("fixtures", "leaf-spine", "--leaves", "4", "--spines", "2", "--seed", "9").stdout
    other = cli("fixtures", "leaf-spine", "--leaves", "4", "--spines", "2", "--seed", "10").stdout
    assert first == second != other


def test_length_range_speed_and_csv(cli: Cli) -> None:
    result = cli(
        "fixtures",
        "leaf-spine",
        "--leaves",
        "3",
        "--spines",
        "2",
        "--length-range",
        "400",
        "450",
        "--speed",
        "10",
        "--format",
        "csv",
    )
    assert result.exit_code == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert tuple(rows[0]) == LINK_CSV_COLUMNS
    assert len(rows) == 6
    for row in rows:
        assert 400 <= float(row["length_m"]) <= 450
        # Past 10GBASE-SR's 300 m, so the cheapest 10G part that reaches is LR on single-mode fiber.
        assert (row["transceiver_model"], row["fiber"], row["speed_gbps"]) == ("10GBASE-LR", "SMF", "10")


def test_bad_generator_arguments_are_usage_errors(cli: Cli) -> None:
    odd = cli("fixtures", "fat-tree", "--k", "3")
    assert odd.exit_code == 2
    assert "even" in odd.stderr
    speed = cli("fixtures", "leaf-spine", "--leaves", "2", "--spines", "2", "--speed", "25")
    assert speed.exit_code == 2
    assert "no transceiver model for 25 Gb/s" in speed.stderr
    missing = cli("fixtures", "fb-fabric")
    assert missing.exit_code == 2
    assert "--pods" in missing.stderr
    for result in (odd, speed, missing):
        assert "Traceback" not in result.output


def test_unreadable_and_non_json_files(cli: Cli, tmp_path: Path) -> None:
    missing = cli("fabric", "validate", str(tmp_path / "nope.json"))
    assert missing.exit_code == 1
    assert missing.stderr.startswith("error: cannot read ") and "No such file" in missing.stderr

    broken = tmp_path / "broken.json"
    broken.write_text('{"name": "x",\n  "tiers": [}')
    result = cli("fabric", "validate", str(broken))
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: {broken} is not valid JSON: ") and "line 2" in result.stderr

    # Python's json module reads NaN, but it is not JSON and no request could carry it.
    not_a_number = tmp_path / "nan.json"
    not_a_number.write_text('{"name": "x", "capacity_constraint": NaN}')
    nan = cli("fabric", "validate", str(not_a_number))
    assert nan.exit_code == 1
    assert nan.stderr == f"error: {not_a_number} is not valid JSON: NaN is not a JSON number\n"

    links_only = tmp_path / "links.csv"
    links_only.write_text(",".join(LINK_CSV_COLUMNS) + "\n")
    as_csv = cli("fabric", "validate", str(links_only))
    assert as_csv.exit_code == 2
    assert "cannot be imported on its own" in as_csv.stderr


# -- fixtures telemetry -----------------------------------------------------------------------------

FAT_TREE_K4 = FIXTURE_DATA / "fat-tree-k4.json"
TELEMETRY_START = "2026-11-22T10:00:00Z"


def telemetry(cli: Cli, *args: str) -> Result:
    return cli("fixtures", "telemetry", "--fabric", str(FAT_TREE_K4), "--start", TELEMETRY_START, *args)


def test_telemetry_csv_to_stdout_covers_every_link_end_and_poll(cli: Cli) -> None:
    result = telemetry(cli, "--hours", "1", "--format", "csv")
    assert result.exit_code == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert len(rows) == 32 * 2 * 12  # 32 links, both ends, a poll every 5 minutes
    assert rows[0]["time"] == TELEMETRY_START
    assert {row["time"] for row in rows if row["in_pkts"]} == {f"2026-11-22T10:{m:02d}:00Z" for m in (0, 15, 30, 45)}
    assert len(rows[0]["input_power_channels_dbm"].split(";")) == 4
    assert result.stderr == ""


def test_telemetry_same_seed_same_bytes(cli: Cli) -> None:
    first = telemetry(cli, "--hours", "0.5", "--seed", "4", "--faults", "bent_fiber=1").stdout
    second = telemetry(cli, "--hours", "0.5", "--seed", "4", "--faults", "bent_fiber=1").stdout
    other = telemetry(cli, "--hours", "0.5", "--seed", "5", "--faults", "bent_fiber=1").stdout
    assert first == second != other
    assert json.loads(first)["fabric"] == "fat-tree-k4"


def test_telemetry_to_files_with_the_truth(cli: Cli, tmp_path: Path) -> None:
    out, truth_file = tmp_path / "t.json", tmp_path / "truth.json"
    result = telemetry(
        cli,
        "--hours",
        "2",
        "--faults",
        "dirty_connector=2,shared_component=1",
        "--anomalies",
        "reset=1",
        "-o",
        str(out),
        "--truth",
        str(truth_file),
    )
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    assert "1536 samples of 64 link ends" in result.stderr and "3 faults" in result.stderr
    body = json.loads(out.read_text())
    truth = json.loads(truth_file.read_text())
    assert len(body["samples"]) == 1536
    # dirty_connector is contamination's old name: the truth uses the one name (trial 27 item 13).
    assert [fault["kind"] for fault in truth["faults"]] == ["contamination", "contamination", "shared_component"]
    assert [anomaly["kind"] for anomaly in truth["anomalies"]] == ["reset"]
    # The dirty connector's receiver reads under 100G-SR4's -10.3 dBm once the fault has started.
    fault = truth["faults"][0]
    switch, _, port = fault["rx_low"][0].rpartition(":")
    late = [
        s
        for s in body["samples"]
        if (s["switch"], s["port"]) == (switch, port) and s["time"] >= fault["onset"] and "input_power_dbm" in s
    ]
    assert late and all(s["input_power_dbm"] < -10.3 for s in late)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["t.json", "truth.json"]  # no temporary left


def test_telemetry_slow_faults_with_their_truth(cli: Cli, tmp_path: Path) -> None:
    out, truth_file = tmp_path / "t.csv", tmp_path / "truth.json"
    result = telemetry(
        cli,
        "--hours",
        "240",
        "--optical-interval",
        "900",
        "--seed",
        "2",
        "--slow-faults",
        "decaying_transmitter=1,dirty_connector=1,bent_fiber=1",
        "--format",
        "csv",
        "-o",
        str(out),
        "--truth",
        str(truth_file),
    )
    assert result.exit_code == 0, result.stderr
    assert "0 faults, 3 slow faults" in result.stderr
    truth = json.loads(truth_file.read_text())
    faults = truth["slow_faults"]
    # dirty_connector is the old name of contamination: the truth says contamination, as the forecast.
    assert [f["kind"] for f in faults] == ["decaying_transmitter", "contamination", "bent_fiber"]
    assert truth["texture"]["missed_polls"] > 0  # the feed texture comes with slow faults
    rows = list(csv.DictReader(out.open()))
    for fault in faults:
        assert fault["decay_onset"] < fault["threshold_crossing"] == fault["corruption_onset"] < truth["end"]
        assert fault["side"] in (("A", "Z") if fault["kind"] != "bent_fiber" else (None,))
        # The receiving lane is above its limit at the decay onset and under it from the crossing on.
        switch, _, port = fault["receiver"].rpartition(":")
        lane = [
            (row["time"], float(row["input_power_channels_dbm"].split(";")[fault["lane"]]))
            for row in rows
            if (row["switch"], row["port"]) == (switch, port) and row["input_power_channels_dbm"]
        ]
        before = [value for time, value in lane if time < fault["decay_onset"]][-24:]
        after = [value for time, value in lane if time >= fault["threshold_crossing"]][4:28]
        assert sum(before) / len(before) > fault["limit_dbm"] > sum(after) / len(after)
    # Without --slow-faults the truth reads as it always did.
    plain = telemetry(cli, "--hours", "1", "--truth", str(truth_file), "-o", str(out))
    assert plain.exit_code == 0, plain.stderr
    assert "slow_faults" not in json.loads(truth_file.read_text())


def test_telemetry_openconfig_and_prometheus(cli: Cli) -> None:
    gnmi = telemetry(cli, "--hours", "0.25", "--format", "openconfig")
    assert gnmi.exit_code == 0, gnmi.stderr
    notifications = json.loads(gnmi.stdout)
    assert len(notifications) == 20 * 3  # every switch, at each of the three 5-minute polls
    assert notifications[0]["prefix"] == {"target": "p0-tor0"}
    prometheus = telemetry(cli, "--hours", "0.25", "--format", "prometheus")
    assert prometheus.exit_code == 0, prometheus.stderr
    first = prometheus.stdout.splitlines()[0]
    assert first.startswith('interfaces_interface_state_counters_in_pkts{source="p0-tor0",interface_name="eth2/1"} ')
    assert first.endswith(" 1795341600000")


def test_telemetry_default_range_ends_at_the_last_counter_poll(cli: Cli) -> None:
    result = cli("fixtures", "telemetry", "--fabric", str(FAT_TREE_K4), "--hours", "0.25", "--format", "csv")
    assert result.exit_code == 0, result.stderr
    first = datetime.fromisoformat(result.stdout.splitlines()[1].split(",")[0].replace("Z", "+00:00"))
    now = datetime.now(UTC)
    assert first.minute % 15 == 0 and first.second == 0
    assert now - timedelta(minutes=31) < first <= now - timedelta(minutes=15)


def test_telemetry_bad_options_are_one_line_errors(cli: Cli, tmp_path: Path) -> None:
    typo = telemetry(cli, "--faults", "bent_fiber=1,dirty_conector=2")
    assert typo.exit_code == 2
    assert typo.stderr.startswith("error: --faults: unknown fault kind 'dirty_conector' in 'dirty_conector=2'")
    count = telemetry(cli, "--faults", "bent_fiber=many")
    assert count.stderr == "error: --faults: 'bent_fiber=many': the count must be a whole number\n"
    anomaly = telemetry(cli, "--anomalies", "glitch=1")
    assert anomaly.exit_code == 2 and anomaly.stderr.startswith("error: --anomalies: unknown anomaly kind 'glitch'")
    start = cli("fixtures", "telemetry", "--fabric", str(FAT_TREE_K4), "--start", "yesterday")
    assert start.exit_code == 2 and "'yesterday' is not an ISO 8601 time" in start.stderr
    missing = cli("fixtures", "telemetry", "--fabric", str(tmp_path / "nope.json"))
    assert missing.exit_code == 1 and missing.stderr.startswith("error: cannot read ")
    too_many = telemetry(cli, "--faults", "shared_component=40")
    assert too_many.exit_code == 2 and "no breakout group with at least 2 healthy links" in too_many.stderr
    slow = telemetry(cli, "--slow-faults", "dirty_connector=1,loose_transceiver=1")
    assert slow.exit_code == 2 and slow.stderr.startswith(
        "error: --slow-faults: unknown slow fault kind 'loose_transceiver' in 'loose_transceiver=1'"
    )
    for result in (typo, count, anomaly, start, missing, too_many, slow):
        assert len(result.stderr.splitlines()) == 1, result.stderr
        assert result.stdout == ""


def test_telemetry_help_gives_a_whole_slow_fault_example_that_runs(cli: Cli, tmp_path: Path) -> None:
    """Trial 27 item 13: the example wrapped inside a word, named no durations and no full command."""
    result = cli("fixtures", "telemetry", "--help")
    assert result.exit_code == 0, result.stderr
    text = result.stdout
    assert "3-30 days" in text and "--hours must cover days" in text
    lines = [line.strip() for line in text.splitlines()]
    start = lines.index("lightpath fixtures telemetry --fabric-file fabric.json --hours 336 \\")
    example = " ".join(line.rstrip("\\").strip() for line in lines[start : start + 3]).split()
    assert "decaying_transmitter=3,contamination=2,bent_fiber=1" in example  # one unbroken word
    # Run it as printed, on a small fabric.
    args = [
        str(FIXTURE_DATA / "leaf-spine-4x2.json") if word == "fabric.json" else str(tmp_path / word)
        if word in ("truth.json", "telemetry.json") else word
        for word in example[3:]
    ]  # fmt: skip
    ran = cli("fixtures", "telemetry", *args)
    assert ran.exit_code == 0, ran.stderr
    truth = json.loads((tmp_path / "truth.json").read_text())
    kinds = sorted(fault["kind"] for fault in truth["slow_faults"])
    assert kinds == ["bent_fiber", "contamination", "contamination", *["decaying_transmitter"] * 3]
    assert (tmp_path / "telemetry.json").stat().st_size > 0
