"""sharebackup plan|size: ShareBackup failover plans and backup-pool sizing on files, offline (the engine computes).

- plan: a k-ary fat tree (P pods, n backups per failure group) and an event log (JSON list of events:
  `{"type": "switch_down", "switch": "agg.p0.m1"}`, `link_down` with `a` and `b`, `repair_done`,
  `diagnosis_result` with `healthy`) -> per event the ordered replace() calls, circuit changes, pools, DEGRADED
  groups with their rerouting fallback and diagnosis tests. The engine's verifier checks the schedule; a
  violation exits non-zero.
- size: the smallest number of backups per group for a target probability that some group runs out.

With --server, the same computations run on the API server (the root `--server URL` or the logged-in one):
`plan` submits a sharebackup.plan job with the event file and follows it (a progress bar; Ctrl-C detaches unless
--cancel-on-interrupt); `size` calls POST /api/sharebackup/size/, which can take MTBF/MTTR from a stored fabric's
repair tickets (--fabric) and adds a seeded Monte Carlo check.

docs/reconfig.md describes the model (parts are reconstructions: the seed is a fragment) and the JSON shapes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from ..context import get_context
from ..errors import CliError, UsageError
from ..offline.engine import load_engine
from ..offline.files import read_json_list
from ..options import (
    CancelOnInterruptOption,
    FabricKAliasOption,
    IntervalOption,
    OutputOption,
    ServerFlagOption,
    new_app,
    old_spelling,
    required,
    seed_option,
    table_or_json,
)
from ..output import OutputFormat, print_json, stdout_console
from ..server.jobs import post_or_reject, run_job_on_server
from ..server.lookup import resolve_fabric

app = new_app()

KOption = Annotated[int | None, typer.Option("--k", metavar="K", show_default=False, help="Fat-tree radix k (even).")]
PodsOption = Annotated[int | None, typer.Option("--pods", help="Pods P (default k: a full tree).", show_default=False)]


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
    backups: Annotated[int, typer.Option("--backups", help="Backups n per failure group.")],
    events: Annotated[
        Path | None,
        typer.Option(
            "--events",
            help="JSON event log (a list, or {'events': [...]}); without it, no events: the fabric's counts and "
            "wiring only.",
        ),
    ] = None,
    k: KOption = None,
    fabric_k: FabricKAliasOption = None,
    pods: PodsOption = None,
    reconfig_ms: Annotated[
        float, typer.Option("--reconfig-ms", help="Circuit switching time (0.5 EPS, 8.5 OCS in the seed).")
    ] = 0.5,
    server: ServerFlagOption = False,
    cancel_on_interrupt: CancelOnInterruptOption = False,
    interval: IntervalOption = 1.0,
    output: OutputOption = None,
) -> None:
    """Failover schedule of an event log, checked by the engine's verifier.

    With --server it runs as a sharebackup.plan job on the server (the event file is uploaded and checked
    there: every bad event is listed) and prints the job's result, which adds the failure groups and the
    circuit-switch matchings before and after each event to the offline document.
    """
    cli = get_context(ctx)
    fmt = table_or_json(cli.output_format(output))
    k = required(old_spelling(k, fabric_k, "--k", "--fabric-k"), "--k")
    if server:
        if events is None:
            raise UsageError("--server plans an event log: give --events EVENTS.json (offline, the counts need none)")
        try:
            log_spec = {"source": "uploaded", "name": events.name, "json": events.read_text()}
        except OSError as exc:
            raise CliError(f"--events: cannot read {events}: {exc.strerror}") from exc
        params = {"k": k, "pods": pods, "backups": backups, "reconfig_ms": reconfig_ms, "events": log_spec}
        schedule = run_job_on_server(
            cli, "sharebackup.plan", params, interval=interval, cancel_on_interrupt=cancel_on_interrupt
        )
    else:
        log = [] if events is None else read_json_list(events, "events", "--events")
        try:
            schedule = load_engine().sharebackup_plan(k, k if pods is None else pods, backups, log, reconfig_ms)
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
    if not schedule["events"]:
        console.print("no events: give --events EVENTS.json to plan failovers", highlight=False)
        return
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
    target: Annotated[float, typer.Option("--target", help="Acceptable probability that some group has no backup.")],
    mtbf_hours: Annotated[
        float | None,
        typer.Option("--mtbf-hours", help="Mean time between switch failures (with --fabric: the fallback)."),
    ] = None,
    mttr_hours: Annotated[
        float | None, typer.Option("--mttr-hours", help="Mean time to repair a switch (with --fabric: the fallback).")
    ] = None,
    k: KOption = None,
    fabric_k: FabricKAliasOption = None,
    pods: PodsOption = None,
    server: ServerFlagOption = False,
    fabric: Annotated[
        str | None,
        typer.Option(
            "--fabric",
            metavar="FABRIC",
            help="With --server: take MTBF/MTTR from this stored fabric's repair tickets (name or id).",
        ),
    ] = None,
    window_days: Annotated[
        int, typer.Option("--window-days", min=1, help="With --fabric: the ticket window ending now.")
    ] = 365,
    seed: Annotated[int, seed_option("With --server: seed of the Monte Carlo check.")] = 0,
    horizon_hours: Annotated[
        float, typer.Option("--horizon-hours", help="With --server: simulated hours of the Monte Carlo check.")
    ] = 1e7,
    output: OutputOption = None,
) -> None:
    """Smallest backups per failure group for a target risk (binomial model, see docs/reconfig.md).

    With --server: POST /api/sharebackup/size/, which also runs a seeded Monte Carlo check of every point
    of the curve and, with --fabric, estimates MTBF/MTTR from the fabric's repair tickets (falling back to
    --mtbf-hours/--mttr-hours, and saying which were used). --output json prints the server's answer.
    """
    cli = get_context(ctx)
    fmt = table_or_json(cli.output_format(output))
    k = old_spelling(k, fabric_k, "--k", "--fabric-k") or 16
    if fabric is not None and not server:
        raise typer.BadParameter("needs --server (ticket history is on the server)", param_hint="'--fabric'")
    if server:
        body: dict[str, Any] = {
            "k": k,
            "pods": pods,
            "target": target,
            "mtbf_hours": mtbf_hours,
            "mttr_hours": mttr_hours,
            "window_days": window_days,
            "monte_carlo": {"seed": seed, "horizon_hours": horizon_hours},
        }
        if fabric is not None:
            with cli.client() as client:
                body["fabric"] = resolve_fabric(client, fabric)["id"]
        answer = post_or_reject(cli, "/api/sharebackup/size/", body, "sizing")
        if fmt is OutputFormat.json:
            print_json(answer)
            return
        reliability = answer["reliability"]
        stdout_console().print(
            f"MTBF {reliability['mtbf_hours']:.4g} h, MTTR {reliability['mttr_hours']:.4g} h "
            f"({reliability['note']})",  # the note names its source: given, or the tickets counted
            highlight=False,
        )
        _print_sizing(answer["sizing"], answer["monte_carlo"])
        return
    if mtbf_hours is None or mttr_hours is None:
        raise UsageError("offline sizing needs --mtbf-hours and --mttr-hours (or --server --fabric FABRIC)")
    if k < 2 or k % 2:
        raise UsageError(f"--k must be even and at least 2, got {k}")
    pods = k if pods is None else pods
    if not 1 <= pods <= k:
        raise UsageError(f"--pods must be between 1 and k = {k}, got {pods}")
    try:
        sizing = load_engine().sharebackup_size(k // 2, 2 * pods + k // 2, mtbf_hours, mttr_hours, target)
    except ValueError as exc:
        raise CliError(str(exc)) from exc
    if fmt is OutputFormat.json:
        print_json(sizing)
        return
    _print_sizing(sizing, None)


def _print_sizing(sizing: dict[str, Any], monte_carlo: dict[str, Any] | None) -> None:
    from rich.table import Table

    console = stdout_console()
    console.print(
        f"unavailability {sizing['unavailability']:.3g} per switch, {sizing['groups']} groups of "
        f"{sizing['group_slots']} slots: {sizing['backups']} backup(s) per group "
        f"(about {sizing['degraded_hours_per_year']:.3g} h/year with some group out of backups)",
        highlight=False,
    )
    columns = ["backups", "P(group runs out)", "P(any group runs out)"]
    if monte_carlo is not None:
        columns += ["simulated (± s.e.)"]
    table = Table(*columns)
    for i, point in enumerate(sizing["curve"]):
        cells = [str(point["backups"]), f"{point['p_group']:.3g}", f"{point['p_any']:.3g}"]
        if monte_carlo is not None:
            simulated = monte_carlo["points"][i]
            cells.append(f"{simulated['estimate']:.3g} ± {simulated['standard_error']:.2g}")
        table.add_row(*cells)
    console.print(table)
