"""`manage.py worker SET`: one Celery worker for a queue set of settings.LIGHTPATH_WORKERS.

The stack script and docker-compose start one per set (decisions, jobs), so that a decision never
waits behind a batch job; compose scales each set with `--scale`. Every worker on any host is safe
together: per-fabric work is serialised by PostgreSQL advisory locks, not by the worker count.
"""

import os
import sys

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Run a Celery worker for one queue set (LIGHTPATH_WORKERS): decisions or jobs."

    def add_arguments(self, parser):
        parser.add_argument("set", help=f"one of: {', '.join(settings.LIGHTPATH_WORKERS)}")
        parser.add_argument("--concurrency", type=int, help="processes (default: the set's setting)")
        parser.add_argument("--loglevel", default="INFO")

    def handle(self, *args, **options):
        name = options["set"]
        if name not in settings.LIGHTPATH_WORKERS:
            raise CommandError(f"unknown worker set '{name}'; use one of: {', '.join(settings.LIGHTPATH_WORKERS)}")
        worker = settings.LIGHTPATH_WORKERS[name]
        purposes: list[str] = list(worker["purposes"])
        unknown = [purpose for purpose in purposes if purpose not in settings.LIGHTPATH_QUEUES]
        if unknown:
            raise CommandError(f"worker set '{name}' names unknown queues: {', '.join(unknown)}")
        queues = ",".join(dict.fromkeys(settings.LIGHTPATH_QUEUES[purpose] for purpose in purposes))
        argv = [
            sys.executable, "-m", "celery", "--workdir", str(settings.BACKEND_DIR), "-A", "lightpath_worker", "worker",
            "--queues", queues, "--concurrency", str(options["concurrency"] or worker["concurrency"]),
            "--hostname", f"{name}@%h", "--loglevel", options["loglevel"],
        ]  # fmt: skip
        self.stdout.write(f"worker set '{name}': queues {queues}")
        self.stdout.flush()
        os.execv(sys.executable, argv)  # noqa: S606 -- the worker takes this process's place (signals reach it)
