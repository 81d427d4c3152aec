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

import datetime as dt

import pytest
from django.utils import timezone

from corruption import services as corruption
from fabric.models import Link, Switch
from lightpath.tests.test_openapi_contract import Contract, _document
from maintenance.models import WorkOrder

from .plan_setup import JOB_DATABASES, SHIFT_HOURS, TRAVEL, corrupt, link_at, run_plan, submit

pytestmark = pytest.mark.django_db(transaction=True, databases=JOB_DATABASES)


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
    # p2-fab0's own rack (the demo gives every switch one, trial 27 item 14); its pod is its row.
    assert (given[p2_fab0]["rack"], given[p2_fab0]["row"]) == ("p2-rack-fab0", "pod 2")
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


SHIFT_START = "2026-11-27T08:00:00+01:00"


def test_named_technicians_get_their_visits_with_clock_times(demo, orders, operator, make_user):
    make_user("technician", username="tess")
    make_user("operator", username="otto")  # operators may go on the floor too
    job = run_plan(operator, demo, {"assignees": ["tess", "otto"], "shift_start": SHIFT_START, "travel": TRAVEL})
    plan = job["result"]
    # Two names: two technicians, technician i is assignees[i].
    assert plan["technicians"] == 2 and plan["assignees"] == ["tess", "otto"]
    assert dt.datetime.fromisoformat(plan["shift_start"]) == dt.datetime.fromisoformat(SHIFT_START)
    start = dt.datetime.fromisoformat(SHIFT_START)
    for visit in plan["visits"]:
        assert visit["technician_name"] == ["tess", "otto"][visit["technician"]]
        assert dt.datetime.fromisoformat(visit["start_at"]) == start + dt.timedelta(seconds=visit["start_s"])
        assert dt.datetime.fromisoformat(visit["end_at"]) == start + dt.timedelta(seconds=visit["end_s"])
    # The two pod-2 cables go to one person, back to back, the pod-1 cable to the other at 08:00.
    by_order = {visit["work_order"]: visit for visit in plan["visits"]}
    first, second = by_order[orders["p2-fab0"].pk], by_order[orders["p2-fab2"].pk]
    assert first["technician_name"] == second["technician_name"]
    assert dt.datetime.fromisoformat(second["start_at"]) == start + dt.timedelta(hours=2, minutes=2)
    assert "tess, otto" in " ".join(row["message"] for row in operator.get(f"/api/jobs/{job['id']}/log/").json())
    Contract(_document()).check_component(plan, "MaintenancePlanResult")


def test_without_names_the_technicians_are_numbered_and_the_shift_starts_when_the_job_runs(demo, orders, operator):
    before = timezone.now().replace(second=0, microsecond=0)
    plan = run_plan(operator, demo, {"technicians": 2})["result"]
    assert plan["assignees"] is None
    assert {visit["technician_name"] for visit in plan["visits"]} == {"Technician 1", "Technician 2"}
    shift_start = dt.datetime.fromisoformat(plan["shift_start"])
    assert before <= shift_start <= timezone.now() and shift_start.second == 0 and shift_start.microsecond == 0


def test_headroom_follows_the_visits_over_the_day(demo, orders, operator):
    """Pod 2's ToRs have 12 up-paths (8 required) with nothing in progress; a pod-2 cable out
    leaves them 9. Pod 1's ToRs have 15: its cable out leaves them 12. p1-tor3 (its uplinks to
    p1-fab0 disabled and to p1-fab2 down in the demo: 8 of 8 all day) gets its p1-fab0 uplink back
    first, and p0-tor0 the fabric's constraint (its own 0.9 needs 15 of 16), or either would be the
    worst ToR of every interval. With nothing in progress no ToR is the worst."""
    Link.objects.filter(pk=link_at(demo, "p1-tor3", "eth2/1").pk).update(admin_state="enabled", admin_reason="")
    Switch.objects.filter(fabric=demo, name="p0-tor0").update(capacity_constraint=None)
    plan = run_plan(operator, demo, {"technicians": 2, "shift_hours": SHIFT_HOURS, "travel": TRAVEL})["result"]
    day = plan["headroom"]
    p2_fab0, p2_fab2, p1_fab2 = (orders[s].pk for s in ("p2-fab0", "p2-fab2", "p1-fab2"))
    # Cut where a visit starts or ends, covering the shift without a gap.
    assert [(i["start_s"], i["end_s"]) for i in day] == [(0, 7200), (7200, 7320), (7320, 14520), (14520, 28800)]
    assert [i["visits"] for i in day] == [sorted([p2_fab0, p1_fab2]), [], [p2_fab2], []]
    busy = [(i["worst_tor"]["name"], i["paths"], i["required_paths"], i["spare_paths"]) for i in day[0::2]]
    assert busy == [("p2-tor0", 9, 8, 1), ("p2-tor0", 9, 8, 1)]
    # With nothing in progress nothing of the plan's is down: no worst ToR (#18 trial).
    for idle in day[1::2]:
        assert (idle["worst_tor"], idle["spare_paths"], idle["paths"], idle["required_paths"]) == (None,) * 4
    tor = Switch.objects.get(fabric=demo, name="p2-tor0")
    assert day[0]["worst_tor"] == {"id": tor.pk, "name": "p2-tor0"}
    assert plan["short_before"] == []


def test_a_tor_short_before_any_work_is_listed_once_and_is_not_the_days_worst(demo, orders, operator):
    """The trial's demo: p1-tor3 is under its requirement before any work (8 of 12: its uplink to
    p1-fab0 disabled, to p1-fab2 down, its own constraint 0.75 here). The guard's floor for it is
    its paths now: spare 0 would paint every interval red though no visit touches it; it is named
    once in short_before instead."""
    Switch.objects.filter(fabric=demo, name="p0-tor0").update(capacity_constraint=None)
    Switch.objects.filter(fabric=demo, name="p1-tor3").update(capacity_constraint=0.75)
    plan = run_plan(operator, demo, {"technicians": 2, "shift_hours": SHIFT_HOURS, "travel": TRAVEL})["result"]
    tor = Switch.objects.get(fabric=demo, name="p1-tor3")
    short = {row["name"]: row for row in plan["short_before"]}
    assert "p1-tor3" in short and short["p1-tor3"]["id"] == tor.pk
    assert (short["p1-tor3"]["paths"], short["p1-tor3"]["required_paths"]) == (8, 12)
    busy = [i for i in plan["headroom"] if i["visits"]]
    assert busy and all(i["worst_tor"]["name"] not in short for i in busy)
    assert all(i["spare_paths"] >= 0 for i in busy)
    assert [i["worst_tor"]["name"] for i in busy] == ["p2-tor0", "p2-tor0"]


def test_named_technicians_bad_params_are_a_400_listing_every_problem(demo, orders, operator, make_user):
    make_user("technician", username="tess")
    make_user("viewer", username="vera")
    make_user("planner", username="pat")
    gone = make_user("technician", username="gone")
    gone.is_active = False
    gone.save()
    response = submit(
        operator,
        demo,
        {"assignees": ["tess", "nobody", "vera", "tess", "pat", "gone", 7], "technicians": 3,
         "shift_start": "2026-11-27T08:00:00"},
    )  # fmt: skip
    assert response.status_code == 400
    problems = {error["field"]: error["message"] for error in response.json()["errors"]}
    assert set(problems) == {
        "assignees[1]", "assignees[2]", "assignees[3]", "assignees[4]", "assignees[5]", "assignees[6]",
        "technicians", "shift_start",
    }  # fmt: skip
    assert "no active user is named 'nobody'" in problems["assignees[1]"]
    assert "vera holds viewer" in problems["assignees[2]"]
    assert "tess is listed twice" in problems["assignees[3]"]
    assert "pat holds planner" in problems["assignees[4]"]
    assert "'gone'" in problems["assignees[5]"]
    assert "is 3 but 7 assignees are named" in problems["technicians"]
    assert "time zone" in problems["shift_start"]
    assert submit(operator, demo, {"assignees": [], "shift_start": "at eight"}).json()["errors"] == [
        {"section": "params", "field": "assignees", "message": "must be a list of 1 to 1000 usernames"},
        {
            "section": "params",
            "field": "shift_start",
            "message": "must be an ISO 8601 datetime such as 2026-11-27T08:00:00+00:00, got 'at eight'",
        },
    ]
