"""/api/jobs/ through the generic API tests: read by every role, started (202, queued) by a role
its kind allows; jobs are never edited or deleted through the API (cancel is tested by hand in
test_jobs.py)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from fabric.tests.factories import FabricFactory
from jobs import services as jobs
from jobs.models import JobLogEntry
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

    def test_log_is_read_by_roles_only_and_costs_the_same_queries_for_more_lines(self, client_for, anonymous, request):
        """GET /api/jobs/{id}/log/ (a detail action; its contents are tested in test_log.py)."""
        job = self.make_objects(1)[0]
        url = f"{self.detail_url(job)}log/"
        assert anonymous.get(url).status_code == 401
        assert client_for(None).get(url).status_code == 403
        assert client_for("admin").post(url, {}, format="json").status_code == 405
        client = client_for("viewer")
        client.get(self.endpoint)  # roles cached
        JobLogEntry.objects.create(job=job, level="info", message="line 0")
        with CaptureQueriesContext(connection) as one:
            assert [e["message"] for e in client.get(url).json()] == ["line 0"]
        JobLogEntry.objects.bulk_create(JobLogEntry(job=job, level="info", message=f"line {i}") for i in range(1, 10))
        with CaptureQueriesContext(connection) as ten:
            assert len(client.get(url).json()) == 10
        assert len(ten) == len(one)
        self.check_queries(request, f"GET {self.endpoint}{{id}}/log/ log", ten)
