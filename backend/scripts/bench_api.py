"""Benchmarks of the fabric pipeline on the 100K-link Facebook-style fabric (261 pods).

Runs in-process against the local PostgreSQL (the same code paths as the API, through
Django's test client for the HTTP rows) and removes what it created. Usage, from the
repository root, with the dev stack's environment:

    make bench            # or: eval "$(backend/scripts/devstack.sh env)"; .venv/bin/python backend/scripts/bench_api.py [PODS]
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
from fabric.models import Fabric  # noqa: E402
from lightpath_fixtures.generators import fb_fabric  # noqa: E402


def timed(label: str, fn, repeat: int = 1):
    samples, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        samples.append(time.perf_counter() - start)
    best, median = min(samples), statistics.median(samples)
    print(f"| {label} | {best * 1000:,.0f} ms | {median * 1000:,.0f} ms | {repeat} |", flush=True)
    return result


def main() -> None:
    pods = int(sys.argv[1]) if len(sys.argv) > 1 else 261
    name = f"bench-fb-{pods}"
    Fabric.objects.filter(name=name).delete()
    print("| step | best | median | runs |\n| --- | --- | --- | --- |")
    document = timed(f"generate fb_fabric({pods})", lambda: fb_fabric(pods, name=name, seed=1), 3)
    print(f"<!-- {len(document['switches'])} switches, {len(document['links'])} links -->")
    timed("validate document", lambda: services.validate_document(document), 3)
    fabric = timed("import document (one transaction)", lambda: services.import_document(document))
    try:
        timed("capacity service (2 queries + engine)", lambda: services.fabric_capacity(fabric), 5)
        user, _ = get_user_model().objects.get_or_create(username="bench-viewer", defaults={"is_superuser": True})
        client = Client()
        client.force_login(user)
        timed("GET /api/fabrics/{id}/capacity/", lambda: client.get(f"/api/fabrics/{fabric.pk}/capacity/"), 5)
        timed("GET /api/fabrics/{id}/topology/", lambda: client.get(f"/api/fabrics/{fabric.pk}/topology/"), 5)
        timed("export document", lambda: services.export_document(fabric), 3)
    finally:
        timed("delete fabric", lambda: services.delete_fabric(fabric))
        get_user_model().objects.filter(username="bench-viewer").delete()


if __name__ == "__main__":
    main()
