"""corropt check|optimize|switch-local|trace|simulate: CorrOpt on files, offline, or on the server.

Offline (--fabric FABRIC.json), the fabric is an interchange document; the engine (lightpath_engine)
decides, no server is involved. `check LINK`, `optimize FABRIC` and `simulate FABRIC` work on the
server's live fabric instead, through the REST API.
Switch index = position in `switches`, link index = position in `links`; a link is named
`a:a_port-b:b_port` as written in the document (the reverse order is accepted too).
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import math
import os
import sys
import tempfile
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, Progress, SpinnerColumn, TaskProgressColumn, TextColumn, TimeElapsedColumn
from rich.text import Text

from ..context import get_context
from ..errors import CliError
from ..lookup import resolve_fabric
from ..options import OutFileOption, OutputOption, new_app
from ..output import (
    Column,
    OutputFormat,
    fraction,
    print_csv,
    print_json,
    print_rows,
    stderr_console,
    stdout_console,
)
from .fabric import read_document_file
from .jobs import CancelOnInterruptOption, IntervalOption, start_and_follow

app = new_app()

LINK_STATES = ("enabled", "disabled", "down")
CORRUPTING_HEADER = ("link", "loss_rate")
CORRUPTING_HEADER_BOTH = ("link", "loss_rate", "loss_rate_down")

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


class PenaltyName(StrEnum):
    linear = "linear"
    log = "log"
    step = "step"


def _fraction_option(*names: str, help: str, metavar: str | None = None) -> Any:
    """A fraction in [0, 1]; its help says the default, if any."""
    return typer.Option(*names, metavar=metavar, min=0.0, max=1.0, show_default=False, help=help)


def _hours_option(*names: str, help: str, minimum: float | None = 0.0) -> Any:
    """A number of hours; its help says the default, if any."""
    return typer.Option(*names, metavar="H", min=minimum, show_default=False, help=help)


def _server_fabric_argument(what: str) -> Any:
    """FABRIC, the server mode of a command that also runs offline on a document."""
    return typer.Argument(metavar="FABRIC", show_default=False, help=f"A fabric on the server (name or id): {what}")


CORRUPTING_HELP = (
    "CSV with header link,loss_rate (fractions, 1e-6), or link,loss_rate,loss_rate_down to give the upward "
    "(lower-tier to upper-tier switch) and downward directions apart; a link's penalty is "
    "I(loss_rate) + I(loss_rate_down)."
)

FabricOption = Annotated[
    Path,
    typer.Option("--fabric", metavar="FABRIC.json", help='A "lightpath-fabric/1" interchange document.'),
]
StateOption = Annotated[
    Path | None,
    typer.Option(
        "--state",
        metavar="STATE.json",
        help='Link state overrides: {"links": {"<index or a:a_port-b:b_port>": "enabled|disabled|down"}}.',
    ),
]
CorruptingOption = Annotated[Path, typer.Option("--corrupting", metavar="CORRUPTING.csv", help=CORRUPTING_HELP)]
CapacityOption = Annotated[
    float | None,
    _fraction_option(
        "--capacity", help="Default ToR threshold [default: the document's capacity_constraint, else 0.75]."
    ),
]
PenaltyOption = Annotated[
    PenaltyName,
    typer.Option("--penalty", case_sensitive=False, help="I(f): linear = f, log = log10(1 + f/1e-8), step = bucket."),
]


# ---------------------------------------------------------------------------------------------
# Input files


@dataclass
class Fabric:
    """An interchange document turned into the engine's arrays, with names for the output."""

    file: str
    name: str
    num_tiers: int
    capacity: float
    switch_names: list[str]
    switch_tiers: list[int]
    link_lower: list[int]
    link_upper: list[int]
    link_names: list[str]
    states: list[str]
    overrides: dict[int, float]
    link_ids: dict[str, int] = field(default_factory=dict)
    graph: Any = None  # the engine's FabricGraph, built by the reader

    def resolve_link(self, text: str) -> int | None:
        text = text.strip()
        if text.isdigit():
            index = int(text)
            return index if index < len(self.link_names) else None
        return self.link_ids.get(text)


def load_fabric(path: Path) -> Fabric:
    """Read FABRIC.json through the engine's reader (lightpath_engine.read_fabric_document), which holds
    the one document -> arrays mapping; its errors name the field (`links[3].a: unknown switch 'x'`)."""
    file = str(path)
    if file.lower().endswith(".csv"):
        raise CliError(f"{file}: a links CSV has no switches or tiers; --fabric needs a JSON interchange document")
    doc = read_document_file(file)
    try:
        read = _engine().read_fabric_document(doc)
    except (ValueError, OverflowError) as exc:
        raise CliError(f"{file}: {exc}") from exc
    return Fabric(
        file=file,
        name=str(read["name"] or path.stem),
        num_tiers=len(read["tiers"]),
        capacity=float(read["capacity"]),
        switch_names=read["switch_names"],
        switch_tiers=read["switch_tiers"],
        link_lower=read["link_lower"],
        link_upper=read["link_upper"],
        link_names=read["link_names"],
        states=read["link_states"],
        overrides=read["overrides"],
        link_ids=read["link_ids"],
        graph=read["graph"],
    )


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")  # a spreadsheet's byte-order mark is not part of the header
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise CliError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc


def _key_line(text: str, key: str) -> int | None:
    """The line on which the JSON object key `key` first appears, if it can be found."""
    at = text.find(json.dumps(key, ensure_ascii=False) + ":")
    if at < 0:
        at = text.find(json.dumps(key, ensure_ascii=False))
    return None if at < 0 else text.count("\n", 0, at) + 1


def apply_state_file(path: Path, fabric: Fabric) -> None:
    """Override link states from STATE.json: {"links": {"<link id>": "enabled|disabled|down"}}."""
    text = _read_text(path)
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CliError(f"{path} line {exc.lineno}: not valid JSON: {exc.msg} (column {exc.colno})") from exc
    if not isinstance(doc, dict) or not isinstance(doc.get("links"), dict):
        raise CliError(f'{path}: expected {{"links": {{"<link>": "enabled|disabled|down"}}}}')
    for key, state in doc["links"].items():
        line = _key_line(text, key)
        where = f"{path} line {line}" if line else str(path)
        index = fabric.resolve_link(key)
        if index is None:
            raise CliError(f"{where}: unknown link {key!r}")
        if state not in LINK_STATES:
            raise CliError(f"{where}: link {key!r}: state {state!r} is not 'enabled', 'disabled' or 'down'")
        fabric.states[index] = state


@dataclass
class Corrupting:
    link: int
    loss_rate: float
    line: int
    loss_rate_down: float = 0.0

    def engine_entry(self) -> tuple[int, float, float]:
        """(link, loss_rate_up, loss_rate_down) as the engine takes it."""
        return (self.link, self.loss_rate, self.loss_rate_down)


def read_corrupting(path: Path, fabric: Fabric) -> list[Corrupting]:
    """CORRUPTING.csv: one link (index or name) and its loss-rate fractions per row.

    Header `link,loss_rate` (one rate per link), or `link,loss_rate,loss_rate_down` with the upward
    direction (from the lower-tier switch to the upper-tier one) in loss_rate and the downward one in
    loss_rate_down (an empty cell is 0). The link's penalty is I(loss_rate) + I(loss_rate_down): for the
    log and step penalties that is not the penalty of the summed rate.
    """
    text = _read_text(path)
    rows = csv.reader(io.StringIO(text))
    expected = "'link,loss_rate' or 'link,loss_rate,loss_rate_down'"
    try:
        header = next(rows, None)
        if header is None:
            raise CliError(f"{path}: empty file, expected the header {expected}")
        columns = tuple(cell.strip().lower() for cell in header)
        if columns not in (CORRUPTING_HEADER, CORRUPTING_HEADER_BOTH):
            raise CliError(f"{path} line 1: expected the header {expected}, got {','.join(header)!r}")
        result: list[Corrupting] = []
        seen: dict[int, int] = {}
        for row in rows:
            line = rows.line_num
            if not row or all(not cell.strip() for cell in row):
                continue
            if len(row) != len(columns):
                raise CliError(
                    f"{path} line {line}: expected {len(columns)} fields ({','.join(columns)}), got {len(row)}"
                )
            link_text = row[0].strip()
            index = fabric.resolve_link(link_text)
            if index is None:
                raise CliError(f"{path} line {line}: unknown link {link_text!r}")
            rate = _loss_rate(path, line, row[1].strip(), "loss rate")
            down = _loss_rate(path, line, row[2].strip(), "downward loss rate", empty=0.0) if len(row) > 2 else 0.0
            if index in seen:
                raise CliError(
                    f"{path} line {line}: link {fabric.link_names[index]!r} is already listed on line {seen[index]}"
                )
            seen[index] = line
            result.append(Corrupting(index, rate, line, down))
    except csv.Error as exc:
        raise CliError(f"{path} line {rows.line_num}: {exc}") from exc
    return result


def _loss_rate(path: Path, line: int, text: str, what: str, empty: float | None = None) -> float:
    if not text and empty is not None:
        return empty
    try:
        rate = float(text)
    except ValueError:
        raise CliError(f"{path} line {line}: {what} {text!r} is not a number") from None
    if not 0.0 <= rate <= 1.0:  # also rejects nan
        raise CliError(f"{path} line {line}: {what} {text} is not a fraction in [0, 1]")
    return rate


# ---------------------------------------------------------------------------------------------
# Deciding


def penalty_of(name: str, c: Corrupting) -> float:
    """I(up) + I(down), computed by the engine so that the CLI never disagrees with its decisions."""
    return float(_engine().corropt_penalty(name, c.loss_rate, c.loss_rate_down))


def required_paths(threshold: float, design: int) -> int:
    """The paths a ToR must keep: the engine's ceil(threshold * design), snapped within 1e-9."""
    return int(_engine().corropt_required_paths(threshold, design))


class Command(StrEnum):
    check = "check"
    optimize = "optimize"
    switch_local = "switch-local"


def _engine() -> Any:
    try:
        import lightpath_engine
    except ImportError as exc:
        raise CliError(
            "the lightpath_engine module is not installed (build it with maturin in workers/engine/lightpath-py)"
        ) from exc
    return lightpath_engine


def run(
    command: Command,
    fabric_path: Path,
    state_path: Path | None,
    corrupting_path: Path,
    capacity: float | None,
    penalty: PenaltyName,
    share: float | None = None,
    time_budget: float | None = None,
) -> dict[str, Any]:
    """Load the files, call the engine, and return the {"summary", "decisions"} document."""
    engine = _engine()
    fabric = load_fabric(fabric_path)
    if state_path is not None:
        apply_state_file(state_path, fabric)
    corrupting = read_corrupting(corrupting_path, fabric)
    threshold = fabric.capacity if capacity is None else capacity
    graph = _build_graph(engine, fabric)

    before = fabric.states
    candidates = [c for c in corrupting if before[c.link] == "enabled"]
    pairs = [c.engine_entry() for c in candidates]
    common: dict[str, Any] = {
        "link_states": before,
        "capacity": threshold,
        "overrides": fabric.overrides,
        "penalty": penalty.value,
    }
    rows: dict[int, dict[str, Any]] = {}
    after = list(before)
    bound: float | None = None
    proven: bool | None = None
    try:
        if command is Command.optimize:
            result = engine.corropt_optimize(graph, pairs, time_budget_s=time_budget, **common)
            for link in result["disable"]:
                after[link] = "disabled"
            keep = set(result["keep_enabled"])
            refusals = _why_kept(
                engine, graph, [c for c in candidates if c.link in keep], {**common, "link_states": after}
            )
            for c in sorted(candidates, key=lambda c: (-penalty_of(penalty.value, c), c.link)):
                refusal = refusals.get(c.link)
                rows[c.link] = _row(fabric, c, penalty_of(penalty.value, c), c.link not in keep, refusal)
            bound = result["remaining_penalty_lower_bound"]
            proven = result["proven_optimal"]
            remaining = result["remaining_penalty"]
        else:
            if command is Command.check:
                decisions = engine.corropt_check(graph, pairs, **common)
            else:
                decisions = engine.corropt_switch_local(graph, pairs, share=share, **common)
            by_link = {c.link: c for c in candidates}
            for decision in decisions:
                c = by_link[decision["link"]]
                if decision["disabled"]:
                    after[c.link] = "disabled"
                rows[c.link] = _row(fabric, c, decision["penalty"], decision["disabled"], decision["refusal"])
            remaining = sum(row["penalty"] for row in rows.values() if not row["disabled"])
        capacities = graph.tor_capacity([state == "enabled" for state in after])
    except (ValueError, OverflowError) as exc:
        raise CliError(str(exc)) from exc

    skipped = [c for c in corrupting if before[c.link] != "enabled"]
    decision_rows = list(rows.values()) + [
        {**_row(fabric, c, penalty_of(penalty.value, c), False, None), "action": "skip"} for c in skipped
    ]
    worst: dict[str, Any] | None = None
    below: list[str] = []
    for tor, available, total in capacities:
        if total == 0:
            continue
        tor_threshold = fabric.overrides.get(tor, threshold)
        if available < required_paths(tor_threshold, total):
            below.append(fabric.switch_names[tor])
        share_left = available / total
        if worst is None or share_left < worst["fraction"]:
            worst = {
                "name": fabric.switch_names[tor],
                "paths": available,
                "design_paths": total,
                "required_paths": required_paths(tor_threshold, total),
                "fraction": share_left,
            }
    if command is Command.switch_local and share is None:
        share = threshold ** (1 / (fabric.num_tiers - 1))
    summary = {
        "command": command.value,
        "fabric": fabric.name,
        "capacity": threshold,
        "penalty_function": penalty.value,
        "share": share if command is Command.switch_local else None,
        "corrupting": len(corrupting),
        "candidates": len(candidates),
        "disabled": sum(row["disabled"] for row in decision_rows),
        "kept": sum(row["action"] == "keep" for row in decision_rows),
        "skipped": len(skipped),
        "total_penalty": sum(row["penalty"] for row in rows.values()),
        "remaining_penalty": remaining,
        "remaining_penalty_lower_bound": bound,
        "proven_optimal": proven,
        "worst_tor": worst,
        "tors_below_threshold": below,
    }
    return {"summary": summary, "decisions": decision_rows}


def _why_kept(engine: Any, graph: Any, kept: list[Corrupting], options: dict[str, Any]) -> dict[int, Any]:
    """Per kept link, the fast checker's refusal were it disabled on top of the optimum (checked alone).

    One batch call suffices when it refuses every link: nothing is disabled on the way, so each decision
    is the one-link check. Otherwise (zero penalties, or an answer cut short by the time budget) check
    each link on its own.
    """
    batch = engine.corropt_check(graph, [c.engine_entry() for c in kept], **options)
    if not any(decision["disabled"] for decision in batch):
        return {decision["link"]: decision["refusal"] for decision in batch}
    return {c.link: engine.corropt_check(graph, [c.engine_entry()], **options)[0]["refusal"] for c in kept}


def _row(fabric: Fabric, c: Corrupting, penalty: float, disabled: bool, refusal: Any) -> dict[str, Any]:
    kind, tors, switch = None, [], None
    if not disabled and refusal:
        kind = refusal.get("kind")
        tors = [fabric.switch_names[t] for t in refusal.get("tors", [])]
        if refusal.get("switch") is not None:
            switch = fabric.switch_names[refusal["switch"]]
    return {
        "link": c.link,
        "name": fabric.link_names[c.link],
        "loss_rate": c.loss_rate,
        "loss_rate_down": c.loss_rate_down,
        "penalty": penalty,
        "state": fabric.states[c.link],
        "action": "disable" if disabled else "keep",
        "disabled": disabled,
        "refusal": kind,
        "blocking_tors": tors,
        "blocking_switch": switch,
    }


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
        shown = ", ".join(names[:10]) + (f" and {len(names) - 10} more" if len(names) > 10 else "")
        lines.append(f"{len(names)} ToR{'s' if len(names) != 1 else ''} below threshold: {shown}")
    for line in lines:
        stdout_console().print(line, highlight=False)


# ---------------------------------------------------------------------------------------------
# Commands


ServerOrDocumentFabricOption = Annotated[
    Path | None,
    typer.Option(
        "--fabric",
        metavar="FABRIC.json",
        show_default=False,
        help='Offline: a "lightpath-fabric/1" interchange document (with --corrupting).',
    ),
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
        missing = "--fabric FABRIC.json" if fabric is None else "--corrupting CORRUPTING.csv"
        raise typer.BadParameter(
            f"offline needs --fabric FABRIC.json and --corrupting CORRUPTING.csv ({missing} is missing)"
        )
    return fabric, corrupting


def _offline_only(**given: Any) -> None:
    for option, value in given.items():
        if value is not None:
            raise typer.BadParameter(
                "applies only offline (--fabric FABRIC.json)", param_hint=f"'--{option.replace('_', '-')}'"
            )


@app.command("check")
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
    fabric: ServerOrDocumentFabricOption = None,
    corrupting: OptionalCorruptingOption = None,
    state: StateOption = None,
    capacity: CapacityOption = None,
    penalty: PenaltyOption = PenaltyName.linear,
    loss_rate: Annotated[
        float | None,
        _fraction_option(
            "--loss-rate",
            help="With LINK: assume this A-to-Z (upward) corruption rate [default: the link's open event].",
        ),
    ] = None,
    loss_rate_down: Annotated[
        float | None,
        _fraction_option("--loss-rate-down", help="With LINK: assume this Z-to-A (downward) corruption rate."),
    ] = None,
    output: OutputOption = None,
) -> None:
    """Fast checker: disable what the ToRs allow.

    With LINK: would the server's fast checker disable this link now, or keep it for capacity (and for
    which ToR)? Nothing changes. The rates are the link's open corruption event's, or --loss-rate and
    --loss-rate-down. JSON output is the server's answer (GET /api/links/ID/corropt-check/).

    Offline, with --fabric FABRIC.json and --corrupting CORRUPTING.csv: in decreasing penalty, each link is
    disabled if and only if no ToR below it falls under its threshold.
    """
    cli = get_context(ctx)
    fmt = cli.output_format(output)
    if link is not None:
        _offline_only(corrupting=corrupting, state=state, capacity=capacity)
        _check_on_server(cli, fmt, link, None if fabric is None else str(fabric), loss_rate, loss_rate_down)
        return
    for option, value in (("--loss-rate", loss_rate), ("--loss-rate-down", loss_rate_down)):
        if value is not None:
            raise typer.BadParameter("applies only to LINK (a dry run on the server)", param_hint=f"'{option}'")
    fabric_path, corrupting_path = _offline_files(fabric, corrupting)
    report = run(Command.check, fabric_path, state, corrupting_path, capacity, penalty)
    _print(fmt, report)


@app.command("optimize")
def optimize(
    ctx: typer.Context,
    server_fabric: Annotated[
        str | None,
        _server_fabric_argument("run the optimizer there as a job, which disables what it finds, and follow it."),
    ] = None,
    fabric: ServerOrDocumentFabricOption = None,
    corrupting: OptionalCorruptingOption = None,
    state: StateOption = None,
    capacity: CapacityOption = None,
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

    Offline, with --fabric FABRIC.json and --corrupting CORRUPTING.csv: the enabled corrupting links to
    disable that leave the least penalty while every ToR keeps its threshold. Kept links show the ToRs that
    could not lose them on top of the answer.
    """
    cli = get_context(ctx)
    fmt = cli.output_format(output)
    if server_fabric is not None:
        if fabric is not None:
            raise typer.BadParameter(
                "give FABRIC (a fabric on the server) or --fabric FABRIC.json (offline), not both",
                param_hint="'FABRIC'",
            )
        _offline_only(corrupting=corrupting, state=state, capacity=capacity)
        _finite(time_budget, "--time-budget")
        _optimize_on_server(cli, fmt, server_fabric, time_budget, interval, cancel_on_interrupt)
        return
    fabric_path, corrupting_path = _offline_files(fabric, corrupting)
    report = run(Command.optimize, fabric_path, state, corrupting_path, capacity, penalty, time_budget=time_budget)
    _print(fmt, report)


# ---------------------------------------------------------------------------------------------
# check LINK and optimize FABRIC on the server

CHECK_AFFECTED_KEYS = (
    "name", "paths_before", "paths_after", "design_paths", "required_paths", "fraction_before", "fraction_after",
    "threshold",
)  # fmt: skip
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
OPTIMIZED_KEYS = ("action", "link", "link_name", "penalty", "blocking_tor_name", "decision")
OPTIMIZED_COLUMNS = (
    Column("action", "Decision", render=lambda value: _action_cell("disable" if value == "disabled" else "keep")),
    Column("link", "#", justify="right"),
    Column("link_name", "Link"),
    Column("penalty", "Penalty", render=_rate, justify="right"),
    Column("blocking_tor_name", "Blocked by", render=lambda value: value or "-"),
    Column("decision", "Decision id", justify="right"),
)


def _check_on_server(
    cli: Any, fmt: OutputFormat, reference: str, fabric_reference: str | None, up: float | None, down: float | None
) -> None:
    from .links import resolve_link  # the links command owns "what the user typed" -> link

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
    cli: Any, fmt: OutputFormat, fabric_reference: str, time_budget: float | None, interval: float, cancel: bool
) -> None:
    with cli.client() as client:
        fabric = resolve_fabric(client, fabric_reference)
        params = {} if time_budget is None else {"time_budget_s": time_budget}
        job = start_and_follow(
            client,
            "/api/jobs/",
            {"kind": "corruption.optimize", "fabric": fabric["id"], "params": params},
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


@app.command("switch-local")
def switch_local(
    ctx: typer.Context,
    fabric: FabricOption,
    corrupting: CorruptingOption,
    state: StateOption = None,
    capacity: CapacityOption = None,
    penalty: PenaltyOption = PenaltyName.linear,
    share: Annotated[
        float | None,
        _fraction_option(
            "--share", help="Share of its up-links each switch keeps [default: capacity^(1/r), r tiers above the ToR]."
        ),
    ] = None,
    output: OutputOption = None,
) -> None:
    """Switch-local baseline, as operators run it.

    In decreasing penalty, a switch with m up-links disables at most floor(m(1 - share)) of them;
    ToR thresholds are not consulted (the summary shows the damage).
    """
    report = run(Command.switch_local, fabric, state, corrupting, capacity, penalty, share=share)
    _print(get_context(ctx).output_format(output), report)


# ---------------------------------------------------------------------------------------------
# Traces: corruption onsets (time_s, link, loss_rate) for the simulator

TRACE_HEADER = ("time_s", "link", "loss_rate")
HOUR_S = 3600.0
SIM_UPLOAD_TIMEOUT_S = 120.0  # an uploaded trace may be megabytes
MAX_SEED = 2**64 - 1


class Policy(StrEnum):
    corropt = "corropt"
    fast_checker = "fast-checker"
    switch_local = "switch-local"


COUNT_KEYS = (
    "onsets",
    "absorbed_onsets",
    "refused_arrivals",
    "disables",
    "repairs",
    "second_rounds",
    "optimizer_runs",
    "optimizer_unproven",
    "threshold_breaches",
)
SIM_POLICY_KEYS = (
    "policy",
    "share",
    "penalty_seconds",
    "active_corrupting_seconds",
    "disabled_seconds",
    "lowest_worst_fraction",
    "counts",
    "penalty_ratio_vs_corropt",
)
SERIES_HEADER = ("policy", "time_s", "penalty", "active_corrupting", "disabled", "worst_fraction")


def _number(value: Any) -> str:
    return "-" if value is None else f"{float(value):.4g}"


SIM_COLUMNS = (
    Column("policy", "Policy"),
    Column("penalty_seconds", "Penalty·s", render=_number, justify="right"),
    Column("penalty_ratio_vs_corropt", "vs corropt", render=_number, justify="right"),
    Column("active_corrupting_seconds", "Corrupting link·s", render=_number, justify="right"),
    Column("disabled_seconds", "Disabled link·s", render=_number, justify="right"),
    Column("lowest_worst_fraction", "Lowest worst ToR", render=fraction, justify="right"),
    Column("disables", "Disables", justify="right"),
    Column("refused_arrivals", "Refused", justify="right"),
    Column("repairs", "Repairs", justify="right"),
    Column("absorbed_onsets", "Absorbed", justify="right"),
    Column("optimizer_runs", "Optimizer runs", justify="right"),
    Column("threshold_breaches", "Breaches", justify="right"),
)

SeedOption = Annotated[
    int,
    typer.Option("--seed", min=0, max=MAX_SEED, help="Random seed; the same seed gives the same answer."),
]


def _finite(value: float | None, option: str) -> None:
    if value is not None and not math.isfinite(value):
        raise typer.BadParameter(f"{value} is not a finite number", param_hint=f"'{option}'")


def _build_graph(engine: Any, fabric: Fabric) -> Any:
    """The graph the document reader built (or, for a Fabric made by hand, one from its arrays)."""
    if fabric.graph is not None:
        return fabric.graph
    try:
        return engine.FabricGraph(fabric.num_tiers, fabric.switch_tiers, fabric.link_lower, fabric.link_upper)
    except (ValueError, OverflowError) as exc:
        raise CliError(f"{fabric.file}: {exc}") from exc


def write_atomically(path: Path, text: str) -> None:
    """Write `text` to a temporary file next to `path`, then rename it over `path` (readers never see half)."""
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
            handle.write(text)
        os.replace(temporary, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise CliError(f"cannot write {path}: {exc.strerror or exc}") from exc


def trace_csv(trace: list[tuple[float, int, float]], fabric: Fabric, names: bool) -> str:
    """The trace as `time_s,link,loss_rate` CSV; floats are written exactly (shortest round-trip repr)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(TRACE_HEADER)
    for time_s, link, rate in trace:
        writer.writerow((repr(float(time_s)), fabric.link_names[link] if names else link, repr(float(rate))))
    return out.getvalue()


def read_trace(path: Path, fabric: Fabric) -> list[tuple[float, int, float]]:
    """TRACE.csv: header time_s,link,loss_rate, then one onset per row, sorted by time.

    time_s: seconds, finite, >= 0 and never before the previous row's (an unsorted trace is an error
    rather than silently reordered: it usually means two files were pasted together). link: index or
    `a:a_port-b:b_port`. loss_rate: a fraction in (0, 1]. A link may appear on several rows (an onset
    on a link that is still faulty is absorbed by the simulator). Blank lines are ignored.
    """
    text = _read_text(path)
    rows = csv.reader(io.StringIO(text))
    expected = ",".join(TRACE_HEADER)
    result: list[tuple[float, int, float]] = []
    try:
        header = next(rows, None)
        if header is None:
            raise CliError(f"{path}: empty file, expected the header '{expected}'")
        if tuple(cell.strip().lower() for cell in header) != TRACE_HEADER:
            raise CliError(f"{path} line 1: expected the header '{expected}', got {','.join(header)!r}")
        previous: tuple[float, int] | None = None
        for row in rows:
            line = rows.line_num
            if not row or all(not cell.strip() for cell in row):
                continue
            where = f"{path} line {line}"
            if len(row) != len(TRACE_HEADER):
                raise CliError(f"{where}: expected {len(TRACE_HEADER)} fields ({expected}), got {len(row)}")
            time_text, link_text, rate_text = (cell.strip() for cell in row)
            try:
                time_s = float(time_text)
            except ValueError:
                raise CliError(f"{where}: time {time_text!r} is not a number") from None
            if not (math.isfinite(time_s) and time_s >= 0.0):
                raise CliError(f"{where}: time {time_text} is not a finite number of seconds >= 0")
            if previous is not None and time_s < previous[0]:
                raise CliError(
                    f"{where}: time {time_text} s is before line {previous[1]}'s {previous[0]!r} s "
                    "(the trace must be sorted by time)"
                )
            index = fabric.resolve_link(link_text)
            if index is None:
                raise CliError(f"{where}: unknown link {link_text!r}")
            try:
                rate = float(rate_text)
            except ValueError:
                raise CliError(f"{where}: loss rate {rate_text!r} is not a number") from None
            if not 0.0 < rate <= 1.0:  # also rejects nan
                raise CliError(f"{where}: loss rate {rate_text} is not a fraction in (0, 1]")
            previous = (time_s, line)
            result.append((time_s, index, rate))
    except csv.Error as exc:
        raise CliError(f"{path} line {rows.line_num}: {exc}") from exc
    return result


def _compare(
    engine: Any, graph: Any, trace: list[tuple[float, int, float]], policies: list[str], options: dict[str, Any]
) -> dict[str, Any]:
    """One engine call (corropt_compare) runs every policy; a progress bar per run on stderr when it is a
    terminal. CorrOpt runs as the reference of the ratios even when not asked for (labelled so)."""
    try:
        if not stderr_console().is_terminal:
            # A callback even without a bar: Ctrl-C raises in it, which stops the engine at its next report.
            return dict(engine.corropt_compare(graph, trace, policies, progress=lambda policy, done: None, **options))
        columns = (
            SpinnerColumn(),
            TextColumn("{task.description:<21}"),
            BarColumn(),
            TaskProgressColumn(),
            TimeElapsedColumn(),
        )
        labels = [*policies, *([] if Policy.corropt.value in policies else ["corropt (reference)"])]
        with Progress(*columns, console=stderr_console(), transient=False) as bar:
            tasks = [bar.add_task(label, total=1.0, start=False) for label in labels]
            current = [0]

            def advance(policy: str, done: float) -> None:
                # Runs report in order, each ending at 1.0; the next report belongs to the next run.
                task = tasks[min(current[0], len(tasks) - 1)]
                bar.start_task(task)
                bar.update(task, completed=done)
                if done >= 1.0:
                    current[0] += 1

            comparison = dict(engine.corropt_compare(graph, trace, policies, progress=advance, **options))
        return comparison
    except (ValueError, OverflowError) as exc:
        raise CliError(str(exc)) from exc


def _finite_or_none(value: float) -> float | None:
    """JSON has no infinity: a ratio against a CorrOpt penalty of 0 is null."""
    return value if math.isfinite(value) else None


def _series_csv(results: list[Any]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(SERIES_HEADER)
    for result in results:
        series = result["series"]
        for row in zip(*(series[key] for key in SERIES_HEADER[1:]), strict=True):
            writer.writerow((result["policy"], *row))
    return out.getvalue()


def _print_simulation(fmt: OutputFormat, report: dict[str, Any]) -> None:
    policies = report["policies"]
    if fmt is OutputFormat.json:
        print_json(report)
        return
    if fmt is OutputFormat.csv:
        print_csv(policies, SIM_POLICY_KEYS)
        return
    print_rows(fmt, [{**row, **row["counts"]} for row in policies], SIM_COLUMNS, [])
    trace, settings = report["trace"], report["settings"]
    horizon = trace["horizon_s"]
    lines = [
        f"{report['fabric']}: {trace['onsets']} onsets from {trace['file']} over {horizon:.6g} s "
        f"({horizon / HOUR_S:.4g} h)",
        f"capacity {fraction(settings['capacity'])}, {settings['penalty_function']} penalty, repair after "
        f"{settings['repair_delay_s'] / HOUR_S:g} h fixed with probability {settings['fix_probability']:g} "
        f"(else another round), seed {settings['seed']}",
    ]
    if settings["initially_disabled"] or settings["initially_down"]:
        lines.append(
            f"start: {settings['initially_disabled']} links disabled (awaiting repair), "
            f"{settings['initially_down']} down"
        )
    local = next((row for row in policies if row["policy"] == Policy.switch_local.value), None)
    if local is not None and local["share"] is not None:
        lines.append(f"switch-local share {fraction(local['share'])}")
    for line in lines:
        stdout_console().print(line, highlight=False)


@app.command("trace")
def trace_command(
    fabric: FabricOption,
    mttf_hours: Annotated[
        float,
        typer.Option("--mttf-hours", metavar="H", help="Mean time between corruption onsets of one link, in hours."),
    ],
    hours: Annotated[float, typer.Option("--hours", metavar="N", min=0.0, help="Length of the trace, in hours.")],
    seed: SeedOption = 0,
    names: Annotated[
        bool, typer.Option("--names", help="Write links as a:a_port-b:b_port instead of their index.")
    ] = False,
    out_file: OutFileOption = None,
) -> None:
    """Synthetic corruption onsets as time_s,link,loss_rate CSV.

    Each link starts corrupting as a Poisson process with mean time between onsets --mttf-hours; loss
    rates follow the buckets of CorrOpt's Table 3.1, log-uniform within a bucket. The same seed gives
    the same trace. A summary line goes to stderr.
    """
    _finite(hours, "--hours")
    if not (math.isfinite(mttf_hours) and mttf_hours > 0):
        raise typer.BadParameter(f"{mttf_hours} is not a finite number above 0", param_hint="'--mttf-hours'")
    engine = _engine()
    loaded = load_fabric(fabric)
    graph = _build_graph(engine, loaded)
    try:
        trace = engine.corropt_trace(graph, mttf_hours, hours, seed)
    except (ValueError, OverflowError) as exc:
        raise CliError(str(exc)) from exc
    text = trace_csv(trace, loaded, names)
    summary = (
        f"{len(trace)} onsets on {len({link for _, link, _ in trace})} of {len(loaded.link_names)} links "
        f"over {hours:g} h (horizon {hours * HOUR_S:.6g} s; MTTF {mttf_hours:g} h, seed {seed})"
    )
    if out_file is None:
        sys.stdout.write(text)
        typer.echo(summary, err=True)
    else:
        write_atomically(out_file, text)
        typer.echo(f"wrote {out_file}: {summary}", err=True)


@app.command("simulate")
def simulate_command(
    ctx: typer.Context,
    server_fabric: Annotated[
        str | None, _server_fabric_argument("run the simulation there as a job and follow it.")
    ] = None,
    fabric: Annotated[
        Path | None,
        typer.Option(
            "--fabric",
            metavar="FABRIC.json",
            show_default=False,
            help='Offline instead: a "lightpath-fabric/1" interchange document (needs --trace).',
        ),
    ] = None,
    trace: Annotated[
        Path | None,
        typer.Option(
            "--trace",
            metavar="TRACE.csv",
            show_default=False,
            help="Onsets: header time_s,link,loss_rate, sorted by time (e.g. from `corropt trace`). On the server a "
            "link is its id, SWITCH:PORT of either end or A_SWITCH:A_PORT-Z_SWITCH:Z_PORT [server default: a "
            "generated trace].",
        ),
    ] = None,
    policy: Annotated[
        list[Policy] | None,
        typer.Option(
            "--policy",
            metavar="corropt|fast-checker|switch-local",
            case_sensitive=False,
            show_default=False,
            help="A policy to run; repeat for several [default: corropt, fast-checker and switch-local].",
        ),
    ] = None,
    capacity: CapacityOption = None,
    penalty: PenaltyOption = PenaltyName.linear,
    share: Annotated[
        float | None,
        _fraction_option(
            "--share", help="switch-local: share of its up-links each switch keeps [default: capacity^(1/r)]."
        ),
    ] = None,
    repair_delay_hours: Annotated[
        float,
        typer.Option("--repair-delay-hours", metavar="H", help="Time a disabled link waits for a repair attempt."),
    ] = 48.0,
    fix_probability: Annotated[
        float | None,
        _fraction_option(
            "--fix-probability",
            help="Offline: chance the first repair attempt fixes a link (else it takes another round) [default: 0.8].",
        ),
    ] = None,
    state: StateOption = None,
    seed: SeedOption = 0,
    horizon_hours: Annotated[
        float | None,
        _hours_option(
            "--horizon-hours",
            help="End of the simulated window [default: the last onset]. Onsets after it are not counted.",
        ),
    ] = None,
    time_budget: Annotated[
        float | None,
        typer.Option(
            "--time-budget",
            metavar="SECONDS",
            min=0.0,
            show_default=False,
            help="corropt: bound each optimizer run (the best answer found is used) [default: run to optimality].",
        ),
    ] = None,
    series: Annotated[
        Path | None,
        typer.Option(
            "--series",
            metavar="FILE.csv",
            dir_okay=False,
            help="Also write the step series of every policy as CSV: policy,time_s,penalty,active_corrupting,"
            "disabled,worst_fraction (a row holds until the next one of its policy, the last until the horizon).",
        ),
    ] = None,
    constraint: Annotated[
        list[float] | None,
        _fraction_option(
            "--constraint",
            metavar="C",
            help="Server: a ToR capacity constraint to run; repeat for several [default: 0.5 and 0.75].",
        ),
    ] = None,
    accuracy: Annotated[
        list[float] | None,
        _fraction_option(
            "--accuracy",
            metavar="P",
            help="Server: a repair accuracy (chance the first attempt fixes a link); repeat [default: 0.5 and 0.8].",
        ),
    ] = None,
    # The server checks the trace's length and MTTF, listing every problem with the others.
    hours: Annotated[
        float | None,
        _hours_option(
            "--hours", "--duration", minimum=None, help="Server, generated trace: its length in hours [default: 720]."
        ),
    ] = None,
    mttf_hours: Annotated[
        float | None,
        _hours_option(
            "--mttf-hours",
            minimum=None,
            help="Server, generated trace: mean time between corruption onsets of one link [default: 2000].",
        ),
    ] = None,
    cancel_on_interrupt: CancelOnInterruptOption = False,
    interval: IntervalOption = 1.0,
    output: OutputOption = None,
) -> None:
    """Replay a corruption trace under each policy and compare them.

    With FABRIC (a fabric on the server), the simulation runs as a server job from the fabric's current
    link states, once per --constraint x --accuracy, with a progress bar; Ctrl-C detaches (the job keeps
    running) unless --cancel-on-interrupt. The trace is --trace (uploaded) or generated from --hours,
    --mttf-hours and --seed. Output: per run and policy the penalty integral, its ratio to corropt, the
    lowest worst ToR fraction and event counts; --output json prints the job's result document, csv its
    summary table; --series writes the downsampled series as CSV.

    With --fabric FABRIC.json it runs offline in this process, as below.

    Links start in the document's states (admin_state disabled: disabled; oper_state down: down) with
    --state's overrides, clean. A link disabled at the start awaits repair from time 0; a link down stays
    down. switch-local: the per-switch up-link allowance; fast-checker:
    the fast checker on every arrival and after every repair; corropt: the fast checker on arrival and
    the optimizer after every repair. A disabled link is repaired after --repair-delay-hours with
    probability --fix-probability, else after another round. Prints per policy the integrals over the
    window (penalty x s, corrupting and disabled link x s), the lowest worst ToR fraction, event counts
    and the penalty ratio against corropt (which runs as the reference even when not among --policy).
    """
    for value, option in (
        (repair_delay_hours, "--repair-delay-hours"),
        (horizon_hours, "--horizon-hours"),
        (time_budget, "--time-budget"),
        (hours, "--hours"),
        (mttf_hours, "--mttf-hours"),
    ):
        _finite(value, option)
    if not repair_delay_hours > 0:
        raise typer.BadParameter(f"{repair_delay_hours} is not above 0", param_hint="'--repair-delay-hours'")
    policies = list(dict.fromkeys(policy or list(Policy)))
    if share is not None and Policy.switch_local not in policies:
        raise typer.BadParameter("applies only to --policy switch-local", param_hint="'--share'")
    if (server_fabric is None) == (fabric is None):
        raise typer.BadParameter(
            "give FABRIC (a fabric on the server) or --fabric FABRIC.json (offline), not both",
            param_hint="'FABRIC'",
        )
    cli = get_context(ctx)
    fmt = cli.output_format(output)
    if server_fabric is not None:
        server_only_offline = {
            "--capacity": (capacity, "--constraint"),
            "--fix-probability": (fix_probability, "--accuracy"),
            "--share": (share, None),
            "--state": (state, None),
        }
        for offline_option, (given, instead) in server_only_offline.items():
            if given is not None:
                hint = f"; use {instead}" if instead else ""
                raise typer.BadParameter(f"applies only offline (--fabric){hint}", param_hint=f"'{offline_option}'")
        if trace is not None and (hours is not None or mttf_hours is not None):
            raise typer.BadParameter("a --trace file or a generated trace (--hours, --mttf-hours), not both")
        params: dict[str, Any] = {
            "policies": [name.value for name in policies],
            "penalty": penalty.value,
            "repair_delay_hours": repair_delay_hours,
            "seed": seed,
        }
        if constraint:
            params["constraints"] = constraint
        if accuracy:
            params["accuracies"] = accuracy
        if horizon_hours is not None:
            params["horizon_hours"] = horizon_hours
        if time_budget is not None:
            params["optimizer_time_budget_s"] = time_budget
        if trace is not None:
            params["trace"] = {"source": "uploaded", "name": trace.name, "csv": _read_text(trace)}
        else:
            generated: dict[str, Any] = {"source": "generated", "seed": seed}
            if hours is not None:
                generated["hours"] = hours
            if mttf_hours is not None:
                generated["mttf_hours"] = mttf_hours
            params["trace"] = generated
        _simulate_on_server(cli, fmt, server_fabric, params, series, interval, cancel_on_interrupt)
        return
    server_only: dict[str, object] = {
        "--constraint": constraint,
        "--accuracy": accuracy,
        "--hours": hours,
        "--mttf-hours": mttf_hours,
    }
    for server_option, server_value in server_only.items():
        if server_value:
            raise typer.BadParameter("applies only to a server simulation (FABRIC)", param_hint=f"'{server_option}'")
    if trace is None:
        raise typer.BadParameter("an offline simulation needs --trace TRACE.csv", param_hint="'--trace'")
    assert fabric is not None
    fix_probability = 0.8 if fix_probability is None else fix_probability

    engine = _engine()
    loaded = load_fabric(fabric)
    if state is not None:
        apply_state_file(state, loaded)
    onsets = read_trace(trace, loaded)
    graph = _build_graph(engine, loaded)
    threshold = loaded.capacity if capacity is None else capacity
    common: dict[str, Any] = {
        "link_states": loaded.states,
        "capacity": threshold,
        "overrides": loaded.overrides,
        "penalty": penalty.value,
        "repair_delay_s": repair_delay_hours * HOUR_S,
        "fix_probability": fix_probability,
        "seed": seed,
        "horizon_s": None if horizon_hours is None else horizon_hours * HOUR_S,
    }
    options = {
        **common,
        "share": share if Policy.switch_local in policies else None,
        "time_budget_s": time_budget,
    }
    comparison = _compare(engine, graph, onsets, [name.value for name in policies], options)
    results = comparison["results"]
    rows = [
        {
            "policy": result["policy"],
            "share": result.get("share"),
            "penalty_seconds": result["penalty_seconds"],
            "active_corrupting_seconds": result["active_corrupting_seconds"],
            "disabled_seconds": result["disabled_seconds"],
            "lowest_worst_fraction": result["lowest_worst_fraction"],
            "counts": {key: result["counts"][key] for key in COUNT_KEYS},
            "penalty_ratio_vs_corropt": _finite_or_none(ratio),
        }
        for result, ratio in zip(results, comparison["penalty_ratio"], strict=True)
    ]
    report = {
        "fabric": loaded.name,
        "trace": {"file": str(trace), "onsets": len(onsets), "horizon_s": results[0]["horizon_s"]},
        "settings": {
            "capacity": threshold,
            "penalty_function": penalty.value,
            "repair_delay_s": common["repair_delay_s"],
            "fix_probability": fix_probability,
            "seed": seed,
            "time_budget_s": time_budget,
            "state_file": None if state is None else str(state),
            "initially_disabled": loaded.states.count("disabled"),
            "initially_down": loaded.states.count("down"),
        },
        "policies": rows,
        "corropt_penalty_seconds": comparison["corropt_penalty_seconds"],
    }
    if series is not None:
        write_atomically(series, _series_csv(results))
        steps = sum(len(result["series"]["time_s"]) for result in results)
        typer.echo(f"wrote {series}: {steps} steps of {len(results)} policies", err=True)
    _print_simulation(fmt, report)


SERVER_SIM_COLUMNS = (
    Column("constraint", "Constraint", render=fraction, justify="right"),
    Column("accuracy", "Accuracy", render=_number, justify="right"),
    *SIM_COLUMNS,
)


def _simulate_on_server(
    cli: Any,
    fmt: OutputFormat,
    fabric_reference: str,
    params: dict[str, Any],
    series: Path | None,
    interval: float,
    cancel_on_interrupt: bool,
) -> None:
    """Submit a corruption.simulate job, follow it, and print its result (or its failure)."""
    with cli.client() as client:
        fabric = resolve_fabric(client, fabric_reference)
        body = {"kind": "corruption.simulate", "fabric": fabric["id"], "params": params}
        job = start_and_follow(
            client,
            "/api/jobs/",
            body,
            what="simulation",
            where=f" on {fabric['name']}",
            interval=interval,
            cancel_on_interrupt=cancel_on_interrupt,
            timeout=SIM_UPLOAD_TIMEOUT_S,
        )
        download = f"/api/jobs/{job['id']}/result/"
        if series is not None:
            text = client.request("GET", download, params={"format": "csv", "table": "series"}).text
            write_atomically(series, text)
            typer.echo(f"wrote {series}: {text.count(chr(10)) - 1} series points", err=True)
        if fmt is OutputFormat.csv:
            sys.stdout.write(client.request("GET", download, params={"format": "csv"}).text)
            return
    result = job["result"]
    if fmt is OutputFormat.json:
        print_json(result)
        return
    rows = [
        {"constraint": run["constraint"], "accuracy": run["accuracy"], **row, **row["counts"]}
        for run in result["runs"]
        for row in run["policies"]
    ]
    print_rows(fmt, rows, SERVER_SIM_COLUMNS, [])
    trace, settings = result["trace"], result["settings"]
    source = (
        f"uploaded {trace['name']}"
        if trace["source"] == "uploaded"
        else (f"generated ({trace['hours']:g} h, MTTF {trace['mttf_hours']:g} h, seed {trace['seed']})")
    )
    horizon = trace["horizon_s"]
    for line in (
        f"{result['fabric']['name']}: {trace['onsets']} onsets on {trace['links']} links, {source}, "
        f"over {horizon:.6g} s ({horizon / HOUR_S:.4g} h)",
        f"{settings['penalty_function']} penalty, repair after {settings['repair_delay_s'] / HOUR_S:g} h, "
        f"seed {settings['seed']}; start: {settings['initially_disabled']} links disabled, "
        f"{settings['initially_down']} down",
        f"job {job['id']}: download with GET {download}?format=json|csv",
    ):
        stdout_console().print(line, highlight=False)
