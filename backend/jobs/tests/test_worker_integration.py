"""Task flows through a real Celery worker process on the real Redis broker."""

import os
import socket
import subprocess
import sys
import time

import pytest
from django.conf import settings
from django.db import connections

from fabric.models import Fabric
from jobs import services
from jobs.models import Job
from lightpath_fixtures.generators import fb_fabric
from lightpath_worker import app as celery_app

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True, databases=["default", "progress"])]


@pytest.fixture(scope="session")
def worker(django_db_setup, tmp_path_factory):
    """A worker on the test database and the test queue, as a separate process."""
    queue = settings.CELERY_TASK_DEFAULT_QUEUE
    env = {**os.environ, "LIGHTPATH_DB_NAME": connections["default"].settings_dict["NAME"], "LIGHTPATH_QUEUE": queue}
    log = tmp_path_factory.mktemp("worker") / "worker.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "--workdir", str(settings.BACKEND_DIR), "-A", "lightpath_worker", "worker",
             "--queues", queue, "--concurrency", "1", "--loglevel", "INFO", "--hostname", f"test-{os.getpid()}@%h"],
            env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    deadline = time.monotonic() + 60
    while not celery_app.control.ping(timeout=0.5, destination=[f"test-{os.getpid()}@{socket.gethostname()}"]):
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"the Celery worker did not start:\n{log.read_text()}")
    yield process
    process.terminate()
    process.wait(timeout=30)


def wait_for(job: Job, states: set[str], timeout: float = 60) -> Job:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if job.state in states:
            return job
        time.sleep(0.1)
    raise AssertionError(f"job stayed {job.state} ({job.progress:.2f} {job.message})")


def test_capacity_report_through_the_worker(worker, small_fabric):
    job = services.submit("fabric.capacity_report", fabric=small_fabric)
    job = wait_for(job, set(Job.TERMINAL_STATES))
    assert job.state == "succeeded", job.error
    assert job.result["summary"]["tors"] == 3
    assert job.started is not None and job.finished >= job.started


def test_import_reports_progress_and_cancel_rolls_back(worker):
    # ~38K links: several write batches, so the worker reports progress between them
    document = fb_fabric(100, seed=1, name="big-cancelled")
    job = services.submit("fabric.import", params={"document": document})
    seen = set()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        job.refresh_from_db()
        seen.add(round(job.progress, 2))
        if job.state == "running" and 0.1 <= job.progress < 0.5:
            break
        assert job.state in ("queued", "running"), (job.state, job.error)
        time.sleep(0.02)
    services.cancel(job)
    job = wait_for(job, set(Job.TERMINAL_STATES), timeout=120)
    assert job.state == "cancelled"
    assert len(seen) >= 2  # progress was visible while the import transaction was open
    assert not Fabric.objects.filter(name="big-cancelled").exists()


def test_background_import_through_the_api(worker, client_for, small_document):
    response = client_for("planner").post("/api/fabrics/import/?background=1", small_document, format="json")
    assert response.status_code == 202
    job = wait_for(Job.objects.get(pk=response.json()["id"]), set(Job.TERMINAL_STATES))
    assert job.state == "succeeded", job.error
    assert Fabric.objects.get(name="small").links.count() == 14
