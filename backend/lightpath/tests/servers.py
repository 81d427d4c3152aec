"""A real web server for integration tests: gunicorn of lightpath.wsgi on the test database and
the test queues, started as run-stack.sh starts it (same config file, processes and threads)."""

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
from django.conf import settings
from django.db import connections

from .processes import ChildProcess


def checked_test_database() -> str:
    """The test database the connection uses; refuses the development database, which a session
    without a `django_db` test leaves the connection on (pytest-django sets up none then)."""
    name = connections["default"].settings_dict["NAME"]
    if name != settings.DATABASES["default"]["TEST"]["NAME"]:
        raise RuntimeError(f"not on the test database ({name!r}): mark the test django_db")
    return name


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass(kw_only=True)
class WebServer(ChildProcess):
    base: str

    @classmethod
    def start(cls, log: Path, *, env: dict[str, str] | None = None, threads: int = 4) -> "WebServer":
        """Start it without waiting (several can start side by side); `wait_healthy` waits."""
        port = free_port()
        environment = {
            **os.environ,
            "LIGHTPATH_DB_NAME": checked_test_database(),
            "LIGHTPATH_QUEUE": settings.LIGHTPATH_QUEUE_PREFIX,
            **(env or {}),
        }
        with log.open("wb") as out:
            process = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "lightpath.wsgi",
                 "--config", str(settings.BACKEND_DIR / "gunicorn.conf.py"), "--chdir", str(settings.BACKEND_DIR),
                 "--bind", f"127.0.0.1:{port}", "--workers", "2", "--threads", str(threads), "--timeout", "60"],
                env=environment, stdout=out, stderr=subprocess.STDOUT,
            )  # fmt: skip
        return cls(process=process, base=f"http://127.0.0.1:{port}", log=log)

    def wait_healthy(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited ({self.process.returncode}):\n{self.log_tail()}")
            try:
                if httpx.get(f"{self.base}/api/health/", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn was not healthy within {timeout:g} s:\n{self.log_tail()}")
            time.sleep(0.2)


@contextmanager
def web_server(log: Path, **options) -> Iterator[WebServer]:
    """A healthy server for the block, stopped afterwards."""
    server = WebServer.start(log, **options)
    try:
        server.wait_healthy()
        yield server
    finally:
        server.stop()
