"""work-orders list|show|start|finish against the real backend (live_server, the local PostgreSQL)
and its capacity guard, on the demo fabric (fixtures/data/demo-fb.json).

Pod 3: p3-fab0's spine uplink eth2/1 corrupts and CorrOpt disables it; its ticket says replace the
cable (p3-fab0's breakout of four spine uplinks). p3-tor2 (its own constraint 0.6: 10 of 16) has
its uplink to p3-fab1 disabled for corruption: the repair would leave it 8 of 16, re-enabling that
lossy uplink for the repair keeps it at 12 (needs_restoration). p1-tor5's breakout cable takes
every uplink of p1-tor5 down: blocked.

No worker runs here: the optimizer jobs the server queues stay queued.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest
from cli_testing import Cli, disable_for_corruption, link_at

from lightpath_cli.server.shapes import WORK_ORDER_DETAIL_KEYS, WORK_ORDER_KEYS, WORK_ORDER_PREVIEW_KEYS

if not os.environ.get("DJANGO_SETTINGS_MODULE"):
    pytest.skip("needs the backend's Django settings: run pytest from the repository root", allow_module_level=True)

pytestmark = pytest.mark.django_db(transaction=True, databases="__all__")


def order_of(ticket: Any, action: str | None = None) -> int:
    """The ticket's open work order after a regroup; `action`: its step recommends that first."""
    from corruption.models import TicketStep
    from maintenance.models import WorkOrder
    from maintenance.services import work_orders

    if action:
        TicketStep.objects.filter(ticket=ticket).update(recommended_action=action)
    work_orders.regroup(ticket.fabric_id)
    return int(WorkOrder.objects.get(state="open", entries__ticket=ticket, entries__current=True).pk)


def admin_state(link: Any) -> tuple[str, str]:
    link.refresh_from_db()
    return link.admin_state, link.admin_reason


def test_a_restoration_an_operator_approves_and_finish_puts_back(
    cli: Cli, demo: Any, log_in: Callable[[str, str], Cli]
) -> None:
    from fabric.models import Switch

    order = order_of(disable_for_corruption(link_at(demo, "p3-fab0", "eth2/1")), "replace_cable")
    Switch.objects.filter(fabric=demo, name="p3-tor2").update(capacity_constraint=0.6)
    lossy = link_at(demo, "p3-tor2", "eth2/2")
    disable_for_corruption(lossy, rate=3e-5)
    siblings = [link_at(demo, "p3-fab0", f"eth2/{n}") for n in (2, 3, 4)]
    technician = log_in("cli-tech", "technician")

    rows = technician.json("work-orders", "list", "--fabric", "demo-fb", "--state", "open")
    assert all(list(row) == list(WORK_ORDER_KEYS) for row in rows)
    assert order in [row["id"] for row in rows]

    preview = technician.json("work-orders", "start", str(order), "--dry-run")
    assert list(preview) == list(WORK_ORDER_PREVIEW_KEYS) and preview["verdict"] == "needs_restoration"
    assert [link["id"] for link in preview["restoration"]["links"]] == [lossy.pk]
    assert preview["restoration"]["needs_approval"] is True
    table = technician("work-orders", "start", str(order), "--dry-run")
    assert (
        table.exit_code == 0 and table.stdout.splitlines()[0] == f"dry run: start work order {order}: NEEDS_RESTORATION"
    )

    refused = technician("work-orders", "start", str(order))
    assert refused.exit_code == 3 and refused.stdout == ""
    assert refused.stderr.startswith("error: refused: The restoration is needed: start it with the links offered now")
    assert refused.stderr.endswith("; start it with --restore\n") and refused.stderr.count("\n") == 1
    not_approved = technician("work-orders", "start", str(order), "--restore")
    assert not_approved.exit_code == 1 and "an operator must approve the restoration" in not_approved.stderr
    assert admin_state(lossy)[0] == "disabled"

    operator = log_in("cli-op", "operator")
    started = operator.json("work-orders", "start", str(order), "--restore")
    assert list(started) == list(WORK_ORDER_DETAIL_KEYS)
    assert (started["state"], started["started_by"]) == ("in_progress", "cli-op")
    assert started["restored_links"] == [{"id": lossy.pk, "name": str(lossy)}]
    assert admin_state(lossy) == ("enabled", f"restoration: work order {order}")
    assert {admin_state(link)[0] for link in siblings} == {"disabled"}
    shown = technician("work-orders", "show", str(order))
    assert f"  restored for the repair: {lossy.pk} {lossy}" in shown.stdout.splitlines()
    assert "  started " in shown.stdout and " by cli-op" in shown.stdout

    finished = technician("work-orders", "finish", str(order), "--outcome", "repaired", "--notes", "new cable")
    assert finished.exit_code == 0, finished.stderr
    assert finished.stdout.startswith(f"Repaired: work order {order} is done; enabled for validation: ")
    assert f"; disabled again for corruption: {lossy}." in finished.stdout
    assert admin_state(lossy) == ("disabled", "corruption")
    assert {admin_state(link)[0] for link in siblings} == {"enabled"}
    again = technician("work-orders", "finish", str(order), "--outcome", "repaired")
    # A state conflict is not a capacity-guard refusal: exit 1 (3 is the guard's).
    assert again.exit_code == 1 and again.stderr == f"error: work order {order} is done\n"


def test_a_blocked_order_is_refused_in_one_line_and_an_admin_overrides(
    cli: Cli, demo: Any, log_in: Callable[[str, str], Cli]
) -> None:
    order = order_of(disable_for_corruption(link_at(demo, "p1-tor5", "eth2/1")), "replace_cable")
    technician = log_in("cli-tech", "technician")

    refused = technician("work-orders", "start", str(order))
    assert refused.exit_code == 3 and refused.stdout == ""
    assert refused.stderr.startswith("error: refused: Blocked: p1-tor5 would fall to 0 of 16 up-paths, under the 12")
    # The server's sentence says an admin overrides (nothing else is in the way); the CLI adds only its flags.
    assert "Drain the rack's traffic first, then an admin starts it with an override and a reason" in refused.stderr
    assert refused.stderr.endswith("a reason; override: --override --reason R\n")
    assert "an admin may start it anyway" not in refused.stderr
    assert technician("work-orders", "start", str(order), "--override").exit_code == 2
    assert technician("work-orders", "start", "abc").exit_code == 2
    missing = technician("work-orders", "show", "999999999")
    assert missing.exit_code == 1 and missing.stderr == "error: work order 999999999 not found\n"
    bad = technician("work-orders", "finish", str(order), "--outcome", "fixed")
    assert bad.exit_code == 2
    not_started = technician("work-orders", "finish", str(order), "--outcome", "repaired")
    assert not_started.exit_code == 1 and not_started.stderr == f"error: work order {order} is open: start it first\n"

    admin = log_in("cli-admin", "admin")
    forced = admin("work-orders", "start", str(order), "--override", "--reason", "rack drained of its servers")
    assert forced.exit_code == 0, forced.stderr
    assert forced.stdout == f"work order {order} is in_progress: 4 links down\n"
    assert "override of the capacity guard" in forced.stderr
    assert admin_state(link_at(demo, "p1-tor5", "eth2/3"))[0] == "disabled"
    back = admin("work-orders", "finish", str(order), "--outcome", "not_repaired")
    assert back.exit_code == 0 and f"work order {order} is open" in back.stdout
    assert admin_state(link_at(demo, "p1-tor5", "eth2/3")) == ("enabled", "")
