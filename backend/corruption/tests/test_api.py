"""GET /api/decisions/ as an operator's script sees it, and the ingest hook that feeds the workers."""

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.roles import ADMIN
from corruption import services
from lightpath import dispatch
from telemetry.models import CorruptionEvent
from telemetry.services.ingest import ingest

from .test_services import link, open_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def decided(small_fabric):
    """t0:up0 kept (blocking t0), f0:u0 disabled, f2:u0 disabled."""
    events = [open_event(link(small_fabric, *end)) for end in (("t0", "up0"), ("f0", "u0"), ("f2", "u0"))]
    return [services.decide_event(event.pk).decision for event in events]


def ids(response) -> list[int]:
    assert response.status_code == 200, response.content
    return sorted(row["id"] for row in response.json()["results"])


class TestDecisionAPI:
    def test_every_role_reads_a_decision_with_its_tors(self, decided, client_for, every_role):
        kept = decided[0]
        body = client_for(every_role).get(f"/api/decisions/{kept.pk}/").json()
        assert body["action"] == "kept" and body["kind"] == "fast_checker"
        assert body["link_name"] == "t0:up0 - f0:d0"
        assert body["blocking_tor_name"] == "t0" and body["blocking_tor_fraction"] == 1.0
        assert {row["name"] for row in body["affected"]} == {"t0"}
        assert body["affected"][0]["fraction_after"] == 0.5

    def test_filters_by_fabric_link_action_kind_and_time(self, decided, client_for):
        kept, first, second = decided
        client = client_for("viewer")
        assert ids(client.get("/api/decisions/", {"action": "disabled"})) == sorted([first.pk, second.pk])
        assert ids(client.get("/api/decisions/", {"link": kept.link_id})) == [kept.pk]
        assert ids(client.get("/api/decisions/", {"fabric": kept.fabric_id, "kind": "fast_checker"})) == sorted(
            d.pk for d in decided
        )
        assert ids(client.get("/api/decisions/", {"kind": "optimizer"})) == []
        later = (timezone.now() + dt.timedelta(minutes=1)).isoformat()
        assert ids(client.get("/api/decisions/", {"created__gte": later})) == []
        assert len(ids(client.get("/api/decisions/", {"created__lte": later}))) == 3

    def test_kept_for_capacity_lists_links_still_corrupting_and_kept(self, decided, client_for):
        kept = decided[0]
        client = client_for("viewer")
        assert ids(client.get("/api/decisions/", {"kept_for_capacity": "true"})) == [kept.pk]
        assert kept.pk not in ids(client.get("/api/decisions/", {"kept_for_capacity": "false"}))
        CorruptionEvent.objects.filter(pk=kept.event_id).update(ended_at=timezone.now())
        assert ids(client.get("/api/decisions/", {"kept_for_capacity": "true"})) == []

    def test_brief_mode(self, decided, client_for):
        row = client_for("viewer").get("/api/decisions/", {"brief": 1}).json()["results"][0]
        assert sorted(row) == sorted(["id", "url", "link", "event", "kind", "action", "created"])

    def test_nobody_writes_decisions(self, decided, client_for, anonymous):
        admin = client_for(ADMIN)
        assert admin.post("/api/decisions/", {"link": decided[0].link_id}).status_code == 405
        assert admin.delete(f"/api/decisions/{decided[0].pk}/").status_code == 405
        assert client_for("operator").patch(f"/api/decisions/{decided[0].pk}/", {}).status_code == 403
        assert anonymous.get("/api/decisions/").status_code == 401
        assert client_for(None).get("/api/decisions/").status_code == 403

    def test_list_query_count_does_not_grow_with_rows(self, small_fabric, client_for):
        client = client_for("viewer")
        services.decide_event(open_event(link(small_fabric, "t0", "up0")).pk)
        client.get("/api/decisions/")
        with CaptureQueriesContext(connection) as few:
            client.get("/api/decisions/", {"kept_for_capacity": "true"})
        for end in (("t0", "up1"), ("t1", "up0"), ("t2", "up1"), ("f0", "u0"), ("f2", "u1")):
            services.decide_event(open_event(link(small_fabric, *end)).pk)
        with CaptureQueriesContext(connection) as many:
            response = client.get("/api/decisions/", {"kept_for_capacity": "true"})
        assert response.json()["count"] == 4
        assert len(many) == len(few), [q["sql"] for q in many.captured_queries]


def test_ingest_enqueues_a_decision_for_each_opened_event_after_commit(
    small_fabric, monkeypatch, django_capture_on_commit_callbacks
):
    sent: list[tuple] = []
    monkeypatch.setattr(dispatch, "send", lambda task, args, queue=None: sent.append((task, *args)) or True)
    t0 = timezone.now().replace(microsecond=0) - dt.timedelta(hours=1)
    polls = [
        {"switch": "f0", "port": port, "time": t0 + dt.timedelta(minutes=15 * i), "in_pkts": 1_000_000 * i,
         "in_fcs_errors": errors * i}
        for port, errors in (("d0", 20), ("d1", 500))
        for i in range(2)
    ]  # fmt: skip
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        result = ingest(small_fabric, polls, derive=True)
    assert len(result.events_opened) == 2 and sent == []  # nothing before the commit
    for callback in callbacks:
        callback()
    larger = CorruptionEvent.objects.get(link=link(small_fabric, "t1", "up0"))
    smaller = CorruptionEvent.objects.get(link=link(small_fabric, "t0", "up0"))
    assert sent == [("corruption.decide_event", larger.pk), ("corruption.decide_event", smaller.pk)]  # largest first
