"""/api/audit/ through the generic API tests: the audit log is read by every role and written by
no client (rows come from the changes they record)."""

import pytest

from audit import services as audit
from fabric.tests.factories import FabricFactory
from lightpath.tests.api_base import ReadOnlyAPIViewTestBase


class TestAuditEventAPI(ReadOnlyAPIViewTestBase):
    endpoint = "/api/audit/"
    brief_fields = None  # the audit log has no brief mode; ?brief=1 is ignored

    @pytest.fixture(autouse=True)
    def _author(self, make_user):
        self.author = make_user("planner", "auditor")

    def make_objects(self, count):
        return [audit.record(self.author, audit.CREATE, FabricFactory()) for _ in range(count)]

    def filter_cases(self, objects):
        deleted = FabricFactory()
        removal = audit.record(None, audit.DELETE, deleted, before=audit.snapshot(deleted))
        return [
            ({"action": "create"}, objects),
            ({"action": "delete"}, [removal]),
            ({"user": self.author.pk}, objects),
            ({"username": "auditor"}, objects),
            ({"object_id": objects[1].object_id, "object_type": "fabric.fabric"}, objects[1:2]),
        ]
