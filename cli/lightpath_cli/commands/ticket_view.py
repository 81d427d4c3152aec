"""How a ticket reads in a terminal: its list cells, its detail (`tickets show` and the answers of
start, act, comment, assign) as a table, JSON or one CSV row."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import typer
from rich.table import Table
from rich.text import Text

from ..output import OutputFormat, print_csv, print_json, stdout_console, timestamp
from ..server.shapes import (
    TICKET_COMMENT_KEYS,
    TICKET_DETAIL_KEYS,
    TICKET_END_KEYS,
    TICKET_RECOMMENDATION_KEYS,
    TICKET_STEP_KEYS,
)

STATE_STYLES = {
    "open": "bold red",
    "reopened": "bold red",
    "in_progress": "yellow",
    "awaiting_validation": "cyan",
    "resolved": "green",
}
DIRECTION_NAMES = {"a_to_z": "A -> Z", "z_to_a": "Z -> A"}


def state_cell(value: Any) -> Text:
    return Text(str(value or "-"), style=STATE_STYLES.get(str(value), ""))


def penalty_text(value: Any) -> str:
    return "-" if value is None else f"{float(value):.2e}"


def direction_text(value: Any) -> str:
    return DIRECTION_NAMES.get(str(value), str(value or "-"))


def age(created: Any, now: datetime | None = None) -> str:
    """`3d 4h`, `5h 12m` or `7m` since an ISO 8601 time."""
    if not created:
        return "-"
    then = datetime.fromisoformat(str(created).replace("Z", "+00:00"))
    minutes = max(0, int(((now or datetime.now(UTC)) - then).total_seconds() // 60))
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    if days:
        return f"{days}d {hours}h"
    if hours:
        return f"{hours}h {mins}m"
    return f"{mins}m"


def pick(record: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    return {key: record.get(key) for key in keys}


def detail_json(ticket: dict[str, Any], keys: tuple[str, ...] = TICKET_DETAIL_KEYS) -> dict[str, Any]:
    data = pick(ticket, keys)
    data["ends"] = [pick(end, TICKET_END_KEYS) for end in ticket.get("ends") or []]
    recommendation = ticket.get("recommendation")
    data["recommendation"] = pick(recommendation, TICKET_RECOMMENDATION_KEYS) if recommendation else None
    data["steps"] = [pick(step, TICKET_STEP_KEYS) for step in ticket.get("steps") or []]
    data["comments"] = [pick(comment, TICKET_COMMENT_KEYS) for comment in ticket.get("comments") or []]
    return data


# ----------------------------------------------------------------------------------------------
# Printing one ticket


def print_change(
    fmt: OutputFormat, ticket: dict[str, Any], line: str, keys: tuple[str, ...] = TICKET_DETAIL_KEYS
) -> None:
    if fmt is OutputFormat.table:
        typer.echo(line)
    else:
        print_ticket(fmt, ticket, keys)


def print_ticket(fmt: OutputFormat, ticket: dict[str, Any], keys: tuple[str, ...] = TICKET_DETAIL_KEYS) -> None:
    if fmt is OutputFormat.json:
        print_json(detail_json(ticket, keys))
    elif fmt is OutputFormat.csv:
        # One row, like `jobs show`: the nested parts as JSON cells.
        print_csv([detail_json(ticket, keys)], keys)
    else:
        _print_table(ticket)


def _end_text(end: dict[str, Any]) -> str:
    """`leaf0:eth2/1 (rack rack0, pod 1); 100G-SR4 serial ABC123`."""
    where = f"rack {end.get('rack') or '-'}"
    if end.get("pod") is not None:
        where += f", pod {end['pod']}"
    optic = (
        f"{end.get('transceiver_model') or 'no transceiver on record'} serial {end.get('transceiver_serial') or '-'}"
    )
    return f"{end.get('switch')}:{end.get('port')} ({where}); {optic}"


def _optics_text(optics: dict[str, Any]) -> str:
    if not optics:
        return "-"

    def dbm(value: Any) -> str:
        return "-" if value is None else f"{float(value):.2f}"

    flags = [flag for flag in ("rx_low", "tx_low") if optics.get(flag)]
    text = f"{optics.get('end') or '?'}: Rx {dbm(optics.get('rx_dbm'))} dBm, Tx {dbm(optics.get('tx_dbm'))} dBm"
    return text + (f" ({', '.join(flags)})" if flags else "")


def _evidence_rows(evidence: dict[str, Any]) -> list[tuple[str, str]]:
    if evidence.get("forecast"):  # a preventive step: its explanation says what the forecast saw
        return [("End to act on", str(evidence.get("local_end")).upper())]
    rates = evidence.get("rates") or {}
    optics = evidence.get("optics") or {}
    neighbours = sum(len(entry.get("links") or []) for entry in evidence.get("neighbours") or [])
    reseat = evidence.get("reseat") or {}
    rows = [
        ("Rate (this direction)", penalty_text(rates.get("this"))),
        (
            "Rate (opposite)",
            penalty_text(rates.get("opposite")) + (" corrupting" if rates.get("opposite_corrupting") else ""),
        ),
        ("Onset", timestamp(rates.get("onset"))),
        ("Local end", _optics_text(optics.get("local") or {})),
        ("Far end", _optics_text(optics.get("far") or {})),
        ("Optical data", "yes" if evidence.get("has_optical_data") else "no"),
        ("Neighbour links", str(neighbours)),
        ("Reseated recently", "yes" if reseat.get("recent") else "no"),
        ("Failed actions", ", ".join(evidence.get("failed_actions") or []) or "-"),
    ]
    return rows


def _followed(value: Any) -> str:
    return "-" if value is None else ("yes" if value else "no")


def _ticket_direction(ticket: dict[str, Any]) -> str:
    """A repair's corrupting direction ("A -> Z"); a preventive ticket's optic and the light it
    carries, from its forecast: "transmitter at Z, light Z -> A" (its `direction` is the one
    received at the end to act on, which reads backwards for a transmitter)."""
    steps = ticket.get("steps") or []
    forecast = ((steps[0].get("evidence") or {}).get("forecast") or {}) if steps else {}
    side = str(forecast.get("side") or "")
    if ticket.get("kind") != "preventive" or side not in ("a", "z"):
        return direction_text(ticket.get("direction"))
    here, there = side.upper(), "Z" if side == "a" else "A"
    if forecast.get("quantity") == "tx":
        return f"transmitter at {here}, light {here} -> {there}"
    return f"receiver at {here}, light {there} -> {here}"


def _print_table(ticket: dict[str, Any]) -> None:
    console = stdout_console()
    head = Table(show_header=False, show_edge=False, box=None, padding=(0, 2, 0, 0))
    head.add_column(style="bold")
    head.add_column()
    head.add_row("Ticket", str(ticket.get("id")))
    head.add_row("Link", f"{ticket.get('link')}: {ticket.get('link_name')}")
    head.add_row("Kind", str(ticket.get("kind") or "-"))
    for end in ticket.get("ends") or []:
        head.add_row(f"{str(end.get('side')).upper()} end", _end_text(end))
    head.add_row("Direction", _ticket_direction(ticket))
    head.add_row("State", state_cell(ticket.get("state")))
    head.add_row("Assignee", str(ticket.get("assignee") or "-"))
    head.add_row("Penalty", penalty_text(ticket.get("penalty")))
    head.add_row("Opened", f"{timestamp(ticket.get('created'))} ({age(ticket.get('created'))} ago)")
    if ticket.get("validation_started_at"):
        head.add_row("Validation since", timestamp(ticket.get("validation_started_at")))
    if ticket.get("resolved_at"):
        head.add_row("Resolved", timestamp(ticket.get("resolved_at")))
    console.print(head)

    recommendation = ticket.get("recommendation")
    console.print()
    if recommendation:
        rec = Table(show_header=False, show_edge=False, box=None, padding=(0, 2, 0, 0))
        rec.add_column(style="bold")
        rec.add_column()
        rec.add_row("Recommendation", Text(str(recommendation.get("action")), style="bold"))
        rec.add_row("Rule", str(recommendation.get("rule")))
        rec.add_row("Why", str(recommendation.get("explanation")))
        for label, value in _evidence_rows(recommendation.get("evidence") or {}):
            rec.add_row(label, value)
        console.print(rec)
    else:
        console.print("No recommendation.")

    steps = Table(show_edge=False, header_style="bold", title="Steps", title_justify="left")
    for header in ("#", "Recommended", "Rule", "Taken", "Followed", "Technician", "Acted", "Outcome", "Notes"):
        steps.add_column(header)
    for step in ticket.get("steps") or []:
        steps.add_row(
            str(step.get("number")),
            str(step.get("recommended_action") or "-"),
            str(step.get("rule") or "-"),
            str(step.get("action_taken") or "-"),
            _followed(step.get("followed")),
            str(step.get("technician") or "-"),
            timestamp(step.get("acted_at")),
            str(step.get("outcome") or "-"),
            str(step.get("notes") or ""),
        )
    console.print()
    console.print(steps)

    console.print()
    comments = ticket.get("comments") or []
    if not comments:
        console.print("No comments.")
        return
    table = Table(show_edge=False, header_style="bold", title="Comments", title_justify="left")
    for header in ("When", "Author", "Text"):
        table.add_column(header)
    for entry in comments:
        table.add_row(timestamp(entry.get("created")), str(entry.get("author") or "-"), str(entry.get("text")))
    console.print(table)
