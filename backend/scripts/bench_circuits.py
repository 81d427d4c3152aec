"""Benchmark of circuit schedules through the server (issue #7): upload a one-hour demand of a 320-rack
zone, then plan it with the `circuits.schedule` job, end to end.

Steps, each through the same code the API runs (Django's test client for the HTTP requests; the job
runs in this process, as a worker would run it):
1. POST /api/demands/ with the CSV (3,601 one-second windows; every rack sends to one partner that
   drifts every minute, 10 MB to 2 GB per window, plus a second partner in every 4th window);
2. POST /api/circuit-schedules/ (exact, the defaults) and the job's run;
3. GET /api/jobs/{id}/result/ (the JSON a client downloads).

Creates a fabric named bench-circuits-N-TIME and removes it afterwards. Usage, from the repository root:

    eval "$(backend/scripts/devstack.sh env)"; .venv/bin/python backend/scripts/bench_circuits.py [RACKS] [SECONDS]
"""

import json
import os
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
from django.db import DatabaseError  # noqa: E402
from django.test import Client  # noqa: E402

from circuits.models import CircuitSwitch  # noqa: E402
from circuits.services import all_tor_attachments, replace_attachments  # noqa: E402
from fabric.models import Fabric, Switch  # noqa: E402
from jobs import services as jobs  # noqa: E402
from jobs.models import Job  # noqa: E402
from lightpath_fixtures.generators import drifting_demand_csv  # noqa: E402


def step(label: str, started: float) -> float:
    now = time.perf_counter()
    print(f"| {label} | {now - started:.1f} s |", flush=True)
    return now


def main() -> None:
    racks = int(sys.argv[1]) if len(sys.argv) > 1 else 320
    seconds = int(sys.argv[2]) if len(sys.argv) > 2 else 3600
    name = f"bench-circuits-{racks}-{int(time.time())}"
    fabric = Fabric.objects.create(name=name, tiers=["tor", "spine"])
    try:
        Switch.objects.bulk_create(Switch(fabric=fabric, name=f"tor{i}", tier=0) for i in range(racks))
        ocs = CircuitSwitch.objects.create(fabric=fabric, name="ocs", port_count=racks, capacity_gbps=100)
        replace_attachments(ocs, all_tor_attachments(fabric))
        text = drifting_demand_csv(racks, seconds)
        print(f"<!-- {text.count(chr(10)) - 1:,} rows, {len(text) / 1e6:.1f} MB of CSV -->")
        user, _ = get_user_model().objects.get_or_create(username="bench-planner", defaults={"is_superuser": True})
        client = Client()
        client.force_login(user)
        print("| step | time |\n| --- | --- |")
        started = time.perf_counter()
        body = json.dumps({"fabric": fabric.pk, "name": "one hour", "csv": text})
        response = client.post("/api/demands/", body, content_type="application/json")
        assert response.status_code == 201, response.content[:2000]
        demand = response.json()
        at = step(f"upload: POST /api/demands/ ({demand['window_count']:,} windows)", started)
        response = client.post(
            "/api/circuit-schedules/",
            json.dumps({"demand": demand["id"], "circuit_switch": ocs.pk}),
            content_type="application/json",
        )
        assert response.status_code == 202, response.content[:2000]
        job_id = response.json()["id"]
        assert jobs.run(job_id) == "succeeded", Job.objects.get(pk=job_id).error
        result: dict = Job.objects.get(pk=job_id).result or {}
        at = step(
            f"schedule job: {len(result['slots']):,} slots, exact (engine {result['metrics']['runtime_s']:.1f} s)", at
        )
        response = client.get(f"/api/jobs/{job_id}/result/?format=json")
        step(f"download: GET /api/jobs/{{id}}/result/ ({len(response.content) / 1e6:.1f} MB)", at)
        step("**upload + schedule + download**", started)
        metrics = result["metrics"]
        print(
            f"<!-- optical ratio {metrics['optical_ratio']:.3f} (uniform {metrics['uniform_ratio']:.4f}), "
            f"gap {metrics['gap']:.4f}, flaps {metrics['flap_count']} -->"
        )
    finally:
        try:
            fabric.delete()
        except DatabaseError as exc:  # a model of a newer checkout may lack its table here
            print(f"could not delete fabric {name}: {exc}", file=sys.stderr)


if __name__ == "__main__":
    main()
