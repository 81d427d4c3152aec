from django.conf import settings
from django.db import models


class Job(models.Model):
    """State, progress, log and result of one background computation (a Celery task)."""

    class State(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        SUCCEEDED = "succeeded"
        FAILED = "failed"
        CANCELLED = "cancelled"

    TERMINAL_STATES = (State.SUCCEEDED, State.FAILED, State.CANCELLED)

    kind = models.CharField(max_length=64, db_index=True)
    state = models.CharField(max_length=10, choices=State.choices, default=State.QUEUED, db_index=True)
    progress = models.FloatField(default=0.0)
    message = models.CharField(max_length=200, blank=True)
    params = models.JSONField(default=dict, blank=True)
    result = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True)
    fabric = models.ForeignKey("fabric.Fabric", null=True, blank=True, on_delete=models.SET_NULL, related_name="jobs")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)
    cancel_requested = models.BooleanField(default=False)
    attempts = models.PositiveSmallIntegerField(default=0, help_text="Runs started; above 1 after a worker was lost.")
    # The liveness net (jobs/liveness.py) reads these three.
    sent_at = models.DateTimeField(
        null=True, blank=True, help_text="When its message last reached the broker; empty while the broker was down."
    )
    heartbeat_at = models.DateTimeField(
        null=True, blank=True, help_text="Last sign of life of the worker running it (every few seconds)."
    )
    worker = models.CharField(max_length=200, blank=True, help_text="host:pid of the process that runs (or ran) it.")

    class Meta:
        ordering = ["-created", "-id"]
        indexes = [
            # The liveness net scans the unfinished jobs every half minute.
            models.Index(fields=["state"], name="job_unfinished", condition=models.Q(state__in=["queued", "running"])),
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} ({self.state})"

    @property
    def is_terminal(self) -> bool:
        return self.state in self.TERMINAL_STATES


class JobLogEntry(models.Model):
    """One line of a job's log (time, level, message): what its handler and the job framework
    say while it runs, for the job page and `lightpath jobs watch`. Written by jobs/log.py."""

    class Level(models.TextChoices):
        DEBUG = "debug"
        INFO = "info"
        WARNING = "warning"
        ERROR = "error"

    MESSAGE_MAX_LENGTH = 2000

    # The (job, id) index below serves the foreign key too.
    job = models.ForeignKey(Job, on_delete=models.CASCADE, related_name="log_entries", db_index=False)
    created_at = models.DateTimeField(auto_now_add=True)
    level = models.CharField(max_length=7, choices=Level.choices, default=Level.INFO)
    message = models.CharField(max_length=MESSAGE_MAX_LENGTH)

    class Meta:
        ordering = ["job", "id"]
        indexes = [
            # A job's log is read in order and incrementally (?after=<id>) and counted on every write.
            models.Index(fields=["job", "id"], name="job_log_entry_job_id"),
        ]

    def __str__(self) -> str:
        return f"job {self.job_id} {self.level}: {self.message[:60]}"
