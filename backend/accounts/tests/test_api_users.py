"""/api/users/ through the generic API tests: active users with their roles, looked up by
username, read by every role and written by nobody (accounts live in the admin)."""

import pytest

from lightpath.tests.api_base import ReadOnlyAPIViewTestBase


class TestUserAPI(ReadOnlyAPIViewTestBase):
    endpoint = "/api/users/"
    brief_fields = None  # no brief mode: a user is already brief
    lookup_field = "username"

    @pytest.fixture(autouse=True)
    def _users(self, make_user):
        self._make_user = make_user

    def make_objects(self, count):
        return [self._make_user("technician") for _ in range(count)]

    def filter_cases(self, objects):
        planner = self._make_user("planner")
        return [
            ({"role": "technician"}, objects),
            ({"role": ["planner", "technician"], "username__n": objects[0].username}, [*objects[1:], planner]),
            ({"username": objects[1].username}, objects[1:2]),
        ]
