"""Repair metrics over time (corruption.metrics.metrics_history and
GET /api/tickets/metrics/history/): tickets, steps and decisions built by hand on known days."""

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from corruption.metrics import metrics_history
from corruption.models import Decision, Ticket, TicketStep
from fabric import services as fabric_services
from fabric.models import Link

pytestmark = pytest.mark.django_db

UTC = dt.UTC
NOV = dt.datetime(2026, 11, 2, tzinfo=UTC)  # a Monday
HOUR = dt.timedelta(hours=1)
DAY = dt.timedelta(days=1)


def disabled_decision(link: Link, at: dt.datetime) -> Decision:
    decision = Decision.objects.create(
        fabric=link.fabric, link=link, kind="fast_checker", action="disabled", penalty=1e-4, engine_ms=1.0
    )
    Decision.objects.filter(pk=decision.pk).update(created=at)  # created is auto_now_add
    return decision


def ticket_on(
    link: Link,
    opened: dt.datetime,
    steps: list[tuple[dt.datetime | None, bool | None, str]],
    resolved: dt.datetime | None = None,
) -> Ticket:
    """A ticket opened at `opened` with steps (acted_at, followed, outcome), each asked for by a
    disabling decision at the ticket's opening (the first) or at the previous step's action."""
    first = disabled_decision(link, opened)
    ticket = Ticket.objects.create(
        fabric=link.fabric,
        link=link,
        direction="a_to_z",
        decision=first,
        created=opened,
        resolved_at=resolved,
        state="resolved" if resolved else "open",
    )
    asked_at, decision = opened, first
    for number, (acted_at, followed, outcome) in enumerate(steps, start=1):
        if number > 1:
            decision = disabled_decision(link, asked_at)
        TicketStep.objects.create(
            ticket=ticket,
            number=number,
            decision=decision,
            direction="a_to_z",
            recommended_action="clean_fiber",
            rule="local_rx_low",
            explanation="",
            action_taken="" if acted_at is None else ("clean_fiber" if followed else "reseat_transceiver"),
            followed=followed,
            created=asked_at,
            acted_at=acted_at,
            outcome=outcome,
        )
        asked_at = acted_at or asked_at
    return ticket


@pytest.fixture
def links(small_fabric):
    return list(Link.objects.filter(fabric=small_fabric).order_by("pk"))


@pytest.fixture
def history(small_fabric, links):
    """Four days from Monday 2 November:
    - A: opened Mon 10:00, cleaned as advised Mon 12:00 (fixed), resolved Tue 12:00.
    - B: opened Mon 23:00, reseated instead Tue 01:00 (recurred), then cleaned Wed 05:00 (fixed),
      resolved Thu 05:00.
    - C: opened Wed 08:00, nothing done yet.
    Nothing happens on Thursday but B's resolution."""
    ticket_on(links[0], NOV + 10 * HOUR, [(NOV + 12 * HOUR, True, "fixed")], resolved=NOV + DAY + 12 * HOUR)
    ticket_on(
        links[1],
        NOV + 23 * HOUR,
        [(NOV + DAY + HOUR, False, "recurred"), (NOV + 2 * DAY + 5 * HOUR, True, "fixed")],
        resolved=NOV + 3 * DAY + 5 * HOUR,
    )
    ticket_on(links[2], NOV + 2 * DAY + 8 * HOUR, [(None, None, "pending")])
    return small_fabric


class TestMetricsHistory:
    def test_per_day_counts_fall_in_the_bucket_of_their_own_time(self, history):
        days = metrics_history(history, NOV, NOV + 5 * DAY, "day")["buckets"]
        assert [day["start"] for day in days] == [(NOV + n * DAY).isoformat() for n in range(5)]
        assert [day["tickets_opened"] for day in days] == [2, 0, 1, 0, 0]
        assert [day["tickets_resolved"] for day in days] == [0, 1, 0, 1, 0]
        # Unresolved at each day's end: A and B on Monday, B on Tuesday, B and C Wednesday, C after.
        assert [day["open_tickets"] for day in days] == [2, 1, 2, 1, 1]
        # B's second step (Wednesday) re-disabled the link: a decision on Tuesday at its first action.
        assert [day["links_disabled"] for day in days] == [2, 1, 1, 0, 0]
        assert [day["repair_actions"] for day in days] == [1, 1, 1, 0, 0]

    def test_first_attempts_split_by_followed_in_the_bucket_of_the_action(self, history):
        days = metrics_history(history, NOV, NOV + 3 * DAY, "day")["buckets"]
        monday, tuesday, wednesday = (day["first_attempt"] for day in days)
        assert monday == {
            "all": {"attempts": 1, "fixed": 1, "rate": 1.0},
            "followed": {"attempts": 1, "fixed": 1, "rate": 1.0},
            "not_followed": {"attempts": 0, "fixed": 0, "rate": None},
        }
        # B was opened Monday but first acted on Tuesday, not as advised, and it did not fix it.
        assert tuesday["all"] == {"attempts": 1, "fixed": 0, "rate": 0.0}
        assert tuesday["not_followed"] == {"attempts": 1, "fixed": 0, "rate": 0.0}
        assert tuesday["followed"]["attempts"] == 0
        # B's second step fixed it, but it is not a first attempt.
        assert wednesday["all"]["attempts"] == 0 and days[2]["repaired_tickets"] == 1

    def test_mean_time_to_repair_of_the_repairs_that_fixed_in_the_bucket(self, history):
        days = metrics_history(history, NOV, NOV + 4 * DAY, "day")["buckets"]
        assert [day["mean_time_to_repair_hours"] for day in days] == [
            pytest.approx(2.0),
            None,
            pytest.approx(30.0),
            None,
        ]
        week = metrics_history(history, NOV, NOV + 7 * DAY, "week")["buckets"]
        assert len(week) == 1
        assert week[0]["mean_time_to_repair_hours"] == pytest.approx(16.0) and week[0]["repaired_tickets"] == 2
        assert week[0]["first_attempt"]["all"] == {"attempts": 2, "fixed": 1, "rate": 0.5}

    def test_empty_buckets_are_present_and_weeks_start_on_monday(self, history):
        # From a Thursday to the next-but-one Wednesday: three ISO weeks, the middle ones empty.
        weeks = metrics_history(history, NOV + 3 * DAY, NOV + 16 * DAY, "week")["buckets"]
        assert [week["start"] for week in weeks] == [
            NOV.isoformat(),
            (NOV + 7 * DAY).isoformat(),
            (NOV + 14 * DAY).isoformat(),
        ]
        assert [week["tickets_opened"] for week in weeks] == [3, 0, 0]
        assert [week["open_tickets"] for week in weeks] == [1, 1, 1]  # C is still open
        empty = weeks[1]
        assert (empty["tickets_resolved"], empty["repaired_tickets"], empty["mean_time_to_repair_hours"]) == (
            0,
            0,
            None,
        )
        assert empty["first_attempt"]["all"] == {"attempts": 0, "fixed": 0, "rate": None}

    def test_a_time_exactly_on_a_bucket_edge_belongs_to_the_bucket_it_starts(self, small_fabric, links):
        ticket_on(links[0], NOV + DAY, [(None, None, "pending")])
        days = metrics_history(small_fabric, NOV, NOV + 2 * DAY)["buckets"]
        assert [day["tickets_opened"] for day in days] == [0, 1]
        assert [day["open_tickets"] for day in days] == [0, 1]

    def test_tickets_opened_before_the_range_count_as_unresolved_until_resolved(self, history):
        # From Wednesday: A is resolved; B (opened Monday) is unresolved until Thursday 05:00.
        days = metrics_history(history, NOV + 2 * DAY, NOV + 4 * DAY)["buckets"]
        assert [(day["tickets_opened"], day["tickets_resolved"], day["open_tickets"]) for day in days] == [
            (1, 0, 2),
            (0, 1, 1),
        ]

    def test_other_fabrics_are_left_out_unless_every_fabric_is_asked(self, history, links, small_document):
        other = fabric_services.import_document({**small_document, "name": "other"})
        ticket_on(Link.objects.filter(fabric=other).first(), NOV + HOUR, [(None, None, "pending")])
        assert metrics_history(history, NOV, NOV + DAY)["buckets"][0]["tickets_opened"] == 2
        every = metrics_history(None, NOV, NOV + DAY)
        assert every["fabric"] is None and every["buckets"][0]["tickets_opened"] == 3
        assert every["buckets"][0]["links_disabled"] == 3

    def test_one_query_whatever_the_number_of_buckets(self, history):
        with CaptureQueriesContext(connection) as queries:
            assert len(metrics_history(history, NOV - 700 * DAY, NOV + 30 * DAY)["buckets"]) == 730
        assert len(queries) == 1


class TestMetricsHistoryAPI:
    URL = "/api/tickets/metrics/history/"

    def test_every_role_reads_it(self, history, client_for, every_role):
        response = client_for(every_role).get(
            self.URL, {"fabric": history.pk, "from": "2026-11-02", "to": "2026-11-05", "bucket": "day"}
        )
        assert response.status_code == 200, response.content
        body = response.json()
        assert (body["fabric"], body["bucket"]) == (history.pk, "day")
        assert [day["tickets_opened"] for day in body["buckets"]] == [2, 0, 1]

    def test_anonymous_gets_401_or_403(self, history):
        from rest_framework.test import APIClient

        assert APIClient().get(self.URL).status_code in (401, 403)

    def test_defaults_are_the_last_30_days_by_day(self, history, client_for):
        body = client_for("viewer").get(self.URL).json()
        assert body["bucket"] == "day" and len(body["buckets"]) == 30 and body["fabric"] is None

    def test_bad_input_is_a_400_listing_every_problem(self, history, client_for):
        client = client_for("viewer")
        body = client.get(self.URL, {"from": "yesterday", "to": "2026-13-01", "bucket": "month", "fabric": "x"})
        assert body.status_code == 400
        assert set(body.json()) == {"from", "to", "bucket", "fabric"}
        reversed_range = client.get(self.URL, {"from": "2026-11-05", "to": "2026-11-02"})
        assert reversed_range.status_code == 400 and "after" in reversed_range.json()["to"][0]
        too_long = client.get(self.URL, {"from": "2020-01-01", "to": "2026-01-01"})
        assert too_long.status_code == 400 and "two years" in too_long.json()["to"][0]

    def test_it_is_in_the_openapi_schema(self, client_for):
        schema = client_for("viewer").get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
        operation = schema["paths"]["/api/tickets/metrics/history/"]["get"]
        assert {p["name"] for p in operation["parameters"]} >= {"fabric", "from", "to", "bucket"}
        answer = operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
        assert set(schema["components"]["schemas"][answer]["properties"]) == {
            "fabric",
            "bucket",
            "from",
            "to",
            "buckets",
        }


class TestPreventiveWorkIsCountedApart:
    """Closing 27 item 4: a preventive ticket's work (on a link still in service, before any
    corruption) is not a repair: it neither lifts first-attempt success nor shortens the MTTR."""

    @pytest.fixture
    def prevented(self, history, links):
        """D: preventive, opened Mon 13:00, cleaned Mon 14:00 and it held (fixed), resolved Tue 14:00."""
        ticket = Ticket.objects.create(
            fabric=history, link=links[3], kind="preventive", direction="a_to_z", decision=None,
            created=NOV + 13 * HOUR, resolved_at=NOV + DAY + 14 * HOUR, state="resolved",
        )  # fmt: skip
        TicketStep.objects.create(
            ticket=ticket, number=1, decision=None, direction="a_to_z", recommended_action="clean_fiber",
            rule="preventive.contamination", explanation="", action_taken="clean_fiber", followed=True,
            created=NOV + 13 * HOUR, acted_at=NOV + 14 * HOUR, outcome="fixed",
        )  # fmt: skip
        return history

    def test_per_day(self, prevented):
        monday = metrics_history(prevented, NOV, NOV + DAY, "day")["buckets"][0]
        # A's repair alone, as without D: 1 of 1, two hours.
        assert monday["first_attempt"]["all"] == {"attempts": 1, "fixed": 1, "rate": 1.0}
        assert monday["mean_time_to_repair_hours"] == pytest.approx(2.0) and monday["repaired_tickets"] == 1
        assert monday["preventive_first_attempt"] == {"attempts": 1, "fixed": 1, "rate": 1.0}
        assert (monday["tickets_opened"], monday["repair_actions"]) == (3, 2)  # both kinds

    def test_now(self, prevented, client_for):
        body = client_for("viewer").get("/api/tickets/metrics/", {"fabric": prevented.pk}).json()
        # A fixed at once, B not: the preventive cleaning that held is not among them.
        assert body["first_attempt"]["all"] == {"attempts": 2, "fixed": 1, "rate": 0.5}
        assert body["mean_time_to_repair_hours"] == pytest.approx(16.0) and body["repaired_tickets"] == 2
        assert body["preventive_first_attempt"] == {"attempts": 1, "fixed": 1, "rate": 1.0}
