"""The tickets.plan job (issue #18, "Maintenance planner") on the demo fabric in PostgreSQL: submitted
through POST /api/jobs/, run as the worker runs it, its result read back and checked against the
OpenAPI document.

The demo with its constraint lowered to 0.5 (8 of a ToR's 16 up-paths). Each ToR has 4 uplinks (to
pN-fab0..3) and each fabric switch 4 spine uplinks (eth2/1-4, one breakout cable). In pod 2,
p2-fab1 and p2-fab3 each have a spine uplink out in the demo, so its ToRs start at 14.
- p2-fab0's and p2-fab2's spine uplinks eth2/1 corrupt and CorrOpt disables them (pod 2's ToRs at
  12); each ticket's repair is the cable, whose footprint is the fabric switch's four spine uplinks:
  one cable out leaves the ToRs 9, both 6 (under 8), so the two visits never overlap.
- p1-fab2's spine uplink eth2/1 in pod 1: a third cable, free to run alongside.
- Siblings on the cables corrupt but stay in service: that is what an order costs while it waits
  (p2-fab0's at 4e-4, p1-fab2's at 1e-4, p2-fab2's at 1e-5).
"""

import copy
import json

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from corruption import services as corruption
from corruption.models import Ticket, TicketStep
from fabric import services as fabric_services
from fabric.models import Fabric, Link
from fabric.services import live
from jobs import services as jobs
from lightpath.settings import REPO_ROOT
from lightpath.tests.test_openapi_contract import Contract, _document
from maintenance.models import WorkOrder
from maintenance.services import work_orders
from telemetry.models import CorruptionEvent

JOB_DATABASES = ["default", "progress"]
pytestmark = pytest.mark.django_db(transaction=True, databases=JOB_DATABASES)
DEMO = json.loads((REPO_ROOT / "fixtures" / "data" / "demo-fb.json").read_text())
SHIFT_HOURS = 8.0
TRAVEL = {"same_rack_s": 0, "same_row_s": 120, "elsewhere_s": 600}


def link_at(fabric, switch: str, port: str) -> Link:
    return Link.objects.select_related("a_switch", "z_switch").get(fabric=fabric, a_switch__name=switch, a_port=port)


def corrupt(link: Link, rate: float) -> CorruptionEvent:
    now = timezone.now()
    return CorruptionEvent.objects.create(
        link=link, direction="a_to_z", rate=rate, last_rate=rate, peak_rate=rate, first_seen=now, last_seen=now
    )


def cable_order(fabric, switch: str, rate: float = 1e-4) -> WorkOrder:
    """`switch`'s spine uplink eth2/1 corrupts and is disabled; its ticket's repair is the cable."""
    outcome = corruption.decide_event(corrupt(link_at(fabric, switch, "eth2/1"), rate).pk)
    assert outcome.decision is not None and outcome.decision.action == "disabled", outcome
    ticket = Ticket.objects.get(link__a_switch__name=switch, link__a_port="eth2/1", link__fabric=fabric)
    step = ticket.steps.order_by("-number").first()
    assert step is not None
    TicketStep.objects.filter(pk=step.pk).update(recommended_action="replace_cable")
    work_orders.regroup(fabric.pk)
    return WorkOrder.objects.get(state="open", entries__ticket=ticket, entries__current=True)


@pytest.fixture
def demo():
    live.forget()
    yield fabric_services.import_document(copy.deepcopy(DEMO))
    live.forget()


@pytest.fixture
def orders(demo) -> dict[str, WorkOrder]:
    Fabric.objects.filter(pk=demo.pk).update(capacity_constraint=0.5)
    found = {switch: cable_order(demo, switch) for switch in ("p2-fab0", "p2-fab2", "p1-fab2")}
    # Siblings on the same cables corrupt but stay in service (no decision taken on them here).
    corrupt(link_at(demo, "p2-fab0", "eth2/2"), 4e-4)
    corrupt(link_at(demo, "p1-fab2", "eth2/3"), 1e-4)
    corrupt(link_at(demo, "p2-fab2", "eth2/3"), 1e-5)
    return found


@pytest.fixture
def operator(client_for) -> APIClient:
    return client_for("operator")


def submit(client: APIClient, fabric, params: dict):
    return client.post("/api/jobs/", {"kind": "tickets.plan", "fabric": fabric.pk, "params": params}, format="json")


def run_plan(client: APIClient, fabric, params: dict) -> dict:
    response = submit(client, fabric, params)
    assert response.status_code == 202, response.content[:500]
    job_id = response.json()["id"]
    assert jobs.run(job_id) == "succeeded"
    job = client.get(f"/api/jobs/{job_id}/").json()
    assert job["kind"] == "tickets.plan" and job["state"] == "succeeded"
    return job


def footprint_names(order: WorkOrder) -> list[str]:
    return [str(link) for link in Link.objects.filter(pk__in=order.footprint).select_related("a_switch", "z_switch")]


def test_the_plan_keeps_pod_2_safe_and_beats_first_in_first_out(demo, orders, operator):
    job = run_plan(operator, demo, {"technicians": 2, "shift_hours": SHIFT_HOURS, "travel": TRAVEL})
    plan = job["result"]
    by_order = {visit["work_order"]: visit for visit in plan["visits"]}
    p2_fab0, p2_fab2, p1_fab2 = (orders[s].pk for s in ("p2-fab0", "p2-fab2", "p1-fab2"))
    assert set(by_order) == {p2_fab0, p2_fab2, p1_fab2} and plan["unscheduled"] == []
    # Each cable takes its fabric switch's four spine uplinks down, named as the link pages name them.
    for order in orders.values():
        visit = by_order[order.pk]
        assert sorted(link["name"] for link in visit["links_down"]) == sorted(footprint_names(order))
        assert visit["restored"] == []
        assert visit["end_s"] - visit["start_s"] == 7200  # settings: a cable takes 2 hours
    # The dearer pod-2 cable first, p1-fab2 alongside; p2-fab2 after p2-fab0, by the same technician
    # (2 minutes along the row, where the other would walk 10 from pod 1).
    first, second, alongside = by_order[p2_fab0], by_order[p2_fab2], by_order[p1_fab2]
    assert (first["start_s"], alongside["start_s"]) == (0, 0)
    assert first["technician"] != alongside["technician"]
    assert (second["technician"], second["start_s"]) == (first["technician"], 7200 + 120)
    # What each order was given: its corrupting links still in service.
    given = {order["id"]: order for order in plan["work_orders"]}
    assert [given[pk]["penalty_rate"] for pk in (p2_fab0, p2_fab2, p1_fab2)] == pytest.approx([4e-4, 1e-5, 1e-4])
    assert (given[p2_fab0]["rack"], given[p2_fab0]["row"]) == ("p2-fab0", "pod 2")
    assert all(order["safe_alone"] and order["restoration"] is None for order in given.values())
    # Expected penalty-hours: rate x (hours until the visit ends + 0.2 x 48 h of service), summed.
    expected = 4e-4 * (2 + 9.6) + 1e-4 * (2 + 9.6) + 1e-5 * (14520 / 3600 + 9.6)
    assert plan["expected_penalty_hours"] == pytest.approx(expected)
    assert plan["proven_optimal"] and plan["gap"] == 0.0
    # First in first out (ascending id) sends p2-fab2 to the other technician, who waits for p2-fab0 to
    # end, and p1-fab2 to the first technician after it, 10 minutes away.
    fifo = 4e-4 * (2 + 9.6) + 1e-5 * (4 + 9.6) + 1e-4 * (15000 / 3600 + 9.6)
    assert plan["fifo_penalty_hours"] == pytest.approx(fifo)
    assert plan["technicians"] == 2 and plan["shift_s"] == 8 * 3600 and plan["travel"] == TRAVEL
    assert "3 visits, 0 orders left for later" in job["message"]
    Contract(_document()).check_component(plan, "MaintenancePlanResult")


def test_one_technician_and_a_short_shift_leave_the_cheapest_for_later(demo, orders, operator):
    plan = run_plan(operator, demo, {"technicians": 1, "shift_hours": 3, "time_budget_s": 1})["result"]
    assert [visit["work_order"] for visit in plan["visits"]] == [orders["p2-fab0"].pk]
    assert plan["unscheduled"] == sorted([orders["p2-fab2"].pk, orders["p1-fab2"].pk])


def test_an_unsafe_cable_is_planned_with_its_restoration(demo, orders, operator):
    # p2-tor2's uplink to p2-fab1 disabled for corruption leaves it 9: with either pod-2 cable out it
    # would have 6; re-enabling that lossy uplink for the repair keeps it at 9.
    lossy = link_at(demo, "p2-tor2", "eth2/2")
    outcome = corruption.decide_event(corrupt(lossy, 3e-5).pk)
    assert outcome.decision is not None and outcome.decision.action == "disabled"
    plan = run_plan(operator, demo, {"technicians": 2, "shift_hours": SHIFT_HOURS})["result"]
    given = {order["id"]: order for order in plan["work_orders"]}
    for switch in ("p2-fab0", "p2-fab2"):
        order = given[orders[switch].pk]
        assert not order["safe_alone"]
        assert [link["id"] for link in order["restoration"]["links"]] == [lossy.pk]
        assert order["restoration"]["penalty_rate"] == pytest.approx(3e-5)
    visit = next(v for v in plan["visits"] if v["work_order"] == orders["p2-fab0"].pk)
    assert [link["name"] for link in visit["restored"]] == [str(lossy)]
    Contract(_document()).check_component(plan, "MaintenancePlanResult")


def test_bad_params_are_a_400_listing_every_problem(demo, orders, operator):
    response = submit(
        operator,
        demo,
        {"technicians": 0, "shift_hours": "long", "travel": {"same_row_s": -1, "walk": 3}, "color": "red"},
    )
    assert response.status_code == 400
    fields = sorted(error["field"] for error in response.json()["errors"])
    assert fields == ["color", "shift_hours", "technicians", "travel.same_row_s", "travel.walk"]


def test_a_viewer_may_not_plan(demo, client_for):
    assert submit(client_for("viewer"), demo, {}).status_code == 403


def test_the_job_summary_writes_totals_as_people_do():
    from maintenance.jobs import summarize

    line = summarize(
        {"visits": [{}], "unscheduled": [1, 2], "expected_penalty_hours": 1310.42, "fifo_penalty_hours": 0.004641,
         "proven_optimal": False, "gap": 0.139}
    )  # fmt: skip
    assert line == (
        "1 visit, 2 orders left for later; expected penalty-hours 1,310.4 (first in first out 0.00464, gap 13.9%)"
    )
