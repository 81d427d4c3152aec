"""`lightpath sharebackup plan|size` and `lightpath larry run|check|cost`: offline on files, the engine called
directly (no server)."""

from __future__ import annotations

import json
import re
import typing
from pathlib import Path
from typing import Any

import pytest
from cli_testing import Cli

from lightpath_cli.commands.larry import RackSetOption

DEGRADED_RACK_SET = {
    "static_uplinks": 2,
    "cables": [[1, 1, 1, 1]] * 4,
    "cs_uplinks": [2, 2, 2, 2],
    "capacity_gbps": 100.0,
    "excluded": [[0, 0], [1, 0]],
}


def write(tmp_path: Path, name: str, data: Any) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def run_json(cli: Cli, *args: str) -> Any:
    result = cli(*args, "--output", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def one_line_error(result: Any, exit_code: int = 1) -> str:
    assert result.exit_code == exit_code
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return str(lines[0])


def test_plan_splices_backups_and_degrades_without_borrowing(cli: Cli, tmp_path: Path) -> None:
    events = write(
        tmp_path,
        "events.json",
        {
            "events": [
                {"type": "switch_down", "switch": "agg.p0.m1"},
                {"type": "switch_down", "switch": "agg.p0.m0"},
                {"type": "repair_done", "switch": "agg.p0.m1"},
            ]
        },
    )
    plan = run_json(
        cli, "sharebackup", "plan", "--fabric-k", "4", "--pods", "2", "--backups", "1", "--events", str(events)
    )
    assert (plan["counts"]["active_switches"], plan["counts"]["backup_switches"], plan["counts"]["hosts"]) == (12, 6, 8)
    first, second, third = plan["events"]
    assert [c["circuit_switch"] for c in first["replace_calls"]] == ["ea.p0.j0", "ea.p0.j1", "ac.p0.c0", "ac.p0.c1"]
    assert second["status"] == "degraded" and second["replace_calls"] == []
    assert second["fallback"][0]["reroute_via"] == ["agg.p0.s1"]
    assert third["status"] == "normal" and len(third["replace_calls"]) == 4
    assert plan["violations"] == []
    table = cli("sharebackup", "plan", "--fabric-k", "4", "--pods", "2", "--backups", "1", "--events", str(events))
    assert table.exit_code == 0 and "degraded (agg.p0.s0 rerouted)" in table.stdout


def test_plan_rejects_an_impossible_event_in_one_line(cli: Cli, tmp_path: Path) -> None:
    events = write(tmp_path, "events.json", [{"type": "repair_done", "switch": "core.c0.m0"}])
    line = one_line_error(cli("sharebackup", "plan", "--fabric-k", "4", "--backups", "1", "--events", str(events)))
    assert "core.c0.m0 is not down for repair" in line
    bad = write(tmp_path, "bad.json", [{"type": "meteor", "switch": "core.c0.m0"}])
    assert "events" in one_line_error(
        cli("sharebackup", "plan", "--fabric-k", "4", "--backups", "1", "--events", str(bad))
    )


def test_size_reports_the_smallest_backup_count(cli: Cli) -> None:
    sizing = run_json(
        cli,
        "sharebackup",
        "size",
        "--mtbf-hours",
        "50000",
        "--mttr-hours",
        "24",
        "--target",
        "1e-6",
        "--fabric-k",
        "16",
    )
    assert sizing["groups"] == 40 and sizing["group_slots"] == 8
    assert sizing["backups"] == 2
    assert sizing["curve"][-1]["p_any"] <= 1e-6 < sizing["curve"][-2]["p_any"]
    line = one_line_error(cli("sharebackup", "size", "--mtbf-hours", "-1", "--mttr-hours", "24", "--target", "2"))
    assert "mtbf_hours must be positive" in line and "target must be between 0 and 1" in line


def test_check_certifies_the_degraded_cabling_example(cli: Cli, tmp_path: Path) -> None:
    cables = write(tmp_path, "rack-set.json", DEGRADED_RACK_SET)
    ok = run_json(cli, "larry", "check", "--uplinks", "3,3,1,1", "--cables", str(cables))
    assert ok["feasible"] and ok["granted"] == [3, 3, 1, 1]
    bad = cli("larry", "check", "--uplinks", "3,3,2,0", "--cables", str(cables), "--output", "json")
    assert bad.exit_code == 1
    assert json.loads(bad.stdout)["min_cut"]["capacity"] == 7
    assert one_line_error(bad) == (
        "error: infeasible: whole request 7 of 8 circuit uplinks reachable (max flow); "
        "bottleneck: rack 0, rack 1, rack 2 request 8 but their cables reach at most 7"
    )
    assert "not a comma-separated list" in one_line_error(cli("larry", "check", "--uplinks", "3,x"), exit_code=2)


def test_check_labels_the_whole_request_apart_from_the_bottleneck(cli: Cli, tmp_path: Path) -> None:
    """Rack a has no cable; b's request fits. The min cut's capacity (1) is the whole request's max
    flow, its explanation's numbers (1 asked, 0 reachable) are rack a's alone: the table says which."""
    rack_set = {
        "static_uplinks": 2,
        "cables": [[0], [1]],
        "cs_uplinks": [2],
        "capacity_gbps": 100.0,
        "racks": ["a", "b"],
    }
    bad = cli("larry", "check", "--uplinks", "1,1", "--rack-set", str(write(tmp_path, "two.json", rack_set)))
    assert bad.exit_code == 1
    assert "Whole request: 1 of 2 circuit uplinks reachable (max flow)" in bad.stdout
    assert "Bottleneck: a requests 1 but its cables reach at most 0" in bad.stdout
    assert "error: infeasible: the request does not fit the cables in service (the min cut above)" in bad.stderr


@pytest.fixture
def counters(tmp_path: Path) -> Path:
    acc = [0, 0, 0, 0]
    samples = [{"time_s": 0.0, "ingress_bytes": acc[:], "egress_bytes": acc[:]}]
    for i in range(1, 4):
        acc = [a + int(r * 1e9 / 8 * 0.5) for a, r in zip(acc, [5000.0, 1.0, 1.0, 1.0], strict=True)]
        samples.append({"time_s": i * 0.5, "ingress_bytes": acc[:], "egress_bytes": [0, 0, 0, 0]})
    return write(tmp_path, "counters.json", samples)


def test_run_lifts_the_congested_rack_and_compares_baselines(cli: Cli, counters: Path) -> None:
    run = run_json(cli, "larry", "run", "--counters", str(counters))
    assert run["initial_uplinks"] == [8, 8, 8, 8]
    assert [s["uplinks"] for s in run["steps"]] == [[14, 6, 6, 6]] * 3
    assert [len(s["diff"]) for s in run["steps"]] == [6, 0, 0]
    compared = run_json(cli, "larry", "run", "--counters", str(counters), "--compare")
    assert compared["static"]["reconfigurations"] == 0
    assert compared["conservative"]["overload_gbit"] < compared["static"]["overload_gbit"]
    assert "--policy must be one of" in one_line_error(
        cli("larry", "run", "--counters", str(counters), "--policy", "x"), exit_code=2
    )


def test_cost_compares_static_larry_and_sharebackup(cli: Cli) -> None:
    rows = run_json(cli, "larry", "cost")
    designs = [r["design"] for r in rows]
    assert designs == [
        "static u=16",
        "static u=4",
        "larry S=2 L=4 R=2",
        "fat tree k=16 P=16",
        "sharebackup n=1",
    ]
    assert rows[0]["normalised_cost"] == 1.0 and rows[2]["circuit_ports"] == 24


def test_the_rack_set_example_in_help_and_readme_is_one_larry_check_takes(cli: Cli, tmp_path: Path) -> None:
    """The RACKSET.json format was documented nowhere a user looks (issue #20): --help and cli/README now
    show an example; it must be a rack set the command accepts, with its excluded cable honoured."""
    help_text = typing.get_args(RackSetOption)[1].help
    example = re.search(r"Example: (\{.*\})\.", help_text).group(1)
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    assert f"RACKSET.json (also `larry run --rack-set`; `--cables` is its old name): `{example}`" in readme
    rack_set = tmp_path / "rackset.json"
    rack_set.write_text(example)
    # r1 has 2 + 2 cables but one is out of service: 3 circuit uplinks fit, 4 do not (r2 reaches 4).
    fits = cli("--output", "json", "larry", "check", "--uplinks", "3,4", "--rack-set", str(rack_set))
    assert fits.exit_code == 0, fits.stderr
    assert json.loads(fits.stdout)["feasible"] is True
    too_many = cli("--output", "json", "larry", "check", "--uplinks", "4,4", "--rack-set", str(rack_set))
    assert too_many.exit_code == 1
    assert json.loads(too_many.stdout)["feasible"] is False


def test_sharebackup_plan_without_events_gives_the_counts(cli: Cli) -> None:
    """--events was demanded even for the fabric's counts (issue #20); without it there is nothing to fail over."""
    table = cli("sharebackup", "plan", "--k", "4", "--backups", "1")
    assert table.exit_code == 0, table.stderr
    assert table.stdout == (
        "k=4 P=4 n=1: 20 active switches, 10 backups in 10 groups, 16 hosts, 24 circuit switches (136 ports)\n"
        "no events: give --events EVENTS.json to plan failovers\n"
    )
    plan = json.loads(cli("--output", "json", "sharebackup", "plan", "--k", "4", "--backups", "1").stdout)
    assert plan["events"] == [] and plan["violations"] == []
    assert plan["counts"]["backup_switches"] == 10
    # The server plans event logs only: there --events stays required, and the usage error says why.
    server = cli("sharebackup", "plan", "--k", "4", "--backups", "1", "--server")
    assert server.exit_code == 2
    assert "--server plans an event log: give --events EVENTS.json" in server.stderr
