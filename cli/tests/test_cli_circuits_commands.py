"""`lightpath circuits plan|verify`: c-Through schedules on demand files, offline (the engine computes)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_testing import Cli


def write_uniform_csv(path: Path, racks: int, windows: int, volume: int = 200_000_000) -> Path:
    lines = ["src,dst,bytes,window_start"]
    for t in range(windows):
        lines += [f"{a},{b},{volume},{t}" for a in range(racks) for b in range(a + 1, racks)]
    path.write_text("\n".join(lines) + "\n")
    return path


def plan_json(cli: Cli, *args: str) -> dict[str, Any]:
    result = cli("circuits", "plan", *args, "--output", "json")
    assert result.exit_code == 0, result.output
    schedule: dict[str, Any] = json.loads(result.stdout)
    return schedule


def test_seven_racks_with_uniform_demand_get_three_circuits_and_the_ratio_3_21(cli: Cli, tmp_path: Path) -> None:
    demand = write_uniform_csv(tmp_path / "demand.csv", 7, 4)
    schedule = plan_json(cli, "--demand", str(demand), "--racks", "7")
    assert len(schedule["slots"]) == 3
    assert all(len(slot["circuits"]) == 3 for slot in schedule["slots"])
    assert schedule["metrics"]["optical_ratio"] == pytest.approx(3 / 21)
    assert schedule["metrics"]["uniform_ratio"] == pytest.approx(3 / 21)
    # The label says how the ratio is computed: ⌊n/2⌋ circuits of C(n, 2) pairs, not 1/(n-1).
    assert "uniform ratio ⌊n/2⌋/C(n,2)" in cli("circuits", "plan", "--demand", str(demand), "--racks", "7").stdout
    table = cli("circuits", "plan", "--demand", str(demand), "--racks", "7")
    assert table.exit_code == 0, table.output
    assert "optical ratio" in table.stdout and "0.1429" in table.stdout


def test_exact_beats_round_robin_and_greedy_is_within_half(cli: Cli, tmp_path: Path) -> None:
    # Skewed demand: racks 2i and 2i+1 talk a lot, everyone a little.
    lines = ["src,dst,bytes,window_start"]
    for t in range(5):
        for a in range(8):
            for b in range(a + 1, 8):
                volume = 900_000_000 if b == a + 1 and a % 2 == 0 else 5_000_000 * (a + b)
                lines.append(f"{a},{b},{volume},{t}")
    demand = tmp_path / "skewed.csv"
    demand.write_text("\n".join(lines) + "\n")
    results = {
        name: plan_json(cli, "--demand", str(demand), "--racks", "8", "--algorithm", name)["metrics"]
        for name in ("exact", "greedy", "round-robin")
    }
    assert results["exact"]["optical_ratio"] > results["round-robin"]["optical_ratio"]
    assert results["exact"]["weight"] / 2 <= results["greedy"]["weight"] <= results["exact"]["weight"]
    assert results["exact"]["gap"] == 0.0


def test_verify_accepts_a_plan_and_reports_each_violation(cli: Cli, tmp_path: Path) -> None:
    demand = write_uniform_csv(tmp_path / "demand.csv", 6, 3)
    schedule = plan_json(cli, "--demand", str(demand), "--racks", "6", "--zone-size", "3", "--unavailable", "5")
    path = tmp_path / "schedule.json"
    path.write_text(json.dumps(schedule))
    ok = cli("circuits", "verify", str(path))
    assert ok.exit_code == 0, ok.output
    assert "ok: 2 slots" in ok.stdout
    schedule["slots"][0]["circuits"] = [{"a": 0, "b": 3, "count": 1}, {"a": 4, "b": 5, "count": 1}]
    path.write_text(json.dumps(schedule))
    bad = cli("circuits", "verify", str(path))
    assert bad.exit_code == 1
    lines = bad.stdout.strip().splitlines()
    assert any("crosses zones 0 and 1" in line for line in lines)
    assert any("rack 5, whose port is unavailable" in line for line in lines)
    report = json.loads(cli("circuits", "verify", str(path), "--output", "json").stdout)
    assert report["ok"] is False and len(report["violations"]) == len(lines)


def test_bad_demand_rows_are_listed_by_line(cli: Cli, tmp_path: Path) -> None:
    demand = tmp_path / "bad.csv"
    demand.write_text("src,dst,bytes,window_start\n0,1,100,0\n0,9,100,0\n2,2,5,1\nx,1,-4,soon\n")
    result = cli("circuits", "plan", "--demand", str(demand), "--racks", "4")
    assert result.exit_code == 1
    err = result.stderr
    assert err.startswith("error: bad.csv: 3 bad demand row(s)")
    assert "bad.csv line 3: dst 9 is not a rack (0 to 3)" in err
    assert "bad.csv line 4: src and dst are both rack 2" in err
    assert "bad.csv line 5: src 'x' is not an integer; bytes -4 is negative; window_start 'soon'" in err


def test_a_single_window_is_drained_unless_replay_is_asked_for(cli: Cli, tmp_path: Path) -> None:
    """Replay needs a next window to score on: a one-window demand drains by default, with a note
    (issue #20: it failed by default); replay asked for explicitly still says why it cannot."""
    demand = tmp_path / "one.json"
    demand.write_text(json.dumps([{"src": 0, "dst": 1, "bytes": 5_000_000_000, "window_start": 0}]))
    result = cli("circuits", "plan", "--demand", str(demand), "--racks", "2", "--mode", "replay")
    assert result.exit_code == 1
    assert "use drain for one snapshot" in result.stderr
    default = cli("--output", "json", "circuits", "plan", "--demand", str(demand), "--racks", "2")
    assert default.exit_code == 0, default.stderr
    assert default.stderr == "note: the demand has one window, so it is drained (--mode drain)\n"
    assert json.loads(default.stdout)["input"]["mode"] == "drain"
    drained = plan_json(cli, "--demand", str(demand), "--racks", "2", "--mode", "drain")
    # 5 GB over a 10 Gb/s circuit: 1.2375 GB in the first (dark) second, 1.25 GB after.
    assert [slot["offloaded_bytes"] for slot in drained["slots"]] == [
        1_237_500_000,
        1_250_000_000,
        1_250_000_000,
        1_250_000_000,
        12_500_000,
    ]
    assert drained["metrics"]["optical_ratio"] == pytest.approx(1.0)


def test_edge_groups_steer_an_offline_plan_and_verify(cli: Cli, tmp_path: Path) -> None:
    demand = tmp_path / "lemma.csv"
    rows = [f"0,2,10000000,{t}\n1,3,10000000,{t}\n0,1,2000000,{t}\n2,3,2000000,{t}\n" for t in (0, 1)]
    demand.write_text("src,dst,bytes,window_start\n" + "".join(rows))
    groups = tmp_path / "groups.json"
    groups.write_text(
        json.dumps([{"pairs": [[0, 1]], "bonus_bytes": 10**7}, {"pairs": [[2, 3]], "bonus_bytes": 10**7}])
    )
    result = cli(
        "--output", "json", "circuits", "plan", "--demand", str(demand), "--racks", "4", "--edge-groups", str(groups)
    )
    assert result.exit_code == 0, result.stderr
    schedule = json.loads(result.stdout)
    assert [(c["a"], c["b"]) for c in schedule["slots"][0]["circuits"]] == [(0, 1), (2, 3)]
    # What the groups earned is reported (issue #20: neither table nor JSON showed it).
    assert schedule["slots"][0]["completed_groups"] == [0, 1]
    assert (schedule["slots"][0]["bonus"], schedule["metrics"]["bonus"]) == (2 * 10**7, 2 * 10**7)
    assert schedule["metrics"]["groups_completed"] == 2
    groups.write_text(
        json.dumps(
            [
                {"name": "a", "pairs": [[0, 1]], "bonus_bytes": 10**7},
                {"name": "b", "pairs": [[2, 3]], "bonus_bytes": 10**7},
            ]
        )
    )
    table = cli("circuits", "plan", "--demand", str(demand), "--racks", "4", "--edge-groups", str(groups))
    assert table.exit_code == 0, table.stderr
    lines = [line.split() for line in table.stdout.splitlines()]
    assert ["edge-group", "bonus", "(bytes)", "20000000"] in lines
    assert ["weight", "+", "bonus", "(bytes)", "24000000"] in lines
    assert lines[-1][-2:] == ["a,", "b"]  # slot 0 completed both groups, by name
    saved = tmp_path / "schedule.json"
    saved.write_text(result.stdout)
    assert cli("circuits", "verify", str(saved)).exit_code == 0
    groups.write_text('{"edge_groups": "nope"}')
    bad = cli("circuits", "plan", "--demand", str(demand), "--racks", "4", "--edge-groups", str(groups))
    assert bad.exit_code == 1 and "expected a list" in bad.stderr
