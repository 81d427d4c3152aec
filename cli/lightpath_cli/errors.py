"""Errors the CLI reports as one line on stderr ("error: ...") with a non-zero exit code."""

from __future__ import annotations

from collections.abc import Sequence

import typer


class CliError(Exception):
    """A failure the user can act on. Exit code 1 unless told otherwise; never a traceback.

    The root command group catches it, prints it with show() and exits with exit_code.
    """

    def __init__(self, message: str, *, details: Sequence[str] = (), exit_code: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.details = list(details)
        self.exit_code = exit_code

    def show(self) -> None:
        typer.echo(f"error: {self.message}", err=True)
        for line in self.details:
            typer.echo(f"  {line}", err=True)


class UsageError(CliError):
    """A mistake in the command line itself, found before anything runs: a bad or missing option value, or
    options that do not go together. Exit code 2, like the usage errors typer finds while parsing; what the
    engine or the server refuse after that is a CliError (exit 1)."""

    def __init__(self, message: str, *, details: Sequence[str] = ()) -> None:
        super().__init__(message, details=details, exit_code=2)
