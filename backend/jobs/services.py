import traceback

from django.db import transaction
from django.utils import timezone

from .models import Job
from .registry import KINDS

# Progress goes through a second connection in autocommit so that it is visible while the
# handler holds a long transaction open (settings.DATABASES["progress"]).
PROGRESS_DB = "progress"


class JobCancelled(Exception):
    pass


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
        jobs.update(progress=fraction, message=message[:200])
        if jobs.filter(cancel_requested=True).exists():
            raise JobCancelled()


def submit(kind: str, *, user=None, fabric=None, params: dict | None = None) -> Job:
    """Create a queued job and hand it to a worker once the transaction commits."""
    if kind not in KINDS:
        raise UnknownJob(kind)
    job = Job.objects.create(kind=kind, fabric=fabric, params=params or {}, created_by=user)
    from .tasks import run_job  # here, not at the top: tasks imports this module

    transaction.on_commit(lambda: run_job.delay(job.pk))
    return job


def cancel(job: Job) -> Job:
    """A queued job is cancelled at once; a running one stops at its next progress report."""
    with transaction.atomic():
        job = Job.objects.select_for_update().get(pk=job.pk)
        if job.state == Job.State.QUEUED:
            job.state = Job.State.CANCELLED
            job.finished = timezone.now()
            job.message = "cancelled before it started"
        if not job.is_terminal:
            job.cancel_requested = True
        job.save()
    return job


def run(job_id: int) -> str:
    """Run a job's handler and record its outcome. Safe to call again for the same job."""
    with transaction.atomic():
        job = Job.objects.select_for_update().filter(pk=job_id).first()
        if job is None:
            return "missing"
        if job.is_terminal:
            return job.state
        if job.cancel_requested:
            job.state, job.finished = Job.State.CANCELLED, timezone.now()
            job.save()
            return job.state
        job.state = Job.State.RUNNING
        job.started = timezone.now()
        job.attempts += 1
        job.progress, job.message, job.error = 0.0, "started", ""
        job.save()
    kind = KINDS.get(job.kind)
    try:
        if kind is None:
            raise UnknownJob(f"unknown job kind '{job.kind}'")
        result = kind.handler(job, JobContext(job))
        summary = kind.summary(result) if kind.summary else "done"
    except JobCancelled:
        _finish(job, Job.State.CANCELLED, message="cancelled")
    except JobFailed as exc:
        _finish(job, Job.State.FAILED, error=str(exc), result=exc.result, message="failed")
    except Exception as exc:  # a failed job records why; the worker stays up
        _finish(
            job,
            Job.State.FAILED,
            error=f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=5)}",
            message="failed",
        )
    else:
        late = Job.objects.filter(pk=job.pk, cancel_requested=True).exists()
        message = f"{summary} (the cancel request came after its last checkpoint)" if late else summary
        _finish(job, Job.State.SUCCEEDED, result=result, progress=1.0, message=message)
    return Job.objects.values_list("state", flat=True).get(pk=job_id)


def _finish(job: Job, state: str, **fields) -> None:
    Job.objects.filter(pk=job.pk).update(state=state, finished=timezone.now(), **fields)
