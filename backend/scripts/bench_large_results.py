"""Benchmark of large job results over HTTP: a rail.plan of a 100K-link stored fabric (about 23 MB
of JSON, mostly per-link rows), fetched the ways the planning page, the downloads and the CLI fetch
it, with and without `Accept-Encoding: gzip`.

Usage, from the repository root with the dev stack's environment:

    eval "$(backend/scripts/devstack.sh env)"; LIGHTPATH_DB_NAME=<a migrated database of its own> \
        .venv/bin/python backend/scripts/bench_large_results.py [--pods 261] [--runs 5]

The fabric (bench-large-results-*) and its plan job are made, measured and removed; with --keep they
stay, and a later run measures the same stored result (before and after a change, or the browser
timing of bench_plan_page.cjs); --fresh makes them again. Each request goes through the
whole middleware stack (Django's test client); "server" is the time to the complete response,
"decode" the client's gunzip and json.loads of it. The bytes are what would cross the network.
"""

import argparse
import gzip
import json
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
    user, _ = get_user_model().objects.get_or_create(username="bench-large-planner")
    user.groups.add(Group.objects.get_or_create(name="planner")[0])
    client = Client()
    client.force_login(user)
    return client


def plan_job(client: Client, pods: int, fresh: bool) -> Job:
    """The kept plan of the bench fabric, made (import, submit, run) when missing or --fresh."""
    name = f"bench-large-results-{pods}pods"
    if fresh:
        Fabric.objects.filter(name=name).delete()
    fabric = Fabric.objects.filter(name=name).first()
    if fabric is None:
        document = fb_fabric(pods)
        document["name"] = name
        start = time.perf_counter()
        fabric = fabric_services.import_document(document)
        print(f"(imported {name}: {fabric.links.count():,} links in {time.perf_counter() - start:.1f} s)")
    job = Job.objects.filter(fabric=fabric, kind="rail.plan", state=Job.State.SUCCEEDED).order_by("-pk").first()
    if job is None:
        body = {"kind": "rail.plan", "params": {"nrb": 0.99}, "fabric": fabric.pk}
        response = client.post("/api/jobs/", body, content_type="application/json")
        assert response.status_code == 202, response.content[:500]
        state = jobs.run(response.json()["id"])
        assert state == "succeeded", state
        job = Job.objects.get(pk=response.json()["id"])
    return job


def fetch(client: Client, url: str, gzip_ok: bool) -> dict[str, float | str]:
    headers = {"accept-encoding": "gzip, deflate, br"} if gzip_ok else {}
    start = time.perf_counter()
    response = client.get(url, headers=headers)
    body = response.content
    served = time.perf_counter()
    assert response.status_code == 200, (url, response.status_code, body[:300])
    encoding = response.get("Content-Encoding", "")
    plain = gzip.decompress(body) if encoding == "gzip" else body
    if response["Content-Type"].startswith("application/json"):
        json.loads(plain)
    decoded = time.perf_counter()
    return {
        "server": served - start,
        "decode": decoded - served,
        "bytes": len(body),
        "plain": len(plain),
        "encoding": encoding or "identity",
    }


def size(count: float) -> str:
    return f"{count / 1e6:.2f} MB" if count >= 100_000 else f"{count / 1e3:.1f} kB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pods", type=int, default=261, help="pods of the stored fabric (261: 100K links)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--fresh", action="store_true", help="import the fabric and run the plan again")
    parser.add_argument("--keep", action="store_true", help="keep the fabric and its plan for later runs")
    args = parser.parse_args()
    client = planner_client()
    job = plan_job(client, args.pods, args.fresh)
    urls = {
        "job detail (the plan page before)": f"/api/jobs/{job.pk}/",
        "result download, JSON": f"/api/jobs/{job.pk}/result/",
        "result download, links CSV": f"/api/jobs/{job.pk}/result/?format=csv&table=links",
        "plan without its link rows (the plan page)": f"/api/rail/plans/{job.pk}/",
        "first 50 link rows": f"/api/rail/plans/{job.pk}/links/",
        "50 stretched rows named *p3-*, longest first": (
            f"/api/rail/plans/{job.pk}/links/?stretched=true&q=p3-&ordering=-length_m"
        ),
    }
    print(f"rail.plan job {job.pk}, {args.runs} runs each, medians\n")
    print("| request | Accept-Encoding | Content-Encoding | bytes sent | server | client decode + parse |")
    print("| --- | --- | --- | --- | --- | --- |")
    try:
        for label, url in urls.items():
            for gzip_ok in (False, True):
                runs = [fetch(client, url, gzip_ok) for _ in range(args.runs)]
                sent = statistics.median(float(run["bytes"]) for run in runs)
                print(
                    f"| {label} | {'gzip' if gzip_ok else '(none)'} | {runs[0]['encoding']} | "
                    f"{size(sent)} (of {size(float(runs[0]['plain']))}) | "
                    f"{statistics.median(float(run['server']) for run in runs):.2f} s | "
                    f"{statistics.median(float(run['decode']) for run in runs):.2f} s |"
                )
    finally:
        if not args.keep:
            job.delete()
            if job.fabric_id is not None:
                Fabric.objects.filter(pk=job.fabric_id).delete()


if __name__ == "__main__":
    main()
