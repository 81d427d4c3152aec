"""tickets list|show|open-preventive|start|act|comment|assign|metrics: repair tickets of links disabled
for corruption, and preventive tickets of links whose optics are forecast to fail."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

import typer
from rich.table import Table

from ..context import get_context
from ..errors import CliError, UsageError
from ..options import OutputOption, new_app
from ..output import Column, OutputFormat, print_csv, print_first_rows, print_json, print_rows, stdout_console
from ..server.client import ApiClient
from ..server.errors import ApiError
from ..server.lookup import resolve_fabric, resolve_link
from ..server.shapes import (
    TICKET_ACT_KEYS,
    TICKET_HISTORY_BUCKET_KEYS,
    TICKET_HISTORY_KEYS,
    TICKET_KEYS,
    TICKET_METRICS_KEYS,
)
from .ticket_plan import plan as plan_command
from .ticket_view import age, direction_text, penalty_text, pick, print_change, print_ticket, state_cell

app = new_app()
app.command("plan")(plan_command)


class TicketState(StrEnum):
    open = "open"
    in_progress = "in_progress"
    awaiting_validation = "awaiting_validation"
    resolved = "resolved"
    reopened = "reopened"


class TicketKind(StrEnum):
    repair = "repair"
    preventive = "preventive"


class Sort(StrEnum):
    penalty = "penalty"
    age = "age"


class RepairAction(StrEnum):
    """corruption.recommend.Action on the server."""

    replace_shared_component = "replace_shared_component"
    replace_cable = "replace_cable"
    replace_far_transceiver = "replace_far_transceiver"
    clean_fiber = "clean_fiber"
    reseat_transceiver = "reseat_transceiver"
    replace_transceiver = "replace_transceiver"


# Highest penalty first; oldest first.
SORT_ORDERING = {Sort.penalty: "-penalty", Sort.age: "created"}
TICKET_LIST_COLUMNS = (
    Column("id", "ID", justify="right"),
    Column("kind", "Kind"),
    Column("link_name", "Link"),
    Column("direction", "Direction", render=direction_text),
    Column("state", "State", render=state_cell),
    Column("assignee", "Assignee"),
    Column("recommended_action", "Recommended action"),
    Column("penalty", "Penalty", render=penalty_text, justify="right"),
    Column("created", "Age", render=age, justify="right"),
)


# ----------------------------------------------------------------------------------------------
# Talking to the API


def _ticket_id(value: str) -> int:
    if not value.isdigit():
        raise UsageError(f"{value!r} is not a ticket id (a number)")
    return int(value)


def _call(client: ApiClient, method: str, ticket_id: int, action: str = "", body: Any = None) -> dict[str, Any]:
    """One request on a ticket; 404, 409 and 400 answers become one error line."""
    path = f"/api/tickets/{ticket_id}/" + (f"{action}/" if action else "")
    try:
        if method == "GET":
            answer: dict[str, Any] = client.get(path)
        else:
            answer = client.post(path, body)
    except ApiError as error:
        if error.status == 404:
            raise CliError(f"ticket {ticket_id} not found") from None
        if error.status == 409:
            detail = error.payload.get("detail") if isinstance(error.payload, dict) else None
            raise CliError(
                f"cannot {action} ticket {ticket_id}: {detail or 'the ticket is in the wrong state'}"
            ) from None
        if error.status == 400:
            raise CliError(f"cannot {action} ticket {ticket_id}: {'; '.join(error.details)}") from None
        raise
    return answer


# ----------------------------------------------------------------------------------------------
# Commands

TicketArgument = Annotated[str, typer.Argument(metavar="ID", help="The ticket's id.", show_default=False)]


@app.command("list")
def list_tickets(
    ctx: typer.Context,
    fabric: Annotated[str | None, typer.Option("--fabric", help="Only tickets of this fabric (name or id).")] = None,
    state: Annotated[
        list[TicketState] | None,
        typer.Option(
            "--state",
            metavar="open|in_progress|awaiting_validation|resolved|reopened",
            case_sensitive=False,
            help="Only tickets in this state; repeat for any of several.",
        ),
    ] = None,
    kind: Annotated[
        TicketKind | None,
        typer.Option(
            "--kind",
            case_sensitive=False,
            help="repair (a link disabled for corruption) or preventive (a link forecast to fail).",
        ),
    ] = None,
    assignee: Annotated[str | None, typer.Option("--assignee", help="Only tickets assigned to this user.")] = None,
    unassigned: Annotated[
        bool, typer.Option("--unassigned", help="Only tickets nobody is assigned to (not with --assignee).")
    ] = False,
    sort: Annotated[
        Sort | None,
        typer.Option(
            "--sort",
            case_sensitive=False,
            help="penalty (highest first) or age (oldest first); default: newest first.",
        ),
    ] = None,
    limit: Annotated[int, typer.Option("--limit", min=1, help="At most this many tickets.")] = 1000,
    output: OutputOption = None,
) -> None:
    """List tickets: kind (repair or preventive), link, direction, state, assignee, the current
    recommended action, the penalty of its first corruption decision (none for a preventive ticket
    whose link has not corrupted), and its age.

    When more tickets match than --limit, a note on stderr says how many."""
    cli = get_context(ctx)
    if assignee and unassigned:
        raise typer.BadParameter("--assignee and --unassigned exclude each other", param_hint="'--unassigned'")
    params: dict[str, Any] = {}
    if state:
        params["state"] = [value.value for value in state]
    if kind is not None:
        params["kind"] = kind.value
    if assignee:
        params["assignee"] = assignee
    if unassigned:
        params["unassigned"] = "true"
    if sort is not None:
        params["ordering"] = SORT_ORDERING[sort]
    with cli.client() as client:
        if fabric:
            params["fabric"] = resolve_fabric(client, fabric)["id"]
        tickets, total = client.first("/api/tickets/", params, limit)
    fmt = cli.output_format(output)
    if fmt is OutputFormat.table and not tickets:  # a sentence, not an empty table (JSON stays [])
        stdout_console().print("No tickets match.")
        return
    print_first_rows(fmt, tickets, total, TICKET_LIST_COLUMNS, TICKET_KEYS, noun="tickets")


@app.command("show")
def show(ctx: typer.Context, ticket: TicketArgument, output: OutputOption = None) -> None:
    """Show a ticket: both link ends (rack, transceiver model and serial), its state, the current
    recommendation with its rule, explanation and evidence, the steps so far (recommended,
    taken, followed, outcome) and the comments."""
    cli = get_context(ctx)
    with cli.client() as client:
        answer = _call(client, "GET", _ticket_id(ticket))
    print_ticket(cli.output_format(output), answer)


@app.command("open-preventive")
def open_preventive(
    ctx: typer.Context,
    link: Annotated[
        str,
        typer.Argument(
            metavar="LINK",
            help="The at-risk link: its id, SWITCH:PORT of either end or A_SWITCH:A_PORT-Z_SWITCH:Z_PORT.",
            show_default=False,
        ),
    ],
    fabric: Annotated[str | None, typer.Option("--fabric", help="The link's fabric (name or id).")] = None,
    output: OutputOption = None,
) -> None:
    """Open a preventive ticket for a link whose optics are forecast to fail (operators and admins):
    it recommends the repair the forecast's cause calls for, and the link stays in service."""
    cli = get_context(ctx)
    with cli.client() as client:
        found = resolve_link(client, link, resolve_fabric(client, fabric) if fabric else None)
        try:
            answer = client.post("/api/tickets/preventive/", {"link": found["id"]})
        except ApiError as error:
            if error.status == 400:
                problems = "; ".join(detail.removeprefix("link: ") for detail in error.details)
                raise CliError(f"cannot open a preventive ticket: {problems}") from None
            raise
    forecast = ((answer.get("recommendation") or {}).get("evidence") or {}).get("forecast") or {}
    what = forecast.get("recommended_action_label") or answer["recommended_action"]
    line = f"preventive ticket {answer['id']} opened for {answer['link_name']}: {what}"
    print_change(cli.output_format(output), answer, line)


@app.command("start")
def start(ctx: typer.Context, ticket: TicketArgument, output: OutputOption = None) -> None:
    """Start work on an open or reopened ticket (you take it if nobody is assigned)."""
    cli = get_context(ctx)
    with cli.client() as client:
        answer = _call(client, "POST", _ticket_id(ticket), "start")
    print_change(cli.output_format(output), answer, f"ticket {answer['id']} is {answer['state']}")


@app.command("act")
def act(
    ctx: typer.Context,
    ticket: TicketArgument,
    action: Annotated[
        RepairAction,
        typer.Option("--action", case_sensitive=False, show_default=False, help="The repair you did."),
    ],
    notes: Annotated[str, typer.Option("--notes", help="What you did or saw.")] = "",
    output: OutputOption = None,
) -> None:
    """Record the repair done on a ticket in progress: the link is enabled again (unless it is
    disabled for another reason) and the ticket awaits validation."""
    cli = get_context(ctx)
    with cli.client() as client:
        answer = _call(client, "POST", _ticket_id(ticket), "act", {"action_taken": action.value, "notes": notes})
    line = f"ticket {answer['id']} is {answer['state']}"
    if answer.get("message"):
        line += f": {answer['message']}"
    print_change(cli.output_format(output), answer, line, TICKET_ACT_KEYS)


@app.command("comment")
def comment(
    ctx: typer.Context,
    ticket: TicketArgument,
    text: Annotated[str, typer.Argument(metavar="TEXT", help="The comment.", show_default=False)],
    output: OutputOption = None,
) -> None:
    """Add a comment to a ticket."""
    cli = get_context(ctx)
    with cli.client() as client:
        answer = _call(client, "POST", _ticket_id(ticket), "comment", {"text": text})
    print_change(cli.output_format(output), answer, f"comment added to ticket {answer['id']}")


@app.command("assign")
def assign(
    ctx: typer.Context,
    ticket: TicketArgument,
    user: Annotated[str, typer.Argument(metavar="USER", help="The username to assign.", show_default=False)],
    output: OutputOption = None,
) -> None:
    """Assign a ticket to a user."""
    cli = get_context(ctx)
    with cli.client() as client:
        answer = _call(client, "POST", _ticket_id(ticket), "assign", {"username": user})
    print_change(cli.output_format(output), answer, f"ticket {answer['id']} is assigned to {answer['assignee']}")


class MetricsBucket(StrEnum):
    day = "day"
    week = "week"


@app.command("metrics")
def metrics(
    ctx: typer.Context,
    fabric: Annotated[str | None, typer.Option("--fabric", help="Only this fabric (name or id).")] = None,
    history: Annotated[
        bool, typer.Option("--history", help="Per day or week over a range instead of the current values.")
    ] = False,
    start: Annotated[
        str | None,
        typer.Option(
            "--from",
            metavar="DATE",
            help="With --history: start (a date or ISO datetime, UTC); default: 30 days before --to.",
        ),
    ] = None,
    end: Annotated[
        str | None,
        typer.Option("--to", metavar="DATE", help="With --history: end, exclusive; default: tomorrow 00:00 UTC."),
    ] = None,
    bucket: Annotated[
        MetricsBucket | None, typer.Option("--bucket", help="With --history: day (default) or ISO week.")
    ] = None,
    output: OutputOption = None,
) -> None:
    """Repair metrics: first-attempt success rate (all, recommendation followed, not followed) and
    mean time to repair of repair tickets, preventive work apart (whether its first step held),
    unresolved tickets by state and disabled links. With --history, per day
    or week: tickets opened, resolved and unresolved at the end, first attempts, mean time to repair,
    links disabled for corruption and repair actions."""
    if not history and (start or end or bucket):
        raise UsageError("--from, --to and --bucket go with --history")
    cli = get_context(ctx)
    with cli.client() as client:
        params: dict[str, Any] = {"fabric": resolve_fabric(client, fabric)["id"]} if fabric else {}
        if history:
            params |= {"from": start, "to": end, "bucket": bucket.value if bucket else None}
            answer = client.get("/api/tickets/metrics/history/", {k: v for k, v in params.items() if v is not None})
        else:
            answer = client.get("/api/tickets/metrics/", params or None)
    fmt = cli.output_format(output)
    if history:
        _print_history(fmt, answer)
        return
    data = pick(answer, TICKET_METRICS_KEYS)
    if fmt is OutputFormat.json:
        print_json(data)
        return
    rows = _metric_rows(data)
    if fmt is OutputFormat.csv:
        print_csv([{"metric": key, "value": value} for key, value in rows], ("metric", "value"))
        return
    table = Table(show_header=False, show_edge=False, box=None, padding=(0, 2, 0, 0))
    table.add_column(style="bold")
    table.add_column()
    for key, value in rows:
        table.add_row(key, "-" if value is None else str(value))
    stdout_console().print(table)


FIRST_ATTEMPT_GROUPS = ("all", "followed", "not_followed")
# One CSV row per bucket: the first-attempt counts flattened to first_attempt_<group>_<count>.
HISTORY_CSV_KEYS = (
    *TICKET_HISTORY_BUCKET_KEYS[:5],
    *(f"first_attempt_{group}_{key}" for group in FIRST_ATTEMPT_GROUPS for key in ("attempts", "fixed", "rate")),
    *TICKET_HISTORY_BUCKET_KEYS[6:-1],
    *(f"preventive_first_attempt_{key}" for key in ("attempts", "fixed", "rate")),
)


def _percent(value: Any) -> str:
    return "-" if value is None else f"{round(float(value) * 100)}%"


def _hours(value: Any) -> str:
    return "-" if value is None else f"{float(value):.1f}"


HISTORY_COLUMNS = (
    Column("start", "Start (UTC)", render=lambda value: str(value or "-")[:10]),
    Column("tickets_opened", "Opened", justify="right"),
    Column("tickets_resolved", "Resolved", justify="right"),
    Column("open_tickets", "Unresolved", justify="right"),
    Column("first_attempt_all_attempts", "1st attempts", justify="right"),
    Column("first_attempt_all_rate", "1st fixed", render=_percent, justify="right"),
    Column("first_attempt_followed_rate", "Followed", render=_percent, justify="right"),
    Column("first_attempt_not_followed_rate", "Not followed", render=_percent, justify="right"),
    Column("mean_time_to_repair_hours", "MTTR h", render=_hours, justify="right"),
    Column("links_disabled", "Disabled", justify="right"),
    Column("repair_actions", "Repairs", justify="right"),
    Column("preventive_first_attempt_rate", "Preventive held", render=_percent, justify="right"),
)


def _flat_bucket(bucket: dict[str, Any]) -> dict[str, Any]:
    nested = ("first_attempt", "preventive_first_attempt")
    row = {key: bucket.get(key) for key in TICKET_HISTORY_BUCKET_KEYS if key not in nested}
    first = bucket.get("first_attempt") or {}
    for group in FIRST_ATTEMPT_GROUPS:
        for key in ("attempts", "fixed", "rate"):
            row[f"first_attempt_{group}_{key}"] = (first.get(group) or {}).get(key)
    for key in ("attempts", "fixed", "rate"):
        row[f"preventive_first_attempt_{key}"] = (bucket.get("preventive_first_attempt") or {}).get(key)
    return row


def _print_history(fmt: OutputFormat, answer: dict[str, Any]) -> None:
    buckets = answer.get("buckets") or []
    if fmt is OutputFormat.json:
        print_json(
            {
                **pick(answer, TICKET_HISTORY_KEYS),
                "buckets": [pick(bucket, TICKET_HISTORY_BUCKET_KEYS) for bucket in buckets],
            }
        )
        return
    print_rows(fmt, [_flat_bucket(bucket) for bucket in buckets], HISTORY_COLUMNS, HISTORY_CSV_KEYS)


def _metric_rows(data: dict[str, Any]) -> list[tuple[str, Any]]:
    rows: list[tuple[str, Any]] = [("fabric", data.get("fabric"))]
    for group, counts in (data.get("first_attempt") or {}).items():
        for key in ("attempts", "fixed", "rate"):
            rows.append((f"first_attempt.{group}.{key}", (counts or {}).get(key)))
    rows += [
        ("mean_time_to_repair_hours", data.get("mean_time_to_repair_hours")),
        ("repaired_tickets", data.get("repaired_tickets")),
        *(
            (f"preventive_first_attempt.{key}", (data.get("preventive_first_attempt") or {}).get(key))
            for key in ("attempts", "fixed", "rate")
        ),
        ("open_tickets", data.get("open_tickets")),
    ]
    rows += [(f"open_tickets_by_state.{k}", v) for k, v in (data.get("open_tickets_by_state") or {}).items()]
    rows.append(("disabled_links", data.get("disabled_links")))
    rows.append(("disabled_links_for_corruption", data.get("disabled_links_for_corruption")))
    rows += [(key, data.get(key)) for key in ("corrupting_links_in_service", "current_penalty", "worst_tor_fraction")]
    return rows
