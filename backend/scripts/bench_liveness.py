"""What the liveness net of jobs (jobs/liveness.py) costs. Usage, from the repository root:

    eval "$(backend/scripts/devstack.sh env)"; .venv/bin/python backend/scripts/bench_liveness.py

Runs on the local PostgreSQL and Redis under its own queue prefix (`bench-liveness`) and removes
what it created. Rows:
- the heartbeat's cost per job run (a thread started and joined), in-process;
- one sweep with 100,000 finished jobs in the table and 70 unfinished ones that are all fine, and
  one that reads a queue of 10,000 waiting messages to tell a lost message from a waiting one;
- job throughput through a real worker (one process, 300 capacity reports of a small fabric), with
  Celery beat running the net every second and without beat.
"""

import os
import socket
import statistics
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

BACKEND = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(BACKEND))
os.environ["LIGHTPATH_QUEUE"] = "bench-liveness"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lightpath.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.utils import timezone  # noqa: E402

from fabric import services as fabric_services  # noqa: E402
from fabric.models import Fabric  # noqa: E402
from jobs import liveness, services  # noqa: E402
from jobs.models import Job  # noqa: E402
from lightpath_fixtures.generators import fat_tree  # noqa: E402
from lightpath_worker import app as celery_app  # noqa: E402

JOBS = 300
BENCH_KIND = "fabric.capacity_report"


def purge() -> None:
    with celery_app.connection_for_write() as connection:
        for queue in set(settings.LIGHTPATH_QUEUES.values()):
            connection.default_channel.queue_purge(queue)


def row(label: str, samples: list[float], unit: str = "ms", scale: float = 1000) -> None:
    print(f"| {label} | {min(samples) * scale:,.2f} {unit} | {statistics.median(samples) * scale:,.2f} {unit} |")


def heartbeat_cost(job: Job) -> None:
    samples = []
    for _ in range(200):
        start = time.perf_counter()
        with liveness.heartbeat(job.pk):
            pass
        samples.append(time.perf_counter() - start)
    row("heartbeat thread per job run (start and join)", samples, "µs", 1e6)


def sweep_cost(fabric: Fabric) -> None:
    now = timezone.now()
    finished = [
        Job(kind=BENCH_KIND, fabric=fabric, state="succeeded", finished=now, params={"bench": True})
        for _ in range(100_000)
    ]
    Job.objects.bulk_create(finished, batch_size=10_000)
    Job.objects.bulk_create(
        [Job(kind=BENCH_KIND, fabric=fabric, state="queued", sent_at=now, params={"bench": True}) for _ in range(50)]
        + [
            Job(kind=BENCH_KIND, fabric=fabric, state="running", heartbeat_at=now, worker="elsewhere:1")
            for _ in range(20)
        ]
    )
    samples = []
    for _ in range(20):
        start = time.perf_counter()
        outcome = liveness.sweep()
        samples.append(time.perf_counter() - start)
        assert outcome == {"lost_runs": 0, "unsent": 0, "lost_messages": 0, "sent": 0}, outcome
    row("sweep: 100,000 finished jobs, 70 unfinished and fine", samples)

    # Waiting jobs sent long ago: the sweep reads the queues to find whether their messages wait.
    waiting = list(Job.objects.filter(state="queued", params__bench=True))
    for job in waiting:
        liveness.send(job)
    with celery_app.connection_for_write() as connection:
        client = connection.default_channel.client
        filler = client.lrange(settings.LIGHTPATH_QUEUES["jobs"], 0, 0)[0]
        client.rpush(settings.LIGHTPATH_QUEUES["jobs"], *([filler] * 9_950))
    Job.objects.filter(pk__in=[job.pk for job in waiting]).update(sent_at=now - timedelta(hours=1))
    samples = []
    for _ in range(10):
        start = time.perf_counter()
        outcome = liveness.sweep()
        samples.append(time.perf_counter() - start)
        assert outcome["lost_messages"] == 0, outcome
    row("sweep: 50 jobs waiting long, their queue 10,000 messages deep", samples)
    purge()
    Job.objects.filter(fabric=fabric).delete()


def start(args: list[str], log: Path, env: dict) -> subprocess.Popen:
    with log.open("ab") as out:
        return subprocess.Popen(args, env=env, stdout=out, stderr=subprocess.STDOUT)  # noqa: S603


def throughput(fabric: Fabric, with_beat: bool, logs: Path) -> None:
    env = {**os.environ, "LIGHTPATH_LIVENESS_SWEEP_S": "1"}
    celery = [sys.executable, "-m", "celery", "--workdir", str(BACKEND), "-A", "lightpath_worker"]
    queues = ",".join(sorted(set(settings.LIGHTPATH_QUEUES.values())))
    name = f"bench-liveness-{os.getpid()}-{int(with_beat)}"
    worker = [*celery, "worker", "-Q", queues, "-c", "1", "-n", f"{name}@%h", "--loglevel", "INFO"]
    processes = [start(worker, logs / "worker.log", env)]
    if with_beat:
        schedule = logs / "beat-schedule"
        processes.append(start([*celery, "beat", "--schedule", str(schedule)], logs / "beat.log", env))
    try:
        deadline = time.monotonic() + 60
        while not celery_app.control.ping(timeout=0.5, destination=[f"{name}@{socket.gethostname()}"]):
            assert time.monotonic() < deadline, "the worker did not start"
        begin = time.perf_counter()
        jobs = [services.submit(BENCH_KIND, fabric=fabric) for _ in range(JOBS)]
        while Job.objects.filter(pk__in=[job.pk for job in jobs], state="succeeded").count() < JOBS:
            assert time.monotonic() < deadline + 600, "jobs did not finish"
            time.sleep(0.1)
        elapsed = time.perf_counter() - begin
        label = "with beat running the net every 1 s" if with_beat else "without beat"
        print(f"| {JOBS} capacity reports through one worker process, {label} | {JOBS / elapsed:,.1f} jobs/s |")
    finally:
        for process in processes:
            process.terminate()
            process.wait(timeout=30)
        Job.objects.filter(fabric=fabric).delete()


def main() -> None:
    unfinished = Job.objects.filter(state__in=["queued", "running"]).count()
    if unfinished:
        sys.exit(f"bench_liveness: this database has {unfinished} unfinished jobs; run it with nothing else going on")
    logs = Path(settings.REPO_ROOT) / ".local" / "logs" / "bench-liveness"
    logs.mkdir(parents=True, exist_ok=True)
    Fabric.objects.filter(name="bench-liveness").delete()
    fabric = fabric_services.import_document({**fat_tree(4), "name": "bench-liveness"})
    purge()
    try:
        print("| step | best | median |\n| --- | --- | --- |")
        probe = Job.objects.create(kind=BENCH_KIND, fabric=fabric, state="succeeded")
        heartbeat_cost(probe)
        probe.delete()
        sweep_cost(fabric)
        print("\n| throughput | jobs/s |\n| --- | --- |")
        for with_beat in (False, True, False, True):
            throughput(fabric, with_beat, logs)
    finally:
        purge()
        fabric.delete()


if __name__ == "__main__":
    main()
