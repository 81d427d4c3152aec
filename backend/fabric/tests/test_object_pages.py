"""The switch and rack pages' answers (issue #20, "Object pages"), and both ends' racks on links."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from corruption.models import Ticket
from fabric import services as fabric_services
from fabric.models import Link, Switch
from fabric.services import link_state
from lightpath.tests import query_counts


@pytest.fixture
def racked_fabric(db, small_document):
    for switch in small_document["switches"]:
        switch["rack"] = {"t0": "r1", "f0": "r1", "t1": "r2"}.get(switch["name"], "")
    return fabric_services.import_document(small_document)


@pytest.fixture
def viewer(client_for):
    return client_for("viewer")


def switch_named(fabric, name: str) -> Switch:
    return Switch.objects.get(fabric=fabric, name=name)


def test_a_tor_page_shows_its_links_with_both_racks_its_capacity_and_open_tickets(viewer, racked_fabric, make_user):
    t0 = switch_named(racked_fabric, "t0")
    up1 = Link.objects.get(a_switch=t0, a_port="up1")
    link_state.set_admin_state(up1, "disabled", "corrupting", make_user("admin"), override=True)
    ticket = Ticket.objects.create(fabric=racked_fabric, link=up1, kind="preventive", direction="a_to_z")
    Ticket.objects.create(
        fabric=racked_fabric, link=Link.objects.get(a_switch=t0, a_port="up0"), kind="preventive",
        direction="a_to_z", state="resolved",
    )  # fmt: skip

    answer = viewer.get(f"/api/switches/{t0.pk}/overview/").json()

    assert (answer["name"], answer["fabric_name"], answer["tier_name"], answer["rack"]) == ("t0", "small", "tor", "r1")
    assert [(row["name"], row["a_rack"], row["z_rack"], row["admin_state"]) for row in answer["links"]] == [
        ("t0:up0 - f0:d0", "r1", "r1", "enabled"),
        ("t0:up1 - f1:d0", "r1", "", "disabled"),
    ]
    assert answer["usable_links"] == 1
    capacity = answer["capacity"]
    assert (capacity["available_paths"], capacity["total_paths"], capacity["required_paths"]) == (2, 4, 3)
    assert capacity["below_constraint"] is True
    assert [(row["id"], row["state"], row["link_name"]) for row in answer["open_tickets"]] == [
        (ticket.pk, "open", "t0:up1 - f1:d0")
    ]
    assert answer["drained"] is False  # disabled for corruption, not for maintenance


def test_a_drained_switch_says_how_many_links_are_down_for_maintenance(viewer, racked_fabric, make_user):
    s0 = switch_named(racked_fabric, "s0")
    link_state.drain_switch(s0, make_user("operator"), note="optics swap", override=True)
    answer = viewer.get(f"/api/switches/{s0.pk}/overview/").json()
    assert answer["drained"] is True
    assert answer["maintenance_links"] == 4 == len(answer["links"])
    assert all(row["down_for_maintenance"] for row in answer["links"])
    assert answer["capacity"] is None  # a spine has no up-paths of its own


def test_an_unknown_switch_is_a_404(viewer, racked_fabric):
    assert viewer.get("/api/switches/999999/overview/").status_code == 404


def test_a_rack_page_lists_its_switches_their_links_and_open_tickets(viewer, racked_fabric):
    f0_link = Link.objects.get(a_switch__name="f0", z_switch__name="s1")
    ticket = Ticket.objects.create(fabric=racked_fabric, link=f0_link, kind="preventive", direction="a_to_z")

    answer = viewer.get(f"/api/fabrics/{racked_fabric.pk}/racks/r1/").json()

    assert [(row["name"], row["tier_name"], row["links"]) for row in answer["switches"]] == [
        ("t0", "tor", 2),
        ("f0", "fabric", 4),
    ]
    # t0-f0 is inside the rack and listed once; the other four leave it
    assert len(answer["links"]) == 5
    assert answer["links_leaving"] == 4
    assert [row["id"] for row in answer["open_tickets"]] == [ticket.pk]


def test_the_fabric_lists_its_racks(viewer, racked_fabric):
    assert viewer.get(f"/api/fabrics/{racked_fabric.pk}/racks/").json() == [
        {"rack": "r1", "switches": 2, "tors": 1},
        {"rack": "r2", "switches": 1, "tors": 1},
    ]


def test_an_empty_rack_is_a_404_that_says_so(viewer, racked_fabric):
    response = viewer.get(f"/api/fabrics/{racked_fabric.pk}/racks/nowhere/")
    assert response.status_code == 404
    assert "rack 'nowhere'" in response.json()["detail"]


def test_links_carry_both_ends_racks(viewer, racked_fabric):
    link = Link.objects.get(a_switch__name="t1", a_port="up0")
    row = viewer.get(f"/api/links/{link.pk}/").json()
    assert (row["a_rack"], row["z_rack"]) == ("r2", "r1")


def test_pages_are_for_every_role_only(client_for, anonymous, racked_fabric):
    t0 = switch_named(racked_fabric, "t0")
    for url in (f"/api/switches/{t0.pk}/overview/", f"/api/fabrics/{racked_fabric.pk}/racks/r1/"):
        assert anonymous.get(url).status_code == 401
        assert client_for(None).get(url).status_code == 403
        assert client_for("technician").get(url).status_code == 200


@pytest.mark.parametrize("tickets", [1, 4])
def test_page_query_counts_do_not_grow_with_tickets(viewer, racked_fabric, request, tickets):
    f0 = switch_named(racked_fabric, "f0")
    for link in Link.objects.filter(a_switch=f0)[:tickets] if tickets < 4 else Link.objects.filter(z_switch=f0):
        Ticket.objects.create(fabric=racked_fabric, link=link, kind="preventive", direction="a_to_z")
    with CaptureQueriesContext(connection) as switch_queries:
        assert viewer.get(f"/api/switches/{f0.pk}/overview/").status_code == 200
    with CaptureQueriesContext(connection) as rack_queries:
        assert viewer.get(f"/api/fabrics/{racked_fabric.pk}/racks/r1/").status_code == 200
    query_counts.check("GET /api/switches/{id}/overview/", len(switch_queries), request.node.nodeid)
    query_counts.check("GET /api/fabrics/{id}/racks/{rack}/", len(rack_queries), request.node.nodeid)
