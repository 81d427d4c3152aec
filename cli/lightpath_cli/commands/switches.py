"""switches drain|undrain: every link of a switch out of service for maintenance, and back, through
the server's capacity guard (docs/capacity-guard.md)."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from .. import guard
from ..context import get_context
from ..errors import CliError
from ..options import OutputOption, new_app
from ..output import OutputFormat, print_csv, print_json, stdout_console
from ..server.client import ApiClient
from ..server.errors import ApiError
from ..server.lookup import resolve_fabric
from ..server.shapes import DRAIN_KEYS, DRY_RUN_TOR_KEYS

app = new_app()


SwitchArgument = Annotated[
    str, typer.Argument(metavar="SWITCH", help="Switch name (or id) within the fabric.", show_default=False)
]
FabricOption = Annotated[str, typer.Option("--fabric", help="The switch's fabric (name or id).", show_default=False)]


def resolve_switch(client: ApiClient, reference: str, fabric: dict[str, Any]) -> dict[str, Any]:
    """The switch of this exact name in the fabric (GET /api/switches/?fabric=ID&name=NAME); an
    all-digits argument that names no switch is tried as an id of one in the fabric."""
    for candidate in client.iterate("/api/switches/", {"fabric": fabric["id"], "name": reference}):
        if candidate.get("name") == reference:
            return candidate
    if reference.isdigit():
        try:
            switch: dict[str, Any] = client.get(f"/api/switches/{reference}/")
        except ApiError as error:
            if error.status != 404:
                raise
        else:
            if switch.get("fabric") == fabric["id"]:
                return switch
    raise CliError(f"no switch named {reference!r} in fabric {fabric['name']!r}")


def _drain(
    ctx: typer.Context,
    reference: str,
    fabric: str,
    action: str,
    *,
    reason: str | None,
    dry_run: bool,
    force: bool,
    output: OutputFormat | None,
) -> None:
    cli = get_context(ctx)
    fmt = cli.output_format(output)
    guard.check_force(force, reason)
    body = guard.request_body(reason, force)
    with cli.client() as client:
        fabric_row = resolve_fabric(client, fabric)
        switch = resolve_switch(client, reference, fabric_row)
        subject = f"{action} switch {switch['name']}"
        answer = guard.guarded_call(
            subject,
            lambda: client.post(
                f"/api/switches/{switch['id']}/{action}/", body or None, params={"dry_run": 1} if dry_run else None
            ),
        )
    if dry_run:
        guard.print_dry_run(fmt, answer, subject)
        return
    guard.note_override(force)
    affected = [guard.tor_row(tor) for tor in answer.get("affected_tors") or [] if isinstance(tor, dict)]
    if fmt is OutputFormat.json:
        print_json({**{key: answer.get(key) for key in DRAIN_KEYS}, "affected_tors": affected})
        return
    if fmt is OutputFormat.csv:
        print_csv(affected, DRY_RUN_TOR_KEYS)
        return
    links = answer.get("links") or []
    done = "disabled for maintenance" if action == "drain" else "enabled again"
    count = f"{len(links)} link{'s' if len(links) != 1 else ''}"
    stdout_console().print(f"{action}ed switch {switch['name']}: {count} {done}", highlight=False)
    if affected:
        guard.print_affected_table([{**tor, "blocking": False} for tor in affected])


@app.command("drain")
def drain(
    ctx: typer.Context,
    switch: SwitchArgument,
    fabric: FabricOption,
    reason: guard.ReasonOption = None,
    dry_run: guard.DryRunOption = False,
    force: guard.ForceOption = False,
    output: OutputOption = None,
) -> None:
    """Take every enabled link of a switch out of service for maintenance (POST
    /api/switches/ID/drain/; reason `maintenance`, or `maintenance: REASON`), all or nothing.

    A refusal prints one line naming the blocking ToR and exits 3; nothing changes. --dry-run
    prints the verdict and each affected ToR. --force (admins, with --reason) applies it anyway."""
    _drain(ctx, switch, fabric, "drain", reason=reason, dry_run=dry_run, force=force, output=output)


@app.command("undrain")
def undrain(
    ctx: typer.Context,
    switch: SwitchArgument,
    fabric: FabricOption,
    dry_run: guard.DryRunOption = False,
    output: OutputOption = None,
) -> None:
    """Enable again every link of the switch that was disabled for maintenance (POST
    /api/switches/ID/undrain/). Always allowed; the server re-runs CorrOpt's optimizer."""
    _drain(ctx, switch, fabric, "undrain", reason=None, dry_run=dry_run, force=False, output=output)
