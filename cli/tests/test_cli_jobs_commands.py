"""Background imports and `jobs list|watch|cancel` against the real backend and a real Celery worker.

The jobs are real: submitted through the API, run by the session's worker (root conftest.py) on the
test queue and database, cancelled through POST /api/jobs/ID/cancel/. To keep a job running (or
queued behind a running one) for exactly as long as a test needs, another transaction holds the
name the job imports (HeldName). Ctrl-C is the one thing simulated: the CLI's wait between polls
raises KeyboardInterrupt, while the job really runs.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from cli_testing import FIXTURE_DATA, JOB_KEYS, Cli, import_file, wait_until

from lightpath_cli.server import follow as follow_module

if not os.environ.get("DJANGO_SETTINGS_MODULE"):
    pytest.skip("needs the backend's Django settings: run pytest from the repository root", allow_module_level=True)

pytestmark = pytest.mark.django_db(transaction=True, databases="__all__")

BAD_ROWS = [
    "  links[6].b: links must join adjacent tiers; these ends are on tiers 0 and 2",
    "  links[7].b: unknown switch 'p0-fab9'",
    "  links[8].a_port: port p0-tor1:eth2/1 is already used by link 2",
]


def job_row(job_id: int) -> Any:
    """The job as the database has it now."""
    from jobs.models import Job

    return Job.objects.get(pk=job_id)


def submit_job(api: httpx.Client, body: dict[str, Any]) -> int:
    response = api.post("/api/jobs/", json=body)
    assert response.status_code == 202, response.text
    job_id: int = response.json()["id"]
    return job_id


def start_detached(cli: Cli, path: Path, *extra: str) -> int:
    """`fabric import --background --detach`: the job's id."""
    result = cli("--output", "json", "fabric", "import", str(path), "--background", "--detach", *extra)
    assert result.exit_code == 0, result.stderr
    job_id: int = json.loads(result.stdout)["id"]
    return job_id


def wait_for_state(job_id: int, *states: str) -> Any:
    return wait_until(lambda: job_row(job_id).state in states, what=f"job {job_id} to be {' or '.join(states)}")


def wait_until_blocked(job_id: int) -> None:
    """The import has validated its document and waits on the held name (it reports nothing else first)."""
    wait_until(lambda: job_row(job_id).progress >= 0.05, what=f"job {job_id} to validate its document")


class HeldName:
    """Another database transaction that has inserted a fabric with this name and not committed.

    An import of the same name passes validation (it cannot see the row), starts writing, and waits
    on the unique index: a real job that stays `running` for as long as the test needs. release()
    rolls the row back and the import carries on.
    """

    def __init__(self, name: str) -> None:
        from django.db import connection

        from fabric.models import Fabric

        self._connection = connection.get_new_connection(connection.get_connection_params())
        table = connection.ops.quote_name(Fabric._meta.db_table)
        with self._connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {table} (name, description, tiers, capacity_constraint, created, updated) "  # noqa: S608
                "VALUES (%s, '', %s, 0.75, now(), now())",
                [name, ["leaf", "spine"]],
            )

    def release(self) -> None:
        self._connection.rollback()

    def close(self) -> None:
        self._connection.rollback()
        self._connection.close()


@pytest.fixture
def hold_fabric_name() -> Iterator[Callable[[str], HeldName]]:
    held: list[HeldName] = []

    def hold(name: str) -> HeldName:
        held.append(HeldName(name))
        return held[-1]

    yield hold
    # Before the database is flushed: the flush would wait for these transactions.
    for each in held:
        each.close()


def interrupt(seconds: float) -> None:
    """Ctrl-C during the CLI's wait between two polls."""
    raise KeyboardInterrupt


def test_background_import_of_an_invalid_document_is_rejected_before_any_job(planner: Cli) -> None:
    path = str(FIXTURE_DATA / "bad-fabric.json")
    result = planner("fabric", "import", path, "--background")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [f"error: import of {path} rejected: 3 errors", *BAD_ROWS]
    assert planner.json("jobs", "list") == []


def test_jobs_watch_unknown_job(planner: Cli) -> None:
    result = planner("jobs", "watch", "999999999")
    assert result.exit_code == 1
    assert result.stderr == "error: job 999999999 not found\n"


@pytest.mark.integration
def test_background_import_watches_the_job(planner: Cli, worker: Any) -> None:
    result = planner("fabric", "import", str(FIXTURE_DATA / "demo-fb.json"), "--background", "--interval", "0.1")
    assert result.exit_code == 0, result.stderr
    (job,) = planner.json("jobs", "list", "--kind", "fabric.import")
    assert (job["state"], job["progress"], job["created_by"]) == ("succeeded", 1.0, "cli-planner")
    assert result.stdout == f"Imported fabric demo-fb (id {job['fabric']}): 64 switches, 192 links\n"
    # One line per change of the job, the last one its end.
    progress = result.stderr.splitlines()
    assert all(line.startswith(f"job {job['id']} fabric.import ") for line in progress)
    # The job's message says what was done (#20: it said only "done").
    assert progress[-1] == f"job {job['id']} fabric.import succeeded 100% fabric 'demo-fb' imported"


@pytest.mark.integration
def test_background_import_detached(planner: Cli, worker: Any) -> None:
    result = planner(
        "--output", "json", "fabric", "import", str(FIXTURE_DATA / "demo-fb.json"), "--background", "--detach"
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    job = json.loads(result.stdout)
    assert list(job) == JOB_KEYS
    assert job["kind"] == "fabric.import" and job["state"] in ("queued", "running")
    assert result.stderr == f"import running as job {job['id']}: `lightpath jobs watch {job['id']}`\n"

    watched = planner("jobs", "watch", str(job["id"]), "--interval", "0.1", "--output", "json")
    assert watched.exit_code == 0, watched.stderr
    final = json.loads(watched.stdout)
    assert final["state"] == "succeeded"
    assert final["fabric"] == planner.json("fabric", "show", "demo-fb")["id"]


@pytest.mark.integration
def test_jobs_watch_a_job_that_succeeds(planner: Cli, planner_api: httpx.Client, worker: Any) -> None:
    fabric = import_file(planner, FIXTURE_DATA / "demo-fb.json")
    job_id = submit_job(planner_api, {"kind": "fabric.capacity_report", "fabric": fabric["id"]})
    result = planner("jobs", "watch", str(job_id), "--interval", "0.1", "--output", "json")
    assert result.exit_code == 0, result.stderr
    job = json.loads(result.stdout)
    assert (job["state"], job["kind"], job["fabric"]) == ("succeeded", "fabric.capacity_report", fabric["id"])
    assert job["result"]["summary"] == {"tors": 32, "below_constraint": 1, "min_fraction": 0.5}
    assert result.stderr.splitlines()[-1] == (
        f"job {job_id} fabric.capacity_report succeeded 100% 32 ToRs, 1 below the capacity constraint"
    )


@pytest.mark.integration
def test_jobs_show_says_how_many_runs_a_job_took_and_on_which_worker(
    planner: Cli, planner_api: httpx.Client, worker: Any
) -> None:
    fabric = import_file(planner, FIXTURE_DATA / "fat-tree-k4.json")
    job_id = submit_job(planner_api, {"kind": "fabric.capacity_report", "fabric": fabric["id"]})
    wait_for_state(job_id, "succeeded")
    shown = planner.json("jobs", "show", str(job_id))
    assert shown["attempts"] == 1 and shown["worker"] == job_row(job_id).worker and shown["heartbeat_at"]
    table = planner("jobs", "show", str(job_id)).stdout
    assert "Attempts" in table and shown["worker"] in table


@pytest.mark.integration
def test_jobs_watch_an_import_that_fails_in_the_worker(planner: Cli, planner_api: httpx.Client, worker: Any) -> None:
    # The import endpoint checks a document before queuing it; a job submitted directly is not, so
    # the worker finds the errors and fails the job with every row in its result.
    document = json.loads((FIXTURE_DATA / "bad-fabric.json").read_text())
    job_id = submit_job(planner_api, {"kind": "fabric.import", "params": {"document": document}})
    result = planner("jobs", "watch", str(job_id), "--interval", "0.1", "--output", "json")
    assert result.exit_code == 1
    job = json.loads(result.stdout)
    assert (job["state"], job["error"]) == ("failed", "the document has 3 problem(s)")
    assert [row["index"] for row in job["result"]["errors"]] == [6, 7, 8]
    assert result.stderr.endswith(
        f"error: job {job_id} failed: the document has 3 problem(s)\n" + "\n".join(BAD_ROWS) + "\n"
    )
    assert planner.json("fabric", "list") == []


@pytest.mark.integration
def test_jobs_list_filters_and_shape(planner: Cli, planner_api: httpx.Client, worker: Any) -> None:
    fat_tree = import_file(planner, FIXTURE_DATA / "fat-tree-k4.json")
    leaf_spine = import_file(planner, FIXTURE_DATA / "leaf-spine-4x2.json")
    report_fat_tree = submit_job(planner_api, {"kind": "fabric.capacity_report", "fabric": fat_tree["id"]})
    report_leaf_spine = submit_job(planner_api, {"kind": "fabric.capacity_report", "fabric": leaf_spine["id"]})
    document = json.loads((FIXTURE_DATA / "bad-fabric.json").read_text())
    bad_import = submit_job(planner_api, {"kind": "fabric.import", "params": {"document": document}})
    for job_id in (report_fat_tree, report_leaf_spine, bad_import):
        wait_for_state(job_id, "succeeded", "failed")

    failed = planner.json("jobs", "list", "--state", "failed", "--kind", "fabric.import")
    assert [job["id"] for job in failed] == [bad_import]
    # The server's params, url... are left out, and a list has no results.
    assert list(failed[0]) == [key for key in JOB_KEYS if key != "result"]
    assert (failed[0]["created_by"], failed[0]["fabric"]) == ("cli-planner", None)

    of_fat_tree = planner.json("jobs", "list", "--kind", "fabric.capacity_report", "--fabric", "fat-tree-k4")
    assert [job["id"] for job in of_fat_tree] == [report_fat_tree]
    # Newest first, as the server orders them.
    assert [job["id"] for job in planner.json("jobs", "list", "--state", "succeeded")] == [
        report_leaf_spine,
        report_fat_tree,
    ]
    assert [job["id"] for job in planner.json("jobs", "list", "--limit", "1")] == [bad_import]

    table = planner("jobs", "list")
    assert table.exit_code == 0, table.stderr
    assert "fabric.capacity_report" in table.stdout and "fabric.import" in table.stdout
    assert "100%" in table.stdout and "failed" in table.stdout
    assert planner("jobs", "list", "--state", "exploded").exit_code == 2


@pytest.mark.integration
def test_ctrl_c_detaches_unless_asked_to_cancel(
    planner: Cli, worker: Any, hold_fabric_name: Callable[[str], HeldName], monkeypatch: pytest.MonkeyPatch
) -> None:
    held = hold_fabric_name("demo-fb")
    job_id = start_detached(planner, FIXTURE_DATA / "demo-fb.json")
    wait_until_blocked(job_id)

    with monkeypatch.context() as patch:
        patch.setattr(follow_module, "_sleep", interrupt)
        detached = planner("jobs", "watch", str(job_id))
        assert detached.exit_code == 130
        assert detached.stderr.splitlines() == [
            f"job {job_id} fabric.import running 5% validated 64 switches and 192 links",
            f"detached from job {job_id}; it keeps running (follow it with `lightpath jobs watch {job_id}`)",
        ]
        job = job_row(job_id)
        assert (job.state, job.cancel_requested) == ("running", False)

        cancelling = planner("jobs", "watch", str(job_id), "--cancel-on-interrupt")
        assert cancelling.exit_code == 130
        # A running job stops at its next progress report.
        assert cancelling.stderr.splitlines()[-1] == (
            f"interrupted: asked the server to cancel job {job_id} (state now running)"
        )
        job = job_row(job_id)
        assert (job.state, job.cancel_requested) == ("running", True)

    held.release()
    # Followed to its end, a cancelled job exits 1.
    ended = planner("jobs", "watch", str(job_id), "--interval", "0.1", "--output", "json")
    assert ended.exit_code == 1
    assert json.loads(ended.stdout)["state"] == "cancelled"
    assert ended.stderr.endswith(f"error: job {job_id} cancelled: cancelled\n")
    assert planner.json("fabric", "list") == []  # the import was rolled back


@pytest.mark.integration
def test_queued_jobs_cancelled_and_failing_while_the_worker_is_busy(
    planner: Cli, worker: Any, hold_fabric_name: Callable[[str], HeldName], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The first import waits on the held name and keeps the only worker process busy, so the jobs
    # submitted after it stay queued.
    held = hold_fabric_name("demo-fb")
    first = start_detached(planner, FIXTURE_DATA / "demo-fb.json")
    wait_until_blocked(first)
    leaf_spine = start_detached(planner, FIXTURE_DATA / "leaf-spine-4x2.json")
    assert job_row(leaf_spine).state == "queued"

    cancelled = planner.json("jobs", "cancel", str(leaf_spine))
    assert (cancelled["state"], cancelled["message"]) == ("cancelled", "cancelled before it started")
    watched = planner("jobs", "watch", str(leaf_spine), "--output", "json")
    assert watched.exit_code == 1
    assert json.loads(watched.stdout)["state"] == "cancelled"
    assert watched.stderr.endswith(f"error: job {leaf_spine} cancelled: cancelled before it started\n")

    # demo-fb is still free when the server checks this second document, so it is queued. While the
    # CLI follows it, the name is released: the first import takes it, and this one fails.
    def release_then_wait(seconds: float) -> None:
        held.release()
        time.sleep(seconds)

    monkeypatch.setattr(follow_module, "_sleep", release_then_wait)
    second = planner("fabric", "import", str(FIXTURE_DATA / "demo-fb.json"), "--background", "--interval", "0.1")
    assert second.exit_code == 1
    assert second.stdout == ""
    (failed,) = planner.json("jobs", "list", "--state", "failed")
    assert second.stderr.endswith(
        f"error: job {failed['id']} failed: the document has 1 problem(s)\n"
        "  fabric.name: a fabric named 'demo-fb' already exists\n"
    )

    done = planner("jobs", "watch", str(first), "--output", "json")
    assert done.exit_code == 0, done.stderr
    assert json.loads(done.stdout)["fabric"] == planner.json("fabric", "show", "demo-fb")["id"]
    assert [row["name"] for row in planner.json("fabric", "list")] == ["demo-fb"]

    # Cancelling a job that already ended changes nothing and says so.
    late = planner("jobs", "cancel", str(first), "--output", "json")
    assert late.exit_code == 0, late.stderr
    assert json.loads(late.stdout)["state"] == "succeeded"
    assert late.stderr == f"note: job {first} had already ended (succeeded); nothing to cancel\n"
