"""Benchmarks of the capacity guard (docs/capacity-guard.md) on the 100K-link Facebook-style fabric.

Runs in-process against the local PostgreSQL (the API rows through Django's test client, the
same code path as gunicorn) and removes what it created. Usage, from the repository root:

    eval "$(backend/scripts/devstack.sh env)"; .venv/bin/python backend/scripts/bench_guard.py [PODS]

Rows: one guarded change in the service and through the API (a safe disable and its enable, in
turn, on a warm live session), a spine drain and undrain, a 1,000-link bulk change, the capacity
read, and the cold start (the first guarded change in a process: the session's rebuild).
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
from fabric.models import Fabric, Link, Switch  # noqa: E402
from fabric.services import link_state, live  # noqa: E402
from lightpath_fixtures.generators import fb_fabric  # noqa: E402


def timed(label: str, fn, repeat: int = 1) -> list[float]:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    print(
        f"| {label} | {min(samples) * 1000:,.1f} ms | {statistics.median(samples) * 1000:,.1f} ms | {repeat} |",
        flush=True,
    )
    return samples


def main() -> None:
    pods = int(sys.argv[1]) if len(sys.argv) > 1 else 261
    name = f"bench-guard-{pods}"
    Fabric.objects.filter(name=name).delete()
    document = fb_fabric(pods, name=name, seed=1)
    fabric = services.import_document(document)
    print(f"<!-- {len(document['switches'])} switches, {len(document['links'])} links -->")
    print("| step | best | median | runs |\n| --- | --- | --- | --- |")
    user, _ = get_user_model().objects.get_or_create(username="bench-operator", defaults={"is_superuser": True})
    try:
        # A fabric-to-spine link: one path of a pod's ToRs, safe at the default 0.75.
        spine_links = list(
            Link.objects.filter(fabric=fabric, a_switch__tier=1).order_by("id").values_list("id", flat=True)
        )
        one = Link.objects.get(pk=spine_links[0])
        timed("first guarded change in a process (rebuild the live session)", lambda: cold(one, user))
        flip = iter(["enabled", "disabled"] * 100)
        timed(
            "one guarded change, service (warm session)",
            lambda: link_state.set_admin_state(one, next(flip), "bench", user),
            40,
        )
        client = Client()
        client.force_login(user)
        url = f"/api/links/{one.pk}/"
        timed(
            "one guarded change, PATCH /api/links/{id}/",
            lambda: ok(client.patch(url, {"admin_state": next(flip)}, content_type="application/json")),
            40,
        )
        timed(
            "dry run, PATCH /api/links/{id}/?dry_run=1",
            lambda: ok(client.patch(url + "?dry_run=1", {"admin_state": "disabled"}, content_type="application/json")),
            20,
        )
        spine = Switch.objects.filter(fabric=fabric, tier=2).order_by("id")[0]
        links = len(link_state.switch_links(spine))
        drain = f"/api/switches/{spine.pk}/drain/"
        undrain = f"/api/switches/{spine.pk}/undrain/"
        timed(f"drain a spine ({links} links), service", lambda: link_state.drain_switch(spine, user), 1)
        timed(f"undrain it ({links} links), service", lambda: link_state.undrain_switch(spine, user), 1)
        timed(
            f"drain a spine ({links} links), POST drain/",
            lambda: ok(client.post(drain, {}, content_type="application/json")),
            1,
        )
        timed(
            f"undrain it ({links} links), POST undrain/",
            lambda: ok(client.post(undrain, {}, content_type="application/json")),
            1,
        )
        bulk = spine_links[:: max(len(spine_links) // 1000, 1)][:1000]

        def bulk_change(state: str):
            rows = [{"id": pk, "admin_state": state, "admin_reason": "bench"} for pk in bulk]
            ok(client.patch("/api/links/", rows, content_type="application/json"))

        timed(f"bulk change of {len(bulk)} links, PATCH /api/links/ (disable)", lambda: bulk_change("disabled"))
        timed(f"bulk change of {len(bulk)} links, PATCH /api/links/ (enable)", lambda: bulk_change("enabled"))
        capacity = f"/api/fabrics/{fabric.pk}/capacity/"
        timed("GET /api/fabrics/{id}/capacity/ (warm session)", lambda: ok(client.get(capacity)), 10)
        small_spine_drain(user)
    finally:
        services.delete_fabric(fabric)
        get_user_model().objects.filter(username="bench-operator").delete()


def small_spine_drain(user) -> None:
    """The issue's "spine with 48+ links": a 48-pod fabric, whose spines have 48 links."""
    fabric = services.import_document(fb_fabric(48, name="bench-guard-48", seed=1))
    try:
        spines = list(Switch.objects.filter(fabric=fabric, tier=2).order_by("id")[:6])
        link_state.drain_switch(spines[0], user, dry_run=True)  # a warm session
        links = len(link_state.switch_links(spines[1]))
        turn = iter(spines[1:])
        timed(
            f"drain a spine ({links} links) of the 48-pod fabric, service",
            lambda: link_state.drain_switch(next(turn), user),
            5,
        )
    finally:
        services.delete_fabric(fabric)


def cold(link: Link, user) -> None:
    live.forget()
    link_state.set_admin_state(link, "disabled", "bench", user)


def ok(response):
    assert response.status_code == 200, (response.status_code, response.content[:300])
    return response


if __name__ == "__main__":
    main()
