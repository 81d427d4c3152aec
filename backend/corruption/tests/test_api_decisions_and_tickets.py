"""/api/decisions/ and /api/tickets/ through the generic API tests: both read-only for clients
(decisions are made by the workers; a ticket is worked through its actions, tested by hand in
test_tickets_api.py)."""

import datetime as dt

import pytest

from fabric.tests.factories import FabricFactory, LinkFactory
from lightpath.tests.api_base import ReadOnlyAPIViewTestBase

from ..models import Decision, Ticket

CREATED = dt.datetime(2026, 11, 2, 8, 0, tzinfo=dt.UTC)


def decision(fabric, minute: int, action: str = "disabled", **fields) -> Decision:
    return Decision.objects.create(
        fabric=fabric,
        link=LinkFactory(fabric=fabric),
        kind="fast_checker",
        action=action,
        loss_rate_a_to_z=1e-4,
        penalty=1e-4 * (minute + 1),
        engine_ms=1.5,
        **fields,
    )


class TestDecisionAPI(ReadOnlyAPIViewTestBase):
    endpoint = "/api/decisions/"
    brief_fields = ("id", "url", "link", "event", "kind", "action", "created")

    @pytest.fixture(autouse=True)
    def _fabric(self, db):
        self.fabric = FabricFactory()

    def make_objects(self, count):
        start = Decision.objects.count()
        return [decision(self.fabric, start + i) for i in range(count)]

    def filter_cases(self, objects):
        kept = decision(self.fabric, 100, action="kept")
        return [
            ({"fabric": self.fabric.pk, "action": "disabled"}, objects),
            ({"action": "kept"}, [kept]),
            ({"link": objects[1].link_id}, objects[1:2]),
            ({"penalty__gte": objects[2].penalty, "action": "disabled"}, objects[2:]),
            ({"kind": "optimizer"}, []),
        ]


class TestTicketAPI(ReadOnlyAPIViewTestBase):
    endpoint = "/api/tickets/"
    brief_fields = ("id", "url", "link", "state")

    @pytest.fixture(autouse=True)
    def _fabric(self, db):
        self.fabric = FabricFactory()

    def make_objects(self, count):
        start = Ticket.objects.count()
        tickets = []
        for i in range(count):
            opened_by = decision(self.fabric, start + i)
            tickets.append(
                Ticket.objects.create(
                    fabric=self.fabric,
                    link=opened_by.link,
                    direction="a_to_z",
                    decision=opened_by,
                    created=CREATED + dt.timedelta(minutes=start + i),
                )
            )
        return tickets

    def filter_cases(self, objects):
        Ticket.objects.filter(pk=objects[2].pk).update(state="awaiting_validation")
        return [
            ({"fabric": self.fabric.pk}, objects),
            ({"state": "open"}, objects[:2]),
            ({"link": objects[1].link_id}, objects[1:2]),
            ({"unassigned": "false"}, []),
            ({"created__lt": objects[1].created.isoformat()}, objects[:1]),
        ]
