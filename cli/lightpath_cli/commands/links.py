"""links list|show|at-risk|disable|enable: links with their health from telemetry, one link's newest
readings, the links whose optics are forecast to fail, and admin state changes through the server's
capacity guard."""

from __future__ import annotations

import sys
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from .. import forecasts, guard
from ..context import get_context
from ..options import OutputOption, new_app
from ..output import (
    Column,
    OutputFormat,
    print_csv,
    print_first_rows,
    print_json,
    stdout_console,
    timestamp,
)
from ..server.client import ApiClient
from ..server.lookup import resolve_fabric, resolve_link
from ..server.shapes import CORRUPTION_EVENT_KEYS, LINK_KEYS

app = new_app()


class Health(StrEnum):
    corrupting = "corrupting"
    lossy = "lossy"
    clean = "clean"
    unknown = "unknown"


class AdminState(StrEnum):
    enabled = "enabled"
    disabled = "disabled"


class OperState(StrEnum):
    up = "up"
    down = "down"


HEALTH_STYLES = {"corrupting": "bold red", "lossy": "yellow", "clean": "green", "unknown": "dim"}

DIRECTIONS = ("a_to_z", "z_to_a")
DIRECTION_NAMES = {"a_to_z": "A -> Z", "z_to_a": "Z -> A"}


def _health_cell(value: Any) -> Text:
    return Text(str(value or "-"), style=HEALTH_STYLES.get(str(value), ""))


def _rx_low_cell(value: Any) -> Text:
    return Text("LOW", style="bold red") if value else Text("")


def _rate(value: Any) -> str:
    return "-" if value is None else f"{float(value):.2e}"


LINK_LIST_COLUMNS = (
    Column("id", "ID", justify="right"),
    Column("a_end", "A end"),
    Column("z_end", "Z end"),
    Column("admin_state", "Admin"),
    Column("oper_state", "Oper"),
    Column("health", "Health", render=_health_cell),
    Column("rx_low", "Rx", render=_rx_low_cell),
)


def end_name(link: dict[str, Any], side: str) -> str:
    return f"{link.get(f'{side}_switch_name')}:{link.get(f'{side}_port')}"


def link_name(link: dict[str, Any]) -> str:
    return f"{end_name(link, 'a')}-{end_name(link, 'z')}"


@app.command("list")
def list_links(
    ctx: typer.Context,
    fabric: Annotated[str | None, typer.Option("--fabric", help="Only links of this fabric (name or id).")] = None,
    health: Annotated[
        list[Health] | None,
        typer.Option(
            "--health",
            metavar="corrupting|lossy|clean|unknown",
            case_sensitive=False,
            help="Only links of this health; repeat for any of several.",
        ),
    ] = None,
    rx_low: Annotated[bool, typer.Option("--rx-low", help="Only links with a low or dark receiver.")] = False,
    admin_state: Annotated[
        list[AdminState] | None,
        typer.Option(
            "--admin-state",
            metavar="enabled|disabled",
            case_sensitive=False,
            help="Only links in this admin state; repeatable.",
        ),
    ] = None,
    oper_state: Annotated[
        list[OperState] | None,
        typer.Option(
            "--oper-state", metavar="up|down", case_sensitive=False, help="Only links in this oper state; repeatable."
        ),
    ] = None,
    limit: Annotated[int, typer.Option("--limit", min=1, help="At most this many links.")] = 1000,
    output: OutputOption = None,
) -> None:
    """List links in server order (fabric, id), page by page, with both ends, states and health.

    When more links match than --limit, a note on stderr says how many.
    """
    cli = get_context(ctx)
    params: dict[str, Any] = {}
    if health:
        params["health"] = [value.value for value in health]
    if rx_low:
        params["rx_low"] = "true"
    if admin_state:
        params["admin_state"] = [value.value for value in admin_state]
    if oper_state:
        params["oper_state"] = [value.value for value in oper_state]
    with cli.client() as client:
        if fabric:
            params["fabric"] = resolve_fabric(client, fabric)["id"]
        links, total = client.first("/api/links/", params, limit)
    fmt = cli.output_format(output)
    rows = links if fmt is not OutputFormat.table else [_with_ends(link) for link in links]
    print_first_rows(fmt, rows, total, LINK_LIST_COLUMNS, LINK_KEYS, noun="links")


def _with_ends(link: dict[str, Any]) -> dict[str, Any]:
    return {**link, "a_end": end_name(link, "a"), "z_end": end_name(link, "z")}


# ----------------------------------------------------------------------------------------------
# links show


# Loss signatures need a day of 15-minute polls to say anything (the server wants 8 intervals).
SIGNATURE_HOURS = 24


def _link_telemetry(client: ApiClient, link_id: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The link's status and its loss signatures over the last SIGNATURE_HOURS.

    Hourly resolution keeps the chart series that come along small; the signatures are computed
    from the raw counters whatever the resolution."""
    to = datetime.now(UTC).replace(microsecond=0)
    iso = "%Y-%m-%dT%H:%M:%SZ"
    answer = client.get(
        f"/api/links/{link_id}/telemetry/",
        {
            "from": (to - timedelta(hours=SIGNATURE_HOURS)).strftime(iso),
            "to": to.strftime(iso),
            "resolution": "hour",
        },
    )
    return answer.get("status") or {}, answer.get("signatures") or {}


@app.command("show")
def show(
    ctx: typer.Context,
    name: Annotated[
        str,
        typer.Argument(
            metavar="NAME",
            help="Link id, SWITCH:PORT of either end, or A_SWITCH:A_PORT-Z_SWITCH:Z_PORT.",
            show_default=False,
        ),
    ],
    fabric: Annotated[
        str | None,
        typer.Option("--fabric", help="Fabric name or id; needed when the switch name is in several fabrics."),
    ] = None,
    output: OutputOption = None,
) -> None:
    """Show a link: ends, states and health, the newest optical readings per side with their Rx/Tx
    classes and thresholds (and where each threshold comes from), loss rates and health per
    direction, the open corruption events, and each direction's loss signature over the last
    24 hours (corruption-like: steady and independent of load; congestion-like: follows load)."""
    cli = get_context(ctx)
    fmt = cli.output_format(output)
    with cli.client() as client:
        fabric_row = resolve_fabric(client, fabric) if fabric else None
        link = resolve_link(client, name, fabric_row)
        status, signatures = _link_telemetry(client, int(link["id"]))
        events = list(client.iterate("/api/corruption-events/", {"link": link["id"], "open": "true"}))
        fabric_name = fabric_row["name"] if fabric_row else _fabric_name(client, link.get("fabric"))
    data = {
        "link": {key: link.get(key) for key in LINK_KEYS},
        "status": status,
        "open_events": [{key: event.get(key) for key in CORRUPTION_EVENT_KEYS} for event in events],
        "signatures": signatures,
    }
    if fmt is OutputFormat.json:
        print_json(data)
    elif fmt is OutputFormat.csv:
        print_csv([{"field": key, "value": value} for key, value in _flatten(data)], ("field", "value"))
    else:
        _print_link(data, fabric_name)


def _fabric_name(client: ApiClient, fabric_id: Any) -> str:
    fabric: dict[str, Any] = client.get(f"/api/fabrics/{fabric_id}/")
    return str(fabric.get("name"))


def _flatten(value: Any, prefix: str = "") -> list[tuple[str, Any]]:
    """`link.a_port`, `status.sides.a.thresholds.input_power_lower_dbm.value`, `open_events.0.rate`."""
    if isinstance(value, dict):
        items: list[tuple[str, Any]] = []
        for key, inner in value.items():
            items.extend(_flatten(inner, f"{prefix}.{key}" if prefix else str(key)))
        return items
    if isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
        return [pair for index, item in enumerate(value) for pair in _flatten(item, f"{prefix}.{index}")]
    return [(prefix, value)]


def _number(value: Any, digits: int = 1) -> str:
    return "-" if value is None else f"{float(value):.{digits}f}"


def _power(side: dict[str, Any], kind: str) -> str:
    """`-2.50` dBm, with the lowest lane when it differs, or `no light`."""
    if side.get("rx_no_light" if kind == "input" else "tx_no_light"):
        return "no light"
    average = side.get(f"{kind}_power_dbm")
    lowest = side.get(f"{kind}_power_min_channel_dbm")
    text = forecasts.dbm(average)
    if lowest is not None and (average is None or abs(float(lowest) - float(average)) >= 0.005):
        text += f" (lowest lane {forecasts.dbm(lowest)})"
    return text


def _class_cell(value: Any) -> Text:
    styles = {"low": "bold red", "high": "bold red", "ok": "green"}
    return Text(str(value or "-"), style=styles.get(str(value), ""))


def _threshold(side: dict[str, Any], name: str) -> str:
    entry = (side.get("thresholds") or {}).get(name) or {}
    if entry.get("value") is None:
        return "-"
    return f"{forecasts.dbm(entry['value'])} ({entry.get('provenance') or '?'})"


def _print_link(data: dict[str, Any], fabric_name: str) -> None:
    console = stdout_console()
    link, status = data["link"], data["status"]
    head = Table(show_header=False, show_edge=False, box=None, padding=(0, 2, 0, 0))
    head.add_column(style="bold")
    head.add_column()
    head.add_row("Link", f"{link['id']}: {end_name(link, 'a')} - {end_name(link, 'z')}")
    head.add_row("Fabric", fabric_name)
    admin = str(link.get("admin_state") or "-") + (f" ({link['admin_reason']})" if link.get("admin_reason") else "")
    head.add_row("Admin state", admin)
    head.add_row("Oper state", str(link.get("oper_state") or "-"))
    head.add_row("Health", _health_cell(status.get("health") or link.get("health")))
    head.add_row("Rx low", "yes" if status.get("rx_low", link.get("rx_low")) else "no")
    console.print(head)

    sides = status.get("sides") or {}
    a, z = sides.get("a") or {}, sides.get("z") or {}
    readings = Table(show_edge=False, header_style="bold", title="Newest readings", title_justify="left")
    readings.add_column("")
    readings.add_column(f"A {end_name(link, 'a')}")
    readings.add_column(f"Z {end_name(link, 'z')}")
    rows: list[tuple[str, Any, Any]] = [
        ("Rx power (dBm)", _power(a, "input"), _power(z, "input")),
        ("Rx class", _class_cell(a.get("rx_class")), _class_cell(z.get("rx_class"))),
        ("Rx lower threshold", _threshold(a, "input_power_lower_dbm"), _threshold(z, "input_power_lower_dbm")),
        ("Rx upper threshold", _threshold(a, "input_power_upper_dbm"), _threshold(z, "input_power_upper_dbm")),
        ("Tx power (dBm)", _power(a, "output"), _power(z, "output")),
        ("Tx class", _class_cell(a.get("tx_class")), _class_cell(z.get("tx_class"))),
        ("Tx lower threshold", _threshold(a, "output_power_lower_dbm"), _threshold(z, "output_power_lower_dbm")),
        ("Tx upper threshold", _threshold(a, "output_power_upper_dbm"), _threshold(z, "output_power_upper_dbm")),
        ("Laser bias (mA)", _number(a.get("laser_bias_current_ma")), _number(z.get("laser_bias_current_ma"))),
        ("Temperature (C)", _number(a.get("temperature_c")), _number(z.get("temperature_c"))),
        ("Supply (V)", _number(a.get("supply_voltage_v"), 2), _number(z.get("supply_voltage_v"), 2)),
        ("Optical time", timestamp(a.get("optical_time")), timestamp(z.get("optical_time"))),
        ("Counter time", timestamp(a.get("counter_time")), timestamp(z.get("counter_time"))),
    ]
    for row in rows:
        readings.add_row(*row)
    console.print()
    console.print(readings)

    directions = Table(show_edge=False, header_style="bold", title="Per direction", title_justify="left")
    for header in ("Direction", "Health", "Corruption", "Congestion", "Health since"):
        directions.add_column(header)
    for key in DIRECTIONS:
        entry = (status.get("directions") or {}).get(key) or {}
        directions.add_row(
            DIRECTION_NAMES[key],
            _health_cell(entry.get("health") or "unknown"),  # no rate yet in this direction
            _rate(entry.get("corruption_rate")),
            _rate(entry.get("congestion_rate")),
            timestamp(entry.get("health_since")),
        )
    console.print()
    console.print(directions)
    _print_signatures(console, data["signatures"])

    console.print()
    if not data["open_events"]:
        console.print("No open corruption events.")
        return
    events = Table(show_edge=False, header_style="bold", title="Open corruption events", title_justify="left")
    for header in ("ID", "Direction", "Rate", "Peak", "First seen", "Last seen"):
        events.add_column(header)
    for event in data["open_events"]:
        events.add_row(
            str(event["id"]),
            DIRECTION_NAMES.get(str(event.get("direction")), str(event.get("direction"))),
            _rate(event.get("rate")),
            _rate(event.get("peak_rate")),
            timestamp(event.get("first_seen")),
            timestamp(event.get("last_seen")),
        )
    console.print(events)


def _print_signatures(console: Console, signatures: dict[str, Any]) -> None:
    title = f"Loss signatures, last {SIGNATURE_HOURS} h (CV of the rate, r with load)"
    table = Table(show_edge=False, header_style="bold", title=title, title_justify="left")
    for header in ("Direction", "Verdict", "Corruption CV", "Corruption r", "Congestion CV", "Congestion r"):
        table.add_column(header)
    for key in DIRECTIONS:
        entry = signatures.get(key) or {}
        corruption, congestion = entry.get("corruption") or {}, entry.get("congestion") or {}
        table.add_row(
            DIRECTION_NAMES[key],
            str(entry.get("verdict") or "-"),
            _number(corruption.get("cv"), 2),
            _number(corruption.get("load_correlation"), 2),
            _number(congestion.get("cv"), 2),
            _number(congestion.get("load_correlation"), 2),
        )
    console.print()
    console.print(table)


# ----------------------------------------------------------------------------------------------
# links at-risk


@app.command("at-risk")
def at_risk(
    ctx: typer.Context,
    fabric: Annotated[str, typer.Option("--fabric", help="The fabric (name or id).", show_default=False)],
    horizon_days: Annotated[
        float | None,
        typer.Option(
            "--horizon-days",
            min=0.0,
            max=365.0,
            help="Every link forecast to cross its limit within this many days, whatever the fabric's horizon "
            "and least confidence say, except links already failed (default: the links the fabric counts at "
            "risk, within its horizon).",
        ),
    ] = None,
    cause: Annotated[
        list[str] | None,
        typer.Option(
            "--cause",
            metavar=forecasts.CAUSE_METAVAR,
            help="Only this probable cause (unclear: no known pattern); repeat for any of several.",
        ),
    ] = None,
    limit: Annotated[int, typer.Option("--limit", min=1, help="At most this many links.")] = 100,
    output: OutputOption = None,
) -> None:
    """Links whose optics are forecast to fail, soonest first: when the worst lane's power crosses
    its low limit (with the interval and the confidence), the probable cause (decaying transmitter,
    contamination, bent fiber, loose transceiver) and what to do where.

    The forecast comes from the trend of each lane's Rx and Tx power over the last 4 days
    (docs/telemetry.md, "Forecasts: optics at risk"). When more links match than --limit, a note on
    stderr says how many."""
    cli = get_context(ctx)
    fmt = cli.output_format(output)
    params: dict[str, Any] = {}
    if horizon_days is None:
        params["at_risk"] = "true"
    else:
        # Links that failed already belong to their repair tickets, whatever their trend says.
        params["crossing_within_days"] = horizon_days
        params["failed"] = "false"
    causes = forecasts.parse_causes(cause)
    if causes:
        params["cause"] = [value.value for value in causes]
    now = datetime.now(UTC)
    with cli.client() as client:
        fabric_row = resolve_fabric(client, fabric)
        params["fabric"] = fabric_row["id"]
        # Soonest crossing first, as the server orders and pages them.
        listed, total = client.first("/api/link-forecasts/", params, limit)
    rows = [forecasts.at_risk_row(row, now) for row in listed]
    if fmt is OutputFormat.table and not rows:
        horizon = "its horizon" if horizon_days is None else f"{horizon_days:g} day{'' if horizon_days == 1 else 's'}"
        stdout_console().print(f"No link of {fabric_row['name']} is forecast to cross a limit within {horizon}.")
        return
    keys = forecasts.AT_RISK_CSV_KEYS if fmt is OutputFormat.csv else forecasts.AT_RISK_KEYS
    print_first_rows(fmt, rows, total, forecasts.AT_RISK_COLUMNS, keys, noun="links")
    if fmt is OutputFormat.table and rows:
        stdout_console().print(forecasts.made_line(rows, now))
    note = forecasts.stale_note(rows, now)
    if note is not None:
        print(f"note: {note}", file=sys.stderr)


# ----------------------------------------------------------------------------------------------
# links disable|enable: admin state changes through the server's capacity guard

LinkArgument = Annotated[
    str,
    typer.Argument(
        metavar="LINK",
        help="Link id, SWITCH:PORT of either end, or A_SWITCH:A_PORT-Z_SWITCH:Z_PORT.",
        show_default=False,
    ),
]
GuardFabricOption = Annotated[str, typer.Option("--fabric", help="The link's fabric (name or id).", show_default=False)]


def _set_admin_state(
    ctx: typer.Context,
    reference: str,
    fabric: str,
    state: str,
    *,
    reason: str | None,
    dry_run: bool,
    force: bool,
    output: OutputFormat | None,
) -> None:
    cli = get_context(ctx)
    fmt = cli.output_format(output)
    verb = "disable" if state == "disabled" else "enable"
    guard.check_force(force, reason)
    body = guard.request_body(reason, force, admin_state=state)
    with cli.client() as client:
        fabric_row = resolve_fabric(client, fabric)
        link = resolve_link(client, reference, fabric_row)
        subject = f"{verb} link {link['id']} ({link_name(link)})"
        answer = guard.guarded_call(
            subject,
            lambda: client.patch(f"/api/links/{link['id']}/", body, params={"dry_run": 1} if dry_run else None),
        )
    if dry_run:
        guard.print_dry_run(fmt, answer, subject)
        return
    guard.note_override(force)
    if fmt is OutputFormat.json:
        print_json({key: answer.get(key) for key in LINK_KEYS})
        return
    if fmt is OutputFormat.csv:
        print_csv([answer], LINK_KEYS)
        return
    why = f" ({answer['admin_reason']})" if answer.get("admin_reason") else ""
    stdout_console().print(
        f"link {answer.get('id')} ({link_name(answer)}) is {answer.get('admin_state')}{why}", highlight=False
    )


@app.command("disable")
def disable(
    ctx: typer.Context,
    link: LinkArgument,
    fabric: GuardFabricOption,
    reason: guard.ReasonOption = None,
    dry_run: guard.DryRunOption = False,
    force: guard.ForceOption = False,
    output: OutputOption = None,
) -> None:
    """Disable a link (PATCH /api/links/ID/), if no ToR falls under its capacity constraint.

    A refusal prints one line naming the blocking ToR and exits 3; nothing changes. --dry-run
    prints the verdict (safe or unsafe) and each affected ToR's up-paths before -> after against
    what its constraint requires. --force (admins, with --reason) applies it anyway."""
    _set_admin_state(ctx, link, fabric, "disabled", reason=reason, dry_run=dry_run, force=force, output=output)


@app.command("enable")
def enable(
    ctx: typer.Context,
    link: LinkArgument,
    fabric: GuardFabricOption,
    reason: guard.ReasonOption = None,
    dry_run: guard.DryRunOption = False,
    output: OutputOption = None,
) -> None:
    """Enable a link again (PATCH /api/links/ID/). Always allowed; the server re-runs CorrOpt's
    optimizer once it commits. --dry-run shows the ToRs that would gain up-paths."""
    _set_admin_state(ctx, link, fabric, "enabled", reason=reason, dry_run=dry_run, force=False, output=output)
