"""tickets open-preventive LINK against the real backend (issue #19): an operator opens a preventive
ticket for a link whose stored forecast is at risk; the link stays in service. The forecast row is
written as derivation writes it (telemetry.LinkForecast); computing it is telemetry's test."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable
from typing import Any

import pytest
from cli_testing import Cli, cells, link_at

if not os.environ.get("DJANGO_SETTINGS_MODULE"):
    pytest.skip("needs the backend's Django settings: run pytest from the repository root", allow_module_level=True)

pytestmark = pytest.mark.django_db(transaction=True, databases="__all__")


@pytest.fixture
def at_risk(demo: Any) -> Any:
    """p1-tor5:eth2/3 - p1-fab2:eth1/6's Rx at the ToR falls toward its limit: contamination, act at A."""
    from django.utils import timezone

    from telemetry.models import LinkForecast

    link = link_at(demo, "p1-tor5", "eth2/3")
    now = timezone.now()
    LinkForecast.objects.create(
        link=link, fabric=demo, computed_at=now, crossing_at=now + dt.timedelta(days=3),
        earliest_at=now + dt.timedelta(days=2), latest_at=now + dt.timedelta(days=5), confidence=0.9, at_risk=True,
        cause="contamination", side="a", quantity="rx", lane=1, level_dbm=-9.0, slope_db_per_day=-0.5,
        limit_dbm=-10.5, limit_provenance="catalog", cause_side="a",
    )  # fmt: skip
    return link


def test_an_operator_opens_one_by_name_and_a_second_is_refused_in_one_line(
    at_risk: Any, log_in: Callable[[str, str], Cli]
) -> None:
    from fabric.models import Link

    operator = log_in("cli-operator", "operator")
    name = str(at_risk)
    opened = operator.json("tickets", "open-preventive", name, "--fabric", "demo-fb")
    assert (opened["kind"], opened["state"], opened["link"], opened["decision"]) == (
        "preventive",
        "open",
        at_risk.pk,
        None,
    )
    assert opened["recommendation"]["action"] == "clean_fiber"
    assert opened["recommendation"]["explanation"].startswith(f"Clean the connectors, {at_risk.a_switch.name}:")
    assert Link.objects.get(pk=at_risk.pk).admin_state == "enabled"  # still in service

    again = operator("tickets", "open-preventive", str(at_risk.pk))
    assert again.exit_code == 1 and again.stdout == ""
    assert again.stderr == (
        f"error: cannot open a preventive ticket: {name} already has an unresolved preventive ticket "
        f"#{opened['id']} (open)\n"
    )
    shown = operator("tickets", "show", str(opened["id"]))
    assert shown.exit_code == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert any(line.split() == ["Kind", "preventive"] for line in lines)
    assert any(line.split() == ["End", "to", "act", "on", "A"] for line in lines)
    assert "Rate (this direction)" not in shown.stdout  # a repair's evidence rows: none here


def test_the_table_line_and_a_technicians_refusal(at_risk: Any, log_in: Callable[[str, str], Cli]) -> None:
    technician = log_in("cli-tech", "technician")
    refused = technician("tickets", "open-preventive", "p1-tor5:eth2/3")
    assert refused.exit_code == 1 and refused.stdout == ""
    assert refused.stderr == "error: permission denied: Your role does not allow this action.\n"
    operator = log_in("cli-operator", "operator")
    result = operator("tickets", "open-preventive", "p1-tor5:eth2/3")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("preventive ticket ")
    # The action in words with its end (trial 27 item 13), as the forecast names it; not the code.
    assert result.stdout.endswith(f"opened for {at_risk}: Clean the connectors, p1-tor5:eth2/3 (end A) first\n")


def test_the_list_has_a_kind_and_show_says_which_optic_and_light(
    at_risk: Any, log_in: Callable[[str, str], Cli]
) -> None:
    """Trial 27 item 11: `tickets list` told no preventive ticket from a repair, and `show` said
    "A -> Z" for the light a falling receiver at A gets from Z."""
    operator = log_in("cli-operator", "operator")
    opened = operator.json("tickets", "open-preventive", str(at_risk.pk))
    assert [t["id"] for t in operator.json("tickets", "list", "--kind", "preventive")] == [opened["id"]]
    assert operator.json("tickets", "list", "--kind", "repair") == []
    listed = operator("tickets", "list")
    assert listed.exit_code == 0, listed.stderr
    assert cells(listed.stdout.splitlines()[0].replace("\u2503", " "))[:3] == ["ID", "Kind", "Link"]
    row = next(line for line in listed.stdout.splitlines() if cells(line)[:1] == [str(opened["id"])])
    assert cells(row)[1] == "preventive"
    shown = operator("tickets", "show", str(opened["id"]))
    assert any(
        line.split() == ["Direction", "receiver", "at", "A,", "light", "Z", "->", "A"]
        for line in shown.stdout.splitlines()
    ), shown.stdout


def test_recording_the_action_before_the_work_order_starts_is_refused_in_one_line(
    at_risk: Any, log_in: Callable[[str, str], Cli]
) -> None:
    """The repair takes the in-service link down: the work order's start does that safely."""
    from maintenance.models import WorkOrder

    opened = log_in("cli-operator", "operator").json("tickets", "open-preventive", str(at_risk.pk))
    order = WorkOrder.objects.get(tickets__id=opened["id"], state="open")
    technician = log_in("cli-tech", "technician")
    assert technician("tickets", "start", str(opened["id"])).exit_code == 0
    refused = technician("tickets", "act", str(opened["id"]), "--action", "clean_fiber")
    assert refused.exit_code == 1 and refused.stdout == ""
    assert refused.stderr == (
        f"error: cannot act ticket {opened['id']}: The link {at_risk} is in service and this repair takes it down: "
        f"start work order {order.pk} first: starting takes the link down only if every ToR keeps its capacity.\n"
    )
