"""HTTP error answers as CliErrors, and the API's validation errors as lines."""

from __future__ import annotations

from typing import Any

from ..errors import CliError


class ApiError(CliError):
    """An HTTP error response the command did not handle itself; keeps status and body for those that do."""

    def __init__(self, message: str, *, status: int, payload: Any) -> None:
        super().__init__(message)
        self.status = status
        self.payload = payload


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
                walk(f"{prefix}.{key}" if prefix else str(key), inner)
        elif isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            lines.extend(f"{prefix}: {message}" if prefix else message for message in value)
        elif isinstance(value, list):
            for index, inner in enumerate(value):
                walk(f"{prefix}[{index}]", inner)
        else:
            lines.append(f"{prefix}: {value}" if prefix else str(value))

    walk("", payload)
    return lines


def rejected(error: ApiError, what: str) -> CliError:
    """A 400 as one line naming what was refused, with every problem below it."""
    count = len(error.details)
    return CliError(f"{what} rejected: {count} problem{'s' if count != 1 else ''}", details=error.details)
