"""Benchmarks of the RAIL jobs end to end (issue #6): submission through the API (validation), the
job's run (load, engine, names, stored result) and the JSON result download.

1. rail.plan on the generated k = 32 fat tree (the seed's Table 4.1, expected-value mode, sweeps
   every 10 m to 1 km, per-pair statistics for its 512 ToRs), with and without stretch.
2. rail.plan and rail.classes on a stored 100K-link Facebook-style fabric (fb_fabric, 261 pods,
   100G, generated lengths), imported here first; per-pair statistics are off above 2,048 ToRs, as
   in the job's default.

Usage, from the repository root with the dev stack's environment:

    eval "$(backend/scripts/devstack.sh env)"; .venv/bin/python backend/scripts/bench_rail.py [--pods 261] [--runs 3]

The job runs in this process (jobs.services.run, what the worker's task calls), so no worker is
needed and the queue wait is not counted. It creates a fabric named bench-rail-* and removes it.
Point LIGHTPATH_DB_NAME at a migrated database of its own to keep it out of the dev data.
"""

import argparse
import os
import statistics
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
from django.contrib.auth.models import Group  # noqa: E402
from django.test import Client  # noqa: E402

from fabric import services as fabric_services  # noqa: E402
from fabric.models import Fabric  # noqa: E402
from jobs import services as jobs  # noqa: E402
from jobs.models import Job  # noqa: E402
from lightpath_fixtures.generators import fb_fabric  # noqa: E402


def planner_client() -> Client:
    user, _ = get_user_model().objects.get_or_create(username="bench-rail-planner")
    user.groups.add(Group.objects.get_or_create(name="planner")[0])
    client = Client()
    client.force_login(user)
    return client


def timed_job(client: Client, kind: str, params: dict, fabric: Fabric | None) -> dict[str, float]:
    """Seconds of each step of one job, end to end."""
    start = time.perf_counter()
    body = {"kind": kind, "params": params, "fabric": None if fabric is None else fabric.pk}
    response = client.post("/api/jobs/", body, content_type="application/json")
    assert response.status_code == 202, response.content[:500]
    submitted = time.perf_counter()
    job_id = response.json()["id"]
    state = jobs.run(job_id)
    assert state == "succeeded", Job.objects.get(pk=job_id).error
    ran = time.perf_counter()
    download = client.get(f"/api/jobs/{job_id}/result/")
    assert download.status_code == 200
    done = time.perf_counter()
    Job.objects.filter(pk=job_id).delete()
    return {
        "submit": submitted - start,
        "run": ran - submitted,
        "download": done - ran,
        "total": done - start,
        "result_mb": len(download.content) / 1e6,
    }


def report(label: str, runs: list[dict[str, float]]) -> None:
    def median(key: str) -> float:
        return statistics.median(run[key] for run in runs)

    print(
        f"| {label} | {median('submit'):.2f} s | {median('run'):.2f} s | {median('download'):.2f} s | "
        f"{median('total'):.2f} s (best {min(run['total'] for run in runs):.2f} s) | {median('result_mb'):.1f} MB |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pods", type=int, default=261, help="pods of the stored fabric (261: 100K links)")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    client = planner_client()
    print("| job | submit (validation) | run | download | end to end, median | result JSON |")
    print("| --- | --- | --- | --- | --- | --- |")
    table_4_1 = {"generate": {"k": 32, "max_length_m": 500}, "nrb": None}
    report(
        "rail.plan, k = 32 generated, no stretch",
        [timed_job(client, "rail.plan", table_4_1, None) for _ in range(args.runs)],
    )
    stretch = {**table_4_1, "nrb": 0.95}
    report(
        "rail.plan, k = 32 generated, NRB 0.95",
        [timed_job(client, "rail.plan", stretch, None) for _ in range(args.runs)],
    )

    document = fb_fabric(args.pods)
    document["name"] = f"bench-rail-{args.pods}pods"
    Fabric.objects.filter(name=document["name"]).delete()
    start = time.perf_counter()
    fabric = fabric_services.import_document(document)
    links = fabric.links.count()
    print(f"\n(imported {document['name']}: {links:,} links in {time.perf_counter() - start:.1f} s)\n")
    try:
        label = f"{links // 1000}K stored links"
        report(
            f"rail.plan, {label}, NRB 0.99",
            [timed_job(client, "rail.plan", {"nrb": 0.99}, fabric) for _ in range(args.runs)],
        )
        report(
            f"rail.classes, {label}, no telemetry",
            [timed_job(client, "rail.classes", {}, fabric) for _ in range(args.runs)],
        )
    finally:
        fabric.delete()


if __name__ == "__main__":
    main()
