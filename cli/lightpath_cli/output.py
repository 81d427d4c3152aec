"""Printing results as a rich table, stable JSON, or CSV.

JSON and CSV carry the same fields; cli/README.md documents each command's shape. Tables are for
people and may change.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text


class OutputFormat(StrEnum):
    table = "table"
    json = "json"
    csv = "csv"


@dataclass(frozen=True)
class Column:
    key: str
    header: str
    # Table cell text (or rich Text for colour); CSV and JSON always carry the raw value.
    render: Callable[[Any], str | Text] | None = None
    justify: str = "left"
    no_wrap: bool = False  # a cell that reads wrong broken in two (a reading with its unit)


def stdout_console() -> Console:
    # Looked up per call: test runners swap sys.stdout. Off a terminal, rich would assume 80
    # columns and squeeze the table, so give pipes room instead (the at-risk table is 225 wide).
    console = Console(file=sys.stdout)
    if not console.is_terminal:
        console = Console(file=sys.stdout, width=240)
    return console


def stderr_console() -> Console:
    return Console(file=sys.stderr)


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def csv_value(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return "/".join(value)
    if isinstance(value, (list, dict)):
        return json.dumps(value, separators=(",", ":"))
    return str(value)


def print_csv(rows: Sequence[dict[str, Any]], keys: Sequence[str]) -> None:
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow(keys)
    for row in rows:
        writer.writerow(csv_value(row.get(key)) for key in keys)


def table_cell(column: Column, value: Any) -> str | Text:
    if column.render is not None:
        return column.render(value)
    if value is None:
        return "-"
    if isinstance(value, list):
        return " / ".join(str(item) for item in value)
    return str(value)


def print_rows(
    fmt: OutputFormat, rows: Sequence[dict[str, Any]], columns: Sequence[Column], keys: Sequence[str]
) -> None:
    """A list of records: `keys` for JSON/CSV, `columns` for the table."""
    if fmt is OutputFormat.json:
        print_json([{key: row.get(key) for key in keys} for row in rows])
    elif fmt is OutputFormat.csv:
        print_csv(rows, keys)
    else:
        table = Table(show_edge=False, header_style="bold")
        for column in columns:
            table.add_column(column.header, justify=column.justify, no_wrap=column.no_wrap)  # type: ignore[arg-type]
        for row in rows:
            table.add_row(*(table_cell(column, row.get(column.key)) for column in columns))
        stdout_console().print(table)


def print_first_rows(
    fmt: OutputFormat,
    rows: Sequence[dict[str, Any]],
    total: int,
    columns: Sequence[Column],
    keys: Sequence[str],
    *,
    noun: str,
) -> None:
    """The first rows of a list (what `ApiClient.first` read) as `print_rows` prints them, and when
    more match than were read, one note on stderr, the same for every list command."""
    print_rows(fmt, rows, columns, keys)
    if total > len(rows):
        print(f"showing the first {len(rows)} of {total} {noun} (raise --limit for more)", file=sys.stderr)


def print_record(fmt: OutputFormat, record: dict[str, Any], columns: Sequence[Column], keys: Sequence[str]) -> None:
    """One record: a field/value table, a JSON object, or a one-row CSV."""
    if fmt is OutputFormat.json:
        print_json({key: record.get(key) for key in keys})
    elif fmt is OutputFormat.csv:
        print_csv([record], keys)
    else:
        table = Table(show_header=False, show_edge=False, box=None, padding=(0, 2, 0, 0))
        table.add_column(style="bold")
        table.add_column()
        for column in columns:
            table.add_row(column.header, table_cell(column, record.get(column.key)))
        stdout_console().print(table)


def timestamp(value: Any) -> str:
    """ISO 8601 from the API in the UI's one time format, UTC to the minute:
    2026-11-22T15:11:07Z -> 2026-11-22 15:11 UTC (an offset is converted; text that is no time
    is shown as it came)."""
    if not value:
        return "-"
    try:
        moment = dt.datetime.fromisoformat(str(value))
    except ValueError:
        return str(value)
    if moment.tzinfo is not None:
        moment = moment.astimezone(dt.UTC)
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def fraction(value: Any) -> str:
    return "-" if value is None else f"{float(value):.3f}"
