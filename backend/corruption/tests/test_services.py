"""The fast checker on the small fabric (backend/conftest.py).

Every ToR has 2 fabric uplinks and every fabric switch 2 spine uplinks: 4 up-paths per ToR.
At c = 0.75 a ToR must keep ceil(0.75 * 4) = 3 of them, so
- a ToR uplink (2 paths) can never go: the ToR would keep 2/4 = 0.5;
- one fabric-to-spine uplink in pod 0 can go (t0 and t1 keep 3/4), a second one cannot.
"""

import datetime as dt
import io

import pytest
from django.core.management import call_command
from django.utils import timezone

from audit.models import AuditEvent
from corruption import services
from corruption.models import Decision
from fabric import services as fabric_services
from fabric.models import Link, Switch
from telemetry.models import CorruptionEvent, DirectionHealth

pytestmark = pytest.mark.django_db


def link(fabric, switch: str, port: str) -> Link:
    return Link.objects.get(fabric=fabric, a_switch__name=switch, a_port=port)


def open_event(lnk: Link, rate: float = 1e-4, direction: str = "a_to_z", **fields) -> CorruptionEvent:
    now = timezone.now()
    return CorruptionEvent.objects.create(
        link=lnk,
        direction=direction,
        rate=rate,
        last_rate=rate,
        peak_rate=rate,
        first_seen=now - dt.timedelta(minutes=15),
        last_seen=now,
        **fields,
    )


def by_name(decision: Decision) -> dict[str, dict]:
    return {row["name"]: row for row in decision.affected}


class TestDecide:
    def test_a_safe_spine_uplink_is_disabled_by_the_system_with_before_and_after(self, small_fabric):
        uplink = link(small_fabric, "f0", "u0")
        outcome = services.decide_event(open_event(uplink, rate=2e-5).pk)

        decision = outcome.decision
        assert decision is not None and decision.action == "disabled" and decision.kind == "fast_checker"
        assert decision.penalty == pytest.approx(2e-5)
        assert decision.loss_rate_a_to_z == pytest.approx(2e-5) and decision.loss_rate_z_to_a == 0
        affected = by_name(decision)
        assert sorted(affected) == ["t0", "t1"]
        for row in affected.values():
            assert row["fraction_before"] == 1.0 and row["fraction_after"] == 0.75
            assert (row["paths_before"], row["paths_after"], row["required_paths"]) == (4, 3, 3)
        assert decision.blocking_tor is None

        uplink.refresh_from_db()
        assert uplink.admin_state == "disabled" and uplink.admin_reason == "corruption"
        assert uplink.admin_changed_by is None and uplink.admin_changed_at is not None
        audit_row = AuditEvent.objects.get(object_type="fabric.link", object_id=uplink.pk, action="update")
        assert audit_row.user is None
        assert audit_row.before["admin_state"] == "enabled" and audit_row.after["admin_state"] == "disabled"

    def test_a_tor_uplink_is_kept_for_capacity_naming_its_tor(self, small_fabric):
        tor_uplink = link(small_fabric, "t0", "up0")
        decision = services.decide_event(open_event(tor_uplink).pk).decision

        assert decision is not None and decision.action == "kept"
        assert decision.blocking_tor == Switch.objects.get(fabric=small_fabric, name="t0")
        assert decision.blocking_tor_fraction == 1.0
        assert by_name(decision)["t0"]["fraction_after"] == 0.5
        tor_uplink.refresh_from_db()
        assert tor_uplink.admin_state == "enabled" and tor_uplink.admin_reason == ""
        assert list(services.kept_for_capacity()) == [decision]

    def test_a_second_spine_uplink_of_the_pod_is_kept_by_a_tor_at_its_floor(self, small_fabric):
        first = services.decide_event(open_event(link(small_fabric, "f0", "u0"), rate=1e-3).pk).decision
        second = services.decide_event(open_event(link(small_fabric, "f1", "u0"), rate=1e-4).pk).decision

        assert first is not None and first.action == "disabled"
        assert second is not None and second.action == "kept"
        # t0 and t1 both sit at 3 of 4 paths; the tie goes to the first name.
        assert second.blocking_tor is not None and second.blocking_tor.name == "t0"
        assert second.blocking_tor_fraction == 0.75
        assert by_name(second)["t1"]["fraction_after"] == 0.5
        # The other pod is independent.
        third = services.decide_event(open_event(link(small_fabric, "f2", "u1")).pk).decision
        assert third is not None and third.action == "disabled"
        capacity = fabric_services.fabric_capacity(small_fabric)
        assert capacity["summary"]["below_constraint"] == 0

    def test_a_links_oper_down_neighbour_counts_against_capacity(self, small_fabric):
        Link.objects.filter(pk=link(small_fabric, "f0", "u1").pk).update(oper_state="down")
        decision = services.decide_event(open_event(link(small_fabric, "f1", "u0")).pk).decision
        assert decision is not None and decision.action == "kept"
        assert decision.blocking_tor_fraction == 0.75

    def test_a_tor_override_lets_its_uplink_go(self, small_fabric):
        Switch.objects.filter(fabric=small_fabric, name="t0").update(capacity_constraint=0.5)
        decision = services.decide_event(open_event(link(small_fabric, "t0", "up0")).pk).decision
        assert decision is not None and decision.action == "disabled"
        assert by_name(decision)["t0"]["threshold"] == 0.5

    def test_the_other_directions_rate_adds_to_the_penalty(self, small_fabric):
        uplink = link(small_fabric, "f0", "u0")
        DirectionHealth.objects.create(link=uplink, direction="a_to_z", health="lossy", corruption_rate=3e-8)
        DirectionHealth.objects.create(link=uplink, direction="z_to_a", health="corrupting", corruption_rate=4e-6)
        decision = services.decide_event(open_event(uplink, rate=5e-5, direction="z_to_a").pk).decision
        assert decision is not None
        assert decision.loss_rate_a_to_z == pytest.approx(3e-8)
        assert decision.loss_rate_z_to_a == pytest.approx(5e-5)  # the event's own rate wins
        assert decision.penalty == pytest.approx(3e-8 + 5e-5)

    def test_a_clean_other_direction_adds_nothing(self, small_fabric):
        uplink = link(small_fabric, "f0", "u0")
        DirectionHealth.objects.create(link=uplink, direction="z_to_a", health="clean", corruption_rate=1e-9)
        decision = services.decide_event(open_event(uplink, rate=5e-5).pk).decision
        assert decision is not None and decision.loss_rate_z_to_a == 0


class TestSkips:
    def test_deciding_twice_makes_one_decision(self, small_fabric):
        event = open_event(link(small_fabric, "t0", "up0"))
        assert services.decide_event(event.pk).decision is not None
        again = services.decide_event(event.pk)
        assert again.decision is None and again.skipped == "already decided"
        assert Decision.objects.filter(event=event).count() == 1

    def test_an_ended_event_is_skipped(self, small_fabric):
        event = open_event(link(small_fabric, "f0", "u0"), ended_at=timezone.now())
        outcome = services.decide_event(event.pk)
        assert outcome.skipped == "event ended" and not Decision.objects.exists()
        assert link(small_fabric, "f0", "u0").admin_state == "enabled"

    def test_a_disabled_or_down_link_is_skipped(self, small_fabric):
        disabled = link(small_fabric, "f0", "u0")
        Link.objects.filter(pk=disabled.pk).update(admin_state="disabled")
        down = link(small_fabric, "f2", "u0")
        Link.objects.filter(pk=down.pk).update(oper_state="down")
        assert services.decide_event(open_event(disabled).pk).skipped == "link is disabled and up"
        assert services.decide_event(open_event(down).pk).skipped == "link is enabled and down"
        assert not Decision.objects.exists()

    def test_the_second_direction_of_a_disabled_link_is_skipped(self, small_fabric):
        uplink = link(small_fabric, "f0", "u0")
        up, down = open_event(uplink, direction="a_to_z"), open_event(uplink, direction="z_to_a")
        assert services.decide_event(up.pk).decision is not None
        assert services.decide_event(down.pk).skipped == "link is disabled and up"

    def test_an_unknown_event_is_skipped(self, db):
        assert services.decide_event(987654321).skipped == "no such event"

    def test_an_optimizer_decision_may_follow_on_the_same_event(self, small_fabric):
        event = open_event(link(small_fabric, "t0", "up0"))
        first = services.decide_event(event.pk).decision
        assert first is not None
        Decision.objects.create(
            fabric=small_fabric, link=event.link, event=event, kind="optimizer", action="disabled", penalty=1e-4,
            engine_ms=1.0,
        )  # fmt: skip
        assert Decision.objects.filter(event=event).count() == 2
        assert not services.kept_for_capacity().exists()  # the newest decision of the link is not "kept"


class TestCatchUp:
    def test_undecided_open_events_are_decided_largest_rate_first(self, small_fabric):
        # Both pod-0 spine uplinks corrupt; only one may go: the one with the larger rate.
        small = open_event(link(small_fabric, "f0", "u0"), rate=1e-6)
        large = open_event(link(small_fabric, "f1", "u1"), rate=1e-3)
        open_event(link(small_fabric, "f2", "u0"), ended_at=timezone.now())
        out = io.StringIO()
        call_command("decide_corruption", "--fabric", "small", stdout=out)
        assert "small: 2 decided (1 disabled, 1 kept), 0 skipped" in out.getvalue()
        assert Decision.objects.get(event=large).action == "disabled"
        assert Decision.objects.get(event=small).action == "kept"
        assert not services.undecided_open_events(small_fabric).exists()

    def test_an_unknown_fabric_is_an_error(self, db):
        with pytest.raises(Exception, match="no fabric named 'nope'"):
            call_command("decide_corruption", "--fabric", "nope")


def test_deleting_a_fabric_takes_its_decisions(small_fabric):
    services.decide_event(open_event(link(small_fabric, "t0", "up0")).pk)
    services.decide_event(open_event(link(small_fabric, "f0", "u0")).pk)
    fabric_services.delete_fabric(small_fabric)
    assert not Decision.objects.exists()
