"""`GET /api/links/?fabric=F` under concurrent clients, against a real gunicorn (issue #16).

Imports a Facebook-style fabric (64 pods: 24,576 links), starts gunicorn on a free port exactly
as run-stack.sh does (2 workers x 4 threads) on the same database, and has CLIENTS threads, each
with its own keep-alive httpx client and a viewer's API token, send REQUESTS list requests in all
(default page, then `?limit=1000`). Prints latency percentiles and throughput, then removes what it
created. The client threads share the machine with the server (as a UI on the same host would).
Usage, from the repository root:

    make bench    # or: eval "$(backend/scripts/devstack.sh env)"
                  #     .venv/bin/python backend/scripts/bench_links_list.py [--pods 64] [--clients 16]
"""

import argparse
import logging
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

BACKEND = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(BACKEND))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lightpath.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.auth.models import Group  # noqa: E402
from django.db import connection  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

from accounts.roles import VIEWER  # noqa: E402
from fabric import services  # noqa: E402
from fabric.models import Fabric  # noqa: E402
from lightpath_fixtures.generators import fb_fabric  # noqa: E402

USERNAME = "bench-links-viewer"
logging.getLogger("httpx").setLevel(logging.WARNING)  # Django's logging settings would print every request


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_gunicorn(log: Path) -> tuple[subprocess.Popen, str]:
    """gunicorn as run-stack.sh starts it, on this process's database."""
    port = free_port()
    env = {**os.environ, "LIGHTPATH_DB_NAME": connection.settings_dict["NAME"]}
    env.pop("DJANGO_ALLOWED_HOSTS", None)  # the product's default allows 127.0.0.1
    with log.open("wb") as out:
        process = subprocess.Popen(  # noqa: S603 (fixed arguments: this interpreter's gunicorn)
            [sys.executable, "-m", "gunicorn", "lightpath.wsgi", "--config", str(BACKEND / "gunicorn.conf.py"),
             "--chdir", str(BACKEND), "--bind", f"127.0.0.1:{port}", "--workers", "2", "--threads", "4", "--timeout", "120"],
            env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn exited ({process.returncode}):\n{log.read_text()[-3000:]}")
        try:
            if httpx.get(f"{base}/api/health/", timeout=2).status_code == 200:
                return process, base
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"gunicorn not healthy in 60 s:\n{log.read_text()[-3000:]}")
        time.sleep(0.2)


def cpu_seconds(pid: int | str) -> float:
    """User and system CPU time of a process so far (Linux /proc; 0 once it has gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


class CpuMeter:
    """CPU time of gunicorn's workers and of the PostgreSQL backends serving them during a run:
    the server's own cost per request, which other processes on the machine do not inflate the way
    they inflate latency. Backends are sampled every 0.2 s, as a worker thread may open or (after
    CONN_MAX_AGE) close its connection during the run."""

    def __init__(self, master: subprocess.Popen) -> None:
        self.master = master
        with connection.cursor() as cursor:  # this process's own connection (the import) is no server's
            cursor.execute("SELECT pg_backend_pid()")
            self.own_pid = cursor.fetchone()[0]
        self.web_before = self._web()
        self.db_first: dict[int, float] = {}
        self.db_last: dict[int, float] = {}
        self.done = threading.Event()
        self._sample(initial=True)
        self.sampler = threading.Thread(target=self._run, daemon=True)
        self.sampler.start()

    def _web(self) -> float:
        children = Path(f"/proc/{self.master.pid}/task/{self.master.pid}/children").read_text().split()
        return sum(cpu_seconds(pid) for pid in children)

    def _sample(self, initial: bool = False) -> None:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
                " AND pid NOT IN (pg_backend_pid(), %s) AND backend_type = 'client backend'",
                [self.own_pid],
            )
            pids = [pid for (pid,) in cursor.fetchall()]
        for pid in pids:
            seconds = cpu_seconds(pid)
            self.db_first.setdefault(pid, seconds if initial else 0.0)  # a new backend started at 0
            self.db_last[pid] = max(seconds, self.db_last.get(pid, 0.0))

    def _run(self) -> None:
        while not self.done.wait(0.2):
            self._sample()
        connection.close()  # this thread's own connection

    def stop(self) -> tuple[float, float]:
        """(web, database) CPU seconds since the start."""
        self.done.set()
        self.sampler.join()
        self._sample()
        db = sum(last - self.db_first[pid] for pid, last in self.db_last.items())
        return self._web() - self.web_before, db


def percentile(sorted_samples: list[float], fraction: float) -> float:
    """Nearest-rank percentile."""
    index = max(0, min(len(sorted_samples) - 1, round(fraction * len(sorted_samples)) - 1))
    return sorted_samples[index]


def load(base: str, token: str, path: str, clients: int, requests: int) -> dict:
    """`requests` GETs of `path` spread over `clients` threads; every answer must be a 200."""
    latencies: list[float] = []
    failures: list[str] = []
    sizes: list[int] = []
    remaining = iter(range(requests))
    lock = threading.Lock()

    def client_loop() -> None:
        with httpx.Client(base_url=base, headers={"Authorization": f"Token {token}"}, timeout=120) as client:
            client.get(path)  # opens the keep-alive connection outside the measurement
            while True:
                with lock:
                    if next(remaining, None) is None:
                        return
                start = time.perf_counter()
                response = client.get(path)
                elapsed = time.perf_counter() - start
                with lock:
                    latencies.append(elapsed)
                    sizes.append(len(response.content))
                    if response.status_code != 200:
                        failures.append(f"{response.status_code}: {response.text[:200]}")

    threads = [threading.Thread(target=client_loop) for _ in range(clients)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - started
    if failures:
        raise RuntimeError(f"{len(failures)} of {requests} requests failed, first: {failures[0]}")
    latencies.sort()
    return {
        "p50": percentile(latencies, 0.50),
        "p90": percentile(latencies, 0.90),
        "p99": percentile(latencies, 0.99),
        "rps": len(latencies) / wall,
        "bytes": sizes[0],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pods", type=int, nargs="+", default=[64], help="fb_fabric pods (64: 24,576 links)")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--requests", type=int, default=400, help="requests of the default page per case")
    parser.add_argument("--large-requests", type=int, default=100, help="requests of ?limit=1000 per case")
    args = parser.parse_args()

    viewer, _ = get_user_model().objects.get_or_create(username=USERNAME)
    viewer.groups.add(Group.objects.get_or_create(name=VIEWER)[0])
    token = Token.objects.get_or_create(user=viewer)[0].key
    fabrics = []
    log = Path(tempfile.mkdtemp(prefix="bench-links-")) / "gunicorn.log"
    process = None
    try:
        for pods in args.pods:
            name = f"bench-links-{pods}"
            Fabric.objects.filter(name=name).delete()
            fabrics.append(services.import_document(fb_fabric(pods, name=name, seed=1)))
        with connection.cursor() as cursor:  # the steady state of a fabric imported a while ago
            cursor.execute("VACUUM ANALYZE fabric_link")
        process, base = start_gunicorn(log)
        print(
            f"gunicorn 2 workers x 4 threads, {args.clients} clients, viewer token, gzip accepted\n\n"
            "| links | request | clients | requests | p50 | p90 | p99 | requests/s | CPU/request: web | database | body (plain) |\n"
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
            flush=True,
        )
        for fabric in fabrics:
            links = fabric.links.count()
            for query, requests in (("", args.requests), ("&limit=1000", args.large_requests)):
                path = f"/api/links/?fabric={fabric.pk}{query}"
                for clients, count in ((1, max(10, requests // 8)), (args.clients, requests)):
                    # Warm every worker thread: its connection and PostgreSQL backend caches.
                    load(base, token, path, args.clients, 2 * args.clients)
                    meter = CpuMeter(process)
                    row = load(base, token, path, clients, count)
                    # Each client thread also sends one unmeasured request to open its connection.
                    web_cpu, db_cpu = (seconds / (count + clients) for seconds in meter.stop())
                    print(
                        f"| {links:,} | `?fabric=F{query}` | {clients} | {count} | {row['p50'] * 1000:,.0f} ms "
                        f"| {row['p90'] * 1000:,.0f} ms | {row['p99'] * 1000:,.0f} ms | {row['rps']:,.1f} "
                        f"| {web_cpu * 1000:,.0f} ms | {db_cpu * 1000:,.0f} ms | {row['bytes'] / 1000:,.1f} kB |",
                        flush=True,
                    )
    finally:
        if process is not None:
            process.terminate()
            process.wait(timeout=30)
        for fabric in fabrics:
            services.delete_fabric(fabric)
        get_user_model().objects.filter(username=USERNAME).delete()


if __name__ == "__main__":
    main()
