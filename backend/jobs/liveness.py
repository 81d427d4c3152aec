"""The liveness net of jobs: no job stays `queued` or `running` after its message or its worker
was lost (README "Workers, queues and faults").

- A running job's worker writes `heartbeat_at` every `heartbeat_s` from a thread beside the
  handler (a long engine call reports no progress for minutes, but it releases the GIL).
- `sweep` (the beat task `jobs.sweep`, every 30 s on the decisions queue) sends again:
  - a running job whose heartbeat is older than `stale_after_s` (its worker was killed, or died on
    a lost database), as a new attempt, and fails it saying why after `max_attempts` runs;
  - a queued job never handed to the broker (the broker was down when it was submitted);
  - a queued job sent longer than `stale_after_s` ago whose message no queue holds any more (a
    Redis restart without persistence lost it). A job that waits its turn is left alone.
- A duplicate message is harmless: `services.run` skips a job that another live worker runs.

The timeouts are `settings.JOB_LIVENESS`; a stranded job is found within stale_after_s plus one
sweep interval (90 s with the defaults).
"""

import json
import logging
import os
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connections, transaction
from django.utils import timezone

from lightpath import dispatch
from lightpath_worker import app as celery_app

from .log import log_event
from .models import Job
from .registry import KINDS

logger = logging.getLogger(__name__)

RUN_TASK = "jobs.run_job"
TASK_ID_PREFIX = "job-"
PROGRESS_DB = "progress"  # an autocommit connection: beats are seen while the handler's transaction is open
_HOST = socket.gethostname()


def config() -> dict:
    return settings.JOB_LIVENESS


def worker_name() -> str:
    """host:pid of this process, recorded on the job it runs."""
    return f"{_HOST}:{os.getpid()}"


def queue_of(job: Job) -> str:
    kind = KINDS.get(job.kind)
    return settings.LIGHTPATH_QUEUES[kind.purpose if kind else "jobs"]


def send(job: Job) -> bool:
    """Hand the job's run to the broker; record when it got there. False if the broker is down
    (the job stays queued with `sent_at` empty and the next sweep sends it)."""
    task_id = f"{TASK_ID_PREFIX}{job.pk}-{os.urandom(6).hex()}"
    if not dispatch.send(RUN_TASK, [job.pk], queue=queue_of(job), task_id=task_id):
        return False
    Job.objects.filter(pk=job.pk, state=Job.State.QUEUED).update(sent_at=timezone.now())
    return True


def is_alive(job: Job, now: datetime | None = None) -> bool:
    """Whether a running job's worker still works on it: a recent heartbeat and, when the worker is
    on this host, its process still exists (so a redelivery after a killed process takes over at
    once instead of waiting for the heartbeat to go stale)."""
    now = now or timezone.now()
    if job.heartbeat_at is None or job.heartbeat_at < now - timedelta(seconds=config()["stale_after_s"]):
        return False
    host, _, pid = job.worker.rpartition(":")
    if host == _HOST and pid.isdigit():
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            return False
        except PermissionError:  # exists, owned by another user
            return True
    return True


def requeue_or_fail(job_id: int, why: str, *, run_by: str | None = None) -> str:
    """A run that was lost: queue the job again as a new attempt, or fail it once it had
    `max_attempts` runs. A job whose cancellation was requested is cancelled instead. With
    `run_by`, only if that run still holds the job. Returns the job's state."""
    with transaction.atomic():
        job = Job.objects.select_for_update().get(pk=job_id)
        if job.is_terminal or (run_by is not None and (job.state != Job.State.RUNNING or job.worker != run_by)):
            return job.state
        now = timezone.now()
        if job.cancel_requested:
            job.state, job.finished, job.message = Job.State.CANCELLED, now, f"cancelled ({why})"
        elif job.attempts >= config()["max_attempts"]:
            job.state, job.finished, job.message = Job.State.FAILED, now, "failed: its worker was lost"
            job.error = f"Gave up after {job.attempts} attempts: {why}."
        else:
            job.state, job.message, job.sent_at = Job.State.QUEUED, f"queued again: {why}"[:200], None
        job.save(update_fields=["state", "finished", "message", "error", "sent_at"])
        if job.state == Job.State.QUEUED:
            transaction.on_commit(lambda: send(job))
        entry = {
            Job.State.CANCELLED: ("info", job.message),
            Job.State.FAILED: ("error", job.error),
            Job.State.QUEUED: ("warning", f"attempt {job.attempts} was lost and the job queued again: {why}"),
        }[job.state]
        transaction.on_commit(lambda: log_event(job.pk, *entry))  # after the row lock is released
    logger.warning("job %s (%s, attempt %s): %s -> %s", job.pk, job.kind, job.attempts, why, job.state)
    return job.state


def sweep(now: datetime | None = None) -> dict:
    """One pass of the net (see the module docstring). Returns what it did, for the task's log."""
    now = now or timezone.now()
    stale = now - timedelta(seconds=config()["stale_after_s"])
    lost_runs = 0
    running = Job.objects.filter(state=Job.State.RUNNING).only("pk", "heartbeat_at", "worker", "started")
    for job in running:
        if not is_alive(job, now):
            beat = job.heartbeat_at.isoformat(timespec="seconds") if job.heartbeat_at else "never"
            requeue_or_fail(job.pk, f"its worker {job.worker or '?'} stopped answering (last heartbeat {beat})")
            lost_runs += 1
    # A job is sent on commit; give that a moment before calling it unsent.
    queued = Job.objects.filter(state=Job.State.QUEUED, created__lt=now - timedelta(seconds=5))
    unsent = list(queued.filter(sent_at__isnull=True))
    waiting = list(queued.filter(sent_at__lt=stale))
    held = broker_held_jobs() if waiting else set()
    lost_messages = [job for job in waiting if job.pk not in held]
    resent = 0
    for why, jobs in (("never reached the broker", unsent), ("was lost from the broker", lost_messages)):
        for job in jobs:
            if send(job):
                resent += 1
                log_event(job.pk, "warning", f"sent again by the liveness sweep: its message {why}")
    return {"lost_runs": lost_runs, "unsent": len(unsent), "lost_messages": len(lost_messages), "sent": resent}


def is_waiting_in_broker(job: Job, now: datetime | None = None) -> bool:
    """Whether a queued job will reach a worker without help: sent recently, or its message is
    still in a queue."""
    if job.sent_at is None:
        return False
    if job.sent_at >= (now or timezone.now()) - timedelta(seconds=config()["stale_after_s"]):
        return True
    return job.pk in broker_held_jobs()


def broker_held_jobs() -> set[int]:
    """Ids of the jobs whose run message waits in a queue of the broker (Redis lists; a message a
    worker took but has not finished is not counted: if the worker is gone, so is the run). With a
    broker other than Redis every waiting job counts as lost: a duplicate message is harmless."""
    held: set[int] = set()
    try:
        with celery_app.connection_for_read() as connection:
            client = getattr(connection.default_channel, "client", None)
            if client is None or not hasattr(client, "lrange"):
                return held
            for queue in set(settings.LIGHTPATH_QUEUES.values()):
                for raw in client.lrange(queue, 0, -1):
                    task_id = json.loads(raw).get("headers", {}).get("id", "")
                    if task_id.startswith(TASK_ID_PREFIX):
                        held.add(int(task_id[len(TASK_ID_PREFIX) :].split("-")[0]))
    except Exception as exc:  # the broker is down: nothing can be sent either
        logger.warning("could not read the broker's queues: %s", exc)
    return held


@contextmanager
def heartbeat(job_id: int) -> Iterator[None]:
    """Write the job's heartbeat every `heartbeat_s` while the block runs (a daemon thread with its
    own database connection; a failed beat, say while PostgreSQL restarts, is retried next time)."""
    stop = threading.Event()
    me = worker_name()

    def beat() -> None:
        try:
            while not stop.wait(config()["heartbeat_s"]):
                try:
                    Job.objects.using(PROGRESS_DB).filter(pk=job_id, worker=me, state=Job.State.RUNNING).update(
                        heartbeat_at=timezone.now()
                    )
                except Exception as exc:
                    logger.warning("job %s: heartbeat failed (%s); retrying", job_id, exc)
                    connections[PROGRESS_DB].close()
        finally:
            connections[PROGRESS_DB].close()

    thread = threading.Thread(target=beat, name=f"job-{job_id}-heartbeat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=5)
