"""The CSV export follows the page (issue #20): `columns=` keeps the columns the person chose, in
the page's order, and refuses unknown ones naming them and the valid ones; the values are the
page's words (actions, kinds, progress), not codes."""

import pytest
from django.utils import timezone

from corruption import tickets
from corruption.tests.test_tickets import disabled_ticket
from jobs.models import Job
from jobs.registry import KINDS

from .test_list_export import csv_rows

pytestmark = pytest.mark.django_db


def header(response) -> list[str]:
    rows = csv_rows(response)
    return list(rows[0]) if rows else []


def test_tickets_csv_has_the_chosen_columns_in_the_pages_order(client_for, small_fabric):
    disabled_ticket(small_fabric)
    client = client_for("viewer")
    every = header(client.get("/api/tickets/", {"format": "csv"}))
    assert len(every) == 14  # without columns=: every column, as scripts expect

    chosen = client.get("/api/tickets/", {"format": "csv", "columns": "id,state,link,fabric"})
    # "Fabric / pod" on the page is two CSV columns; nothing the page hides comes along.
    assert header(chosen) == ["Ticket", "State", "Link", "Fabric", "Pod"]
    repeated = client.get("/api/tickets/?format=csv&columns=state&columns=id")
    assert header(repeated) == ["State", "Ticket"]


def test_an_unknown_column_is_a_400_naming_it_and_the_valid_ones_with_every_other_problem(client_for, db):
    response = client_for("viewer").get(
        "/api/tickets/", {"format": "csv", "columns": "id,colour,smell", "state": "sleeping"}
    )
    assert response.status_code == 400
    body = response.json()
    assert set(body) == {"columns", "state"}
    message = body["columns"][0]
    assert "colour, smell" in message
    assert "id, kind, fabric, link" in message  # the valid keys, in the page's terms


def test_links_a_end_is_the_link_its_switch_and_port(client_for, small_fabric):
    rows = csv_rows(
        client_for("viewer").get(
            "/api/links/", {"fabric": small_fabric.pk, "format": "csv", "columns": "health,a_end", "limit": 1}
        )
    )
    assert list(rows[0]) == ["Health", "Rx low", "Link", "A switch", "A port"]


def test_every_list_names_its_columns_by_the_pages_keys(client_for, small_fabric):
    disabled_ticket(small_fabric)
    Job.objects.create(kind="fabric.capacity_report", fabric=small_fabric, state=Job.State.SUCCEEDED)
    client = client_for("admin")
    pages = {
        # The keys of each page's columns that have something to export (frontend's *Columns.tsx).
        "/api/links/": "fabric,a_end,z_end,a_rack,z_rack,health,at_risk,length,speed,fiber,admin_state,oper_state",
        "/api/tickets/": "id,link,kind,state,recommended,penalty,fabric,assignee,created",
        "/api/decisions/": "created,action,link,penalty,affected,blocking_tor",
        "/api/jobs/": "id,kind,fabric,state,progress,message,error,created,finished",
        "/api/audit/": "time,who,action,object_type,object,change,note",
    }
    for endpoint, keys in pages.items():
        response = client.get(endpoint, {"format": "csv", "columns": keys})
        assert response.status_code == 200, (endpoint, response.content)


def test_csv_values_are_the_pages_words(client_for, small_fabric, make_user):
    ticket = disabled_ticket(small_fabric)
    technician = make_user("technician")
    tickets.start(ticket, technician)
    tickets.record_action(ticket, technician, "reseat_transceiver", now=timezone.now())
    Job.objects.create(
        kind="corruption.optimize", fabric=small_fabric, state=Job.State.SUCCEEDED, progress=1.0, message=""
    )
    client = client_for("viewer")

    (row,) = csv_rows(client.get("/api/tickets/", {"format": "csv", "columns": "recommended,id"}))
    assert row["Recommended action"] and "_" not in row["Recommended action"]
    (row,) = csv_rows(client.get("/api/tickets/", {"format": "csv"}))
    assert row["Action taken"] == "Reseated transceiver"  # not reseat_transceiver
    assert row["Direction"] in {"A → Z", "Z → A"} and row["State"] == "awaiting validation"

    (job,) = csv_rows(client.get("/api/jobs/", {"format": "csv", "kind": "corruption.optimize"}))
    assert job["Kind"] == "CorrOpt optimization" and job["Progress"] == "100%"

    decisions = csv_rows(client.get("/api/decisions/", {"format": "csv"}))
    assert {row["By"] for row in decisions} == {"fast checker"}  # the decision log's casing
    assert "→" in decisions[0]["ToRs below: capacity before → after"]


def test_every_job_kind_has_a_title_in_the_api(client_for, db):
    kinds = client_for("viewer").get("/api/jobs/kinds/").json()
    assert {kind["name"] for kind in kinds} == set(KINDS)
    assert all(kind["title"] and "." not in kind["title"] for kind in kinds)
    job = Job.objects.create(kind="rail.plan")
    answer = client_for("viewer").get(f"/api/jobs/{job.pk}/").json()
    assert answer["kind"] == "rail.plan" and answer["kind_title"] == "RAIL stretch plan"
