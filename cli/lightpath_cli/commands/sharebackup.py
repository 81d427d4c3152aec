"""sharebackup plan|size: ShareBackup failover plans and backup-pool sizing on files, offline (the engine computes).

- plan: a k-ary fat tree (P pods, n backups per failure group) and an event log (JSON list of events:
  `{"type": "switch_down", "switch": "agg.p0.m1"}`, `link_down` with `a` and `b`, `repair_done`,
  `diagnosis_result` with `healthy`) -> per event the ordered replace() calls, circuit changes, pools, DEGRADED
  groups with their rerouting fallback and diagnosis tests. The engine's verifier checks the schedule; a
  violation exits non-zero.
- size: the smallest number of backups per group for a target probability that some group runs out.

docs/reconfig.md describes the model (parts are reconstructions: the seed is a fragment) and the JSON shapes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from ..context import get_context
from ..errors import CliError
from ..options import OutputOption, new_app
from ..output import OutputFormat, print_json, stdout_console
from .corropt import _engine

app = new_app()

KOption = Annotated[int, typer.Option("--fabric-k", help="Fat-tree radix k (even).")]
PodsOption = Annotated[int | None, typer.Option("--pods", help="Pods P (default k: a full tree).", show_default=False)]


def _table_or_json(fmt: OutputFormat) -> OutputFormat:
    if fmt is OutputFormat.csv:
        raise CliError("--output csv is not available here: use table or json")
    return fmt


def read_json_list(path: Path, key: str, option: str) -> list[Any]:
    """A JSON list from a file, bare or under `key`."""
    try:
        data = json.loads(path.read_text())
    except OSError as exc:
        raise CliError(f"{option}: cannot read {path}: {exc.strerror}") from exc
    except json.JSONDecodeError as exc:
        raise CliError(f"{option}: {path} is not JSON ({exc.msg} at line {exc.lineno})") from exc
    if isinstance(data, dict) and key in data:
        data = data[key]
    if not isinstance(data, list):
        raise CliError(f"{option}: {path} must hold a JSON list (or an object with {key!r})")
    return data


def _describe(event: dict[str, Any]) -> str:
    kind = event["type"]
    if kind == "link_down":
        return f"link_down {event['a']} - {event['b']}"
    if kind == "diagnosis_result":
        return f"diagnosis {event['switch']} {'healthy' if event['healthy'] else 'faulty'}"
    return f"{kind} {event['switch']}"


@app.command("plan")
def plan(
    ctx: typer.Context,
    fabric_k: KOption,
    backups: Annotated[int, typer.Option("--backups", help="Backups n per failure group.")],
    events: Annotated[Path, typer.Option("--events", help="JSON event log (a list, or {'events': [...]}).")],
    pods: PodsOption = None,
    reconfig_ms: Annotated[
        float, typer.Option("--reconfig-ms", help="Circuit switching time (0.5 EPS, 8.5 OCS in the seed).")
    ] = 0.5,
    output: OutputOption = None,
) -> None:
    """Failover schedule of an event log, checked by the engine's verifier."""
    fmt = _table_or_json(get_context(ctx).output_format(output))
    log = read_json_list(events, "events", "--events")
    try:
        schedule = _engine().sharebackup_plan(fabric_k, fabric_k if pods is None else pods, backups, log, reconfig_ms)
    except ValueError as exc:
        raise CliError(str(exc)) from exc
    if fmt is OutputFormat.json:
        print_json(schedule)
    else:
        _print_plan(schedule)
    if schedule["violations"]:
        raise CliError(f"the schedule breaks {len(schedule['violations'])} invariant(s): {schedule['violations'][0]}")


def _print_plan(schedule: dict[str, Any]) -> None:
    from rich.table import Table

    console = stdout_console()
    counts = schedule["counts"]
    fabric = schedule["fabric"]
    console.print(
        f"k={fabric['k']} P={fabric['pods']} n={fabric['backups']}: {counts['active_switches']} active switches, "
        f"{counts['backup_switches']} backups in {counts['failure_groups']} groups, {counts['hosts']} hosts, "
        f"{counts['circuit_switches']} circuit switches ({counts['circuit_ports']} ports)",
        highlight=False,
    )
    table = Table("#", "event", "status", "replace()", "circuits changed", "pools", "tests", "tickets")
    for step in schedule["events"]:
        pools = "; ".join(
            f"{p['group']}: {len(p['spares'])} spare"
            + (f", down {'/'.join(p['failed'] + p['suspects'])}" if p["failed"] or p["suspects"] else "")
            for p in step["pools"]
        )
        status = step["status"]
        if step["fallback"]:
            status += " (" + ", ".join(f["slot"] for f in step["fallback"]) + " rerouted)"
        tests = ", ".join(
            f"{t['suspect']}↔{t['partner']}" if t["partner"] else f"{t['suspect']} waits"
            for t in step["diagnosis_tests"]
        )
        table.add_row(
            str(step["index"]),
            _describe(step["event"]),
            status,
            str(len(step["replace_calls"])),
            str(sum(len(d["added"]) for d in step["circuit_changes"])),
            pools,
            tests or "-",
            ", ".join(step["repair_tickets"]) or "-",
        )
    console.print(table)
    if not schedule["violations"]:
        console.print("verifier: every configuration is a matching and the logical fat tree is intact", highlight=False)


@app.command("size")
def size(
    ctx: typer.Context,
    mtbf_hours: Annotated[float, typer.Option("--mtbf-hours", help="Mean time between switch failures.")],
    mttr_hours: Annotated[float, typer.Option("--mttr-hours", help="Mean time to repair a switch.")],
    target: Annotated[float, typer.Option("--target", help="Acceptable probability that some group has no backup.")],
    fabric_k: KOption = 16,
    pods: PodsOption = None,
    output: OutputOption = None,
) -> None:
    """Smallest backups per failure group for a target risk (binomial model, see docs/reconfig.md)."""
    fmt = _table_or_json(get_context(ctx).output_format(output))
    if fabric_k < 2 or fabric_k % 2:
        raise CliError(f"--fabric-k must be even and at least 2, got {fabric_k}")
    pods = fabric_k if pods is None else pods
    if not 1 <= pods <= fabric_k:
        raise CliError(f"--pods must be between 1 and k = {fabric_k}, got {pods}")
    try:
        sizing = _engine().sharebackup_size(fabric_k // 2, 2 * pods + fabric_k // 2, mtbf_hours, mttr_hours, target)
    except ValueError as exc:
        raise CliError(str(exc)) from exc
    if fmt is OutputFormat.json:
        print_json(sizing)
        return
    from rich.table import Table

    console = stdout_console()
    console.print(
        f"unavailability {sizing['unavailability']:.3g} per switch, {sizing['groups']} groups of "
        f"{sizing['group_slots']} slots: {sizing['backups']} backup(s) per group "
        f"(about {sizing['degraded_hours_per_year']:.3g} h/year with some group out of backups)",
        highlight=False,
    )
    table = Table("backups", "P(group runs out)", "P(any group runs out)")
    for point in sizing["curve"]:
        table.add_row(str(point["backups"]), f"{point['p_group']:.3g}", f"{point['p_any']:.3g}")
    console.print(table)
