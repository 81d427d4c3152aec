"""Optics at risk through the API (issue #19): `GET /api/links/?at_risk=true` with `risk_cause` and
`crossing_within_days`, the brief `forecast` of every link row, and `GET /api/links/{id}/forecast/`
with the cause in words and what to do where. The rows are made here as derivation writes them
(test_forecast_derivation.py makes them from telemetry)."""

import datetime as dt
import functools

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.roles import ROLES
from corruption.models import Decision, Ticket
from fabric.models import Fabric, Link
from fabric.tests.factories import FabricFactory, LinkFactory, SwitchFactory
from lightpath.tests import query_counts
from lightpath.tests.test_openapi_contract import Contract, _document
from telemetry.models import DirectionHealth, LinkForecast
from telemetry.tests.factories import forecast_row

pytestmark = pytest.mark.django_db

NOW = timezone.now().replace(microsecond=0)


# Forecast rows as derivation writes them, made NOW.
forecast = functools.partial(forecast_row, now=NOW)


@pytest.fixture
def links():
    """Five links of one fabric: contamination in 2 days, decaying transmitter in 5, a bent fiber
    forecast in 20 days (not at risk), and two links with no forecast."""
    fabric = FabricFactory(forecast_horizon_days=7, forecast_min_confidence=0.8)
    tor = SwitchFactory(fabric=fabric, name="p0-tor1", tier=0, rack="R12")
    agg = SwitchFactory(fabric=fabric, name="p0-fab0", tier=1, rack="")
    made = [LinkFactory(fabric=fabric, a_switch=tor, z_switch=agg, a_port=f"eth{i}", z_port=f"e{i}") for i in range(5)]
    forecast(made[0], days=2, cause="contamination")
    forecast(made[1], days=5, cause="decaying_transmitter", side="a", quantity="tx", cause_side="a", lane=0)
    forecast(made[2], days=20, cause="bent_fiber", at_risk=False, confidence=0.3, cause_side=None)
    return made


def listed(client, **query) -> list[int]:
    response = client.get("/api/links/", {**query, "limit": 1000})
    assert response.status_code == 200, response.content
    return [row["id"] for row in response.json()["results"]]


def test_at_risk_lists_only_the_links_forecast_to_cross_within_the_horizon(client_for, links):
    viewer = client_for("viewer")
    fabric = links[0].fabric_id
    assert listed(viewer, fabric=fabric, at_risk="true") == [links[0].pk, links[1].pk]
    assert listed(viewer, fabric=fabric, at_risk="false") == [links[2].pk, links[3].pk, links[4].pk]
    # by cause, a repeated cause meaning either
    assert listed(viewer, fabric=fabric, at_risk="true", risk_cause="contamination") == [links[0].pk]
    assert listed(viewer, fabric=fabric, risk_cause=["decaying_transmitter", "bent_fiber"]) == [
        links[1].pk,
        links[2].pk,
    ]
    # by time to crossing, from now: 3 days takes the 2-day link only; 30 days every forecast
    assert listed(viewer, fabric=fabric, crossing_within_days="3") == [links[0].pk]
    assert listed(viewer, fabric=fabric, crossing_within_days="5.5", at_risk="true") == [links[0].pk, links[1].pk]
    assert listed(viewer, fabric=fabric, crossing_within_days="30") == [links[0].pk, links[1].pk, links[2].pk]


def test_each_link_row_carries_its_forecast_in_brief_or_null(client_for, links):
    viewer = client_for("viewer")
    rows = {row["id"]: row for row in viewer.get("/api/links/", {"fabric": links[0].fabric_id}).json()["results"]}
    first = rows[links[0].pk]["forecast"]
    crossing = NOW + dt.timedelta(days=2)
    assert first == {
        "at_risk": True,
        # When it was made and the interval: the Links list words the crossing as the At risk page does.
        "computed_at": NOW.isoformat().replace("+00:00", "Z"),
        "crossing_at": crossing.isoformat().replace("+00:00", "Z"),
        "earliest_at": (crossing - dt.timedelta(days=1)).isoformat().replace("+00:00", "Z"),
        "latest_at": (crossing + dt.timedelta(days=2)).isoformat().replace("+00:00", "Z"),
        "cause": "contamination",
        "confidence": 0.9,
    }
    assert rows[links[2].pk]["forecast"]["at_risk"] is False
    assert rows[links[3].pk]["forecast"] is None
    assert viewer.get(f"/api/links/{links[1].pk}/").json()["forecast"]["cause"] == "decaying_transmitter"


def test_forecast_endpoint_names_the_cause_the_end_and_what_to_do(client_for, links):
    viewer = client_for("viewer")
    body = viewer.get(f"/api/links/{links[0].pk}/forecast/").json()
    assert body["link"] == links[0].pk and body["horizon_days"] == 7 and body["min_confidence"] == 0.8
    shown = body["forecast"]
    assert shown["cause"] == "contamination" and shown["cause_label"] == "contamination"
    assert shown["side"] == "z" and shown["end"] == {"switch": "p0-fab0", "port": "e0", "rack": None}
    assert shown["quantity"] == "rx" and shown["lane"] == 2
    assert shown["level_dbm"] == -9.1 and shown["slope_db_per_day"] == -0.45
    assert shown["limit_dbm"] == -11.9 and shown["limit_provenance"] == "catalog"
    assert shown["recommended_action"] == "clean_fiber"
    assert shown["recommended_action_label"] == "Clean the connectors, p0-fab0:e0 (end Z) first"
    assert shown["earliest_at"] < shown["crossing_at"] < shown["latest_at"]

    transmitter = viewer.get(f"/api/links/{links[1].pk}/forecast/").json()["forecast"]
    assert transmitter["cause_label"] == "decaying transmitter"
    assert transmitter["end"] == {"switch": "p0-tor1", "port": "eth1", "rack": "R12"}
    assert transmitter["recommended_action"] == "replace_transceiver"
    assert transmitter["recommended_action_label"] == "Replace the transceiver at p0-tor1:eth1 (end A)"

    bent = viewer.get(f"/api/links/{links[2].pk}/forecast/").json()["forecast"]
    assert (bent["cause_label"], bent["recommended_action"], bent["cause_side"]) == (
        "bent or damaged fiber",
        "replace_cable",
        None,
    )

    # A link with no forecast: null, with the fabric's settings all the same.
    Fabric.objects.filter(pk=links[0].fabric_id).update(forecast_horizon_days=14, forecast_min_confidence=0.9)
    assert viewer.get(f"/api/links/{links[3].pk}/forecast/").json() == {
        "link": links[3].pk,
        "horizon_days": 14,
        "min_confidence": 0.9,
        "forecast": None,
        "failed": None,
    }
    assert viewer.get("/api/links/987654321/forecast/").status_code == 404


def test_a_failed_links_forecast_says_it_failed_and_which_ticket_owns_it(client_for, links):
    """Trial 29 item 3 (demo link 76: Tx 5 dB under its limit, out of service with a repair ticket)
    read 'not at risk' with 'inspect both ends': a failed link is not at risk, and the answer says
    how it failed, since when and which ticket has it."""
    viewer = client_for("viewer")
    dirty = links[0]
    # Corrupting in service (CorrOpt keeps it for capacity), since its first corrupting direction.
    Link.objects.filter(pk=dirty.pk).update(health="corrupting")
    since = NOW - dt.timedelta(hours=3)
    DirectionHealth.objects.create(link=dirty, direction="a_to_z", health="corrupting", health_since=since)
    DirectionHealth.objects.create(link=dirty, direction="z_to_a", health="clean", health_since=NOW)
    body = viewer.get(f"/api/links/{dirty.pk}/forecast/").json()
    assert body["forecast"]["at_risk"] is False and body["forecast"]["cause"] == "contamination"
    assert body["failed"] == {"state": "corrupting", "since": since.isoformat().replace("+00:00", "Z"), "ticket": None}

    # Out of service for corruption, with its repair ticket: the ticket owns it.
    disabled_at = NOW - dt.timedelta(hours=1)
    Link.objects.filter(pk=dirty.pk).update(
        health="unknown", admin_state="disabled", admin_reason="corruption", admin_changed_at=disabled_at
    )
    opened_by = Decision.objects.create(
        fabric=dirty.fabric, link=dirty, kind="fast_checker", action="disabled", loss_rate_a_to_z=1e-4,
        penalty=1e-4, engine_ms=1.5,
    )  # fmt: skip
    ticket = Ticket.objects.create(fabric=dirty.fabric, link=dirty, direction="a_to_z", decision=opened_by)
    failed = viewer.get(f"/api/links/{dirty.pk}/forecast/").json()["failed"]
    assert failed == {
        "state": "disabled",
        "since": disabled_at.isoformat().replace("+00:00", "Z"),
        "ticket": {"id": ticket.pk, "kind": "repair", "state": "open"},
    }
    # Not on the at-risk list either, while a link disabled for maintenance stays on it.
    assert listed(viewer, fabric=dirty.fabric_id, at_risk="true") == [links[1].pk]
    Link.objects.filter(pk=links[1].pk).update(admin_state="disabled", admin_reason="maintenance")
    assert viewer.get(f"/api/links/{links[1].pk}/forecast/").json()["failed"] is None
    assert listed(viewer, fabric=dirty.fabric_id, at_risk="true") == [links[1].pk]


def test_every_role_reads_forecasts_and_no_one_else(client_for, anonymous, links):
    for role in ROLES:
        client = client_for(role)
        assert client.get(f"/api/links/{links[0].pk}/forecast/").status_code == 200, role
        assert listed(client, at_risk="true") == [links[0].pk, links[1].pk], role
    assert anonymous.get(f"/api/links/{links[0].pk}/forecast/").status_code == 401
    assert anonymous.get("/api/links/", {"at_risk": "true"}).status_code == 401
    assert client_for(None).get(f"/api/links/{links[0].pk}/forecast/").status_code == 403
    # read only: the forecast is derived, never written through the API
    assert client_for("admin").post(f"/api/links/{links[0].pk}/forecast/", {}, format="json").status_code == 405


def test_bad_filters_are_one_400_listing_every_problem(client_for, links):
    response = client_for("viewer").get(
        "/api/links/", {"at_risk": "maybe", "risk_cause": ["contamination", "rust"], "crossing_within_days": "soon"}
    )
    assert response.status_code == 400
    problems = response.json()
    assert set(problems) >= {"at_risk", "risk_cause", "crossing_within_days"}, problems
    assert "rust" in str(problems["risk_cause"])
    assert "maybe" in str(problems["at_risk"])
    for value in ("-1", "nan", "inf", "366"):
        response = client_for("viewer").get("/api/links/", {"crossing_within_days": value})
        assert response.status_code == 400 and "crossing_within_days" in response.json(), value


def test_forecasts_cost_no_query_per_row(client_for, links, request):
    viewer = client_for("viewer")
    fabric = links[0].fabric
    viewer.get("/api/links/", {"fabric": fabric.pk})  # warm up the user's roles
    with CaptureQueriesContext(connection) as few:
        viewer.get("/api/links/", {"fabric": fabric.pk, "limit": 100})
    for link in LinkFactory.create_batch(12, fabric=fabric):
        forecast(link, days=3, cause="unknown")
    with CaptureQueriesContext(connection) as many:
        assert len(viewer.get("/api/links/", {"fabric": fabric.pk, "limit": 100}).json()["results"]) == 17
    assert len(many) == len(few), [query["sql"] for query in many.captured_queries]
    with CaptureQueriesContext(connection) as queries:
        assert viewer.get(f"/api/links/{links[0].pk}/forecast/").status_code == 200
    query_counts.check("GET /api/links/{id}/forecast/ forecast", len(queries), request.node.nodeid)


def test_a_forecast_goes_with_its_link_and_its_fabric(client_for, links):
    gone = links[0].pk
    links[0].delete()
    assert not LinkForecast.objects.filter(link_id=gone).exists()
    assert LinkForecast.objects.count() == 2
    client_for("admin").delete(f"/api/fabrics/{links[1].fabric_id}/")
    assert LinkForecast.objects.count() == 0


def test_answers_match_the_openapi_document(client_for, links):
    """The UI's types are generated from the document: the link rows and the forecast answer,
    with and without a forecast, are what it says."""
    contract = Contract(_document())
    viewer = client_for("viewer")
    contract.check(viewer.get("/api/links/", {"at_risk": "true"}).json(), "/api/links/")
    contract.check(viewer.get(f"/api/links/{links[3].pk}/").json(), "/api/links/{id}/")
    for link in links[:4]:
        contract.check(viewer.get(f"/api/links/{link.pk}/forecast/").json(), "/api/links/{id}/forecast/")
    Link.objects.filter(pk=links[0].pk).update(admin_state="disabled", admin_reason="corruption")
    failed = viewer.get(f"/api/links/{links[0].pk}/forecast/").json()
    assert failed["failed"] is not None
    contract.check(failed, "/api/links/{id}/forecast/")
