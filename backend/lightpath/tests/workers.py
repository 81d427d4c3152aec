"""A real Celery worker for integration tests, on the test database: started as a process, ready
once it answers a ping, stopped at the end. The one place tests start workers (servers.py is the
one place they start gunicorn)."""

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from django.conf import settings

from lightpath_worker import app as celery_app

from .processes import ChildProcess
from .servers import checked_test_database

# Celery's own command line, or corruption/tests/paused_worker.py (the same, with pauses a test
# sets through LIGHTPATH_TEST_* variables, to make overlaps and kills land mid-job).
CELERY = ("-m", "celery")
PAUSED_WORKER = Path(settings.BACKEND_DIR) / "corruption" / "tests" / "paused_worker.py"


def purge(queues: Iterable[str]) -> None:
    """Empty the queues: tasks an earlier run left point at rows of a test database that is gone."""
    with celery_app.connection_for_write() as connection:
        for queue in set(queues):
            connection.default_channel.queue_purge(queue)


@dataclass(kw_only=True)
class Worker(ChildProcess):
    hostname: str
    # A warm shutdown lets the task at hand finish.
    stop_grace_s: ClassVar[float] = 30

    @classmethod
    def start(
        cls,
        queues: Iterable[str],
        log: Path,
        *,
        name: str,
        env: dict[str, str] | None = None,
        concurrency: int = 1,
        pool: str | None = None,
        paused: bool = False,
        timeout: float = 60,
    ) -> "Worker":
        """Start a worker on `queues` and wait until it answers a ping. Its log is appended to
        `log` (a test that restarts workers keeps one log); `env` adds to the environment, which
        already names the test database."""
        hostname = f"{name}-{os.getpid()}"
        environment = {
            **os.environ,
            "LIGHTPATH_DB_NAME": checked_test_database(),
            **(env or {}),
        }
        program = [str(PAUSED_WORKER)] if paused else list(CELERY)
        with log.open("ab") as out:
            process = subprocess.Popen(
                [sys.executable, *program, "--workdir", str(settings.BACKEND_DIR), "-A", "lightpath_worker", "worker",
                 "--queues", ",".join(queues), "--concurrency", str(concurrency), *(["--pool", pool] if pool else []),
                 "--loglevel", "INFO", "--hostname", f"{hostname}@%h"],
                env=environment, stdout=out, stderr=subprocess.STDOUT,
            )  # fmt: skip
        worker = cls(process=process, hostname=f"{hostname}@{socket.gethostname()}", log=log)
        deadline = time.monotonic() + timeout
        while not celery_app.control.ping(timeout=0.5, destination=[worker.hostname]):
            if process.poll() is not None or time.monotonic() > deadline:
                worker.stop()
                raise RuntimeError(f"the Celery worker did not start:\n{worker.log_tail()}")
        return worker

    def pool_pids(self) -> list[int]:
        """The pids of its pool processes (prefork), as the worker reports them."""
        stats = celery_app.control.inspect(destination=[self.hostname], timeout=5).stats() or {}
        return list(next(iter(stats.values()))["pool"]["processes"]) if stats else []


@contextmanager
def worker(queues: Iterable[str], log: Path, **options) -> Iterator[Worker]:
    """A worker on emptied `queues` for the block, stopped afterwards."""
    queues = list(queues)
    purge(queues)
    started = Worker.start(queues, log, **options)
    try:
        yield started
    finally:
        started.stop()
