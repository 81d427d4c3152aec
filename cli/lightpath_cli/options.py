"""Option types shared by several commands."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from .output import OutputFormat

OutputOption = Annotated[
    OutputFormat | None,
    typer.Option(
        "--output",
        case_sensitive=False,
        show_default=False,
        help="table, json or csv for this command (default: the global --output).",
    ),
]
OutFileOption = Annotated[
    Path | None,
    typer.Option("-o", "--out-file", dir_okay=False, writable=True, help="Write to this file instead of stdout."),
]


def new_app(**kwargs: Any) -> typer.Typer:
    # Plain click help and errors everywhere: one `error:` line, no rich panels or pretty tracebacks.
    return typer.Typer(rich_markup_mode=None, pretty_exceptions_enable=False, no_args_is_help=True, **kwargs)
