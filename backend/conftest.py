"""Shared test fixtures: API clients per role and small fabrics built through the real importer."""

import copy
import itertools

import pytest
from django.contrib.auth.models import Group
from rest_framework.test import APIClient

from accounts.roles import ROLES
from fabric import services as fabric_services
from fabric.tests.documents import SMALL_DOCUMENT


@pytest.fixture
def small_document():
    return copy.deepcopy(SMALL_DOCUMENT)


@pytest.fixture
def small_fabric(db, small_document):
    return fabric_services.import_document(small_document)


_user_numbers = itertools.count()


@pytest.fixture
def make_user(db, django_user_model):
    def make(role: str | None, username: str | None = None):
        username = username or f"{role or 'norole'}-{next(_user_numbers)}"
        user = django_user_model.objects.create_user(username=username, password="pw-for-tests-only")
        if role is not None:
            user.groups.add(Group.objects.get_or_create(name=role)[0])
        return user

    return make


@pytest.fixture
def client_for(make_user):
    """An API client authenticated as a fresh user holding `role` (None: no role at all)."""

    def make(role: str | None):
        client = APIClient()
        client.force_authenticate(make_user(role))
        return client

    return make


@pytest.fixture
def anonymous():
    return APIClient()


@pytest.fixture(params=ROLES)
def every_role(request):
    return request.param
