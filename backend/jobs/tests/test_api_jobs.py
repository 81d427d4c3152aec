"""/api/jobs/ through the generic API tests: read by every role, started (202, queued) by a role
its kind allows; jobs are never edited or deleted through the API (cancel is tested by hand in
test_jobs.py)."""

import pytest

from fabric.tests.factories import FabricFactory
from jobs import services as jobs
from lightpath.tests.api_base import CreateTests, ReadOnlyAPIViewTestBase


class TestJobAPI(ReadOnlyAPIViewTestBase, CreateTests):
    endpoint = "/api/jobs/"
    brief_fields = ("id", "url", "kind", "state", "progress")
    writer_role = "operator"  # corruption.optimize is an operator's kind; a viewer may not start it
    create_status = 202
    audited = False  # a job is its own record: who started it, when, with what

    @pytest.fixture(autouse=True)
    def _fabric(self, db):
        self.fabric = FabricFactory()

    def make_objects(self, count):
        return [jobs.submit("fabric.capacity_report", fabric=self.fabric) for _ in range(count)]

    def create_data(self):
        return [{"kind": "corruption.optimize", "fabric": self.fabric.pk, "params": {}} for _ in range(3)]

    def filter_cases(self, objects):
        other = jobs.submit("corruption.optimize", fabric=FabricFactory())
        return [
            ({"kind": "fabric.capacity_report"}, objects),
            ({"fabric": other.fabric_id}, [other]),
            ({"state": "queued", "kind__n": "fabric.capacity_report"}, [other]),
            ({"state": "running"}, []),
        ]
