"""fabric list|show|import|export|capacity|recovery|validate|constraints."""

from __future__ import annotations

import sys
from enum import StrEnum
from typing import Annotated, Any

import typer
from rich.text import Text

from lightpath_fixtures import document_json

from .. import guard
from ..context import get_context
from ..errors import CliError, UsageError
from ..offline.files import read_document_file
from ..options import CancelOnInterruptOption, IntervalOption, OutFileOption, OutputOption, new_app
from ..output import (
    Column,
    OutputFormat,
    fraction,
    print_json,
    print_record,
    print_rows,
    stdout_console,
    timestamp,
)
from ..server.client import ApiClient
from ..server.errors import ApiError, format_error_row, rejected
from ..server.follow import job_failure, watch_job
from ..server.lookup import resolve_fabric
from ..server.shapes import (
    CAPACITY_TOR_KEYS,
    CHANGE_KEYS,
    CONSTRAINTS_KEYS,
    CONSTRAINTS_SET_KEYS,
    FABRIC_KEYS,
    JOB_KEYS,
    RECOVERY_APPLIED_KEYS,
    RECOVERY_KEYS,
    RECOVERY_TOR_KEYS,
    RECOVERY_UNREACHABLE_KEYS,
    RESTORATION_LINK_KEYS,
)
from .jobs import JOB_DETAIL_COLUMNS

app = new_app()

# Importing or exporting 100K links takes a while on the server; everything else uses the default.
TRANSFER_TIMEOUT_S = 600.0

FABRIC_LIST_COLUMNS = (
    Column("id", "ID", justify="right"),
    Column("name", "Name"),
    Column("tiers", "Tiers"),
    Column("switch_count", "Switches", justify="right"),
    Column("link_count", "Links", justify="right"),
    Column("capacity_constraint", "Constraint", render=fraction, justify="right"),
    Column("updated", "Updated", render=timestamp),
)


def _days(value: Any) -> str:
    return "-" if value is None else f"{value} day{'' if value == 1 else 's'}"


def _percent(value: Any) -> str:
    return "-" if value is None else f"{round(float(value) * 100)}%"


FABRIC_DETAIL_COLUMNS = (
    Column("id", "ID"),
    Column("name", "Name"),
    Column("description", "Description", render=lambda value: value or "-"),
    Column("tiers", "Tiers"),
    Column("capacity_constraint", "Constraint", render=fraction),
    Column("forecast_horizon_days", "Forecast horizon", render=_days),
    Column("forecast_min_confidence", "Least confidence", render=_percent),
    Column(
        "auto_preventive_tickets", "Auto preventive", render=lambda on: "-" if on is None else "yes" if on else "no"
    ),
    Column("switch_count", "Switches"),
    Column("link_count", "Links"),
    Column("created", "Created", render=timestamp),
    Column("updated", "Updated", render=timestamp),
)
TOR_COLUMNS = (
    Column("name", "ToR"),
    Column("pod", "Pod", justify="right"),
    Column("paths", "Paths", justify="right"),
    Column("fraction", "Fraction", render=fraction, justify="right"),
    Column("constraint", "Constraint", render=fraction, justify="right"),
    Column(
        "below_constraint",
        "Flag",
        render=lambda below: Text("BELOW", style="bold red") if below else Text(""),
    ),
)

NameOrIdArgument = Annotated[
    str, typer.Argument(metavar="NAME_OR_ID", help="Fabric name or numeric id.", show_default=False)
]
DocumentArgument = Annotated[
    str,
    typer.Argument(metavar="FILE", help='A "lightpath-fabric/1" JSON document; "-" reads stdin.', show_default=False),
]


class ExportFormat(StrEnum):
    json = "json"
    csv = "csv"


def _print_fabric(fmt: OutputFormat, fabric: dict[str, Any]) -> None:
    print_record(fmt, fabric, FABRIC_DETAIL_COLUMNS, FABRIC_KEYS)


@app.command("list")
def list_fabrics(ctx: typer.Context, output: OutputOption = None) -> None:
    """List every fabric."""
    cli = get_context(ctx)
    with cli.client() as client:
        fabrics = list(client.iterate("/api/fabrics/"))
    print_rows(cli.output_format(output), fabrics, FABRIC_LIST_COLUMNS, FABRIC_KEYS)


@app.command("show")
def show(ctx: typer.Context, name_or_id: NameOrIdArgument, output: OutputOption = None) -> None:
    """Show one fabric."""
    cli = get_context(ctx)
    with cli.client() as client:
        fabric = resolve_fabric(client, name_or_id)
    _print_fabric(cli.output_format(output), fabric)


def _import_rejected(file: str, error: ApiError) -> CliError:
    if error.status != 400:
        return error
    count = len(error.details)
    return CliError(f"import of {file} rejected: {count} error{'s' if count != 1 else ''}", details=error.details)


def _imported_fabric(client: ApiClient, job: dict[str, Any], name: str) -> dict[str, Any]:
    """The fabric a finished import job made: its `fabric` field, else the result's, else by name."""
    result = job.get("result") if isinstance(job.get("result"), dict) else {}
    reference = job.get("fabric") or (result or {}).get("fabric")
    if isinstance(reference, dict) and reference.get("id") is not None:
        reference = reference["id"]
    return resolve_fabric(client, str(reference) if reference is not None else name)


@app.command("import")
def import_fabric(
    ctx: typer.Context,
    file: DocumentArgument,
    name: Annotated[
        str | None, typer.Option("--name", help="Import under this name instead of the document's.")
    ] = None,
    background: Annotated[
        bool,
        typer.Option(
            "--background/--wait",
            help="--background runs the import as a server job and follows its progress; --wait imports in one request.",
        ),
    ] = False,
    detach: Annotated[
        bool, typer.Option("--detach", help="With --background: print the job and return without following it.")
    ] = False,
    cancel_on_interrupt: CancelOnInterruptOption = False,
    interval: IntervalOption = 1.0,
    output: OutputOption = None,
) -> None:
    """Import a fabric document.

    POST /api/fabrics/import/. A rejected document is reported row by row on stderr (exit 1).
    """
    cli = get_context(ctx)
    fmt = cli.output_format(output)
    doc = read_document_file(file)
    if name:
        doc["name"] = name
    with cli.client() as client:
        try:
            if not background:
                fabric = client.post("/api/fabrics/import/", doc, timeout=TRANSFER_TIMEOUT_S)
            else:
                job = client.post("/api/fabrics/import/", doc, params={"background": 1}, timeout=TRANSFER_TIMEOUT_S)
        except ApiError as error:
            raise _import_rejected(file, error) from error
        if background:
            if detach:
                print_record(fmt, job, JOB_DETAIL_COLUMNS, JOB_KEYS)
                typer.echo(f"import running as job {job['id']}: `lightpath jobs watch {job['id']}`", err=True)
                return
            job = watch_job(client, int(job["id"]), interval=interval, cancel_on_interrupt=cancel_on_interrupt)
            if job.get("state") != "succeeded":
                raise job_failure(job)
            fabric = _imported_fabric(client, job, str(doc.get("name")))
    if fmt is OutputFormat.table:
        typer.echo(
            f"Imported fabric {fabric.get('name')} (id {fabric.get('id')}): "
            f"{fabric.get('switch_count')} switches, {fabric.get('link_count')} links"
        )
    else:
        _print_fabric(fmt, fabric)


@app.command("export")
def export(
    ctx: typer.Context,
    name_or_id: NameOrIdArgument,
    format: Annotated[
        ExportFormat, typer.Option("--format", case_sensitive=False, help="json: the whole document; csv: links only.")
    ] = ExportFormat.json,
    out_file: OutFileOption = None,
    compact: Annotated[bool, typer.Option("--compact", help="JSON without indentation (smaller, faster).")] = False,
) -> None:
    """Export a fabric document (or its links as CSV)."""
    cli = get_context(ctx)
    with cli.client() as client:
        fabric = resolve_fabric(client, name_or_id)
        response = client.request(
            "GET",
            f"/api/fabrics/{fabric['id']}/export/",
            params={"format": format.value},
            timeout=TRANSFER_TIMEOUT_S,
            # Asks for CSV without ruling out a JSON-only negotiator that reads ?format= itself.
            headers={"Accept": "text/csv, application/json;q=0.9, */*;q=0.8"} if format is ExportFormat.csv else None,
        )
    if format is ExportFormat.json:
        try:
            text = document_json(response.json(), indent=None if compact else 2)
        except ValueError as exc:
            raise CliError(f"the export of fabric {fabric['name']!r} is not JSON") from exc
    else:
        text = response.text if response.text.endswith("\n") else response.text + "\n"
    if out_file is None:
        sys.stdout.write(text)
    else:
        out_file.write_text(text, encoding="utf-8")
        typer.echo(f"exported fabric {fabric['name']} to {out_file}", err=True)


@app.command("capacity")
def capacity(
    ctx: typer.Context,
    name_or_id: NameOrIdArgument,
    below_only: Annotated[bool, typer.Option("--below-only", help="Only ToRs under their constraint.")] = False,
    output: OutputOption = None,
) -> None:
    """Per-ToR capacity against the constraint.

    For each ToR: usable / total upward paths, the fraction, its constraint, and a BELOW flag.
    """
    cli = get_context(ctx)
    fmt = cli.output_format(output)
    with cli.client() as client:
        fabric = resolve_fabric(client, name_or_id)
        report = client.get(f"/api/fabrics/{fabric['id']}/capacity/")
    tors = [tor for tor in report.get("tors") or [] if tor.get("below_constraint") or not below_only]
    summary = report.get("summary") or {}
    if fmt is OutputFormat.json:
        print_json(
            {
                "fabric": {"id": fabric["id"], "name": fabric["name"]},
                "capacity_constraint": report.get("capacity_constraint"),
                "summary": {key: summary.get(key) for key in ("tors", "below_constraint", "min_fraction")},
                "tors": [{key: tor.get(key) for key in CAPACITY_TOR_KEYS} for tor in tors],
            }
        )
        return
    if fmt is OutputFormat.csv:
        print_rows(fmt, tors, TOR_COLUMNS, CAPACITY_TOR_KEYS)
        return
    table_rows = [{**tor, "paths": f"{tor.get('available_paths')}/{tor.get('total_paths')}"} for tor in tors]
    print_rows(fmt, table_rows, TOR_COLUMNS, CAPACITY_TOR_KEYS)
    stdout_console().print(
        f"{summary.get('tors')} ToRs, {summary.get('below_constraint')} below their constraint, "
        f"lowest fraction {fraction(summary.get('min_fraction'))} "
        f"(fabric constraint {fraction(report.get('capacity_constraint'))})",
        highlight=False,
    )


RECOVERY_LINK_COLUMNS = (
    Column("id", "Link", justify="right"),
    Column("name", "Name"),
    Column("loss_rate", "Loss rate", render=lambda value: f"{float(value):.2e}", justify="right"),
    Column("penalty", "Penalty", render=lambda value: f"{float(value):.2e}", justify="right"),
)


def _recovery_json(proposal: dict[str, Any]) -> dict[str, Any]:
    return {
        **{key: proposal.get(key) for key in RECOVERY_KEYS},
        "under_tors": [{key: tor.get(key) for key in RECOVERY_TOR_KEYS} for tor in proposal.get("under_tors") or []],
        "links": [{key: link.get(key) for key in RESTORATION_LINK_KEYS} for link in proposal.get("links") or []],
        "unreachable_tors": [
            {key: tor.get(key) for key in RECOVERY_UNREACHABLE_KEYS} for tor in proposal.get("unreachable_tors") or []
        ],
    }


@app.command("recovery")
def recovery(
    ctx: typer.Context,
    name_or_id: NameOrIdArgument,
    apply: Annotated[
        bool, typer.Option("--apply", help="Enable the proposed links now (operators and admins).")
    ] = False,
    output: OutputOption = None,
) -> None:
    """Capacity recovery: the ToRs under their requirement (links went down) and the links
    disabled for corruption whose re-enabling brings them back at the least added penalty; ToRs
    no lossy link brings back need a repair.

    --apply enables exactly the proposal (reason 'restoration: capacity recovery'); when it
    changed meanwhile the server refuses it: one line, exit 3."""
    cli = get_context(ctx)
    fmt = cli.output_format(output)
    with cli.client() as client:
        fabric = resolve_fabric(client, name_or_id)
        path = f"/api/fabrics/{fabric['id']}/recovery/"
        proposal = client.get(path)
        applied = None
        if apply and proposal.get("links"):
            try:
                applied = client.post(path, {"links": [link["id"] for link in proposal["links"]]})
            except ApiError as error:
                if error.status != 409:
                    raise
                detail = str((error.payload or {}).get("detail") or "the recovery changed").rstrip(".")
                raise CliError(f"refused: {detail}", exit_code=guard.REFUSED_EXIT_CODE) from None
    if fmt is OutputFormat.json:
        if applied is None:
            print_json(_recovery_json(proposal))
        else:
            print_json(
                {
                    **{key: applied.get(key) for key in RECOVERY_APPLIED_KEYS},
                    "enabled": [{key: row.get(key) for key in RESTORATION_LINK_KEYS} for row in applied["enabled"]],
                    "after": _recovery_json(applied.get("after") or {}),
                }
            )
        return
    links = applied["enabled"] if applied is not None else proposal.get("links")
    if fmt is OutputFormat.csv:
        print_rows(fmt, links or [], RECOVERY_LINK_COLUMNS, RESTORATION_LINK_KEYS)
        return
    out = stdout_console()
    out.print(str((applied or proposal).get("detail") or ""), highlight=False)
    if links:
        print_rows(fmt, links, RECOVERY_LINK_COLUMNS, RESTORATION_LINK_KEYS)
    if apply and applied is None:
        typer.echo("nothing to apply: no lossy link brings a ToR back", err=True)
    elif links and applied is None and not proposal.get("auto_restore"):
        out.print(f"apply it with: lightpath fabric recovery {name_or_id} --apply", highlight=False)


@app.command("validate")
def validate(ctx: typer.Context, file: DocumentArgument, output: OutputOption = None) -> None:
    """Check a document against the server's import rules without writing anything.

    POST /api/fabrics/import/?dry_run=1; exits 1 if the import would be rejected.
    """
    cli = get_context(ctx)
    fmt = cli.output_format(output)
    doc = read_document_file(file)
    errors: list[dict[str, Any]] = []
    summary: dict[str, Any] = {}
    with cli.client() as client:
        try:
            summary = client.post("/api/fabrics/import/", doc, params={"dry_run": 1}, timeout=TRANSFER_TIMEOUT_S)
        except ApiError as error:
            if error.status != 400 or not isinstance(error.payload, dict) or "errors" not in error.payload:
                raise
            errors = error.payload["errors"]
    switches, links = summary.get("switches", 0), summary.get("links", 0)
    kept = summary.get("transceiver_models_kept", [])
    if fmt is OutputFormat.json:
        print_json(
            {
                "file": file,
                "valid": not errors,
                "switches": switches,
                "links": links,
                "errors": errors,
                "transceiver_models_kept": kept,
            }
        )
        if errors:
            raise typer.Exit(1)
        return
    if fmt is OutputFormat.csv:
        print_rows(fmt, errors, (), ("section", "index", "field", "message"))
        if errors:
            raise typer.Exit(1)
        return
    if errors:
        count = len(errors)
        raise CliError(
            f"{file}: {count} problem{'s' if count != 1 else ''}",
            details=[format_error_row(row) for row in errors],
        )
    typer.echo(f"{file}: valid ({switches} switches, {links} links)")
    for model in kept:
        differences = ", ".join(
            f"{field} {values['document']} (catalog {values['catalog']})"
            for field, values in model["differences"].items()
        )
        typer.echo(f"note: transceiver model {model['name']} is in the catalog; its entry is kept: {differences}")


# ----------------------------------------------------------------------------------------------
# fabric constraints


def _fraction_value(text: str, what: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise UsageError(f"{what}: {text!r} is not a number") from None
    if not 0.0 <= value <= 1.0:  # NaN fails this too
        raise UsageError(f"{what}: {text} is not a fraction between 0 and 1")
    return value


def _overrides(tor: list[str], clear_tor: list[str]) -> dict[str, float | None]:
    """`--tor NAME=C` and `--clear-tor NAME` as the PATCH's `overrides` (null clears)."""
    overrides: dict[str, float | None] = {}
    for item in tor:
        name, sep, value = item.rpartition("=")
        if not sep or not name.strip():
            raise UsageError(f"--tor {item!r}: expected NAME=FRACTION, e.g. --tor p1-tor5=0.5")
        name = name.strip()
        if name in overrides:
            raise UsageError(f"--tor {name}: given twice")
        overrides[name] = _fraction_value(value.strip(), f"--tor {name}")
    for name in clear_tor:
        if name in overrides:
            raise UsageError(f"{name}: both --tor and --clear-tor")
        overrides[name] = None
    return overrides


def _print_constraints(fmt: OutputFormat, answer: dict[str, Any], fabric: dict[str, Any], changed: bool) -> None:
    if fmt is OutputFormat.json:
        data = {key: answer.get(key) for key in (CONSTRAINTS_SET_KEYS if changed else CONSTRAINTS_KEYS)}
        if changed:
            data["changes"] = [{key: row.get(key) for key in CHANGE_KEYS} for row in answer.get("changes") or []]
            job = answer.get("optimizer_job")
            data["optimizer_job"] = {key: job.get(key) for key in JOB_KEYS} if isinstance(job, dict) else None
        print_json(data)
        return
    overrides = answer.get("overrides") or {}
    if fmt is OutputFormat.csv:
        rows = [{"tor": None, "constraint": answer.get("default")}]
        rows += [{"tor": name, "constraint": value} for name, value in overrides.items()]
        print_rows(fmt, rows, (), ("tor", "constraint"))
        return
    console = stdout_console()
    console.print(
        f"Fabric {fabric.get('name')}: default constraint {fraction(answer.get('default'))} "
        f"({answer.get('tors')} ToRs, {len(overrides)} with their own)",
        highlight=False,
    )
    if overrides:
        rows = [{"name": name, "constraint": value} for name, value in overrides.items()]
        print_rows(
            fmt, rows, (Column("name", "ToR"), Column("constraint", "Constraint", render=fraction, justify="right")), ()
        )
    if not changed:
        return
    changes = answer.get("changes") or []
    if not changes:
        console.print("Nothing changed: the constraints were already so.", highlight=False)
        return

    def shown(value: Any) -> str:
        return "none" if value is None else fraction(value)

    for change in changes:
        console.print(
            f"changed {change.get('switch') or 'default'}: {shown(change.get('before'))} -> {shown(change.get('after'))}",
            highlight=False,
        )
    job = answer.get("optimizer_job")
    if isinstance(job, dict):
        console.print(
            f"CorrOpt's optimizer re-runs as job {job.get('id')} ({job.get('state')}): "
            f"`lightpath jobs watch {job.get('id')}`",
            highlight=False,
        )


@app.command("set")
def set_settings(
    ctx: typer.Context,
    name_or_id: NameOrIdArgument,
    horizon: Annotated[
        int | None,
        typer.Option(
            "--forecast-horizon-days",
            metavar="DAYS",
            help="A link is at risk when its optics are forecast to cross their limit within this many days (1-60).",
        ),
    ] = None,
    confidence: Annotated[
        float | None,
        typer.Option(
            "--forecast-min-confidence",
            metavar="C",
            help="The least share of the trend's slopes crossing within the horizon, for at risk (0.5-0.99).",
        ),
    ] = None,
    auto_preventive: Annotated[
        bool | None,
        typer.Option(
            "--auto-preventive-tickets/--no-auto-preventive-tickets",
            help="Open a preventive ticket by itself for each link that becomes at risk (operators, admins).",
            show_default=False,
        ),
    ] = None,
    output: OutputOption = None,
) -> None:
    """Change the fabric's forecast settings (PATCH /api/fabrics/ID/); only what is named changes.
    The server checks the ranges and who may turn automatic preventive tickets on; a refusal is one
    line naming every problem. Prints the fabric as `fabric show` does."""
    body: dict[str, Any] = {
        key: value
        for key, value in (
            ("forecast_horizon_days", horizon),
            ("forecast_min_confidence", confidence),
            ("auto_preventive_tickets", auto_preventive),
        )
        if value is not None
    }
    if not body:
        raise UsageError(
            "nothing to set: give --forecast-horizon-days, --forecast-min-confidence or --[no-]auto-preventive-tickets"
        )
    cli = get_context(ctx)
    with cli.client() as client:
        fabric = resolve_fabric(client, name_or_id)
        try:
            answer = client.patch(f"/api/fabrics/{fabric['id']}/", body)
        except ApiError as error:
            if error.status != 400:
                raise
            raise rejected(error, f"the settings of fabric {fabric['name']!r}") from None
    _print_fabric(cli.output_format(output), answer)


@app.command("constraints")
def constraints(
    ctx: typer.Context,
    name_or_id: NameOrIdArgument,
    default: Annotated[
        str | None,
        typer.Option("--default", metavar="C", help="The fabric's default constraint, a fraction (0..1)."),
    ] = None,
    tor: Annotated[
        list[str] | None,
        typer.Option("--tor", metavar="NAME=C", help="A ToR's own constraint; repeatable."),
    ] = None,
    clear_tor: Annotated[
        list[str] | None,
        typer.Option(
            "--clear-tor", metavar="NAME", help="Drop a ToR's own constraint (it takes the default); repeatable."
        ),
    ] = None,
    output: OutputOption = None,
) -> None:
    """Show the capacity constraints (the default and per-ToR overrides), or change them.

    Without options: GET /api/fabrics/ID/constraints/. With --default, --tor or --clear-tor: PATCH
    (operators, admins); only what is named changes. The server audits every change and re-runs
    CorrOpt's optimizer; the job is printed (`lightpath jobs watch ID`)."""
    cli = get_context(ctx)
    fmt = cli.output_format(output)
    body: dict[str, Any] = {}
    if default is not None:
        body["default"] = _fraction_value(default, "--default")
    overrides = _overrides(tor or [], clear_tor or [])
    if overrides:
        body["overrides"] = overrides
    with cli.client() as client:
        fabric = resolve_fabric(client, name_or_id)
        path = f"/api/fabrics/{fabric['id']}/constraints/"
        if not body:
            answer = client.get(path)
        else:
            try:
                answer = client.patch(path, body)
            except ApiError as error:
                if error.status != 400:
                    raise
                raise guard.rejected(f"change the constraints of fabric {fabric['name']!r}", error) from None
    _print_constraints(fmt, answer, fabric, changed=bool(body))
