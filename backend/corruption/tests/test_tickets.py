"""Repair tickets (corruption.tickets): the loop from a disabled link to a resolved ticket.

The full loop runs on demo-fb with generated, ingested telemetry; the state rules (reopen within
7 days, a new ticket after) on the small fabric with events made by hand, as test_services does.
"""

import datetime as dt

import pytest
from django.utils import timezone

from audit.models import AuditEvent
from corruption import services, tickets
from corruption.metrics import metrics_now
from corruption.models import Decision, Ticket, TicketStep
from fabric import services as fabric_services
from fabric.models import Link, Switch
from lightpath_fixtures.documents import read_document
from lightpath_fixtures.telemetry import FaultSpec, generate_telemetry
from telemetry.models import CorruptionEvent, DirectionHealth
from telemetry.services.ingest import ingest

from .test_recommend import DEMO
from .test_services import link, open_event

pytestmark = pytest.mark.django_db

HOUR = dt.timedelta(hours=1)


@pytest.fixture
def demo():
    doc = read_document(DEMO)
    return fabric_services.import_document(doc), doc


def decide(event: CorruptionEvent) -> Decision:
    decision = services.decide_event(event.pk).decision
    assert decision is not None
    return decision


def new_events(fabric, since_id: int = 0) -> list[CorruptionEvent]:
    return list(CorruptionEvent.objects.filter(link__fabric=fabric, pk__gt=since_id).order_by("pk"))


class TestFullLoopOnIngestedTelemetry:
    def test_clean_recurs_escalates_to_reseat_then_validates_and_resolves(self, demo, make_user):
        fabric, doc = demo
        Switch.objects.filter(fabric=fabric, name="p0-tor0").update(capacity_constraint=0.5)  # may lose an uplink
        tech = make_user("technician")
        start = (timezone.now() - 30 * HOUR).replace(minute=0, second=0, microsecond=0)  # validation is 24 h
        dirty = FaultSpec(
            "dirty_connector", link="p0-tor0:eth2/1", direction="a_to_z", onset=start + HOUR / 2, loss_rate=1e-4
        )
        faulty = generate_telemetry(doc, start=start, hours=4, seed=3, faults=[dirty], congested_fraction=0.0)
        repaired_at = start + 2 * HOUR
        ingest(fabric, [s for s in faulty if s["time"] < repaired_at], derive=True)

        (event,) = new_events(fabric)
        decision = decide(event)
        assert decision.action == "disabled"
        ticket = Ticket.objects.get(link=event.link)
        assert (ticket.state, ticket.decision, ticket.direction) == ("open", decision, "a_to_z")
        (step1,) = ticket.steps.all()
        assert (step1.number, step1.recommended_action, step1.rule) == (1, "clean_fiber", "local_rx_low")
        assert step1.evidence["optics"]["local"]["rx_low"] is True and step1.outcome == "pending"

        ticket = tickets.start(ticket, tech)
        assert (ticket.state, ticket.assignee) == ("in_progress", tech)
        result = tickets.record_action(ticket, tech, "clean_fiber", "cleaned both ends", now=repaired_at)
        assert result.link_enabled and result.ticket.state == "awaiting_validation"
        assert result.ticket.validation_started_at == repaired_at
        step1.refresh_from_db()
        assert (step1.action_taken, step1.followed, step1.technician, step1.notes) == (
            "clean_fiber",
            True,
            tech,
            "cleaned both ends",
        )
        lnk = Link.objects.get(pk=event.link_id)
        assert (lnk.admin_state, lnk.admin_reason, lnk.admin_changed_by) == ("enabled", "repair: clean_fiber", tech)
        event.refresh_from_db()
        assert event.ended_at == repaired_at  # the repair ended the episode

        # The cleaning did not help: the corruption comes back, the fast checker disables it again.
        ingest(fabric, [s for s in faulty if s["time"] >= repaired_at], derive=True)
        (again,) = new_events(fabric, since_id=event.pk)
        decide(again)
        ticket.refresh_from_db()
        assert ticket.state == "open" and Ticket.objects.filter(link=lnk).count() == 1
        step1.refresh_from_db()
        step2 = ticket.steps.get(number=2)
        assert step1.outcome == "recurred"
        assert (step2.recommended_action, step2.rule) == ("reseat_transceiver", "escalation.clean_fiber")
        assert step2.evidence["failed_actions"] == ["clean_fiber"]

        reseated_at = start + 4 * HOUR
        tickets.start(ticket, tech)
        tickets.record_action(ticket, tech, "reseat_transceiver", now=reseated_at)
        # Clean polls of the link's two ends after the reseat (no fault): the direction turns clean.
        ends = {(lnk.a_switch.name, lnk.a_port), (lnk.z_switch.name, lnk.z_port)}
        clean = [
            sample
            for sample in generate_telemetry(doc, start=reseated_at, hours=25, seed=4, congested_fraction=0.0)
            if (sample["switch"], sample["port"]) in ends
        ]
        ingest(fabric, [s for s in clean if s["time"] < reseated_at + 2 * HOUR], derive=True)
        assert not DirectionHealth.objects.filter(link=lnk, health="corrupting").exists()

        assert tickets.validate_tickets(now=reseated_at + 23 * HOUR) == []
        # 24 hours have passed but the polls stopped after two: silence does not validate.
        assert tickets.validate_tickets(now=reseated_at + 24 * HOUR) == []
        ingest(fabric, [s for s in clean if s["time"] >= reseated_at + 2 * HOUR], derive=True)
        assert tickets.validate_tickets(now=reseated_at + 24 * HOUR) == [ticket.pk]
        ticket.refresh_from_db()
        step2.refresh_from_db()
        assert (ticket.state, ticket.resolved_at, step2.outcome) == ("resolved", reseated_at + 24 * HOUR, "fixed")


@pytest.fixture
def technician(make_user):
    return make_user("technician")


def event_at(lnk: Link, at: dt.datetime, rate: float = 1e-4) -> CorruptionEvent:
    """An open event first seen 15 minutes before `at`."""
    return CorruptionEvent.objects.create(
        link=lnk, direction="a_to_z", rate=rate, last_rate=rate, peak_rate=rate, first_seen=at - HOUR / 4, last_seen=at
    )


def disabled_ticket(
    fabric, end: tuple[str, str] = ("f0", "u0"), at: dt.datetime | None = None, rate: float = 1e-4
) -> Ticket:
    """A spine uplink (f0:u0 unless told) disabled for corruption (safe on the small fabric), with
    its ticket; the event was first seen 15 minutes before `at` (now)."""
    decision = decide(event_at(link(fabric, *end), at or timezone.now(), rate))
    assert decision.action == "disabled"
    return Ticket.objects.get(link=decision.link, state__in=tickets.UNRESOLVED)


def repaired(ticket: Ticket, user, action: str, at: dt.datetime) -> Ticket:
    """The action recorded at `at`, and clean windows measured in both directions for a week
    after it (the state rules below are about events, not about polls arriving)."""
    tickets.start(ticket, user)
    ticket = tickets.record_action(ticket, user, action, now=at).ticket
    for direction in ("a_to_z", "z_to_a"):
        DirectionHealth.objects.update_or_create(
            link=ticket.link,
            direction=direction,
            defaults={"health": "clean", "corruption_rate": 0.0, "corruption_time": at + 7 * 24 * HOUR},
        )
    return ticket


class TestTicketRules:
    def test_a_kept_link_gets_no_ticket(self, small_fabric):
        decision = decide(open_event(link(small_fabric, "t0", "up0")))
        assert decision.action == "kept" and not Ticket.objects.exists()

    def test_deciding_an_event_twice_never_duplicates_a_ticket_or_step(self, small_fabric):
        event = open_event(link(small_fabric, "f0", "u0"))
        decide(event)
        assert services.decide_event(event.pk).skipped == "already decided"
        # Even called again with the same decision, the step is tied to it.
        decision = Decision.objects.get(event=event)
        assert tickets.open_or_add_step(decision, event) == Ticket.objects.get()
        assert (Ticket.objects.count(), TicketStep.objects.count()) == (1, 1)

    def test_without_optical_data_the_generic_sequence_starts_with_cleaning(self, small_fabric):
        ticket = disabled_ticket(small_fabric)
        step = ticket.steps.get()
        assert (step.recommended_action, step.rule) == ("clean_fiber", "no_optical_data")

    def test_states_refuse_wrong_transitions_with_a_message(self, small_fabric, technician):
        ticket = disabled_ticket(small_fabric)
        with pytest.raises(tickets.TicketStateError, match="start it first"):
            tickets.record_action(ticket, technician, "clean_fiber")
        tickets.start(ticket, technician)
        with pytest.raises(tickets.TicketStateError, match="only an open or reopened ticket can start"):
            tickets.start(ticket, technician)
        with pytest.raises(ValueError, match="action_taken must be one of"):
            tickets.record_action(ticket, technician, "pray")

    def test_an_action_not_recommended_is_recorded_as_not_followed(self, small_fabric, technician):
        ticket = repaired(disabled_ticket(small_fabric), technician, "replace_cable", timezone.now())
        step = ticket.steps.get()
        assert (step.action_taken, step.followed) == ("replace_cable", False)

    def test_a_link_disabled_for_maintenance_stays_disabled_and_is_not_validated(self, small_fabric, technician):
        ticket = disabled_ticket(small_fabric)
        Link.objects.filter(pk=ticket.link_id).update(admin_reason="maintenance")
        tickets.start(ticket, technician)
        result = tickets.record_action(ticket, technician, "clean_fiber")
        assert not result.link_enabled and "stays disabled for another reason (maintenance)" in result.message
        assert result.ticket.state == "awaiting_validation" and result.ticket.validation_started_at is None
        assert tickets.validate_tickets(now=timezone.now() + 48 * HOUR) == []

    def test_corruption_during_validation_blocks_resolution(self, small_fabric, technician):
        now = timezone.now()
        ticket = repaired(disabled_ticket(small_fabric, at=now - 31 * HOUR), technician, "clean_fiber", now - 30 * HOUR)
        DirectionHealth.objects.filter(link=ticket.link, direction="z_to_a").update(health="corrupting")
        assert tickets.validate_tickets(now=now) == []
        DirectionHealth.objects.filter(link=ticket.link).update(health="clean")
        assert tickets.validate_tickets(now=now) == [ticket.pk]

    def test_recurrence_within_seven_days_reopens_the_same_ticket(self, small_fabric, technician):
        now = timezone.now()
        ticket = repaired(
            disabled_ticket(small_fabric, at=now - 5 * 24 * HOUR), technician, "clean_fiber", now - 4 * 24 * HOUR
        )
        assert tickets.validate_tickets(now=now - 3 * 24 * HOUR) == [ticket.pk]

        decide(open_event(ticket.link))
        ticket.refresh_from_db()
        assert ticket.state == "reopened" and ticket.resolved_at is None
        assert [(s.number, s.outcome) for s in ticket.steps.all()] == [(1, "recurred"), (2, "pending")]
        assert ticket.steps.get(number=2).recommended_action == "reseat_transceiver"
        assert tickets.start(ticket, technician).state == "in_progress"

    def test_recurrence_after_seven_days_opens_a_new_ticket(self, small_fabric, technician):
        now = timezone.now()
        first = repaired(
            disabled_ticket(small_fabric, at=now - 10 * 24 * HOUR), technician, "clean_fiber", now - 9 * 24 * HOUR
        )
        assert tickets.validate_tickets(now=now - 8 * 24 * HOUR) == [first.pk]

        decide(open_event(first.link))
        first.refresh_from_db()
        second = Ticket.objects.exclude(pk=first.pk).get()
        assert first.state == "resolved" and first.steps.get().outcome == "fixed"
        assert second.state == "open" and second.steps.get().recommended_action == "clean_fiber"

    def test_every_change_is_audited_with_who_did_it(self, small_fabric, technician):
        ticket = repaired(disabled_ticket(small_fabric), technician, "clean_fiber", timezone.now())
        tickets.comment(ticket, technician, "connector looked dusty")
        rows = AuditEvent.objects.filter(object_type__startswith="corruption.ticket")
        by_type = {(row.object_type, row.action, row.user_id) for row in rows}
        assert ("corruption.ticket", "create", None) in by_type  # opened by the system
        assert ("corruption.ticketstep", "create", None) in by_type
        assert ("corruption.ticket", "update", technician.pk) in by_type  # start, act
        assert ("corruption.ticketstep", "update", technician.pk) in by_type
        assert ("corruption.ticketcomment", "create", technician.pk) in by_type
        states = [
            (row.before["state"], row.after["state"])
            for row in rows.filter(object_type="corruption.ticket", action="update").order_by("pk")
        ]
        assert states == [("open", "in_progress"), ("in_progress", "awaiting_validation")]

    def test_metrics_split_first_attempts_by_followed(self, small_fabric, technician):
        now = timezone.now()
        followed = disabled_ticket(small_fabric, at=now - 40 * HOUR)
        Ticket.objects.filter(pk=followed.pk).update(created=now - 40 * HOUR)
        repaired(followed, technician, "clean_fiber", now - 30 * HOUR)
        assert tickets.validate_tickets(now=now) == [followed.pk]
        disabled_ticket(small_fabric, ("f2", "u0"))
        kept = decide(open_event(link(small_fabric, "t0", "up0")))  # t0 would fall to 2 of 4 paths
        assert kept.action == "kept"
        result = metrics_now(small_fabric)
        # What the fabric suffers now: the kept link's corruption, and t2 at 3 of 4 paths.
        assert result["corrupting_links_in_service"] == 1
        assert result["current_penalty"] == pytest.approx(kept.event.last_rate)
        assert result["worst_tor_fraction"] == pytest.approx(0.75)
        assert result["first_attempt"]["followed"] == {"attempts": 1, "fixed": 1, "rate": 1.0}
        assert result["first_attempt"]["not_followed"] == {"attempts": 0, "fixed": 0, "rate": None}
        assert result["open_tickets"] == 1 and result["open_tickets_by_state"]["open"] == 1
        assert result["disabled_links"] == 1 and result["disabled_links_for_corruption"] == 1
        assert result["repaired_tickets"] == 1 and result["mean_time_to_repair_hours"] == pytest.approx(10.0)
