"""Reading input files and writing output files atomically."""

from __future__ import annotations

import contextlib
import json
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from ..errors import CliError, UsageError


def read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")  # a spreadsheet's byte-order mark is not part of the header
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise CliError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def read_document_file(file: str) -> dict[str, Any]:
    if file.lower().endswith(".csv"):
        raise UsageError(
            f"{file}: a links CSV has no switches or tiers, so it cannot be imported on its own; "
            "use a JSON interchange document"
        )
    doc = read_json_file(file)
    if not isinstance(doc, dict):
        raise CliError(f"{file} is not an interchange document (expected a JSON object)")
    return doc


def read_json_file(file: str) -> Any:
    """A JSON file (`-`: stdin) as Python values; NaN and Infinity refused."""
    try:
        text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
    except OSError as exc:
        raise CliError(f"cannot read {file}: {exc.strerror or exc}") from exc
    try:
        # NaN and Infinity are not JSON: Python would read them, but the request could not carry them.
        doc = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise CliError(f"{file} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from exc
    except ValueError as exc:
        raise CliError(f"{file} is not valid JSON: {exc}") from exc
    return doc


def read_json_list(path: Path, key: str, option: str) -> list[Any]:
    """A JSON list from a file, bare or under `key`."""
    try:
        data = json.loads(path.read_text())
    except OSError as exc:
        raise CliError(f"{option}: cannot read {path}: {exc.strerror}") from exc
    except json.JSONDecodeError as exc:
        raise CliError(f"{option}: {path} is not JSON ({exc.msg} at line {exc.lineno})") from exc
    if isinstance(data, dict) and key in data:
        data = data[key]
    if not isinstance(data, list):
        raise CliError(f"{option}: {path} must hold a JSON list (or an object with {key!r})")
    return data


@contextlib.contextmanager
def atomic_text_file(path: Path) -> Iterator[TextIO]:
    """A temporary file next to `path`, renamed over it only once everything is written (readers never
    see half a file); on any failure the temporary file is removed and the error goes on."""
    directory = path.parent if str(path.parent) else Path(".")
    try:
        fd, temporary = tempfile.mkstemp(dir=directory, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise CliError(f"cannot write {path}: {exc.strerror or exc}") from exc
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)  # mkstemp makes 0600; give the file the mode a plain open() would
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            yield handle
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def write_atomically(path: Path, text: str) -> None:
    """Write `text` through atomic_text_file; a failed write is one error line naming the file."""
    try:
        with atomic_text_file(path) as handle:
            handle.write(text)
    except OSError as exc:
        raise CliError(f"cannot write {path}: {exc.strerror or exc}") from exc
