"""Helpers for the CLI tests: an in-process runner and what the tests against the real server share.

A uniquely named module rather than conftest.py, so tests can import it without clashing with other
conftest modules in the repository. Nothing here imports Django when loaded: the offline tests use it
too (the helpers that set up server data import it inside).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from typer.testing import CliRunner, Result

from lightpath_cli.app import app

REPO_ROOT = Path(__file__).resolve().parents[2]
FIXTURE_DATA = REPO_ROOT / "fixtures" / "data"
PASSWORD = "cli-live-test-password"

FABRIC_KEYS = [
    "id",
    "name",
    "description",
    "tiers",
    "capacity_constraint",
    "forecast_horizon_days",
    "forecast_min_confidence",
    "auto_preventive_tickets",
    "switch_count",
    "link_count",
    "created",
    "updated",
]
JOB_KEYS = [
    "id",
    "kind",
    "state",
    "progress",
    "message",
    "result",
    "error",
    "fabric",
    "created_by",
    "created",
    "started",
    "finished",
    "attempts",
    "worker",
    "heartbeat_at",
]


@dataclass
class Cli:
    """Runs `lightpath ARGS` in-process with its own config file and a clean environment."""

    config_file: Path
    env: dict[str, str | None]

    def __call__(self, *args: str, input: str | None = None, env: dict[str, str] | None = None) -> Result:
        return CliRunner().invoke(app, list(args), input=input, env={**self.env, **(env or {})})

    def json(self, *args: str) -> Any:
        result = self(*args, "--output", "json")
        assert result.exit_code == 0, result.stderr
        return json.loads(result.stdout)


def logged_in_as(cli: Cli, server_url: str, username: str) -> Cli:
    """`lightpath login` against the real server; later calls use the saved server and token."""
    result = cli("--server", server_url, "login", "--username", username, "--password", PASSWORD)
    assert result.exit_code == 0, result.stderr
    return cli


def import_file(cli: Cli, path: Path, *extra: str) -> dict[str, Any]:
    """`lightpath fabric import` (JSON output); returns the new fabric."""
    result = cli("--output", "json", "fabric", "import", str(path), *extra)
    assert result.exit_code == 0, result.stderr
    fabric: dict[str, Any] = json.loads(result.stdout)
    return fabric


def cells(line: str) -> list[str]:
    """The cells of one row of a rich table, e.g. ['p1-tor3', '1', '8/16', ...]."""
    return line.replace("\u2502", " ").split()


def wait_until(condition: Callable[[], Any], *, timeout: float = 60.0, what: str = "the condition") -> Any:
    """Poll until condition() is truthy and return its value."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        time.sleep(0.05)


def link_at(fabric: Any, switch: str, port: str) -> Any:
    """The fabric's link from `switch`'s `port`."""
    from fabric.models import Link

    return Link.objects.select_related("a_switch", "z_switch").get(fabric=fabric, a_switch__name=switch, a_port=port)


def corrupt(link: Any, rate: float) -> Any:
    """A corruption event on the link, as telemetry records one (no decision taken on it)."""
    from django.utils import timezone

    from telemetry.models import CorruptionEvent

    now = timezone.now()
    return CorruptionEvent.objects.create(
        link=link, direction="a_to_z", rate=rate, last_rate=rate, peak_rate=rate, first_seen=now, last_seen=now
    )


def disable_for_corruption(link: Any, rate: float = 1e-4) -> Any:
    """CorrOpt's fast checker on a corruption event of the link: disabled, its ticket opens."""
    from corruption import services as corruption
    from corruption.models import Ticket

    decision = corruption.decide_event(corrupt(link, rate).pk).decision
    assert decision is not None and decision.action == "disabled"
    return Ticket.objects.get(link=link)


def cable_order(fabric: Any, switch: str, rate: float = 1e-4) -> int:
    """`switch`'s spine uplink eth2/1 corrupts and is disabled; its ticket's repair is the cable (the
    switch's four spine uplinks). Returns the open work order's id."""
    from corruption.models import TicketStep
    from maintenance.models import WorkOrder
    from maintenance.services import work_orders

    ticket = disable_for_corruption(link_at(fabric, switch, "eth2/1"), rate)
    TicketStep.objects.filter(ticket=ticket).update(recommended_action="replace_cable")
    work_orders.regroup(fabric.pk)
    return int(WorkOrder.objects.get(state="open", entries__ticket=ticket, entries__current=True).pk)
