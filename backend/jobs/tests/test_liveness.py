"""The liveness net of jobs (jobs/liveness.py) on the real database and the real Redis broker,
without a worker: no queue of the test prefix is consumed while these run, so what the net sends
stays in the broker, where the tests look for it. The fault tests with a real worker, beat,
Redis and PostgreSQL restarts are in test_faults.py."""

import datetime as dt
import json

import pytest
from django.utils import timezone

from corruption import optimizer
from jobs import liveness, services
from jobs.models import Job
from lightpath_worker import app as celery_app

pytestmark = pytest.mark.django_db(transaction=True, databases=["default", "progress"])

STALE_S = 60


@pytest.fixture(autouse=True)
def empty_queues(settings):
    settings.JOB_LIVENESS = {"heartbeat_s": 10, "stale_after_s": STALE_S, "max_attempts": 3}
    queues = set(settings.LIGHTPATH_QUEUES.values())

    def purge() -> None:
        with celery_app.connection_for_write() as connection:
            for queue in queues:
                connection.default_channel.queue_purge(queue)

    purge()
    yield
    purge()


def messages(queue: str) -> list[dict]:
    with celery_app.connection_for_read() as connection:
        return [json.loads(raw)["headers"] for raw in connection.default_channel.client.lrange(queue, 0, -1)]


def queued_job_ids(settings, purpose: str = "jobs") -> list[int]:
    return [int(m["argsrepr"].strip("()[],")) for m in messages(settings.LIGHTPATH_QUEUES[purpose])]


def ago(seconds: float) -> dt.datetime:
    return timezone.now() - dt.timedelta(seconds=seconds)


def test_a_job_goes_to_the_queue_of_its_purpose_and_records_when(settings, small_fabric):
    report = services.submit("fabric.capacity_report", fabric=small_fabric)
    optimize = services.submit("corruption.optimize", fabric=small_fabric)
    assert queued_job_ids(settings, "jobs") == [report.pk]
    assert queued_job_ids(settings, "decisions") == [optimize.pk]
    report.refresh_from_db()
    assert report.sent_at is not None and report.state == "queued"
    assert liveness.broker_held_jobs() == {report.pk, optimize.pk}


def test_a_job_never_sent_is_sent_by_the_sweep(settings, small_fabric):
    """As after a submission while the broker was down (test_faults.py stops Redis for real)."""
    job = Job.objects.create(kind="fabric.capacity_report", fabric=small_fabric, created=ago(10))
    Job.objects.filter(pk=job.pk).update(created=ago(10))
    assert liveness.sweep()["unsent"] == 1
    assert queued_job_ids(settings) == [job.pk]
    job.refresh_from_db()
    assert job.sent_at is not None
    assert liveness.sweep()["sent"] == 0


def test_a_queued_job_whose_message_was_lost_is_sent_again_and_one_waiting_is_left_alone(settings, small_fabric):
    waiting = services.submit("fabric.capacity_report", fabric=small_fabric)
    lost = services.submit("fabric.capacity_report", fabric=small_fabric)
    Job.objects.update(sent_at=ago(STALE_S + 5), created=ago(STALE_S + 5))
    with celery_app.connection_for_write() as connection:  # as a Redis restart without persistence would
        raw = connection.default_channel.client.lrange(settings.LIGHTPATH_QUEUES["jobs"], 0, -1)
        for message in raw:
            if json.loads(message)["headers"]["id"].startswith(f"job-{lost.pk}-"):
                connection.default_channel.client.lrem(settings.LIGHTPATH_QUEUES["jobs"], 1, message)
    assert queued_job_ids(settings) == [waiting.pk]
    assert liveness.sweep()["lost_messages"] == 1
    assert sorted(queued_job_ids(settings)) == sorted([waiting.pk, lost.pk])  # no duplicate of the waiting one
    assert liveness.sweep()["sent"] == 0  # sent just now: not again


def test_a_running_job_without_heartbeat_runs_again_then_fails_saying_why(settings, small_fabric):
    job = services.submit("fabric.capacity_report", fabric=small_fabric)
    for attempt in (1, 2, 3):
        Job.objects.filter(pk=job.pk).update(
            state="running", attempts=attempt, heartbeat_at=ago(STALE_S + 1), worker="gone-host:4242"
        )
        liveness.sweep()
        job.refresh_from_db()
        if attempt < 3:
            assert (job.state, job.sent_at is not None) == ("queued", True)
            assert "gone-host:4242 stopped answering" in job.message
    assert job.state == "failed" and job.finished is not None
    assert job.error.startswith("Gave up after 3 attempts: its worker gone-host:4242 stopped answering")
    assert queued_job_ids(settings).count(job.pk) == 3  # submitted, then sent again twice


def test_a_live_run_is_left_alone_and_a_duplicate_message_does_not_run_it_twice(small_fabric):
    job = services.submit("fabric.capacity_report", fabric=small_fabric)
    Job.objects.filter(pk=job.pk).update(state="running", attempts=1, heartbeat_at=timezone.now(), worker="other:1")
    assert liveness.sweep()["lost_runs"] == 0
    assert services.run(job.pk) == "running elsewhere"
    job.refresh_from_db()
    assert (job.state, job.attempts) == ("running", 1)


def test_a_redelivered_run_takes_over_at_once_when_its_process_on_this_host_is_gone(small_fabric):
    job = services.submit("fabric.capacity_report", fabric=small_fabric)
    dead = f"{liveness.worker_name().rpartition(':')[0]}:{2**22 + 17}"  # above pid_max: no such process
    Job.objects.filter(pk=job.pk).update(state="running", attempts=1, heartbeat_at=timezone.now(), worker=dead)
    assert services.run(job.pk) == "succeeded"
    job.refresh_from_db()
    assert job.attempts == 2 and job.result["summary"]["tors"] == 3


def test_cancelling_a_job_whose_worker_is_gone_ends_it(client_for, small_fabric):
    job = services.submit("fabric.capacity_report", fabric=small_fabric)
    Job.objects.filter(pk=job.pk).update(state="running", attempts=1, heartbeat_at=ago(STALE_S + 1), worker="h:9")
    response = client_for("operator").post(f"/api/jobs/{job.pk}/cancel/")
    assert response.status_code == 200
    assert (response.json()["state"], response.json()["message"]) == ("cancelled", "cancelled; its worker h:9 was gone")
    alive = services.submit("fabric.capacity_report", fabric=small_fabric)
    Job.objects.filter(pk=alive.pk).update(state="running", attempts=1, heartbeat_at=timezone.now(), worker="h:9")
    assert client_for("operator").post(f"/api/jobs/{alive.pk}/cancel/").json()["state"] == "running"  # stops itself


def test_an_optimizer_trigger_revives_a_queued_job_whose_message_was_lost(settings, small_fabric):
    first = optimizer.submit_coalesced(small_fabric.pk, "a link enabled")
    assert queued_job_ids(settings, "decisions") == [first.pk]
    with celery_app.connection_for_write() as connection:
        connection.default_channel.queue_purge(settings.LIGHTPATH_QUEUES["decisions"])
    Job.objects.filter(pk=first.pk).update(sent_at=ago(STALE_S + 1))
    joined = optimizer.submit_coalesced(small_fabric.pk, "a constraint changed")
    assert joined.pk == first.pk and joined.params["reasons"] == ["a link enabled", "a constraint changed"]
    assert queued_job_ids(settings, "decisions") == [first.pk]  # sent again as it was joined
    again = optimizer.submit_coalesced(small_fabric.pk, "another link enabled")
    assert again.pk == first.pk and queued_job_ids(settings, "decisions") == [first.pk]  # alive: joined only


def test_a_run_the_net_gave_up_stops_at_its_next_progress_report(small_fabric):
    """A worker frozen past the timeout (a paused VM) comes back after its job ran again elsewhere:
    its progress reports must not fight the new run's, and it stops."""
    job = services.submit("fabric.capacity_report", fabric=small_fabric)
    Job.objects.filter(pk=job.pk).update(state="running", attempts=1, heartbeat_at=timezone.now(), worker="old:1")
    job.refresh_from_db()
    context = services.JobContext(job)
    context.progress(0.1, "working")
    Job.objects.filter(pk=job.pk).update(attempts=2, worker="new:2", progress=0.05, message="the new run")
    with pytest.raises(services.JobSuperseded):
        context.progress(0.2, "still working")
    job.refresh_from_db()
    assert (job.worker, job.progress, job.message) == ("new:2", 0.05, "the new run")
