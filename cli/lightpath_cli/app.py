"""The `lightpath` command: global options, error handling, and the command groups."""

from __future__ import annotations

import errno
import os
import re
from typing import Annotated, Any, NoReturn

import httpx
import typer

# typer vendors click (typer._click) and re-exports only BadParameter of its usage errors; the group
# that prints help for a bare command (NoArgsIsHelpError) is one of them, so both classes are needed.
from typer._click.exceptions import NoArgsIsHelpError, UsageError
from typer.core import TyperGroup

from . import __version__
from .commands import (
    auth,
    circuits,
    corropt,
    fabric,
    fixtures,
    jobs,
    larry,
    links,
    rail,
    sharebackup,
    switches,
    telemetry,
    tickets,
    webhooks,
    work_orders,
)
from .config import OUTPUT_ENV, SERVER_ENV
from .context import CliContext
from .errors import CliError
from .options import new_app
from .output import OutputFormat

DEBUG_ENV = "LIGHTPATH_DEBUG"


class LightpathGroup(TyperGroup):
    """Root group that turns stray exceptions into one `error:` line instead of a traceback, and typer's
    usage errors (click's "Usage: ... Try ... Error: ..." block) into one `error:` line with exit 2."""

    def make_context(self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any) -> Any:
        try:  # the root's own options: `lightpath --output yaml fabric list`
            return super().make_context(info_name, args, parent, **extra)
        except NoArgsIsHelpError:
            raise
        except UsageError as error:
            _usage_failure(error)

    def invoke(self, ctx: typer.Context) -> Any:  # type: ignore[override]
        try:
            return super().invoke(ctx)
        except CliError as error:
            error.show()
            raise typer.Exit(error.exit_code) from None
        except NoArgsIsHelpError:  # a group without its command prints its help (exit 2)
            raise
        except UsageError as error:  # every command's parsing, and BadParameter raised in a command
            _usage_failure(error)
        # --help, typer.Exit, Abort and Ctrl-C keep their usual handling.
        except (typer.TyperException, typer.Exit, typer.Abort, KeyboardInterrupt):
            raise
        except OSError as exc:
            if exc.errno == errno.EPIPE or os.environ.get(DEBUG_ENV):  # `| head` closes the pipe: exit quietly
                raise
            where = f"{exc.filename}: " if exc.filename else ""
            _fail(f"{where}{exc.strerror or exc}")
        except httpx.HTTPError as exc:
            _fail(f"HTTP request failed: {exc}")
        except Exception as exc:
            if os.environ.get(DEBUG_ENV):
                raise
            _fail(f"unexpected {type(exc).__name__}: {exc} (set {DEBUG_ENV}=1 for a traceback)")


def _fail(message: str) -> None:
    CliError(message).show()
    raise typer.Exit(1) from None


# typer checks option values with pydantic, whose wording is a validator's ("Value error, 'rust' is not
# one of ...", "Input should be greater than or equal to 0"): said plainly, as the CLI's own checks do.
PYDANTIC_WORDING = (
    (re.compile(r"Value error, "), ""),
    (re.compile(r"Input should be greater than or equal to (\S+)"), r"must be at least \1"),
    (re.compile(r"Input should be less than or equal to (\S+)"), r"must be at most \1"),
    (re.compile(r"Input should be greater than (\S+)"), r"must be more than \1"),
    (re.compile(r"Input should be less than (\S+)"), r"must be less than \1"),
    (re.compile(r"Input should be a valid integer(, [^(]*)?"), "must be a whole number "),
    (re.compile(r"Input should be a valid number(, [^(]*)?"), "must be a number "),
)


def plain_usage_message(message: str) -> str:
    """A usage error's text without the validator's wording (PYDANTIC_WORDING), on one line."""
    for pattern, plain in PYDANTIC_WORDING:
        message = pattern.sub(plain, message)
    return " ".join(message.split()).rstrip(".")


def _usage_failure(error: UsageError) -> NoReturn:
    """`error: no such option: --bogus (see 'lightpath rail plan --help')`: one line, exit 2."""
    message = plain_usage_message(error.format_message())
    if message[:2].istitle():  # "No such option", "Missing option", "Invalid value": our lower case
        message = message[0].lower() + message[1:]
    if error.ctx is not None:
        message += f" (see '{error.ctx.command_path} --help')"
    CliError(message, exit_code=2).show()
    raise typer.Exit(2) from None


app = new_app(
    cls=LightpathGroup,
    name="lightpath",
    help="Lightpath: operations for optical links in datacenter Clos fabrics.",
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"lightpath {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    ctx: typer.Context,
    server: Annotated[
        str | None,
        typer.Option(
            "--server",
            envvar=SERVER_ENV,
            show_default=False,
            help="API server URL [default: the logged-in server, else http://127.0.0.1:8000].",
        ),
    ] = None,
    output: Annotated[
        OutputFormat,
        typer.Option("--output", envvar=OUTPUT_ENV, case_sensitive=False, help="Output format: table, json or csv."),
    ] = OutputFormat.table,
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit."),
    ] = False,
) -> None:
    ctx.obj = CliContext(server_option=server, output=output)


app.command("login")(auth.login)
app.command("logout")(auth.logout)
app.command("whoami")(auth.whoami)
app.add_typer(fabric.app, name="fabric", help="List, show, import, export and check fabrics.")
app.add_typer(jobs.app, name="jobs", help="List, watch and cancel background jobs, and read their logs.")
app.add_typer(telemetry.app, name="telemetry", help="Push optical telemetry files (json, csv, openconfig, prometheus).")
app.add_typer(
    links.app, name="links", help="List links by health, show one link's newest readings, disable and enable links."
)
app.add_typer(switches.app, name="switches", help="Drain a switch for maintenance, and undrain it.")
app.add_typer(tickets.app, name="tickets", help="Work repair tickets of links disabled for corruption.")
app.add_typer(work_orders.app, name="work-orders", help="Start and finish repair visits (work orders), capacity-safe.")
app.add_typer(webhooks.app, name="webhooks", help="Webhook endpoints of link-state changes and their delivery log.")
app.add_typer(fixtures.app, name="fixtures", help="Generate fabric documents offline (no server needed).")
app.add_typer(corropt.app, name="corropt", help="CorrOpt link-disabling decisions on files, offline (no server).")
app.add_typer(
    circuits.app,
    name="circuits",
    help="c-Through optical circuit schedules: offline on demand files, or as server jobs.",
)
app.add_typer(
    rail.app, name="rail", help="RAIL stretch plans, reliability classes and FEC on files, offline (no server)."
)
app.add_typer(
    sharebackup.app, name="sharebackup", help="ShareBackup failover plans and backup-pool sizing on files, offline."
)
app.add_typer(
    larry.app, name="larry", help="Larry rack-uplink controller, feasibility checks and costs on files, offline."
)


def main() -> None:
    app()
