"""Telemetry files cut into request bodies at sample boundaries, without reading every field (the server
parses and checks each batch), with the map from batch positions back to the file's lines."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from ..errors import CliError


class TelemetryFormat(StrEnum):
    json = "json"
    csv = "csv"
    openconfig = "openconfig"
    prometheus = "prometheus"


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


def decode_text(file: str, data: bytes) -> str:
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
