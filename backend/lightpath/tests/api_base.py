"""Generic API tests in NetBox's style (utilities/testing/api.py): a test class per model endpoint
declares the endpoint, how to make objects, a filter case and, for what it lets clients write, the
data to create and update; it inherits the tests of each action the endpoint exposes.

Compose an endpoint's class from the mixins of the actions it exposes (`APIViewTestBase` is all of
them); every class also asserts who is refused (anonymous 401, no role 403, a reading role 403 on
writes) and that the writes it does not expose answer 405 even to an admin. Each action's SQL
query count is compared with the committed baseline (lightpath/tests/query_counts.py).
test_api_coverage.py fails when a router-registered endpoint has no class here."""

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import resolve

from audit.models import AuditEvent

from . import query_counts

LIST_ROWS = 3  # objects in the list whose query count is recorded: enough for an N+1 to show


@pytest.mark.django_db
class EndpointTestBase:
    """What every endpoint shares: who may read it, its filters and the query-count check."""

    endpoint: str
    # Meta.brief_fields of the serializer; None for an endpoint without brief mode (`?brief=1`
    # is then ignored and the full row is returned).
    brief_fields: tuple[str, ...] | None
    lookup_field: str = "pk"  # the model attribute in the detail URL, and the row's key in answers
    writer_role: str = "admin"
    reader_role: str = "viewer"  # reads everything, writes nothing here
    # Objects added for the "does not grow with rows" test; an endpoint whose objects need scarce
    # fixtures (e.g. a ticket per disabled link of the small fabric) lowers it.
    growth_rows: int = 18

    def make_objects(self, count: int) -> list:
        raise NotImplementedError

    def filter_cases(self, objects: list) -> list[tuple[dict, list]]:
        """(query parameters, the objects exactly that query lists), for filters of the endpoint's
        filterset; `objects` are `make_objects(LIST_ROWS)`."""
        raise NotImplementedError

    # helpers

    def detail_url(self, obj) -> str:
        return f"{self.endpoint}{getattr(obj, self.lookup_field)}/"

    @property
    def row_key(self) -> str:
        return "id" if self.lookup_field == "pk" else self.lookup_field

    def row_id(self, row: dict):
        """The object's key in an answer's row (an endpoint whose rows nest their key overrides)."""
        return row[self.row_key]

    def keys_of(self, objects) -> set:
        return {getattr(obj, self.lookup_field) for obj in objects}

    def listed(self, client, params: dict) -> set:
        response = client.get(self.endpoint, {**params, "limit": 1000})
        assert response.status_code == 200, (params, response.content)
        return {self.row_id(row) for row in response.json()["results"]}

    def exposes(self, action: str) -> bool:
        return {"create": CreateTests, "update": UpdateTests, "delete": DeleteTests}[action] in type(self).__mro__

    def check_queries(self, request, key: str, queries: CaptureQueriesContext) -> None:
        query_counts.check(key, len(queries), request.node.nodeid)

    # tests

    def test_anonymous_gets_401(self, anonymous):
        obj = self.make_objects(1)[0]
        assert anonymous.get(self.endpoint).status_code == 401
        assert anonymous.get(self.detail_url(obj)).status_code == 401
        assert anonymous.post(self.endpoint, {}, format="json").status_code == 401
        assert anonymous.patch(self.detail_url(obj), {}, format="json").status_code == 401
        assert anonymous.delete(self.detail_url(obj)).status_code == 401

    def test_a_user_without_a_role_gets_403(self, client_for):
        obj = self.make_objects(1)[0]
        client = client_for(None)
        assert client.get(self.endpoint).status_code == 403
        assert client.get(self.detail_url(obj)).status_code == 403

    def test_writes_it_does_not_expose_answer_405(self, client_for):
        obj = self.make_objects(1)[0]
        admin = client_for("admin")
        if not self.exposes("create"):
            assert admin.post(self.endpoint, {}, format="json").status_code == 405
        if not self.exposes("update"):
            assert admin.patch(self.detail_url(obj), {}, format="json").status_code == 405
            assert admin.put(self.detail_url(obj), {}, format="json").status_code == 405
        if not self.exposes("delete"):
            assert admin.delete(self.detail_url(obj)).status_code == 405
        assert admin.get(self.detail_url(obj)).status_code == 200  # still there


class ListTests(EndpointTestBase):
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
        client = client_for("viewer")
        result = client.get(self.endpoint, {"brief": 1}).json()["results"][0]
        if self.brief_fields is None:
            assert sorted(result) == sorted(client.get(self.endpoint).json()["results"][0])
        else:
            assert sorted(result) == sorted(self.brief_fields)

    def test_filter(self, client_for):
        objects = self.make_objects(LIST_ROWS)
        client = client_for("viewer")
        cases = self.filter_cases(objects)
        assert cases, "declare at least one filter case"
        for params, expected in cases:
            assert self.listed(client, params) == self.keys_of(expected), params

    def test_each_declared_filter_finds_its_object(self, client_for):
        """Every field of the filterset's Meta.fields, given an object's own value, lists that
        object (a filter that fails on a real value, e.g. a 400 or 500 on a float, shows here)."""
        obj = self.make_objects(1)[0]
        filterset = resolve(self.endpoint).func.cls.filterset_class
        client = client_for("viewer")
        for name in filterset._meta.fields:
            field = obj._meta.get_field(name)
            value = field.value_from_object(obj)
            if value in (None, ""):  # an empty parameter filters nothing (django-filter)
                continue
            if isinstance(value, dt.datetime):
                value = value.isoformat()
            elif isinstance(value, bool):
                value = str(value).lower()
            assert getattr(obj, self.lookup_field) in self.listed(client, {name: value}), name

    def test_list_query_count_does_not_grow_with_rows(self, client_for):
        """Catches N+1 queries: listing 2 or 20 objects costs the same number of queries."""
        client = client_for("viewer")
        self.make_objects(2)
        client.get(self.endpoint)  # warm up auth caches
        with CaptureQueriesContext(connection) as few:
            client.get(self.endpoint, {"limit": 100})
        self.make_objects(self.growth_rows)
        with CaptureQueriesContext(connection) as many:
            client.get(self.endpoint, {"limit": 100})
        assert len(many) == len(few), [q["sql"] for q in many.captured_queries]

    def test_list_queries(self, client_for, request):
        client = client_for("viewer")
        self.make_objects(LIST_ROWS)
        client.get(self.endpoint)  # the user's roles are read once and cached on the user
        with CaptureQueriesContext(connection) as queries:
            response = client.get(self.endpoint)
        assert response.status_code == 200
        assert len(response.json()["results"]) >= LIST_ROWS
        self.check_queries(request, f"GET {self.endpoint} list", queries)


class GetTests(EndpointTestBase):
    def test_get_and_unknown_id(self, client_for):
        obj = self.make_objects(1)[0]
        client = client_for("viewer")
        response = client.get(self.detail_url(obj))
        assert response.status_code == 200
        assert self.row_id(response.json()) == getattr(obj, self.lookup_field)
        assert client.get(f"{self.endpoint}999999999/").status_code == 404
        assert client.get(f"{self.endpoint}not-a-number/").status_code == 404

    def test_detail_queries(self, client_for, request):
        obj = self.make_objects(1)[0]
        client = client_for("viewer")
        client.get(self.endpoint)  # roles cached
        with CaptureQueriesContext(connection) as queries:
            response = client.get(self.detail_url(obj))
        assert response.status_code == 200
        self.check_queries(request, f"GET {self.endpoint}{{id}}/ detail", queries)


class CreateTests(EndpointTestBase):
    create_status: int = 201
    audited: bool = True  # a create writes an audit row (jobs are their own record)

    def create_data(self) -> list[dict]:
        """Three valid bodies for POST (the third is also used for bulk create)."""
        raise NotImplementedError

    def check_created(self, data: dict, created: dict) -> None:
        """The answer shows what was sent (an endpoint whose answer reshapes a field overrides)."""
        for key, value in data.items():
            if isinstance(value, (str, int, float)) and key in created:
                assert created[key] == value, key

    def test_create_writes_audit(self, client_for):
        data = self.create_data()[0]
        response = client_for(self.writer_role).post(self.endpoint, data, format="json")
        assert response.status_code == self.create_status, response.content
        created = response.json()
        self.check_created(data, created)
        if self.audited:
            event = AuditEvent.objects.get(object_id=created["id"], action="create")
            assert event.user is not None and event.before is None and event.after["id"] == created["id"]

    def test_a_reading_role_may_not_create(self, client_for):
        client = client_for(self.reader_role)
        count = client.get(self.endpoint).json()["count"]
        response = client.post(self.endpoint, self.create_data()[0], format="json")
        assert response.status_code == 403, response.content
        assert client.get(self.endpoint).json()["count"] == count

    def test_create_queries(self, client_for, request):
        data = self.create_data()[0]
        client = client_for(self.writer_role)
        client.get(self.endpoint)  # roles cached
        with CaptureQueriesContext(connection) as queries:
            response = client.post(self.endpoint, data, format="json")
        assert response.status_code == self.create_status, response.content
        self.check_queries(request, f"POST {self.endpoint} create", queries)


class BulkCreateTests(CreateTests):
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


class UpdateTests(EndpointTestBase):
    update_data: dict = {}

    def test_update_writes_before_and_after(self, client_for):
        obj = self.make_objects(1)[0]
        response = client_for(self.writer_role).patch(self.detail_url(obj), self.update_data, format="json")
        assert response.status_code == 200, response.content
        for key, value in self.update_data.items():
            assert response.json()[key] == value
        event = AuditEvent.objects.get(object_id=obj.pk, action="update", object_type=obj._meta.label_lower)
        changed = next(iter(self.update_data))
        assert event.before[changed] != event.after[changed]

    def test_a_reading_role_may_not_update(self, client_for):
        obj = self.make_objects(1)[0]
        client = client_for(self.reader_role)
        before = client.get(self.detail_url(obj)).json()
        assert client.patch(self.detail_url(obj), self.update_data, format="json").status_code == 403
        assert client.get(self.detail_url(obj)).json() == before

    def test_update_queries(self, client_for, request):
        obj = self.make_objects(1)[0]
        client = client_for(self.writer_role)
        client.get(self.endpoint)  # roles cached
        with CaptureQueriesContext(connection) as queries:
            response = client.patch(self.detail_url(obj), self.update_data, format="json")
        assert response.status_code == 200, response.content
        self.check_queries(request, f"PATCH {self.endpoint}{{id}}/ update", queries)


class DeleteTests(EndpointTestBase):
    def test_delete(self, client_for):
        obj = self.make_objects(1)[0]
        client = client_for("admin")
        assert client.delete(self.detail_url(obj)).status_code == 204
        assert client.get(self.detail_url(obj)).status_code == 404
        assert AuditEvent.objects.filter(object_id=obj.pk, action="delete").exists()

    def test_a_reading_role_may_not_delete(self, client_for):
        obj = self.make_objects(1)[0]
        client = client_for(self.reader_role)
        assert client.delete(self.detail_url(obj)).status_code == 403
        assert client.get(self.detail_url(obj)).status_code == 200

    def test_delete_queries(self, client_for, request):
        obj = self.make_objects(1)[0]
        client = client_for("admin")
        client.get(self.endpoint)  # roles cached
        with CaptureQueriesContext(connection) as queries:
            response = client.delete(self.detail_url(obj))
        assert response.status_code == 204, response.content
        self.check_queries(request, f"DELETE {self.endpoint}{{id}}/ delete", queries)


class ReadOnlyAPIViewTestBase(ListTests, GetTests):
    """An endpoint clients only read (actions such as a ticket's `start` are tested by hand)."""


class APIViewTestBase(ListTests, GetTests, BulkCreateTests, UpdateTests, DeleteTests):
    """A full CRUD endpoint on AuditedModelViewSet: every action, bulk create included."""
