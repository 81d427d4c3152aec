"""`lightpath tickets plan FABRIC`: the tickets.plan job on the server's open work orders, against the
real backend and a real Celery worker (root conftest.py), on the demo fabric.

Pod 2 of the demo with the fabric's constraint at 0.5 (8 of 16 up-paths): p2-fab0's and p2-fab2's
spine uplinks eth2/1 corrupt and CorrOpt disables them; their tickets say replace the cable (each
fabric switch's four spine uplinks). One cable out leaves pod 2's ToRs 9 up-paths, both 6: the two
visits never overlap. A corrupting sibling of p2-fab0's cable stays in service (4e-4), so that one
goes first.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from cli_testing import Cli, cable_order, cells, corrupt, link_at

if not os.environ.get("DJANGO_SETTINGS_MODULE"):
    pytest.skip("needs the backend's Django settings: run pytest from the repository root", allow_module_level=True)

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True, databases="__all__")]


@pytest.fixture
def orders(demo_at_half: Any) -> dict[str, int]:
    found = {switch: cable_order(demo_at_half, switch) for switch in ("p2-fab0", "p2-fab2")}
    corrupt(link_at(demo_at_half, "p2-fab0", "eth2/2"), 4e-4)
    return found


def test_the_open_work_orders_are_planned_on_the_server(planner: Cli, worker: Any, orders: dict[str, int]) -> None:
    result = planner("--output", "json", "tickets", "plan", "demo-fb", "--technicians", "2", "--shift-hours", "8")
    assert result.exit_code == 0, result.stderr
    assert "tickets.plan running as job" in result.stderr
    plan = json.loads(result.stdout)
    assert list(plan) == [
        "visits",
        "unscheduled",
        "left_for_later",
        "expected_penalty_hours",
        "fifo_penalty_hours",
        "lower_bound",
        "gap",
        "proven_optimal",
    ]
    by_order = {visit["work_order"]: visit for visit in plan["visits"]}
    first, second = by_order[orders["p2-fab0"]], by_order[orders["p2-fab2"]]
    assert (first["start_s"], first["end_s"]) == (0, 7200)
    assert second["start_s"] >= 7200 and second["end_s"] - second["start_s"] == 7200
    assert sorted(name.split(" - ")[0] for name in first["links_down"]) == [
        f"p2-fab0:eth2/{port}" for port in range(1, 5)
    ]
    assert plan["expected_penalty_hours"] == pytest.approx(4e-4 * (2 + 0.2 * 48))
    assert plan["proven_optimal"] and plan["unscheduled"] == []

    table = planner(
        "tickets", "plan", "demo-fb", "--technicians", "2", "--shift-hours", "8", "--shift-start", "2026-11-27T08:00Z"
    )
    assert table.exit_code == 0, table.stderr
    # The server's plan gives clock times (UTC) and names its technicians (#18 trial: it printed
    # technician 0 at +0h00m) and each visit's rack (every demo switch has one, trial 27 item 14).
    lines = table.stdout.splitlines()
    assert cells(lines[0].replace("\u2503", " "))[:8] == [
        "Technician", "Start", "(UTC)", "End", "(UTC)", "Work", "order", "Rack"
    ]  # fmt: skip
    rows = [cells(line) for line in lines[2:] if line.startswith(" Technician ")]
    assert [row[:6] for row in rows] == [
        ["Technician", "1", "08:00", "10:00", str(orders["p2-fab0"]), "p2-rack-fab0"],
        ["Technician", "2", "10:00", "12:00", str(orders["p2-fab2"]), "p2-rack-fab2"],
    ]
    assert "+0h00m" not in table.stdout and "proven optimal" in table.stdout
    assert "p2-fab0:eth2/1 - " in table.stdout and "{" not in table.stdout
    # Totals as plain numbers (4e-4 x 11.6 h), never 4.64e-03.
    assert "expected penalty-hours 0.00464 (" in table.stdout and "e-0" not in table.stdout


def test_orders_left_for_later_say_why_from_the_server(planner: Cli, worker: Any, orders: dict[str, int]) -> None:
    plan = planner.json("tickets", "plan", "demo-fb", "--shift-hours", "1")
    assert plan["visits"] == [] and plan["unscheduled"] == sorted(orders.values())
    assert plan["left_for_later"] == [
        {"work_order": order, "reason": "longer_than_shift", "detail": "it takes 2 h, longer than the 1 h shift"}
        for order in sorted(orders.values())
    ]
    table = planner("tickets", "plan", "demo-fb", "--shift-hours", "1")
    assert table.exit_code == 0, table.stderr
    first = min(orders.values())
    assert f"not this shift:\n  work order {first}: it takes 2 h, longer than the 1 h shift\n" in table.stdout


def test_bad_params_are_refused_before_any_job(planner: Cli, orders: dict[str, int]) -> None:
    from jobs.models import Job

    result = planner("tickets", "plan", "demo-fb", "--shift-hours", "30")
    assert result.exit_code == 1
    assert "shift_hours" in result.stderr and "must be in (0, 24]" in result.stderr
    assert not Job.objects.filter(kind="tickets.plan").exists()
