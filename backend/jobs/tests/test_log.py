"""A job's log (jobs/log.py): lines its handler and the job framework write, on the real database
and broker, read through GET /api/jobs/{id}/log/."""

import datetime as dt
import threading
import time
from contextlib import contextmanager

import pytest
from django.db import connections, transaction
from django.utils import timezone

from jobs import liveness, services
from jobs.log import DROPPED, MAX_ENTRIES, log
from jobs.models import Job
from jobs.registry import KINDS, job_kind
from lightpath_worker import app as celery_app

pytestmark = pytest.mark.django_db(transaction=True, databases=["default", "progress"])


@pytest.fixture(autouse=True)
def empty_queues(settings):
    """What the runs and the sweep send stays in this test run's queues (no worker reads them)."""

    def purge() -> None:
        with celery_app.connection_for_write() as connection:
            for queue in set(settings.LIGHTPATH_QUEUES.values()):
                connection.default_channel.queue_purge(queue)

    purge()
    yield
    purge()


@contextmanager
def temporary_kind(handler):
    """A job kind whose handler the test writes, registered as apps register theirs."""
    job_kind("tests.log", title="A test job", roles={"viewer"}, description="a test's job", needs_fabric=False)(handler)
    try:
        yield "tests.log"
    finally:
        del KINDS["tests.log"]


def lines(job) -> list[tuple[str, str]]:
    return [(e.level, e.message) for e in job.log_entries.order_by("id")]


def test_a_handlers_lines_survive_its_rollback_and_the_failure():
    def handler(job, ctx):
        ctx.info("read 3 rows")
        with transaction.atomic():
            Job.objects.filter(pk=job.pk).update(message="half-way")
            ctx.warning("inside the transaction")
            raise RuntimeError("boom\nsecond line")

    with temporary_kind(handler) as kind:
        job = services.submit(kind)
        assert services.run(job.pk) == "failed"
    job.refresh_from_db()
    assert job.message == "failed" and "second line" in job.error  # the handler's transaction rolled back
    assert lines(job) == [
        ("info", f"started on worker {liveness.worker_name()} (attempt 1)"),
        ("info", "read 3 rows"),
        ("warning", "inside the transaction"),
        ("error", "failed: RuntimeError: boom"),  # one line; the traceback stays in the job's error
    ]
    assert all(entry.created_at >= job.started for entry in job.log_entries.all())


def test_a_step_says_how_long_it_took_and_success_says_the_duration():
    def handler(job, ctx):
        with ctx.step("asking the engine for 12 links"):
            pass
        return {"rows": 12}

    with temporary_kind(handler) as kind:
        job = services.submit(kind)
        assert services.run(job.pk) == "succeeded"
    (_, step), (_, step_done), (level, done) = lines(job)[1:]
    assert step == "asking the engine for 12 links"
    assert step_done.startswith("asking the engine for 12 links: done in ") and step_done.endswith(" s")
    # No summary: the duration alone, no bare "done".
    assert level == "info" and done.startswith("succeeded in ") and done.endswith(" s")


def test_a_chatty_handler_is_bounded_and_its_end_is_still_logged():
    def handler(job, ctx):
        for i in range(MAX_ENTRIES + 20):
            ctx.debug(f"row {i}")
        return {}

    with temporary_kind(handler) as kind:
        job = services.submit(kind)
        assert services.run(job.pk) == "succeeded"
    written = lines(job)
    assert len(written) == MAX_ENTRIES + 2  # the bound, the "dropped" line, and how the job ended
    assert written[-2] == ("warning", DROPPED)
    assert written[-3] == ("debug", f"row {MAX_ENTRIES - 2}")  # 1 framework line + 999 of the handler's
    assert written[-1][1].startswith("succeeded in ")


def test_long_messages_are_cut_and_unknown_levels_refused():
    job = Job.objects.create(kind="fabric.capacity_report")
    assert log(job.pk, "info", "x" * 5000)
    (entry,) = job.log_entries.all()
    assert len(entry.message) == 2000 and entry.message.endswith("…")
    with pytest.raises(ValueError, match="unknown log level 'loud'"):
        log(job.pk, "loud", "hello")
    assert not log(job.pk + 1000, "info", "a job that does not exist")


def test_cancellation_is_logged(small_fabric, make_user):
    queued = services.submit("fabric.capacity_report", fabric=small_fabric)
    services.cancel(queued)
    services.cancel(queued)  # again: nothing changes, nothing is logged
    assert lines(queued) == [("info", "cancelled before it started")]

    def handler(job, ctx):
        services.cancel(job)  # as a user would while it runs
        ctx.progress(0.5, "checkpoint")

    with temporary_kind(handler) as kind:
        running = services.submit(kind)
        assert services.run(running.pk) == "cancelled"
    assert lines(running)[1:] == [
        ("info", "cancel requested; it stops at its next checkpoint"),
        ("info", "cancelled at a checkpoint"),
    ]


def test_a_cancel_request_is_logged_before_the_run_stops_on_it():
    """The run checks the flag in its own thread; the request's line must come first even when the
    run sees the flag at once after the cancel's commit (here: while the commit's other callbacks
    still run)."""
    started = threading.Event()

    def handler(job, ctx):
        started.set()
        for _ in range(3000):
            ctx.progress(0.5, "working")
            time.sleep(0.005)
        return {}

    with temporary_kind(handler) as kind:
        job = services.submit(kind)
        runner = threading.Thread(target=lambda: services.run(job.pk))
        runner.start()
        try:
            assert started.wait(10)
            with transaction.atomic():
                transaction.on_commit(lambda: time.sleep(0.5))  # the run sees the flag meanwhile
                services.cancel(job)
        finally:
            runner.join(30)
            connections.close_all()
    assert Job.objects.get(pk=job.pk).state == Job.State.CANCELLED
    assert lines(job)[1:] == [
        ("info", "cancel requested; it stops at its next checkpoint"),
        ("info", "cancelled at a checkpoint"),
    ]


def test_a_superseded_run_says_it_stopped():
    def handler(job, ctx):
        Job.objects.filter(pk=job.pk).update(worker="elsewhere:1")  # the sweep gave the job to another run
        ctx.progress(0.5, "checkpoint")

    with temporary_kind(handler) as kind:
        job = services.submit(kind)
        assert services.run(job.pk) == "superseded"
    assert lines(job)[-1] == (
        "warning",
        f"the run on worker {liveness.worker_name()} stopped: another run holds the job, or it ended",
    )


def test_the_liveness_net_says_what_it_did(settings, small_fabric):
    settings.JOB_LIVENESS = {"heartbeat_s": 10, "stale_after_s": 60, "max_attempts": 2}
    job = services.submit("fabric.capacity_report", fabric=small_fabric)
    long_ago = timezone.now() - dt.timedelta(seconds=120)
    Job.objects.filter(pk=job.pk).update(state="running", attempts=1, worker="gone-host:1", heartbeat_at=long_ago)
    liveness.sweep()
    (level, message), *_ = lines(job)
    assert level == "warning"
    assert message.startswith("attempt 1 was lost and the job queued again: its worker gone-host:1 stopped answering")
    assert services.run(job.pk) == "succeeded"
    assert lines(job)[1] == ("info", f"started on worker {liveness.worker_name()} (attempt 2)")
    # A redelivered message (acks_late) finds the job still running on a lost worker: it takes over.
    redelivered = services.submit("fabric.capacity_report", fabric=small_fabric)
    Job.objects.filter(pk=redelivered.pk).update(
        state="running", attempts=1, worker="gone-host:3", heartbeat_at=long_ago
    )
    assert services.run(redelivered.pk) == "succeeded"
    assert lines(redelivered)[0] == (
        "warning",
        f"started on worker {liveness.worker_name()} (attempt 2); the worker of the previous run, gone-host:3, was lost",
    )
    # The message of a queued job never reached the broker: the sweep sends it and says so.
    unsent = Job.objects.create(kind="fabric.capacity_report", fabric=small_fabric)
    Job.objects.filter(pk=unsent.pk).update(created=long_ago)
    liveness.sweep()
    assert lines(unsent) == [("warning", "sent again by the liveness sweep: its message never reached the broker")]
    # A run lost at its last attempt fails the job and says why.
    Job.objects.filter(pk=unsent.pk).update(state="running", attempts=2, worker="gone-host:2", heartbeat_at=long_ago)
    liveness.sweep()
    assert lines(unsent)[-1][0] == "error" and lines(unsent)[-1][1].startswith("Gave up after 2 attempts: its worker")


def test_the_log_endpoint(client_for, anonymous, small_fabric):
    job = services.submit("fabric.capacity_report", fabric=small_fabric)
    assert services.run(job.pk) == "succeeded"
    url = f"/api/jobs/{job.pk}/log/"
    assert anonymous.get(url).status_code in (401, 403)
    viewer = client_for("viewer")
    response = viewer.get(url)
    assert response.status_code == 200
    entries = response.json()
    assert [e["level"] for e in entries] == ["info"] * len(entries)
    assert entries[0]["message"].startswith("started on worker") and entries[-1]["message"].startswith("succeeded")
    assert set(entries[0]) == {"id", "created_at", "level", "message"}
    # Incremental reads: only what came after the last entry read, and at most `limit`.
    assert viewer.get(url, {"after": entries[-1]["id"]}).json() == []
    assert viewer.get(url, {"after": entries[0]["id"], "limit": 1}).json() == [entries[1]]
    bad = viewer.get(url, {"after": "x", "limit": MAX_ENTRIES + 1})
    assert bad.status_code == 400 and set(bad.json()) == {"after", "limit"}
    assert viewer.get(f"/api/jobs/{job.pk + 1000}/log/").status_code == 404
    assert viewer.get(f"/api/jobs/{job.pk}/").json()["state"] == "succeeded"  # the detail is unchanged


def test_an_import_and_a_capacity_report_log_their_steps(small_document):
    imported = services.submit("fabric.import", params={"document": small_document})
    assert services.run(imported.pk) == "succeeded"
    messages = [message for _, message in lines(imported)]
    assert "document 'small': 9 switches, 14 links" in messages
    assert any(m.startswith("validating and writing the fabric: done in ") for m in messages)
    report = services.submit("fabric.capacity_report", fabric=Job.objects.get(pk=imported.pk).fabric)
    assert services.run(report.pk) == "succeeded"
    messages = [message for _, message in lines(report)]
    assert any(m.startswith("counting the up-paths of fabric 'small': done in ") for m in messages)
    assert "3 ToRs, 0 below the capacity constraint" in messages
