"""`lightpath sharebackup plan|size --server` and `lightpath larry run|check --server`: the jobs and the
synchronous endpoints of the reconfig app, against the real backend and the module's real Celery worker."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from cli_testing import FIXTURE_DATA, Cli, import_file

if not os.environ.get("DJANGO_SETTINGS_MODULE"):
    pytest.skip("needs the backend's Django settings: run pytest from the repository root", allow_module_level=True)

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True, databases="__all__")]

DEGRADED_RACK_SET = {
    "static_uplinks": 2,
    "cables": [[1, 1, 1, 1]] * 4,
    "cs_uplinks": [2, 2, 2, 2],
    "capacity_gbps": 100.0,
    "excluded": [[0, 0], [1, 0]],
}


def jobs_of(kind: str) -> int:
    from jobs.models import Job

    return Job.objects.filter(kind=kind).count()


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_plan_runs_as_a_job_and_matches_the_offline_plan(planner: Cli, worker: Any, tmp_path: Path) -> None:
    events = write(
        tmp_path,
        "events.json",
        json.dumps(
            [
                {"type": "switch_down", "switch": "agg.p0.m1"},
                {"type": "switch_down", "switch": "agg.p0.m0"},
                {"type": "repair_done", "switch": "agg.p0.m1"},
            ]
        ),
    )
    args = ("sharebackup", "plan", "--fabric-k", "4", "--pods", "2", "--backups", "1", "--events", str(events))
    served = planner("--output", "json", *args, "--server")
    assert served.exit_code == 0, served.stderr
    assert "sharebackup.plan running as job" in served.stderr
    document = json.loads(served.stdout)
    offline = json.loads(planner("--output", "json", *args).stdout)
    # the server's result is the engine's document plus what a viewer needs
    for key in ("counts", "wiring", "initial_circuits", "violations"):
        assert document[key] == offline[key]
    assert [e["replace_calls"] for e in document["events"]] == [e["replace_calls"] for e in offline["events"]]
    assert document["verdict"]["sound"] and document["inputs"]["events"]["name"] == "events.json"
    assert all("matchings" in event for event in document["events"])
    table = planner(*args, "--server")
    assert table.exit_code == 0 and "degraded (agg.p0.s0 rerouted)" in table.stdout


def test_a_bad_event_file_is_rejected_event_by_event_before_any_job(planner: Cli, tmp_path: Path) -> None:
    events = write(
        tmp_path, "bad.json", json.dumps([{"type": "meteor"}, {"type": "switch_down", "switch": "agg.p9.m0"}])
    )
    result = planner("sharebackup", "plan", "--fabric-k", "4", "--backups", "1", "--events", str(events), "--server")
    assert result.exit_code == 1
    # One line naming every problem (#18: it was a count, then the problems below it).
    assert "error: sharebackup.plan rejected: " in result.stderr and result.stderr.count("\n") == 1
    assert "event 1: switch 'agg.p9.m0': there are 4 pods" in result.stderr
    assert jobs_of("sharebackup.plan") == 0


def counters_csv(periods: int) -> str:
    lines = ["time_s,rack,ingress_bytes,egress_bytes"]
    totals = [0, 0, 0, 0]
    for i in range(periods + 1):
        lines += [f"{i * 0.5:g},{rack},{totals[rack]},0" for rack in range(4)]
        totals = [t + int((5000.0 if rack == 0 else 1.0) * 1e9 / 8 * 0.5) for rack, t in enumerate(totals)]
    return "\n".join(lines) + "\n"


def test_larry_run_uploads_csv_counters_and_follows_the_job(planner: Cli, worker: Any, tmp_path: Path) -> None:
    counters = write(tmp_path, "counters.csv", counters_csv(3))
    served = planner("--output", "json", "larry", "run", "--counters", str(counters), "--server")
    assert served.exit_code == 0, served.stderr
    result = json.loads(served.stdout)
    assert result["initial_uplinks"] == [8, 8, 8, 8]
    assert [c["uplinks"] for c in result["changes"]] == [[14, 6, 6, 6]]
    assert result["series"]["uplinks"] == [[14, 6, 6, 6]] * 3
    compared = json.loads(
        planner("--output", "json", "larry", "run", "--counters", str(counters), "--server", "--compare").stdout
    )
    assert compared["static"]["reconfigurations"] == 0
    assert compared["conservative"]["overload_gbit"] < compared["static"]["overload_gbit"]
    table = planner("larry", "run", "--counters", str(counters), "--server")
    assert table.exit_code == 0 and "conservative: 1 reconfiguration(s)" in table.stdout


def test_bad_counter_lines_are_listed(planner: Cli, tmp_path: Path) -> None:
    counters = write(tmp_path, "c.csv", "time_s,rack,ingress_bytes,egress_bytes\n0,0,0,0\n0,7,0,0\n")
    result = planner("larry", "run", "--counters", str(counters), "--server")
    assert result.exit_code == 1
    assert "line 3: unknown rack '7'" in result.stderr
    assert jobs_of("larry.run") == 0


def test_check_and_size_on_the_server(planner: Cli, tmp_path: Path) -> None:
    cables = write(tmp_path, "rack-set.json", json.dumps(DEGRADED_RACK_SET))
    ok = planner("--output", "json", "larry", "check", "--uplinks", "3,3,1,1", "--cables", str(cables), "--server")
    assert ok.exit_code == 0 and json.loads(ok.stdout)["feasible"]
    bad = planner("--output", "json", "larry", "check", "--uplinks", "3,3,2,0", "--cables", str(cables), "--server")
    assert bad.exit_code == 1 and json.loads(bad.stdout)["min_cut"]["capacity"] == 7
    assert (
        "infeasible: whole request 7 of 8 circuit uplinks reachable (max flow); bottleneck: rack 0, rack 1, rack 2"
        in (bad.stderr)
    )
    wrong = planner("larry", "check", "--uplinks", "3,3", "--cables", str(cables), "--server")
    assert wrong.exit_code == 1 and "uplinks: has 2 entries for 4 racks" in wrong.stderr

    sizing = planner(
        "--output", "json", "sharebackup", "size", "--mtbf-hours", "2000", "--mttr-hours", "24",
        "--target", "1e-3", "--server", "--seed", "4",
    )  # fmt: skip
    assert sizing.exit_code == 0, sizing.stderr
    answer = json.loads(sizing.stdout)
    assert answer["reliability"]["source"] == "given" and answer["sizing"]["groups"] == 40
    assert answer["monte_carlo"]["seed"] == 4
    table = planner("sharebackup", "size", "--mtbf-hours", "2000", "--mttr-hours", "24", "--target", "1e-3", "--server")
    assert table.exit_code == 0 and "simulated" in table.stdout
    assert "MTBF 2000 h, MTTR 24 h (the given MTBF and MTTR)" in table.stdout
    offline_fabric = planner("sharebackup", "size", "--target", "1e-3", "--fabric", "x")
    assert offline_fabric.exit_code == 2 and "needs --server" in offline_fabric.stderr


def test_larry_run_reads_a_fabrics_telemetry(planner: Cli, worker: Any, tmp_path: Path) -> None:
    import datetime as dt

    from django.utils import timezone

    from fabric.models import Fabric
    from telemetry.services.ingest import ingest

    fabric = import_file(planner, FIXTURE_DATA / "fat-tree-k4.json")
    tors = ["p0-tor0", "p0-tor1", "p1-tor0"]
    start = (timezone.now() - dt.timedelta(hours=6)).replace(minute=0, second=0, microsecond=0)
    samples = []
    for tor, gbps in zip(tors, (300.0, 10.0, 10.0), strict=True):
        per_poll = round(gbps * 1e9 / 8 * 900 / 1500 / 2)  # two uplinks share the rack's traffic
        for port in ("eth2/1", "eth2/2"):
            samples += [
                {"switch": tor, "port": port, "time": start + dt.timedelta(minutes=15 * i), "in_pkts": i * per_poll}
                for i in range(5)
            ]
    ingest(Fabric.objects.get(pk=fabric["id"]), samples)
    rack_set = write(
        tmp_path,
        "racks.json",
        json.dumps(
            {"static_uplinks": 1, "cables": [[2, 2]] * 3, "cs_uplinks": [2, 2], "capacity_gbps": 100, "racks": tors}
        ),
    )
    window = ["--from", start.isoformat(), "--to", (start + dt.timedelta(hours=1)).isoformat()]
    served = planner(
        "--output", "json", "larry", "run", "--rack-set", str(rack_set), "--server", "--telemetry", fabric["name"], *window
    )  # fmt: skip
    assert served.exit_code == 0, served.stderr
    result = json.loads(served.stdout)
    assert result["inputs"]["counters"]["source"] == "telemetry" and result["racks"] == tors
    assert result["series"]["demand_gbps"][0] == pytest.approx([300.0, 10.0, 10.0], rel=1e-3)
    assert result["changes"] and result["changes"][0]["uplinks"][0] > result["initial_uplinks"][0]
    # the names a server rack set carries are fine offline too (the engine does not take them)
    check = planner("--output", "json", "larry", "check", "--uplinks", "1,1,1", "--rack-set", str(rack_set))
    assert check.exit_code == 0 and json.loads(check.stdout)["feasible"]
    offline = planner("larry", "run", "--rack-set", str(rack_set), "--telemetry", fabric["name"], *window)
    assert offline.exit_code == 2 and "needs --server" in offline.stderr
