"""The stack script `make demo` runs (backend/scripts/run-stack.sh), on the test database, its own
port, queue prefix and log folder: a Celery worker that dies is started again while the web keeps
answering, the log says so, and logs append instead of erasing the last run's traceback. The
stop stops exactly what the script started (the dev stack's PostgreSQL and Redis were running
before it, so they keep running)."""

import os
import signal
import subprocess
import time
from pathlib import Path

import httpx
import pytest
from django.conf import settings
from django.db import connections

from .servers import free_port

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

RUN_STACK = Path(settings.REPO_ROOT) / "backend" / "scripts" / "run-stack.sh"


def processes_of(prefix: str) -> dict[int, tuple[int, str]]:
    """pid -> (parent pid, command line) of every process whose LIGHTPATH_QUEUE is `prefix`."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes().split(b"\0")
            if f"LIGHTPATH_QUEUE={prefix}".encode() not in environ:
                continue
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            continue
        found[int(entry.name)] = (parent, cmdline)
    return found


def decisions_worker(prefix: str) -> int | None:
    """The decisions worker's main process (its pool process is a child of it)."""
    processes = processes_of(prefix)
    for pid, (parent, cmdline) in processes.items():
        if "--hostname decisions@" in cmdline and "celery" not in processes.get(parent, (0, ""))[1]:
            return pid
    return None


def wait_until(condition, what: str, timeout: float = 90):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if value := condition():
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def test_a_dead_worker_is_started_again_while_the_web_answers(tmp_path):
    port, prefix = free_port(), f"{settings.LIGHTPATH_QUEUE_PREFIX}-stack-{os.getpid()}"
    log = tmp_path / "worker-decisions.log"
    log.write_text("Traceback of an earlier run\n")
    env = {
        **os.environ,
        "LIGHTPATH_PORT": str(port),
        "LIGHTPATH_DB_NAME": connections["default"].settings_dict["NAME"],
        "LIGHTPATH_QUEUE": prefix,
        "LIGHTPATH_LOG_DIR": str(tmp_path),
    }
    output = tmp_path / "run-stack.out"
    with output.open("wb") as out:
        stack = subprocess.Popen(["bash", str(RUN_STACK)], env=env, stdout=out, stderr=subprocess.STDOUT)
    health = f"http://127.0.0.1:{port}/api/health/"
    try:

        def healthy() -> bool:
            try:
                return httpx.get(health, timeout=2).status_code == 200
            except httpx.HTTPError:
                return False

        wait_until(healthy, f"the web to answer:\n{output.read_text()}")
        wait_until(lambda: "ready." in log.read_text(), "the decisions worker")
        victim = wait_until(lambda: decisions_worker(prefix), "the decisions worker's process")
        os.kill(victim, signal.SIGKILL)

        answers = []
        while log.read_text().count("ready.") < 2:
            answers.append(httpx.get(health, timeout=5).status_code)  # the web keeps answering
            assert len(answers) < 300, f"the worker did not come back:\n{output.read_text()}"
            time.sleep(0.2)
        assert set(answers) == {200}
        assert "lightpath: worker decisions exited (status 137)" in output.read_text()
        text = log.read_text()
        assert text.startswith("Traceback of an earlier run\n")  # appended, not truncated
        assert "worker decisions exited (status 137)" in text
        assert decisions_worker(prefix) not in (None, victim)
    finally:
        stack.send_signal(signal.SIGTERM)
        stack.wait(timeout=60)
    wait_until(lambda: not processes_of(prefix), "every process of the stack to stop", timeout=60)
    assert "lightpath: stopped" in output.read_text()
