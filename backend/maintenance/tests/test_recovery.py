"""Capacity recovery (issue #18, "Starting work is capacity-safe", last bullet) on the demo fabric in
PostgreSQL, through GET/POST /api/fabrics/{id}/recovery/.

Pod 1 of the demo: p1-tor0 has 4 uplinks (eth2/1..4 to p1-fab0..3), each fabric switch 4 spine
uplinks, so 16 up-paths; the constraint 0.75 requires 12. CorrOpt disables its corrupting uplink to
p1-fab0 (16 -> 12, allowed). Then its uplink to p1-fab1 goes down (telemetry, through link_state's
oper path): 8 of 12. Re-enabling the lossy uplink brings it back to 12. The demo's p1-tor3 (two
uplinks out, 8 of 16) is under too, and no lossy link reaches it: it needs a repair. A worse lossy
link in pod 3 (p3-tor2's uplink to p3-fab0) helps nobody in pod 1 and is never proposed.
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from audit.models import AuditEvent
from corruption import optimizer
from fabric.models import Fabric, Link
from fabric.services import link_state
from lightpath.tests import query_counts
from maintenance.services import recovery

from .test_visits import client, corrupt, decide, link_at, paths

pytestmark = pytest.mark.django_db
URL = "/api/fabrics/{}/recovery/"


@pytest.fixture
def lossy(demo):
    """CorrOpt disabled p1-tor0's uplink to p1-fab0 (1e-4) and p3-tor2's to p3-fab0 (1e-3)."""
    links = {"p1": link_at(demo, "p1-tor0", "eth2/1"), "p3": link_at(demo, "p3-tor2", "eth2/1")}
    decide(corrupt(links["p1"], rate=1e-4))
    decide(corrupt(links["p3"], rate=1e-3))
    assert paths(demo, "p1-tor0") == 12
    return links


@pytest.fixture
def went_down(demo, lossy):
    """p1-tor0's uplink to p1-fab1 reported down, as telemetry's derivation does."""
    down = link_at(demo, "p1-tor0", "eth2/2")
    assert link_state.set_oper_states(demo.pk, {down.pk: Link.OperState.DOWN}) == [down.pk]
    assert paths(demo, "p1-tor0") == 8
    return down


def state_of(link: Link) -> tuple[str, str]:
    link.refresh_from_db()
    return link.admin_state, link.admin_reason


class TestProposal:
    def test_a_tor_pushed_under_by_a_link_going_down_gets_the_lossy_link_the_guard_confirms(
        self, demo, lossy, went_down, make_user
    ):
        response = client(make_user("viewer")).get(URL.format(demo.pk))
        assert response.status_code == 200, response.content
        body = response.json()
        assert [(t["name"], t["paths"], t["required_paths"], t["design_paths"]) for t in body["under_tors"]] == [
            ("p1-tor0", 8, 12, 16),
            ("p1-tor3", 8, 12, 16),
        ]
        [link] = body["links"]
        assert (link["id"], link["name"], link["loss_rate"]) == (
            lossy["p1"].pk,
            "p1-tor0:eth2/1 - p1-fab0:eth1/1",
            pytest.approx(1e-4),
        )
        assert link["penalty"] == pytest.approx(1e-4) and body["added_penalty"] == pytest.approx(1e-4)
        assert body["proven_optimal"] and body["auto_restore"] is False
        assert [(t["name"], t["paths_best"], t["required_paths"]) for t in body["unreachable_tors"]] == [
            ("p1-tor3", 8, 12)
        ]
        # What to repair for it: its own uplinks out of service, named (the trial's dead end).
        [p1_tor3] = body["unreachable_tors"]
        out = Link.objects.filter(a_switch__name="p1-tor3").exclude(admin_state="enabled", oper_state="up")
        assert p1_tor3["links_out"] and {row["id"] for row in p1_tor3["links_out"]} == {link.pk for link in out}
        assert all(row["state"] in ("down", "disabled") and "p1-tor3:" in row["name"] for row in p1_tor3["links_out"])
        assert body["detail"].startswith("2 ToRs under their requirement, worst p1-tor0 at 8 of 16 up-paths")
        assert "p1-tor3 needs a repair" in body["detail"]

        # The guard's own recount of enabling exactly those links: p1-tor0 back at its 12.
        verdict = link_state.change_admin_states(
            demo.pk, {link["id"]: link_state.AdminChange("enabled")}, None, dry_run=True
        )
        [row] = [row for row in verdict.affected_tors if row["name"] == "p1-tor0"]
        assert (row["paths_before"], row["paths_after"], row["required_paths"]) == (8, 12, 12)
        assert state_of(lossy["p1"])[0] == "disabled"  # reading changed nothing

    def test_nothing_under_nothing_proposed(self, demo, lossy):
        Link.objects.filter(pk__in=link_state.switch_links(demo.switches.get(name="p1-tor3"))).update(
            admin_state="enabled", admin_reason="", oper_state="up"
        )
        found = recovery.proposal(demo)
        assert (found.under_tors, found.links, found.unreachable_tors) == ([], [], [])
        assert found.detail == "Every ToR is at or above its requirement: nothing to recover."

    def test_every_reading_role_reads_it_and_the_count_of_queries_holds(
        self, demo, went_down, make_user, anonymous, request
    ):
        for role in ("viewer", "technician", "planner", "operator", "admin", "collector"):
            assert client(make_user(role)).get(URL.format(demo.pk)).status_code == 200, role
        api = client(make_user("viewer", "reader"))
        with CaptureQueriesContext(connection) as queries:
            assert api.get(URL.format(demo.pk)).status_code == 200
        query_counts.check("GET /api/fabrics/{id}/recovery/", len(queries), request.node.nodeid)
        assert client(make_user("viewer", "other")).get(URL.format(999_999_999)).status_code == 404
        assert anonymous.get(URL.format(demo.pk)).status_code == 401
        assert client(make_user(None, "nobody")).get(URL.format(demo.pk)).status_code == 403


class TestApply:
    def test_an_operator_enables_exactly_the_proposed_links(self, demo, lossy, went_down, make_user, request):
        operator = make_user("operator")
        disabled_before = set(Link.objects.filter(fabric=demo, admin_state="disabled").values_list("id", flat=True))
        with CaptureQueriesContext(connection) as queries:
            response = client(operator).post(URL.format(demo.pk), {"links": [lossy["p1"].pk]}, format="json")
        assert response.status_code == 200, response.content
        query_counts.check("POST /api/fabrics/{id}/recovery/", len(queries), request.node.nodeid)
        body = response.json()
        assert [link["id"] for link in body["enabled"]] == [lossy["p1"].pk]
        assert body["detail"].startswith("Enabled 1 lossy link (added penalty 0.0001). Now: 1 ToR under its")
        assert [t["name"] for t in body["after"]["under_tors"]] == ["p1-tor3"] and body["after"]["links"] == []

        assert state_of(lossy["p1"]) == ("enabled", "restoration: capacity recovery")
        disabled_after = set(Link.objects.filter(fabric=demo, admin_state="disabled").values_list("id", flat=True))
        assert disabled_before - disabled_after == {lossy["p1"].pk} and disabled_after <= disabled_before
        assert state_of(lossy["p3"])[0] == "disabled"
        assert paths(demo, "p1-tor0") == 12
        link_row = AuditEvent.objects.get(
            object_type="fabric.link", object_id=lossy["p1"].pk, after__admin_state="enabled"
        )
        assert link_row.user == operator
        fabric_row = AuditEvent.objects.get(object_type="fabric.fabric", object_id=demo.pk, note="capacity recovery")
        assert fabric_row.user == operator and fabric_row.after["capacity_recovery"]["enabled"] == [lossy["p1"].pk]

    def test_a_stale_list_is_refused_with_the_proposal_now(self, demo, lossy, went_down, make_user):
        operator = client(make_user("operator"))
        stale = operator.post(URL.format(demo.pk), {"links": [lossy["p3"].pk]}, format="json")
        assert stale.status_code == 409, stale.content
        assert stale.json()["detail"].startswith("The recovery changed: apply the links proposed now.")
        assert [link["id"] for link in stale.json()["links"]] == [lossy["p1"].pk]
        assert state_of(lossy["p3"])[0] == state_of(lossy["p1"])[0] == "disabled"

        assert operator.post(URL.format(demo.pk), {"links": [lossy["p1"].pk]}, format="json").status_code == 200
        again = operator.post(URL.format(demo.pk), {"links": [lossy["p1"].pk]}, format="json")
        assert again.status_code == 409 and again.json()["links"] == []

    @pytest.mark.parametrize("role", ["viewer", "technician", "planner", "collector"])
    def test_only_operators_and_admins_apply_it(self, demo, lossy, went_down, make_user, role):
        response = client(make_user(role)).post(URL.format(demo.pk), {"links": [lossy["p1"].pk]}, format="json")
        assert response.status_code == 403
        assert state_of(lossy["p1"])[0] == "disabled"
        admin = client(make_user("admin")).post(URL.format(demo.pk), {"links": [lossy["p1"].pk]}, format="json")
        assert admin.status_code == 200

    def test_bad_bodies_answer_400_with_every_problem(self, demo, went_down, make_user):
        operator = client(make_user("operator"))
        for body, problem in [
            ({}, "This field is required."),
            ({"links": []}, "This list may not be empty."),
            ({"links": "7"}, 'Expected a list of items but got type "str".'),
        ]:
            response = operator.post(URL.format(demo.pk), body, format="json")
            assert response.status_code == 400 and response.json() == {"links": [problem]}, response.content
        response = operator.post(URL.format(demo.pk), {"links": [0, "x"]}, format="json")
        assert response.status_code == 400 and set(response.json()["links"]) == {"0", "1"}


class TestAutomatic:
    def test_links_going_down_queue_one_recovery_on_commit(self, demo, lossy, django_capture_on_commit_callbacks):
        downs = [link_at(demo, "p1-tor0", f"eth2/{n}").pk for n in (2, 3)]
        with django_capture_on_commit_callbacks() as callbacks:
            link_state.set_oper_states(demo.pk, {downs[0]: "down"})
            link_state.set_oper_states(demo.pk, {downs[1]: "down"})
        sends = [callback for callback in callbacks if isinstance(callback, recovery._Send)]
        assert [send.fabric_id for send in sends] == [demo.pk]

    def test_auto_restore_off_applies_nothing_and_the_proposal_stays(self, demo, lossy, went_down):
        result = recovery.recover_automatically(demo.pk)
        assert result["enabled"] == [] and state_of(lossy["p1"])[0] == "disabled"
        assert recovery.proposal(demo).enable == [lossy["p1"].pk]

    def test_auto_restore_on_applies_it_as_the_system(self, demo, lossy, went_down):
        Fabric.objects.filter(pk=demo.pk).update(auto_restore=True)
        result = recovery.recover_automatically(demo.pk)
        assert result["enabled"] == [lossy["p1"].pk]
        assert state_of(lossy["p1"]) == ("enabled", "restoration: capacity recovery")
        row = AuditEvent.objects.get(object_type="fabric.fabric", object_id=demo.pk, note__startswith="capacity")
        assert (row.user, row.note) == (None, "capacity recovery: automatic (auto_restore)")
        link_row = AuditEvent.objects.get(
            object_type="fabric.link", object_id=lossy["p1"].pk, after__admin_state="enabled"
        )
        assert link_row.user is None and link_row.after["admin_reason"] == "restoration: capacity recovery"
        # A re-delivered task finds p1-tor0 recovered and enables nothing more.
        assert recovery.recover_automatically(demo.pk)["enabled"] == []

    def test_when_the_link_comes_back_the_optimizer_disables_the_recovered_link_again(
        self, demo, lossy, went_down, make_user
    ):
        """No code of the recovery puts them back: CorrOpt's optimizer, run when the link comes up
        (capacity_changed), takes every enabled corrupting link the guard allows."""
        applied = client(make_user("operator")).post(URL.format(demo.pk), {"links": [lossy["p1"].pk]}, format="json")
        assert applied.status_code == 200, applied.content
        link_state.set_oper_states(demo.pk, {went_down.pk: Link.OperState.UP})
        assert paths(demo, "p1-tor0") == 16
        summary = optimizer.optimize_fabric(demo.pk)
        assert [row["link"] for row in summary["disabled"]] == [lossy["p1"].pk]
        assert state_of(lossy["p1"]) == ("disabled", "corruption")
        assert paths(demo, "p1-tor0") == 12
