"""Fixtures shared by every test folder (backend, cli)."""

import os
import socket
import subprocess
import sys
import time
import uuid

import pytest
from pytest_django.lazy_django import django_settings_is_configured


@pytest.fixture(scope="module")
def worker(django_db_setup, tmp_path_factory):
    """A real Celery worker process on the test database and the test queue, for the tests of
    one module: it stops with the module, so that later modules which submit a job and run it
    in-process (counting its attempts) never race a worker for it."""
    from django.conf import settings
    from django.db import connections

    from lightpath_worker import app as celery_app

    queues = sorted(set(settings.LIGHTPATH_QUEUES.values()))  # decisions, jobs and webhooks
    env = {**os.environ, "LIGHTPATH_DB_NAME": connections["default"].settings_dict["NAME"]}
    # Tasks an earlier run queued without a worker to take them point at rows of a test
    # database that no longer exists: start from empty queues.
    with celery_app.connection_for_write() as connection:
        for queue in queues:
            connection.default_channel.queue_purge(queue)
    log = tmp_path_factory.mktemp("worker") / "worker.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "--workdir", str(settings.BACKEND_DIR), "-A", "lightpath_worker", "worker",
             "--queues", ",".join(queues), "--concurrency", "1", "--loglevel", "INFO", "--hostname", f"test-{os.getpid()}@%h"],
            env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    deadline = time.monotonic() + 60
    while not celery_app.control.ping(timeout=0.5, destination=[f"test-{os.getpid()}@{socket.gethostname()}"]):
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"the Celery worker did not start:\n{log.read_text()}")
    yield process
    process.terminate()
    process.wait(timeout=30)


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
