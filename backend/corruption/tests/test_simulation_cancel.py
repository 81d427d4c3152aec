"""A what-if simulation cancelled through a real Celery worker stops in the middle of its engine run.

Its own module: the worker fixture lives for a module, and the other simulation tests run their
jobs in-process.
"""

import time

import pytest
from django.utils import timezone

from fabric import services as fabric_services
from jobs import services
from jobs.models import Job
from lightpath_fixtures.generators import fb_fabric

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True, databases=["default", "progress"])]

# One engine run of several seconds: CorrOpt alone, one constraint and accuracy, on 3,072 links
# with a dense month of onsets (about 44,000; after each repair the optimizer re-decides).
LONG_RUN = {
    "constraints": [0.75],
    "accuracies": [0.8],
    "policies": ["corropt"],
    "trace": {"source": "generated", "hours": 720, "mttf_hours": 50, "seed": 0},
}


def poll_until(job: Job, done, timeout: float = 120) -> tuple[Job, float]:
    """Refreshes `job` until `done(job)`; returns it with the monotonic time it was seen so."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if done(job):
            return job, time.monotonic()
        assert job.state in (Job.State.QUEUED, Job.State.RUNNING), (job.state, job.error)
        time.sleep(0.02)
    raise AssertionError(f"job stayed {job.state} ({job.progress:.3f} {job.message})")


def test_a_cancelled_simulation_stops_mid_run_and_keeps_its_progress(worker):
    fabric = fabric_services.import_document(fb_fabric(8, name="sim-cancel"))
    job = services.submit("corruption.simulate", fabric=fabric, params=LONG_RUN)
    # Past the first repairs (48 h, 7% of the window), the run keeps a steady pace; its own pace
    # says how long the rest of it would take.
    job, first_seen = poll_until(job, lambda j: j.state == Job.State.RUNNING and j.progress >= 0.1)
    first = job.progress
    job, second_seen = poll_until(job, lambda j: j.progress >= first + 0.05)
    progress_at_cancel = job.progress
    rate = (progress_at_cancel - first) / (second_seen - first_seen)
    rest_of_run_s = (1.0 - progress_at_cancel) / rate

    services.cancel(job)
    cancelled = timezone.now()
    job, _ = poll_until(job, lambda j: j.state in Job.TERMINAL_STATES)

    assert job.state == Job.State.CANCELLED, job.error
    # It stopped at its next report, not at the end of the run (which cancelled it before).
    stopped_after_s = (job.finished - cancelled).total_seconds()
    assert stopped_after_s < rest_of_run_s / 4, (stopped_after_s, rest_of_run_s)
    # The progress it had made is kept, not reset and not completed.
    assert progress_at_cancel <= job.progress < 0.5
    assert job.message == "cancelled" and job.result is None
