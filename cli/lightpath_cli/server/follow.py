"""Following a server job to its end: polling /api/jobs/ID/, progress on stderr (a bar on a terminal,
one line per change otherwise), its log lines as they come, and Ctrl-C (detach, or cancel first).

`lightpath jobs watch` and every command that starts a job (server/jobs.py's `run_job`, domain
endpoints answering with a job) follow it here.
"""

from __future__ import annotations

import time
from typing import Any

import typer
from rich.progress import BarColumn, Progress, SpinnerColumn, TaskProgressColumn, TextColumn, TimeElapsedColumn

from ..errors import CliError
from ..output import stderr_console, timestamp
from .client import ApiClient
from .errors import ApiError, rejected, validation_messages

TERMINAL_STATES = frozenset({"succeeded", "failed", "cancelled"})
INTERRUPTED_EXIT_CODE = 130  # the shell's code for Ctrl-C
# Indirection so tests can replace the wait between polls.
_sleep = time.sleep


def fetch_job(client: ApiClient, job_id: int) -> dict[str, Any]:
    job: dict[str, Any] = client.get(f"/api/jobs/{job_id}/")
    return job


def get_job(client: ApiClient, job_id: int) -> dict[str, Any]:
    """fetch_job, with a missing job as one line: `job N not found`."""
    try:
        return fetch_job(client, job_id)
    except ApiError as error:
        if error.status == 404:
            raise CliError(f"job {job_id} not found") from error
        raise


def progress_percent(progress: Any) -> str:
    return "-" if progress is None else f"{float(progress) * 100:.0f}%"


def describe_job(job: dict[str, Any]) -> str:
    described = f"job {job.get('id')} {job.get('kind') or ''} {job.get('state')}".replace("  ", " ")
    attempts = job.get("attempts") or 0
    return f"{described} (attempt {attempts}: its worker was lost before)" if attempts > 1 else described


def log_line(entry: dict[str, Any]) -> str:
    """One entry of a job's log as `watch --log` prints it: time, level, message."""
    return f"{timestamp(entry.get('created_at'))} {entry.get('level') or '-':<7} {entry.get('message') or ''}"


class JobLogReader:
    """Reads a job's log entries that came since the last read (GET /api/jobs/ID/log/?after=)."""

    def __init__(self, client: ApiClient, job_id: int):
        self.client, self.job_id, self.after = client, job_id, 0

    def new_entries(self) -> list[dict[str, Any]]:
        entries: list[dict[str, Any]] = self.client.get(f"/api/jobs/{self.job_id}/log/", {"after": self.after})
        if entries:
            self.after = int(entries[-1]["id"])
        return entries


def _watch_with_bar(
    client: ApiClient, job: dict[str, Any], interval: float, log: JobLogReader | None = None
) -> dict[str, Any]:
    columns = (
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        TaskProgressColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[message]}"),
    )
    with Progress(*columns, console=stderr_console(), transient=False) as bar:
        task = bar.add_task(describe_job(job), total=1.0, completed=0, message="")
        while True:
            for entry in log.new_entries() if log else ():
                bar.console.print(log_line(entry), markup=False, highlight=False)  # above the bar
            bar.update(
                task,
                description=describe_job(job),
                completed=float(job.get("progress") or 0.0),
                message=job.get("message") or "",
            )
            if job.get("state") in TERMINAL_STATES:
                return job
            _sleep(interval)
            job = fetch_job(client, int(job["id"]))


def _watch_with_lines(
    client: ApiClient, job: dict[str, Any], interval: float, log: JobLogReader | None = None
) -> dict[str, Any]:
    # Off a terminal (CI logs, pipes) a redrawn bar is noise: print a line whenever something changes.
    last_line = None
    while True:
        for entry in log.new_entries() if log else ():
            typer.echo(log_line(entry), err=True)
        line = f"{describe_job(job)} {progress_percent(job.get('progress'))} {job.get('message') or ''}".rstrip()
        if line != last_line:
            typer.echo(line, err=True)
            last_line = line
        if job.get("state") in TERMINAL_STATES:
            return job
        _sleep(interval)
        job = fetch_job(client, int(job["id"]))


def watch_job(
    client: ApiClient, job_id: int, *, interval: float, cancel_on_interrupt: bool, show_log: bool = False
) -> dict[str, Any]:
    """Poll /api/jobs/ID/ until the job ends, drawing progress on stderr; returns the final job.
    With show_log, the job's new log lines are printed on stderr as they come.

    Ctrl-C detaches (exit 130) and leaves the job running, or with cancel_on_interrupt asks the
    server to cancel it first.
    """
    job = get_job(client, job_id)
    log = JobLogReader(client, job_id) if show_log else None
    try:
        if stderr_console().is_terminal:
            return _watch_with_bar(client, job, interval, log)
        return _watch_with_lines(client, job, interval, log)
    except KeyboardInterrupt:
        if cancel_on_interrupt:
            cancelled = client.post(f"/api/jobs/{job_id}/cancel/")
            state = cancelled.get("state") if isinstance(cancelled, dict) else None
            typer.echo(f"interrupted: asked the server to cancel job {job_id} (state now {state})", err=True)
        else:
            typer.echo(
                f"detached from job {job_id}; it keeps running (follow it with `lightpath jobs watch {job_id}`)",
                err=True,
            )
        raise typer.Exit(INTERRUPTED_EXIT_CODE) from None


def job_failure(job: dict[str, Any]) -> CliError:
    reason = job.get("error") or job.get("message") or ""
    result = job.get("result")
    details = validation_messages(result) if isinstance(result, dict) and "errors" in result else []
    return CliError(f"job {job.get('id')} {job.get('state')}" + (f": {reason}" if reason else ""), details=details)


def start_and_follow(
    client: ApiClient,
    path: str,
    body: dict[str, Any],
    *,
    what: str,
    where: str = "",
    interval: float,
    cancel_on_interrupt: bool,
    timeout: float | None = None,
) -> dict[str, Any]:
    """POST a body that starts a job (to /api/jobs/ or a domain endpoint answering with the job), follow
    it on stderr, and return the succeeded job. A 400 becomes `rejected`; a job that does not succeed
    becomes `job_failure`. `where` (e.g. " on demo-fb") goes into both messages."""
    try:
        job = client.post(path, body, timeout=timeout)
    except ApiError as error:
        if error.status != 400:
            raise
        raise rejected(error, f"{what}{where}") from error
    typer.echo(f"{what} running as job {job['id']}{where}", err=True)
    job = watch_job(client, int(job["id"]), interval=interval, cancel_on_interrupt=cancel_on_interrupt)
    if job.get("state") != "succeeded":
        raise job_failure(job)
    return job
