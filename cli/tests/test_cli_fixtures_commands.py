"""`lightpath fixtures ...` and the file checks of `lightpath fabric validate`: offline, no server."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from cli_testing import Cli

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
