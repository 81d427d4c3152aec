"""The demo's maintenance plan set-up shared by the plan tests (test_plan.py, test_today.py): three
cable work orders on the demo with its constraint lowered to 0.5 (test_plan.py's docstring tells
the story), and the tickets.plan job submitted through POST /api/jobs/ and run as the worker runs it."""

import json

from django.utils import timezone
from rest_framework.test import APIClient

from corruption import services as corruption
from corruption.models import Ticket, TicketStep
from fabric.models import Link
from jobs import services as jobs
from lightpath.settings import REPO_ROOT
from maintenance.models import WorkOrder
from maintenance.services import work_orders
from telemetry.models import CorruptionEvent

JOB_DATABASES = ["default", "progress"]
DEMO = json.loads((REPO_ROOT / "fixtures" / "data" / "demo-fb.json").read_text())
SHIFT_HOURS = 8.0
TRAVEL = {"same_rack_s": 0, "same_row_s": 120, "elsewhere_s": 600}
CABLES = ("p2-fab0", "p2-fab2", "p1-fab2")


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
