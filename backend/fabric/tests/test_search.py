"""The header's search, GET /api/search/ (issue #20, "Find"): every kind of object a user types,
the answer's grouping and paths, the 400s and who may search."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.roles import ROLES
from corruption.models import Ticket
from fabric import services as fabric_services
from fabric.models import Link, Switch, Transceiver
from fabric.services import search
from fabric.tests.factories import FabricFactory, SwitchFactory
from jobs.models import Job
from lightpath.tests.api_base import EndpointTestBase

URL = "/api/search/"


@pytest.fixture
def racked_fabric(db, small_document):
    for switch in small_document["switches"]:
        if switch["tier"] == 0:
            switch["rack"] = f"r-{switch['name']}"
    small_document["switches"][3]["rack"] = "r-t0"  # f0 shares t0's rack
    fabric = fabric_services.import_document(small_document)
    Transceiver.objects.filter(link__a_switch__name="t0", link__a_port="up0", side="a").update(serial="SN-ABC-0042")
    return fabric


@pytest.fixture
def viewer(client_for):
    return client_for("viewer")


def groups(client, **params) -> dict[str, list[dict]]:
    response = client.get(URL, params)
    assert response.status_code == 200, response.content
    return {group["kind"]: group["hits"] for group in response.json()["groups"]}


def labels(found: dict, kind: str) -> list[str]:
    return [hit["label"] for hit in found.get(kind, [])]


def test_a_switch_by_part_of_its_name_opens_its_page(viewer, racked_fabric):
    found = groups(viewer, q="T0")
    t0 = Switch.objects.get(fabric=racked_fabric, name="t0")
    assert found["switch"][0] == {
        "label": "t0",
        "subtitle": f"{racked_fabric.name} · tor · rack r-t0 · pod 0",
        "path": f"/switches/{t0.pk}",
    }
    assert labels(groups(viewer, q="f"), "switch") == ["f0", "f1", "f2", "f3"]


def test_a_drained_switch_says_so(viewer, racked_fabric, make_user):
    s0 = Switch.objects.get(fabric=racked_fabric, name="s0")
    fabric_services.link_state.drain_switch(s0, make_user("operator"), override=True)
    assert groups(viewer, q="s0")["switch"][0]["subtitle"].endswith("· drained")


def test_ports_by_switch_and_port_or_by_port_alone(viewer, racked_fabric):
    link = Link.objects.get(a_switch__name="t1", a_port="up1")
    assert groups(viewer, q="t1:up1")["port"] == [
        {
            "label": "t1:up1",
            "subtitle": f"to f1:d1 · {racked_fabric.name} · unknown · in service · racks r-t1 / —",
            "path": f"/links/{link.pk}",
        }
    ]
    assert labels(groups(viewer, q="up1"), "port") == ["t0:up1", "t1:up1", "t2:up1"]
    # The far end's port, listed as that switch's
    assert labels(groups(viewer, q="s1:p2"), "port") == ["s1:p2"]


def test_links_by_both_names_either_way_round_or_by_id(viewer, racked_fabric):
    link = Link.objects.get(a_switch__name="f0", z_switch__name="s1")
    for q in ("f0 - s1", "s1 - f0", "S1 \u2013 F0"):
        assert groups(viewer, q=q)["link"] == [
            {
                "label": "f0:u1 - s1:p0",
                "subtitle": f"{racked_fabric.name} · unknown · in service · racks r-t0 / —",
                "path": f"/links/{link.pk}",
            }
        ]
    assert labels(groups(viewer, q=str(link.pk)), "link") == ["f0:u1 - s1:p0"]
    assert labels(groups(viewer, q=f"link {link.pk}"), "link") == ["f0:u1 - s1:p0"]


def test_a_transceiver_by_part_of_its_serial(viewer, racked_fabric):
    link = Link.objects.get(a_switch__name="t0", a_port="up0")
    assert groups(viewer, q="abc-00")["transceiver"] == [
        {
            "label": "SN-ABC-0042",
            "subtitle": f"100G-SR4 in t0:up0 · {racked_fabric.name} · rack r-t0",
            "path": f"/links/{link.pk}",
        }
    ]


def test_under_three_characters_a_name_or_rack_must_start_with_them(viewer, racked_fabric):
    assert labels(groups(viewer, q="t"), "switch") == ["t0", "t1", "t2"]
    assert "switch" not in groups(viewer, q="0")  # t0, f0 and s0 hold it, none starts with it
    assert labels(groups(viewer, q="r-"), "rack") == ["rack r-t0", "rack r-t1", "rack r-t2"]
    assert "transceiver" not in groups(viewer, q="SN")  # serials: 3 characters at least
    assert labels(groups(viewer, q="SN-"), "transceiver") == ["SN-ABC-0042"]


def test_racks_once_each_with_their_page(viewer, racked_fabric):
    found = groups(viewer, q="r-t")
    assert labels(found, "rack") == ["rack r-t0", "rack r-t1", "rack r-t2"]
    assert found["rack"][0]["path"] == f"/fabrics/{racked_fabric.pk}/racks/r-t0"


def test_tickets_by_number_in_every_spelling(viewer, racked_fabric):
    link = Link.objects.get(a_switch__name="t2", a_port="up0")
    ticket = Ticket.objects.create(fabric=racked_fabric, link=link, kind="preventive", direction="z_to_a")
    for q in (f"#{ticket.pk}", str(ticket.pk), f"ticket {ticket.pk}", f"Ticket #{ticket.pk}"):
        hits = groups(viewer, q=q)["ticket"]
        assert hits == [
            {
                "label": f"Ticket #{ticket.pk}",
                "subtitle": f"open · preventive · t2:up0 - f2:d0 · {racked_fabric.name}",
                "path": f"/tickets/{ticket.pk}",
            }
        ]
    assert "ticket" not in groups(viewer, q=f"job {ticket.pk}")


def test_a_bare_number_lists_the_ticket_first_then_the_job_then_the_link(viewer, racked_fabric):
    # One number that is a link's, a ticket's and a job's at once.
    link = Link.objects.get(a_switch__name="t2", a_port="up0")
    Ticket.objects.create(pk=link.pk, fabric=racked_fabric, link=link, kind="preventive", direction="z_to_a")
    Job.objects.create(pk=link.pk, kind="fabric.import")
    for q in (f"#{link.pk}", str(link.pk)):
        response = viewer.get(URL, {"q": q})
        assert [group["kind"] for group in response.json()["groups"]] == ["ticket", "job", "link"]
    assert [group["kind"] for group in viewer.get(URL, {"q": f"link {link.pk}"}).json()["groups"]] == ["link"]


def test_jobs_by_number_or_kind_open_their_page(viewer, racked_fabric):
    job = Job.objects.create(kind="corruption.simulate", fabric=racked_fabric)
    other = Job.objects.create(kind="fabric.import")
    assert groups(viewer, q=f"job {job.pk}")["job"][0]["path"] == f"/simulations/{job.pk}"
    found = groups(viewer, q="corruption.sim")["job"]
    # Named as the Jobs page names the kind, not by its code.
    assert [hit["label"] for hit in found] == [f"Job #{job.pk} · CorrOpt what-if simulation"]
    assert [hit["label"] for hit in groups(viewer, q="what-if")["job"]] == [
        f"Job #{job.pk} · CorrOpt what-if simulation"
    ]
    assert found[0]["subtitle"].startswith(f"queued · {racked_fabric.name} · ")
    assert groups(viewer, q=f"#{other.pk}")["job"][0]["path"] == "/jobs"  # a kind without a page of its own


def test_fabric_narrows_every_kind(viewer, racked_fabric, small_document):
    small_document["name"] = "second"
    second = fabric_services.import_document(small_document)
    assert len(groups(viewer, q="t0")["switch"]) == 2
    only = groups(viewer, q="t0", fabric=second.pk)
    assert [hit["path"] for hit in only["switch"]] == [f"/switches/{Switch.objects.get(fabric=second, name='t0').pk}"]
    assert all(second.name in hit["subtitle"] for hits in only.values() for hit in hits)


def test_at_most_limit_hits_per_kind_and_more_says_there_are_others(viewer, racked_fabric):
    response = viewer.get(URL, {"q": "f", "limit": 2})
    switches = next(group for group in response.json()["groups"] if group["kind"] == "switch")
    assert [hit["label"] for hit in switches["hits"]] == ["f0", "f1"]
    assert switches["more"] is True
    assert next(g for g in viewer.get(URL, {"q": "f0"}).json()["groups"] if g["kind"] == "switch")["more"] is False


def test_nothing_found_is_an_empty_answer(viewer, racked_fabric):
    assert viewer.get(URL, {"q": "no-such-thing"}).json() == {"query": "no-such-thing", "groups": []}


@pytest.mark.parametrize(
    ("params", "problems"),
    [
        ({}, {"q": ["type what to find: a switch, port, link, serial, rack, ticket or job"]}),
        ({"q": "   "}, {"q": ["type what to find: a switch, port, link, serial, rack, ticket or job"]}),
        ({"q": "x" * 101}, {"q": ["at most 100 characters, got 101"]}),
        (
            {"q": "", "limit": "0", "fabric": "nope"},
            {
                "q": ["type what to find: a switch, port, link, serial, rack, ticket or job"],
                "limit": ["a whole number from 1 to 20, got '0'"],
                "fabric": ["no fabric with id 'nope'"],
            },
        ),
        ({"q": "t0", "fabric": "999999"}, {"fabric": ["no fabric with id '999999'"]}),
        ({"q": "t0", "limit": "many"}, {"limit": ["a whole number from 1 to 20, got 'many'"]}),
        ({"q": "99999999999999999999"}, None),  # a number beyond any id finds nothing, no 500
    ],
)
def test_bad_input_is_a_400_naming_every_problem(viewer, racked_fabric, params, problems):
    response = viewer.get(URL, params)
    if problems is None:
        assert response.status_code == 200
        return
    assert response.status_code == 400
    assert response.json() == problems


def test_every_role_may_search(client_for, racked_fabric):
    for role in ROLES:
        assert client_for(role).get(URL, {"q": "t0"}).status_code == 200, role


class TestSearchEndpoint(EndpointTestBase):
    """The generic base's refusals (anonymous 401, no role 403, writes 405) and the query count.
    A search has no detail URL: a query stands in for one."""

    endpoint = URL
    brief_fields = None

    def make_objects(self, count: int) -> list:
        fabric = FabricFactory()
        return [SwitchFactory(fabric=fabric, name=f"found-{n}") for n in range(count)]

    def detail_url(self, obj) -> str:
        return f"{URL}?q={obj.name}"

    def test_query_count_is_one_per_kind_whatever_it_finds(self, viewer, racked_fabric, request, small_document):
        small_document["name"] = "second"
        fabric_services.import_document(small_document)
        Ticket.objects.create(
            fabric=racked_fabric,
            link=Link.objects.get(fabric=racked_fabric, a_switch__name="t0", a_port="up0"),
            kind="preventive",
            direction="a_to_z",
        )
        with CaptureQueriesContext(connection) as queries:
            response = viewer.get(URL, {"q": "up0"})
        assert response.status_code == 200
        assert [group["kind"] for group in response.json()["groups"]] == ["port"]
        self.check_queries(request, "GET /api/search/", queries)


def test_clean_query_collapses_spaces():
    assert search.clean_query("  t0   -  s1 ", None) == ("t0 - s1", search.DEFAULT_PER_KIND)
