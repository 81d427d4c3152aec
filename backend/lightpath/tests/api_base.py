"""Generic API tests in NetBox's style: a test class per model declares only the endpoint,
how to make objects, the data to create and update, and its brief fields; it inherits the
list, brief, detail, create, bulk create, update, delete and audit tests."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from audit.models import AuditEvent


@pytest.mark.django_db
class APIViewTestBase:
    endpoint: str
    writer_role: str = "admin"
    brief_fields: tuple[str, ...]

    def make_objects(self, count: int) -> list:
        raise NotImplementedError

    def create_data(self) -> list[dict]:
        """Three valid bodies for POST (the third is also used for bulk create)."""
        raise NotImplementedError

    update_data: dict = {}

    def test_list(self, client_for):
        objects = self.make_objects(3)
        response = client_for("viewer").get(self.endpoint, {"limit": 2})
        assert response.status_code == 200
        body = response.json()
        assert body["count"] >= len(objects)
        assert len(body["results"]) == 2
        assert body["next"] is not None

    def test_brief(self, client_for):
        self.make_objects(1)
        result = client_for("viewer").get(self.endpoint, {"brief": 1}).json()["results"][0]
        assert sorted(result) == sorted(self.brief_fields)

    def test_get_and_unknown_id(self, client_for):
        obj = self.make_objects(1)[0]
        client = client_for("viewer")
        response = client.get(f"{self.endpoint}{obj.pk}/")
        assert response.status_code == 200
        assert response.json()["id"] == obj.pk
        assert client.get(f"{self.endpoint}999999999/").status_code == 404
        assert client.get(f"{self.endpoint}not-a-number/").status_code == 404

    def test_create_writes_audit(self, client_for):
        data = self.create_data()[0]
        response = client_for(self.writer_role).post(self.endpoint, data, format="json")
        assert response.status_code == 201, response.content
        created = response.json()
        for key, value in data.items():
            if isinstance(value, (str, int, float)) and key in created:
                assert created[key] == value, key
        event = AuditEvent.objects.get(object_id=created["id"], action="create")
        assert event.user is not None and event.before is None and event.after["id"] == created["id"]

    def test_bulk_create_is_all_or_nothing(self, client_for):
        client = client_for(self.writer_role)
        bodies = self.create_data()[1:]
        response = client.post(self.endpoint, bodies, format="json")
        assert response.status_code == 201, response.content
        assert len(response.json()) == len(bodies)
        count = client.get(self.endpoint).json()["count"]
        broken = [self.create_data()[0], {"bogus": True}]
        response = client.post(self.endpoint, broken, format="json")
        assert response.status_code == 400
        assert client.get(self.endpoint).json()["count"] == count

    def test_update_writes_before_and_after(self, client_for):
        obj = self.make_objects(1)[0]
        response = client_for(self.writer_role).patch(f"{self.endpoint}{obj.pk}/", self.update_data, format="json")
        assert response.status_code == 200, response.content
        for key, value in self.update_data.items():
            assert response.json()[key] == value
        event = AuditEvent.objects.get(object_id=obj.pk, action="update", object_type=obj._meta.label_lower)
        changed = next(iter(self.update_data))
        assert event.before[changed] != event.after[changed]

    def test_delete(self, client_for):
        obj = self.make_objects(1)[0]
        client = client_for("admin")
        assert client.delete(f"{self.endpoint}{obj.pk}/").status_code == 204
        assert client.get(f"{self.endpoint}{obj.pk}/").status_code == 404
        assert AuditEvent.objects.filter(object_id=obj.pk, action="delete").exists()

    def test_list_query_count_does_not_grow_with_rows(self, client_for):
        """Catches N+1 queries: listing 2 or 20 objects costs the same number of queries."""
        client = client_for("viewer")
        self.make_objects(2)
        client.get(self.endpoint)  # warm up auth caches
        with CaptureQueriesContext(connection) as few:
            client.get(self.endpoint, {"limit": 100})
        self.make_objects(18)
        with CaptureQueriesContext(connection) as many:
            client.get(self.endpoint, {"limit": 100})
        assert len(many) == len(few), [q["sql"] for q in many.captured_queries]
