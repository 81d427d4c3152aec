"""--seed takes the server's range, [0, 2^63), in every command and on both paths (offline, no server needed).

The server refuses a seed of 2^63 or more (JSON clients round such integers); the CLI once took seeds up to
2^64 - 1, which passed here and failed there. test_cli_corropt_simulate_server.py checks that the largest
seed the CLI takes reaches the server and passes its checks.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_testing import FIXTURE_DATA, Cli

FABRIC = FIXTURE_DATA / "fat-tree-k4.json"
LARGEST = str(2**63 - 1)


@pytest.fixture
def demand(tmp_path: Path) -> Path:
    path = tmp_path / "demand.csv"
    path.write_text("src,dst,bytes,window_start\n0,1,5000000,0\n2,3,4000000,0\n0,2,6000000,1\n")
    return path


def seeded_commands(demand: Path) -> list[list[str]]:
    """Every command with --seed, offline where it has an offline path (the first six)."""
    return [
        ["fixtures", "fat-tree", "--k", "4"],
        ["fixtures", "fb-fabric", "--pods", "1", "--tors-per-pod", "2", "--fabric-per-pod", "2"],
        ["fixtures", "leaf-spine", "--leaves", "2", "--spines", "2"],
        ["fixtures", "telemetry", "--fabric-file", str(FABRIC), "--hours", "1", "--start", "2026-11-22T10:00:00Z"],
        ["corropt", "trace", "--fabric-file", str(FABRIC), "--mttf-hours", "100", "--hours", "10"],
        ["circuits", "plan", "--demand", str(demand), "--racks", "4", "--algorithm", "random"],
        # sharebackup size uses its seed only on the server (--server, refused before any request here).
        ["sharebackup", "size", "--mtbf-hours", "50000", "--mttr-hours", "24", "--target", "1e-6", "--server"],
        ["corropt", "simulate", "somefabric", "--hours", "10"],
    ]


@pytest.mark.parametrize("index", range(8), ids=lambda i: f"command{i}")
def test_a_seed_of_2_63_is_refused_before_anything_runs(cli: Cli, demand: Path, index: int) -> None:
    command = seeded_commands(demand)[index]
    for seed in (str(2**63), str(2**64 - 1), "-1"):
        result = cli(*command, "--seed", seed)
        assert result.exit_code == 2, result.output
        assert f"'--seed': must be a whole number in [0, 2^63), got {seed}" in result.stderr
        assert result.stdout == ""


@pytest.mark.parametrize("index", range(6), ids=lambda i: f"command{i}")
def test_the_largest_seed_runs_offline(cli: Cli, demand: Path, index: int) -> None:
    command = seeded_commands(demand)[index]
    result = cli(*command, "--seed", LARGEST)
    assert result.exit_code == 0, result.stderr
    assert result.stdout
    if command[0] == "circuits":
        again = cli(*command, "--seed", LARGEST)
        assert again.stdout == result.stdout  # the same seed, the same plan


def test_the_largest_seed_simulates_offline_and_is_reported(cli: Cli, tmp_path: Path) -> None:
    trace = tmp_path / "trace.csv"
    made = cli(
        "corropt", "trace", "--fabric-file", str(FABRIC), "--mttf-hours", "100", "--hours", "50", "-o", str(trace)
    )
    assert made.exit_code == 0, made.stderr
    result = cli(
        "--output", "json", "corropt", "simulate", "--fabric-file", str(FABRIC), "--trace", str(trace),
        "--seed", LARGEST,
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["settings"]["seed"] == 2**63 - 1
