"""HTTP error answers as CliErrors, and the API's validation errors as lines."""

from __future__ import annotations

from typing import Any

import typer

from ..errors import CliError


class ApiError(CliError):
    """An HTTP error response the command did not handle itself; keeps status and body for those that do.
    A 400's problems are in `details` for commands that reword them, and in its one line already."""

    def __init__(self, message: str, *, status: int, payload: Any) -> None:
        super().__init__(message)
        self.status = status
        self.payload = payload

    def show(self) -> None:
        typer.echo(f"error: {self.message}", err=True)


def format_error_row(row: dict[str, Any]) -> str:
    """One contract error row as `links[3].b: unknown switch 'x'`."""
    where = str(row.get("section") or "document")
    if row.get("index") is not None:
        where += f"[{row['index']}]"
    if row.get("field"):
        where += f".{row['field']}"
    return f"{where}: {row.get('message', '')}"


def validation_messages(payload: Any) -> list[str]:
    """Lines for a 400 body: the contract's {"errors": [...]} rows, or DRF's {"field": ["msg"]} shape."""
    if isinstance(payload, dict) and isinstance(payload.get("errors"), list):
        return [format_error_row(row) if isinstance(row, dict) else str(row) for row in payload["errors"]]
    lines: list[str] = []

    def walk(prefix: str, value: Any) -> None:
        if isinstance(value, dict):
            for key, inner in value.items():
                # About the request as a whole: no field to name (as the UI's error list reads it).
                general = key in ("non_field_errors", "detail")
                walk(prefix if general else f"{prefix}.{key}" if prefix else str(key), inner)
        elif isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            lines.extend(f"{prefix}: {message}" if prefix else message for message in value)
        elif isinstance(value, list):
            for index, inner in enumerate(value):
                walk(f"{prefix}[{index}]", inner)
        else:
            lines.append(f"{prefix}: {value}" if prefix else str(value))

    walk("", payload)
    return lines


def one_line(problems: list[str]) -> str:
    """Every problem of a 400 on one line (the trial read a count, then the problems below it)."""
    return "; ".join(problems) or "the server gave no reason"


def rejected(error: ApiError, what: str) -> CliError:
    """A 400 as one line naming what was refused and every problem."""
    return CliError(f"{what} rejected: {one_line(error.details)}")
