"""The CSV exports write what the list pages show: the fabric's name (not its id), both ends'
racks, "no" for a link that is not at risk, lengths as "390" / "390.7" (issue #20, trial 28 item 13)."""

import pytest

from corruption.tests.test_tickets import disabled_ticket
from fabric.tests.factories import FabricFactory, LinkFactory, SwitchFactory
from jobs.models import Job

from .test_list_export import csv_rows

pytestmark = pytest.mark.django_db


def test_links_csv_names_the_fabric_and_both_racks_and_says_no_for_not_at_risk(client_for):
    fabric = FabricFactory(name="rack-row")
    tor = SwitchFactory(fabric=fabric, name="tor-a", tier=0, rack="r-07")
    spine = SwitchFactory(fabric=fabric, name="spine-a", tier=1, rack="")
    LinkFactory(fabric=fabric, a_switch=tor, a_port="eth1", z_switch=spine, z_port="eth0", length_m=390.0)
    LinkFactory(fabric=fabric, a_switch=tor, a_port="eth2", z_switch=spine, z_port="eth1", length_m=390.74)

    rows = csv_rows(
        client_for("viewer").get("/api/links/", {"fabric": fabric.pk, "ordering": "length_m", "format": "csv"})
    )
    assert [row["Fabric"] for row in rows] == ["rack-row", "rack-row"]
    assert [(row["A rack"], row["Z rack"]) for row in rows] == [("r-07", ""), ("r-07", "")]
    assert [row["Length (m)"] for row in rows] == ["390", "390.7"]  # one format, as the page's "390 m"
    assert [row["At risk"] for row in rows] == ["no", "no"]  # no forecast: not at risk, not blank


def test_links_sort_by_a_rack(client_for):
    fabric = FabricFactory(name="racks")
    spine = SwitchFactory(fabric=fabric, name="spine-a", tier=1)
    for rack in ("r-2", "r-1", "r-3"):
        LinkFactory(fabric=fabric, a_switch=SwitchFactory(fabric=fabric, tier=0, rack=rack), z_switch=spine)
    answer = client_for("viewer").get("/api/links/", {"fabric": fabric.pk, "ordering": "-a_switch__rack"})
    assert answer.status_code == 200, answer.content
    assert [row["a_rack"] for row in answer.json()["results"]] == ["r-3", "r-2", "r-1"]


def test_tickets_decisions_and_jobs_csv_name_the_fabric(client_for, small_fabric):
    disabled_ticket(small_fabric)
    Job.objects.create(kind="fabric.capacity_report", fabric=small_fabric, state=Job.State.SUCCEEDED)
    client = client_for("viewer")
    for endpoint in ("/api/tickets/", "/api/decisions/", "/api/jobs/"):
        rows = csv_rows(client.get(endpoint, {"fabric": small_fabric.pk, "format": "csv"}))
        assert rows and {row["Fabric"] for row in rows} == {small_fabric.name}, endpoint
