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
