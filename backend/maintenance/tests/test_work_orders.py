"""Footprints and work orders (issue #18) on demo-fb: the p1-tor5 breakout cable whose two corrupting
uplinks are one visit that takes all four down, and what the guard says about starting it."""

import copy
import json

import pytest
from django.db import transaction

from corruption import services as corruption
from corruption import tickets
from corruption.models import Ticket, TicketStep
from fabric import services as fabric_services
from fabric.models import Link, Switch
from fabric.services import live
from lightpath.settings import REPO_ROOT
from maintenance.models import WorkOrder
from maintenance.services import footprints, work_orders
from maintenance.services.footprints import StepAdvice
from maintenance.services.plan import PlanParams, plan_fabric
from telemetry.models import CorruptionEvent

pytestmark = pytest.mark.django_db
DEMO = json.loads((REPO_ROOT / "fixtures" / "data" / "demo-fb.json").read_text())


def link_at(fabric, switch: str, port: str) -> Link:
    return Link.objects.get(fabric=fabric, a_switch__name=switch, a_port=port)


def corrupt(link: Link, direction: str = "a_to_z", rate: float = 1e-4) -> CorruptionEvent:
    from django.utils import timezone

    now = timezone.now()
    return CorruptionEvent.objects.create(
        link=link, direction=direction, rate=rate, last_rate=rate, peak_rate=rate, first_seen=now, last_seen=now
    )


def recommend(ticket: Ticket, action: str) -> WorkOrder:
    """The ticket's newest step recommends `action` (as an escalated step would); its open work
    order, regrouped now."""
    TicketStep.objects.filter(pk=ticket.steps.order_by("-number").first().pk).update(recommended_action=action)
    work_orders.regroup(ticket.fabric_id)
    return WorkOrder.objects.get(state="open", entries__ticket=ticket, entries__current=True)


@pytest.fixture
def decide(django_capture_on_commit_callbacks):
    """decide_event as the worker runs it: committed, so the work orders regroup on commit."""

    def run(event: CorruptionEvent) -> Ticket:
        with django_capture_on_commit_callbacks(execute=True):
            outcome = corruption.decide_event(event.pk)
        assert outcome.decision is not None and outcome.decision.action == "disabled"
        return Ticket.objects.get(link=event.link_id)

    return run


@pytest.fixture
def demo():
    fabric = fabric_services.import_document(copy.deepcopy(DEMO))
    # Two of p1-tor5's four uplinks may go for corruption (at 0.75 only one may).
    Switch.objects.filter(fabric=fabric, name="p1-tor5").update(capacity_constraint=0.5)
    return fabric


@pytest.fixture
def breakout_tickets(demo, decide):
    uplinks = [link_at(demo, "p1-tor5", f"eth2/{n}") for n in (1, 2, 3, 4)]
    events = [corrupt(uplinks[0]), corrupt(uplinks[1])]  # the two corrupt together
    return uplinks, [decide(event) for event in events]


def advice(link: Link, action: str, direction: str = "a_to_z", rule: str = "", evidence=None) -> StepAdvice:
    return StepAdvice(0, link.pk, direction, action, rule, evidence or {})


class TestFootprints:
    def test_each_action_takes_down_what_it_touches(self, demo):
        uplinks = [link_at(demo, "p1-tor5", f"eth2/{n}") for n in (1, 2, 3, 4)]
        ids = sorted(link.pk for link in uplinks)
        first = uplinks[0]

        def footprint(action: str, direction: str = "a_to_z", **kwargs) -> tuple[list[int], str]:
            (repair,) = footprints.repairs([advice(first, action, direction, **kwargs)])
            return sorted(repair.footprint), repair.component_name

        assert footprint("clean_fiber") == ([first.pk], "fiber of p1-tor5:eth2/1 - p1-fab0:eth1/6")
        # a_to_z: the near end is Z (the fabric switch), its transceiver the link's own...
        assert footprint("reseat_transceiver") == ([first.pk], "transceiver at p1-fab0:eth1/6")
        # ...the far one is the ToR's breakout transceiver, shared by the four uplinks.
        assert footprint("replace_far_transceiver") == (ids, "breakout transceiver p1-tor5 eth2/1-4")
        assert footprint("replace_transceiver", "z_to_a") == (ids, "breakout transceiver p1-tor5 eth2/1-4")
        assert footprint("replace_cable") == (ids, "breakout cable p1-tor5 eth2/1-4")
        assert footprint("replace_shared_component", rule="shared_component.breakout") == (
            ids,
            "breakout cable p1-tor5 eth2/1-4",
        )

    def test_a_named_cable_takes_its_links_and_the_breakout_siblings(self, demo):
        first, other = link_at(demo, "p1-tor5", "eth2/1"), link_at(demo, "p2-tor0", "eth2/1")
        Link.objects.filter(pk__in=[first.pk, other.pk]).update(cable_id="trunk-12")
        (repair,) = footprints.repairs([advice(first, "replace_cable")])
        siblings = {link_at(demo, "p1-tor5", f"eth2/{n}").pk for n in (2, 3, 4)}
        assert repair.footprint == {first.pk, other.pk, *siblings} and repair.component_name == "cable trunk-12"

    def test_a_cluster_on_a_line_card_takes_the_card_where_the_links_corrupt(self, demo):
        first = link_at(demo, "p1-tor5", "eth2/1")
        evidence = {
            "neighbours": [
                {"end": "z", "links": [{"onset_within_window": True, "rate_within_ratio": True}] * 2},
                {"end": "a", "links": []},
            ]
        }
        (repair,) = footprints.repairs(
            [advice(first, "replace_shared_component", rule="shared_component.cluster", evidence=evidence)]
        )
        on_card = Link.objects.filter(z_switch__name="p1-fab0", z_port__startswith="eth1/").values_list("id", flat=True)
        assert repair.footprint == set(on_card) and len(on_card) > 4
        assert repair.component_name == "line card p1-fab0 eth1"

    def test_each_repair_knows_the_end_where_the_work_is(self, demo):
        """p1-tor5:eth2/1 - p1-fab0:eth1/6, p1-tor5's side holding the breakout: (side, both ends)."""
        first = link_at(demo, "p1-tor5", "eth2/1")

        def where(action: str, direction: str = "a_to_z", **kwargs) -> tuple[str, bool]:
            (repair,) = footprints.repairs([advice(first, action, direction, **kwargs)])
            return repair.side, repair.both_ends

        # a_to_z: the near end is Z (p1-fab0); the far transceiver is at A.
        assert where("reseat_transceiver") == ("z", False)
        assert where("replace_far_transceiver") == ("a", False)
        assert where("replace_far_transceiver", "z_to_a") == ("z", False)
        # A cable is worked at both ends, located on its breakout side whichever end sees the corruption.
        assert where("replace_cable") == where("replace_cable", "z_to_a") == ("a", True)
        assert where("clean_fiber") == ("z", True)
        evidence = {"neighbours": [{"end": "a", "links": [{"onset_within_window": True, "rate_within_ratio": True}]}]}
        card = where("replace_shared_component", "a_to_z", rule="shared_component.cluster", evidence=evidence)
        assert card == ("a", False)

    def test_durations_and_chances_come_from_settings(self, settings):
        settings.MAINTENANCE = {**settings.MAINTENANCE, "duration_s": {**settings.MAINTENANCE["duration_s"]}}
        settings.MAINTENANCE["duration_s"]["clean_fiber"] = 600
        assert footprints.duration_s("clean_fiber") == 600 and footprints.duration_s("replace_cable") == 7200
        assert (footprints.success_chance(True), footprints.success_chance(False)) == (0.8, 0.5)


class TestWorkOrders:
    def test_tickets_on_one_breakout_cable_are_one_work_order(self, breakout_tickets):
        uplinks, (first, second) = breakout_tickets
        assert {t.steps.get().rule for t in (first, second)} == {"shared_component.breakout"}
        (order,) = WorkOrder.objects.filter(state="open")
        assert sorted(order.tickets.values_list("id", flat=True)) == sorted([first.pk, second.pk])
        assert (order.action, order.component_name) == ("replace_shared_component", "breakout cable p1-tor5 eth2/1-4")
        assert order.footprint == sorted(link.pk for link in uplinks)
        assert (order.duration_s, order.success_chance) == (14400, 0.8)  # one cable, replaced once
        # The first ticket's own order gave way to the pair's.
        (earlier,) = WorkOrder.objects.filter(state="cancelled")
        assert list(earlier.entries.values_list("ticket_id", "current")) == [(first.pk, False)]

    def test_tickets_opened_in_one_transaction_are_grouped_once(self, demo, django_capture_on_commit_callbacks):
        """As the optimizer opens a ticket per link it disables, in one transaction: one regroup."""
        events = [corrupt(link_at(demo, "p1-tor5", port)) for port in ("eth2/1", "eth2/2")]
        with django_capture_on_commit_callbacks(execute=True) as callbacks, transaction.atomic():
            for event in events:
                corruption.decide_event(event.pk)
            assert not WorkOrder.objects.exists()  # not before the commit
        assert len(callbacks) == 1
        (order,) = WorkOrder.objects.all()  # no intermediate order of the first ticket alone
        assert order.state == "open" and order.tickets.count() == 2

    def test_deleting_the_fabric_takes_its_work_orders(self, demo, breakout_tickets):
        fabric_services.delete_fabric(demo)
        assert not WorkOrder.objects.exists() and not Ticket.objects.exists()

    def test_a_separate_repair_is_its_own_order_and_is_done_when_repaired(
        self, demo, decide, breakout_tickets, make_user, django_capture_on_commit_callbacks
    ):
        alone = decide(corrupt(link_at(demo, "p0-tor3", "eth2/4")))
        (order,) = WorkOrder.objects.filter(state="open", tickets=alone)
        assert (order.action, order.footprint, order.duration_s) == ("clean_fiber", [alone.link_id], 900)
        assert WorkOrder.objects.filter(state="open").count() == 2
        tech = make_user("technician")
        with django_capture_on_commit_callbacks(execute=True):
            tickets.record_action(tickets.start(alone, tech), tech, "clean_fiber")
        order.refresh_from_db()
        assert order.state == "done" and not order.entries.filter(current=True).exists()
        assert WorkOrder.objects.filter(state="open").count() == 1  # the breakout order stays

    def test_the_api_shows_the_footprint_its_tors_and_the_guards_verdict(self, client_for, breakout_tickets):
        uplinks, (first, second) = breakout_tickets
        order = WorkOrder.objects.get(state="open")
        client = client_for("technician")
        listed = client.get("/api/work-orders/", {"fabric": order.fabric_id, "state": "open"}).json()
        assert [row["id"] for row in listed["results"]] == [order.pk]
        assert listed["results"][0]["tickets"] == sorted([first.pk, second.pk])
        body = client.get(f"/api/work-orders/{order.pk}/").json()
        assert [link["name"] for link in body["footprint_links"]] == [str(link) for link in uplinks]
        assert [link["admin_state"] for link in body["footprint_links"]] == [
            "disabled",
            "disabled",
            "enabled",
            "enabled",
        ]
        assert body["tors"] == ["p1-tor5"]
        assert {t["id"]: t["recommended_action"] for t in body["ticket_details"]} == {
            first.pk: "replace_shared_component",
            second.pk: "replace_shared_component",
        }
        # The two siblings still in service are p1-tor5's last uplinks: starting now is refused.
        guard = body["guard"]
        assert guard["verdict"] == "unsafe" and guard["links"] == [uplinks[2].pk, uplinks[3].pk]
        assert guard["blocking_tors"][0]["name"] == "p1-tor5" and guard["blocking_tors"][0]["paths_after"] == 0
        # A dry run: nothing changed.
        assert Link.objects.filter(pk__in=guard["links"], admin_state="enabled").count() == 2
        bad = client.get("/api/work-orders/", {"state": "nonsense"})
        assert bad.status_code == 400 and "state" in bad.json()


class TestLocation:
    def test_a_far_transceiver_is_replaced_at_the_far_switch(self, demo, decide, client_for):
        """The demo's order #1: p0-tor3:eth2/4 corrupts towards p0-tor3 and the far Tx is low: the
        transceiver to replace is p0-fab3's, so the visit is at p0-fab3 (in rack p0-rack-fab3), not
        in p0-tor3's rack; the planner walks there too. A switch with no rack recorded is named by
        none (the plan groups by the switch inside)."""
        ticket = decide(corrupt(link_at(demo, "p0-tor3", "eth2/4"), "z_to_a"))
        order = recommend(ticket, "replace_far_transceiver")
        assert order.component_name == "transceiver at p0-fab3:eth1/4"
        where = {"switch": "p0-fab3", "rack": "p0-rack-fab3", "row": "pod 0", "port": "eth1/4", "far": None}
        client = client_for("technician")
        listed = client.get("/api/work-orders/", {"fabric": demo.pk, "state": "open"}).json()["results"]
        assert [(row["id"], row["location"]) for row in listed] == [(order.pk, where)]
        assert client.get(f"/api/work-orders/{order.pk}/").json()["location"] == where
        plan = plan_fabric(demo, PlanParams(technicians=1, shift_hours=8, time_budget_s=1))
        assert [(row["id"], row["rack"], row["row"]) for row in plan["work_orders"]] == [
            (order.pk, "p0-rack-fab3", "pod 0")
        ]
        Switch.objects.filter(fabric=demo, name="p0-fab3").update(rack="")
        assert client.get(f"/api/work-orders/{order.pk}/").json()["location"] == {**where, "rack": ""}
        plan = plan_fabric(demo, PlanParams(technicians=1, shift_hours=8, time_budget_s=1))
        assert [(row["id"], row["rack"], row["row"]) for row in plan["work_orders"]] == [
            (order.pk, None, "pod 0")
        ]  # no rack recorded: null (the plan groups by the switch inside)

    def test_a_breakout_cable_is_located_at_its_breakout_side_with_its_far_end(self, breakout_tickets, client_for):
        uplinks, _ = breakout_tickets
        order = WorkOrder.objects.get(state="open")
        body = client_for("viewer").get(f"/api/work-orders/{order.pk}/").json()
        assert body["location"] == {
            "switch": "p1-tor5",
            "rack": "p1-rack5",
            "row": "pod 1",
            "port": "eth2/1",
            "far": {"switch": "p1-fab0", "rack": "p1-rack-fab0", "row": "pod 1", "port": uplinks[0].z_port},
        }

    def test_a_rack_without_a_pod_is_in_the_row_its_name_starts_with(self, breakout_tickets, client_for):
        """A switch imported without a pod: its row is its rack's name before the last '-'; a rack-less
        one without a pod goes by its own name, as the planner walks."""
        order = WorkOrder.objects.get(state="open")
        Switch.objects.filter(name__in=["p1-tor5", "p1-fab0"]).update(pod=None)
        Switch.objects.filter(name="p1-tor5").update(rack="hall2-row7-rack5")
        Switch.objects.filter(name="p1-fab0").update(rack="")  # the demo gives it one
        location = client_for("technician").get(f"/api/work-orders/{order.pk}/").json()["location"]
        assert (location["rack"], location["row"]) == ("hall2-row7-rack5", "hall2-row7")
        assert (location["far"]["rack"], location["far"]["row"]) == ("", "p1")

    def test_a_deleted_location_link_answers_no_location(self, demo, decide, client_for):
        ticket = decide(corrupt(link_at(demo, "p0-tor3", "eth2/4")))
        order = recommend(ticket, "clean_fiber")
        WorkOrder.objects.filter(pk=order.pk).update(location_link=None)
        assert client_for("viewer").get(f"/api/work-orders/{order.pk}/").json()["location"] is None


class TestGuardOnThePage:
    """Pod 3 (test_visits.py's scenario): p3-fab0's spine cable takes its four spine uplinks down;
    with p3-tor2's uplink to p3-fab1 disabled for corruption and p3-tor2 needing 10 of 16, the
    footprint alone leaves p3-tor2 at 8, and a restoration makes the start possible."""

    @pytest.fixture
    def spine_order(self, demo, decide):
        live.forget()
        order = recommend(decide(corrupt(link_at(demo, "p3-fab0", "eth2/1"))), "replace_cable")
        Switch.objects.filter(fabric=demo, name="p3-tor2").update(capacity_constraint=0.6)
        decide(corrupt(link_at(demo, "p3-tor2", "eth2/2"), rate=3e-5))
        yield WorkOrder.objects.get(pk=order.pk)
        live.forget()

    def test_the_page_says_not_safe_alone_and_lists_the_tors_whose_paths_it_takes(self, spine_order, client_for):
        client = client_for("operator")
        body = client.get(f"/api/work-orders/{spine_order.pk}/").json()
        preview = client.post(f"/api/work-orders/{spine_order.pk}/start/?dry_run=1").json()
        assert preview["verdict"] == "needs_restoration"
        # The footprint alone is unsafe, but the start is not refused: a restoration is offered.
        assert body["guard"]["verdict"] == "unsafe"
        assert body["guard"]["detail"] == (
            "Not safe alone: p3-tor2 would fall to 8 of 16 up-paths, under the 10 its constraint (0.6) requires."
        )
        # Every link is between p3-fab0 and a spine: the ToRs on it are those losing up-paths through it
        # (p3-tor6's uplink to p3-fab0 is disabled in the demo).
        assert body["tors"] == [f"p3-tor{n}" for n in (0, 1, 2, 3, 4, 5, 7)]
        assert body["location"]["switch"] == "p3-fab0" and body["location"]["far"] is not None


def test_answers_match_the_openapi_document(client_for, breakout_tickets):
    from lightpath.tests.test_openapi_contract import Contract, _document

    contract = Contract(_document())
    uplinks, _ = breakout_tickets
    order = WorkOrder.objects.get(state="open")
    client = client_for("viewer")
    contract.check(client.get("/api/work-orders/").json(), "/api/work-orders/")
    contract.check(client.get(f"/api/work-orders/{order.pk}/").json(), "/api/work-orders/{id}/")
    contract.check(client.get(f"/api/links/{uplinks[0].pk}/").json(), "/api/links/{id}/")
