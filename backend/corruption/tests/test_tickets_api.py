"""/api/tickets/ as a technician's phone and an operator's script use it."""

import csv as csv_module
import datetime as dt
import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from audit.models import AuditEvent
from corruption.models import Ticket
from fabric.models import Link, Transceiver, TransceiverModel

from .test_tickets import decide, disabled_ticket, event_at

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

    def test_the_nav_counts_unresolved_tickets_and_mine(self, small_fabric, client_for):
        client = client_for("technician")
        assert client.get("/api/tickets/counts/").json() == {"unresolved": 0, "assigned_to_me": 0}
        mine = disabled_ticket(small_fabric)
        disabled_ticket(small_fabric, ("f2", "u0"))
        client.post(f"/api/tickets/{mine.pk}/start/")
        assert client.get("/api/tickets/counts/").json() == {"unresolved": 2, "assigned_to_me": 1}
        Ticket.objects.filter(pk=mine.pk).update(state="resolved")
        assert client.get("/api/tickets/counts/").json() == {"unresolved": 1, "assigned_to_me": 0}

    def test_the_ticket_says_what_to_bring_and_how_long_validation_lasts(self, ticket, client_for):
        Link.objects.filter(pk=ticket.link_id).update(length_m=35.0, fiber="MMF")
        parallel = TransceiverModel.objects.get(name="100G-SR4")
        Transceiver.objects.create(link=ticket.link, side="z", model=parallel, serial="SN-Z")
        client = client_for("technician")
        body = client.get(f"/api/tickets/{ticket.pk}/").json()
        assert (body["cable_length_m"], body["fiber"], body["validation_window_hours"]) == (35.0, "MMF", 24.0)
        end_a, end_z = body["ends"]
        assert (end_a["transceiver_model"], end_a["connector"]) == (None, None)
        assert (end_z["transceiver_model"], end_z["transceiver_serial"], end_z["connector"]) == (
            "100G-SR4",
            "SN-Z",
            "MPO",
        )
        client.post(f"/api/tickets/{ticket.pk}/start/")
        acted = client.post(f"/api/tickets/{ticket.pk}/act/", {"action_taken": "clean_fiber"}).json()
        started = dt.datetime.fromisoformat(acted["validation_started_at"])
        assert dt.datetime.fromisoformat(acted["validation_ends_at"]) - started == dt.timedelta(hours=24)

    def test_the_queue_says_what_was_done_and_until_when_it_is_validated(self, ticket, client_for):
        client = client_for("technician")

        def row() -> dict:
            return client.get("/api/tickets/", {"link": ticket.link_id}).json()["results"][0]

        before = row()
        assert (before["recommended_action"], before["action_taken"], before["acted_at"]) == ("clean_fiber", None, None)
        assert before["validation_ends_at"] is None
        client.post(f"/api/tickets/{ticket.pk}/start/")
        client.post(f"/api/tickets/{ticket.pk}/act/", {"action_taken": "reseat_transceiver"})
        after = row()
        acted_at = dt.datetime.fromisoformat(after["acted_at"])
        assert (after["state"], after["action_taken"]) == ("awaiting_validation", "reseat_transceiver")
        assert dt.datetime.fromisoformat(after["validation_ends_at"]) - acted_at == dt.timedelta(hours=24)
        answer = client.get("/api/tickets/", {"link": ticket.link_id, "format": "csv"})
        csv = b"".join(answer.streaming_content).decode()
        header, line = csv.splitlines()[:2]
        # The action in the page's words, not its code.
        assert "Action taken" in header and "Validating until" in header and "Reseated transceiver" in line
        assert "reseat_transceiver" not in line
        # The validation end in the one CSV time format, as every other time column (trial 29: a
        # Python datetime's str, '2026-11-28 16:29:40.646407+00:00').
        until = dt.datetime.fromisoformat(after["validation_ends_at"]).astimezone(dt.UTC)
        cells = next(csv_module.DictReader(io.StringIO(csv)))
        assert cells["Validating until"] == until.strftime("%Y-%m-%dT%H:%M:%SZ")
        # Corruption returns: the ticket's next step is advised, nothing done on it yet.
        decide(event_at(Link.objects.get(pk=ticket.link_id), timezone.now()))
        again = row()
        assert (again["state"], again["step_count"], again["action_taken"], again["validation_ends_at"]) == (
            "open",
            2,
            None,
            None,
        )
        assert again["recommended_action"] != "reseat_transceiver"

    def test_a_reseat_then_a_replacement_update_the_transceiver_at_the_acted_end_and_are_audited(
        self, ticket, client_for
    ):
        # The event is a_to_z: the receiving end z (s0:p0) is the local end a reseat touches.
        optic = TransceiverModel.objects.order_by("pk").first()
        far = Transceiver.objects.create(link=ticket.link, side="a", model=optic, serial="FAR-1")
        local = Transceiver.objects.create(link=ticket.link, side="z", model=optic, serial="OLD-7")
        client = client_for("technician")
        client.post(f"/api/tickets/{ticket.pk}/start/")
        acted = client.post(f"/api/tickets/{ticket.pk}/act/", {"action_taken": "reseat_transceiver"})
        assert acted.status_code == 200, acted.content
        end_z = acted.json()["ends"][1]
        assert end_z["switch"] == "s0" and end_z["last_reseated_at"] is not None
        local.refresh_from_db()
        assert local.serial == "OLD-7" and local.last_reseated_at is not None
        audited = AuditEvent.objects.get(object_type="fabric.transceiver", object_id=local.pk)
        assert audited.before["last_reseated_at"] is None and audited.after["last_reseated_at"] is not None
        assert audited.user == Ticket.objects.get(pk=ticket.pk).assignee  # the technician who acted

        # Corruption returns: the same ticket, a new step; this time the optic is replaced.
        decide(event_at(ticket.link, timezone.now()))
        client.post(f"/api/tickets/{ticket.pk}/start/")
        acted = client.post(
            f"/api/tickets/{ticket.pk}/act/", {"action_taken": "replace_transceiver", "new_serial": " NEW-42 "}
        )
        assert acted.status_code == 200, acted.content
        assert (acted.json()["ends"][1]["transceiver_serial"], acted.json()["ends"][1]["last_reseated_at"]) == (
            "NEW-42",
            None,
        )
        local.refresh_from_db()
        far.refresh_from_db()
        assert (local.serial, far.serial, far.last_reseated_at) == ("NEW-42", "FAR-1", None)
        replaced = AuditEvent.objects.filter(object_type="fabric.transceiver", object_id=local.pk).latest("pk")
        assert (replaced.before["serial"], replaced.after["serial"]) == ("OLD-7", "NEW-42")

    def test_a_replacement_without_a_serial_clears_the_old_one(self, ticket, client_for):
        optic = TransceiverModel.objects.order_by("pk").first()
        local = Transceiver.objects.create(link=ticket.link, side="z", model=optic, serial="OLD-7")
        client = client_for("technician")
        client.post(f"/api/tickets/{ticket.pk}/start/")
        assert client.post(f"/api/tickets/{ticket.pk}/act/", {"action_taken": "replace_transceiver"}).status_code == 200
        local.refresh_from_db()
        assert local.serial == "" and local.installed_at is not None

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
