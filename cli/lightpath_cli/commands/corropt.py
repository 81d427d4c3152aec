"""corropt check|optimize|switch-local: CorrOpt link-disabling decisions on files, offline.

The fabric is an interchange document; the engine (lightpath_engine) decides, no server is involved.
Switch index = position in `switches`, link index = position in `links`; a link is named
`a:a_port-b:b_port` as written in the document (the reverse order is accepted too).
"""

from __future__ import annotations

import csv
import io
import json
import math
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.text import Text

from ..context import get_context
from ..errors import CliError
from ..options import OutputOption, new_app
from ..output import Column, OutputFormat, fraction, print_json, print_rows, stdout_console
from .fabric import read_document_file

app = new_app()

LINK_STATES = ("enabled", "disabled", "down")
DEFAULT_CAPACITY = 0.75
CORRUPTING_HEADER = ("link", "loss_rate")

DECISION_KEYS = (
    "link",
    "name",
    "loss_rate",
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
    Column("penalty", "Penalty", render=_rate, justify="right"),
    Column("action", "Decision", render=_action_cell),
    Column("blocked_by", "Blocked by"),
)


class PenaltyName(StrEnum):
    linear = "linear"
    log = "log"
    step = "step"


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
CorruptingOption = Annotated[
    Path,
    typer.Option("--corrupting", metavar="CORRUPTING.csv", help="CSV with header link,loss_rate (fractions, 1e-6)."),
]
CapacityOption = Annotated[
    float | None,
    typer.Option(
        "--capacity",
        min=0.0,
        max=1.0,
        show_default=False,
        help="Default ToR threshold [default: the document's capacity_constraint, else 0.75].",
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

    def resolve_link(self, text: str) -> int | None:
        text = text.strip()
        if text.isdigit():
            index = int(text)
            return index if index < len(self.link_names) else None
        return self.link_ids.get(text)


def _bad(file: str, where: str, message: str) -> CliError:
    return CliError(f"{file}: {where}: {message}")


def _fraction_value(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0.0 <= value <= 1.0


def load_fabric(path: Path) -> Fabric:
    file = str(path)
    if file.lower().endswith(".csv"):
        raise CliError(f"{file}: a links CSV has no switches or tiers; --fabric needs a JSON interchange document")
    doc = read_document_file(file)
    tiers = doc.get("tiers")
    if not isinstance(tiers, list) or len(tiers) < 2:
        raise _bad(file, "tiers", "expected a list of at least 2 tier names")
    num_tiers = len(tiers)
    capacity = doc.get("capacity_constraint", DEFAULT_CAPACITY)
    if capacity is None:
        capacity = DEFAULT_CAPACITY
    if not _fraction_value(capacity):
        raise _bad(file, "capacity_constraint", f"{capacity!r} is not a fraction in [0, 1]")
    switches, links = doc.get("switches"), doc.get("links")
    if not isinstance(switches, list):
        raise _bad(file, "switches", "expected a list")
    if not isinstance(links, list):
        raise _bad(file, "links", "expected a list")

    names: list[str] = []
    tiers_of: list[int] = []
    index_of: dict[str, int] = {}
    overrides: dict[int, float] = {}
    for i, switch in enumerate(switches):
        if not isinstance(switch, dict):
            raise _bad(file, f"switches[{i}]", "expected an object")
        name, tier = switch.get("name"), switch.get("tier")
        if not isinstance(name, str) or not name:
            raise _bad(file, f"switches[{i}].name", "expected a non-empty string")
        if name in index_of:
            raise _bad(file, f"switches[{i}].name", f"duplicate switch name {name!r}")
        if not isinstance(tier, int) or isinstance(tier, bool) or not 0 <= tier < num_tiers:
            raise _bad(file, f"switches[{i}].tier", f"{tier!r} is not a tier index in 0..{num_tiers - 1}")
        override = switch.get("capacity_constraint")
        if override is not None:
            if not _fraction_value(override):
                raise _bad(file, f"switches[{i}].capacity_constraint", f"{override!r} is not a fraction in [0, 1]")
            if tier == 0:  # thresholds only mean something for ToRs
                overrides[i] = float(override)
        index_of[name] = i
        names.append(name)
        tiers_of.append(tier)

    lower: list[int] = []
    upper: list[int] = []
    link_names: list[str] = []
    states: list[str] = []
    link_ids: dict[str, int] = {}
    for i, link in enumerate(links):
        if not isinstance(link, dict):
            raise _bad(file, f"links[{i}]", "expected an object")
        ends = []
        for end in ("a", "b"):
            switch_name = link.get(end)
            if not isinstance(switch_name, str) or switch_name not in index_of:
                raise _bad(file, f"links[{i}].{end}", f"unknown switch {switch_name!r}")
            ends.append(index_of[switch_name])
        a, b = ends
        if abs(tiers_of[a] - tiers_of[b]) != 1:
            raise _bad(file, f"links[{i}]", f"{names[a]!r} and {names[b]!r} are not on adjacent tiers")
        lo, hi = (a, b) if tiers_of[a] < tiers_of[b] else (b, a)
        lower.append(lo)
        upper.append(hi)
        a_port, b_port = link.get("a_port", ""), link.get("b_port", "")
        name = f"{names[a]}:{a_port}-{names[b]}:{b_port}"
        link_names.append(name)
        link_ids.setdefault(name, i)
        link_ids.setdefault(f"{names[b]}:{b_port}-{names[a]}:{a_port}", i)
        admin, oper = link.get("admin_state", "enabled"), link.get("oper_state", "up")
        if admin not in ("enabled", "disabled", None):
            raise _bad(file, f"links[{i}].admin_state", f"{admin!r} is not 'enabled' or 'disabled'")
        if oper not in ("up", "down", None):
            raise _bad(file, f"links[{i}].oper_state", f"{oper!r} is not 'up' or 'down'")
        states.append("disabled" if admin == "disabled" else "down" if oper == "down" else "enabled")

    return Fabric(
        file=file,
        name=str(doc.get("name") or path.stem),
        num_tiers=num_tiers,
        capacity=float(capacity),
        switch_names=names,
        switch_tiers=tiers_of,
        link_lower=lower,
        link_upper=upper,
        link_names=link_names,
        states=states,
        overrides=overrides,
        link_ids=link_ids,
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


def read_corrupting(path: Path, fabric: Fabric) -> list[Corrupting]:
    """CORRUPTING.csv: header link,loss_rate; one link (index or name) and loss-rate fraction per row."""
    text = _read_text(path)
    rows = csv.reader(io.StringIO(text))
    try:
        header = next(rows, None)
        if header is None:
            raise CliError(f"{path}: empty file, expected the header 'link,loss_rate'")
        if tuple(cell.strip().lower() for cell in header) != CORRUPTING_HEADER:
            raise CliError(f"{path} line 1: expected the header 'link,loss_rate', got {','.join(header)!r}")
        result: list[Corrupting] = []
        seen: dict[int, int] = {}
        for row in rows:
            line = rows.line_num
            if not row or all(not cell.strip() for cell in row):
                continue
            if len(row) != 2:
                raise CliError(f"{path} line {line}: expected 2 fields (link,loss_rate), got {len(row)}")
            link_text, rate_text = row[0].strip(), row[1].strip()
            index = fabric.resolve_link(link_text)
            if index is None:
                raise CliError(f"{path} line {line}: unknown link {link_text!r}")
            try:
                rate = float(rate_text)
            except ValueError:
                raise CliError(f"{path} line {line}: loss rate {rate_text!r} is not a number") from None
            if not 0.0 <= rate <= 1.0:  # also rejects nan
                raise CliError(f"{path} line {line}: loss rate {rate_text} is not a fraction in [0, 1]")
            if index in seen:
                raise CliError(
                    f"{path} line {line}: link {fabric.link_names[index]!r} is already listed on line {seen[index]}"
                )
            seen[index] = line
            result.append(Corrupting(index, rate, line))
    except csv.Error as exc:
        raise CliError(f"{path} line {rows.line_num}: {exc}") from exc
    return result


# ---------------------------------------------------------------------------------------------
# Deciding


def penalty_of(name: str, loss_rate: float) -> float:
    """I(f) as the engine computes it (lightpath_engine.corropt_check's docstring)."""
    if name == "log":
        return math.log10(1.0 + loss_rate / 1e-8)
    if name == "step":
        return float(sum(loss_rate >= bound for bound in (1e-8, 1e-5, 1e-4, 1e-3)))
    return loss_rate


def required_paths(threshold: float, design: int) -> int:
    """ceil(threshold * design), products within 1e-9 of a whole number snapped (as the engine does)."""
    x = threshold * design
    nearest = round(x)
    return nearest if abs(x - nearest) <= 1e-9 * max(nearest, 1) else math.ceil(x)


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
    try:
        graph = engine.FabricGraph(fabric.num_tiers, fabric.switch_tiers, fabric.link_lower, fabric.link_upper)
    except (ValueError, OverflowError) as exc:
        raise CliError(f"{fabric.file}: {exc}") from exc

    before = fabric.states
    candidates = [c for c in corrupting if before[c.link] == "enabled"]
    pairs = [(c.link, c.loss_rate) for c in candidates]
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
            for c in sorted(candidates, key=lambda c: (-penalty_of(penalty.value, c.loss_rate), c.link)):
                refusal = refusals.get(c.link)
                rows[c.link] = _row(fabric, c, penalty_of(penalty.value, c.loss_rate), c.link not in keep, refusal)
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
        {**_row(fabric, c, penalty_of(penalty.value, c.loss_rate), False, None), "action": "skip"} for c in skipped
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
    batch = engine.corropt_check(graph, [(c.link, c.loss_rate) for c in kept], **options)
    if not any(decision["disabled"] for decision in batch):
        return {decision["link"]: decision["refusal"] for decision in batch}
    return {c.link: engine.corropt_check(graph, [(c.link, c.loss_rate)], **options)[0]["refusal"] for c in kept}


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


@app.command("check")
def check(
    ctx: typer.Context,
    fabric: FabricOption,
    corrupting: CorruptingOption,
    state: StateOption = None,
    capacity: CapacityOption = None,
    penalty: PenaltyOption = PenaltyName.linear,
    output: OutputOption = None,
) -> None:
    """Fast checker: disable what the ToRs allow.

    In decreasing penalty, each link is disabled if and only if no ToR below it falls under its threshold.
    """
    report = run(Command.check, fabric, state, corrupting, capacity, penalty)
    _print(get_context(ctx).output_format(output), report)


@app.command("optimize")
def optimize(
    ctx: typer.Context,
    fabric: FabricOption,
    corrupting: CorruptingOption,
    state: StateOption = None,
    capacity: CapacityOption = None,
    penalty: PenaltyOption = PenaltyName.linear,
    time_budget: Annotated[
        float | None,
        typer.Option(
            "--time-budget",
            metavar="SECONDS",
            min=0.0,
            show_default=False,
            help="Stop after this long with the best answer found and a lower bound [default: run to optimality].",
        ),
    ] = None,
    output: OutputOption = None,
) -> None:
    """Exact optimizer: least remaining penalty.

    The enabled corrupting links to disable that leave the least penalty while every ToR keeps its
    threshold. Kept links show the ToRs that could not lose them on top of the answer.
    """
    report = run(Command.optimize, fabric, state, corrupting, capacity, penalty, time_budget=time_budget)
    _print(get_context(ctx).output_format(output), report)


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
        typer.Option(
            "--share",
            min=0.0,
            max=1.0,
            show_default=False,
            help="Share of its up-links each switch keeps [default: capacity^(1/r), r tiers above the ToR].",
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
