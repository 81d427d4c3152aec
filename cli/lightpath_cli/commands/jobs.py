"""jobs list|show|watch|log|cancel: background jobs (imports, capacity reports, ...) and their progress."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

import typer
from rich.text import Text

from ..context import get_context
from ..options import CancelOnInterruptOption, IntervalOption, OutputOption, new_app
from ..output import Column, OutputFormat, print_record, print_rows, timestamp
from ..server.follow import TERMINAL_STATES, JobLogReader, get_job, job_failure, progress_percent, watch_job
from ..server.lookup import resolve_fabric
from ..server.shapes import JOB_KEYS, JOB_LIST_KEYS, JOB_LOG_KEYS

app = new_app()


class JobState(StrEnum):
    queued = "queued"
    running = "running"
    succeeded = "succeeded"
    failed = "failed"
    cancelled = "cancelled"


STATE_STYLES = {"queued": "cyan", "running": "yellow", "succeeded": "green", "failed": "red", "cancelled": "magenta"}


def _state_cell(state: Any) -> Text:
    return Text(str(state or "-"), style=STATE_STYLES.get(str(state), ""))


JOB_LIST_COLUMNS = (
    Column("id", "ID", justify="right"),
    Column("kind", "Kind"),
    Column("state", "State", render=_state_cell),
    Column("progress", "Progress", render=progress_percent, justify="right"),
    Column("fabric", "Fabric", justify="right"),
    Column("created", "Created", render=timestamp),
    Column("message", "Message"),
)
JOB_DETAIL_COLUMNS = (
    Column("id", "ID"),
    Column("kind", "Kind"),
    Column("state", "State", render=_state_cell),
    Column("progress", "Progress", render=progress_percent),
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
LOG_COLUMNS = (
    Column("id", "ID", justify="right"),
    Column("created_at", "Time", render=timestamp),
    Column("level", "Level"),
    Column("message", "Message"),
)


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
        job = get_job(client, job_id)
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
        get_job(client, job_id)  # a missing job is one line: "job N not found"
        reader = JobLogReader(client, job_id)
        while batch := reader.new_entries():  # the server answers at most 500 at a time
            entries.extend(batch)
    print_rows(cli.output_format(output), entries, LOG_COLUMNS, JOB_LOG_KEYS)


@app.command("cancel")
def cancel(ctx: typer.Context, job_id: JobIdArgument, output: OutputOption = None) -> None:
    """Ask the server to cancel a job (a job that already ended is left as it is, with a note)."""
    cli = get_context(ctx)
    with cli.client() as client:
        before = get_job(client, job_id)
        job = client.post(f"/api/jobs/{job_id}/cancel/")
    if before.get("state") in TERMINAL_STATES:
        typer.echo(f"note: job {job_id} had already ended ({before['state']}); nothing to cancel", err=True)
    print_record(cli.output_format(output), job, JOB_DETAIL_COLUMNS, JOB_KEYS)
