"""telemetry push: send a file of samples to POST /api/telemetry/ in batches (docs/telemetry.md).

The file is cut at sample boundaries without reading every field: the server parses and checks
each batch. A batch is all or nothing; batches that went before a rejected one stay committed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ..context import get_context
from ..errors import CliError, UsageError
from ..offline.telemetry import SPLITTERS, Batch, Batches, TelemetryFormat, decode_text, format_from_path
from ..options import OutputOption, new_app
from ..output import Column, print_record, stderr_console
from ..server.client import ApiClient
from ..server.errors import ApiError
from ..server.lookup import resolve_fabric

app = new_app()

# The server's limit per request (TELEMETRY_MAX_BATCH_SAMPLES).
MAX_BATCH_SAMPLES = 100_000
DEFAULT_BATCH_SAMPLES = 10_000
# Validating and deriving 100,000 samples takes a while on a small server.
PUSH_TIMEOUT_S = 600.0
# Rejected rows printed before "... and K more".
MAX_ERRORS_SHOWN = 50
INTERRUPTED_EXIT_CODE = 130


# The server's MEDIA_TYPES (backend/telemetry/formats): the CLI does not import the backend.
MEDIA_TYPES = {
    TelemetryFormat.json: "application/json",
    TelemetryFormat.csv: "text/csv",
    TelemetryFormat.openconfig: "application/vnd.lightpath.gnmi+json",
    TelemetryFormat.prometheus: "text/plain; version=0.0.4",
}
# What --batch-size counts in each format, for messages.
ITEM_NAMES = {
    TelemetryFormat.json: "samples",
    TelemetryFormat.csv: "rows",
    TelemetryFormat.openconfig: "notifications",
    TelemetryFormat.prometheus: "metric lines",
}

SUMMARY_KEYS = (
    "file",
    "fabric",
    "format",
    "batches",
    "samples",
    "inserted",
    "merged",
    "skipped_updates",
    "skipped_samples",
    "derivation",
)
COUNT_KEYS = ("samples", "inserted", "merged", "skipped_updates", "skipped_samples")


SUMMARY_COLUMNS = (
    Column("file", "File"),
    Column("fabric", "Fabric"),
    Column("format", "Format"),
    Column("batches", "Batches"),
    Column("samples", "Samples"),
    Column("inserted", "Inserted"),
    Column("merged", "Merged"),
    Column("skipped_updates", "Skipped updates"),
    Column("skipped_samples", "Skipped samples"),
    Column("derivation", "Derivation"),
)


# ----------------------------------------------------------------------------------------------
# Errors of a rejected batch, in the file's terms

_LINE_IN_TEXT = re.compile(r"\bline (\d+)")


def _file_lines_in(text: str, batch: Batch) -> str:
    """A server message names lines of the batch's body: name the file's lines instead."""
    if batch.line_map is None:
        return text

    def replace(match: re.Match[str]) -> str:
        mapped = batch.file_line(int(match.group(1)))
        return f"line {mapped}" if mapped is not None else match.group(0)

    return _LINE_IN_TEXT.sub(replace, text)


def describe_error(row: Any, batch: Batch, fmt: TelemetryFormat, batch_number: int) -> str:
    """One rejected row as `line 7: input_power_dbm: 99.0 is out of range` (file positions)."""
    if not isinstance(row, dict):
        return str(row)
    where: list[str] = []
    line = row.get("line")
    if isinstance(line, int):
        mapped = batch.file_line(line)
        where.append(f"line {mapped}" if mapped is not None else f"line {line} of batch {batch_number}")
    notification = row.get("notification")
    if isinstance(notification, int):
        where.insert(0, f"notification {batch.file_position(notification)}")
    index = row.get("index")
    if not where and isinstance(index, int):
        if fmt is TelemetryFormat.json:
            where.append(f"samples[{batch.first_item + index}]")
        elif fmt is TelemetryFormat.csv:
            where.append(f"row {batch.first_item + index + 1}")
        else:  # a sample grouped from several lines or updates: only its batch is known
            where.append(f"sample {index} of batch {batch_number}")
    reason = _file_lines_in(str(row.get("reason") or row.get("detail") or ""), batch)
    return f"{', '.join(where)}: {reason}" if where else reason


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 'es' if word.endswith('ch') else 's'}"


@dataclass
class Totals:
    batches: int = 0
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(COUNT_KEYS, 0))

    def add(self, answer: dict[str, Any]) -> None:
        self.batches += 1
        for key in COUNT_KEYS:
            self.counts[key] += int(answer.get(key) or 0)

    def committed(self, earlier: str = "earlier ") -> str:
        if not self.batches:
            return f"no {earlier}batch was committed"
        return (
            f"{_plural(self.batches, earlier + 'batch')} ({_plural(self.counts['samples'], 'sample')}) "
            f"{'stays' if self.batches == 1 else 'stay'} committed"
        )


def _rejected(
    error: ApiError, batch: Batch, number: int, count: int, fmt: TelemetryFormat, file: str, totals: Totals
) -> CliError:
    payload = error.payload if isinstance(error.payload, dict) else {}
    rows = payload.get("errors")
    if not isinstance(rows, list) or not rows:
        return CliError(f"{file}: batch {number} of {count} was rejected ({totals.committed()})", details=error.details)
    lines = [describe_error(row, batch, fmt, number) for row in rows[:MAX_ERRORS_SHOWN]]
    if len(rows) > MAX_ERRORS_SHOWN:
        lines.append(f"... and {len(rows) - MAX_ERRORS_SHOWN} more")
    return CliError(
        f"{file}: batch {number} of {count} rejected with {_plural(len(rows), 'error')}, nothing of it written; "
        f"{totals.committed()}; later batches were not sent",
        details=lines,
    )


def _failed_midway(error: CliError, totals: Totals) -> CliError:
    message = error.message
    if isinstance(error, ApiError) and error.status == 403 and message.startswith("permission denied"):
        message += " (pushing telemetry needs the collector, operator or admin role)"
    if totals.batches:
        message += f" ({totals.committed()})"
    return CliError(message, details=error.details, exit_code=error.exit_code)


# ----------------------------------------------------------------------------------------------
# The command


def _parse_time(text: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise typer.BadParameter(f"{text!r} is not an ISO 8601 time", param_hint="--time") from None
    if moment.tzinfo is None:
        raise typer.BadParameter(f"{text!r} has no UTC offset (add Z or +00:00)", param_hint="--time")
    return moment.astimezone(UTC)


def _send(client: ApiClient, split: Batches, fmt: TelemetryFormat, file: str, params: dict[str, str]) -> Totals:
    totals = Totals()
    progress: Progress | None = None
    if stderr_console().is_terminal:
        progress = Progress(
            TextColumn("pushing {task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn(ITEM_NAMES[fmt]),
            TimeElapsedColumn(),
            console=stderr_console(),
        )
    task = progress.add_task(file, total=split.total_items) if progress else None
    try:
        if progress:
            progress.start()
        for number, batch in enumerate(split.batches, 1):
            try:
                answer = client.request(
                    "POST",
                    "/api/telemetry/",
                    params=params,
                    content=batch.body,
                    headers={"Content-Type": MEDIA_TYPES[fmt]},
                    timeout=PUSH_TIMEOUT_S,
                ).json()
            except ApiError as error:
                if error.status == 400:
                    raise _rejected(error, batch, number, split.count, fmt, file, totals) from None
                raise _failed_midway(error, totals) from None
            except CliError as error:
                raise _failed_midway(error, totals) from None
            totals.add(answer)
            if progress and task is not None:
                progress.advance(task, batch.items)
    except KeyboardInterrupt:
        if progress:
            progress.stop()
        typer.echo(f"interrupted: {totals.committed(earlier='')}", err=True)
        raise typer.Exit(INTERRUPTED_EXIT_CODE) from None
    finally:
        if progress:
            progress.stop()
    return totals


@app.command("push")
def push(
    ctx: typer.Context,
    file: Annotated[
        Path,
        typer.Argument(
            metavar="FILE", exists=True, dir_okay=False, readable=True, help="Samples in one of the four formats."
        ),
    ],
    fabric: Annotated[
        str | None,
        typer.Option("--fabric", metavar="NAME", help="Fabric name or id (for json, the file's own `fabric` will do)."),
    ] = None,
    format: Annotated[
        TelemetryFormat | None,
        typer.Option(
            "--format",
            case_sensitive=False,
            show_default=False,
            help="json, csv, openconfig or prometheus [default: from the extension: .json, .csv, "
            ".gnmi.json or .ndjson (openconfig), .prom or .txt (prometheus)].",
        ),
    ] = None,
    time: Annotated[
        str | None,
        typer.Option(
            "--time",
            metavar="ISO",
            show_default=False,
            help="ISO 8601 time with offset of Prometheus lines without a timestamp [default: now, "
            "the same for every batch].",
        ),
    ] = None,
    batch_size: Annotated[
        int,
        typer.Option(
            "--batch-size",
            min=1,
            max=MAX_BATCH_SAMPLES,
            help="Samples per request (openconfig: notifications; prometheus: metric lines); see above.",
        ),
    ] = DEFAULT_BATCH_SAMPLES,
    output: OutputOption = None,
) -> None:
    """Push a telemetry file to POST /api/telemetry/ in batches, then print a summary.

    Each batch is all or nothing. On a rejected batch every error is printed, with the file's line
    numbers where the format has lines; the batches before it stay committed, nothing after it is
    sent, and the exit code is 1. Pushing a file again is harmless: the server merges re-sent
    samples.

    openconfig notifications of one switch and timestamp, and prometheus lines with the same labels
    (the lane aside) and timestamp, always share a batch, even beyond --batch-size, so that the lanes
    of one reading arrive together. Other fields of one instant may still be split over two batches
    (a prometheus file ordered by metric, say): the server merges them, and the summary's `samples`
    counts such a sample once per batch.
    """
    cli = get_context(ctx)
    fmt = format or format_from_path(file)
    if fmt is None:
        raise typer.BadParameter(
            f"cannot tell the format of {file.name} from its extension: give --format", param_hint="--format"
        )
    moment = _parse_time(time) if time else datetime.now(UTC).replace(microsecond=0)
    text = decode_text(str(file), file.read_bytes())
    split = SPLITTERS[fmt](str(file), text, batch_size)
    if split.total_items == 0:
        raise CliError(f"{file}: no {ITEM_NAMES[fmt]} to push")
    with cli.client() as client:
        fabric = fabric or split.fabric
        if fabric is None:
            raise UsageError("name the fabric with --fabric")
        fabric_name = str(resolve_fabric(client, fabric)["name"])
        params = {"fabric": fabric_name, "time": moment.isoformat().replace("+00:00", "Z")}
        totals = _send(client, split, fmt, str(file), params)
    summary = {
        "file": str(file),
        "fabric": fabric_name,
        "format": fmt.value,
        "batches": totals.batches,
        **totals.counts,
        # The server derives rates, health and events in the background once a batch commits.
        "derivation": "queued" if totals.batches else "none",
    }
    print_record(cli.output_format(output), summary, SUMMARY_COLUMNS, SUMMARY_KEYS)
