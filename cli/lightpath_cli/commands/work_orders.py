"""work-orders list|show|start|finish|today: a repair visit (tickets whose repairs share links) started
through the server's capacity guard, with the capacity restoration when it needs one, and finished
(README "Physical components and work orders", docs/capacity-guard.md); a technician's visits in
the newest maintenance plan naming them (today)."""

from __future__ import annotations

import datetime as dt
from enum import StrEnum
from typing import Annotated, Any

import typer
from rich.text import Text

from .. import guard
from ..context import get_context
from ..errors import CliError, UsageError
from ..options import OutputOption, new_app
from ..output import (
    Column,
    OutputFormat,
    print_csv,
    print_first_rows,
    print_json,
    print_rows,
    stdout_console,
    timestamp,
)
from ..server.client import ApiClient
from ..server.errors import ApiError
from ..server.lookup import resolve_fabric
from ..server.shapes import (
    RESTORATION_LINK_KEYS,
    TODAY_KEYS,
    TODAY_PLAN_KEYS,
    TODAY_VISIT_KEYS,
    UNREACHABLE_TOR_KEYS,
    WAITS_FOR_KEYS,
    WORK_ORDER_DETAIL_KEYS,
    WORK_ORDER_FINISH_KEYS,
    WORK_ORDER_KEYS,
    WORK_ORDER_PREVIEW_KEYS,
)

app = new_app()


class StateChoice(StrEnum):
    """`work-orders list --state`: a work order's state, or all of them."""

    open = "open"
    in_progress = "in_progress"
    done = "done"
    cancelled = "cancelled"
    all = "all"


# What work-orders list shows without --state: the visits waiting or under way (the UI's default).
CURRENT_STATES = [StateChoice.open.value, StateChoice.in_progress.value]


class Outcome(StrEnum):
    repaired = "repaired"
    not_repaired = "not_repaired"


STATE_STYLES = {"open": "bold red", "in_progress": "yellow", "done": "green", "cancelled": "dim"}
VERDICT_STYLES = {"safe": "bold green", "needs_restoration": "bold yellow", "blocked": "bold red"}

WorkOrderArgument = Annotated[str, typer.Argument(metavar="ID", help="The work order's id.", show_default=False)]


def _state_cell(value: Any) -> Text:
    return Text(str(value or "-"), style=STATE_STYLES.get(str(value), ""))


def _duration(seconds: Any) -> str:
    minutes = int(seconds or 0) // 60
    return f"{minutes // 60}h {minutes % 60:02d}m" if minutes >= 60 else f"{minutes}m"


LIST_COLUMNS = (
    Column("id", "ID", justify="right"),
    Column("state", "State", render=_state_cell),
    Column("action", "Action"),
    Column("component_name", "Component"),
    Column("footprint_size", "Links down", justify="right"),
    Column("duration_s", "Duration", render=_duration, justify="right"),
    Column("tickets", "Tickets", render=lambda ids: ", ".join(map(str, ids or [])) or "-"),
    Column("created", "Created", render=timestamp),
)
RESTORATION_COLUMNS = (
    Column("id", "Link", justify="right"),
    Column("name", "Name"),
    Column("loss_rate", "Loss rate", render=lambda value: f"{float(value):.2e}", justify="right"),
    Column("penalty", "Penalty", render=lambda value: f"{float(value):.2e}", justify="right"),
)


def _pick(record: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    return {key: record.get(key) for key in keys}


def _order_id(value: str) -> int:
    if not value.isdigit():
        raise UsageError(f"{value!r} is not a work order id (a number)")
    return int(value)


def _refused(payload: Any) -> CliError:
    """A 409 as one line, exit 3: the preview's sentence (the server says what frees capacity and,
    when nothing does, that an admin overrides), then only what is the CLI's: the flags to use."""
    body = payload if isinstance(payload, dict) else {}
    detail = str(body.get("detail") or "the server refused the start").strip().rstrip(".")
    hint = ""
    if body.get("verdict") == "needs_restoration":
        hint = "; start it with --restore"
    elif body.get("verdict") == "blocked":
        hint = "; override: --override --reason R"
    return CliError(f"refused: {detail}{hint}", exit_code=guard.REFUSED_EXIT_CODE)


# What to do when the order is not in the state the action needs (exit 1: not a guard refusal).
STATE_HINTS = {("finish", "open"): "start it first", ("start", "in_progress"): "it is started: finish it"}


def _conflict(order_id: int, action: str, payload: Any) -> CliError:
    """A 409: the order's state (exit 1, what to do) or the capacity guard's refusal (exit 3)."""
    body = payload if isinstance(payload, dict) else {}
    if "state" in body and "verdict" not in body:
        state = str(body["state"])
        hint = STATE_HINTS.get((action, state))
        return CliError(f"work order {order_id} is {state}" + (f": {hint}" if hint else ""))
    return _refused(body)


def _call(client: ApiClient, order_id: int, action: str = "", body: Any = None, dry_run: bool = False) -> Any:
    """One request on a work order; 404, 409 and 400 answers become one error line."""
    path = f"/api/work-orders/{order_id}/" + (f"{action}/" if action else "")
    try:
        if not action:
            return client.get(path)
        return client.post(path, body, params={"dry_run": 1} if dry_run else None)
    except ApiError as error:
        if error.status == 404:
            raise CliError(f"work order {order_id} not found") from None
        if error.status == 409:
            raise _conflict(order_id, action, error.payload) from None
        if error.status == 400:
            raise CliError(f"cannot {action} work order {order_id}: {'; '.join(error.details)}") from None
        raise


def _detail_json(order: dict[str, Any], keys: tuple[str, ...] = WORK_ORDER_DETAIL_KEYS) -> dict[str, Any]:
    return _pick(order, keys)


def _print_order(fmt: OutputFormat, order: dict[str, Any], keys: tuple[str, ...] = WORK_ORDER_DETAIL_KEYS) -> None:
    if fmt is OutputFormat.json:
        print_json(_detail_json(order, keys))
        return
    if fmt is OutputFormat.csv:
        print_csv([order], WORK_ORDER_KEYS)
        return
    out = stdout_console()
    out.print(
        f"work order {order.get('id')}: {order.get('action')} {order.get('component_name')} [{order.get('state')}]",
        highlight=False,
    )
    out.print(
        f"  {len(order.get('footprint') or [])} links down for {_duration(order.get('duration_s'))}, "
        f"tickets {', '.join(map(str, order.get('tickets') or [])) or '-'}",
        highlight=False,
    )
    for link in order.get("footprint_links") or []:
        out.print(f"  - {link.get('id')} {link.get('name')} ({link.get('admin_state')})", highlight=False)
    if order.get("started_at"):
        out.print(f"  started {timestamp(order['started_at'])} by {order.get('started_by') or '-'}", highlight=False)
    restored = order.get("restored_links") or []
    if restored:
        names = ", ".join(f"{row.get('id')} {row.get('name')}" for row in restored)
        out.print(f"  restored for the repair: {names}", highlight=False)
    if order.get("outcome"):
        out.print(f"  last visit: {order['outcome']} {timestamp(order.get('finished_at'))}", highlight=False)
    if order.get("detail"):
        out.print(order["detail"], highlight=False)


def _print_preview(fmt: OutputFormat, preview: dict[str, Any]) -> None:
    if fmt is OutputFormat.json:
        data = _pick(preview, WORK_ORDER_PREVIEW_KEYS)
        data["affected_tors"] = [guard.tor_row(tor) for tor in preview.get("affected_tors") or []]
        data["blocking_tors"] = [guard.tor_row(tor) for tor in preview.get("blocking_tors") or []]
        restoration = preview.get("restoration")
        if restoration:
            data["restoration"] = {
                **{key: restoration.get(key) for key in ("added_penalty", "proven_optimal", "needs_approval")},
                "links": [_pick(link, RESTORATION_LINK_KEYS) for link in restoration.get("links") or []],
            }
        data["unreachable_tors"] = [_pick(tor, UNREACHABLE_TOR_KEYS) for tor in preview.get("unreachable_tors") or []]
        data["waits_for"] = [_pick(row, WAITS_FOR_KEYS) for row in preview.get("waits_for") or []]
        print_json(data)
        return
    if fmt is OutputFormat.csv:
        print_csv(guard.affected_rows(preview), guard.DRY_RUN_CSV_KEYS[1:])
        return
    out = stdout_console()
    verdict = str(preview.get("verdict"))
    line = Text(f"dry run: start work order {preview.get('work_order')}: ")
    line.append(verdict.upper(), style=VERDICT_STYLES.get(verdict, ""))
    out.print(line)
    out.print(str(preview.get("detail") or ""), highlight=False)
    restoration = preview.get("restoration")
    if restoration:
        approval = "an operator must approve it" if restoration.get("needs_approval") else "no approval needed"
        out.print(f"restoration (added penalty {float(restoration.get('added_penalty') or 0):.2e}, {approval}):")
        print_rows(OutputFormat.table, restoration.get("links") or [], RESTORATION_COLUMNS, ())
    for row in preview.get("waits_for") or []:
        out.print(
            f"waits for work order {row.get('work_order')} ({row.get('action')} {row.get('component_name')}, "
            f"{row.get('state')})",
            highlight=False,
        )
    guard.print_affected_table(guard.affected_rows(preview))


@app.command("list")
def list_orders(
    ctx: typer.Context,
    fabric: Annotated[
        str | None, typer.Option("--fabric", help="Only work orders of this fabric (name or id).")
    ] = None,
    state: Annotated[
        list[StateChoice] | None,
        typer.Option(
            "--state",
            metavar="open|in_progress|done|cancelled|all",
            case_sensitive=False,
            help="Only work orders in this state; repeat for any of several; all: every state. "
            "Default: open and in_progress, as the UI's Work orders page.",
        ),
    ] = None,
    limit: Annotated[int, typer.Option("--limit", min=1, help="At most this many work orders.")] = 1000,
    output: OutputOption = None,
) -> None:
    """List work orders, newest first: state, the repair, its component, the links it takes
    down, how long, its tickets; open and in-progress ones unless --state says otherwise. A note
    on stderr says when more match than --limit."""
    cli = get_context(ctx)
    states = [value.value for value in state or []] or CURRENT_STATES
    params: dict[str, Any] = {} if StateChoice.all in states else {"state": states}
    with cli.client() as client:
        if fabric:
            params["fabric"] = resolve_fabric(client, fabric)["id"]
        orders, total = client.first("/api/work-orders/", params, limit)
    print_first_rows(cli.output_format(output), orders, total, LIST_COLUMNS, WORK_ORDER_KEYS, noun="work orders")


@app.command("show")
def show(ctx: typer.Context, order: WorkOrderArgument, output: OutputOption = None) -> None:
    """Show a work order: its repair, the links it takes down, its tickets, who started it and
    the links restored for it."""
    cli = get_context(ctx)
    with cli.client() as client:
        answer = _call(client, _order_id(order))
    _print_order(cli.output_format(output), answer)


@app.command("start")
def start(
    ctx: typer.Context,
    order: WorkOrderArgument,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Only say what starting it would do: safe, needs_restoration or blocked.")
    ] = False,
    restore: Annotated[
        bool,
        typer.Option(
            "--restore",
            help="When it needs a restoration, start it with the one the server offers now (operators, or "
            "technicians on a fabric with auto_restore).",
        ),
    ] = False,
    override: Annotated[
        bool, typer.Option("--override", help="Admins: start a blocked order anyway (needs --reason).")
    ] = False,
    reason: Annotated[str | None, typer.Option("--reason", help="Why the override (the rack drained, say).")] = None,
    output: OutputOption = None,
) -> None:
    """Start a work order's visit (POST /api/work-orders/ID/start/): its footprint out of service
    for maintenance through the capacity guard, its tickets in progress.

    A refusal prints one line and exits 3: a ToR would fall under its constraint (with a
    restoration on offer: use --restore; none: blocked, an admin may --override --reason R)."""
    cli = get_context(ctx)
    fmt = cli.output_format(output)
    if override and not (reason or "").strip():
        raise UsageError("--override needs --reason: an override of the capacity guard must say why")
    order_id = _order_id(order)
    with cli.client() as client:
        if dry_run:
            _print_preview(fmt, _call(client, order_id, "start", {}, dry_run=True))
            return
        body: dict[str, Any] = {}
        if restore:
            offered = _call(client, order_id, "start", {}, dry_run=True).get("restoration")
            if offered:
                body["restoration"] = [link["id"] for link in offered.get("links") or []]
        if override:
            body.update(override_capacity=True, admin_reason=reason)
        answer = _call(client, order_id, "start", body)
    if override:
        typer.echo("note: sent as an override of the capacity guard (--override), applied although blocked", err=True)
    if fmt is not OutputFormat.table:
        _print_order(fmt, answer)
        return
    restored = answer.get("restored_links") or []
    tail = f", {len(restored)} lossy link{'s' if len(restored) != 1 else ''} restored" if restored else ""
    stdout_console().print(
        f"work order {answer['id']} is {answer['state']}: {len(answer.get('footprint') or [])} links down{tail}",
        highlight=False,
    )


@app.command("finish")
def finish(
    ctx: typer.Context,
    order: WorkOrderArgument,
    outcome: Annotated[
        Outcome,
        typer.Option(
            "--outcome", case_sensitive=False, show_default=False, help="repaired, or not_repaired (try again later)."
        ),
    ],
    notes: Annotated[str, typer.Option("--notes", help="What you did or saw.")] = "",
    output: OutputOption = None,
) -> None:
    """Finish a work order's visit (POST /api/work-orders/ID/finish/). repaired: each ticket
    awaits validation, the links come back, restored links are disabled again; not_repaired:
    everything back as before, the order open again."""
    cli = get_context(ctx)
    with cli.client() as client:
        answer = _call(client, _order_id(order), "finish", {"outcome": outcome.value, "notes": notes})
    fmt = cli.output_format(output)
    if fmt is OutputFormat.table:
        # One sentence, one line: a script reads it whole (rich would wrap it at the console width).
        stdout_console().print(str(answer.get("detail") or ""), highlight=False, soft_wrap=True)
        return
    _print_order(fmt, answer, WORK_ORDER_FINISH_KEYS)


def clock(value: Any) -> str:
    """An ISO time from the API as HH:MM in UTC (the day's table; timestamp() has the date)."""
    try:
        return dt.datetime.fromisoformat(str(value)).astimezone(dt.UTC).strftime("%H:%M")
    except ValueError:
        return str(value)


NO_RACK = "\u2014"  # an em dash, as the UI prints an empty rack


def _visit_time(visit: dict[str, Any]) -> str:
    if visit.get("planned") is False:  # in progress beside the plan: no plan says when it ends
        return f"since {clock(visit.get('start_at'))}"
    return f"{clock(visit.get('start_at'))}-{clock(visit.get('end_at'))}"


def _rack(order: dict[str, Any]) -> str:
    """The rack worked at; a switch without one has no rack to name (the trial read 'p0-fab3' as a rack)."""
    where = order.get("location") or {}
    return str(where.get("rack") or NO_RACK)


def _row(order: dict[str, Any]) -> str:
    """The row a technician walks to (the server's one row rule: the switch's pod, else the rack's prefix)."""
    where = order.get("location") or {}
    return str(where.get("row") or NO_RACK)


TODAY_COLUMNS = (
    Column("time", "Time (UTC)"),
    Column("order", "Order", justify="right"),
    Column("action", "Action"),
    Column("component_name", "Component"),
    Column("row", "Row"),
    Column("rack", "Rack"),
    Column("state", "State", render=_state_cell),
)


def _today_json(day: dict[str, Any]) -> dict[str, Any]:
    plan = day.get("plan")
    return {
        **_pick(day, TODAY_KEYS),
        "plan": _pick(plan, TODAY_PLAN_KEYS) if plan else None,
        "visits": [
            {**_pick(visit, TODAY_VISIT_KEYS), "work_order": _pick(visit.get("work_order") or {}, WORK_ORDER_KEYS)}
            for visit in day.get("visits") or []
        ],
    }


@app.command("today")
def today(
    ctx: typer.Context,
    fabric: Annotated[str | None, typer.Option("--fabric", help="Only plans of this fabric (name or id).")] = None,
    user: Annotated[
        str | None,
        typer.Option(
            "--user", metavar="USERNAME", help="Whose day (default: yours; operators, planners and admins: anyone's)."
        ),
    ] = None,
    output: OutputOption = None,
) -> None:
    """Your visits today: the newest maintenance plan naming you (tickets plan FABRIC --assignee YOU),
    in order, each with its time, work order, action, component, rack and state now; whether the
    plan is stale. No plan names you: one sentence, exit 0."""
    cli = get_context(ctx)
    params: dict[str, Any] = {}
    with cli.client() as client:
        if fabric:
            params["fabric"] = resolve_fabric(client, fabric)["id"]
        if user:
            params["user"] = user
        day = client.get("/api/work-orders/today/", params)
    fmt = cli.output_format(output)
    if fmt is OutputFormat.json:
        print_json(_today_json(day))
        return
    rows = [
        {
            "time": _visit_time(visit),
            "order": visit["work_order"]["id"],
            "action": visit["work_order"].get("action"),
            "component_name": visit["work_order"].get("component_name"),
            "row": _row(visit["work_order"]),
            "rack": _rack(visit["work_order"]),
            "state": visit["work_order"].get("state"),
        }
        for visit in day.get("visits") or []
    ]
    if fmt is OutputFormat.csv:
        print_csv(rows, [column.key for column in TODAY_COLUMNS])
        return
    out = stdout_console()
    out.print(day.get("detail", ""), highlight=False)
    plan = day.get("plan")
    if plan is None:
        return
    out.print(
        f"plan {plan['job']} of {plan['fabric']['name']}, made {timestamp(plan['planned_at'])}; "
        f"shift {clock(plan['shift_start'])}-{clock(plan['shift_end'])} UTC",
        highlight=False,
    )
    if rows:
        print_rows(fmt, rows, TODAY_COLUMNS, [column.key for column in TODAY_COLUMNS])
    for reason in plan.get("stale_reasons") or []:
        out.print(f"stale: {reason}", highlight=False)
