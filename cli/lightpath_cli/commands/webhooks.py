"""webhooks list|add|deliveries|test|redeliver: where a fabric's link-state changes are POSTed."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

import typer
from rich.text import Text

from ..context import get_context
from ..errors import CliError, UsageError
from ..options import OutputOption, new_app
from ..output import Column, OutputFormat, print_json, print_record, print_rows, timestamp
from ..server.client import PAGE_SIZE, ApiClient
from ..server.errors import ApiError
from ..server.lookup import resolve_fabric
from ..server.shapes import DELIVERY_KEYS, ENDPOINT_ADD_KEYS, ENDPOINT_KEYS

app = new_app()

# `add` also prints the secret the server generated (null when you gave one): it is shown only once.
STATE_STYLES = {"pending": "yellow", "succeeded": "green", "failed": "bold red"}


class DeliveryState(StrEnum):
    pending = "pending"
    succeeded = "succeeded"
    failed = "failed"


def _enabled(value: Any) -> str:
    return "yes" if value else "no"


def _state_cell(value: Any) -> Text:
    return Text(str(value or "-"), style=STATE_STYLES.get(str(value), ""))


ENDPOINT_COLUMNS = (
    Column("id", "ID", justify="right"),
    Column("fabric", "Fabric", justify="right"),
    Column("name", "Name"),
    Column("payload_url", "URL"),
    Column("enabled", "Enabled", render=_enabled),
    Column("max_attempts", "Max attempts", justify="right"),
    Column("secret_hint", "Secret"),
    Column("pending_deliveries", "Pending", justify="right"),
    Column("failed_deliveries", "Failed", justify="right"),
    Column("last_success_at", "Last success", render=timestamp),
)
ADD_COLUMNS = (*ENDPOINT_COLUMNS, Column("secret", "Secret (shown once)"))
DELIVERY_COLUMNS = (
    Column("id", "ID", justify="right"),
    Column("endpoint_name", "Endpoint"),
    Column("event_type", "Event"),
    Column("link", "Link", justify="right"),
    Column("state", "State", render=_state_cell),
    Column("attempts", "Attempts", justify="right"),
    Column("last_status_code", "HTTP", justify="right"),
    Column("last_error", "Last error"),
    Column("next_attempt_at", "Next attempt", render=timestamp),
    Column("created", "Created", render=timestamp),
)


def _number(value: str, what: str) -> int:
    if not value.isdigit():
        raise UsageError(f"{value!r} is not a {what} id (a number)")
    return int(value)


def _post(client: ApiClient, path: str, body: Any, what: str) -> dict[str, Any]:
    """A POST whose 400 and 404 answers become one error line (with the 400's problems below it)."""
    try:
        answer: dict[str, Any] = client.post(path, body)
    except ApiError as error:
        if error.status == 400:
            raise CliError(f"cannot {what}", details=error.details) from None
        if error.status == 404:
            raise CliError(f"cannot {what}: not found") from None
        raise
    return answer


@app.command("list")
def list_endpoints(
    ctx: typer.Context,
    fabric: Annotated[str | None, typer.Option("--fabric", help="Only this fabric's endpoints (name or id).")] = None,
    output: OutputOption = None,
) -> None:
    """List webhook endpoints: fabric, name, URL, enabled, max attempts, the secret's hint, and their
    deliveries pending and failed, and the last success."""
    cli = get_context(ctx)
    params: dict[str, Any] = {}
    with cli.client() as client:
        if fabric:
            params["fabric"] = resolve_fabric(client, fabric)["id"]
        endpoints = list(client.iterate("/api/webhooks/", params))
    print_rows(cli.output_format(output), endpoints, ENDPOINT_COLUMNS, ENDPOINT_KEYS)


@app.command("add")
def add(
    ctx: typer.Context,
    fabric: Annotated[str, typer.Argument(metavar="FABRIC", help="The fabric (name or id).", show_default=False)],
    name: Annotated[str, typer.Argument(metavar="NAME", help="A name unique in the fabric.", show_default=False)],
    url: Annotated[str, typer.Argument(metavar="URL", help="The http(s) URL to POST to.", show_default=False)],
    secret: Annotated[
        str | None,
        typer.Option(
            "--secret",
            envvar="LIGHTPATH_WEBHOOK_SECRET",
            show_default=False,
            help="The HMAC secret (16+ characters); default: the server generates one and it is printed once.",
        ),
    ] = None,
    max_attempts: Annotated[int | None, typer.Option("--max-attempts", min=1, max=20, show_default=False)] = None,
    disabled: Annotated[bool, typer.Option("--disabled", help="Create it switched off.")] = False,
    output: OutputOption = None,
) -> None:
    """Add a webhook endpoint to a fabric (operators and admins)."""
    cli = get_context(ctx)
    body: dict[str, Any] = {"name": name, "payload_url": url, "enabled": not disabled}
    if secret is not None:
        body["secret"] = secret
    if max_attempts is not None:
        body["max_attempts"] = max_attempts
    with cli.client() as client:
        body["fabric"] = resolve_fabric(client, fabric)["id"]
        endpoint = _post(client, "/api/webhooks/", body, f"add webhook {name!r}")
    print_record(cli.output_format(output), endpoint, ADD_COLUMNS, ENDPOINT_ADD_KEYS)
    if endpoint.get("secret") and cli.output_format(output) is OutputFormat.table:
        typer.echo("store the secret on the receiver now: it is not shown again", err=True)


@app.command("deliveries")
def deliveries(
    ctx: typer.Context,
    fabric: Annotated[str | None, typer.Option("--fabric", help="Only this fabric's (name or id).")] = None,
    endpoint: Annotated[int | None, typer.Option("--endpoint", help="Only this endpoint's (its id).")] = None,
    state: Annotated[
        list[DeliveryState] | None,
        typer.Option(
            "--state", metavar="pending|succeeded|failed", case_sensitive=False, help="Repeat for any of several."
        ),
    ] = None,
    limit: Annotated[int, typer.Option("--limit", min=1, help="At most this many, newest first.")] = 100,
    output: OutputOption = None,
) -> None:
    """The delivery log, newest first: event, link, state, attempts, last HTTP status and error."""
    cli = get_context(ctx)
    params: dict[str, Any] = {}
    if endpoint is not None:
        params["endpoint"] = endpoint
    if state:
        params["state"] = [value.value for value in state]
    rows: list[dict[str, Any]] = []
    with cli.client() as client:
        if fabric:
            params["fabric"] = resolve_fabric(client, fabric)["id"]
        total = 0
        while len(rows) < limit:
            page = client.get(
                "/api/webhook-deliveries/",
                {**params, "limit": min(PAGE_SIZE, limit - len(rows)), "offset": len(rows)},
            )
            results = page.get("results") or []
            total = int(page.get("count") or 0)
            rows.extend(results)
            if not results or len(rows) >= total:
                break
    print_rows(cli.output_format(output), rows, DELIVERY_COLUMNS, DELIVERY_KEYS)
    if total > len(rows):
        typer.echo(f"showing the newest {len(rows)} of {total} deliveries (raise --limit for more)", err=True)


def _print_delivery(fmt: OutputFormat, delivery: dict[str, Any], line: str) -> None:
    if fmt is OutputFormat.table:
        typer.echo(line)
    elif fmt is OutputFormat.json:
        print_json({key: delivery.get(key) for key in DELIVERY_KEYS})
    else:
        print_record(fmt, delivery, DELIVERY_COLUMNS, DELIVERY_KEYS)


@app.command("test")
def send_test(
    ctx: typer.Context,
    endpoint: Annotated[str, typer.Argument(metavar="ID", help="The endpoint's id.", show_default=False)],
    output: OutputOption = None,
) -> None:
    """Send a webhook.test event to one endpoint; follow it with `webhooks deliveries`."""
    cli = get_context(ctx)
    endpoint_id = _number(endpoint, "webhook endpoint")
    with cli.client() as client:
        delivery = _post(client, f"/api/webhooks/{endpoint_id}/test/", None, f"test webhook {endpoint_id}")
    _print_delivery(cli.output_format(output), delivery, f"test event queued as delivery {delivery['id']}")


@app.command("redeliver")
def redeliver(
    ctx: typer.Context,
    delivery: Annotated[str, typer.Argument(metavar="ID", help="The delivery's id.", show_default=False)],
    output: OutputOption = None,
) -> None:
    """Send a delivery's event again, as a new delivery (same event id)."""
    cli = get_context(ctx)
    delivery_id = _number(delivery, "delivery")
    with cli.client() as client:
        again = _post(
            client, f"/api/webhook-deliveries/{delivery_id}/redeliver/", None, f"redeliver delivery {delivery_id}"
        )
    _print_delivery(cli.output_format(output), again, f"delivery {delivery_id} queued again as delivery {again['id']}")
