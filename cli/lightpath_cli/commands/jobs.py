"""jobs list|show|watch|log|cancel: background jobs (imports, capacity reports, ...) and their progress."""

from __future__ import annotations

import time
from enum import StrEnum
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, Progress, SpinnerColumn, TaskProgressColumn, TextColumn, TimeElapsedColumn
from rich.text import Text

from ..context import get_context
from ..errors import CliError
from ..options import OutputOption, new_app
from ..output import Column, OutputFormat, print_record, print_rows, stderr_console, timestamp
from ..server.client import ApiClient
from ..server.errors import ApiError, validation_messages
from ..server.lookup import resolve_fabric
from ..server.shapes import JOB_KEYS, JOB_LIST_KEYS, JOB_LOG_KEYS

app = new_app()

TERMINAL_STATES = frozenset({"succeeded", "failed", "cancelled"})
INTERRUPTED_EXIT_CODE = 130  # the shell's code for Ctrl-C
# Indirection so tests can replace the wait between polls.
_sleep = time.sleep


class JobState(StrEnum):
    queued = "queued"
    running = "running"
    succeeded = "succeeded"
    failed = "failed"
    cancelled = "cancelled"


STATE_STYLES = {"queued": "cyan", "running": "yellow", "succeeded": "green", "failed": "red", "cancelled": "magenta"}


def _state_cell(state: Any) -> Text:
    return Text(str(state or "-"), style=STATE_STYLES.get(str(state), ""))


def _percent(progress: Any) -> str:
    return "-" if progress is None else f"{float(progress) * 100:.0f}%"


JOB_LIST_COLUMNS = (
    Column("id", "ID", justify="right"),
    Column("kind", "Kind"),
    Column("state", "State", render=_state_cell),
    Column("progress", "Progress", render=_percent, justify="right"),
    Column("fabric", "Fabric", justify="right"),
    Column("created", "Created", render=timestamp),
    Column("message", "Message"),
)
JOB_DETAIL_COLUMNS = (
    Column("id", "ID"),
    Column("kind", "Kind"),
    Column("state", "State", render=_state_cell),
    Column("progress", "Progress", render=_percent),
    Column("message", "Message"),
    Column("error", "Error", render=lambda value: value or "-"),
    Column("fabric", "Fabric"),
    Column("created_by", "Created by"),
    Column("created", "Created", render=timestamp),
    Column("started", "Started", render=timestamp),
    Column("finished", "Finished", render=timestamp),
    # Above 1 when its worker was lost and it ran again (README "Workers, queues and faults").
    Column("attempts", "Attempts"),
    Column("worker", "Worker", render=lambda value: value or "-"),
    Column("heartbeat_at", "Last heartbeat", render=timestamp),
)

JobIdArgument = Annotated[int, typer.Argument(metavar="JOB_ID", help="Job id.", min=1)]
IntervalOption = Annotated[float, typer.Option("--interval", min=0.1, help="Seconds between polls.")]
CancelOnInterruptOption = Annotated[
    bool,
    typer.Option("--cancel-on-interrupt", help="On Ctrl-C, cancel the job (default: detach and leave it running)."),
]
LOG_COLUMNS = (
    Column("id", "ID", justify="right"),
    Column("created_at", "Time", render=timestamp),
    Column("level", "Level"),
    Column("message", "Message"),
)


def _fetch(client: ApiClient, job_id: int) -> dict[str, Any]:
    job: dict[str, Any] = client.get(f"/api/jobs/{job_id}/")
    return job


def _get_job(client: ApiClient, job_id: int) -> dict[str, Any]:
    try:
        return _fetch(client, job_id)
    except ApiError as error:
        if error.status == 404:
            raise CliError(f"job {job_id} not found") from error
        raise


def _describe(job: dict[str, Any]) -> str:
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
        task = bar.add_task(_describe(job), total=1.0, completed=0, message="")
        while True:
            for entry in log.new_entries() if log else ():
                bar.console.print(log_line(entry), markup=False, highlight=False)  # above the bar
            bar.update(
                task,
                description=_describe(job),
                completed=float(job.get("progress") or 0.0),
                message=job.get("message") or "",
            )
            if job.get("state") in TERMINAL_STATES:
                return job
            _sleep(interval)
            job = _fetch(client, int(job["id"]))


def _watch_with_lines(
    client: ApiClient, job: dict[str, Any], interval: float, log: JobLogReader | None = None
) -> dict[str, Any]:
    # Off a terminal (CI logs, pipes) a redrawn bar is noise: print a line whenever something changes.
    last_line = None
    while True:
        for entry in log.new_entries() if log else ():
            typer.echo(log_line(entry), err=True)
        line = f"{_describe(job)} {_percent(job.get('progress'))} {job.get('message') or ''}".rstrip()
        if line != last_line:
            typer.echo(line, err=True)
            last_line = line
        if job.get("state") in TERMINAL_STATES:
            return job
        _sleep(interval)
        job = _fetch(client, int(job["id"]))


def watch_job(
    client: ApiClient, job_id: int, *, interval: float, cancel_on_interrupt: bool, show_log: bool = False
) -> dict[str, Any]:
    """Poll /api/jobs/ID/ until the job ends, drawing progress on stderr; returns the final job.
    With show_log, the job's new log lines are printed on stderr as they come.

    Ctrl-C detaches (exit 130) and leaves the job running, or with cancel_on_interrupt asks the
    server to cancel it first.
    """
    job = _get_job(client, job_id)
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


def rejected(error: ApiError, what: str) -> CliError:
    """A 400 as one line naming what was refused, with every problem below it."""
    count = len(error.details)
    return CliError(f"{what} rejected: {count} problem{'s' if count != 1 else ''}", details=error.details)


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


def finish_watched_job(fmt: OutputFormat, job: dict[str, Any]) -> None:
    """Print the final job; exit 1 unless it succeeded."""
    print_record(fmt, job, JOB_DETAIL_COLUMNS, JOB_KEYS)
    if job.get("state") != "succeeded":
        raise job_failure(job)


@app.command("list")
def list_jobs(
    ctx: typer.Context,
    state: Annotated[
        JobState | None, typer.Option("--state", case_sensitive=False, help="Only jobs in this state.")
    ] = None,
    kind: Annotated[str | None, typer.Option("--kind", help="Only jobs of this kind, e.g. fabric.import.")] = None,
    fabric: Annotated[str | None, typer.Option("--fabric", help="Only jobs of this fabric (name or id).")] = None,
    limit: Annotated[int, typer.Option("--limit", min=1, max=1000, help="At most this many jobs.")] = 50,
    output: OutputOption = None,
) -> None:
    """List jobs, as the server orders them."""
    cli = get_context(ctx)
    params: dict[str, Any] = {"limit": limit}
    if state is not None:
        params["state"] = state.value
    if kind:
        params["kind"] = kind
    with cli.client() as client:
        if fabric:
            params["fabric"] = resolve_fabric(client, fabric)["id"]
        page = client.get("/api/jobs/", params)
    rows = page if isinstance(page, list) else page.get("results") or []
    print_rows(cli.output_format(output), rows[:limit], JOB_LIST_COLUMNS, JOB_LIST_KEYS)


@app.command("show")
def show_job(ctx: typer.Context, job_id: JobIdArgument, output: OutputOption = None) -> None:
    """Show one job."""
    cli = get_context(ctx)
    with cli.client() as client:
        job = _get_job(client, job_id)
    print_record(cli.output_format(output), job, JOB_DETAIL_COLUMNS, JOB_KEYS)


@app.command("watch")
def watch(
    ctx: typer.Context,
    job_id: JobIdArgument,
    cancel_on_interrupt: CancelOnInterruptOption = False,
    interval: IntervalOption = 1.0,
    show_log: Annotated[
        bool, typer.Option("--log", help="Print the job's log lines (time, level, message) on stderr as they come.")
    ] = False,
    output: OutputOption = None,
) -> None:
    """Follow a job with a progress bar until it ends.

    Exit 0 if it succeeded, 1 if it failed or was cancelled. Ctrl-C detaches (exit 130) and leaves
    the job running, unless --cancel-on-interrupt.
    """
    cli = get_context(ctx)
    with cli.client() as client:
        job = watch_job(client, job_id, interval=interval, cancel_on_interrupt=cancel_on_interrupt, show_log=show_log)
    finish_watched_job(cli.output_format(output), job)


@app.command("log")
def show_log(ctx: typer.Context, job_id: JobIdArgument, output: OutputOption = None) -> None:
    """Show a job's log: what its handler and the job framework wrote, oldest first."""
    cli = get_context(ctx)
    entries: list[dict[str, Any]] = []
    with cli.client() as client:
        _get_job(client, job_id)  # a missing job is one line: "job N not found"
        reader = JobLogReader(client, job_id)
        while batch := reader.new_entries():  # the server answers at most 500 at a time
            entries.extend(batch)
    print_rows(cli.output_format(output), entries, LOG_COLUMNS, JOB_LOG_KEYS)


@app.command("cancel")
def cancel(ctx: typer.Context, job_id: JobIdArgument, output: OutputOption = None) -> None:
    """Ask the server to cancel a job (a job that already ended is left as it is, with a note)."""
    cli = get_context(ctx)
    with cli.client() as client:
        before = _get_job(client, job_id)
        job = client.post(f"/api/jobs/{job_id}/cancel/")
    if before.get("state") in TERMINAL_STATES:
        typer.echo(f"note: job {job_id} had already ended ({before['state']}); nothing to cancel", err=True)
    print_record(cli.output_format(output), job, JOB_DETAIL_COLUMNS, JOB_KEYS)
