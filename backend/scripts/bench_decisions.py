"""Telemetry commit to decision row while long batch jobs run on the same deployment (issue #16).

One run measures every mode with the same data, each in a child process whose environment names
the queues before Django loads (so that this process's sends are routed as the mode routes them):

- `single`: today's single queue. All three queue names are the same; one Celery worker with 2
  processes on it (what main ran before queues by purpose).
- `queues`: queues by purpose, the stack's default: `manage.py worker decisions` (decisions and
  webhooks, 1 process) and `manage.py worker jobs` (2 processes).
- `baseline`: the queues mode without batch load.
- `queues-large`, `baseline-large`: the same two with the telemetry on the 100K-link fabric (the
  decision path's cost grows with the fabric it decides on).
Every mode runs Celery beat too (the liveness net's sweeps go to the decisions queue).

In each loaded mode four batch jobs go through jobs.services.submit: rail.plan on the 100K-link
fabric (fb_fabric(261)), corruption.simulate of a one-year generated trace on it, a circuit plan
(circuits.schedule, exact, of a 320-rack demand) and fabric.capacity_report on it. Four are
always outstanding: a job that ends is submitted again at once. With 2 job processes two run
and two wait in the queue, as on a deployment that has more batch work than workers.

Meanwhile, every INTERVAL seconds one telemetry batch is committed on a small fabric (a k = 8 fat
tree, capacity constraint 0.75) through telemetry.services.ingest.ingest, the service behind
POST /api/telemetry/: one counter sample at the receiving end of a link not used before, a
window (set to one minute) after a clean poll of every end, with a corruption rate of 1e-4. Its commit queues the
derivation run (decisions queue), which opens the link's corruption event, which queues the fast
checker (corruption.decide_event), which writes the Decision. The latency is Decision.created
minus the commit time of the batch (one clock: same host). "event" is when the event row was
first seen by this process's 20 Hz poll (derivation committed).

Usage, from the repository root (make bench runs it):

    eval "$(backend/scripts/devstack.sh env)"; .venv/bin/python backend/scripts/bench_decisions.py \
        [--samples 60] [--interval 1.5] [--modes single,queues,baseline,queues-large,baseline-large]

It uses its own database (LIGHTPATH_DB_NAME, default lp_bench_declat: created and migrated when
missing) and queue prefix (LIGHTPATH_QUEUE, default lp-declat); the 100K-link fabric and the
circuit demand stay there for the next run (--fresh makes them again).
"""

import argparse
import contextlib
import datetime as dt
import json
import math
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BACKEND = Path(__file__).resolve().parents[1]
REPO = BACKEND.parent
sys.path.insert(0, str(BACKEND))

DEFAULT_DB = "lp_bench_declat"
DEFAULT_PREFIX = "lp-declat"
BIG_FABRIC = "bench-decisions-fb261"
CIRCUIT_FABRIC = "bench-decisions-circuits"
DEMAND = "bench-decisions-demand"
PURPOSE_VARS = ("LIGHTPATH_QUEUE_DECISIONS", "LIGHTPATH_QUEUE_JOBS", "LIGHTPATH_QUEUE_WEBHOOKS")
MODES = {
    "single": "today's single queue: one worker, 2 processes",
    "queues": "queues by purpose: decisions worker (1 process) + jobs worker (2 processes)",
    "baseline": "queues by purpose, no batch load",
    "baseline-large": "queues by purpose, no batch load, telemetry on the 100K-link fabric",
    "queues-large": "queues by purpose, telemetry on the 100K-link fabric the batch jobs use",
}
SAMPLE_TIMEOUT_S = 240.0
WINDOW_S = 60  # the telemetry fabrics' counter window


def mode_env(mode: str, base: dict[str, str], db: str, prefix: str) -> dict[str, str]:
    env = {key: value for key, value in base.items() if key not in PURPOSE_VARS}
    env.update(LIGHTPATH_DB_NAME=db, LIGHTPATH_QUEUE=prefix, DJANGO_SETTINGS_MODULE="lightpath.settings")
    env.setdefault("DJANGO_ALLOWED_HOSTS", "testserver")
    if mode == "single":
        env.update(dict.fromkeys(PURPOSE_VARS, f"{prefix}.all"))
    return env


# ---------------------------------------------------------------------------------------------
# Set-up (the parent process)


def ensure_database(name: str) -> None:
    """Create the bench's database when it is missing (the dev stack's role may create databases)."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(
        host=os.environ.get("LIGHTPATH_DB_HOST", "127.0.0.1"),
        port=os.environ.get("LIGHTPATH_DB_PORT", "55432"),
        user=os.environ.get("LIGHTPATH_DB_USER", "lightpath"),
        password=os.environ.get("LIGHTPATH_DB_PASSWORD"),
        dbname="postgres",
        autocommit=True,
    ) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone() is None:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
            print(f"(created database {name})", flush=True)


def set_up(fresh: bool, racks: int, seconds: int) -> None:
    """The 100K-link fabric and the circuit fabric with its demand, kept between runs."""
    from django.core.management import call_command

    from circuits.models import CircuitSwitch
    from circuits.services import all_tor_attachments, create_demand, replace_attachments
    from fabric import services as fabric_services
    from fabric.models import Fabric, Switch
    from jobs.models import Job
    from lightpath_fixtures.generators import drifting_demand_csv, fb_fabric

    call_command("migrate", verbosity=0)
    if fresh:
        Job.objects.all().delete()
        for fabric in Fabric.objects.filter(name__startswith="bench-decisions-"):
            fabric_services.delete_fabric(fabric)
    if not Fabric.objects.filter(name=BIG_FABRIC).exists():
        t0 = time.perf_counter()
        fabric = fabric_services.import_document(fb_fabric(261, name=BIG_FABRIC, seed=1))
        print(f"(imported {BIG_FABRIC}: {fabric.links.count():,} links in {time.perf_counter() - t0:.0f} s)")
    if not Fabric.objects.filter(name=CIRCUIT_FABRIC).exists():
        t0 = time.perf_counter()
        fabric = Fabric.objects.create(name=CIRCUIT_FABRIC, tiers=["tor", "spine"])
        Switch.objects.bulk_create(Switch(fabric=fabric, name=f"tor{i}", tier=0) for i in range(racks))
        ocs = CircuitSwitch.objects.create(fabric=fabric, name="ocs", port_count=racks, capacity_gbps=100)
        replace_attachments(ocs, all_tor_attachments(fabric))
        create_demand(fabric, DEMAND, text=drifting_demand_csv(racks, seconds))
        print(f"(stored a {racks}-rack, {seconds} s demand in {time.perf_counter() - t0:.0f} s)", flush=True)


def purge(queues: set[str]) -> None:
    from lightpath_worker import app as celery_app

    with celery_app.connection_for_write() as connection:
        for queue in queues:
            connection.default_channel.queue_purge(queue)


# ---------------------------------------------------------------------------------------------
# One mode (a child process)


def cpu_of_tree(pid: int) -> float:
    """User + system CPU seconds of a process and its descendants so far (Linux /proc)."""
    total = 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except (FileNotFoundError, ProcessLookupError):
        return total
    return total + sum(cpu_of_tree(int(child)) for child in children)


class DatabaseCpu:
    """CPU seconds of this database's PostgreSQL client backends (the workers' queries), sampled
    while they come and go; this process's own backend left out."""

    def __init__(self) -> None:
        self.first: dict[int, float] = {}
        self.last: dict[int, float] = {}
        self.sample(initial=True)

    def sample(self, initial: bool = False) -> None:
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
                " AND backend_type = 'client backend'"
            )
            pids = [pid for (pid,) in cursor.fetchall()]
        for pid in pids:
            seconds = cpu_of_tree(pid)
            self.first.setdefault(pid, seconds if initial else 0.0)  # a backend started since: from 0
            self.last[pid] = max(seconds, self.last.get(pid, 0.0))

    def total(self) -> float:
        self.sample()
        return sum(last - self.first[pid] for pid, last in self.last.items())


class Workers:
    """The mode's Celery workers and beat, each in a session of its own (stopped by group id)."""

    def __init__(self, mode: str, folder: Path):
        self.mode = mode
        self.folder = folder
        self.processes: dict[str, subprocess.Popen] = {}

    def start(self) -> None:
        from django.conf import settings

        python = sys.executable
        manage = str(BACKEND / "manage.py")
        if self.mode == "single":
            queue = settings.LIGHTPATH_QUEUES["jobs"]
            commands = {
                "worker": [python, "-m", "celery", "--workdir", str(BACKEND), "-A", "lightpath_worker", "worker",
                           "--queues", queue, "--concurrency", "2", "--hostname", f"bench-single-{os.getpid()}@%h",
                           "--loglevel", "INFO"],
            }  # fmt: skip
        else:
            commands = {
                "decisions": [python, manage, "worker", "decisions"],
                "jobs": [python, manage, "worker", "jobs"],
            }
        commands["beat"] = [python, "-m", "celery", "--workdir", str(BACKEND), "-A", "lightpath_worker", "beat",
                            "--schedule", str(self.folder / "beat-schedule"), "--loglevel", "INFO"]  # fmt: skip
        for name, argv in commands.items():
            with (self.folder / f"{name}.log").open("ab") as out:
                self.processes[name] = subprocess.Popen(  # noqa: S603 (this interpreter, fixed arguments)
                    argv, stdout=out, stderr=subprocess.STDOUT, start_new_session=True, cwd=REPO
                )
        deadline = time.monotonic() + 90
        for name in self.processes:
            if name == "beat":
                continue
            while " ready." not in (self.folder / f"{name}.log").read_text():
                if self.processes[name].poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"worker {name} did not start:\n{self.tail(name)}")
                time.sleep(0.2)

    def tail(self, name: str) -> str:
        path = self.folder / f"{name}.log"
        return path.read_text()[-3000:] if path.exists() else ""

    def cpu(self) -> dict[str, float]:
        return {name: cpu_of_tree(p.pid) for name, p in self.processes.items() if name != "beat"}

    def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)  # warm shutdown: running tasks finish first
        for process in self.processes.values():
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        for process in self.processes.values():  # pool children left behind by a killed main process
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)


def telemetry_fabric(mode: str, now: dt.datetime, count: int):
    """The fabric whose telemetry opens the events, with one clean poll of every link end derived
    in this process (so that one later counter sample completes a window at any end), the time of
    the corrupting samples, and the links to corrupt (`count`, in random order, none with an event).

    A k = 8 fat tree (256 links) under constraint 0.75, made anew; for the `-large` modes the stored
    100K-link fabric itself, whose links keep their events from earlier runs (its polls are then
    placed after the newest one stored, and its counters grow with time)."""
    from django.db.models import Max

    from fabric import services as fabric_services
    from fabric.models import Fabric, Link
    from lightpath_fixtures.generators import fat_tree
    from telemetry.models import IngestBatch
    from telemetry.services.ingest import ingest

    if mode.endswith("-large"):
        fabric = Fabric.objects.get(name=BIG_FABRIC)
    else:
        name = f"bench-decisions-small-{mode}"
        for old in Fabric.objects.filter(name=name):
            fabric_services.delete_fabric(old)
        fabric = fabric_services.import_document({**fat_tree(8, name=name), "capacity_constraint": 0.75})
    # One-minute windows: a run's polls go after the newest stored one and stay within the clock skew
    # allowed (5 minutes ahead), however soon runs follow each other.
    Fabric.objects.filter(pk=fabric.pk).update(telemetry_window_s=WINDOW_S)
    newest = IngestBatch.objects.filter(fabric=fabric).aggregate(newest=Max("last_time"))["newest"]
    t0 = now - dt.timedelta(minutes=10)
    if newest is not None:
        t0 = max(t0, newest + dt.timedelta(seconds=WINDOW_S))
    packets = int(t0.timestamp()) * 10**6  # counters only grow, run after run
    links = Link.objects.filter(fabric=fabric).values_list("id", "z_switch__name", "z_port", "a_switch__name", "a_port")
    samples = [
        {"switch": switch, "port": port, "time": t0, "in_pkts": packets, "in_fcs_errors": 0}
        for _, z_switch, z_port, a_switch, a_port in links
        for switch, port in ((z_switch, z_port), (a_switch, a_port))
    ]
    for offset in range(0, len(samples), 100_000):  # the batch limit
        ingest(fabric, samples[offset : offset + 100_000], derive=True)
    fresh = links.filter(admin_state=Link.AdminState.ENABLED, oper_state=Link.OperState.UP).exclude(
        corruption_events__isnull=False
    )
    order = [(link_id, z_switch, z_port) for link_id, z_switch, z_port, _, _ in fresh]
    random.Random(16).shuffle(order)
    return fabric, t0 + dt.timedelta(seconds=WINDOW_S), packets, order[:count]


def job_requests(big, circuit_params) -> dict[str, tuple]:
    """The four batch jobs: kind -> (fabric, params validated as the API validates them)."""
    from circuits import schedule
    from corruption import simulation
    from planning.services import plan as plans

    return {
        "rail.plan": (big, plans.validate_params({"nrb": 0.99}, big)),
        # One year at MTTF 10,000 h per link: about 87K onsets on 100K links (the engine bench's trace).
        "corruption.simulate": (
            big,
            simulation.validate_params({"trace": {"source": "generated", "hours": 8760, "mttf_hours": 10_000}}, big),
        ),
        schedule.JOB_KIND: circuit_params,
        "fabric.capacity_report": (big, {}),
    }


def run_mode(mode: str, samples: int, interval: float, out: Path) -> None:
    import django

    django.setup()
    from django.conf import settings
    from django.db import transaction

    from circuits import schedule
    from circuits.models import CircuitSwitch, Demand
    from corruption.models import Decision
    from fabric.models import Fabric
    from jobs import services as jobs
    from jobs.models import Job
    from telemetry.models import CorruptionEvent
    from telemetry.services.ingest import ingest

    loaded = not mode.startswith("baseline")
    queues = set(settings.LIGHTPATH_QUEUES.values())
    # What a crashed earlier run left: no job of this database may run or wait.
    for job in Job.objects.exclude(state__in=Job.TERMINAL_STATES):
        jobs.cancel(job)
    purge(queues)
    now = dt.datetime.now(dt.UTC).replace(microsecond=0)
    fabric, t1, packets, order = telemetry_fabric(mode, now, samples)
    samples = min(samples, len(order))
    big = Fabric.objects.get(name=BIG_FABRIC)
    demand = Demand.objects.select_related("fabric").get(name=DEMAND)
    ocs = CircuitSwitch.objects.get(fabric=demand.fabric)
    circuit = schedule.validate_request({"demand": demand.pk, "circuit_switch": ocs.pk}, None)
    requests = job_requests(big, (demand.fabric, circuit)) if loaded else {}

    folder = Path(tempfile.mkdtemp(prefix=f"bench-decisions-{mode}-"))
    workers = Workers(mode, folder)
    result: dict = {"mode": mode, "queues": sorted(queues), "logs": str(folder)}
    current: dict[str, int] = {}
    finished: list[dict] = []

    def submit(kind: str) -> None:
        job_fabric, params = requests[kind]
        with transaction.atomic():
            current[kind] = jobs.submit(kind, fabric=job_fabric, params=params).pk

    def tend_jobs() -> None:
        """A job that ended is recorded and submitted again, so that four are always outstanding."""
        for job in Job.objects.filter(pk__in=current.values(), state__in=Job.TERMINAL_STATES):
            finished.append({"id": job.pk, "kind": job.kind, "state": job.state, "run_s": (job.finished - job.started).total_seconds()
                             if job.started and job.finished else None, "error": job.error[:200]})  # fmt: skip
            if job.state == Job.State.FAILED:
                print(f"  job {job.kind} failed: {job.error[:300]}", file=sys.stderr, flush=True)
            submit(job.kind)

    try:
        workers.start()
        for kind in requests:
            submit(kind)
        if loaded:  # the jobs' processes busy before the first sample
            deadline = time.monotonic() + 120
            while Job.objects.filter(pk__in=current.values(), state=Job.State.RUNNING).count() < 2:
                tend_jobs()
                if time.monotonic() > deadline:
                    raise RuntimeError(
                        f"batch jobs did not start:\n{workers.tail('jobs' if mode != 'single' else 'worker')}"
                    )
                time.sleep(0.2)
        states = dict(Job.objects.filter(pk__in=current.values()).values_list("kind", "state"))
        result["jobs_at_start"] = states
        cpu_before, wall_before, database_cpu = workers.cpu(), time.monotonic(), DatabaseCpu()
        next_cpu_sample = time.monotonic() + 1
        load_before = os.getloadavg()

        pending: dict[int, dict] = {}  # link id -> sample
        done: list[dict] = []
        next_send = time.monotonic()
        sent = 0
        while sent < samples or pending:
            if sent < samples and time.monotonic() >= next_send:
                link_id, switch, port = order[sent]
                batch = [
                    {"switch": switch, "port": port, "time": t1, "in_pkts": packets + 10**9, "in_fcs_errors": 10**5}
                ]
                sample: dict = {"link": link_id}

                def committed(sample: dict = sample) -> None:
                    sample["commit"] = time.time()

                with transaction.atomic():
                    transaction.on_commit(committed)  # first of the commit's callbacks, before the run is sent
                    ingest(fabric, batch)
                pending[link_id] = sample
                sent += 1
                next_send += interval
            events = CorruptionEvent.objects.filter(link_id__in=pending, direction="a_to_z").values_list(
                "link_id", flat=True
            )
            seen = time.time()
            for link_id in events:
                pending[link_id].setdefault("event", seen)
            for link_id, created, action in Decision.objects.filter(
                link_id__in=pending, kind=Decision.Kind.FAST_CHECKER
            ).values_list("link_id", "created", "action"):
                sample = pending.pop(link_id)
                sample.update(decision=created.timestamp(), action=action)
                sample["latency_s"] = sample["decision"] - sample["commit"]
                done.append(sample)
            for link_id, sample in list(pending.items()):
                if time.time() - sample["commit"] > SAMPLE_TIMEOUT_S:
                    done.append({**pending.pop(link_id), "latency_s": None})
            if loaded:
                tend_jobs()
            if time.monotonic() >= next_cpu_sample:
                database_cpu.sample()
                next_cpu_sample += 1
            time.sleep(0.05)
        wall = time.monotonic() - wall_before
        cpu_after = {**workers.cpu(), "postgres": database_cpu.total()}
        result.update(
            samples=done,
            window_s=wall,
            load_before=load_before,
            load_after=os.getloadavg(),
            worker_cpu_per_s={name: (cpu_after[name] - cpu_before.get(name, 0.0)) / wall for name in cpu_after},
            jobs_finished=finished,
            jobs_at_end=dict(Job.objects.filter(pk__in=current.values()).values_list("kind", "state")),
            progress_at_end={
                kind: round(p, 2)
                for kind, p in Job.objects.filter(pk__in=current.values()).values_list("kind", "progress")
            },
            other_jobs=list(
                Job.objects.filter(fabric=fabric, created__gte=now)
                .exclude(pk__in=[*current.values(), *(job["id"] for job in finished)])
                .values_list("kind", "state")
            ),
        )
    finally:
        # Cancel the batch jobs (a running one stops at its next progress report), then the workers.
        for job in Job.objects.exclude(state__in=Job.TERMINAL_STATES):
            jobs.cancel(job)
        deadline = time.monotonic() + 20
        while Job.objects.filter(state=Job.State.RUNNING).exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        workers.stop()
        for job in Job.objects.exclude(state__in=Job.TERMINAL_STATES):
            jobs.cancel(job)  # its worker is gone: ended at once
        purge(queues)
        out.write_text(json.dumps(result, default=str))


# ---------------------------------------------------------------------------------------------
# The report (the parent process)


def percentile(sorted_values: list[float], fraction: float) -> float:
    """Nearest rank: the smallest value with at least `fraction` of the samples at or below it (of
    fewer than 100 samples, p99 is the largest)."""
    return sorted_values[max(0, math.ceil(fraction * len(sorted_values)) - 1)]


def report(result: dict, label: str) -> str:
    samples = result["samples"]
    latencies = sorted(s["latency_s"] for s in samples if s["latency_s"] is not None)
    lost = sum(1 for s in samples if s["latency_s"] is None)
    if not latencies:
        return f"| {label} | 0 of {len(samples)} decided | | | | | | |"
    to_event = [s["event"] - s["commit"] for s in samples if s.get("event") and s["latency_s"] is not None]
    met = "yes" if percentile(latencies, 0.99) < 2.0 and not lost else "**no**"
    return (
        f"| {label} | {len(latencies)}{f' ({lost} not decided in {SAMPLE_TIMEOUT_S:.0f} s)' if lost else ''} | "
        f"{percentile(latencies, 0.5):.2f} s | {percentile(latencies, 0.9):.2f} s | {percentile(latencies, 0.99):.2f} s | "
        f"{latencies[-1]:.2f} s | {statistics.median(to_event):.2f} s | {met} |"
    )


def details(result: dict) -> str:
    finished: dict[str, list] = {}
    for job in result.get("jobs_finished", []):
        finished.setdefault(job["kind"], []).append(job)
    parts = []
    for kind, runs in sorted(finished.items()):
        ok = [r["run_s"] for r in runs if r["state"] == "succeeded" and r["run_s"] is not None]
        states = ", ".join(f"{n} {state}" for state, n in sorted(_count(r["state"] for r in runs).items()))
        parts.append(f"{kind}: {states}" + (f" (run {statistics.median(ok):.1f} s median)" if ok else ""))
    cpu = ", ".join(f"{name} {value:.2f}" for name, value in result.get("worker_cpu_per_s", {}).items())
    actions = ", ".join(f"{n} {a}" for a, n in sorted(_count(str(s.get("action")) for s in result["samples"]).items()))
    return (
        f"- {result['mode']}: window {result.get('window_s', 0):.0f} s, load average "
        f"{result.get('load_before', [0])[0]:.1f} -> {result.get('load_after', [0])[0]:.1f}; decisions {actions}; "
        f"worker CPU s per s: {cpu}; jobs at the first sample: {result.get('jobs_at_start')}; "
        f"jobs ended during the window: {'; '.join(parts) or 'none'}; at the end: {result.get('jobs_at_end')} "
        f"progress {result.get('progress_at_end')}; other jobs of the telemetry fabric: {result.get('other_jobs')}"
    )


def _count(values) -> dict:
    counts: dict = {}
    for value in values:
        counts[value] = counts.get(value, 0) + 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=60, help="telemetry batches per loaded mode")
    parser.add_argument("--baseline-samples", type=int, default=20)
    parser.add_argument("--interval", type=float, default=1.5, help="seconds between telemetry batches")
    parser.add_argument("--modes", default="single,queues,baseline,queues-large,baseline-large", help=", ".join(MODES))
    parser.add_argument("--racks", type=int, default=320, help="racks of the circuit demand")
    parser.add_argument("--seconds", type=int, default=1800, help="one-second windows of the circuit demand")
    parser.add_argument("--fresh", action="store_true", help="make the fabrics and the demand again")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    db = os.environ.get("LIGHTPATH_BENCH_DB", DEFAULT_DB)
    prefix = os.environ.get("LIGHTPATH_BENCH_QUEUE", DEFAULT_PREFIX)
    if args.child:
        count = args.baseline_samples if args.child.startswith("baseline") else args.samples
        run_mode(args.child, count, args.interval, Path(args.out))
        return

    base = dict(os.environ)
    os.environ.clear()
    os.environ.update(mode_env("queues", base, db, prefix))
    ensure_database(db)
    import django

    django.setup()
    started = time.perf_counter()
    set_up(args.fresh, args.racks, args.seconds)
    from django.db import connections

    connections.close_all()
    modes = args.modes.split(",")
    results = []
    for mode in modes:
        env = mode_env(mode, base, db, prefix)
        out = Path(tempfile.mkstemp(prefix=f"bench-decisions-{mode}-", suffix=".json")[1])
        print(f"\n{mode}: {MODES[mode]} ...", flush=True)
        subprocess.run(  # noqa: S603 (this script)
            [sys.executable, __file__, "--child", mode, "--out", str(out), "--samples", str(args.samples),
             "--baseline-samples", str(args.baseline_samples), "--interval", str(args.interval)],
            env=env, check=True,
        )  # fmt: skip
        results.append(json.loads(out.read_text()))
        out.unlink()
    print(f"\nTelemetry commit to Decision row ({args.interval:g} s between batches; "
          f"run took {time.perf_counter() - started:.0f} s):\n")  # fmt: skip
    print("| mode | samples | p50 | p90 | p99 | max | commit to event (median) | p99 < 2 s |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for result in results:
        print(report(result, f"{result['mode']}: {MODES[result['mode']]}"))
    print()
    for result in results:
        print(details(result))


if __name__ == "__main__":
    main()
