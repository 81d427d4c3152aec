"""/api/corruption-events/ (read-only: ingest opens and ends them) and /api/power-thresholds/
(manual overrides written by operators and technicians) through the generic API tests."""

import datetime as dt

import pytest
from django.utils import timezone

from fabric.tests.factories import FabricFactory, LinkFactory
from lightpath.tests.api_base import APIViewTestBase, ReadOnlyAPIViewTestBase

from ..models import CorruptionEvent, PowerThreshold

START = dt.datetime(2026, 11, 2, 8, 0, tzinfo=dt.UTC)


class TestCorruptionEventAPI(ReadOnlyAPIViewTestBase):
    endpoint = "/api/corruption-events/"
    brief_fields = ("id", "link", "direction", "rate", "first_seen", "ended_at")

    @pytest.fixture(autouse=True)
    def _fabric(self, db):
        self.fabric = FabricFactory()

    def make_objects(self, count):
        events = []
        for i in range(count):
            first = START + dt.timedelta(minutes=i)
            events.append(
                CorruptionEvent.objects.create(
                    link=LinkFactory(fabric=self.fabric),
                    direction="a_to_z",
                    rate=1e-4,
                    last_rate=1e-4,
                    peak_rate=2e-4,
                    first_seen=first,
                    last_seen=first + dt.timedelta(minutes=15),
                )
            )
        return events

    def filter_cases(self, objects):
        ended = objects[2]
        CorruptionEvent.objects.filter(pk=ended.pk).update(ended_at=timezone.now(), direction="z_to_a")
        return [
            ({"fabric": self.fabric.pk}, objects),
            ({"link": objects[0].link_id}, objects[:1]),
            ({"open": "false"}, [ended]),
            ({"direction": "a_to_z", "first_seen__gte": objects[1].first_seen.isoformat()}, objects[1:2]),
        ]


class TestPowerThresholdAPI(APIViewTestBase):
    endpoint = "/api/power-thresholds/"
    brief_fields = ("id", "link", "side", "source")
    writer_role = "technician"
    update_data = {"input_power_lower_dbm": -12.5}

    @pytest.fixture(autouse=True)
    def _fabric(self, db):
        self.fabric = FabricFactory()

    def make_objects(self, count):
        return [
            PowerThreshold.objects.create(
                link=LinkFactory(fabric=self.fabric), side="z", source="manual", input_power_lower_dbm=-14.0
            )
            for _ in range(count)
        ]

    def create_data(self):
        return [
            {"link": LinkFactory(fabric=self.fabric).pk, "side": "a", "input_power_lower_dbm": -11.0} for _ in range(3)
        ]

    def filter_cases(self, objects):
        device = PowerThreshold.objects.create(link=objects[0].link, side="z", source="device")
        return [
            ({"fabric": self.fabric.pk}, [*objects, device]),
            ({"source": "device"}, [device]),
            ({"link": objects[0].link_id, "source": "manual"}, objects[:1]),
        ]
