"""GET /api/link-forecasts/ (issue #19): every forecast of a fabric as one list, soonest crossing
first, each row the forecast endpoint's `forecast` with the link's name and both ends (racks
included), so the At risk page and `lightpath links at-risk` read a page in one request. The rows
are made here as derivation writes them (test_forecast_derivation.py makes them from telemetry)."""

import functools
import itertools

import pytest
from django.utils import timezone

from accounts.roles import ROLES
from fabric.models import Link
from fabric.tests.factories import FabricFactory, LinkFactory, SwitchFactory
from lightpath.tests.api_base import ReadOnlyAPIViewTestBase
from telemetry.models import LinkForecast
from telemetry.services.forecasts import CORRUPTION_REASON
from telemetry.tests.factories import forecast_row

pytestmark = pytest.mark.django_db

NOW = timezone.now().replace(microsecond=0)
ENDPOINT = "/api/link-forecasts/"
_ports = itertools.count()


# Forecast rows as derivation writes them, made NOW.
forecast = functools.partial(forecast_row, now=NOW)


def a_link(fabric, tor, agg):
    port = next(_ports)
    return LinkFactory(fabric=fabric, a_switch=tor, z_switch=agg, a_port=f"eth{port}", z_port=f"e{port}")


class TestLinkForecastAPI(ReadOnlyAPIViewTestBase):
    endpoint = ENDPOINT
    brief_fields = None  # a row is small; ?brief=1 answers it whole

    @pytest.fixture(autouse=True)
    def _fabric(self, db):
        self.fabric = FabricFactory()
        self.tor = SwitchFactory(fabric=self.fabric, tier=0, rack="R1")
        self.agg = SwitchFactory(fabric=self.fabric, tier=1, rack="R9")

    def row_id(self, row):
        return row["link"]["id"]

    def make_objects(self, count):
        start = LinkForecast.objects.count()
        return [forecast(a_link(self.fabric, self.tor, self.agg), days=1 + start + i) for i in range(count)]

    def filter_cases(self, objects):
        other = FabricFactory()
        elsewhere = forecast(
            LinkFactory(fabric=other), days=3, cause="bent_fiber", at_risk=False, confidence=0.3, cause_side=None
        )
        LinkForecast.objects.filter(pk=objects[2].pk).update(cause="decaying_transmitter", side="a", quantity="tx")
        return [
            ({"fabric": self.fabric.pk}, objects),
            ({"fabric": other.pk}, [elsewhere]),
            ({"at_risk": "true"}, objects),
            ({"at_risk": "false"}, [elsewhere]),
            ({"cause": "contamination"}, objects[:2]),
            ({"cause": ["decaying_transmitter", "bent_fiber"]}, [objects[2], elsewhere]),  # repeated: OR
            ({"link": objects[1].pk}, objects[1:2]),
            ({"crossing_within_days": "2.5"}, objects[:2]),  # 1 and 2 days from now
            ({"crossing_within_days": "3.5", "fabric": other.pk}, [elsewhere]),
            ({"confidence__lt": 0.5}, [elsewhere]),
            ({"quantity": "tx"}, objects[2:]),
        ]


@pytest.fixture
def fleet():
    """Fabric 'optics' (7-day horizon): contamination in 2 days (90%), a decaying transmitter in 5
    days (95%), another contamination in 5 days (60%), a bent fiber in 20 days (not at risk), and a
    link with no forecast."""
    fabric = FabricFactory(name="optics", forecast_horizon_days=7, forecast_min_confidence=0.8)
    tor = SwitchFactory(fabric=fabric, name="p0-tor1", tier=0, rack="R12")
    agg = SwitchFactory(fabric=fabric, name="p0-fab0", tier=1, rack="")
    links = [LinkFactory(fabric=fabric, a_switch=tor, z_switch=agg, a_port=f"eth{i}", z_port=f"e{i}") for i in range(5)]
    forecast(links[0], days=2)
    forecast(links[1], days=5, cause="decaying_transmitter", side="a", quantity="tx", cause_side="a", confidence=0.95)
    forecast(links[2], days=5, confidence=0.6, at_risk=False)
    forecast(links[3], days=20, cause="bent_fiber", at_risk=False, confidence=0.3, cause_side=None)
    return links


def rows(client, **query) -> list[dict]:
    response = client.get(ENDPOINT, {"limit": 1000, **query})
    assert response.status_code == 200, response.content
    return response.json()["results"]


def ids(client, **query) -> list[int]:
    return [row["link"]["id"] for row in rows(client, **query)]


def test_a_row_is_the_forecast_endpoints_forecast_with_the_link_and_both_ends(client_for, fleet):
    viewer = client_for("viewer")
    first = rows(viewer, fabric=fleet[0].fabric_id)[0]
    assert first["link"] == {
        "id": fleet[0].pk,
        "name": "p0-tor1:eth0 - p0-fab0:e0",
        "a": {"switch": "p0-tor1", "port": "eth0", "rack": "R12"},
        "z": {"switch": "p0-fab0", "port": "e0", "rack": None},  # a switch without a rack
    }
    alone = viewer.get(f"/api/links/{fleet[0].pk}/forecast/").json()["forecast"]
    assert {key: value for key, value in first.items() if key not in ("link", "ticket")} == alone
    assert first["recommended_action_label"] == "Clean the connectors, p0-fab0:e0 (end Z) first"
    assert viewer.get(f"{ENDPOINT}{fleet[1].pk}/").json()["cause_label"] == "decaying transmitter"
    assert viewer.get(f"{ENDPOINT}{fleet[4].pk}/").status_code == 404  # no forecast, no row


def test_a_row_names_the_links_unresolved_ticket(client_for, fleet, django_assert_num_queries):
    """So the At risk page shows "Preventive ticket #6 (open)" instead of offering another (trial 27
    item 5), and planners and viewers see which at-risk links are already handled."""
    from corruption import preventive
    from corruption.models import Ticket

    viewer = client_for("viewer")
    fabric = fleet[0].fabric_id
    assert [row["ticket"] for row in rows(viewer, fabric=fabric)] == [None] * 4
    opened = preventive.open_preventive(fleet[0].pk, None)
    resolved = preventive.open_preventive(fleet[1].pk, None)
    Ticket.objects.filter(pk=resolved.pk).update(state="resolved", resolved_at=NOW)
    Ticket.objects.filter(pk=opened.pk).update(state="awaiting_validation")
    with django_assert_num_queries(3):  # the fabric filter's, the count and the page: none per row
        listed = rows(viewer, fabric=fabric)
    assert [row["ticket"] for row in listed] == [
        {"id": opened.pk, "kind": "preventive", "state": "awaiting_validation"},
        None,  # resolved: nothing in hand
        None,
        None,
    ]
    assert viewer.get(f"{ENDPOINT}{fleet[0].pk}/").json()["ticket"]["id"] == opened.pk


def test_soonest_crossing_first_or_surest_first(client_for, fleet):
    viewer = client_for("viewer")
    fabric = fleet[0].fabric_id
    # Ties at 5 days stay in link order, page after page.
    assert ids(viewer, fabric=fabric) == [fleet[0].pk, fleet[1].pk, fleet[2].pk, fleet[3].pk]
    assert ids(viewer, fabric=fabric, ordering="-crossing_at") == [fleet[3].pk, fleet[1].pk, fleet[2].pk, fleet[0].pk]
    assert ids(viewer, fabric=fabric, ordering="-confidence") == [fleet[1].pk, fleet[0].pk, fleet[2].pk, fleet[3].pk]
    # Paged on the server: the second page of two starts where the first ended.
    first = viewer.get(ENDPOINT, {"fabric": fabric, "limit": 2}).json()
    second = viewer.get(ENDPOINT, {"fabric": fabric, "limit": 2, "offset": 2}).json()
    assert first["count"] == second["count"] == 4
    assert [row["link"]["id"] for row in first["results"] + second["results"]] == ids(viewer, fabric=fabric)


def test_the_at_risk_page_query(client_for, fleet):
    """What the At risk page asks: the fabric's at-risk links, by cause and within a horizon."""
    viewer = client_for("viewer")
    fabric = fleet[0].fabric_id
    assert ids(viewer, fabric=fabric, at_risk="true") == [fleet[0].pk, fleet[1].pk]
    assert ids(viewer, fabric=fabric, at_risk="true", cause="contamination") == [fleet[0].pk]
    assert ids(viewer, fabric=fabric, at_risk="true", crossing_within_days="3") == [fleet[0].pk]
    # What the CLI's --horizon-days asks: every forecast crossing within it, at risk or not.
    assert ids(viewer, fabric=fabric, crossing_within_days="30", cause="bent_fiber") == [fleet[3].pk]


def test_failed_links_are_filtered_by_failed(client_for, fleet):
    """A link that failed (corrupting, or out of service for corruption) keeps its last forecast row,
    but `failed=false` (what the CLI's --horizon-days asks) leaves it out: it belongs to its ticket
    (trial 30: the CLI listed failed links as crossing "now" with a cause and advice)."""
    viewer = client_for("viewer")
    fabric = fleet[0].fabric_id
    Link.objects.filter(pk=fleet[1].pk).update(health=Link.Health.CORRUPTING)
    Link.objects.filter(pk=fleet[3].pk).update(admin_state=Link.AdminState.DISABLED, admin_reason=CORRUPTION_REASON)
    within = {"fabric": fabric, "crossing_within_days": "30"}
    assert ids(viewer, **within) == [fleet[0].pk, fleet[1].pk, fleet[2].pk, fleet[3].pk]
    assert ids(viewer, **within, failed="false") == [fleet[0].pk, fleet[2].pk]
    assert ids(viewer, **within, failed="true") == [fleet[1].pk, fleet[3].pk]
    assert ids(viewer, fabric=fabric, at_risk="true") == [fleet[0].pk]  # at risk never counts a failed link
    bad = viewer.get(ENDPOINT, {"failed": "perhaps"})
    assert bad.status_code == 400 and set(bad.json()) == {"failed"}


def test_every_role_reads_the_list_and_no_one_writes_it(client_for, anonymous, fleet):
    for role in ROLES:
        assert ids(client_for(role), at_risk="true") == [fleet[0].pk, fleet[1].pk], role
    assert anonymous.get(ENDPOINT).status_code == 401
    assert client_for(None).get(ENDPOINT).status_code == 403
    assert client_for("admin").post(ENDPOINT, {"link": fleet[4].pk}, format="json").status_code == 405


def test_bad_filters_are_one_400_listing_every_problem(client_for, fleet):
    viewer = client_for("viewer")
    response = viewer.get(
        ENDPOINT,
        {
            "at_risk": "maybe",
            "cause": ["contamination", "rust"],
            "crossing_within_days": "soon",
            "fabric": "optics",
            "link": "x",
        },
    )
    assert response.status_code == 400
    problems = response.json()
    assert set(problems) == {"at_risk", "cause", "crossing_within_days", "fabric", "link"}, problems
    assert "rust" in str(problems["cause"]) and "maybe" in str(problems["at_risk"])
    for value in ("-1", "nan", "inf", "366"):
        response = viewer.get(ENDPOINT, {"crossing_within_days": value})
        assert response.status_code == 400 and set(response.json()) == {"crossing_within_days"}, value


def test_a_link_already_failed_is_not_at_risk_anywhere(client_for, fleet):
    """Trial 28 item 11: a link corrupting (in service, kept for capacity) or out of service for
    corruption belongs to its repair ticket; the At risk page, the Links list's 'At risk only', the
    count, the link's forecast and preventive tickets agree that it is not "at risk at its limit now".
    A link out of service for maintenance is still at risk (its preventive repair is the visit)."""
    from rest_framework.exceptions import ValidationError

    from corruption import preventive
    from fabric.models import Link

    viewer = client_for("viewer")
    fabric = fleet[0].fabric_id
    corrupting, out_for_corruption = fleet[0], fleet[1]
    Link.objects.filter(pk=corrupting.pk).update(health="corrupting")
    Link.objects.filter(pk=out_for_corruption.pk).update(admin_state="disabled", admin_reason="corruption")
    assert ids(viewer, fabric=fabric, at_risk="true") == []
    assert viewer.get(ENDPOINT, {"fabric": fabric, "at_risk": "true", "limit": 1}).json()["count"] == 0
    assert set(ids(viewer, fabric=fabric, at_risk="false")) == {link.pk for link in fleet[:4]}
    assert [row["at_risk"] for row in rows(viewer, fabric=fabric)] == [False] * 4
    links = viewer.get("/api/links/", {"fabric": fabric, "at_risk": "true"}).json()
    assert links["count"] == 0
    shown = viewer.get(f"/api/links/{corrupting.pk}/").json()["forecast"]
    assert shown["at_risk"] is False and shown["computed_at"] is not None
    assert viewer.get(f"/api/links/{corrupting.pk}/forecast/").json()["forecast"]["at_risk"] is False
    with pytest.raises(ValidationError, match="already failed"):
        preventive.open_preventive(corrupting.pk, None)
    fabric_row = corrupting.fabric
    fabric_row.auto_preventive_tickets = True
    fabric_row.save()
    assert preventive.auto_open(fabric_row, [corrupting.pk, out_for_corruption.pk]) == []

    # Back in service and clean: at risk again, everywhere.
    Link.objects.filter(pk=corrupting.pk).update(health="clean")
    Link.objects.filter(pk=out_for_corruption.pk).update(admin_state="disabled", admin_reason="maintenance")
    assert ids(viewer, fabric=fabric, at_risk="true") == [corrupting.pk, out_for_corruption.pk]
    listed = viewer.get("/api/links/", {"fabric": fabric, "at_risk": "true", "ordering": "id"}).json()["results"]
    assert [(row["id"], row["forecast"]["at_risk"]) for row in listed] == [
        (corrupting.pk, True),
        (out_for_corruption.pk, True),
    ]


def test_a_falling_transmitter_is_acted_on_at_its_own_end(client_for, fleet):
    """Trial 28 item 11 (link 76): the crossing reading is A's Tx, whatever end the cause names, so
    the advice names end A: a far end's connectors do not lower a transmitter's output."""
    LinkForecast.objects.filter(link=fleet[0]).update(side="a", quantity="tx", cause_side="z")
    row = rows(client_for("viewer"), link=fleet[0].pk)[0]
    assert row["recommended_action_label"] == "Clean the connectors, p0-tor1:eth0 (end A) first"
