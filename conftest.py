"""Fixtures shared by every test folder (backend, cli)."""

import uuid

import pytest
from pytest_django.lazy_django import django_settings_is_configured


@pytest.fixture(scope="module")
def worker(django_db_setup, tmp_path_factory):
    """A real Celery worker process on the test database and the test queues, for the tests of
    one module: it stops with the module, so that later modules which submit a job and run it
    in-process (counting its attempts) never race a worker for it."""
    from django.conf import settings

    from lightpath.tests.workers import worker

    queues = sorted(set(settings.LIGHTPATH_QUEUES.values()))  # decisions, jobs and webhooks
    with worker(queues, tmp_path_factory.mktemp("worker") / "worker.log", name="test") as started:
        yield started.process


@pytest.fixture(autouse=True)
def isolated_cache(request):
    """Each test gets its own key space in the shared Redis cache, so that counts (the login
    throttle's failures) never carry from one test, run or developer's demo to another; a test of
    the throttle sees exactly the production limits."""
    if not django_settings_is_configured():
        yield
        return
    settings = request.getfixturevalue("settings")
    settings.CACHES = {
        alias: {**config, "KEY_PREFIX": f"test-{uuid.uuid4().hex}"} for alias, config in settings.CACHES.items()
    }
    yield


@pytest.fixture(autouse=True)
def migration_seeded_catalog(request):
    """A transactional test (live server, worker) ends by flushing every table, the transceiver
    catalog the migrations seeded (fabric 0005) too: the next transactional test found no catalog
    limits (session 27's rehearsal: a forecast test read no Tx limit in the suite's order). Before
    each transactional test the catalog is seeded again when it is gone, as migrating left it."""
    if not django_settings_is_configured():
        yield
        return
    from pytest_django.fixtures import validate_django_db

    marker = request.node.get_closest_marker("django_db")
    transactional = (marker is not None and validate_django_db(marker)[0]) or bool(
        {"transactional_db", "live_server"} & set(request.fixturenames)
    )
    if transactional:
        request.getfixturevalue("_django_db_helper")
        from importlib import import_module

        from django.apps import apps

        from fabric.models import TransceiverModel

        if not TransceiverModel.objects.exists():
            import_module("migrations.fabric.0005_seed_rail_catalog").seed(apps, None)
    yield


@pytest.fixture(scope="session", autouse=True)
def fast_password_hashing():
    """Tests create many users, and one PBKDF2 hash at Django's million rounds takes about 0.4 s
    here. Hashes made in tests take one round; they stay `pbkdf2_sha256` hashes, which carry their
    rounds, so the gunicorn servers tests start (on the default hashers) verify them as well."""
    if not django_settings_is_configured():
        yield
        return
    from django.conf import settings
    from django.test import override_settings

    with override_settings(PASSWORD_HASHERS=["lightpath.tests.hashers.OneRoundPBKDF2", *settings.PASSWORD_HASHERS]):
        yield
