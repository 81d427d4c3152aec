"""corropt check|optimize|switch-local: CorrOpt's decisions on files (offline) or on the server.

Offline (--fabric-file FABRIC.json with --corrupting CORRUPTING.csv), lightpath_cli.offline.corropt reads the
files and the engine decides. `check LINK` and `optimize FABRIC` work on the server's live fabric instead.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.text import Text

from ...context import CliContext, get_context
from ...offline.corropt import Command, decide
from ...options import (
    CancelOnInterruptOption,
    FabricFileAliasOption,
    IntervalOption,
    OutputOption,
    document_file,
    fabric_file_option,
    old_spelling,
    required,
)
from ...output import Column, OutputFormat, fraction, print_json, print_rows, stdout_console
from ...server.jobs import run_job
from ...server.lookup import resolve_fabric, resolve_link
from ...server.shapes import CHECK_AFFECTED_KEYS, OPTIMIZED_KEYS
from .options import (
    CORRUPTING_HELP,
    CapacityAliasOption,
    ConstraintOption,
    CorruptingOption,
    PenaltyName,
    PenaltyOption,
    StateOption,
    finite,
    fraction_option,
    server_fabric_argument,
)

DECISION_KEYS = (
    "link",
    "name",
    "loss_rate",
    "loss_rate_down",
    "penalty",
    "state",
    "action",
    "disabled",
    "refusal",
    "blocking_tors",
    "blocking_switch",
)
SUMMARY_KEYS = (
    "command",
    "fabric",
    "capacity",
    "penalty_function",
    "share",
    "corrupting",
    "candidates",
    "disabled",
    "kept",
    "skipped",
    "total_penalty",
    "remaining_penalty",
    "remaining_penalty_lower_bound",
    "proven_optimal",
    "worst_tor",
    "tors_below_threshold",
    "tors_below_threshold_before",
)


def _action_cell(action: Any) -> Text:
    style = {"disable": "bold green", "keep": "yellow", "skip": "dim"}.get(str(action), "")
    return Text(str(action), style=style)


def _rate(value: Any) -> str:
    return "-" if value is None else f"{float(value):.3g}"


DECISION_COLUMNS = (
    Column("link", "#", justify="right"),
    Column("name", "Link"),
    Column("loss_rate", "Loss rate", render=_rate, justify="right"),
    Column("loss_rate_down", "Down", render=_rate, justify="right"),
    Column("penalty", "Penalty", render=_rate, justify="right"),
    Column("action", "Decision", render=_action_cell),
    Column("blocked_by", "Blocked by"),
)


def _print(fmt: OutputFormat, report: dict[str, Any]) -> None:
    summary, decisions = report["summary"], report["decisions"]
    if fmt is OutputFormat.json:
        print_json(
            {
                "summary": {key: summary[key] for key in SUMMARY_KEYS},
                "decisions": [{key: row[key] for key in DECISION_KEYS} for row in decisions],
            }
        )
        return
    if fmt is OutputFormat.csv:
        print_rows(fmt, decisions, DECISION_COLUMNS, DECISION_KEYS)
        return
    table_rows = []
    for row in decisions:
        blocked = row["blocking_tors"] or (
            [f"{row['blocking_switch']} (up-link allowance)"] if row["blocking_switch"] else []
        )
        if row["action"] == "skip":
            blocked = [f"already {row['state']}"]
        table_rows.append({**row, "blocked_by": ", ".join(blocked) if blocked else "-"})
    print_rows(fmt, table_rows, DECISION_COLUMNS, [])
    worst = summary["worst_tor"]
    lines = [
        f"{summary['disabled']} disabled, {summary['kept']} kept, {summary['skipped']} skipped "
        f"of {summary['corrupting']} corrupting links (capacity {fraction(summary['capacity'])}"
        + (f", share {fraction(summary['share'])}" if summary["share"] is not None else "")
        + f", {summary['penalty_function']} penalty)",
        f"remaining penalty {summary['remaining_penalty']:.6g} of {summary['total_penalty']:.6g}",
    ]
    if summary["proven_optimal"] is not None:
        lines[-1] += (
            ", proven optimal"
            if summary["proven_optimal"]
            else f", not proven optimal (lower bound {summary['remaining_penalty_lower_bound']:.6g})"
        )
    if worst is not None:
        lines.append(
            f"worst ToR {worst['name']}: {worst['paths']}/{worst['design_paths']} paths "
            f"({fraction(worst['fraction'])}, needs {worst['required_paths']})"
        )
    if summary["tors_below_threshold"]:
        names = summary["tors_below_threshold"]
        already = set(summary["tors_below_threshold_before"])
        lines.append(f"{len(names)} ToR{'s' if len(names) != 1 else ''} below threshold: {_first_ten(names)}")
        if already >= set(names):
            lines[-1] += " (all already below before anything was disabled: links down or disabled in the input)"
        elif already:
            before = [name for name in names if name in already]
            lines.append(f"already below before anything was disabled: {_first_ten(before)}")
    for line in lines:
        stdout_console().print(line, highlight=False)


def _first_ten(names: list[str]) -> str:
    return ", ".join(names[:10]) + (f" and {len(names) - 10} more" if len(names) > 10 else "")


# ---------------------------------------------------------------------------------------------
# Commands


FabricFileOption = Annotated[
    Path | None, fabric_file_option('Offline: a "lightpath-fabric/1" interchange document (with --corrupting).')
]
OptionalCorruptingOption = Annotated[
    Path | None,
    typer.Option("--corrupting", metavar="CORRUPTING.csv", show_default=False, help=f"Offline: {CORRUPTING_HELP}"),
]
TimeBudgetOption = Annotated[
    float | None,
    typer.Option(
        "--time-budget",
        metavar="SECONDS",
        min=0.0,
        show_default=False,
        help="Stop after this long with the best answer found and a lower bound [default: run to optimality; "
        "on the server: its CORRUPTION_OPTIMIZER time budget].",
    ),
]


def _offline_files(fabric: Path | None, corrupting: Path | None) -> tuple[Path, Path]:
    if fabric is None or corrupting is None:
        missing = "--fabric-file FABRIC.json" if fabric is None else "--corrupting CORRUPTING.csv"
        raise typer.BadParameter(
            f"offline needs --fabric-file FABRIC.json and --corrupting CORRUPTING.csv ({missing} is missing)"
        )
    return fabric, corrupting


def _offline_only(**given: Any) -> None:
    for option, value in given.items():
        if value is not None:
            raise typer.BadParameter(
                "applies only offline (--fabric-file FABRIC.json)", param_hint=f"'--{option.replace('_', '-')}'"
            )


def check(
    ctx: typer.Context,
    link: Annotated[
        str | None,
        typer.Argument(
            metavar="LINK",
            show_default=False,
            help="A link on the server (id, SWITCH:PORT or A_SWITCH:A_PORT-Z_SWITCH:Z_PORT): a dry run of the fast "
            "checker on the live fabric. --fabric NAME then names its fabric when the link's name is ambiguous.",
        ),
    ] = None,
    fabric: Annotated[
        str | None,
        typer.Option(
            "--fabric",
            metavar="NAME",
            show_default=False,
            help="With LINK: the link's fabric on the server (name or id), when the link's name is ambiguous.",
        ),
    ] = None,
    fabric_file: FabricFileOption = None,
    corrupting: OptionalCorruptingOption = None,
    state: StateOption = None,
    constraint: ConstraintOption = None,
    capacity: CapacityAliasOption = None,
    penalty: PenaltyOption = PenaltyName.linear,
    loss_rate: Annotated[
        float | None,
        fraction_option(
            "--loss-rate",
            help="With LINK: assume this A-to-Z (upward) corruption rate [default: the link's open event].",
        ),
    ] = None,
    loss_rate_down: Annotated[
        float | None,
        fraction_option("--loss-rate-down", help="With LINK: assume this Z-to-A (downward) corruption rate."),
    ] = None,
    output: OutputOption = None,
) -> None:
    """Fast checker: disable what the ToRs allow.

    With LINK: would the server's fast checker disable this link now, or keep it for capacity (and for
    which ToR)? Nothing changes. The rates are the link's open corruption event's, or --loss-rate and
    --loss-rate-down. JSON output is the server's answer (GET /api/links/ID/corropt-check/).

    Offline, with --fabric-file FABRIC.json and --corrupting CORRUPTING.csv: in decreasing penalty, each link is
    disabled if and only if no ToR below it falls under its threshold.
    """
    cli = get_context(ctx)
    fmt = cli.output_format(output)
    if link is not None:
        _offline_only(
            fabric_file=fabric_file, corrupting=corrupting, state=state, constraint=constraint, capacity=capacity
        )
        _check_on_server(cli, fmt, link, fabric, loss_rate, loss_rate_down)
        return
    for option, value in (("--loss-rate", loss_rate), ("--loss-rate-down", loss_rate_down)):
        if value is not None:
            raise typer.BadParameter("applies only to LINK (a dry run on the server)", param_hint=f"'{option}'")
    # Offline, --fabric is the document's old spelling (deprecated, as before --fabric-file).
    document = document_file(fabric_file, None if fabric is None else Path(fabric))
    fabric_path, corrupting_path = _offline_files(document, corrupting)
    constraint = old_spelling(constraint, capacity, "--constraint", "--capacity")
    report = decide(Command.check, fabric_path, state, corrupting_path, constraint, penalty.value)
    _print(fmt, report)


def optimize(
    ctx: typer.Context,
    server_fabric: Annotated[
        str | None,
        server_fabric_argument("run the optimizer there as a job, which disables what it finds, and follow it."),
    ] = None,
    fabric_file: FabricFileOption = None,
    fabric_old: FabricFileAliasOption = None,
    corrupting: OptionalCorruptingOption = None,
    state: StateOption = None,
    constraint: ConstraintOption = None,
    capacity: CapacityAliasOption = None,
    penalty: PenaltyOption = PenaltyName.linear,
    time_budget: TimeBudgetOption = None,
    cancel_on_interrupt: CancelOnInterruptOption = False,
    interval: IntervalOption = 1.0,
    output: OutputOption = None,
) -> None:
    """Exact optimizer: least remaining penalty.

    With FABRIC (a fabric on the server): submits the corruption.optimize job, which disables the best set
    of the fabric's enabled corrupting links (each with a decision and a ticket), and follows it with a
    progress bar; Ctrl-C detaches (the job keeps running) unless --cancel-on-interrupt. Prints the links
    it disabled and those it kept with the ToR that blocks them; --output json prints the job's result.

    Offline, with --fabric-file FABRIC.json and --corrupting CORRUPTING.csv: the enabled corrupting links to
    disable that leave the least penalty while every ToR keeps its threshold. Kept links show the ToRs that
    could not lose them on top of the answer.
    """
    cli = get_context(ctx)
    fmt = cli.output_format(output)
    document = document_file(fabric_file, fabric_old)
    if server_fabric is not None:
        if document is not None:
            raise typer.BadParameter(
                "give FABRIC (a fabric on the server) or --fabric-file FABRIC.json (offline), not both",
                param_hint="'FABRIC'",
            )
        _offline_only(corrupting=corrupting, state=state, constraint=constraint, capacity=capacity)
        finite(time_budget, "--time-budget")
        _optimize_on_server(cli, fmt, server_fabric, time_budget, interval, cancel_on_interrupt)
        return
    fabric_path, corrupting_path = _offline_files(document, corrupting)
    constraint = old_spelling(constraint, capacity, "--constraint", "--capacity")
    report = decide(
        Command.optimize, fabric_path, state, corrupting_path, constraint, penalty.value, time_budget=time_budget
    )
    _print(fmt, report)


# ---------------------------------------------------------------------------------------------
# check LINK and optimize FABRIC on the server

CHECK_AFFECTED_COLUMNS = (
    Column("name", "ToR"),
    Column("paths_before", "Paths before", justify="right"),
    Column("paths_after", "After", justify="right"),
    Column("design_paths", "Design", justify="right"),
    Column("required_paths", "Required", justify="right"),
    Column("fraction_before", "Fraction before", render=fraction, justify="right"),
    Column("fraction_after", "After", render=fraction, justify="right"),
    Column("threshold", "Constraint", render=fraction, justify="right"),
)
VERDICT_TEXT = {"disable": "would be DISABLED", "keep": "would be KEPT for capacity", "not_applicable": "not checked"}
OPTIMIZED_COLUMNS = (
    Column("action", "Decision", render=lambda value: _action_cell("disable" if value == "disabled" else "keep")),
    Column("link", "#", justify="right"),
    Column("link_name", "Link"),
    Column("penalty", "Penalty", render=_rate, justify="right"),
    Column("blocking_tor_name", "Blocked by", render=lambda value: value or "-"),
    Column("decision", "Decision id", justify="right"),
)


def _check_on_server(
    cli: CliContext,
    fmt: OutputFormat,
    reference: str,
    fabric_reference: str | None,
    up: float | None,
    down: float | None,
) -> None:
    with cli.client() as client:
        fabric = resolve_fabric(client, fabric_reference) if fabric_reference else None
        found = resolve_link(client, reference, fabric)
        params = {key: value for key, value in (("loss_rate", up), ("loss_rate_down", down)) if value is not None}
        answer: dict[str, Any] = client.get(f"/api/links/{found['id']}/corropt-check/", params)
    if fmt is OutputFormat.json:
        print_json(answer)
        return
    if fmt is OutputFormat.csv:
        print_rows(fmt, answer["affected"], CHECK_AFFECTED_COLUMNS, CHECK_AFFECTED_KEYS)
        return
    console = stdout_console()
    console.print(f"{answer['link_name']}: {VERDICT_TEXT.get(answer['verdict'], answer['verdict'])}", highlight=False)
    console.print(answer["reason"], highlight=False)
    console.print(
        f"loss rate A->Z {_rate(answer['loss_rate_a_to_z'])}, Z->A {_rate(answer['loss_rate_z_to_a'])}, "
        f"penalty {_rate(answer['penalty'])}"
        + (f"; open event {answer['event']}" if answer["event"] else "; no open corruption event"),
        highlight=False,
    )
    if answer["affected"]:
        print_rows(fmt, answer["affected"], CHECK_AFFECTED_COLUMNS, [])
    last = answer.get("last_decision")
    if last:
        console.print(f"last decision: {last['kind']} {last['action']} ({last['created']})", highlight=False)


def _optimize_on_server(
    cli: CliContext,
    fmt: OutputFormat,
    fabric_reference: str,
    time_budget: float | None,
    interval: float,
    cancel: bool,
) -> None:
    with cli.client() as client:
        fabric = resolve_fabric(client, fabric_reference)
        params = {} if time_budget is None else {"time_budget_s": time_budget}
        job = run_job(
            client,
            "corruption.optimize",
            params,
            fabric_id=fabric["id"],
            what="optimizer",
            where=f" on {fabric['name']}",
            interval=interval,
            cancel_on_interrupt=cancel,
        )
    result = job["result"]
    if fmt is OutputFormat.json:
        print_json({"job": job["id"], **result})
        return
    rows = [{**row, "action": "disabled"} for row in result["disabled"]] + [
        {**row, "action": "kept"} for row in result["kept"]
    ]
    if fmt is OutputFormat.csv:
        print_rows(fmt, rows, OPTIMIZED_COLUMNS, OPTIMIZED_KEYS)
        return
    if rows:
        print_rows(fmt, rows, OPTIMIZED_COLUMNS, [])
    lines = [f"{fabric['name']}: {len(result['disabled'])} disabled, {len(result['kept'])} newly kept"]
    if "candidates" in result:  # absent when a re-run found its committed decisions
        worst = result["worst_tor"]
        lines[0] += f", {result['still_kept']} still kept, of {result['candidates']} corrupting links in service"
        lines.append(
            f"remaining penalty {result['remaining_penalty']:.6g}"
            + (
                ", proven optimal"
                if result["proven_optimal"]
                else f", not proven optimal within {result['time_budget_s']:g} s "
                f"(lower bound {result['remaining_penalty_lower_bound']:.6g})"
            )
        )
        if worst is not None:
            lines.append(f"worst ToR {worst['name']}: {fraction(worst['fraction'])} of its up-paths")
    lines.append(f"job {job['id']}; its decisions: GET /api/decisions/?job={job['id']}")
    for line in lines:
        stdout_console().print(line, highlight=False)


def switch_local(
    ctx: typer.Context,
    corrupting: CorruptingOption,
    fabric_file: Annotated[Path | None, fabric_file_option()] = None,
    fabric_old: FabricFileAliasOption = None,
    state: StateOption = None,
    constraint: ConstraintOption = None,
    capacity: CapacityAliasOption = None,
    penalty: PenaltyOption = PenaltyName.linear,
    share: Annotated[
        float | None,
        fraction_option(
            "--share", help="Share of its up-links each switch keeps [default: capacity^(1/r), r tiers above the ToR]."
        ),
    ] = None,
    output: OutputOption = None,
) -> None:
    """Switch-local baseline, as operators run it.

    In decreasing penalty, a switch with m up-links disables at most floor(m(1 - share)) of them;
    ToR thresholds are not consulted (the summary shows the damage).
    """
    fabric = required(document_file(fabric_file, fabric_old), "--fabric-file")
    constraint = old_spelling(constraint, capacity, "--constraint", "--capacity")
    report = decide(Command.switch_local, fabric, state, corrupting, constraint, penalty.value, share=share)
    _print(get_context(ctx).output_format(output), report)
