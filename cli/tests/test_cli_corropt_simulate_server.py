"""`lightpath corropt simulate FABRIC`: the what-if simulation as a server job, against the real
backend and the session's real Celery worker (root conftest.py)."""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path
from typing import Any

import pytest
from cli_testing import FIXTURE_DATA, Cli, import_file, wait_until

from lightpath_cli.server import follow as follow_module

if not os.environ.get("DJANGO_SETTINGS_MODULE"):
    pytest.skip("needs the backend's Django settings: run pytest from the repository root", allow_module_level=True)

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True, databases="__all__")]


def simulation_jobs() -> int:
    from jobs.models import Job

    return Job.objects.filter(kind="corruption.simulate").count()


def test_generated_trace_runs_on_the_server_with_every_constraint(planner: Cli, worker: Any, tmp_path: Path) -> None:
    fabric = import_file(planner, FIXTURE_DATA / "fat-tree-k4.json")
    series = tmp_path / "series.csv"
    result = planner(
        "--output", "json", "corropt", "simulate", fabric["name"],
        "--constraint", "0.5", "--constraint", "0.75", "--accuracy", "0.8",
        "--hours", "500", "--mttf-hours", "100", "--seed", "3", "--series", str(series),
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert "simulation running as job" in result.stderr
    document = json.loads(result.stdout)
    assert document["fabric"]["name"] == fabric["name"]
    assert document["trace"]["source"] == "generated" and document["trace"]["onsets"] > 0
    assert [(run["constraint"], run["accuracy"]) for run in document["runs"]] == [(0.5, 0.8), (0.75, 0.8)]
    for run in document["runs"]:
        by_policy = {row["policy"]: row for row in run["policies"]}
        assert set(by_policy) == {"corropt", "fast-checker", "switch-local"}
        assert by_policy["corropt"]["penalty_ratio_vs_corropt"] == 1.0
        assert by_policy["corropt"]["lowest_worst_fraction"] >= run["constraint"]
    rows = list(csv.DictReader(io.StringIO(series.read_text())))
    assert {row["policy"] for row in rows} == {"corropt", "fast-checker", "switch-local"}
    assert {row["constraint"] for row in rows} == {"0.5", "0.75"}


def test_table_and_csv_output(planner: Cli, worker: Any, tmp_path: Path) -> None:
    fabric = import_file(planner, FIXTURE_DATA / "fat-tree-k4.json")
    trace = tmp_path / "one.csv"
    trace.write_text("time_s,link,loss_rate\n0,p0-tor0:eth2/1,0.001\n3600,p0-agg1:eth1/1-p0-tor0:eth2/2,0.0001\n")
    table = planner("corropt", "simulate", fabric["name"], "--trace", str(trace), "--constraint", "0.5")
    assert table.exit_code == 0, table.stderr
    assert "switch-local" in table.stdout and "uploaded one.csv" in table.stdout
    assert "2 onsets" in table.stdout
    as_csv = planner("--output", "csv", "corropt", "simulate", fabric["name"], "--trace", str(trace))
    assert as_csv.exit_code == 0, as_csv.stderr
    rows = list(csv.DictReader(io.StringIO(as_csv.stdout)))
    assert len(rows) == 2 * 2 * 3  # default constraints 0.5, 0.75 x accuracies 0.5, 0.8 x 3 policies


def test_a_bad_trace_is_rejected_line_by_line_before_any_job(planner: Cli, tmp_path: Path) -> None:
    fabric = import_file(planner, FIXTURE_DATA / "fat-tree-k4.json")
    trace = tmp_path / "bad.csv"
    trace.write_text("time_s,link,loss_rate\n10,p0-tor0:eth2/1,1e-4\n5,nowhere:eth9,2\n")
    result = planner("corropt", "simulate", fabric["name"], "--trace", str(trace))
    assert result.exit_code == 1
    # One line naming every problem (#18: it was a count, then the problems below it).
    assert f"error: simulation on {fabric['name']} rejected: " in result.stderr and result.stderr.count("\n") == 1
    assert "params.trace.csv: line 3: unknown link 'nowhere:eth9'" in result.stderr
    assert simulation_jobs() == 0


def test_the_largest_seed_the_cli_takes_passes_the_servers_checks(planner: Cli, tmp_path: Path) -> None:
    """--seed's range is the server's: 2^63 - 1 reaches it and passes (only the bad trace is rejected)."""
    fabric = import_file(planner, FIXTURE_DATA / "fat-tree-k4.json")
    trace = tmp_path / "bad.csv"
    trace.write_text("time_s,link,loss_rate\n0,nowhere:eth9,1e-4\n")
    result = planner("corropt", "simulate", fabric["name"], "--trace", str(trace), "--seed", str(2**63 - 1))
    assert result.exit_code == 1
    assert f"error: simulation on {fabric['name']} rejected: " in result.stderr and result.stderr.count("\n") == 1
    assert "unknown link 'nowhere:eth9'" in result.stderr and "seed" not in result.stderr
    too_large = planner("corropt", "simulate", fabric["name"], "--trace", str(trace), "--seed", str(2**63))
    assert too_large.exit_code == 2 and "'--seed': must be a whole number in [0, 2^63)" in too_large.stderr
    assert simulation_jobs() == 0


def test_options_of_the_other_mode_are_refused(planner: Cli) -> None:
    offline_only = planner("corropt", "simulate", "somefabric", "--capacity", "0.5")
    assert offline_only.exit_code == 2 and "use --constraint" in offline_only.stderr
    # Issue #17 made --constraint the one name of the ToR constraint on both paths (offline it replaces
    # --capacity), so this case now gives an option only a server simulation has: a generated trace's MTTF.
    server_only = planner(
        "corropt", "simulate", "--fabric", str(FIXTURE_DATA / "fat-tree-k4.json"), "--mttf-hours", "100"
    )
    assert server_only.exit_code == 2 and "server simulation" in server_only.stderr
    neither = planner("corropt", "simulate")
    assert neither.exit_code == 2 and "FABRIC" in neither.stderr


def test_a_viewer_may_not_start_one(viewer: Cli) -> None:
    from fabric import services

    services.import_document(json.loads((FIXTURE_DATA / "fat-tree-k4.json").read_text()))
    result = viewer("corropt", "simulate", "fat-tree-k4")
    assert result.exit_code == 1
    assert "permission denied: Your role may not start 'corruption.simulate' jobs." in result.stderr
    assert simulation_jobs() == 0


def test_ctrl_c_with_cancel_on_interrupt_stops_the_simulation_mid_run(
    planner: Cli, worker: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fabric import services
    from jobs.models import Job
    from lightpath_fixtures.generators import fb_fabric

    # One engine run of several seconds (3,072 links, a dense month of onsets, CorrOpt alone).
    fabric = services.import_document(fb_fabric(8, name="sim-ctrl-c"))

    def running_job() -> Job | None:
        return Job.objects.filter(kind="corruption.simulate", state="running", progress__gte=0.1).first()

    def ctrl_c_once_under_way(seconds: float) -> None:
        """Ctrl-C during the CLI's wait between two polls, once the engine run is well under way."""
        wait_until(running_job, what="the simulation's engine run")
        raise KeyboardInterrupt

    monkeypatch.setattr(follow_module, "_sleep", ctrl_c_once_under_way)
    interrupted = planner(
        "corropt", "simulate", fabric.name, "--policy", "corropt", "--constraint", "0.75", "--accuracy", "0.8",
        "--hours", "720", "--mttf-hours", "50", "--cancel-on-interrupt",
    )  # fmt: skip
    assert interrupted.exit_code == 130
    job = Job.objects.get(kind="corruption.simulate")
    assert interrupted.stderr.splitlines()[-1].startswith(f"interrupted: asked the server to cancel job {job.pk}")
    monkeypatch.undo()

    # Followed to its end: cancelled in the middle of the run, with the progress it had made.
    ended = planner("jobs", "watch", str(job.pk), "--interval", "0.1", "--output", "json")
    assert ended.exit_code == 1
    document = json.loads(ended.stdout)
    assert document["state"] == "cancelled"
    assert 0.1 <= document["progress"] < 0.5
    assert ended.stderr.endswith(f"error: job {job.pk} cancelled: cancelled\n")
