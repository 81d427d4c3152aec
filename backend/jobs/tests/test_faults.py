"""Jobs and decisions survive faults (issue #16): a real Celery worker and Celery beat (which runs
the liveness net every second here), the real Redis and PostgreSQL of the dev stack, and the
faults as they happen in operation:

- the worker's main process SIGKILLed in the middle of an optimizer run (the stack script or the
  container runtime starts a new worker);
- Redis restarted with a job queued, and Redis down while people change links and start jobs;
- PostgreSQL stopped and started in the middle of an optimizer run (meanwhile the API answers 503
  with Retry-After, not 500).

After each, every job ends `succeeded` (none stays queued or running), the decisions are those of
one run, and the optimizer runs for the fabric afterwards. The worker pauses 0.15 s after each
progress report (corruption/tests/paused_worker.py), so a fault lands while the optimizer is half
applied inside its transaction. The liveness timeouts are short here (heartbeat 0.5 s, stale after
4 s); the defaults (10 s, 60 s) only change how long the net waits.
"""

import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connections
from django.utils import timezone
from rest_framework.test import APIClient

from corruption import optimizer
from corruption.models import Decision
from fabric import services as fabric_services
from fabric.models import Link
from jobs import services
from jobs.models import Job
from lightpath.tests.workers import Worker, purge
from lightpath_fixtures.generators import fat_tree
from telemetry.models import CorruptionEvent

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True, databases=["default", "progress"])]

DEVSTACK = Path(settings.REPO_ROOT) / "backend" / "scripts" / "devstack.sh"
LIVENESS_ENV = {
    "LIGHTPATH_JOB_HEARTBEAT_S": "0.5",
    "LIGHTPATH_JOB_STALE_AFTER_S": "4",
    "LIGHTPATH_LIVENESS_SWEEP_S": "1",
}
CORRUPTING = 60


class Stack:
    """The worker and beat processes of one test, started and stopped as the test's faults need."""

    def __init__(self, tmp_path: Path):
        self.tmp_path = tmp_path
        self.env = {**os.environ, **LIVENESS_ENV, "LIGHTPATH_DB_NAME": connections["default"].settings_dict["NAME"]}
        self.queues = sorted(set(settings.LIGHTPATH_QUEUES.values()))
        self.workers: list[subprocess.Popen] = []
        self.beat: subprocess.Popen | None = None
        self.log = tmp_path / "worker.log"
        self.started = 0

    def start_worker(self) -> subprocess.Popen:
        self.started += 1
        env = {**LIVENESS_ENV, "LIGHTPATH_TEST_PROGRESS_PAUSE_S": "0.15"}
        started = Worker.start(
            self.queues, self.log, name=f"faults-{self.started}", env=env, pool="prefork", paused=True
        )
        self.workers.append(started.process)
        return started.process

    def start_beat(self) -> None:
        with (self.tmp_path / "beat.log").open("ab") as out:
            self.beat = subprocess.Popen(
                [sys.executable, "-m", "celery", "--workdir", str(settings.BACKEND_DIR), "-A", "lightpath_worker",
                 "beat", "--schedule", str(self.tmp_path / "beat-schedule"), "--loglevel", "INFO"],
                env=self.env, stdout=out, stderr=subprocess.STDOUT,
            )  # fmt: skip

    def stop(self) -> None:
        for process in [*self.workers, *([self.beat] if self.beat else [])]:
            if process.poll() is None:
                process.terminate()
        for process in [*self.workers, *([self.beat] if self.beat else [])]:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()

    def tail(self) -> str:
        return self.log.read_text()[-4000:] if self.log.exists() else ""


def purge_queues() -> None:
    purge(settings.LIGHTPATH_QUEUES.values())


@pytest.fixture
def stack(tmp_path, settings):
    settings.JOB_LIVENESS = {"heartbeat_s": 0.5, "stale_after_s": 4, "max_attempts": 3}
    purge_queues()
    stack = Stack(tmp_path)
    yield stack
    stack.stop()
    devstack("start")  # whatever a failed test left stopped
    connections.close_all()
    purge_queues()


def devstack(*args: str) -> None:
    subprocess.run(["bash", str(DEVSTACK), *args], check=True, capture_output=True, timeout=120)


def wait_for(job: Job, condition: Callable[[Job], bool], what: str, stack: Stack, timeout: float = 120) -> Job:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if condition(job):
            return job
        assert job.state in ("queued", "running"), (job.state, job.message, job.error)
        time.sleep(0.05)
    raise AssertionError(f"{what}: job {job.pk} {job.state} {job.progress:.2f} {job.message}\n{stack.tail()}")


def corrupting_fabric():
    """A k=8 fat tree with 60 corrupting links the fast checker kept (as under a stricter
    constraint than today's): the optimizer applies about 30 of them, one progress report (and a
    0.15 s pause) each, so a run lasts about 5 s. Being decided, the events are left alone by the
    net that re-sends lost fast-checker decisions."""
    fabric = fabric_services.import_document({**fat_tree(8), "capacity_constraint": 0.75})
    links = list(Link.objects.filter(fabric=fabric).order_by("id"))
    now = timezone.now()
    for n, link in enumerate(links[:: len(links) // CORRUPTING][:CORRUPTING]):
        rate = 1e-6 * (1 + n % 17)
        event = CorruptionEvent.objects.create(
            link=link, direction="a_to_z", rate=rate, last_rate=rate, peak_rate=rate, first_seen=now, last_seen=now
        )
        Decision.objects.create(
            fabric=fabric, link=link, event=event, kind="fast_checker", action="kept", loss_rate_a_to_z=rate,
            penalty=rate, engine_ms=0.1,
        )  # fmt: skip
    return fabric


def assert_one_consistent_run(fabric, job: Job) -> None:
    decisions = list(Decision.objects.filter(fabric=fabric, kind="optimizer"))
    assert {d.job_id for d in decisions} == {job.pk}
    assert set(Counter(d.link_id for d in decisions).values()) == {1}  # the lost run left nothing behind
    disabled = {d.link_id for d in decisions if d.action == "disabled"}
    assert disabled == {row["link"] for row in job.result["disabled"]} and disabled
    assert fabric_services.fabric_capacity(fabric)["summary"]["below_constraint"] == 0


def assert_nothing_stranded() -> None:
    stranded = list(Job.objects.filter(state__in=["queued", "running"]).values_list("pk", "kind", "state"))
    assert stranded == []


def assert_the_optimizer_runs_again(fabric, stack: Stack) -> None:
    job = optimizer.submit_coalesced(fabric.pk, "after the fault")
    job = wait_for(job, lambda j: j.state == "succeeded", "the next optimizer run", stack, timeout=60)
    assert job.attempts == 1


def half_applied(job: Job) -> bool:
    return job.state == "running" and job.message.startswith("applying") and job.progress > 0.5


def test_sigkill_of_the_worker_main_process_mid_job(stack):
    fabric = corrupting_fabric()
    stack.start_beat()
    first = stack.start_worker()
    job = optimizer.submit_coalesced(fabric.pk, "corrupting links")
    wait_for(job, half_applied, "half applied", stack)
    first.send_signal(signal.SIGKILL)  # the main process: its pool process is orphaned
    first.wait(timeout=10)
    stack.start_worker()  # as run-stack.sh or the container runtime does

    job = wait_for(job, lambda j: j.state == "succeeded", "run to the end after the kill", stack)
    assert 1 <= job.attempts <= 3
    assert_one_consistent_run(fabric, job)
    assert_the_optimizer_runs_again(fabric, stack)
    assert_nothing_stranded()


def test_redis_restarted_with_a_job_queued_and_down_while_people_work(stack, client_for, make_user):
    fabric = corrupting_fabric()
    operator = client_for("operator")
    # Queued while no worker runs, then Redis restarts: the message survives (append-only file).
    queued = services.submit("fabric.capacity_report", fabric=fabric)
    devstack("restart", "redis")

    # Redis down: writes answer their 2xx, and what they had to send waits in the database.
    devstack("stop", "redis")
    link = Link.objects.filter(fabric=fabric, a_switch__tier=0).order_by("id").first()
    started = time.monotonic()
    response = operator.patch(f"/api/links/{link.pk}/", {"admin_state": "disabled", "admin_reason": "optics swap"})
    assert response.status_code == 200, response.content
    response = operator.patch(f"/api/links/{link.pk}/", {"admin_state": "enabled"})
    assert response.status_code == 200, response.content  # enabling queues the optimizer
    response = operator.post("/api/jobs/", {"kind": "fabric.capacity_report", "fabric": fabric.pk}, format="json")
    assert response.status_code == 202, response.content
    during = Job.objects.get(pk=response.json()["id"])
    optimize = Job.objects.get(kind="corruption.optimize", fabric=fabric)
    assert (optimize.state, optimize.sent_at, during.sent_at) == ("queued", None, None)
    assert time.monotonic() - started < 15  # each write gave up on the broker within about a second
    # People can still log in (the login throttle's counts live in Redis: it lets them through).
    make_user("operator", "olga")
    login = APIClient().post("/api/auth/token/", {"username": "olga", "password": "pw-for-tests-only"})
    assert login.status_code == 200 and login.json()["token"]
    # A later trigger joins the job that will run, not a dead one.
    assert optimizer.submit_coalesced(fabric.pk, "a constraint changed").pk == optimize.pk

    devstack("start", "redis")
    stack.start_beat()
    stack.start_worker()
    for job in (queued, during, optimize):
        job = wait_for(job, lambda j: j.state == "succeeded", f"{job.kind} after the outage", stack)
        assert job.attempts == 1
    optimize.refresh_from_db()
    assert optimize.params["reasons"][-1] == "a constraint changed"
    assert_one_consistent_run(fabric, optimize)
    assert Link.objects.get(pk=link.pk).admin_state in ("enabled", "disabled")  # the optimizer may take it
    assert_the_optimizer_runs_again(fabric, stack)
    assert_nothing_stranded()


def test_postgresql_restarted_mid_job(stack, make_user):
    fabric = corrupting_fabric()
    operator = APIClient()
    operator.force_authenticate(make_user("operator"))
    stack.start_beat()
    stack.start_worker()
    job = optimizer.submit_coalesced(fabric.pk, "corrupting links")
    wait_for(job, half_applied, "half applied", stack)
    connections.close_all()
    devstack("stop", "postgresql")  # fast shutdown: every session is cut
    response = operator.get("/api/jobs/")
    assert response.status_code == 503 and response["Retry-After"] == "5", response.content
    assert "try again" in response.json()["detail"]
    devstack("start", "postgresql")
    connections.close_all()

    job = wait_for(job, lambda j: j.state == "succeeded", "run to the end after the restart", stack)
    assert job.attempts == 2, (job.attempts, job.message)
    assert_one_consistent_run(fabric, job)
    assert_the_optimizer_runs_again(fabric, stack)
    assert_nothing_stranded()
