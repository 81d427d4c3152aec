"""Benchmark of what links share (fabric/services/components.py) on the 100K-link fabric.

Runs in-process against the local PostgreSQL and removes what it created. Usage, from the
repository root:

    eval "$(backend/scripts/devstack.sh env)"; .venv/bin/python backend/scripts/bench_components.py [PODS]

Rows: the components of every link of the fabric (one query), of a 1,000-link page and of one
link (two queries each), and one link's answer through `GET /api/links/{id}/`.
"""

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
from django.test import Client  # noqa: E402

from fabric import services  # noqa: E402
from fabric.models import Fabric, Link  # noqa: E402
from fabric.services import components  # noqa: E402
from lightpath_fixtures.generators import fb_fabric  # noqa: E402


def timed(label: str, fn, repeat: int) -> None:
    """Wall time, and this process's CPU time (the machine is shared: wall time includes waiting
    for a core; PostgreSQL's own time is in the wall time only)."""
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    print(
        f"| {label} | {min(walls) * 1000:,.1f} ms | {statistics.median(walls) * 1000:,.1f} ms "
        f"| {statistics.median(cpus) * 1000:,.1f} ms | {repeat} |",
        flush=True,
    )


def main() -> None:
    pods = int(sys.argv[1]) if len(sys.argv) > 1 else 261
    name = f"bench-components-{pods}"
    Fabric.objects.filter(name=name).delete()
    document = fb_fabric(pods, name=name, seed=1)
    fabric = services.import_document(document)
    print(f"<!-- {len(document['switches'])} switches, {len(document['links'])} links -->")
    print("| step | best (wall) | median (wall) | median (CPU, this process) | runs |\n| --- | --- | --- | --- | --- |")
    user, _ = get_user_model().objects.get_or_create(username="bench-viewer", defaults={"is_superuser": True})
    try:
        ids = list(Link.objects.filter(fabric=fabric).order_by("id").values_list("id", flat=True))
        timed(f"every link of the fabric ({len(ids):,})", lambda: components.resolve(fabric_id=fabric.pk), 5)
        timed("a page of 1,000 links", lambda: components.resolve(ids[50_000:51_000]), 10)
        timed("one link", lambda: components.resolve([ids[50_000]]), 20)
        client = Client()
        client.force_login(user)
        timed("one link, `GET /api/links/{id}/`", lambda: client.get(f"/api/links/{ids[50_000]}/"), 20)
    finally:
        services.delete_fabric(fabric)


if __name__ == "__main__":
    main()
