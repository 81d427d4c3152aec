"""`lightpath jobs watch --log` and `jobs log`: a job's log lines, from the real backend and a real
Celery worker running the job."""

from __future__ import annotations

import json
import os
from typing import Any

import httpx
import pytest
from cli_testing import FIXTURE_DATA, Cli, import_file

if not os.environ.get("DJANGO_SETTINGS_MODULE"):
    pytest.skip("needs the backend's Django settings: run pytest from the repository root", allow_module_level=True)

pytestmark = pytest.mark.django_db(transaction=True, databases="__all__")


@pytest.mark.integration
def test_watch_prints_the_log_lines_as_they_come_and_log_lists_them(
    planner: Cli, planner_api: httpx.Client, worker: Any
) -> None:
    fabric = import_file(planner, FIXTURE_DATA / "demo-fb.json")
    response = planner_api.post("/api/jobs/", json={"kind": "fabric.capacity_report", "fabric": fabric["id"]})
    assert response.status_code == 202, response.text
    job_id = response.json()["id"]

    watched = planner("jobs", "watch", str(job_id), "--log", "--interval", "0.1", "--output", "json")
    assert watched.exit_code == 0, watched.stderr
    assert json.loads(watched.stdout)["state"] == "succeeded"  # stdout is the job, as without --log
    stderr = watched.stderr.splitlines()
    log_lines = [line for line in stderr if not line.startswith(f"job {job_id} ")]
    # time (2026-11-26 16:22 UTC, as the UI shows it), level, message; each line once, in order; the job's end before its last progress line
    assert [line[21:] for line in log_lines[:2]] == [
        f"info    started on worker {_worker_of(job_id)} (attempt 1)",
        "info    counting the up-paths of fabric 'demo-fb'",
    ]
    assert log_lines[0][:20] == _minute(planner.json("jobs", "show", str(job_id))["started"])
    assert "info    32 ToRs, 1 below the capacity constraint" in [line[21:] for line in log_lines]
    summary = "32 ToRs, 1 below the capacity constraint"  # what was done (#20: it said only "done")
    assert log_lines[-1][21:].startswith("info    succeeded in ") and log_lines[-1].endswith(f" s: {summary}")
    assert len(set(log_lines)) == len(log_lines)
    assert stderr[-1] == f"job {job_id} fabric.capacity_report succeeded 100% {summary}"

    entries = planner.json("jobs", "log", str(job_id))
    assert [list(entry) for entry in entries] == [["id", "created_at", "level", "message"]] * len(log_lines)
    assert [entry["message"] for entry in entries] == [line[29:] for line in log_lines]
    table = planner("jobs", "log", str(job_id)).stdout
    assert "counting the up-paths of fabric 'demo-fb'" in table and "Level" in table


def test_log_of_an_unknown_job(planner: Cli) -> None:
    result = planner("jobs", "log", "999999999")
    assert (result.exit_code, result.stderr) == (1, "error: job 999999999 not found\n")


def _worker_of(job_id: int) -> str:
    from jobs.models import Job

    return Job.objects.get(pk=job_id).worker


def _minute(iso: str) -> str:
    return iso[:16].replace("T", " ") + " UTC"
