"""A technician's day, GET /api/work-orders/today/ (issue #18, the "Today" page), on the demo's plan
(plan_setup.py): tess and otto are planned with a shift from 08:00 UTC; the two pod-2 cables go to
one of them back to back, the pod-1 cable to the other."""

import datetime as dt

import pytest
from rest_framework.test import APIClient

from fabric.models import Fabric, Switch
from lightpath.tests.test_openapi_contract import Contract, _document
from maintenance.models import WorkOrder

from .plan_setup import JOB_DATABASES, TRAVEL, cable_order, run_plan

pytestmark = pytest.mark.django_db(transaction=True, databases=JOB_DATABASES)
SHIFT_START = dt.datetime(2026, 11, 27, 8, 0, tzinfo=dt.UTC)
TODAY = "/api/work-orders/today/"


def as_user(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def tess(make_user):
    return make_user("technician", username="tess")


@pytest.fixture
def otto(make_user):
    return make_user("operator", username="otto")


@pytest.fixture
def plan(demo, orders, operator, tess, otto) -> dict:
    """The day planned for tess and otto; the result and the job."""
    params = {"assignees": ["tess", "otto"], "shift_start": SHIFT_START.isoformat(), "travel": TRAVEL}
    return run_plan(operator, demo, params)


def visits_of(plan: dict, name: str) -> list[dict]:
    return sorted((v for v in plan["result"]["visits"] if v["technician_name"] == name), key=lambda v: v["start_s"])


def at(seconds: int) -> dt.datetime:
    return SHIFT_START + dt.timedelta(seconds=seconds)


def test_the_technician_sees_only_their_visits_in_order(plan, orders, tess):
    answer = as_user(tess).get(TODAY)
    assert answer.status_code == 200
    day = answer.json()
    planned = visits_of(plan, "tess")
    assert planned, "the plan gives tess visits"
    assert day["user"] == "tess"
    assert [v["work_order"]["id"] for v in day["visits"]] == [v["work_order"] for v in planned]
    assert not {v["work_order"]["id"] for v in day["visits"]} & {v["work_order"] for v in visits_of(plan, "otto")}
    for visit, given in zip(day["visits"], planned, strict=True):
        assert (visit["start_s"], visit["end_s"]) == (given["start_s"], given["end_s"])
        assert dt.datetime.fromisoformat(visit["start_at"]) == at(given["start_s"])
        assert dt.datetime.fromisoformat(visit["end_at"]) == at(given["end_s"])
        assert visit["links_down"] == given["links_down"] and visit["restored"] == given["restored"]
        assert visit["work_order"]["state"] == "open" and visit["done"] is False
    first = WorkOrder.objects.get(pk=planned[0]["work_order"])
    shown = dt.datetime.fromisoformat(day["visits"][0]["start_at"]).astimezone(dt.UTC)
    count = f"{len(planned)} visit{'s' if len(planned) != 1 else ''}"
    # Where to go: the switch's rack (every demo switch has one, trial 27 item 14).
    assert day["detail"] == f"{count}, the first at {shown:%H:%M} UTC in rack {first.location_link.a_switch.rack}."
    assert day["plan"]["job"] == plan["id"] and day["plan"]["fabric"]["id"] == plan["fabric"]
    assert dt.datetime.fromisoformat(day["plan"]["shift_start"]) == SHIFT_START
    assert dt.datetime.fromisoformat(day["plan"]["shift_end"]) == at(8 * 3600)
    assert dt.datetime.fromisoformat(day["plan"]["planned_at"]) == dt.datetime.fromisoformat(plan["finished"])
    assert day["plan"]["stale"] is False and day["plan"]["stale_reasons"] == []
    Contract(_document()).check(day, TODAY)


def test_a_done_order_is_marked_done_and_the_next_visit_named(plan, tess, otto):
    planned = visits_of(plan, "tess")
    worker = as_user(tess)
    first = planned[0]["work_order"]
    assert worker.post(f"/api/work-orders/{first}/start/", {}, format="json").status_code == 200
    finished = worker.post(f"/api/work-orders/{first}/finish/", {"outcome": "repaired"}, format="json")
    assert finished.status_code == 200 and finished.json()["state"] == "done"
    day = worker.get(TODAY).json()
    assert day["visits"][0]["work_order"]["id"] == first
    assert day["visits"][0]["done"] is True and day["visits"][0]["work_order"]["state"] == "done"
    assert [v["done"] for v in day["visits"][1:]] == [False] * (len(planned) - 1)
    # Done is the day going as planned, not a change under it.
    assert day["plan"]["stale"] is False
    if len(planned) > 1:
        assert day["detail"].startswith(f"{len(planned)} visits (1 done), the next at ")
    else:
        assert day["detail"] == "1 visit, all done."


def test_an_order_opened_after_the_plan_makes_it_stale(plan, demo, tess):
    opened = cable_order(demo, "p3-fab1")
    day = as_user(tess).get(TODAY).json()
    assert day["plan"]["stale"] is True
    assert day["plan"]["stale_reasons"] == [f"Work order {opened.pk} opened after this plan."]
    # The visits stay as planned until someone plans again.
    assert [v["work_order"]["id"] for v in day["visits"]] == [v["work_order"] for v in visits_of(plan, "tess")]


def test_a_planned_order_cancelled_since_makes_it_stale(plan, tess):
    cancelled = visits_of(plan, "otto")[0]["work_order"]
    WorkOrder.objects.filter(pk=cancelled).update(state=WorkOrder.State.CANCELLED)
    day = as_user(tess).get(TODAY).json()
    assert day["plan"]["stale"] is True
    assert day["plan"]["stale_reasons"] == [
        f"Work order {cancelled} was cancelled after this plan (its tickets were regrouped or repaired)."
    ]


def test_another_technicians_day_is_403_for_a_technician_and_200_for_an_operator(plan, tess, otto, make_user):
    other = make_user("technician", username="tom")
    assert as_user(other).get(TODAY, {"user": "tess"}).status_code == 403
    assert as_user(make_user("viewer")).get(TODAY, {"user": "tess"}).status_code == 403
    for reader in (otto, make_user("planner"), make_user("admin")):
        answer = as_user(reader).get(TODAY, {"user": "tess"})
        assert answer.status_code == 200
        day = answer.json()
        assert day["user"] == "tess"
        assert [v["work_order"]["id"] for v in day["visits"]] == [v["work_order"] for v in visits_of(plan, "tess")]
        assert day["detail"].startswith(f"{len(visits_of(plan, 'tess'))} visit")
    # Asking for oneself by name is one's own day.
    assert as_user(tess).get(TODAY, {"user": "tess"}).json()["user"] == "tess"


def test_no_plan_names_the_user(plan, make_user):
    for role in ("technician", "viewer"):
        answer = as_user(make_user(role)).get(TODAY)
        assert answer.status_code == 200
        assert answer.json()["plan"] is None and answer.json()["visits"] == []
        assert answer.json()["detail"] == (
            "No maintenance plan names you yet: an operator plans the day on Work orders > Plan the day."
        )
    Contract(_document()).check(answer.json(), TODAY)


def test_the_fabric_filter_reads_only_that_fabrics_plans(plan, tess):
    elsewhere = Fabric.objects.create(name="elsewhere", tiers=["tor", "fabric", "spine"])
    assert as_user(tess).get(TODAY, {"fabric": elsewhere.pk}).json()["plan"] is None
    assert as_user(tess).get(TODAY, {"fabric": plan["fabric"]}).json()["plan"]["job"] == plan["id"]


def test_the_newest_plan_naming_the_user_wins(plan, demo, operator, tess):
    again = run_plan(operator, demo, {"assignees": ["tess"], "shift_start": "2026-11-28T08:00:00Z"})
    day = as_user(tess).get(TODAY).json()
    assert day["plan"]["job"] == again["id"]
    assert len(day["visits"]) == len(again["result"]["visits"])  # tess alone does every visit


def test_a_bad_query_is_a_400_listing_every_problem(demo, tess, otto):
    answer = as_user(otto).get(TODAY, {"fabric": "ten", "user": "nobody"})
    assert answer.status_code == 400
    assert answer.json() == {
        "fabric": ["must be a fabric id (a whole number)"],
        "user": ["no active user is named nobody"],
    }
    missing = as_user(otto).get(TODAY, {"fabric": 10**9})
    assert missing.status_code == 400 and missing.json() == {"fabric": [f"no fabric has id {10**9}"]}
    assert as_user(tess).get(TODAY, {"fabric": "2.5"}).status_code == 400


def test_named_without_a_visit_says_so(demo, orders, operator, make_user):
    """Three orders cannot keep four people busy: the fourth name gets no visit."""
    names = ["tess", "otto", "tom", "tia"]
    for name in names:
        make_user("technician", username=name)
    plan = run_plan(operator, demo, {"assignees": names, "shift_start": SHIFT_START.isoformat()})
    idle = [name for name in names if not visits_of(plan, name)]
    assert idle
    day = as_user(make_user("operator")).get(TODAY, {"user": idle[0]}).json()
    assert day["plan"]["job"] == plan["id"] and day["visits"] == []
    assert day["detail"] == f"The newest maintenance plan naming {idle[0]} gives {idle[0]} no visit."


def test_an_order_started_for_the_technician_outside_the_plan_is_listed_after_it_and_the_plan_is_stale(
    plan, tess, make_user
):
    """The trial: a technician asks for an order the plan gave someone else; an operator starts it."""
    asked = visits_of(plan, "otto")[0]["work_order"]
    order = WorkOrder.objects.get(pk=asked)
    ticket = order.entries.filter(current=True).first().ticket
    ticket.assignee = tess
    ticket.save(update_fields=["assignee"])
    olga = make_user("operator", username="olga")
    assert as_user(olga).post(f"/api/work-orders/{asked}/start/", {}, format="json").status_code == 200
    order.refresh_from_db()

    day = as_user(tess).get(TODAY).json()
    planned = visits_of(plan, "tess")
    assert [v["work_order"]["id"] for v in day["visits"]] == [*(v["work_order"] for v in planned), asked]
    assert all(v["planned"] for v in day["visits"][:-1])
    beside = day["visits"][-1]
    assert beside["planned"] is False and beside["work_order"]["state"] == "in_progress"
    assert dt.datetime.fromisoformat(beside["start_at"]) == order.started_at
    assert beside["end_at"] is None and beside["start_s"] is None and beside["end_s"] is None
    assert {link["id"] for link in beside["links_down"]} == set(order.footprint)
    assert day["detail"].endswith(f" Also in progress for you, not from the plan: work order {asked}.")
    assert day["plan"]["stale"] is True
    assert day["plan"]["stale_reasons"] == [f"Work order {asked}, planned for otto, was started by olga."]
    Contract(_document()).check(day, TODAY)
    # Otto's own day keeps the order as his visit, and reads the plan as stale too.
    otto_day = as_user(olga).get(TODAY, {"user": "otto"}).json()
    assert asked in [v["work_order"]["id"] for v in otto_day["visits"] if v["planned"]]


def test_an_order_the_technician_started_without_a_plan_is_their_day(demo, orders, tess):
    order = orders["p2-fab0"]
    assert as_user(tess).post(f"/api/work-orders/{order.pk}/start/", {}, format="json").status_code == 200
    day = as_user(tess).get(TODAY).json()
    assert day["plan"] is None
    assert [(v["work_order"]["id"], v["planned"]) for v in day["visits"]] == [(order.pk, False)]
    assert day["detail"] == (
        "No maintenance plan names you yet: an operator plans the day on Work orders > Plan the day."
        f" Also in progress for you, not from the plan: work order {order.pk}."
    )


def test_the_next_visit_is_named_by_its_switch_when_it_has_no_rack(plan, tess):
    """The trial read 'in rack p0-fab3' for a switch without one: the switch is named instead."""
    first = WorkOrder.objects.select_related("location_link__a_switch").get(pk=visits_of(plan, "tess")[0]["work_order"])
    switch = first.location_link.a_switch
    Switch.objects.filter(pk=switch.pk).update(rack="")
    assert as_user(tess).get(TODAY).json()["detail"].endswith(f" UTC at switch {switch.name}.")


def test_an_order_the_plan_left_for_later_started_since_makes_it_stale(demo, orders, operator, tess):
    """One technician, a 2-hour shift: one cable fits, the other orders wait for a later shift."""
    params = {"assignees": ["tess"], "shift_start": SHIFT_START.isoformat(), "shift_hours": 2}
    plan = run_plan(operator, demo, params)
    waiting = plan["result"]["unscheduled"]
    assert waiting and len(plan["result"]["visits"]) == 1
    assert as_user(tess).post(f"/api/work-orders/{waiting[0]}/start/", {}, format="json").status_code == 200
    day = as_user(tess).get(TODAY).json()
    assert day["plan"]["stale_reasons"] == [
        f"Work order {waiting[0]}, which this plan left for later, was started by tess."
    ]
    assert [(v["work_order"]["id"], v["planned"]) for v in day["visits"]] == [
        (plan["result"]["visits"][0]["work_order"], True),
        (waiting[0], False),
    ]
