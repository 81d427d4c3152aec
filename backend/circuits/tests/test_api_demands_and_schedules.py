"""/api/demands/ (uploaded, read and deleted; never edited) and /api/circuit-schedules/ (schedule
jobs: started with 202, never edited or deleted) through the generic API tests. Uploads, the
heat map and the plans themselves are tested by hand in test_api.py."""

import pytest

from fabric.tests.factories import FabricFactory, SwitchFactory
from jobs import services as jobs
from lightpath.tests.api_base import CreateTests, DeleteTests, ReadOnlyAPIViewTestBase

from .. import schedule
from ..models import CircuitSwitch, Demand
from ..services import all_tor_attachments, replace_attachments, upload_demand

DEMAND_CSV = "src,dst,bytes,window_start\nt0,t1,900000000,0\nt1,t2,100000000,0\nt0,t2,500000000,1\n"


@pytest.fixture
def racks(db):
    fabric = FabricFactory()
    for i in range(3):
        SwitchFactory(fabric=fabric, name=f"t{i}", tier=0, pod=0)
    return fabric


class TestDemandAPI(ReadOnlyAPIViewTestBase, CreateTests, DeleteTests):
    endpoint = "/api/demands/"
    brief_fields = ("id", "url", "name", "fabric")
    writer_role = "planner"

    @pytest.fixture(autouse=True)
    def _racks(self, racks, make_user):
        self.fabric = racks
        self.uploader = make_user("planner", "uploader")

    def make_objects(self, count):
        start = Demand.objects.count()
        return [
            upload_demand(
                {"fabric": self.fabric.pk, "name": f"demand-{start + i}", "csv": DEMAND_CSV}, None, self.uploader
            )
            for i in range(count)
        ]

    def create_data(self):
        return [{"fabric": self.fabric.pk, "name": f"new-{i}", "csv": DEMAND_CSV} for i in range(3)]

    def filter_cases(self, objects):
        other = upload_demand(
            {"fabric": self.fabric.pk, "name": "one window", "csv": DEMAND_CSV.split("t0,t2")[0]}, None, None
        )
        return [
            ({"uploaded_by": self.uploader.pk}, objects),
            ({"window_count": 1}, [other]),
            ({"name__isw": "demand-", "name__n": objects[0].name}, objects[1:]),
        ]


class TestCircuitScheduleAPI(ReadOnlyAPIViewTestBase, CreateTests):
    endpoint = "/api/circuit-schedules/"
    brief_fields = ("id", "url", "kind", "state", "progress")
    writer_role = "planner"
    create_status = 202
    audited = False  # a schedule is a job: its own record

    @pytest.fixture(autouse=True)
    def _racks(self, racks, make_user):
        self.fabric = racks
        self.demand = upload_demand(
            {"fabric": racks.pk, "name": "hot pairs", "csv": DEMAND_CSV}, None, make_user("planner")
        )
        self.switch = CircuitSwitch.objects.create(fabric=racks, name="ocs-1", zone="z", port_count=8, capacity_gbps=10)
        replace_attachments(self.switch, all_tor_attachments(racks))

    def make_objects(self, count):
        params = {"demand": self.demand.pk, "circuit_switches": [self.switch.pk]}
        return [jobs.submit(schedule.JOB_KIND, fabric=self.fabric, params=params) for _ in range(count)]

    def create_data(self):
        return [{"demand": self.demand.pk, "circuit_switch": self.switch.pk, "params": {}} for _ in range(3)]

    def check_created(self, data, created):
        # The answer names the demand and the switches (they may be deleted later; the names stay).
        assert created["kind"] == schedule.JOB_KIND and created["state"] == "queued"
        assert created["demand"] == {"id": self.demand.pk, "name": "hot pairs", "deleted": False}
        assert [switch["id"] for switch in created["circuit_switches"]] == [self.switch.pk]

    def filter_cases(self, objects):
        jobs.submit("fabric.capacity_report", fabric=self.fabric)  # not a schedule: never listed here
        jobs.cancel(objects[0])
        return [
            ({"fabric": self.fabric.pk}, objects),
            ({"demand": self.demand.pk, "state": "queued"}, objects[1:]),
            ({"state": "cancelled"}, objects[:1]),
        ]
