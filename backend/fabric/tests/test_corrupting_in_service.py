"""One truth per number (issue #20): the Health page's "Now", the Links page filtered to
corrupting links in service and the topology legend count the same links.

Counted by the rules each used before the shared definition, this scenario gave: Health "Now" 3 (open events on links
enabled and up), Links 4 (health corrupting, enabled and up: the repaired link still showed its
pre-repair health), topology legend 6 (health corrupting, whatever the link's state)."""

import pytest
from django.utils import timezone

from corruption import tickets
from corruption.models import Ticket
from corruption.tests.test_services import link, open_event
from corruption.tests.test_tickets import disabled_ticket
from fabric.models import Link
from fabric.services import link_state

pytestmark = pytest.mark.django_db

CORRUPTING = [("f0", "u0"), ("f1", "u0"), ("f2", "u0"), ("f3", "u1"), ("t0", "up0"), ("t1", "up1")]


def counts(client, fabric) -> dict[str, int]:
    """The three numbers as the UI reads them."""
    health = client.get("/api/tickets/metrics/", {"fabric": fabric.pk})
    links = client.get("/api/links/", {"fabric": fabric.pk, "corrupting_in_service": "true"})
    topology = client.get(f"/api/fabrics/{fabric.pk}/topology/")
    assert health.status_code == links.status_code == topology.status_code == 200
    return {
        "health": health.json()["corrupting_links_in_service"],
        "links": links.json()["count"],
        "topology": topology.json()["corrupting_in_service"],
    }


def test_health_links_and_topology_count_the_same_links_after_a_repair(small_fabric, make_user, client_for):
    technician = make_user("technician")
    operator = make_user("operator")
    client = client_for("viewer")
    # The derivation's view: each link corrupting (health) with an open event; f0:u0 is disabled
    # by CorrOpt and gets a ticket.
    ticket = disabled_ticket(small_fabric, ("f0", "u0"))
    for end in CORRUPTING[1:]:
        open_event(link(small_fabric, *end))
    Link.objects.filter(fabric=small_fabric, pk__in=[link(small_fabric, *end).pk for end in CORRUPTING]).update(
        health=Link.Health.CORRUPTING
    )
    assert counts(client, small_fabric) == {"health": 5, "links": 5, "topology": 5}

    # The technician's repair re-enables f0:u0; its health shows the pre-repair windows until the
    # next derivation, but it awaits validation: not corrupting in service.
    tickets.start(ticket, technician)
    tickets.record_action(ticket, technician, "clean_fiber", now=timezone.now())
    assert Ticket.objects.get(pk=ticket.pk).state == "awaiting_validation"
    repaired = link(small_fabric, "f0", "u0")
    assert repaired.usable and repaired.health == Link.Health.CORRUPTING
    # An operator disables one for maintenance; one goes down.
    verdict = link_state.set_admin_state(link(small_fabric, "f1", "u0"), "disabled", "maintenance", operator)
    assert verdict.applied
    link_state.set_oper_states(small_fabric.pk, {link(small_fabric, "f2", "u0").pk: "down"})

    assert counts(client, small_fabric) == {"health": 3, "links": 3, "topology": 3}
    listed = client.get("/api/links/", {"fabric": small_fabric.pk, "corrupting_in_service": "true"}).json()
    assert sorted((row["a_switch_name"], row["a_port"]) for row in listed["results"]) == [
        ("f3", "u1"),
        ("t0", "up0"),
        ("t1", "up1"),
    ]

    # Corruption measured after the repair (a new event) counts the link again, everywhere.
    open_event(repaired)
    assert counts(client, small_fabric) == {"health": 4, "links": 4, "topology": 4}


def test_the_links_filter_refuses_a_value_that_is_not_a_boolean(small_fabric, client_for):
    response = client_for("viewer").get("/api/links/", {"fabric": small_fabric.pk, "corrupting_in_service": "maybe"})
    assert response.status_code == 400
    assert "corrupting_in_service" in response.json()
