"""Benchmark of ShareBackup and Larry through the server (issue #8): the reconfig app's jobs, end to end.

Each job goes through the same code the API runs (Django's test client for the HTTP requests; the job
runs in this process, as a worker would run it):
1. sharebackup.plan on a full k=48 fat tree (n=1) with a synthetic log of EVENTS events: POST /api/jobs/,
   the run, GET /api/jobs/{id}/result/;
2. larry.run at its size limit (racks x samples = 1,000,000: 64 racks, 64 circuit switches, 15,625 samples
   of 0.5 s) with the counters uploaded as CSV: POST /api/jobs/ (parsing and checking the file), the run
   (four policies), the download.

The jobs are deleted afterwards. Usage, from the repository root:

    eval "$(backend/scripts/devstack.sh env)"; .venv/bin/python backend/scripts/bench_reconfig.py [EVENTS]
"""

import json
import os
import random
import sys
import time
from pathlib import Path

BACKEND = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(BACKEND))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lightpath.settings")
os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.test import Client  # noqa: E402

from jobs import services as jobs  # noqa: E402
from jobs.models import Job  # noqa: E402

RACKS, SAMPLES = 64, 15_625


def counters_csv(seed: int = 1) -> str:
    """Cumulative ingress counters: a hot rack above its uplinks that moves every 4 minutes, the rest 50-400 Gbit/s."""
    rng = random.Random(seed)
    lines = ["time_s,rack,ingress_bytes,egress_bytes"]
    totals = [0] * RACKS
    for i in range(SAMPLES):
        lines.extend(f"{i * 0.5:g},{rack},{totals[rack]},0" for rack in range(RACKS))
        hot = (i // 480) % RACKS
        totals = [t + int((900 if r == hot else rng.randint(50, 400)) * 1e9 / 8 * 0.5) for r, t in enumerate(totals)]
    return "\n".join(lines) + "\n"


def step(label: str, started: float) -> float:
    now = time.perf_counter()
    print(f"| {label} | {now - started:.2f} s |", flush=True)
    return now


def through_the_server(client: Client, label: str, kind: str, params: dict, created: list[int]) -> dict:
    started = time.perf_counter()
    response = client.post("/api/jobs/", json.dumps({"kind": kind, "params": params}), content_type="application/json")
    assert response.status_code == 202, response.content[:2000]
    job_id = response.json()["id"]
    created.append(job_id)
    at = step(f"{label}: submit (POST /api/jobs/, checking the params)", started)
    assert jobs.run(job_id) == "succeeded", Job.objects.get(pk=job_id).error
    at = step(f"{label}: the job's run", at)
    response = client.get(f"/api/jobs/{job_id}/result/?format=json")
    step(f"{label}: download ({len(response.content) / 1e6:.1f} MB of JSON)", at)
    step(f"**{label}: end to end**", started)
    return json.loads(response.content)


def main() -> None:
    events = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    user, _ = get_user_model().objects.get_or_create(username="bench-planner", defaults={"is_superuser": True})
    client = Client()
    client.force_login(user)
    created: list[int] = []
    print("| step | time |\n| --- | --- |")
    try:
        plan = through_the_server(
            client,
            f"sharebackup.plan k=48, {events} events",
            "sharebackup.plan",
            {"k": 48, "backups": 1, "events": {"source": "synthetic", "length": events, "seed": 1}},
            created,
        )
        assert plan["verdict"]["sound"], plan["violations"][:3]
        text = counters_csv()
        print(f"<!-- larry counters: {RACKS * SAMPLES:,} rows, {len(text) / 1e6:.1f} MB of CSV -->")
        rack_set = {
            "static_uplinks": 6,
            "cables": [[1] * RACKS for _ in range(RACKS)],
            "cs_uplinks": [2] * RACKS,
            "capacity_gbps": 100,
        }
        run = through_the_server(
            client,
            f"larry.run {RACKS} racks x {SAMPLES:,} samples",
            "larry.run",
            {"rack_set": rack_set, "counters": {"source": "uploaded", "name": "bench.csv", "csv": text}},
            created,
        )
        metrics = run["metrics"]
        print(
            f"<!-- larry: {metrics['reconfigurations']} reconfigurations, "
            f"{metrics['mean_fraction_changed']:.1%} changed on average -->"
        )
    finally:
        Job.objects.filter(pk__in=created).delete()


if __name__ == "__main__":
    main()
