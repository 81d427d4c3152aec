"""circuits plan|verify: c-Through optical circuit schedules on files, offline (the engine computes).

- plan: per reconfiguration period, the circuits an optical circuit switch sets up between racks, chosen
  from a rack-to-rack demand series (CSV `src,dst,bytes,window_start` or JSON), with the schedule's
  metrics (optical ratio against the uniform ratio, visit delay, flaps, bound and gap).
- verify: checks a schedule written by `plan --output json` against the inputs it embeds (port limits,
  zones, unavailable ports, contiguous slots, maximality and optimality where claimed, every number
  recomputed); one line per violation and exit code 1 when any is found.

Racks are indices 0..N-1. Window starts are seconds (any number) or ISO-8601 timestamps; window t is the
one starting `t * period` after the first, windows without demand are empty.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from lightpath_fixtures.demand import bucket_windows, looks_like_json, parse_demand

from ..context import get_context
from ..errors import CliError
from ..options import OutputOption, new_app
from ..output import Column, OutputFormat, print_json, print_record, print_rows, stdout_console
from .corropt import _engine

app = new_app()

TABLE_SLOTS = 20
MAX_LISTED_PROBLEMS = 20


class AlgorithmName(StrEnum):
    exact = "exact"
    greedy = "greedy"
    round_robin = "round-robin"
    static = "static"
    random = "random"


class Reconfig(StrEnum):
    per_port = "per-port"
    global_ = "global"


class Mode(StrEnum):
    replay = "replay"
    drain = "drain"


def _rack_index(racks: int) -> Callable[[str], int]:
    def resolve(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise ValueError(f"{text!r} is not an integer") from None
        if value < 0:
            raise ValueError(f"{value} is negative")
        if value >= racks:
            raise ValueError(f"{value} is not a rack (0 to {racks - 1})")
        return value

    return resolve


def read_demand(path: Path, racks: int, period: float) -> list[list[tuple[int, int, int]]]:
    """Demand windows from a CSV or JSON file; every bad row is reported (CSV by line, JSON by entry)."""
    try:
        text = path.read_text()
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror}") from exc
    is_json = path.suffix.lower() == ".json" or looks_like_json(text)
    parsed = parse_demand(text, _rack_index(racks), is_json=is_json)
    if parsed.problems:
        if not parsed.rows and len(parsed.problems) == 1 and parsed.problems[0].number is None:
            raise CliError(parsed.problems[0].text(path.name))
        shown = [problem.text(path.name) for problem in parsed.problems[:MAX_LISTED_PROBLEMS]]
        more = len(parsed.problems) - len(shown)
        raise CliError(
            f"{path.name}: {len(parsed.problems)} bad demand row(s)",
            details=shown + ([f"... and {more} more"] if more else []),
        )
    _, windows = bucket_windows(parsed.rows, period)
    return windows


def _racks_list(text: str | None, racks: int, option: str) -> list[int]:
    if not text:
        return []
    try:
        values = [int(part) for part in text.split(",") if part.strip()]
    except ValueError as exc:
        raise CliError(f"{option}: expected comma-separated rack numbers, got {text!r}") from exc
    bad = [v for v in values if not 0 <= v < racks]
    if bad:
        raise CliError(f"{option}: racks {bad} out of range (0 to {racks - 1})")
    return values


def _plan_input(**options: Any) -> dict[str, Any]:
    return options


def _engine_options(inputs: dict[str, Any]) -> dict[str, Any]:
    keys = (
        "zones",
        "capacity_bytes_per_s",
        "period_s",
        "dark_time_s",
        "reconfig",
        "mode",
        "algorithm",
        "seed",
        "min_demand_bytes",
        "burst_active",
        "burst_reset",
        "hysteresis",
        "time_budget_s",
        "max_slots",
    )
    return {key: inputs[key] for key in keys if key in inputs}


def _circuits_text(circuits: list[dict[str, int]]) -> str:
    parts = [f"{c['a']}-{c['b']}" + (f"x{c['count']}" if c["count"] > 1 else "") for c in circuits]
    return " ".join(parts) if parts else "-"


METRIC_COLUMNS = [
    Column("algorithm", "algorithm"),
    Column("slots", "slots", justify="right"),
    Column("total_bytes", "demand (bytes)", justify="right"),
    Column("offloaded_bytes", "offloaded (bytes)", justify="right"),
    Column("optical_ratio", "optical ratio", justify="right"),
    Column("uniform_ratio", "uniform ratio 1/(n-1)", justify="right"),
    Column("visit_delay_max_slots", "visit delay max (slots)", justify="right"),
    Column("visit_delay_p95_slots", "visit delay p95 (slots)", justify="right"),
    Column("flap_count", "flaps", justify="right"),
    Column("weight", "weight (bytes)", justify="right"),
    Column("bound", "upper bound (bytes)", justify="right"),
    Column("gap", "gap to bound", justify="right"),
    Column("fallback_slots", "greedy fallbacks", justify="right"),
    Column("runtime_s", "runtime (s)", justify="right"),
]
SLOT_COLUMNS = [
    Column("index", "slot", justify="right"),
    Column("t0", "start (s)", justify="right"),
    Column("circuits_text", "circuits"),
    Column("changed", "dark ports", justify="right"),
    Column("weight", "weight (bytes)", justify="right"),
    Column("offloaded_bytes", "offloaded (bytes)", justify="right"),
    Column("gap", "gap", justify="right"),
]


@app.command("plan")
def plan(
    ctx: typer.Context,
    demand: Annotated[
        Path, typer.Option("--demand", exists=True, dir_okay=False, help="CSV src,dst,bytes,window_start or JSON.")
    ],
    racks: Annotated[int, typer.Option("--racks", min=2, help="Number of racks (indices 0..N-1).")],
    ports_per_rack: Annotated[int, typer.Option("--ports-per-rack", min=1, help="Optical ports k per rack.")] = 1,
    algorithm: Annotated[AlgorithmName, typer.Option("--algorithm", help="How circuits are chosen.")] = (
        AlgorithmName.exact
    ),
    period: Annotated[float, typer.Option("--period", help="Reconfiguration period T in seconds.")] = 1.0,
    dark_time: Annotated[float, typer.Option("--dark-time", help="Dark time of a changed circuit (s).")] = 0.01,
    capacity_gbps: Annotated[float, typer.Option("--capacity-gbps", help="Capacity of one circuit.")] = 10.0,
    reconfig: Annotated[
        Reconfig, typer.Option("--reconfig", help="per-port: only changed ports go dark; global: all do.")
    ] = Reconfig.per_port,
    mode: Annotated[
        Mode, typer.Option("--mode", help="replay: decide on window t, score on t+1; drain: until served.")
    ] = Mode.replay,
    min_demand: Annotated[int, typer.Option("--min-demand", min=0, help="Ignore pairs below these bytes.")] = (
        1_000_000
    ),
    burst_active: Annotated[
        int, typer.Option("--burst-active", min=1, help="Windows a pair must be active before it counts.")
    ] = 1,
    burst_reset: Annotated[
        int, typer.Option("--burst-reset", min=1, help="Idle windows after which the burst counters reset.")
    ] = 1,
    hysteresis: Annotated[
        float, typer.Option("--hysteresis", min=0.0, help="A kept circuit counts (1 + h) times when choosing.")
    ] = 0.0,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Seed of the random baseline.")] = 0,
    time_budget: Annotated[
        float | None, typer.Option("--time-budget", min=0.0, help="Seconds before exact falls back to greedy.")
    ] = None,
    zone_size: Annotated[
        int | None, typer.Option("--zone-size", min=2, help="Racks per OCS zone (consecutive indices).")
    ] = None,
    unavailable: Annotated[
        str | None, typer.Option("--unavailable", help="Comma-separated racks whose optical ports are down.")
    ] = None,
    max_slots: Annotated[int, typer.Option("--max-slots", min=1, help="Drain mode stops after this many.")] = (100_000),
    output: OutputOption = None,
) -> None:
    """Plan circuits per period from a demand series and report the schedule's quality."""
    fmt = get_context(ctx).output_format(output)
    if not (math.isfinite(period) and period > 0):
        raise CliError(f"--period must be positive, got {period}")
    if not 0 <= dark_time < period:
        raise CliError(f"--dark-time must be at least 0 and below the period ({period}), got {dark_time}")
    windows = read_demand(demand, racks, period)
    ports = [ports_per_rack] * racks
    for rack in _racks_list(unavailable, racks, "--unavailable"):
        ports[rack] = 0
    inputs = _plan_input(
        racks=racks,
        ports=ports,
        zones=[rack // zone_size for rack in range(racks)] if zone_size else [0] * racks,
        capacity_bytes_per_s=capacity_gbps * 1e9 / 8,
        period_s=period,
        dark_time_s=dark_time,
        reconfig="global" if reconfig is Reconfig.global_ else "per_port",
        mode=mode.value,
        algorithm=algorithm.value,
        seed=seed,
        min_demand_bytes=min_demand,
        burst_active=burst_active,
        burst_reset=burst_reset,
        hysteresis=hysteresis,
        time_budget_s=time_budget,
        max_slots=max_slots,
    )
    engine = _engine()
    try:
        schedule = engine.circuit_plan(ports, windows, **_engine_options(inputs))
    except ValueError as exc:
        raise CliError(str(exc)) from exc
    if fmt is OutputFormat.json:
        print_json({"input": {**inputs, "windows": windows}, **schedule})
        return
    metrics = {**schedule["metrics"], "algorithm": algorithm.value, "slots": len(schedule["slots"])}
    for key in ("optical_ratio", "uniform_ratio", "gap"):
        metrics[key] = f"{metrics[key]:.4f}"
    metrics["runtime_s"] = f"{metrics['runtime_s']:.3f}"
    print_record(OutputFormat.table, metrics, METRIC_COLUMNS, [c.key for c in METRIC_COLUMNS])
    rows = [
        {
            **slot,
            "circuits_text": _circuits_text(slot["circuits"]),
            "changed": len(slot["changed_ports"]),
            "gap": f"{(slot['bound'] - slot['weight']) / slot['bound']:.4f}" if slot["bound"] else "0",
        }
        for slot in schedule["slots"][:TABLE_SLOTS]
    ]
    print_rows(OutputFormat.table, rows, SLOT_COLUMNS, [c.key for c in SLOT_COLUMNS])
    if len(schedule["slots"]) > TABLE_SLOTS:
        stdout_console().print(f"... {len(schedule['slots']) - TABLE_SLOTS} more slots (--output json lists all)")


@app.command("verify")
def verify(
    ctx: typer.Context,
    schedule_file: Annotated[
        Path, typer.Argument(exists=True, dir_okay=False, metavar="SCHEDULE.json", help="From plan --output json.")
    ],
    output: OutputOption = None,
) -> None:
    """Check a schedule against its inputs; one line per violation, exit code 1 if any."""
    fmt = get_context(ctx).output_format(output)
    try:
        data = json.loads(schedule_file.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise CliError(f"{schedule_file.name}: not a readable JSON schedule ({exc})") from exc
    inputs = data.get("input") if isinstance(data, dict) else None
    slots = data.get("slots") if isinstance(data, dict) else None
    if not isinstance(inputs, dict) or not isinstance(slots, list) or "windows" not in inputs or "ports" not in inputs:
        raise CliError(f"{schedule_file.name}: expected the JSON of `lightpath circuits plan --output json`")
    engine = _engine()
    try:
        windows = [[tuple(entry) for entry in window] for window in inputs["windows"]]
        violations: list[str] = engine.circuit_verify(inputs["ports"], windows, slots, **_engine_options(inputs))
    except (TypeError, ValueError) as exc:
        raise CliError(f"{schedule_file.name}: {exc}") from exc
    if fmt is OutputFormat.json:
        print_json({"ok": not violations, "slots": len(slots), "violations": violations})
    else:
        for line in violations:
            typer.echo(line)
        if not violations:
            typer.echo(f"ok: {len(slots)} slots hold every invariant")
    if violations:
        raise typer.Exit(1)
