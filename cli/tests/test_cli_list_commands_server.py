"""What the list commands share, against the real backend (live_server): tickets list, work-orders
list and links list print the first --limit rows and, when more match, one note on stderr worded
the same way by all three, "showing the first N of M <rows> (raise --limit for more)"; and work-orders list
shows what the UI's Work orders page shows by default, open and in-progress orders, unless --state
names others (`all`: every state) (trial item 17c)."""

from __future__ import annotations

import json
import os

import pytest
from cli_testing import Cli

if not os.environ.get("DJANGO_SETTINGS_MODULE"):
    pytest.skip("needs the backend's Django settings: run pytest from the repository root", allow_module_level=True)

pytestmark = pytest.mark.django_db(transaction=True, databases="__all__")

STATES = ("open", "in_progress", "done", "cancelled")


@pytest.fixture
def orders() -> dict[str, int]:
    """A work order in each state, created in the order of STATES (so listed newest first: reversed)."""
    from fabric.tests.factories import FabricFactory, LinkFactory
    from maintenance.models import WorkOrder

    fabric = FabricFactory()
    made = {}
    for state in STATES:
        link = LinkFactory(fabric=fabric)
        made[state] = WorkOrder.objects.create(
            fabric=fabric,
            state=state,
            action="clean_fiber",
            component=f"fiber@{link.pk}",
            component_name=f"fiber of {link}",
            footprint=[link.pk],
            duration_s=900,
            success_chance=0.8,
        ).pk
    return made


@pytest.fixture
def two_tickets(orders: dict[str, int]) -> list[int]:
    from corruption.models import Decision, Ticket
    from fabric.tests.factories import LinkFactory
    from maintenance.models import WorkOrder

    fabric = WorkOrder.objects.get(pk=orders["open"]).fabric
    tickets = []
    for _ in range(2):
        link = LinkFactory(fabric=fabric)
        opened_by = Decision.objects.create(
            fabric=fabric,
            link=link,
            kind="fast_checker",
            action="disabled",
            loss_rate_a_to_z=1e-4,
            penalty=1e-4,
            engine_ms=1.5,
        )
        tickets.append(Ticket.objects.create(fabric=fabric, link=link, direction="a_to_z", decision=opened_by).pk)
    return tickets


def ids(cli: Cli, *args: str) -> list[int]:
    return [row["id"] for row in cli.json("work-orders", "list", *args)]


def test_work_orders_list_shows_open_and_in_progress_unless_state_says(viewer: Cli, orders: dict[str, int]) -> None:
    assert ids(viewer) == [orders["in_progress"], orders["open"]]
    every = [orders[state] for state in reversed(STATES)]
    assert ids(viewer, "--state", "all") == every
    assert ids(viewer, "--state", "all", "--state", "done") == every
    assert ids(viewer, "--state", "done") == [orders["done"]]
    assert ids(viewer, "--state", "done", "--state", "cancelled") == [orders["cancelled"], orders["done"]]
    table = viewer("work-orders", "list")
    assert table.exit_code == 0 and "cancelled" not in table.stdout and "in_progress" in table.stdout
    wrong = viewer("work-orders", "list", "--state", "finished")
    assert wrong.exit_code == 2 and "'finished' is not one of" in wrong.stderr


def test_the_list_commands_say_alike_when_more_match_than_limit(
    viewer: Cli, orders: dict[str, int], two_tickets: list[int]
) -> None:
    from fabric.models import Link

    first = viewer("work-orders", "list", "--state", "all", "--limit", "1", "--output", "json")
    assert first.exit_code == 0 and len(json.loads(first.stdout)) == 1
    assert first.stderr == "showing the first 1 of 4 work orders (raise --limit for more)\n"
    tickets = viewer("tickets", "list", "--limit", "1")
    assert tickets.exit_code == 0 and tickets.stderr == "showing the first 1 of 2 tickets (raise --limit for more)\n"
    links = viewer("links", "list", "--limit", "2")
    assert (
        links.exit_code == 0
        and links.stderr == f"showing the first 2 of {Link.objects.count()} links (raise --limit for more)\n"
    )
    # All of them shown: nothing to say.
    assert viewer("tickets", "list").stderr == viewer("work-orders", "list").stderr == ""
