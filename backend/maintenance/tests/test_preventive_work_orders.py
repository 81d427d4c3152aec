"""Preventive tickets in work orders (issue #19): a preventive repair joins the visit of a repair
that touches the same links (maintenance.services.work_orders regroups every waiting ticket), so
the planner batches them. On demo-fb, p1-tor5:eth2/1-4 are one breakout cable (test_work_orders)."""

import datetime as dt

import pytest
from django.utils import timezone

from corruption import preventive
from corruption import services as corruption
from corruption.models import Ticket
from maintenance.models import WorkOrder
from maintenance.services.plan import PlanParams, plan_fabric
from telemetry.models import LinkForecast

from .test_work_orders import corrupt, link_at

pytestmark = pytest.mark.django_db


def at_risk(link, cause: str, cause_side: str | None) -> LinkForecast:
    """An at-risk forecast as derivation writes one: Rx at Z falling toward its limit in 3 days."""
    now = timezone.now()
    return LinkForecast.objects.create(
        link=link,
        fabric_id=link.fabric_id,
        computed_at=now,
        crossing_at=now + dt.timedelta(days=3),
        earliest_at=now + dt.timedelta(days=2),
        latest_at=now + dt.timedelta(days=5),
        confidence=0.9,
        at_risk=True,
        cause=cause,
        side="z",
        quantity="rx",
        lane=0,
        level_dbm=-9.0,
        slope_db_per_day=-0.5,
        limit_dbm=-10.5,
        limit_provenance="catalog",
        cause_side=cause_side,
    )


@pytest.fixture
def decide(django_capture_on_commit_callbacks):
    """decide_event as the worker runs it: committed, so the work orders regroup on commit."""

    def run(event) -> Ticket:
        with django_capture_on_commit_callbacks(execute=True):
            assert corruption.decide_event(event.pk).decision.action == "disabled"
        return Ticket.objects.get(link=event.link_id)

    return run


def open_preventive(link, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):  # as the API commits: the orders regroup
        return preventive.open_preventive(link.pk, None)


def test_a_preventive_cable_replacement_and_a_repair_on_the_same_breakout_cable_are_one_order(
    demo, decide, django_capture_on_commit_callbacks
):
    uplinks = [link_at(demo, "p1-tor5", f"eth2/{n}") for n in (1, 2, 3, 4)]
    repair = decide(corrupt(uplinks[0]))  # a fiber cleaning of eth2/1 alone (no optical data)
    (alone,) = WorkOrder.objects.filter(state="open")
    assert (alone.action, alone.footprint) == ("clean_fiber", [uplinks[0].pk])

    at_risk(uplinks[2], "bent_fiber", None)
    ticket = open_preventive(uplinks[2], django_capture_on_commit_callbacks)
    assert ticket.steps.get().recommended_action == "replace_cable"

    (order,) = WorkOrder.objects.filter(state="open")
    assert sorted(order.tickets.values_list("id", flat=True)) == sorted([repair.pk, ticket.pk])
    # The visit does the broadest repair: the new cable makes the cleaning moot.
    assert (order.action, order.component_name) == ("replace_cable", "breakout cable p1-tor5 eth2/1-4")
    assert order.footprint == sorted(link.pk for link in uplinks)
    alone.refresh_from_db()
    assert alone.state == "cancelled"


def test_a_preventive_repair_on_other_links_is_its_own_order_at_the_end_to_act_on(
    demo, decide, django_capture_on_commit_callbacks, client_for
):
    decide(corrupt(link_at(demo, "p1-tor5", "eth2/1")))
    elsewhere = link_at(demo, "p0-tor3", "eth2/4")
    at_risk(elsewhere, "decaying_transmitter", "a")  # the ToR's transmitter decays
    ticket = open_preventive(elsewhere, django_capture_on_commit_callbacks)
    (order,) = WorkOrder.objects.filter(state="open", tickets=ticket)
    assert order.action == "replace_transceiver" and order.tickets.count() == 1
    body = client_for("technician").get(f"/api/work-orders/{order.pk}/").json()
    assert body["location"]["switch"] == "p0-tor3"  # where the technician goes
    assert [row["recommended_action"] for row in body["ticket_details"]] == ["replace_transceiver"]
    assert WorkOrder.objects.filter(state="open").count() == 2


def test_a_work_order_says_it_is_preventive_and_by_when(demo, decide, django_capture_on_commit_callbacks, client_for):
    """Trial 27 item 11: a planner sees which visits are preventive and the crossing to beat."""
    repair = decide(corrupt(link_at(demo, "p1-tor5", "eth2/1")))
    elsewhere = link_at(demo, "p0-tor3", "eth2/4")
    forecast = at_risk(elsewhere, "decaying_transmitter", "a")
    ticket = open_preventive(elsewhere, django_capture_on_commit_callbacks)
    (prevent,) = WorkOrder.objects.filter(state="open", tickets=ticket)
    (fix,) = WorkOrder.objects.filter(state="open", tickets=repair)
    client = client_for("planner")
    rows = {row["id"]: row for row in client.get("/api/work-orders/?state=open").json()["results"]}
    assert rows[prevent.pk]["kinds"] == ["preventive"]
    assert rows[prevent.pk]["deadline"] == forecast.crossing_at.isoformat().replace("+00:00", "Z")
    assert (rows[fix.pk]["kinds"], rows[fix.pk]["deadline"]) == (["repair"], None)
    shown = client.get(f"/api/work-orders/{prevent.pk}/").json()
    assert (shown["kinds"], shown["deadline"]) == (["preventive"], rows[prevent.pk]["deadline"])


def test_the_planner_gives_a_preventive_only_order_its_expected_penalty(demo, django_capture_on_commit_callbacks):
    """Closing 27 item 5: rate 0 left it for later ('no_penalty'); now it costs what its link is
    expected to: the penalty at the action threshold, times confidence, times nearness of the crossing."""
    link = link_at(demo, "p0-tor3", "eth2/4")
    at_risk(link, "contamination", "z")  # a cleaning: the one link out, safe
    ticket = open_preventive(link, django_capture_on_commit_callbacks)
    (order,) = WorkOrder.objects.filter(state="open", tickets=ticket)
    plan = plan_fabric(demo, PlanParams(technicians=1, shift_hours=8, time_budget_s=1))
    (given,) = plan["work_orders"]
    # 1e-6 (demo's threshold) x 0.9 x 7 d / (7 d + 3 d)
    assert given["forecast_penalty_rate"] == pytest.approx(1e-6 * 0.9 * 0.7, rel=1e-3)
    assert given["penalty_rate"] == given["forecast_penalty_rate"]
    assert [visit["work_order"] for visit in plan["visits"]] == [order.pk] and plan["unscheduled"] == []
    # Nearer and surer costs more: due now, certain.
    LinkForecast.objects.filter(link=link).update(crossing_at=timezone.now(), confidence=1.0)
    (given,) = plan_fabric(demo, PlanParams(technicians=1, shift_hours=8, time_budget_s=1))["work_orders"]
    assert given["forecast_penalty_rate"] == pytest.approx(1e-6, rel=1e-3)
