"""tickets plan: the maintenance planner (#18), offline on files or as a tickets.plan job on the server."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from ..context import get_context
from ..errors import UsageError
from ..offline.maintenance import plain_number, plan_offline, read_plan_input
from ..options import (
    CancelOnInterruptOption,
    FabricFileAliasOption,
    IntervalOption,
    OutputOption,
    document_file,
    fabric_file_option,
    table_or_json,
)
from ..output import OutputFormat, print_json, stdout_console
from ..server.jobs import run_job_on_server
from .work_orders import NO_RACK, clock

PLAN_KEYS = (
    "visits",
    "unscheduled",
    "left_for_later",
    "expected_penalty_hours",
    "fifo_penalty_hours",
    "lower_bound",
    "gap",
    "proven_optimal",
)


def offset(seconds: int) -> str:
    """Seconds from the shift's start as `+1h30m` (`+0h05m20s` when not whole minutes)."""
    hours, rest = divmod(int(seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return f"+{hours}h{minutes:02d}m" + (f"{secs:02d}s" if secs else "")


def print_plan(fmt: OutputFormat, plan: dict[str, Any]) -> None:
    """The visits as a table: the server's plans name each technician and give clock times (UTC)
    and each order's rack; offline plans have neither, so they print the technician's number and
    offsets from the shift's start."""
    report = {key: plan[key] for key in PLAN_KEYS}
    if fmt is OutputFormat.json:
        print_json(report)
        return
    racks = {order["id"]: order.get("rack") for order in plan.get("work_orders") or []}
    table = Table(show_edge=False, header_style="bold")
    on_clock = all(visit.get("start_at") and visit.get("end_at") for visit in report["visits"])
    headers = ["Technician", *(("Start (UTC)", "End (UTC)") if on_clock else ("Start", "End"))]
    headers += ["Work order", "Takes down", "Restores"]
    if racks:
        headers.insert(4, "Rack")
    for header in headers:
        table.add_column(header)
    for visit in report["visits"]:
        times = [clock(visit[f"{end}_at"]) if on_clock else offset(visit[f"{end}_s"]) for end in ("start", "end")]
        row = [
            str(visit.get("technician_name") or visit["technician"]),
            *times,
            str(visit["work_order"]),
            ", ".join(map(str, visit["links_down"])),
            ", ".join(map(str, visit["restored"])) or "-",
        ]
        if racks:
            row.insert(4, racks.get(visit["work_order"]) or NO_RACK)
        table.add_row(*row)
    console = stdout_console()
    console.print(table)
    quality = "proven optimal" if report["proven_optimal"] else f"gap {report['gap']:.1%}"
    console.print(
        f"expected penalty-hours {plain_number(report['expected_penalty_hours'])} "
        f"(first in first out {plain_number(report['fifo_penalty_hours'])}; "
        f"lower bound {plain_number(report['lower_bound'])}, {quality})",
        highlight=False,
    )
    if report["left_for_later"]:
        console.print("not this shift:", highlight=False)
        for left in report["left_for_later"]:
            console.print(f"  work order {left['work_order']}: {left['detail']}", highlight=False)


def plan(
    ctx: typer.Context,
    server_fabric: Annotated[
        str | None,
        typer.Argument(
            metavar="FABRIC",
            show_default=False,
            help="A fabric on the server (name or id): plan its open work orders as a tickets.plan job.",
        ),
    ] = None,
    fabric_file: Annotated[Path | None, fabric_file_option()] = None,
    fabric_old: FabricFileAliasOption = None,
    work_orders: Annotated[
        Path | None,
        typer.Option("--work-orders", metavar="ORDERS.json", show_default=False, help="Offline: the open work orders."),
    ] = None,
    technicians: Annotated[
        int | None,
        typer.Option(
            "--technicians", min=1, show_default=False, help="Technicians on shift [default: 1, or one per --assignee]."
        ),
    ] = None,
    assignees: Annotated[
        list[str] | None,
        typer.Option(
            "--assignee",
            metavar="USERNAME",
            show_default=False,
            help="Server: a technician by username, repeated; the plan's technician i is the i-th (see work-orders today).",
        ),
    ] = None,
    shift_start: Annotated[
        str | None,
        typer.Option(
            "--shift-start",
            metavar="ISO",
            show_default=False,
            help="Server: when the shift starts, ISO 8601 with its time zone (2026-11-27T08:00+01:00) [default: now].",
        ),
    ] = None,
    shift_hours: Annotated[float, typer.Option("--shift-hours", min=0.0, help="Length of the shift.")] = 8.0,
    time_budget: Annotated[
        float | None,
        typer.Option("--time-budget", metavar="SECONDS", min=0.0, help="Search time [default: 3 s]."),
    ] = None,
    cancel_on_interrupt: CancelOnInterruptOption = False,
    interval: IntervalOption = 1.0,
    output: OutputOption = None,
) -> None:
    """Order the visits of the open work orders: per technician, start and end times such that no
    instant puts a ToR under its capacity floor, with the least expected penalty-hours (compared with
    first in first out). Offline: --fabric-file FABRIC.json --work-orders ORDERS.json (formats in
    cli/README.md); with FABRIC, a tickets.plan job on the server's open work orders."""
    cli = get_context(ctx)
    fmt = table_or_json(cli.output_format(output))
    fabric_path = document_file(fabric_file, fabric_old)
    shift_s = round(shift_hours * 3600)
    if server_fabric is not None:
        if fabric_path is not None or work_orders is not None:
            raise typer.BadParameter(
                "give FABRIC (on the server) or --fabric-file and --work-orders (offline), not both"
            )
        params: dict[str, Any] = {"shift_hours": shift_hours}
        if technicians is not None:
            params["technicians"] = technicians
        if assignees:
            params["assignees"] = assignees
        if shift_start is not None:
            params["shift_start"] = shift_start
        if time_budget is not None:
            params["time_budget_s"] = time_budget
        result = run_job_on_server(
            cli,
            "tickets.plan",
            params,
            fabric=server_fabric,
            interval=interval,
            cancel_on_interrupt=cancel_on_interrupt,
        )
        # The server names links {"id", "name"}; the CLI prints names, as offline.
        for visit in result["visits"]:
            visit["links_down"] = [link["name"] for link in visit["links_down"]]
            visit["restored"] = [link["name"] for link in visit["restored"]]
        print_plan(fmt, result)
        return
    if fabric_path is None or work_orders is None:
        raise UsageError(
            "give --fabric-file FABRIC.json and --work-orders ORDERS.json (or FABRIC, a fabric on the server)"
        )
    if assignees or shift_start is not None:
        raise UsageError("--assignee and --shift-start name users and times on the server: give FABRIC")
    plan_input = read_plan_input(fabric_path, work_orders)
    print_plan(fmt, plan_offline(plan_input, technicians or 1, shift_s, time_budget))
