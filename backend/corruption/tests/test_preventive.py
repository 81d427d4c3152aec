"""Preventive tickets (issue #19, corruption.preventive): an at-risk link gets a ticket with the
forecast's repair while it stays in service; opened by an operator or, with the fabric's setting,
by derivation; validated when the forecast clears or after the usual window without corruption.

The forecasts are rows as derivation writes them (telemetry.LinkForecast); how derivation computes
them is telemetry's test. On the small fabric, f0:u0 - s0:p0 is a spine uplink that may be disabled.
"""

import datetime as dt
import random

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone
from rest_framework.test import APIClient

from audit.models import AuditEvent
from corruption import preventive, services, tickets
from corruption.models import Ticket
from fabric.models import Fabric, Link
from lightpath.tests.test_openapi_contract import Contract, _document
from maintenance.models import WorkOrder
from maintenance.services import visits, work_orders
from telemetry.models import DirectionHealth, LinkForecast
from telemetry.services import derivation

from .test_services import link, open_event
from .test_tickets import disabled_ticket

pytestmark = pytest.mark.django_db

HOUR = dt.timedelta(hours=1)
DAY = dt.timedelta(days=1)


def forecast(lnk: Link, cause: str = "contamination", **fields) -> LinkForecast:
    """An at-risk forecast of `lnk`, as derivation writes one: Rx of lane 2 at Z falling toward its
    catalog limit in 3 days, the Z end to act on, unless told otherwise."""
    now = timezone.now()
    values = {
        "fabric_id": lnk.fabric_id,
        "computed_at": now,
        "crossing_at": now + 3 * DAY,
        "earliest_at": now + 2 * DAY,
        "latest_at": now + 5 * DAY,
        "confidence": 0.9,
        "at_risk": True,
        "cause": cause,
        "side": "z",
        "quantity": "rx",
        "lane": 2,
        "level_dbm": -9.0,
        "slope_db_per_day": -0.5,
        "limit_dbm": -10.5,
        "limit_provenance": "catalog",
        "cause_side": "z",
        **fields,
    }
    return LinkForecast.objects.update_or_create(link=lnk, defaults=values)[0]


@pytest.fixture
def uplink(small_fabric) -> Link:
    return link(small_fabric, "f0", "u0")


@pytest.fixture
def technician(make_user):
    return make_user("technician")


def clean_windows(lnk: Link, through: dt.datetime) -> None:
    """Both directions measured clean through `through` (polls kept arriving)."""
    for direction in ("a_to_z", "z_to_a"):
        DirectionHealth.objects.update_or_create(
            link=lnk,
            direction=direction,
            defaults={"health": "clean", "corruption_rate": 0.0, "corruption_time": through},
        )


class TestOpenByHand:
    @pytest.mark.parametrize("role", ["operator", "admin"])
    def test_an_operator_opens_one_and_the_link_stays_in_service(self, uplink, client_for, role):
        forecast(uplink)
        client = client_for(role)
        response = client.post("/api/tickets/preventive/", {"link": uplink.pk}, format="json")
        assert response.status_code == 201, response.content
        body = response.json()
        assert (body["kind"], body["state"], body["link"], body["decision"], body["penalty"]) == (
            "preventive",
            "open",
            uplink.pk,
            None,
            None,
        )
        recommendation = body["recommendation"]
        assert (recommendation["action"], recommendation["rule"]) == ("clean_fiber", "preventive.contamination")
        assert recommendation["explanation"].startswith("Clean the connectors, s0:p0 (end Z) first: the Rx power falls")
        assert "forecast to reach its limit \N{MINUS SIGN}10.5 dBm (catalog)" in recommendation["explanation"]
        evidence = recommendation["evidence"]
        assert (evidence["local_end"], evidence["forecast"]["cause"], evidence["forecast"]["at_risk"]) == (
            "z",
            "contamination",
            True,
        )
        assert evidence["forecast"]["end"]["switch"] == "s0"
        assert evidence["forecast"]["recommended_action"] == "clean_fiber"
        assert body["steps"][0]["decision"] is None
        contract = Contract(_document())
        contract.check(body, "/api/tickets/preventive/", "post", "201")
        # Not disabled: no CorrOpt decision, nothing changed on the link.
        uplink.refresh_from_db()
        assert (uplink.admin_state, uplink.admin_reason) == ("enabled", "")
        listed = client.get("/api/tickets/", {"kind": "preventive"}).json()["results"]
        assert [row["id"] for row in listed] == [body["id"]]
        contract.check(client.get("/api/tickets/", {"kind": "preventive"}).json(), "/api/tickets/")
        assert client.get("/api/tickets/", {"kind": "repair"}).json()["results"] == []
        audit = AuditEvent.objects.get(object_type="corruption.ticket", action="create")
        assert audit.user.username == response.wsgi_request.user.username

    @pytest.mark.parametrize("role", ["technician", "viewer", "planner"])
    def test_technicians_and_viewers_may_not(self, uplink, client_for, role):
        forecast(uplink)
        response = client_for(role).post("/api/tickets/preventive/", {"link": uplink.pk}, format="json")
        assert response.status_code == 403
        assert not Ticket.objects.exists()

    def test_a_400_lists_every_reason(self, small_fabric, uplink, client_for):
        client = client_for("operator")

        def refused(body) -> list[str]:
            response = client.post("/api/tickets/preventive/", body, format="json")
            assert response.status_code == 400, response.content
            assert list(response.json()) == ["link"]
            return response.json()["link"]

        assert refused({}) == ["This field is required."]
        assert refused({"link": 999_999}) == ["no link with id 999999"]
        assert refused({"link": 2**64}) == ["Ensure this value is less than or equal to 9223372036854775807."]
        assert refused({"link": uplink.pk}) == [
            "f0:u0 - s0:p0 has no forecast: its optics are not trending toward a limit"
        ]
        # Not at risk and already under a repair ticket: both said at once.
        repair = disabled_ticket(small_fabric)
        forecast(uplink, at_risk=False, confidence=0.4, crossing_at=timezone.now() + 20 * DAY)
        problems = refused({"link": uplink.pk})
        assert len(problems) == 2
        assert problems[0].startswith("f0:u0 - s0:p0 is not at risk: its forecast crossing is ")
        assert problems[0].endswith("with confidence 40%")
        assert problems[1] == f"f0:u0 - s0:p0 already has an unresolved repair ticket #{repair.pk} (open)"
        assert Ticket.objects.filter(kind="preventive").count() == 0

    def test_a_second_one_while_the_first_is_unresolved_is_refused(self, uplink, client_for):
        forecast(uplink)
        client = client_for("operator")
        first = client.post("/api/tickets/preventive/", {"link": uplink.pk}, format="json").json()
        again = client.post("/api/tickets/preventive/", {"link": uplink.pk}, format="json")
        assert again.status_code == 400
        assert again.json() == {
            "link": [f"f0:u0 - s0:p0 already has an unresolved preventive ticket #{first['id']} (open)"]
        }


class TestAdviceFromTheCause:
    @pytest.mark.parametrize(
        ("cause", "cause_side", "side", "action", "direction", "starts"),
        [
            # The transmitting end (A) decays: its transceiver is replaced; A is the near end.
            (
                "decaying_transmitter",
                "a",
                "a",
                "replace_transceiver",
                "z_to_a",
                "Replace the transceiver at f0:u0 (end A)",
            ),
            ("contamination", "z", "z", "clean_fiber", "a_to_z", "Clean the connectors, s0:p0 (end Z) first"),
            # No end named: the end whose reading crosses.
            ("bent_fiber", None, "a", "replace_cable", "z_to_a", "Replace the cable: the Rx power stepped down"),
            ("loose_transceiver", "z", "z", "reseat_transceiver", "a_to_z", "Reseat the transceiver at s0:p0 (end Z)"),
            # The forecast endpoint's "inspect": the generic sequence's first step, which a technician can record.
            ("unknown", None, "z", "clean_fiber", "a_to_z", "Inspect the optics and the fiber at both ends, cleaning"),
        ],
    )
    def test_each_cause_names_its_repair_and_the_end(
        self, uplink, operator_user, cause, cause_side, side, action, direction, starts
    ):
        forecast(uplink, cause=cause, cause_side=cause_side, side=side, quantity="tx" if side == "a" else "rx")
        ticket = preventive.open_preventive(uplink.pk, operator_user)
        step = ticket.steps.get()
        assert (ticket.kind, ticket.direction, step.recommended_action, step.rule) == (
            "preventive",
            direction,
            action,
            f"preventive.{cause}",
        )
        assert step.explanation.startswith(starts), step.explanation

    def test_a_dark_lane_has_no_level_to_forecast_from_and_says_it_is_flagged(self, uplink, operator_user):
        forecast(
            uplink, cause="loose_transceiver", level_dbm=None, slope_db_per_day=None, limit_dbm=None,
            limit_provenance=None, confidence=1.0, crossing_at=timezone.now(),
        )  # fmt: skip
        step = preventive.open_preventive(uplink.pk, operator_user).steps.get()
        assert step.recommended_action == "reseat_transceiver"
        # Lane 2 of the API is lane 3 to people (lanes count from 1, as modules number them).
        assert "The Rx power of lane 3 at s0:p0 is flagged from " in step.explanation
        assert step.evidence["forecast"]["level_dbm"] is None

    @pytest.mark.parametrize(
        ("slope", "words"), [(0.02, "rising 0.02 dB a day"), (0.001, "flat"), (-0.5, "falling 0.50")]
    )
    def test_the_reading_says_which_way_it_moves(self, uplink, operator_user, slope, words):
        """A reading already under its limit is at risk whatever its slope: a step down leaves a flat or
        rising fit, which read 'falling -0.02 dB a day' (trial 27)."""
        forecast(uplink, level_dbm=-11.0, slope_db_per_day=slope)
        step = preventive.open_preventive(uplink.pk, operator_user).steps.get()
        assert f"The Rx power of lane 3 at s0:p0 is \N{MINUS SIGN}11.0 dBm, {words}" in step.explanation


@pytest.fixture
def operator_user(make_user):
    return make_user("operator")


class TestAutomatic:
    def test_only_with_the_fabric_setting_and_once_per_link(self, small_fabric, uplink):
        other = link(small_fabric, "f1", "u0")
        forecast(uplink)
        forecast(other, at_risk=False)
        assert preventive.auto_open(small_fabric, [uplink.pk, other.pk]) == []  # the setting is off
        Fabric.objects.filter(pk=small_fabric.pk).update(auto_preventive_tickets=True)
        small_fabric.refresh_from_db()

        (opened,) = preventive.auto_open(small_fabric, [uplink.pk, other.pk])
        assert (opened.link_id, opened.kind, opened.state) == (uplink.pk, "preventive", "open")
        assert AuditEvent.objects.get(object_type="corruption.ticket", action="create").user is None
        # The next derivation run finds it at risk again: no second ticket while one is unresolved.
        assert preventive.auto_open(small_fabric, [uplink.pk, other.pk]) == []
        assert Ticket.objects.filter(link=uplink).count() == 1

    def test_not_while_the_cause_is_unclear(self, small_fabric, uplink):
        """The first runs of a fade can read "unclear" before the trend shows whose optic it is (the
        derivation test opened an 'inspect' ticket for some link ids): wait for the pattern."""
        Fabric.objects.filter(pk=small_fabric.pk).update(auto_preventive_tickets=True)
        small_fabric.refresh_from_db()
        forecast(uplink, cause="unknown", cause_side=None)
        assert preventive.auto_open(small_fabric, [uplink.pk]) == []
        forecast(uplink, cause="contamination")
        (opened,) = preventive.auto_open(small_fabric, [uplink.pk])
        assert opened.steps.get().rule == "preventive.contamination"

    def test_not_again_within_the_reopen_days_of_a_resolved_one(self, small_fabric, uplink):
        Fabric.objects.filter(pk=small_fabric.pk).update(auto_preventive_tickets=True)
        small_fabric.refresh_from_db()
        forecast(uplink)
        (opened,) = preventive.auto_open(small_fabric, [uplink.pk])
        Ticket.objects.filter(pk=opened.pk).update(state="resolved", resolved_at=timezone.now() - 2 * DAY)
        assert preventive.auto_open(small_fabric, [uplink.pk]) == []
        Ticket.objects.filter(pk=opened.pk).update(resolved_at=timezone.now() - 8 * DAY)
        (again,) = preventive.auto_open(small_fabric, [uplink.pk])
        assert again.pk != opened.pk

    def test_a_link_under_a_repair_ticket_gets_none(self, small_fabric, uplink):
        Fabric.objects.filter(pk=small_fabric.pk).update(auto_preventive_tickets=True)
        small_fabric.refresh_from_db()
        repair = disabled_ticket(small_fabric)
        forecast(uplink)
        assert preventive.auto_open(small_fabric, [uplink.pk]) == []
        assert list(Ticket.objects.filter(link=uplink)) == [repair]


class TestDerivationOpensThem:
    def test_with_the_fabric_setting_a_falling_receiver_gets_one_ticket_and_stays_in_service(
        self, small_fabric, django_capture_on_commit_callbacks
    ):
        """t0's receiver loses 1.2 dB a day (telemetry's contamination case), polled every 15
        minutes and derived every 8 hours as the worker does."""
        from telemetry.tests.test_forecast_derivation import derive_in_batches, falling, flat, polls

        derivation.forget_cached_state()
        Fabric.objects.filter(pk=small_fabric.pk).update(auto_preventive_tickets=True)
        small_fabric.refresh_from_db()
        lnk = link(small_fabric, "t0", "up0")
        rows = polls(5, random.Random(1), rx_a=falling(-3.0, -1.2), rx_z=flat(-2.6), tx_a=flat(-1.8), tx_z=flat(-1.5))
        derive_in_batches(small_fabric, rows, dt.timedelta(hours=8), django_capture_on_commit_callbacks)

        assert LinkForecast.objects.get(link=lnk).at_risk
        (ticket,) = Ticket.objects.all()  # at risk over several runs since: opened once
        step = ticket.steps.get()
        assert (ticket.link_id, ticket.kind, ticket.state, ticket.direction) == (lnk.pk, "preventive", "open", "z_to_a")
        assert (step.recommended_action, step.rule) == ("clean_fiber", "preventive.contamination")
        assert step.explanation.startswith("Clean the connectors, t0:up0 (end A) first")
        lnk.refresh_from_db()
        assert (lnk.admin_state, lnk.admin_reason) == ("enabled", "")
        # Opened on the run's commit like any ticket: it waits for a visit in a work order.
        assert WorkOrder.objects.get(state="open").tickets.get() == ticket


class TestRecordingTheActionTakesTheLinkDownSafely:
    """The link of a preventive ticket is in service: its repair takes it down, which only the work
    order's capacity-safe start does (trial 27 item 1: recording it from the ticket sent the work
    order to done with no start, no finish and no capacity check)."""

    def taken(self, uplink, technician) -> tuple[Ticket, WorkOrder]:
        forecast(uplink)
        ticket = preventive.open_preventive(uplink.pk, None)
        (order,) = work_orders.regroup(uplink.fabric_id)
        tickets.start(ticket, technician)
        return ticket, order

    def test_refused_from_the_ticket_until_its_work_order_is_started(self, uplink, technician):
        ticket, order = self.taken(uplink, technician)
        client = APIClient()
        client.force_authenticate(technician)
        response = client.post(f"/api/tickets/{ticket.pk}/act/", {"action_taken": "clean_fiber"}, format="json")
        assert response.status_code == 400, response.content
        assert response.json() == {
            "non_field_errors": [
                "The link f0:u0 - s0:p0 is in service and this repair takes it down: start work order "
                f"{order.pk} first: starting takes the link down only if every ToR keeps its capacity."
            ]
        }
        ticket.refresh_from_db()
        order.refresh_from_db()
        uplink.refresh_from_db()
        assert (ticket.state, ticket.steps.get().action_taken) == ("in_progress", "")
        assert (order.state, order.started_at, order.finished_at) == ("open", None, None)
        assert (uplink.admin_state, uplink.admin_reason) == ("enabled", "")

    def test_recorded_once_the_started_work_order_took_the_link_down_and_its_finish_brings_it_back(
        self, uplink, technician
    ):
        ticket, order = self.taken(uplink, technician)
        visits.start(order, technician)
        uplink.refresh_from_db()
        assert (uplink.admin_state, uplink.admin_reason.startswith(f"maintenance: work order {order.pk}")) == (
            "disabled",
            True,
        )
        client = APIClient()
        client.force_authenticate(technician)
        response = client.post(f"/api/tickets/{ticket.pk}/act/", {"action_taken": "clean_fiber"}, format="json")
        assert response.status_code == 200, response.content
        assert response.json()["state"] == "awaiting_validation"
        assert response.json()["message"].startswith("The link stays disabled for another reason (maintenance: ")
        assert response.json()["validation_ends_at"] is None  # the window starts when the link is back
        finished = visits.finish(order, technician, "repaired")
        assert "back in service: f0:u0 - s0:p0" in finished.detail
        order.refresh_from_db()
        uplink.refresh_from_db()
        assert order.state == "done" and order.started_at is not None and order.finished_at is not None
        assert (uplink.admin_state, uplink.admin_reason) == ("enabled", "")
        # The page says when it resolves at the latest: the window from the link's return to service.
        shown = client.get(f"/api/tickets/{ticket.pk}/").json()
        assert shown["state"] == "awaiting_validation"
        assert dt.datetime.fromisoformat(shown["validation_ends_at"]) == uplink.admin_changed_at + 24 * HOUR

    def test_a_link_already_out_of_service_needs_no_start(self, uplink, technician):
        """Corruption overtook it (CorrOpt disabled the link): recording re-enables it, as for a repair."""
        ticket, _ = self.taken(uplink, technician)
        services.decide_event(open_event(uplink).pk)
        result = tickets.record_action(ticket, technician, "clean_fiber")
        assert result.link_enabled and result.message == "The link is enabled again; validation has started."


class TestValidation:
    def acted(self, uplink, technician, at: dt.datetime) -> Ticket:
        """Repaired through its work order (started, then finished as repaired), the visit ending at `at`."""
        forecast(uplink)
        ticket = preventive.open_preventive(uplink.pk, None, now=at - HOUR)
        (order,) = work_orders.regroup(uplink.fabric_id)
        visits.start(order, technician)
        finished = visits.finish(order, technician, "repaired", "dusty")
        assert "back in service: f0:u0 - s0:p0" in finished.detail
        # The window counts from the link's return to service: the visit ended at `at`.
        Link.objects.filter(pk=uplink.pk).update(admin_changed_at=at)
        ticket.refresh_from_db()
        return ticket

    def test_resolved_once_the_forecast_is_no_longer_at_risk(self, uplink, technician):
        now = timezone.now()
        ticket = self.acted(uplink, technician, now - 2 * HOUR)
        assert ticket.state == "awaiting_validation"
        assert tickets.validate_tickets(now=now) == []  # still at risk, the window not over
        forecast(uplink, at_risk=False, confidence=0.1, crossing_at=now + 30 * DAY)
        assert tickets.validate_tickets(now=now) == [ticket.pk]
        ticket.refresh_from_db()
        assert (ticket.state, ticket.steps.get().outcome) == ("resolved", "fixed")

    def test_a_forecast_no_longer_reported_counts_as_cleared(self, uplink, technician):
        now = timezone.now()
        ticket = self.acted(uplink, technician, now - HOUR)
        LinkForecast.objects.filter(link=uplink).delete()
        assert tickets.validate_tickets(now=now) == [ticket.pk]

    def test_corruption_since_the_action_keeps_it_unresolved(self, uplink, technician):
        now = timezone.now()
        self.acted(uplink, technician, now - 2 * HOUR)
        LinkForecast.objects.filter(link=uplink).update(at_risk=False)
        DirectionHealth.objects.update_or_create(link=uplink, direction="a_to_z", defaults={"health": "corrupting"})
        assert tickets.validate_tickets(now=now) == []

    def test_still_at_risk_it_resolves_after_the_usual_window_without_corruption(self, uplink, technician):
        now = timezone.now()
        ticket = self.acted(uplink, technician, now - 25 * HOUR)
        assert tickets.validate_tickets(now=now) == []  # polls stopped: silence does not validate
        clean_windows(uplink, now)
        assert tickets.validate_tickets(now=now) == [ticket.pk]


class TestCorruptionOvertakesIt:
    def test_the_fast_checker_disables_the_link_and_adds_a_repair_step_to_the_same_ticket(self, uplink, operator_user):
        forecast(uplink)
        ticket = preventive.open_preventive(uplink.pk, operator_user)
        outcome = services.decide_event(open_event(uplink).pk)
        assert outcome.decision is not None and outcome.decision.action == "disabled"
        ticket.refresh_from_db()
        assert (Ticket.objects.count(), ticket.kind, ticket.state) == (1, "preventive", "open")
        steps = list(ticket.steps.all())
        assert [(s.number, s.decision_id, s.rule.startswith("preventive.")) for s in steps] == [
            (1, None, True),
            (2, outcome.decision.pk, False),
        ]

    def test_it_then_carries_its_corruptions_penalty_like_a_repair(self, uplink, operator_user):
        """Trial 27 item 11: it kept penalty "-" and sorted last under "highest penalty first"."""
        forecast(uplink)
        ticket = preventive.open_preventive(uplink.pk, operator_user)
        body = APIClient()
        body.force_authenticate(operator_user)
        assert body.get(f"/api/tickets/{ticket.pk}/").json()["penalty"] is None  # not corrupting yet
        outcome = services.decide_event(open_event(uplink).pk)
        assert outcome.decision.penalty > 0
        (row,) = body.get("/api/tickets/?kind=preventive&ordering=-penalty").json()["results"]
        assert (row["id"], row["penalty"]) == (ticket.pk, pytest.approx(outcome.decision.penalty))


class TestTheForecastsCauseStaysFirst:
    """Trial 27 item 7: a preventive ticket's link corrupts; the corruption rules alone read a low Rx
    or a neighbour, and named another repair than the forecast's, which saw days of this link's trend."""

    def test_kept_over_a_rule_with_weaker_evidence(self, uplink, operator_user):
        # A decaying transmitter at Z: replace it. The corruption rules see no optics here (the
        # generic sequence would clean the fiber).
        forecast(uplink, cause="decaying_transmitter", quantity="tx", cause_side="z")
        ticket = preventive.open_preventive(uplink.pk, operator_user)
        outcome = services.decide_event(open_event(uplink).pk)
        step = ticket.steps.get(number=2)
        assert step.decision_id == outcome.decision.pk
        assert (step.recommended_action, step.rule) == ("replace_transceiver", "forecast_cause.decaying_transmitter")
        assert step.explanation.startswith(
            "Replace the transceiver at s0:p0 (end Z): the link was forecast to fail from decaying transmitter "
            "before it corrupted, and that repair stays the first to try; the corruption rule no_optical_data "
            "(clean_fiber) reads less about this link."
        )
        assert step.evidence["corruption_rule"] == {"rule": "no_optical_data", "action": "clean_fiber"}
        assert step.evidence["forecast"]["cause"] == "decaying_transmitter"
        assert step.evidence["rates"]["this"] is not None  # the corruption's own evidence is kept
        body = APIClient()
        body.force_authenticate(operator_user)
        shown = body.get(f"/api/tickets/{ticket.pk}/").json()
        assert shown["recommendation"]["action"] == "replace_transceiver"
        Contract(_document()).check(shown, "/api/tickets/{id}/")

    def test_a_rule_with_stronger_evidence_wins(self, uplink, operator_user):
        """Both directions corrupt: the cable, whatever the forecast said."""
        forecast(uplink, cause="decaying_transmitter", quantity="tx", cause_side="z")
        ticket = preventive.open_preventive(uplink.pk, operator_user)
        open_event(uplink, direction="z_to_a")
        services.decide_event(open_event(uplink).pk)
        step = ticket.steps.get(number=2)
        assert (step.recommended_action, step.rule) == ("replace_cable", "opposite_direction")

    def test_not_once_the_forecasts_repair_was_tried(self, uplink, operator_user, technician):
        forecast(uplink, cause="decaying_transmitter", quantity="tx", cause_side="z")
        ticket = preventive.open_preventive(uplink.pk, operator_user)
        (order,) = work_orders.regroup(uplink.fabric_id)
        visits.start(order, technician)
        visits.finish(order, technician, "repaired")
        services.decide_event(open_event(uplink).pk)
        step = ticket.steps.get(number=2)
        assert not step.rule.startswith("forecast_cause."), step.rule


class TestARepairTicketReadsTheLinksForecast:
    """Trial 27 item 7, without a preventive ticket: the link's fresh at-risk forecast names its repair
    first, as a preventive ticket's would; a stale or unclear forecast says nothing."""

    def repair_step(self, lnk: Link):
        outcome = services.decide_event(open_event(lnk).pk)
        ticket = Ticket.objects.get(link=lnk)
        assert (ticket.kind, ticket.decision_id) == ("repair", outcome.decision.pk)
        return ticket, ticket.steps.get(number=1)

    def test_a_fresh_at_risk_forecast_names_the_repair(self, uplink, operator_user):
        forecast(uplink, cause="decaying_transmitter", quantity="tx", cause_side="z")
        ticket, step = self.repair_step(uplink)
        assert (step.recommended_action, step.rule) == ("replace_transceiver", "forecast_cause.decaying_transmitter")
        assert step.explanation.startswith("Replace the transceiver at s0:p0 (end Z): the link was forecast to fail")
        assert step.evidence["forecast"]["cause_side"] == "z"
        body = APIClient()
        body.force_authenticate(operator_user)
        shown = body.get(f"/api/tickets/{ticket.pk}/").json()
        assert shown["recommendation"]["action"] == "replace_transceiver"

    @pytest.mark.parametrize(
        "fields",
        [
            {"computed_at": timezone.now() - 13 * HOUR},  # derivation stopped seeing the optics
            {"at_risk": False},
            {"cause": "unknown"},
        ],
        ids=["stale", "not-at-risk", "unclear"],
    )
    def test_not_from_a_forecast_that_says_nothing_now(self, uplink, fields):
        forecast(uplink, **{"cause": "decaying_transmitter", "quantity": "tx", **fields})
        _, step = self.repair_step(uplink)
        assert (step.recommended_action, step.rule) == ("clean_fiber", "no_optical_data")

    def test_not_once_the_forecasts_repair_was_tried_on_the_ticket(self, uplink, technician):
        forecast(uplink, cause="decaying_transmitter", quantity="tx", cause_side="z")
        ticket, _ = self.repair_step(uplink)
        tickets.start(ticket, technician)
        tickets.record_action(ticket, technician, "replace_transceiver")
        services.decide_event(open_event(uplink).pk)
        step = ticket.steps.get(number=2)
        assert not step.rule.startswith("forecast_cause."), step.rule


def test_the_database_keeps_a_decision_on_repair_tickets_and_one_unresolved_ticket_a_link(small_fabric, uplink):
    with pytest.raises(IntegrityError), transaction.atomic():
        Ticket.objects.create(fabric=small_fabric, link=uplink, direction="a_to_z", decision=None)
    forecast(uplink)
    preventive.open_preventive(uplink.pk, None)
    # A ticket opened meanwhile (auto_open runs each ticket in a savepoint and skips the link).
    with pytest.raises(IntegrityError), transaction.atomic():
        Ticket.objects.create(fabric=small_fabric, link=uplink, direction="a_to_z", kind="preventive")
