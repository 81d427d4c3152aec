"""What the processes tests start (a Celery worker in workers.py, a gunicorn in servers.py) share:
stopping one and reading the end of its log."""

import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar


@dataclass(kw_only=True)
class ChildProcess:
    process: subprocess.Popen
    log: Path
    # How long it may take to exit after SIGTERM before it is killed.
    stop_grace_s: ClassVar[float] = 10

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=self.stop_grace_s)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)

    def log_tail(self) -> str:
        """The end of its log, for a failure message."""
        return self.log.read_text()[-3000:] if self.log.exists() else ""
