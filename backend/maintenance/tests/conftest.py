"""Fixtures of the maintenance tests: the demo fabric, fresh in each test (the visit, recovery and plan
tests start from it); for the plan tests (plan_setup.py has their helpers) its three cable work
orders with corrupting siblings, and an operator."""

import copy

import pytest
from rest_framework.test import APIClient

from fabric import services as fabric_services
from fabric.models import Fabric
from fabric.services import live
from maintenance.models import WorkOrder

from .plan_setup import CABLES, DEMO, cable_order, corrupt, link_at


@pytest.fixture
def demo():
    live.forget()
    yield fabric_services.import_document(copy.deepcopy(DEMO))
    live.forget()


@pytest.fixture
def orders(demo) -> dict[str, WorkOrder]:
    Fabric.objects.filter(pk=demo.pk).update(capacity_constraint=0.5)
    found = {switch: cable_order(demo, switch) for switch in CABLES}
    # Siblings on the same cables corrupt but stay in service (no decision taken on them here).
    corrupt(link_at(demo, "p2-fab0", "eth2/2"), 4e-4)
    corrupt(link_at(demo, "p1-fab2", "eth2/3"), 1e-4)
    corrupt(link_at(demo, "p2-fab2", "eth2/3"), 1e-5)
    return found


@pytest.fixture
def operator(client_for) -> APIClient:
    return client_for("operator")
