"""CorrOpt on files: the decisions of check, optimize and switch-local, corruption traces, and the
simulation that replays a trace under each policy. The engine decides; this module reads the files,
calls it and returns plain documents for the command to print."""

from __future__ import annotations

import csv
import io
import math
from enum import StrEnum
from pathlib import Path
from typing import Any

from rich.progress import BarColumn, Progress, SpinnerColumn, TaskProgressColumn, TextColumn, TimeElapsedColumn

from ..errors import CliError
from ..output import stderr_console
from .corrupting import Corrupting, read_corrupting
from .engine import load_engine
from .fabric import Fabric, apply_state_file, build_graph, load_fabric
from .files import read_text

TRACE_HEADER = ("time_s", "link", "loss_rate")
SERIES_HEADER = ("policy", "time_s", "penalty", "active_corrupting", "disabled", "worst_fraction")
HOUR_S = 3600.0
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


class Command(StrEnum):
    check = "check"
    optimize = "optimize"
    switch_local = "switch-local"


class Policy(StrEnum):
    corropt = "corropt"
    fast_checker = "fast-checker"
    switch_local = "switch-local"


def penalty_of(name: str, c: Corrupting) -> float:
    """I(up) + I(down), computed by the engine so that the CLI never disagrees with its decisions."""
    return float(load_engine().corropt_penalty(name, c.loss_rate, c.loss_rate_down))


def required_paths(threshold: float, design: int) -> int:
    """The paths a ToR must keep: the engine's ceil(threshold * design), snapped within 1e-9."""
    return int(load_engine().corropt_required_paths(threshold, design))


def decide(
    command: Command,
    fabric_path: Path,
    state_path: Path | None,
    corrupting_path: Path,
    capacity: float | None,
    penalty: str,
    share: float | None = None,
    time_budget: float | None = None,
) -> dict[str, Any]:
    """Load the files, call the engine, and return the {"summary", "decisions"} document."""
    engine = load_engine()
    fabric = load_fabric(fabric_path)
    if state_path is not None:
        apply_state_file(state_path, fabric)
    corrupting = read_corrupting(corrupting_path, fabric)
    threshold = fabric.capacity if capacity is None else capacity
    graph = build_graph(fabric)

    before = fabric.states
    candidates = [c for c in corrupting if before[c.link] == "enabled"]
    pairs = [c.engine_entry() for c in candidates]
    common: dict[str, Any] = {
        "link_states": before,
        "capacity": threshold,
        "overrides": fabric.overrides,
        "penalty": penalty,
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
            for c in sorted(candidates, key=lambda c: (-penalty_of(penalty, c), c.link)):
                refusal = refusals.get(c.link)
                rows[c.link] = _decision_row(fabric, c, penalty_of(penalty, c), c.link not in keep, refusal)
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
                rows[c.link] = _decision_row(fabric, c, decision["penalty"], decision["disabled"], decision["refusal"])
            remaining = sum(row["penalty"] for row in rows.values() if not row["disabled"])
        capacities = graph.tor_capacity([state == "enabled" for state in after])
        capacities_before = graph.tor_capacity([state == "enabled" for state in before])
    except (ValueError, OverflowError) as exc:
        raise CliError(str(exc)) from exc

    skipped = [c for c in corrupting if before[c.link] != "enabled"]
    decision_rows = list(rows.values()) + [
        {**_decision_row(fabric, c, penalty_of(penalty, c), False, None), "action": "skip"} for c in skipped
    ]
    worst: dict[str, Any] | None = None

    def under(tor: int, available: int, total: int) -> bool:
        return available < required_paths(fabric.overrides.get(tor, threshold), total)

    below = [fabric.switch_names[tor] for tor, available, total in capacities if total and under(tor, available, total)]
    # Down or disabled links of the input may have left ToRs short before any decision: say so.
    below_before = [
        fabric.switch_names[tor]
        for tor, available, total in capacities_before
        if total and under(tor, available, total)
    ]
    for tor, available, total in capacities:
        if total == 0:
            continue
        tor_threshold = fabric.overrides.get(tor, threshold)
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
        "penalty_function": penalty,
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
        "tors_below_threshold_before": below_before,
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


def _decision_row(fabric: Fabric, c: Corrupting, penalty: float, disabled: bool, refusal: Any) -> dict[str, Any]:
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
    text = read_text(path)
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


def make_trace(fabric_path: Path, mttf_hours: float, hours: float, seed: int, names: bool) -> tuple[str, str]:
    """Synthetic onsets as TRACE.csv text, and a one-line summary of them."""
    loaded = load_fabric(fabric_path)
    graph = build_graph(loaded)
    try:
        trace = load_engine().corropt_trace(graph, mttf_hours, hours, seed)
    except (ValueError, OverflowError) as exc:
        raise CliError(str(exc)) from exc
    summary = (
        f"{len(trace)} onsets on {len({link for _, link, _ in trace})} of {len(loaded.link_names)} links "
        f"over {hours:g} h (horizon {hours * HOUR_S:.6g} s; MTTF {mttf_hours:g} h, seed {seed})"
    )
    return trace_csv(trace, loaded, names), summary


def simulate(
    fabric_path: Path,
    trace_path: Path,
    state_path: Path | None,
    *,
    policies: list[Policy],
    capacity: float | None,
    penalty: str,
    share: float | None,
    repair_delay_hours: float,
    fix_probability: float,
    seed: int,
    horizon_hours: float | None,
    time_budget: float | None,
    with_series: bool = False,
) -> tuple[dict[str, Any], str | None]:
    """Replay TRACE.csv under each policy: the report document and, if asked, the step series as CSV
    (policy,time_s,penalty,active_corrupting,disabled,worst_fraction; one row per step)."""
    engine = load_engine()
    loaded = load_fabric(fabric_path)
    if state_path is not None:
        apply_state_file(state_path, loaded)
    onsets = read_trace(trace_path, loaded)
    graph = build_graph(loaded)
    threshold = loaded.capacity if capacity is None else capacity
    common: dict[str, Any] = {
        "link_states": loaded.states,
        "capacity": threshold,
        "overrides": loaded.overrides,
        "penalty": penalty,
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
        "trace": {"file": str(trace_path), "onsets": len(onsets), "horizon_s": results[0]["horizon_s"]},
        "settings": {
            "capacity": threshold,
            "penalty_function": penalty,
            "repair_delay_s": common["repair_delay_s"],
            "fix_probability": fix_probability,
            "seed": seed,
            "time_budget_s": time_budget,
            "state_file": None if state_path is None else str(state_path),
            "initially_disabled": loaded.states.count("disabled"),
            "initially_down": loaded.states.count("down"),
        },
        "policies": rows,
        "corropt_penalty_seconds": comparison["corropt_penalty_seconds"],
    }
    return report, _series_csv(results) if with_series else None
