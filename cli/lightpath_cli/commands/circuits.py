"""circuits plan|verify|demands: c-Through optical circuit schedules, offline on files or as server jobs.

- plan: per reconfiguration period, the circuits an optical circuit switch sets up between racks, chosen
  from a rack-to-rack demand series (CSV `src,dst,bytes,window_start` or JSON), with the schedule's
  metrics (optical ratio against the uniform ratio, visit delay, flaps, bound and gap).
  Offline (`--demand FILE --racks N`) the engine runs here and racks are indices 0..N-1. With a FABRIC
  on the server it runs as a `circuits.schedule` job on the fabric's circuit switch, for a stored
  demand (`--demand-id`) or a file uploaded first (racks are ToR names), and is followed to the end.
- verify: checks a schedule written by `plan --output json` (offline or server) or downloaded from
  /api/jobs/ID/result/ against the inputs it embeds (port limits, zones, unavailable ports, contiguous
  slots, maximality and optimality where claimed, every number recomputed); one line per violation
  and exit code 1 when any is found. Always offline.
- demands upload|list: demand series stored on the server.

Window starts are seconds (any number) or ISO-8601 timestamps; window t is the one starting
`t * period` after the first, windows without demand are empty. The parser is shared with the server
(lightpath_fixtures.demand).
"""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from ..context import get_context
from ..errors import CliError, UsageError
from ..offline.circuits import engine_options, racks_list, read_demand, read_groups
from ..offline.engine import load_engine
from ..options import CancelOnInterruptOption, IntervalOption, OutputOption, new_app, seed_option
from ..output import Column, OutputFormat, print_json, print_record, print_rows, stderr_console, stdout_console
from ..server.errors import ApiError, rejected
from ..server.follow import start_and_follow
from ..server.lookup import resolve_fabric
from ..server.shapes import DEMAND_KEYS

app = new_app()

TABLE_SLOTS = 20
UPLOAD_TIMEOUT_S = 300.0  # a one-hour demand of a 320-rack zone is tens of megabytes


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


def _plan_input(**options: Any) -> dict[str, Any]:
    return options


def _circuits_text(circuits: list[dict[str, int]], names: list[str] | None = None) -> str:
    def rack(index: int) -> str:
        return names[index] if names is not None else str(index)

    parts = [f"{rack(c['a'])}-{rack(c['b'])}" + (f"x{c['count']}" if c["count"] > 1 else "") for c in circuits]
    return " ".join(parts) if parts else "-"


METRIC_COLUMNS = [
    Column("algorithm", "algorithm"),
    Column("slots", "slots", justify="right"),
    Column("total_bytes", "demand (bytes)", justify="right"),
    Column("offloaded_bytes", "offloaded (bytes)", justify="right"),
    Column("optical_ratio", "optical ratio", justify="right"),
    Column("uniform_ratio", "uniform ratio ⌊n/2⌋/C(n,2)", justify="right"),
    Column("visit_delay_max_slots", "visit delay max (slots)", justify="right"),
    Column("visit_delay_p95_slots", "visit delay p95 (slots)", justify="right"),
    Column("flap_count", "flaps", justify="right"),
    Column("weight", "weight (bytes)", justify="right"),
    Column("bound", "upper bound (bytes)", justify="right"),
    Column("gap", "gap to bound", justify="right"),
    Column("fallback_slots", "greedy fallbacks", justify="right"),
    Column("runtime_s", "runtime (s)", justify="right"),
]
# Shown with --edge-groups: what the groups earned and the total the exact plan maximised.
GROUP_METRIC_COLUMNS = [
    Column("bonus", "edge-group bonus (bytes)", justify="right"),
    Column("total", "weight + bonus (bytes)", justify="right"),
    Column("groups_completed", "groups completed (slot-groups)", justify="right"),
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
    server_fabric: Annotated[
        str | None,
        typer.Argument(
            metavar="FABRIC",
            show_default=False,
            help="A fabric on the server (name or id): plan there as a job (--demand-id, or --demand to upload).",
        ),
    ] = None,
    demand: Annotated[
        Path | None,
        typer.Option(
            "--demand",
            exists=True,
            dir_okay=False,
            help="CSV src,dst,bytes,window_start or JSON (uploaded with FABRIC).",
        ),
    ] = None,
    demand_id: Annotated[
        int | None, typer.Option("--demand-id", min=1, help="With FABRIC: a demand already on the server.")
    ] = None,
    demand_name: Annotated[
        str | None, typer.Option("--demand-name", help="With FABRIC and --demand: the uploaded demand's name.")
    ] = None,
    circuit_switch: Annotated[
        str | None,
        typer.Option("--circuit-switch", help="With FABRIC: the circuit switch (name or id); default its only one."),
    ] = None,
    zone: Annotated[str | None, typer.Option("--zone", help="With FABRIC: every circuit switch of this zone.")] = None,
    compare: Annotated[
        list[AlgorithmName] | None,
        typer.Option("--compare", help="With FABRIC: also run this algorithm and keep its metrics (repeatable)."),
    ] = None,
    racks: Annotated[int | None, typer.Option("--racks", min=2, help="Offline: racks (indices 0..N-1).")] = None,
    ports_per_rack: Annotated[
        int, typer.Option("--ports-per-rack", min=1, help="Offline: optical ports k per rack.")
    ] = 1,
    algorithm: Annotated[AlgorithmName, typer.Option("--algorithm", help="How circuits are chosen.")] = (
        AlgorithmName.exact
    ),
    period: Annotated[
        float | None,
        typer.Option("--period", help="Reconfiguration period T in seconds [1; server: the demand's window]."),
    ] = None,
    dark_time: Annotated[
        float | None,
        typer.Option("--dark-time", help="Dark time of a changed circuit (s) [0.01; server: the circuit switch's]."),
    ] = None,
    capacity_gbps: Annotated[
        float | None,
        typer.Option("--capacity-gbps", help="Capacity of one circuit [10; server: the circuit switch's]."),
    ] = None,
    reconfig: Annotated[
        Reconfig, typer.Option("--reconfig", help="per-port: only changed ports go dark; global: all do.")
    ] = Reconfig.per_port,
    mode: Annotated[
        Mode | None,
        typer.Option("--mode", help="replay: decide on window t, score on t+1; drain: until served [replay]."),
    ] = None,
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
    seed: Annotated[int, seed_option("Seed of the random baseline.")] = 0,
    time_budget: Annotated[
        float | None, typer.Option("--time-budget", min=0.0, help="Seconds before exact falls back to greedy.")
    ] = None,
    zone_size: Annotated[
        int | None, typer.Option("--zone-size", min=2, help="Offline: racks per OCS zone (consecutive indices).")
    ] = None,
    unavailable: Annotated[
        str | None, typer.Option("--unavailable", help="Offline: comma-separated racks whose optical ports are down.")
    ] = None,
    max_slots: Annotated[int, typer.Option("--max-slots", min=1, help="Drain mode stops after this many.")] = (100_000),
    edge_groups: Annotated[
        Path | None,
        typer.Option(
            "--edge-groups",
            exists=True,
            dir_okay=False,
            help='JSON [{"name", "pairs": [[src, dst], ...], "bonus_bytes"}]: racks by index offline, ToR names '
            "on the server.",
        ),
    ] = None,
    interval: IntervalOption = 1.0,
    cancel_on_interrupt: CancelOnInterruptOption = False,
    output: OutputOption = None,
) -> None:
    """Plan circuits per period from a demand series and report the schedule's quality.

    Offline: --demand FILE --racks N (the engine runs here). With FABRIC: a `circuits.schedule` job on
    the server, for --demand-id N or a --demand FILE it uploads first (ToR names as src/dst), on the
    fabric's circuit switch (--circuit-switch or --zone); the job is followed with a progress bar.
    """
    cli = get_context(ctx)
    fmt = cli.output_format(output)
    if period is not None and not (math.isfinite(period) and period > 0):
        raise UsageError(f"--period must be positive, got {period}")
    if server_fabric is None:
        offline_only = {"--demand-id": demand_id, "--demand-name": demand_name, "--circuit-switch": circuit_switch,
                        "--zone": zone, "--compare": compare or None}  # fmt: skip
        given = [option for option, value in offline_only.items() if value is not None]
        if given:
            raise UsageError(f"{', '.join(given)} need a FABRIC on the server")
        if demand is None or racks is None:
            raise UsageError("offline planning needs --demand FILE and --racks N (or give a FABRIC on the server)")
        period_s = 1.0 if period is None else period
        dark_s = 0.01 if dark_time is None else dark_time
        if not 0 <= dark_s < period_s:
            raise UsageError(f"--dark-time must be at least 0 and below the period ({period_s}), got {dark_s}")
        windows = read_demand(demand, racks, period_s)
        if mode is None and len(windows) == 1:
            # Replay decides on one window and scores on the next: one window is a snapshot to drain.
            mode = Mode.drain
            stderr_console().print("note: the demand has one window, so it is drained (--mode drain)", highlight=False)
        ports = [ports_per_rack] * racks
        for rack in racks_list(unavailable, racks, "--unavailable"):
            ports[rack] = 0
        inputs = _plan_input(
            racks=racks,
            ports=ports,
            zones=[rack // zone_size for rack in range(racks)] if zone_size else [0] * racks,
            capacity_bytes_per_s=(10.0 if capacity_gbps is None else capacity_gbps) * 1e9 / 8,
            period_s=period_s,
            dark_time_s=dark_s,
            reconfig="global" if reconfig is Reconfig.global_ else "per_port",
            mode=(mode or Mode.replay).value,
            algorithm=algorithm.value,
            seed=seed,
            min_demand_bytes=min_demand,
            burst_active=burst_active,
            burst_reset=burst_reset,
            hysteresis=hysteresis,
            time_budget_s=time_budget,
            max_slots=max_slots,
            groups=[[group["pairs"], group["bonus_bytes"]] for group in read_groups(edge_groups)],
        )
        engine = load_engine()
        try:
            schedule = engine.circuit_plan(ports, windows, **engine_options(inputs))
        except (TypeError, ValueError) as exc:
            raise CliError(str(exc)) from exc
        if fmt is OutputFormat.json:
            print_json({"input": {**inputs, "windows": windows}, **schedule})
            return
        _print_schedule(schedule, algorithm.value, None, read_groups(edge_groups))
        return
    offline = {"--racks": racks, "--zone-size": zone_size, "--unavailable": unavailable}
    given = [option for option, value in offline.items() if value is not None]
    if ports_per_rack != 1:
        given.append("--ports-per-rack")
    if given:
        raise UsageError(f"{', '.join(given)} are offline options; on the server the circuit switch decides")
    if (demand is None) == (demand_id is None):
        raise UsageError("with FABRIC give exactly one of --demand-id N or --demand FILE (uploaded first)")
    if circuit_switch is not None and zone is not None:
        raise UsageError("give --circuit-switch or --zone, not both")
    params: dict[str, Any] = {
        "algorithm": _server_algorithm(algorithm),
        "reconfig": "global" if reconfig is Reconfig.global_ else "per_port",
        "seed": seed,
        "min_demand_bytes": min_demand,
        "burst_active": burst_active,
        "burst_reset": burst_reset,
        "hysteresis": hysteresis,
        "max_slots": max_slots,
        "compare": [_server_algorithm(a) for a in compare or []],
        "edge_groups": read_groups(edge_groups),
    }
    optional = {"period_s": period, "dark_time_s": dark_time, "capacity_gbps": capacity_gbps,
                "mode": mode.value if mode else None, "time_budget_s": time_budget}  # fmt: skip
    params.update({key: value for key, value in optional.items() if value is not None})
    with cli.client() as client:
        fabric = resolve_fabric(client, server_fabric)
        if demand is not None:
            uploaded = _upload(client, fabric, demand, demand_name)
            typer.echo(f"uploaded {demand.name} as demand {uploaded['id']} ({uploaded['row_count']} rows, "
                       f"{uploaded['window_count']} windows)", err=True)  # fmt: skip
            demand_id = int(uploaded["id"])
        body: dict[str, Any] = {"demand": demand_id, "params": params}
        if zone is not None:
            body["zone"] = zone
        else:
            body["circuit_switch"] = _resolve_circuit_switch(client, fabric, circuit_switch)["id"]
        job = start_and_follow(
            client,
            "/api/circuit-schedules/",
            body,
            what="schedule",
            where=f" on {fabric['name']}",
            interval=interval,
            cancel_on_interrupt=cancel_on_interrupt,
        )
    result = job["result"]
    if fmt is OutputFormat.json:
        print_json(result)
        return
    _print_schedule(result, params["algorithm"], result)


def _server_algorithm(algorithm: AlgorithmName) -> str:
    return algorithm.value.replace("-", "_")


def _upload(client: Any, fabric: dict[str, Any], path: Path, name: str | None) -> dict[str, Any]:
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(f"cannot read {path}: {exc}") from exc
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S")
    body = {"fabric": fabric["id"], "name": name or f"{path.name} {stamp}", "csv": text}
    try:
        uploaded: dict[str, Any] = client.post("/api/demands/", body, timeout=UPLOAD_TIMEOUT_S)
    except ApiError as error:
        if error.status != 400:
            raise
        raise rejected(error, path.name) from error
    return uploaded


def _resolve_circuit_switch(client: Any, fabric: dict[str, Any], reference: str | None) -> dict[str, Any]:
    switches = list(client.iterate("/api/circuit-switches/", {"fabric": fabric["id"], "brief": 1}))
    if reference is None:
        if len(switches) == 1:
            return switches[0]
        names = ", ".join(s["name"] for s in switches) or "none"
        raise CliError(
            f"fabric {fabric['name']!r} has {len(switches)} circuit switches ({names}): give --circuit-switch"
        )
    for switch in switches:
        if switch["name"] == reference or str(switch["id"]) == reference:
            return switch
    raise CliError(f"circuit switch {reference!r} not found in fabric {fabric['name']!r}")


COMPARISON_COLUMNS = [c for c in METRIC_COLUMNS if c.key != "slots"]


def _print_schedule(
    schedule: dict[str, Any],
    algorithm: str,
    server_result: dict[str, Any] | None,
    groups: list[dict[str, Any]] | None = None,
) -> None:
    """Metrics, the comparison (server results) and the first slots; racks by name when known. With edge
    groups: their bonus, the total (bytes + bonus) and, per slot, the groups it completed."""
    metrics = _formatted({**schedule["metrics"], "algorithm": algorithm, "slots": len(schedule["slots"])})
    metric_columns, slot_columns = METRIC_COLUMNS, SLOT_COLUMNS
    if groups:
        metrics["total"] = schedule["metrics"]["weight"] + schedule["metrics"].get("bonus", 0)
        metric_columns = METRIC_COLUMNS + GROUP_METRIC_COLUMNS
        slot_columns = [*SLOT_COLUMNS, Column("groups_text", "groups completed")]
    print_record(OutputFormat.table, metrics, metric_columns, [c.key for c in metric_columns])
    if server_result is not None and len(server_result.get("comparison", [])) > 1:
        rows = [_formatted(dict(row)) for row in server_result["comparison"]]
        print_rows(OutputFormat.table, rows, COMPARISON_COLUMNS, [c.key for c in COMPARISON_COLUMNS])
    names = [rack["name"] for rack in server_result["racks"]] if server_result is not None else None
    rows = [
        {
            **slot,
            "circuits_text": _circuits_text(slot["circuits"], names),
            "changed": len(slot["changed_ports"]),
            "gap": f"{(slot['bound'] - slot['weight']) / slot['bound']:.4f}" if slot["bound"] else "0",
            "groups_text": ", ".join(
                (groups or [])[g].get("name") or f"group {g}" for g in slot.get("completed_groups", [])
            )
            or "-",
        }
        for slot in schedule["slots"][:TABLE_SLOTS]
    ]
    print_rows(OutputFormat.table, rows, slot_columns, [c.key for c in slot_columns])
    if len(schedule["slots"]) > TABLE_SLOTS:
        stdout_console().print(f"... {len(schedule['slots']) - TABLE_SLOTS} more slots (--output json lists all)")


def _formatted(metrics: dict[str, Any]) -> dict[str, Any]:
    for key in ("optical_ratio", "uniform_ratio", "gap"):
        metrics[key] = f"{metrics[key]:.4f}"
    metrics["runtime_s"] = f"{metrics['runtime_s']:.3f}"
    return metrics


@app.command("verify")
def verify(
    ctx: typer.Context,
    schedule_file: Annotated[
        Path,
        typer.Argument(
            exists=True, dir_okay=False, metavar="SCHEDULE.json", help="plan --output json, or a server result."
        ),
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
        raise CliError(
            f"{schedule_file.name}: expected the JSON of `lightpath circuits plan --output json` or of a "
            "circuits.schedule job's result"
        )
    if inputs["windows"] is None:
        raise CliError(
            f"{schedule_file.name}: the server left the demand windows out of this result (too many entries "
            "to echo), so it cannot be verified offline"
        )
    engine = load_engine()
    try:
        windows = [[tuple(entry) for entry in window] for window in inputs["windows"]]
        violations: list[str] = engine.circuit_verify(inputs["ports"], windows, slots, **engine_options(inputs))
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


demands_app = new_app()
app.add_typer(demands_app, name="demands", help="Demand series stored on the server (for `plan FABRIC --demand-id`).")

DEMAND_COLUMNS = [
    Column("id", "id", justify="right"),
    Column("name", "name"),
    Column("window_count", "windows", justify="right"),
    Column("window_s", "window (s)", justify="right"),
    Column("row_count", "rows", justify="right"),
    Column("rack_count", "racks", justify="right"),
    Column("total_bytes", "bytes", justify="right"),
    Column("uploaded_by", "uploaded by"),
    Column("created", "created"),
]


@demands_app.command("upload")
def upload_demand(
    ctx: typer.Context,
    fabric_reference: Annotated[str, typer.Argument(metavar="FABRIC", help="The fabric (name or id).")],
    demand: Annotated[
        Path,
        typer.Argument(exists=True, dir_okay=False, metavar="FILE", help="CSV src,dst,bytes,window_start or JSON."),
    ],
    name: Annotated[str | None, typer.Option("--name", help="The demand's name [the file name and the time].")] = None,
    output: OutputOption = None,
) -> None:
    """Upload a demand series (src and dst are ToR names); every bad row is listed with its line."""
    cli = get_context(ctx)
    fmt = cli.output_format(output)
    with cli.client() as client:
        uploaded = _upload(client, resolve_fabric(client, fabric_reference), demand, name)
    print_record(fmt, uploaded, DEMAND_COLUMNS, DEMAND_KEYS)


@demands_app.command("list")
def list_demands(
    ctx: typer.Context,
    fabric_reference: Annotated[
        str | None, typer.Argument(metavar="FABRIC", help="Only this fabric's (name or id).")
    ] = None,
    output: OutputOption = None,
) -> None:
    """Demand series on the server, newest first."""
    cli = get_context(ctx)
    fmt = cli.output_format(output)
    with cli.client() as client:
        params = {"fabric": resolve_fabric(client, fabric_reference)["id"]} if fabric_reference else {}
        rows = list(client.iterate("/api/demands/", params))
    print_rows(fmt, rows, DEMAND_COLUMNS, DEMAND_KEYS)
