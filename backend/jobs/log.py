"""A job's log: lines (time, level, message) that its handler and the job framework write while it
runs, read by the job page and `lightpath jobs watch` (GET /api/jobs/{id}/log/).

An entry is one INSERT on the autocommit "progress" connection (settings.DATABASES["progress"]), so
it is seen at once and survives the handler's transaction rolling back and the job failing. Do not
write one while this thread holds the job's row locked FOR UPDATE (`select_for_update()`): the
insert's foreign key check would wait for that lock; FOR NO KEY UPDATE (`no_key=True`) lets it pass.

A job keeps at most MAX_ENTRIES lines of its handler, then one line saying the rest were dropped, so
a chatty handler cannot fill the database. The framework's own lines (`log_event`: started, sent
again, how it ended) have FRAMEWORK_ROOM more, so a full log still says how its job ended. (Two runs
writing at the very same moment may each add one past a bound; a job has one run at a time.)
"""

import logging

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections, transaction

from .models import Job, JobLogEntry

logger = logging.getLogger(__name__)

LOG_DB = "progress"
MAX_ENTRIES = 1000
FRAMEWORK_ROOM = 100
DROPPED = "… further entries dropped: this job's log is full"

Level = JobLogEntry.Level
LEVELS = frozenset(Level.values)

# Counts the job's entries and inserts the line, the "dropped" line once at the bound, or nothing
# past it, in one statement. Nothing is inserted for a job this connection cannot see.
_INSERT = """
    INSERT INTO jobs_joblogentry (job_id, created_at, level, message)
    SELECT job.id, now(),
           CASE WHEN written.n < %(bound)s THEN %(level)s ELSE %(warning)s END,
           CASE WHEN written.n < %(bound)s THEN %(message)s ELSE %(dropped)s END
      FROM jobs_job job,
           LATERAL (SELECT count(*) AS n FROM jobs_joblogentry entry WHERE entry.job_id = job.id) written
     WHERE job.id = %(job)s AND written.n <= %(bound)s
"""


def log(job_id: int, level: str, message: str) -> bool:
    """Add a handler's line to the job's log. False if it was not written: past the bound, the job
    is gone, or the database failed (a log line never fails the job it describes)."""
    return _write(job_id, level, message, MAX_ENTRIES)


def log_event(job_id: int, level: str, message: str) -> bool:
    """Add a line of the job framework (jobs/services.py, jobs/liveness.py) to the job's log."""
    return _write(job_id, level, message, MAX_ENTRIES + FRAMEWORK_ROOM)


def _write(job_id: int, level: str, message: str, bound: int) -> bool:
    if level not in LEVELS:
        raise ValueError(f"unknown log level '{level}'; one of {', '.join(Level.values)}")
    limit = JobLogEntry.MESSAGE_MAX_LENGTH
    text = message if len(message) <= limit else message[: limit - 1] + "…"
    params = {
        "job": job_id,
        "level": level,
        "message": text,
        "bound": bound,
        "warning": Level.WARNING.value,
        "dropped": DROPPED,
    }
    try:
        if _insert(LOG_DB, params):
            return True
        if _job_visible(LOG_DB, job_id):
            return False  # past the bound
        # A job created in a transaction still open on this thread (a test's, or a caller's):
        # the entry joins that transaction, as the job itself does.
        with transaction.atomic(using=DEFAULT_DB_ALIAS):
            return _insert(DEFAULT_DB_ALIAS, params)
    except DatabaseError as exc:
        logger.warning("job %s: could not write its log line %r: %s", job_id, text[:200], exc)
        return False


def _insert(alias: str, params: dict) -> bool:
    with connections[alias].cursor() as cursor:
        cursor.execute(_INSERT, params)
        return cursor.rowcount > 0


def _job_visible(alias: str, job_id: int) -> bool:
    return Job.objects.using(alias).filter(pk=job_id).exists()


def first_line(text: str) -> str:
    """An error's first line (a traceback follows it in Job.error), for a log line."""
    return text.strip().splitlines()[0] if text.strip() else ""
