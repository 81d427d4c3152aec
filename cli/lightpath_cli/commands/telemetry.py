"""telemetry push: send a file of samples to POST /api/telemetry/ in batches (docs/telemetry.md).

The file is cut at sample boundaries without reading every field: the server parses and checks
each batch. A batch is all or nothing; batches that went before a rejected one stay committed.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from ..context import get_context
from ..errors import CliError
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


class TelemetryFormat(StrEnum):
    json = "json"
    csv = "csv"
    openconfig = "openconfig"
    prometheus = "prometheus"


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


def format_from_path(path: Path) -> TelemetryFormat | None:
    """The format a file name implies, or None when it implies none."""
    name = path.name.lower()
    if name.endswith((".gnmi.json", ".ndjson")):
        return TelemetryFormat.openconfig
    if name.endswith(".json"):
        return TelemetryFormat.json
    if name.endswith(".csv"):
        return TelemetryFormat.csv
    if name.endswith((".prom", ".txt")):
        return TelemetryFormat.prometheus
    return None


@dataclass
class Batch:
    """One request body and how to map the server's batch-relative positions back to the file."""

    body: bytes
    items: int  # what --batch-size counts: samples, CSV rows, notifications or metric lines
    first_item: int = 0  # 0-based position in the file of the batch's first item (json, csv)
    positions: list[int] | None = None  # 0-based file position of each item, when not contiguous
    line_map: list[int] | None = None  # file line of each body line (body line k is line_map[k - 1])

    def file_position(self, index: int) -> int:
        if self.positions is not None and 0 <= index < len(self.positions):
            return self.positions[index]
        return self.first_item + index

    def file_line(self, line: int) -> int | None:
        if self.line_map is None or not 1 <= line <= len(self.line_map):
            return None
        return self.line_map[line - 1]


@dataclass
class Batches:
    total_items: int
    count: int
    batches: Iterator[Batch]
    fabric: str | None = None  # the fabric a JSON document names


# ----------------------------------------------------------------------------------------------
# Splitting a file into batches


def _decode(file: str, data: bytes) -> str:
    if data.startswith(b"\xef\xbb\xbf"):  # a byte-order mark, as spreadsheet programs write
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise CliError(f"{file} line {line}: not UTF-8 (byte {exc.start})") from None


def _load_json(file: str, text: str) -> Any:
    try:
        return json.loads(text)  # NaN and -Infinity pass through: the server decides about them
    except json.JSONDecodeError as exc:
        raise CliError(f"{file} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None


def split_json(file: str, text: str, size: int) -> Batches:
    """Our JSON batch: slices of `samples`, each with the document's other keys (`fabric`)."""
    document = _load_json(file, text)
    if not isinstance(document, dict) or not isinstance(document.get("samples"), list):
        raise CliError(f'{file}: expected a JSON object {{"fabric": ..., "samples": [...]}}')
    samples: list[Any] = document["samples"]
    rest = {key: value for key, value in document.items() if key != "samples"}

    def batches() -> Iterator[Batch]:
        for start in range(0, len(samples), size):
            chunk = samples[start : start + size]
            body = json.dumps({**rest, "samples": chunk}, separators=(",", ":")).encode()
            yield Batch(body=body, items=len(chunk), first_item=start)

    named = rest.get("fabric")
    return Batches(
        len(samples), -(-len(samples) // size), batches(), fabric=named if isinstance(named, str) and named else None
    )


def _blank(row: Sequence[str]) -> bool:
    return len(row) <= 1 and not "".join(row).strip()


def split_csv(file: str, text: str, size: int) -> Batches:
    """The header (and anything before it) plus `size` rows per batch, cut between CSV records so
    that a quoted cell spanning lines stays whole. Each body line maps back to its file line."""
    lines = io.StringIO(text, newline="").readlines()
    reader = csv.reader(lines)
    try:
        header = next(reader, None)
        while header is not None and _blank(header):
            header = next(reader, None)
        if header is None:
            raise CliError(f"{file}: empty; a header line of field names is needed")
        header_end = reader.line_num
        rows: list[tuple[int, int]] = []  # (first line index, end line index) of each record
        start = header_end
        for row in reader:
            if not _blank(row):
                rows.append((start, reader.line_num))
            start = reader.line_num
    except csv.Error as exc:
        raise CliError(f"{file} line {reader.line_num}: {exc}") from None
    head = "".join(lines[:header_end])

    def batches() -> Iterator[Batch]:
        for first in range(0, len(rows), size):
            chunk = rows[first : first + size]
            begin, end = chunk[0][0], chunk[-1][1]  # blank lines between rows ride along
            body = (head + "".join(lines[begin:end])).encode()
            line_map = [*range(1, header_end + 1), *range(begin + 1, end + 1)]
            yield Batch(body=body, items=len(chunk), first_item=first, line_map=line_map)

    return Batches(len(rows), -(-len(rows) // size), batches())


def group_batches(keys: Sequence[Hashable], sizes: Sequence[int], size: int) -> list[list[int]]:
    """Positions of items per batch: items of one key stay in one batch (in first-seen key order),
    and a batch holds at most `size` in `sizes` units unless one key alone has more."""
    groups: dict[Hashable, list[int]] = {}
    for position, key in enumerate(keys):
        groups.setdefault(key, []).append(position)
    batches: list[list[int]] = []
    current: list[int] = []
    filled = 0
    for members in groups.values():
        weight = sum(sizes[m] for m in members)
        if current and filled + weight > size:
            batches.append(sorted(current))
            current, filled = [], 0
        current.extend(members)
        filled += weight
    if current:
        batches.append(sorted(current))
    return batches


def _notification_key(item: Any, position: int) -> Hashable:
    """(switch, timestamp) of a gNMI notification or SubscribeResponse, else something unique."""
    if isinstance(item, dict) and isinstance(item.get("update"), dict):
        item = item["update"]
    if isinstance(item, dict) and ("timestamp" in item or "prefix" in item):
        prefix = item.get("prefix")
        target = prefix.get("target") if isinstance(prefix, dict) else None
        return ("notification", json.dumps(target), json.dumps(item.get("timestamp")))
    return ("unique", position)


def split_openconfig(file: str, text: str, size: int) -> Batches:
    """gNMI notifications (a JSON list, or one per line) in batches of at most `size`.

    Notifications of one switch and timestamp go into the same batch: the server merges updates
    of one (switch, port, time) only within a batch (across batches a re-sent field replaces the
    stored one, which would drop lanes sent apart). Lines are passed on as written.
    """
    numbered: list[tuple[int | None, Any]]
    if text.lstrip()[:1] == "[":
        items = _load_json(file, text)
        numbered = [(None, item) for item in items]
        lines: list[str] = []
    else:
        lines_with_numbers = [(number, line) for number, line in enumerate(text.splitlines(), 1) if line.strip()]
        lines = [line for _, line in lines_with_numbers]
        numbered = []
        for number, line in lines_with_numbers:
            try:
                numbered.append((number, json.loads(line)))
            except ValueError:
                numbered.append((number, None))  # the server reports the bad line
    keys = [_notification_key(item, position) for position, (_, item) in enumerate(numbered)]
    plan = group_batches(keys, [1] * len(numbered), size)

    def batches() -> Iterator[Batch]:
        for positions in plan:
            if lines:
                body = "".join(lines[p] + "\n" for p in positions).encode()
                line_map: list[int] | None = [int(numbered[p][0] or 0) for p in positions]
            else:
                body = json.dumps([numbered[p][1] for p in positions], separators=(",", ":")).encode()
                line_map = None
            yield Batch(body=body, items=len(positions), positions=positions, line_map=line_map)

    return Batches(len(numbered), len(plan), batches())


_SAMPLE_LINE = re.compile(r"[ \t]*([a-zA-Z_:][a-zA-Z0-9_:]*)[ \t]*(?:\{(.*)\})?[ \t]*(\S+)(?:[ \t]+(\S+))?[ \t]*")
_LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)[ \t]*=[ \t]*"((?:[^"\\]|\\.)*)"')
_COMMENT = re.compile(r"#[ \t]*(?:HELP|TYPE)[ \t]+([a-zA-Z_:][a-zA-Z0-9_:]*)")
_FAMILY_SUFFIXES = ("_bucket", "_sum", "_count", "_total", "_created")
# The labels that number a lane (docs/telemetry.md): lines differing only in these are one field.
LANE_LABELS = frozenset({"channel_index", "index", "lane"})


def _prometheus_key(line: str, number: int) -> tuple[Hashable, str | None]:
    """(what must stay in one batch, metric name): the labels but the lane's, and the timestamp."""
    match = _SAMPLE_LINE.fullmatch(line)
    if match is None:
        return ("unique", number), None
    metric, labels, _, stamp = match.groups()
    pairs = tuple(sorted((k, v) for k, v in _LABEL.findall(labels or "") if k not in LANE_LABELS))
    return ("sample", pairs, stamp or ""), metric


def split_prometheus(file: str, text: str, size: int) -> Batches:
    """Metric lines in batches of at most `size`, each repeating the HELP and TYPE comments of the
    families it holds just before their first line. Lines with the same labels (but the lane) and
    timestamp go into the same batch, so that the lanes of one reading arrive together. Other
    comments and blank lines are left out."""
    comments: dict[str, list[tuple[int, str]]] = {}
    samples: list[tuple[int, str, str | None]] = []  # (file line, text, family with comments)
    keys: list[Hashable] = []
    for number, line in enumerate(text.split("\n"), 1):
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("#"):
            match = _COMMENT.match(stripped)
            if match:
                comments.setdefault(match.group(1), []).append((number, line))
            continue
        key, family = _prometheus_key(line.rstrip("\r"), number)
        if family is not None and family not in comments:
            base = next((family[: -len(s)] for s in _FAMILY_SUFFIXES if family.endswith(s)), None)
            family = base if base in comments else None
        samples.append((number, line, family))
        keys.append(key)
    plan = group_batches(keys, [1] * len(samples), size)

    def batches() -> Iterator[Batch]:
        for positions in plan:
            out: list[tuple[int, str]] = []
            described: set[str] = set()
            for number, line, family in (samples[p] for p in positions):
                if family is not None and family not in described:
                    described.add(family)
                    out.extend(comments[family])
                out.append((number, line))
            body = "".join(line + "\n" for _, line in out).encode()
            yield Batch(body=body, items=len(positions), positions=positions, line_map=[n for n, _ in out])

    return Batches(len(samples), len(plan), batches())


SPLITTERS = {
    TelemetryFormat.json: split_json,
    TelemetryFormat.csv: split_csv,
    TelemetryFormat.openconfig: split_openconfig,
    TelemetryFormat.prometheus: split_prometheus,
}


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
    text = _decode(str(file), file.read_bytes())
    split = SPLITTERS[fmt](str(file), text, batch_size)
    if split.total_items == 0:
        raise CliError(f"{file}: no {ITEM_NAMES[fmt]} to push")
    with cli.client() as client:
        fabric = fabric or split.fabric
        if fabric is None:
            raise CliError("name the fabric with --fabric")
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
