"""/api/tickets/ as a technician's phone and an operator's script use it."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from corruption.models import Ticket
from fabric.models import Link

from .test_tickets import disabled_ticket

pytestmark = pytest.mark.django_db


@pytest.fixture
def ticket(small_fabric):
    return disabled_ticket(small_fabric)


class TestTicketAPI:
    def test_every_role_reads_the_ticket_with_both_ends_and_the_recommendation(self, ticket, client_for, every_role):
        response = client_for(every_role).get(f"/api/tickets/{ticket.pk}/")
        assert response.status_code == 200, response.content
        body = response.json()
        assert (body["state"], body["link_name"], body["pod"]) == ("open", "f0:u0 - s0:p0", 0)
        assert [(end["switch"], end["port"]) for end in body["ends"]] == [("f0", "u0"), ("s0", "p0")]
        assert body["recommendation"]["action"] == "clean_fiber"
        assert body["recommendation"]["evidence"]["has_optical_data"] is False
        assert [step["number"] for step in body["steps"]] == [1] and body["penalty"] == pytest.approx(1e-4)

    def test_a_technician_works_the_ticket_to_awaiting_validation(self, ticket, client_for):
        client = client_for("technician")
        started = client.post(f"/api/tickets/{ticket.pk}/start/")
        assert started.status_code == 200 and started.json()["state"] == "in_progress"
        acted = client.post(f"/api/tickets/{ticket.pk}/act/", {"action_taken": "clean_fiber", "notes": "dusty"})
        assert acted.status_code == 200, acted.content
        body = acted.json()
        assert body["state"] == "awaiting_validation" and body["link_enabled"] is True
        assert body["steps"][0]["action_taken"] == "clean_fiber" and body["steps"][0]["followed"] is True
        assert Link.objects.get(pk=ticket.link_id).admin_state == "enabled"
        commented = client.post(f"/api/tickets/{ticket.pk}/comment/", {"text": "will check tomorrow"})
        assert commented.status_code == 200 and commented.json()["comments"][0]["text"] == "will check tomorrow"

    @pytest.mark.parametrize("role", ["viewer", "planner", "collector"])
    def test_roles_that_do_not_repair_get_403_on_every_action(self, ticket, client_for, role):
        client = client_for(role)
        for path, data in (
            ("start", {}),
            ("act", {"action_taken": "clean_fiber"}),
            ("comment", {"text": "x"}),
            ("assign", {"username": None}),
        ):
            assert client.post(f"/api/tickets/{ticket.pk}/{path}/", data).status_code == 403
        assert Ticket.objects.get(pk=ticket.pk).state == "open"

    def test_an_operator_assigns_it_to_a_technician(self, ticket, client_for, make_user):
        make_user("technician", username="ana")
        response = client_for("operator").post(f"/api/tickets/{ticket.pk}/assign/", {"username": "ana"})
        assert response.status_code == 200 and response.json()["assignee"] == "ana"

    def test_bad_input_is_a_400_listing_every_problem(self, ticket, client_for):
        client = client_for("technician")
        client.post(f"/api/tickets/{ticket.pk}/start/")
        response = client.post(f"/api/tickets/{ticket.pk}/act/", {"action_taken": "pray", "notes": ["a", "b"]})
        assert response.status_code == 400
        assert set(response.json()) == {"action_taken", "notes"}
        assert client.post(f"/api/tickets/{ticket.pk}/comment/", {}).json() == {"text": ["This field is required."]}
        response = client.post(f"/api/tickets/{ticket.pk}/assign/", {"username": "nobody"})
        assert response.status_code == 400 and "no user named 'nobody'" in response.json()["username"][0]
        assert client.get("/api/tickets/metrics/", {"fabric": "x"}).status_code == 400

    def test_acting_in_the_wrong_state_is_a_409_with_a_message(self, ticket, client_for):
        client = client_for("technician")
        response = client.post(f"/api/tickets/{ticket.pk}/act/", {"action_taken": "clean_fiber"})
        assert response.status_code == 409
        assert "start it first" in response.json()["detail"]
        client.post(f"/api/tickets/{ticket.pk}/start/")
        assert client.post(f"/api/tickets/{ticket.pk}/start/").status_code == 409

    def test_filters_and_ordering_by_penalty_and_age(self, small_fabric, client_for, make_user):
        low = disabled_ticket(small_fabric)  # f0:u0, pod 0
        high = disabled_ticket(small_fabric, ("f2", "u0"), rate=1e-3)  # pod 1
        ana = make_user("technician", username="ana")
        low.assignee = ana
        low.save()
        client = client_for("viewer")

        def ids(params) -> list[int]:
            response = client.get("/api/tickets/", params)
            assert response.status_code == 200, response.content
            return [row["id"] for row in response.json()["results"]]

        assert ids({"ordering": "-penalty"}) == [high.pk, low.pk]
        assert ids({"ordering": "penalty"}) == [low.pk, high.pk]
        assert ids({"ordering": "created"}) == [low.pk, high.pk]  # oldest first
        assert ids({"pod": 1}) == [high.pk]
        assert ids({"assignee": "ana"}) == [low.pk]
        assert ids({"unassigned": "true"}) == [high.pk]
        assert ids({"unassigned": "false"}) == [low.pk]
        assert ids({"fabric": small_fabric.pk, "state": "open", "link": high.link_id}) == [high.pk]
        assert ids({"state": "resolved"}) == []
        row = client.get("/api/tickets/", {"pod": 0}).json()["results"][0]
        assert (row["recommended_action"], row["step_count"], row["assignee"]) == ("clean_fiber", 1, "ana")

    def test_the_list_query_count_does_not_grow_with_tickets(self, small_fabric, client_for):
        client = client_for("viewer")
        disabled_ticket(small_fabric)
        client.get("/api/tickets/")  # the user's roles are read once and cached
        with CaptureQueriesContext(connection) as one:
            assert client.get("/api/tickets/").status_code == 200
        disabled_ticket(small_fabric, ("f2", "u0"))
        with CaptureQueriesContext(connection) as two:
            assert len(client.get("/api/tickets/").json()["results"]) == 2
        assert len(two) == len(one)

    def test_metrics_per_fabric(self, ticket, small_fabric, client_for):
        body = client_for("viewer").get("/api/tickets/metrics/", {"fabric": small_fabric.pk}).json()
        assert body["fabric"] == small_fabric.pk
        assert (body["open_tickets"], body["disabled_links"]) == (1, 1)
        assert body["first_attempt"]["all"] == {"attempts": 0, "fixed": 0, "rate": None}
        assert body["worst_tor_fraction"] == pytest.approx(0.75) and body["current_penalty"] == 0
