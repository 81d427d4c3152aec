"""Task flows through a real Celery worker process on the real Redis broker."""

import time

import pytest

from fabric.models import Fabric
from jobs import services
from jobs.models import Job
from lightpath_fixtures.generators import fb_fabric

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True, databases=["default", "progress"])]


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
    # The 100K-link fabric: its links take seconds to write, so a cancellation requested once
    # progress shows them being written lands well before the import could finish.
    document = fb_fabric(261, seed=1, name="big-cancelled")
    job = services.submit("fabric.import", params={"document": document})
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if job.state == "running" and 0.1 <= job.progress < 0.7:
            break  # progress is visible while the import transaction is still open
        assert job.state in ("queued", "running"), (job.state, job.error)
        time.sleep(0.02)
    services.cancel(job)
    job = wait_for(job, set(Job.TERMINAL_STATES), timeout=120)
    assert job.state == "cancelled"
    assert not Fabric.objects.filter(name="big-cancelled").exists()


def test_background_import_through_the_api(worker, client_for, small_document):
    response = client_for("planner").post("/api/fabrics/import/?background=1", small_document, format="json")
    assert response.status_code == 202
    job = wait_for(Job.objects.get(pk=response.json()["id"]), set(Job.TERMINAL_STATES))
    assert job.state == "succeeded", job.error
    assert Fabric.objects.get(name="small").links.count() == 14
