import logging
import time
import traceback
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import InterfaceError, OperationalError, close_old_connections, transaction
from django.utils import timezone

from . import liveness
from .log import first_line, log_event
from .log import log as write_log
from .models import Job
from .registry import KINDS

logger = logging.getLogger(__name__)

# Progress goes through a second connection in autocommit so that it is visible while the
# handler holds a long transaction open (settings.DATABASES["progress"]).
PROGRESS_DB = liveness.PROGRESS_DB


class JobCancelled(Exception):
    pass


class JobSuperseded(Exception):
    """This run no longer owns its job (see JobContext.progress)."""


class UnknownJob(Exception):
    pass


class JobFailed(Exception):
    """Raised by a handler to fail its job with a clear message and, optionally, a result
    that explains the failure (for instance every error of an invalid document)."""

    def __init__(self, message: str, result: dict | None = None):
        super().__init__(message)
        self.result = result


class JobContext:
    """What a handler sees: a progress reporter that also notices cancellation."""

    def __init__(self, job: Job):
        self.job = job

    def progress(self, fraction: float, message: str = "") -> None:
        fraction = min(max(fraction, 0.0), 1.0)
        jobs = Job.objects.using(PROGRESS_DB).filter(pk=self.job.pk)
        mine = jobs.filter(worker=self.job.worker).exclude(state__in=Job.TERMINAL_STATES)
        if not mine.update(progress=fraction, message=message[:200], heartbeat_at=timezone.now()) and jobs.exists():
            # The liveness net gave this run up (its worker looked dead: a frozen VM, a stall) and
            # another run has claimed the job, or it ended: stop instead of competing with it. (A
            # job this connection cannot see, uncommitted in a test's transaction, is not judged.)
            raise JobSuperseded()
        if jobs.filter(cancel_requested=True).exists():
            raise JobCancelled()

    def log(self, level: str, message: str) -> None:
        """A line in the job's log for whoever waits on it (jobs/log.py): what was read, what the
        engine was asked and how long it took, what was written."""
        write_log(self.job.pk, level, message)

    def debug(self, message: str) -> None:
        self.log("debug", message)

    def info(self, message: str) -> None:
        self.log("info", message)

    def warning(self, message: str) -> None:
        self.log("warning", message)

    def error(self, message: str) -> None:
        self.log("error", message)

    @contextmanager
    def step(self, message: str) -> Iterator[None]:
        """Log a step when it starts and, if it ends without an error, how long it took (an error
        is the framework's line: "failed: ...")."""
        self.info(message)
        began = time.monotonic()
        yield
        self.info(f"{message}: done in {time.monotonic() - began:.1f} s")


def submit(kind: str, *, user=None, fabric=None, params: dict | None = None) -> Job:
    """Create a queued job and hand it to its queue once the transaction commits. With the broker
    down the job is created all the same and the liveness net sends it later."""
    if kind not in KINDS:
        raise UnknownJob(kind)
    job = Job.objects.create(kind=kind, fabric=fabric, params=params or {}, created_by=user)
    transaction.on_commit(lambda: liveness.send(job))
    return job


def cancel(job: Job) -> Job:
    """A queued job is cancelled at once, and so is a running one whose worker is gone; a live
    one stops at its next progress report."""
    with transaction.atomic():
        # FOR NO KEY UPDATE: a log line's foreign-key check (FOR KEY SHARE) does not wait for it, so
        # "cancel requested" is written before the flag commits, hence before the worker can see
        # the flag and log that it stopped (after the commit it could come second).
        job = Job.objects.select_for_update(no_key=True).get(pk=job.pk)
        if job.state == Job.State.QUEUED:
            job.state = Job.State.CANCELLED
            job.finished = timezone.now()
            job.message = "cancelled before it started"
            _log_on_commit(job.pk, "info", job.message)
        elif job.state == Job.State.RUNNING and not liveness.is_alive(job):
            job.state = Job.State.CANCELLED
            job.finished = timezone.now()
            job.message = f"cancelled; its worker {job.worker or '?'} was gone"
            _log_on_commit(job.pk, "info", job.message)
        elif not job.is_terminal and not job.cancel_requested:
            log_event(job.pk, "info", "cancel requested; it stops at its next checkpoint")
        if not job.is_terminal:
            job.cancel_requested = True
        job.save()
    return job


def run(job_id: int) -> str:
    """Run a job's handler and record its outcome. Safe to call again for the same job: a job
    that another live worker runs is left to it; one whose worker was lost runs again (a new
    attempt, at most JOB_LIVENESS["max_attempts"])."""
    with transaction.atomic():
        job = Job.objects.select_for_update().filter(pk=job_id).first()
        if job is None:
            return "missing"
        if job.is_terminal:
            return job.state
        if job.cancel_requested:
            job.state, job.finished = Job.State.CANCELLED, timezone.now()
            job.save()
            _log_on_commit(job.pk, "info", "cancelled before this run started")
            return job.state
        if job.state == Job.State.RUNNING and liveness.is_alive(job):
            return "running elsewhere"  # a duplicate message
        lost = job.state == Job.State.RUNNING
        if lost and job.attempts >= liveness.config()["max_attempts"]:
            job.state, job.finished, job.message = Job.State.FAILED, timezone.now(), "failed: its worker was lost"
            job.error = f"Gave up after {job.attempts} attempts: its worker {job.worker or '?'} was lost each time."
            job.save()
            _log_on_commit(job.pk, "error", job.error)
            return job.state
        lost_worker = job.worker or "?"
        job.state = Job.State.RUNNING
        job.started = job.heartbeat_at = timezone.now()
        job.worker = liveness.worker_name()
        job.attempts += 1
        job.progress, job.error = 0.0, ""
        job.message = f"started again (attempt {job.attempts}): its worker was lost" if lost else "started"
        job.save()
        started = f"started on worker {job.worker} (attempt {job.attempts})"
        if lost:
            _log_on_commit(job.pk, "warning", f"{started}; the worker of the previous run, {lost_worker}, was lost")
        else:
            _log_on_commit(job.pk, "info", started)
    kind = KINDS.get(job.kind)
    try:
        if kind is None:
            raise UnknownJob(f"unknown job kind '{job.kind}'")
        with liveness.heartbeat(job.pk):
            result = kind.handler(job, JobContext(job))
        summary = kind.summary(result) if kind.summary else ""
    except (OperationalError, InterfaceError) as exc:
        # The database went away mid-run (a restart, a failover): not the job's fault. Run it
        # again; if the database is still away, the heartbeat stops and the sweep does it later.
        close_old_connections()
        logger.warning("job %s lost its database connection: %s", job.pk, exc)
        try:
            why = f"the database connection was lost ({type(exc).__name__})"
            return liveness.requeue_or_fail(job.pk, why, run_by=job.worker)
        except (OperationalError, InterfaceError):
            return "lost"
    except JobSuperseded:
        logger.warning("job %s: this run (%s) was superseded; stopping it", job.pk, job.worker)
        log_event(job.pk, "warning", f"the run on worker {job.worker} stopped: another run holds the job, or it ended")
        return "superseded"
    except JobCancelled:
        _finish(job, Job.State.CANCELLED, ("info", "cancelled at a checkpoint"), message="cancelled")
    except JobFailed as exc:
        _finish(
            job,
            Job.State.FAILED,
            ("error", f"failed: {first_line(str(exc))}"),
            error=str(exc),
            result=exc.result,
            message="failed",
        )
    except Exception as exc:  # a failed job records why; the worker stays up
        error = f"{type(exc).__name__}: {exc}"
        _finish(
            job,
            Job.State.FAILED,
            ("error", f"failed: {first_line(error)}"),
            error=f"{error}\n{traceback.format_exc(limit=5)}",
            message="failed",
        )
    else:
        late = Job.objects.filter(pk=job.pk, cancel_requested=True).exists()
        if late:
            cancel_late = "the cancel request came after its last checkpoint"
            message = f"{summary} ({cancel_late})" if summary else cancel_late
        else:
            message = summary
        seconds = (timezone.now() - job.started).total_seconds()
        done = ("info", f"succeeded in {seconds:.1f} s" + (f": {message}" if message else ""))
        _finish(job, Job.State.SUCCEEDED, done, result=result, progress=1.0, message=message)
    return Job.objects.values_list("state", flat=True).get(pk=job_id)


def _finish(job: Job, state: str, entry: tuple[str, str], **fields) -> None:
    # Only the run that owns the job records its end (and logs it): a run the sweep gave up on
    # (its heartbeat went stale) may have been started again elsewhere.
    if Job.objects.filter(pk=job.pk, state=Job.State.RUNNING, worker=job.worker).update(
        state=state, finished=timezone.now(), **fields
    ):
        log_event(job.pk, *entry)


def _log_on_commit(job_id: int, level: str, message: str) -> None:
    # The entry's insert checks its foreign key, which waits for the job row this transaction locks.
    transaction.on_commit(lambda: log_event(job_id, level, message))
