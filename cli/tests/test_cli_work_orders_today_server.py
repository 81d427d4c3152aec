"""`lightpath tickets plan FABRIC --assignee U --shift-start ISO` and `lightpath work-orders today`: a
plan that names its technicians, and a technician's day read back, against the real backend and a
real Celery worker (root conftest.py), on the demo fabric.

Pod 2 of the demo with the fabric's constraint at 0.5 (8 of 16 up-paths): p2-fab0's and p2-fab2's
spine uplinks eth2/1 corrupt and CorrOpt disables them; their tickets say replace the cable. One
cable out leaves pod 2's ToRs 9 up-paths, both 6, so the two visits never overlap: from 08:00 UTC
the first technician replaces p2-fab0's (the dearer: its sibling corrupts in service), the second
p2-fab2's when it ends.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from cli_testing import FIXTURE_DATA, Cli, cells, logged_in_as

from lightpath_cli.server.shapes import TODAY_KEYS, TODAY_PLAN_KEYS, TODAY_VISIT_KEYS, WORK_ORDER_KEYS

if not os.environ.get("DJANGO_SETTINGS_MODULE"):
    pytest.skip("needs the backend's Django settings: run pytest from the repository root", allow_module_level=True)

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True, databases="__all__")]
NO_PLAN = "No maintenance plan names you yet: an operator plans the day on Work orders > Plan."


def cable_order(fabric: Any, switch: str, rate: float = 1e-4) -> int:
    from django.utils import timezone

    from corruption import services as corruption
    from corruption.models import Ticket, TicketStep
    from fabric.models import Link
    from maintenance.models import WorkOrder
    from maintenance.services import work_orders
    from telemetry.models import CorruptionEvent

    link = Link.objects.get(fabric=fabric, a_switch__name=switch, a_port="eth2/1")
    now = timezone.now()
    event = CorruptionEvent.objects.create(
        link=link, direction="a_to_z", rate=rate, last_rate=rate, peak_rate=rate, first_seen=now, last_seen=now
    )
    assert corruption.decide_event(event.pk).decision.action == "disabled"
    ticket = Ticket.objects.get(link=link)
    TicketStep.objects.filter(ticket=ticket).update(recommended_action="replace_cable")
    work_orders.regroup(fabric.pk)
    return int(WorkOrder.objects.get(state="open", entries__ticket=ticket, entries__current=True).pk)


@pytest.fixture
def demo() -> Any:
    from fabric import services
    from fabric.models import Fabric
    from fabric.services import live

    live.forget()
    fabric = services.import_document(json.loads((FIXTURE_DATA / "demo-fb.json").read_text()))
    Fabric.objects.filter(pk=fabric.pk).update(capacity_constraint=0.5)
    yield fabric
    live.forget()


def login(live_server: Any, make_role_user: Callable[..., Any], tmp_path: Path, username: str, role: str) -> Cli:
    make_role_user(username, role)
    config_file = tmp_path / username / "config.toml"
    return logged_in_as(
        Cli(config_file=config_file, env={"LIGHTPATH_CONFIG": str(config_file)}), live_server.url, username
    )


def test_a_plan_names_its_technicians_and_each_reads_their_day(
    planner: Cli, worker: Any, demo: Any, live_server: Any, make_role_user: Callable[..., Any], tmp_path: Path
) -> None:
    first, second = cable_order(demo, "p2-fab0", 4e-4), cable_order(demo, "p2-fab2")
    tess = login(live_server, make_role_user, tmp_path, "tess", "technician")
    otto = login(live_server, make_role_user, tmp_path, "otto", "operator")
    # Before any plan: one sentence, exit 0.
    nothing = tess("work-orders", "today")
    assert nothing.exit_code == 0 and nothing.stdout == NO_PLAN + "\n"

    plan = planner.json(
        "tickets", "plan", "demo-fb", "--assignee", "tess", "--assignee", "otto", "--shift-start", "2026-11-27T08:00Z"
    )
    assert [(v["technician_name"], v["work_order"], v["start_at"]) for v in plan["visits"]] == [
        ("tess", first, "2026-11-27T08:00:00+00:00"),
        ("otto", second, "2026-11-27T10:00:00+00:00"),
    ]

    table = tess("work-orders", "today")
    assert table.exit_code == 0, table.stderr
    lines = table.stdout.splitlines()
    assert lines[0] == "1 visit, the first at 08:00 UTC in rack p2-fab0."
    assert lines[1].startswith("plan ") and " of demo-fb, made " in lines[1]
    assert lines[1].endswith("; shift 08:00-16:00 UTC")
    assert cells(lines[2].replace("\u2503", " ")) == ["Time", "(UTC)", "Order", "Action", "Component", "Rack", "State"]
    assert cells(lines[4]) == [
        "08:00-10:00",
        str(first),
        "replace_cable",
        "breakout",
        "cable",
        "p2-fab0",
        "eth2/1-4",
        "p2-fab0",
        "open",
    ]
    assert len(lines) == 5  # the sentence, the plan, the header, its rule, one visit

    day = tess.json("work-orders", "today", "--fabric", "demo-fb")
    assert list(day) == list(TODAY_KEYS) and list(day["plan"]) == list(TODAY_PLAN_KEYS)
    assert all(
        list(v) == list(TODAY_VISIT_KEYS) and list(v["work_order"]) == list(WORK_ORDER_KEYS) for v in day["visits"]
    )
    assert [v["work_order"]["id"] for v in day["visits"]] == [first]
    assert day["plan"]["stale"] is False and day["visits"][0]["done"] is False

    # Otto reads his own day and tess's; she may not read his.
    assert otto("work-orders", "today").stdout.splitlines()[0] == "1 visit, the first at 10:00 UTC in rack p2-fab2."
    assert otto.json("work-orders", "today", "--user", "tess")["visits"] == day["visits"]
    refused = tess("work-orders", "today", "--user", "otto")
    assert refused.exit_code == 1 and refused.stdout == ""
    assert refused.stderr.count("\n") == 1 and "Only operators, planners and admins" in refused.stderr
    unknown = otto("work-orders", "today", "--user", "nobody")
    assert unknown.exit_code == 1
    assert unknown.stderr == "error: GET /api/work-orders/today/ was rejected\n  user: no active user is named nobody\n"


def test_assignees_the_server_refuses_are_listed_before_any_job(
    planner: Cli, demo: Any, make_role_user: Callable[..., Any]
) -> None:
    from jobs.models import Job

    make_role_user("vera", "viewer")
    result = planner("tickets", "plan", "demo-fb", "--assignee", "vera", "--assignee", "ghost", "--technicians", "3")
    assert result.exit_code == 1 and result.stderr.startswith("error: tickets.plan rejected: 3 problems\n")
    assert "vera holds viewer" in result.stderr and "'ghost'" in result.stderr and "technicians" in result.stderr
    naive = planner("tickets", "plan", "demo-fb", "--shift-start", "2026-11-27T08:00")
    assert naive.exit_code == 1 and "time zone" in naive.stderr
    assert not Job.objects.filter(kind="tickets.plan").exists()


def test_assignees_and_shift_start_need_a_server_fabric(cli: Cli) -> None:
    demo = str(FIXTURE_DATA / "demo-fb.json")
    result = cli("tickets", "plan", "--fabric-file", demo, "--work-orders", demo, "--assignee", "tess")
    assert result.exit_code == 2
    assert result.stderr == "error: --assignee and --shift-start name users and times on the server: give FABRIC\n"
