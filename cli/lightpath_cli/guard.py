"""What the commands that take links out of service share: the capacity guard's answers.

The server decides every change to a link's admin state under its capacity guard
(docs/capacity-guard.md): a dry run answers a verdict with the ToRs whose up-paths change, a
refusal is a 409 naming the ToRs that would fall under their constraint. This module turns those
answers into output and into the one-line error with its own exit code.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any

import typer
from rich.text import Text

from .errors import CliError, UsageError
from .output import Column, OutputFormat, print_csv, print_json, print_rows, stdout_console
from .server.errors import ApiError
from .server.shapes import DRY_RUN_KEYS, DRY_RUN_TOR_KEYS

# The capacity guard refused the change (HTTP 409): nothing changed. Distinct from 1 (any other
# error) so that a script can tell "not allowed now" from "could not ask".
REFUSED_EXIT_CODE = 3

# CSV of a dry run: one row per affected ToR, with the verdict repeated and whether the ToR blocks.
DRY_RUN_CSV_KEYS = ("verdict", *DRY_RUN_TOR_KEYS, "blocking")
# A dry run's table lists at most this many link ids (a spine's drain may change hundreds).
LINKS_SHOWN = 10


def tor_row(tor: Mapping[str, Any]) -> dict[str, Any]:
    return {key: tor.get(key) for key in DRY_RUN_TOR_KEYS}


def constraint_text(value: Any) -> str:
    return "-" if value is None else f"{float(value):g}"


def tor_sentence(tor: Mapping[str, Any]) -> str:
    """`p1-tor5 would fall to 8 of 16 up-paths, under the 12 its constraint (0.75) requires`."""
    return (
        f"{tor.get('name')} would fall to {tor.get('paths_after')} of {tor.get('design_paths')} up-paths, "
        f"under the {tor.get('required_paths')} its constraint ({constraint_text(tor.get('constraint'))}) requires"
    )


def refusal(error: ApiError) -> CliError:
    """The 409 as one line from its first (worst) blocking ToR, exit code REFUSED_EXIT_CODE."""
    payload = error.payload if isinstance(error.payload, dict) else {}
    blocking = [tor for tor in payload.get("blocking_tors") or [] if isinstance(tor, dict)]
    if blocking:
        message = f"refused: {tor_sentence(blocking[0])}"
        if len(blocking) > 1:
            more = len(blocking) - 1
            message += f" (+{more} more ToR{'s' if more != 1 else ''})"
    else:  # a 409 without ToRs (not the guard's shape): the server's own sentence
        detail = str(payload.get("detail") or "the server refused the change").strip().rstrip(".")
        if detail.lower().startswith("refused:"):
            detail = detail[len("refused:") :].strip()
        message = f"refused: {detail}"
    return CliError(message, exit_code=REFUSED_EXIT_CODE)


def rejected(what: str, error: ApiError) -> CliError:
    """A 400 (an override without a reason, a bad value) as one line: `cannot WHAT: problem; problem`."""
    problems = "; ".join(error.details) or "the server rejected the request"
    return CliError(f"cannot {what}: {problems}")


def guarded_call(what: str, call: Callable[[], Any]) -> Any:
    """Run one request to a guarded endpoint; 409 and 400 become the lines above."""
    try:
        return call()
    except ApiError as error:
        if error.status == 409:
            raise refusal(error) from None
        if error.status == 400:
            raise rejected(what, error) from None
        raise


def check_force(force: bool, reason: str | None) -> None:
    """An override needs a reason: refused here, before asking the server (exit 2, a usage error)."""
    if force and not (reason or "").strip():
        raise UsageError("--force needs --reason: an override of the capacity guard must say why")


# ----------------------------------------------------------------------------------------------
# Printing


def request_body(reason: str | None, force: bool, **fields: Any) -> dict[str, Any]:
    """The body of a guarded change: `fields`, the reason if given, the override if forced
    (after check_force)."""
    body = dict(fields)
    if reason is not None:
        body["admin_reason"] = reason
    if force:
        body["override_capacity"] = True
    return body


def _paths_cell(row: Mapping[str, Any]) -> str:
    return f"{row.get('paths_before')} -> {row.get('paths_after')}"


def _blocking_cell(value: Any) -> Text:
    return Text("UNDER", style="bold red") if value else Text("ok", style="green")


AFFECTED_COLUMNS = (
    Column("name", "ToR"),
    Column("paths", "Up-paths", justify="right"),
    Column("design_paths", "Design", justify="right"),
    Column("required_paths", "Required", justify="right"),
    Column("constraint", "Constraint", render=constraint_text, justify="right"),
    Column("blocking", "After"),
)


def affected_rows(answer: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The affected ToRs (the blocking ones first, as the server orders them) with a `blocking` flag."""
    blocking = [tor for tor in answer.get("blocking_tors") or [] if isinstance(tor, dict)]
    blocking_ids = {(tor.get("switch"), tor.get("name")) for tor in blocking}
    affected = [tor for tor in answer.get("affected_tors") or [] if isinstance(tor, dict)]
    rows = [{**tor_row(tor), "blocking": True} for tor in blocking]
    rows += [
        {**tor_row(tor), "blocking": False}
        for tor in affected
        if (tor.get("switch"), tor.get("name")) not in blocking_ids
    ]
    return rows


def print_affected_table(rows: Sequence[dict[str, Any]]) -> None:
    if not rows:
        stdout_console().print("No ToR's up-paths change.", highlight=False)
        return
    table_rows = [{**row, "paths": _paths_cell(row), "blocking": _blocking_cell(row["blocking"])} for row in rows]
    print_rows(OutputFormat.table, table_rows, AFFECTED_COLUMNS, ())


def _verdict_text(verdict: Any) -> Text:
    if verdict == "safe":
        return Text("SAFE", style="bold green")
    if verdict == "unsafe":
        return Text("UNSAFE", style="bold red")
    return Text(str(verdict).upper())


def print_dry_run(fmt: OutputFormat, answer: Mapping[str, Any], subject: str) -> None:
    """A dry run's verdict. JSON: the server's answer (DRY_RUN_KEYS, ToRs as DRY_RUN_TOR_KEYS). CSV: the
    affected ToRs. Table: `dry run: disable link 12 (...): UNSAFE`, the server's sentence, the ToRs.
    An unsafe verdict is not an error: the exit code stays 0 (nothing was asked to change)."""
    if not isinstance(answer, Mapping) or answer.get("verdict") not in ("safe", "unsafe"):
        # A server without the capacity guard ignores ?dry_run=1 and does what was asked.
        raise CliError(
            f"the server answered the dry run of {subject} without a verdict: it may not know dry runs "
            "and may have applied the change"
        )
    if fmt is OutputFormat.json:
        data = {key: answer.get(key) for key in DRY_RUN_KEYS}
        for key in ("affected_tors", "blocking_tors"):
            data[key] = [tor_row(tor) for tor in answer.get(key) or [] if isinstance(tor, dict)]
        print_json(data)
        return
    rows = affected_rows(answer)
    if fmt is OutputFormat.csv:
        print_csv([{**row, "verdict": answer.get("verdict")} for row in rows], DRY_RUN_CSV_KEYS)
        return
    console = stdout_console()
    line = Text(f"dry run: {subject}: ")
    line.append_text(_verdict_text(answer.get("verdict")))
    console.print(line, highlight=False)
    links = answer.get("links") or []
    detail = str(answer.get("detail") or "").strip()
    if detail:
        console.print(detail, highlight=False)
    shown = ", ".join(str(link) for link in links[:LINKS_SHOWN]) + (", ..." if len(links) > LINKS_SHOWN else "")
    count = f"{len(links)} link{'s' if len(links) != 1 else ''}"
    console.print(f"{count} would change: {shown}" if links else "No link would change.", highlight=False)
    print_affected_table(rows)
    if answer.get("verdict") == "unsafe":
        console.print("Nothing changed. Without --dry-run the server refuses this change.", highlight=False)
    else:
        console.print("Nothing changed (dry run).", highlight=False)


def note_override(force: bool) -> None:
    if force:
        typer.echo("note: sent as an override of the capacity guard (--force), applied even if unsafe", err=True)


# ----------------------------------------------------------------------------------------------
# Options shared by the guarded commands

ReasonOption = Annotated[
    str | None,
    typer.Option("--reason", help="Why (kept as the link's admin reason and in the audit log)."),
]
DryRunOption = Annotated[
    bool,
    typer.Option(
        "--dry-run",
        help="Only ask the capacity guard: print the verdict and each affected ToR, change nothing "
        '(exit 0 also when unsafe; --output json gives "verdict").',
    ),
]
ForceOption = Annotated[
    bool,
    typer.Option(
        "--force",
        help="Admins: apply the change even if it leaves a ToR under its constraint (needs --reason).",
    ),
]
