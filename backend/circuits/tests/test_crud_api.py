"""The generic API tests (list, brief, detail, create, bulk create, update, delete, audit, no N+1)
for circuit switches, whose attachments carry links so the port-availability path is exercised."""

import pytest

from fabric.tests.factories import FabricFactory, LinkFactory, SwitchFactory
from lightpath.tests.api_base import APIViewTestBase

from ..models import CircuitSwitch
from ..services import replace_attachments


class TestCircuitSwitchAPI(APIViewTestBase):
    endpoint = "/api/circuit-switches/"
    brief_fields = ("id", "url", "name", "zone", "fabric")
    writer_role = "planner"
    update_data = {"port_count": 9}

    @pytest.fixture(autouse=True)
    def _fabric(self, db):
        self.fabric = FabricFactory()
        self.tors = SwitchFactory.create_batch(3, fabric=self.fabric, tier=0)

    def make_objects(self, count):
        switches = []
        for _ in range(count):
            link = LinkFactory(fabric=self.fabric)
            switch = CircuitSwitch.objects.create(
                fabric=self.fabric, name=f"ocs-{CircuitSwitch.objects.count()}", port_count=8
            )
            replace_attachments(
                switch,
                [{"tor": link.a_switch, "optical_ports": 2, "links": [link]}, {"tor": self.tors[0]}],
            )
            switches.append(switch)
        return switches

    def create_data(self):
        return [
            {
                "fabric": self.fabric.pk,
                "name": f"new-{i}",
                "zone": "z",
                "port_count": 4,
                "attachments": [{"tor": tor.pk} for tor in self.tors],
            }
            for i in range(3)
        ]

    def filter_cases(self, objects):
        return [({"fabric": self.fabric.pk}, objects), ({"name": objects[0].name}, objects[:1])]
