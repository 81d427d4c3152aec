import importlib

import pytest
from django.apps import apps

seeding = importlib.import_module("migrations.fabric.0005_seed_rail_catalog")


@pytest.fixture(autouse=True)
def standard_catalog(db):
    """The standard parts the catalog migration seeds: transactional tests flush them after each test."""
    seeding.seed(apps, None)
