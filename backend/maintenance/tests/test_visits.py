"""Starting and finishing a work order, capacity-safe (issue #18), on the demo fabric in PostgreSQL
through the API (POST /api/work-orders/{id}/start/ and finish/).

Pod 3 of the demo: each ToR has 4 uplinks (eth2/j+1 to p3-fab{j}) and each fabric switch 4 spine
uplinks (eth2/1-4, one breakout group), so 16 up-paths; the constraint 0.75 requires 12. p3-tor6's
uplink to p3-fab0 is disabled in the demo, so it does not go through p3-fab0.

- `spine_cable`: p3-fab0's spine uplink eth2/1 corrupts and CorrOpt disables it (pod 3's ToRs at
  15); its ticket says replace the cable, a breakout cable: the visit takes p3-fab0's four spine
  uplinks down, leaving the ToRs at 12 — safe.
- with `lossy_uplink` too, p3-tor2 (its own constraint 0.6: 10 required) has its uplink to p3-fab1
  disabled for corruption (11 paths): the same visit would leave it 8, and re-enabling that lossy
  uplink for the repair brings it to 12 — needs_restoration.
"""

import copy
import json
import threading

import pytest
from django.db import connections
from django.utils import timezone
from rest_framework.test import APIClient

from audit.models import AuditEvent
from corruption import services as corruption
from corruption.models import Ticket, TicketStep
from fabric import services as fabric_services
from fabric.models import Fabric, Link, Switch
from fabric.services import link_state, live
from lightpath.settings import REPO_ROOT
from maintenance.models import WorkOrder
from maintenance.services import visits, work_orders
from telemetry.models import CorruptionEvent

pytestmark = pytest.mark.django_db
DEMO = json.loads((REPO_ROOT / "fixtures" / "data" / "demo-fb.json").read_text())
RATE = 1e-4


def link_at(fabric, switch: str, port: str) -> Link:
    return Link.objects.select_related("a_switch", "z_switch").get(fabric=fabric, a_switch__name=switch, a_port=port)


def corrupt(link: Link, rate: float = RATE) -> CorruptionEvent:
    now = timezone.now()
    return CorruptionEvent.objects.create(
        link=link, direction="a_to_z", rate=rate, last_rate=rate, peak_rate=rate, first_seen=now, last_seen=now
    )


def decide(event: CorruptionEvent) -> Ticket:
    """CorrOpt's fast checker disables the link; its ticket opens (work orders regroup below)."""
    outcome = corruption.decide_event(event.pk)
    assert outcome.decision is not None and outcome.decision.action == "disabled", outcome
    return Ticket.objects.get(link=event.link_id)


def order_of(ticket: Ticket, action: str | None = None) -> WorkOrder:
    """The ticket's open work order, regrouped now (as on the commit of the ticket's change); with
    `action`, the ticket's newest step recommends it first (as an escalated step would)."""
    if action is not None:
        TicketStep.objects.filter(pk=ticket.steps.order_by("-number").first().pk).update(recommended_action=action)
    work_orders.regroup(ticket.fabric_id)
    return WorkOrder.objects.get(state="open", entries__ticket=ticket, entries__current=True)


def paths(fabric, tor: str) -> int:
    (row,) = [row for row in fabric_services.fabric_capacity(fabric)["tors"] if row["name"] == tor]
    return row["available_paths"]


@pytest.fixture
def spine_cable(demo):
    """p3-fab0's corrupting spine uplink, disabled, its ticket and the cable's work order."""
    ticket = decide(corrupt(link_at(demo, "p3-fab0", "eth2/1")))
    return ticket, order_of(ticket, "replace_cable")


@pytest.fixture
def lossy_uplink(demo, spine_cable):
    """p3-tor2's uplink to p3-fab1 disabled for corruption (p3-tor2 needs 10 of 16: 0.6)."""
    Switch.objects.filter(fabric=demo, name="p3-tor2").update(capacity_constraint=0.6)
    link = link_at(demo, "p3-tor2", "eth2/2")
    decide(corrupt(link, rate=3e-5))
    return link


def client(user) -> APIClient:
    api = APIClient()
    api.force_authenticate(user)
    return api


def start(user, order: WorkOrder, body=None, dry_run: bool = False):
    query = "?dry_run=1" if dry_run else ""
    return client(user).post(f"/api/work-orders/{order.pk}/start/{query}", body or {}, format="json")


def finish(user, order: WorkOrder, outcome: str, notes: str = ""):
    return client(user).post(
        f"/api/work-orders/{order.pk}/finish/", {"outcome": outcome, "notes": notes}, format="json"
    )


def states(link_ids) -> dict[int, tuple[str, str]]:
    return {pk: (state, reason) for pk, state, reason in Link.objects.filter(pk__in=link_ids).values_list(
        "id", "admin_state", "admin_reason")}  # fmt: skip


class TestBreakoutCable:
    def test_p1_tor5s_breakout_cable_is_blocked_as_it_stands(self, demo, make_user):
        """The demo's breakout case: p1-tor5's eth2/1 and eth2/2 corrupt together; CorrOpt disables
        eth2/1 (16 -> 12 up-paths, the 12 its 0.75 requires) and keeps eth2/2 for capacity. The
        ticket says replace the breakout cable, which takes all four uplinks (eth2/3 and eth2/4 in
        service) down: 0 of 16. No lossy link can help (every uplink of p1-tor5 is on that cable),
        so the start is blocked, not needs_restoration; an admin may override (the rack drained)."""
        first, second = (link_at(demo, "p1-tor5", f"eth2/{n}") for n in (1, 2))
        events = [corrupt(first), corrupt(second)]
        ticket = decide(events[0])
        assert corruption.decide_event(events[1].pk).decision.action == "kept"
        order = order_of(ticket)
        assert (order.action, order.component_name) == ("replace_shared_component", "breakout cable p1-tor5 eth2/1-4")
        tech = make_user("technician")

        preview = start(tech, order, dry_run=True)
        assert preview.status_code == 200, preview.content
        body = preview.json()
        assert body["verdict"] == "blocked" and body["restoration"] is None
        assert [row["name"] for row in body["footprint"]] == [
            f"p1-tor5:eth2/{n} - p1-fab{n - 1}:eth1/6" for n in (1, 2, 3, 4)
        ]
        assert [(r["name"], r["paths_before"], r["paths_after"]) for r in body["blocking_tors"]] == [("p1-tor5", 12, 0)]
        assert [(r["name"], r["paths_before"], r["paths_best"], r["floor"]) for r in body["unreachable_tors"]] == [
            ("p1-tor5", 12, 0, 12)
        ]
        assert body["detail"].startswith("Blocked: p1-tor5 would fall to 0 of 16 up-paths, under the 12")

        refused = start(tech, order)
        assert refused.status_code == 409 and refused.json()["verdict"] == "blocked"
        assert states([second.pk])[second.pk] == ("enabled", "") and paths(demo, "p1-tor5") == 12
        assert start(tech, order, {"override_capacity": True, "admin_reason": "rack drained"}).status_code == 403

        admin = make_user("admin")
        forced = start(admin, order, {"override_capacity": True, "admin_reason": "rack drained of its servers"})
        assert forced.status_code == 200, forced.content
        assert forced.json()["state"] == "in_progress" and paths(demo, "p1-tor5") == 0
        note = AuditEvent.objects.filter(object_type="fabric.link", object_id=second.pk).latest("id").note
        assert note.startswith("capacity override: maintenance: work order")


class TestBlockedAdvice:
    """What the blocked answer tells the technician to do (trial item 9): waiting for repairs
    helps only when other links out of service are on the short ToR's paths."""

    def test_a_footprint_that_alone_takes_the_tor_under_advises_a_drain_and_an_override(self, demo, make_user):
        order = order_of(decide(corrupt(link_at(demo, "p1-tor5", "eth2/1"))), "replace_cable")
        assert order.component_name == "breakout cable p1-tor5 eth2/1-4"

        detail = start(make_user("technician"), order, dry_run=True).json()["detail"]
        assert detail.startswith("Blocked: p1-tor5 would fall to 0 of 16 up-paths")
        assert "Nothing else is in the way: with every other link back in service, this footprint alone" in detail
        assert detail.endswith("Drain the rack's traffic first, then an admin starts it with an override and a reason.")
        assert "repairing the other links" not in detail

    @pytest.mark.parametrize("out_of_service", ["disabled", "down"])
    def test_other_links_out_of_service_on_its_paths_are_named_as_what_frees_capacity(
        self, demo, spine_cable, make_user, out_of_service
    ):
        """p3-fab1's spine uplink out of service (disabled by hand, not for corruption, or down:
        no restoration can use it) leaves pod 3's ToRs at 14; the p3-fab0 cable would take them to
        11, 12 with that link back. (p3-tor6, without p3-fab0 and at 11, gets a constraint of 0.5
        so the guard allows it.)"""
        _, order = spine_cable
        Switch.objects.filter(fabric=demo, name="p3-tor6").update(capacity_constraint=0.5)
        uplink = link_at(demo, "p3-fab1", "eth2/1").pk
        if out_of_service == "down":
            assert link_state.set_oper_states(demo.pk, {uplink: "down"}) == [uplink]
        else:
            cabling = {uplink: link_state.AdminChange("disabled", "cabling audit")}
            assert link_state.change_admin_states(demo.pk, cabling, make_user("operator")).applied

        body = start(make_user("technician"), order, dry_run=True).json()
        assert body["verdict"] == "blocked" and body["waits_for"] == []
        assert body["detail"].endswith(
            "; repairing the other links out of service on its paths (disabled or down) frees capacity."
        )
        assert "Nothing else is in the way" not in body["detail"]


class TestSafeVisit:
    def test_a_safe_order_starts_and_finishes_and_its_ticket_awaits_validation(self, demo, spine_cable, make_user):
        ticket, order = spine_cable
        siblings = [link_at(demo, "p3-fab0", f"eth2/{n}").pk for n in (2, 3, 4)]
        assert sorted(order.footprint) == sorted([ticket.link_id, *siblings])
        tech = make_user("technician", "tina")

        preview = start(tech, order, dry_run=True).json()
        assert preview["verdict"] == "safe" and preview["restoration"] is None
        assert "p3-tor0 keeps 12 of 16 up-paths (12 required)" in preview["detail"]

        started = start(tech, order)
        assert started.status_code == 200, started.content
        assert (started.json()["state"], started.json()["started_by"]) == ("in_progress", "tina")
        reason = f"maintenance: work order {order.pk} (replace_cable breakout cable p3-fab0 eth2/1-4)"
        assert set(states(siblings).values()) == {("disabled", reason)}
        assert states([ticket.link_id])[ticket.link_id] == ("disabled", "corruption")  # left as it was
        ticket.refresh_from_db()
        assert (ticket.state, ticket.assignee) == ("in_progress", tech)
        assert paths(demo, "p3-tor0") == 12
        again = start(tech, order)
        assert again.status_code == 409 and again.json() == {
            "detail": f"work order {order.pk} is in_progress",
            "state": "in_progress",
        }

        done = finish(tech, order, "repaired", "new cable, 40 m")
        assert done.status_code == 200, done.content
        assert done.json()["state"] == "done" and done.json()["outcome"] == "repaired" and done.json()["finished_at"]
        ticket.refresh_from_db()
        assert ticket.state == "awaiting_validation" and ticket.validation_started_at is not None
        step = ticket.steps.order_by("-number").first()
        assert (step.action_taken, step.followed, step.notes) == ("replace_cable", True, "new cable, 40 m")
        assert all(state == "enabled" for state, _ in states([ticket.link_id, *siblings]).values())
        assert paths(demo, "p3-tor0") == 16
        assert finish(tech, order, "repaired").status_code == 409

    def test_not_repaired_puts_everything_back_and_the_order_opens_again(self, demo, spine_cable, make_user):
        ticket, order = spine_cable
        tech = make_user("technician")
        before = states(order.footprint)
        assert start(tech, order).status_code == 200
        answer = finish(tech, order, "not_repaired", "wrong connector on the truck")
        assert answer.status_code == 200, answer.content
        assert (answer.json()["state"], answer.json()["outcome"]) == ("open", "not_repaired")
        assert states(order.footprint) == before
        # The corrupting cable stays disabled (not named); the siblings the start took down come back.
        back = Link.objects.filter(fabric=demo, a_switch__name="p3-fab0").exclude(pk=ticket.link_id).order_by("pk")
        assert answer.json()["detail"] == (
            f"Not repaired: work order {order.pk} is open; back in service: {', '.join(map(str, back))}; "
            "its tickets stay in progress."
        )
        ticket.refresh_from_db()
        assert ticket.state == "in_progress"
        assert ticket.comments.get().text.endswith("not repaired. wrong connector on the truck")
        assert start(tech, order).status_code == 200  # it can be started again


class TestRestoration:
    def test_an_operator_starts_it_with_the_offered_restoration_and_finish_puts_it_back(
        self, demo, spine_cable, lossy_uplink, make_user
    ):
        ticket, order = spine_cable
        siblings = [link_at(demo, "p3-fab0", f"eth2/{n}").pk for n in (2, 3, 4)]
        operator = make_user("operator")
        preview = start(operator, order, dry_run=True).json()
        assert preview["verdict"] == "needs_restoration", preview
        assert [
            (r["name"], r["paths_before"], r["paths_after"], r["required_paths"]) for r in preview["blocking_tors"]
        ] == [("p3-tor2", 11, 8, 10)]
        restoration = preview["restoration"]
        assert [(row["id"], row["name"], row["loss_rate"]) for row in restoration["links"]] == [
            (lossy_uplink.pk, str(lossy_uplink), 3e-5)
        ]
        assert restoration["added_penalty"] == pytest.approx(restoration["links"][0]["penalty"])
        assert restoration["proven_optimal"] and not restoration["needs_approval"]
        assert preview["detail"].startswith("Needs a restoration: p3-tor2 would fall to 8 of 16 up-paths")

        marker = AuditEvent.objects.latest("id").pk
        started = start(operator, order, {"restoration": [lossy_uplink.pk]})
        assert started.status_code == 200, started.content
        assert started.json()["restored_links"] == [{"id": lossy_uplink.pk, "name": str(lossy_uplink)}]
        assert states([lossy_uplink.pk])[lossy_uplink.pk] == ("enabled", f"restoration: work order {order.pk}")
        assert all(state == "disabled" for state, _ in states(siblings).values())
        assert paths(demo, "p3-tor2") == 12
        # One guarded set: the footprint's three and the restored link, audited at one instant.
        rows = AuditEvent.objects.filter(pk__gt=marker, object_type="fabric.link")
        assert sorted(rows.values_list("object_id", flat=True)) == sorted([*siblings, lossy_uplink.pk])
        assert len(set(rows.values_list("timestamp", flat=True))) == 1

        finished = finish(operator, order, "repaired")
        assert finished.status_code == 200
        # What happened to each link: the cable enabled for validation, its siblings back, the restoration out.
        back = ", ".join(str(link) for link in Link.objects.filter(pk__in=siblings).order_by("pk"))
        assert finished.json()["detail"] == (
            f"Repaired: work order {order.pk} is done; enabled for validation: {ticket.link}; "
            f"back in service: {back}; disabled again for corruption: {lossy_uplink}."
        )
        assert states([lossy_uplink.pk])[lossy_uplink.pk] == ("disabled", "corruption")
        assert all(state == "enabled" for state, _ in states([ticket.link_id, *siblings]).values())
        assert paths(demo, "p3-tor2") == 12  # its spine path through p3-fab0 repaired, the lossy uplink out

    def test_a_restored_link_the_guard_still_needs_stays_enabled_and_is_named(
        self, demo, spine_cable, lossy_uplink, make_user
    ):
        """p3-tor2's uplink to p3-fab2 goes down during the visit: with the spine cable back, p3-tor2
        has 12 up-paths, 4 of them through the restored uplink; without it 8, under its 10."""
        ticket, order = spine_cable
        operator = make_user("operator")
        assert start(operator, order, {"restoration": [lossy_uplink.pk]}).status_code == 200
        siblings = sorted((link_at(demo, "p3-fab0", f"eth2/{n}") for n in (2, 3, 4)), key=lambda link: link.pk)
        back = ", ".join(map(str, siblings))
        link_state.set_oper_states(demo.pk, {link_at(demo, "p3-tor2", "eth2/3").pk: "down"})
        answer = finish(operator, order, "repaired")
        assert answer.status_code == 200, answer.content
        assert answer.json()["detail"] == (
            f"Repaired: work order {order.pk} is done; enabled for validation: {ticket.link}; back in service: "
            f"{back}. Restored link {lossy_uplink} stays enabled: disabling "
            "it now would put a ToR under its constraint (the optimizer decides it later)."
        )
        assert states([lossy_uplink.pk])[lossy_uplink.pk][0] == "enabled" and paths(demo, "p3-tor2") == 12

    def test_a_technician_needs_approval_unless_the_fabric_allows_it(self, demo, spine_cable, lossy_uplink, make_user):
        _, order = spine_cable
        tech = make_user("technician")
        assert start(tech, order, dry_run=True).json()["restoration"]["needs_approval"]
        refused = start(tech, order, {"restoration": [lossy_uplink.pk]})
        assert refused.status_code == 403 and refused.json()["detail"] == "an operator must approve the restoration"
        assert states([lossy_uplink.pk])[lossy_uplink.pk][0] == "disabled"

        # A technician may not allow it, an operator may.
        url = f"/api/fabrics/{demo.pk}/"
        assert client(tech).patch(url, {"auto_restore": True}, format="json").status_code == 403
        assert client(make_user("operator")).patch(url, {"auto_restore": True}, format="json").status_code == 200
        assert Fabric.objects.get(pk=demo.pk).auto_restore
        assert not start(tech, order, dry_run=True).json()["restoration"]["needs_approval"]
        assert start(tech, order, {"restoration": [lossy_uplink.pk]}).status_code == 200
        assert states([lossy_uplink.pk])[lossy_uplink.pk][0] == "enabled"

    def test_a_missing_or_stale_restoration_list_is_a_conflict_with_the_preview(
        self, demo, spine_cable, lossy_uplink, make_user
    ):
        ticket, order = spine_cable
        operator = make_user("operator")
        for body, cause in (({}, "is needed"), ({"restoration": [lossy_uplink.pk, ticket.link_id]}, "changed")):
            answer = start(operator, order, body)
            assert answer.status_code == 409, answer.content
            assert answer.json()["verdict"] == "needs_restoration"
            assert answer.json()["detail"].startswith(f"The restoration {cause}")
            assert answer.json()["restoration"]["links"][0]["id"] == lossy_uplink.pk
        assert WorkOrder.objects.get(pk=order.pk).state == "open"
        assert states([lossy_uplink.pk])[lossy_uplink.pk][0] == "disabled"


class TestRequests:
    def test_a_bad_body_lists_every_problem(self, spine_cable, make_user):
        _, order = spine_cable
        admin = make_user("admin")
        answer = start(admin, order, {"restoration": ["x"], "override_capacity": "maybe"})
        assert answer.status_code == 400
        assert set(answer.json()) == {"restoration", "override_capacity"}
        answer = start(admin, order, {"restoration": "all", "override_capacity": True, "admin_reason": " "})
        assert answer.status_code == 400 and set(answer.json()) == {"restoration", "admin_reason"}
        answer = finish(admin, order, "fixed", "x" * 2001)
        assert answer.status_code == 400 and set(answer.json()) == {"outcome", "notes"}
        assert WorkOrder.objects.get(pk=order.pk).state == "open"

    def test_not_found_and_who_may(self, spine_cable, make_user):
        _, order = spine_cable
        assert client(make_user("technician")).post("/api/work-orders/999999999/start/", {}).status_code == 404
        for role in ("viewer", "planner"):
            assert start(make_user(role), order).status_code == 403
            assert start(make_user(role), order, dry_run=True).status_code == 403
            assert finish(make_user(role), order, "repaired").status_code == 403
        assert APIClient().post(f"/api/work-orders/{order.pk}/start/").status_code == 401
        assert client(make_user("viewer")).get(f"/api/work-orders/{order.pk}/").json()["restored_links"] == []


@pytest.mark.django_db(transaction=True)
def test_two_visits_safe_alone_but_not_together_exactly_one_starts(make_user):
    """Pod 3 at constraint 0.6 (10 of 16; p3-tor6, already without p3-fab0, at 0.5): the spine
    cables of p3-fab0 and p3-fab1 each take 4 paths of every ToR (14 -> 11 with their corrupt
    uplinks already out), both 8. Two technicians start them at the same instant, each in its
    own transaction: the fabric lock serialises them and the second is decided on the first's
    links (blocked, waiting for the first)."""
    live.forget()
    fabric = fabric_services.import_document(copy.deepcopy(DEMO))
    Fabric.objects.filter(pk=fabric.pk).update(capacity_constraint=0.6)
    Switch.objects.filter(fabric=fabric, name="p3-tor6").update(capacity_constraint=0.5)
    orders = []
    for fab in ("p3-fab0", "p3-fab1"):
        orders.append(order_of(decide(corrupt(link_at(fabric, fab, "eth2/1"))), "replace_cable"))
    for order in orders:
        assert visits.preview(order, None).verdict == "safe"
    technicians = [make_user("technician") for _ in orders]
    barrier = threading.Barrier(len(orders))
    outcomes: dict[int, object] = {}

    def run(n: int) -> None:
        try:
            barrier.wait()
            visits.start(orders[n], technicians[n])
            outcomes[n] = "started"
        except visits.StartRefused as exc:
            outcomes[n] = exc.preview
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(n,)) for n in range(len(orders))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(outcome == "started" for outcome in outcomes.values()) == [False, True]
    (winner,) = [n for n, outcome in outcomes.items() if outcome == "started"]
    (refusal,) = [outcome for outcome in outcomes.values() if outcome != "started"]
    assert refusal.verdict == "blocked"
    assert [row["work_order"] for row in refusal.waits_for] == [orders[winner].pk]
    assert sorted(WorkOrder.objects.filter(pk__in=[o.pk for o in orders]).values_list("state", flat=True)) == [
        "in_progress",
        "open",
    ]
    pod3 = [row for row in fabric_services.fabric_capacity(fabric)["tors"] if row["pod"] == 3]
    assert not any(row["below_constraint"] for row in pod3)
    live.forget()


def test_answers_match_the_openapi_document(demo, spine_cable, lossy_uplink, make_user):
    from lightpath.tests.test_openapi_contract import Contract, _document

    contract = Contract(_document())
    _, order = spine_cable
    operator = make_user("operator")
    path = "/api/work-orders/{id}/start/"
    contract.check(start(operator, order, dry_run=True).json(), path, "post")
    contract.check(start(operator, order).json(), path, "post", "409")
    contract.check(start(operator, order, {"restoration": [lossy_uplink.pk]}).json(), path, "post")
    contract.check(start(operator, order).json(), path, "post", "409")  # in progress
    contract.check(client(operator).get(f"/api/work-orders/{order.pk}/").json(), "/api/work-orders/{id}/")
    contract.check(finish(operator, order, "repaired").json(), "/api/work-orders/{id}/finish/", "post")
    contract.check(client(operator).get("/api/work-orders/").json(), "/api/work-orders/")
