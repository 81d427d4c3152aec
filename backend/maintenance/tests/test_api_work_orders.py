"""/api/work-orders/ through the generic API tests: read-only for clients (work orders are made
and regrouped by the tickets' service, test_work_orders.py)."""

import datetime as dt

import pytest

from fabric.tests.factories import FabricFactory, LinkFactory
from lightpath.tests.api_base import ReadOnlyAPIViewTestBase

from ..models import WorkOrder

CREATED = dt.datetime(2026, 11, 2, 8, 0, tzinfo=dt.UTC)


class TestWorkOrderAPI(ReadOnlyAPIViewTestBase):
    endpoint = "/api/work-orders/"
    brief_fields = ("id", "url", "state", "action", "component_name")

    @pytest.fixture(autouse=True)
    def _fabric(self, db):
        self.fabric = FabricFactory()

    def make_objects(self, count):
        start = WorkOrder.objects.count()
        orders = []
        for i in range(count):
            link = LinkFactory(fabric=self.fabric)
            orders.append(
                WorkOrder.objects.create(
                    fabric=self.fabric,
                    action="clean_fiber",
                    component=f"fiber@{link.pk}",
                    component_name=f"fiber of {link}",
                    footprint=[link.pk],
                    duration_s=900 * (start + i + 1),
                    success_chance=0.8,
                    created=CREATED + dt.timedelta(minutes=start + i),
                )
            )
        return orders

    def filter_cases(self, objects):
        WorkOrder.objects.filter(pk=objects[2].pk).update(state="cancelled", action="replace_cable")
        return [
            ({"fabric": self.fabric.pk}, objects),
            ({"state": "open"}, objects[:2]),
            ({"state": ["open", "cancelled"]}, objects),
            ({"action": "replace_cable"}, objects[2:]),
            ({"duration_s__gte": objects[1].duration_s}, objects[1:]),
            ({"created__lt": objects[1].created.isoformat()}, objects[:1]),
            # The orders taking a link down (the link page names them); an id beyond bigint, none.
            ({"link": objects[1].footprint[0]}, objects[1:2]),
            ({"link": [objects[0].footprint[0], objects[2].footprint[0]]}, [objects[0], objects[2]]),
            ({"link": 2**70}, []),
        ]
