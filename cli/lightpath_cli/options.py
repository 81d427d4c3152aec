"""Option types shared by several commands."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from .errors import UsageError
from .output import OutputFormat

T = TypeVar("T")

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

ServerFlagOption = Annotated[
    bool,
    typer.Option(
        "--server",
        help="Run on the API server (the root --server URL, else the logged-in one) instead of in this process.",
    ),
]

# Following a server job (server/follow.py): `jobs watch` and every command that starts one.
IntervalOption = Annotated[float, typer.Option("--interval", min=0.1, help="Seconds between polls.")]
CancelOnInterruptOption = Annotated[
    bool,
    typer.Option("--cancel-on-interrupt", help="On Ctrl-C, cancel the job (default: detach and leave it running)."),
]

# A random seed is a whole number in [0, 2^63) on every path: the server's range (backend/lightpath/
# problems.py; JSON clients round integers above 2^63), so a seed the CLI takes offline it also takes there.
MAX_SEED = 2**63 - 1


def _seed_in_range(value: int) -> int:
    if not 0 <= value <= MAX_SEED:
        raise typer.BadParameter(f"must be a whole number in [0, 2^63), got {value}")
    return value


def seed_option(help: str) -> Any:
    return typer.Option("--seed", callback=_seed_in_range, help=help)


# --k is a fat tree's radix everywhere: the server API's name (`k`) and `fixtures fat-tree`'s. The old
# spellings --fabric-k (sharebackup, larry cost) and --fat-tree (rail plan) still work, hidden.
FabricKAliasOption = Annotated[int | None, typer.Option("--fabric-k", hidden=True)]
FatTreeAliasOption = Annotated[int | None, typer.Option("--fat-tree", hidden=True)]


# An interchange document's path is --fabric-file; --fabric names a stored fabric (name or id). Where
# --fabric once named a document (fixtures telemetry, rail plan|classes, corropt), it still does, hidden
# and deprecated: pass both through document_file().
FabricFileAliasOption = Annotated[Path | None, typer.Option("--fabric", hidden=True)]


def fabric_file_option(help: str = 'A "lightpath-fabric/1" interchange document.') -> Any:
    return typer.Option("--fabric-file", metavar="FABRIC.json", show_default=False, help=help)


def document_file(path: Path | None, old: Path | None) -> Path | None:
    """The document given as --fabric-file, or as --fabric (its old spelling), not both."""
    return old_spelling(path, old, "--fabric-file", "--fabric")


def table_or_json(fmt: OutputFormat) -> OutputFormat:
    """For commands whose answers are nested documents: CSV has no shape for them."""
    if fmt is OutputFormat.csv:
        raise UsageError("--output csv is not available here: use table or json")
    return fmt


def new_app(**kwargs: Any) -> typer.Typer:
    # Plain click help and errors everywhere: one `error:` line, no rich panels or pretty tracebacks.
    return typer.Typer(rich_markup_mode=None, pretty_exceptions_enable=False, no_args_is_help=True, **kwargs)


def old_spelling(value: T | None, old: T | None, name: str, old_name: str) -> T | None:
    """An option given by its name or by its old spelling (a hidden, deprecated alias kept so that
    existing scripts work), but not by both."""
    if old is None:
        return value
    if value is not None:
        raise typer.BadParameter(f"give it once ({old_name} is its old spelling)", param_hint=f"'{name}'")
    return old


def required(value: T | None, name: str) -> T:
    """An option that must be given, now that an old spelling may stand in for it."""
    if value is None:
        raise typer.BadParameter("missing: this option is required", param_hint=f"'{name}'")
    return value
