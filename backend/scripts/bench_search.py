"""Benchmark of the header's search, `GET /api/search/?q=` (issue #20: under 100 ms on the
100K-link fabric), per kind of query, on generated Facebook-style fabrics of growing size.

Imports `fb_fabric(PODS)` for each size given (261 pods: 100,224 links, 200,448 transceivers),
gives every transceiver a serial (an import writes none), opens a ticket and a job, then sends
each query RUNS times through Django's test client (the whole view: permission, parsing, the
queries, the serializer; no HTTP socket) and prints p50 and p95 per query and fabric size.
Removes what it created. Run it on a database of
your own (it migrates it), from the repository root:

    eval "$(backend/scripts/devstack.sh env)"
    LIGHTPATH_DB_NAME=lp_bench_search .venv/bin/python backend/scripts/bench_search.py [PODS ...] [--runs 40]
"""

import argparse
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
from django.contrib.auth.models import Group  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402

from accounts.roles import VIEWER  # noqa: E402
from corruption.models import Ticket  # noqa: E402
from fabric import services  # noqa: E402
from fabric.models import Fabric, Link, Transceiver  # noqa: E402
from jobs.models import Job  # noqa: E402
from lightpath_fixtures.generators import fb_fabric  # noqa: E402

USERNAME = "bench-search-viewer"


def queries(fabric: Fabric, pods: int, ticket: Ticket, job: Job) -> list[tuple[str, str]]:
    """(kind, q): what a user types, from a common match to none at all."""
    pod = pods - 1
    serial = Transceiver.objects.filter(link__fabric=fabric).order_by("id").values_list("serial", flat=True)[1000]
    return [
        ("switch, exact name", f"p{pod}-tor7"),
        ("switch, part of a name (a match in every pod)", "tor17"),
        ("switch, 2 characters", "p1"),
        ("port, switch:port", f"p{pod}-fab2:eth1/40"),
        ("port alone (every switch has it)", "eth2/3"),
        ("link, both names", f"p{pod}-tor7 - p{pod}-fab1"),
        ("link by id", f"link {Link.objects.filter(fabric=fabric).order_by('-id').values_list('id', flat=True)[0]}"),
        ("serial, part of one", serial[3:]),
        ("rack", f"p{pod}-rack4"),
        ("ticket", f"#{ticket.pk}"),
        ("job by id", f"job {job.pk}"),
        ("nothing matches", "zq-no-such-thing"),
    ]


def backend_cpu_s() -> float:
    """CPU seconds PostgreSQL's backend serving this process has used (it runs on this machine):
    wall times include waiting for a core on a shared machine, CPU times do not."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def bench_size(pods: int, runs: int, client: APIClient) -> None:
    name = f"bench-search-{pods}"
    Fabric.objects.filter(name=name).delete()
    started = time.perf_counter()
    fabric = services.import_document(fb_fabric(pods, name=name, seed=1))
    with connection.cursor() as cursor:  # serials as a vendor's: letters, the year, a number
        cursor.execute(
            "UPDATE fabric_transceiver t SET serial = 'FNS' || (2000 + t.id %% 26) || lpad(t.id::text, 8, '0') "
            "FROM fabric_link l WHERE t.link_id = l.id AND l.fabric_id = %s",
            [fabric.pk],
        )
        cursor.execute("ANALYZE fabric_switch; ANALYZE fabric_link; ANALYZE fabric_transceiver")
    link = Link.objects.filter(fabric=fabric).order_by("id").first()
    assert link is not None
    ticket = Ticket.objects.create(fabric=fabric, link=link, kind="preventive", direction="a_to_z")
    job = Job.objects.create(kind="corruption.simulate", fabric=fabric)
    links = Link.objects.filter(fabric=fabric).count()
    print(f"\n{pods} pods: {links:,} links, set up in {time.perf_counter() - started:.0f} s", flush=True)
    print(
        "| query | q | hits | p50 | p95 | max | CPU/request: web | database |\n"
        "| --- | --- | --- | --- | --- | --- | --- | --- |"
    )
    try:
        for kind, q in queries(fabric, pods, ticket, job):
            times, hits = [], 0
            web, database = time.process_time(), backend_cpu_s()
            for _ in range(runs):
                begin = time.perf_counter()
                response = client.get("/api/search/", {"q": q})
                times.append((time.perf_counter() - begin) * 1000)
                assert response.status_code == 200, response.content
                hits = sum(len(group["hits"]) for group in response.json()["groups"])
            web, database = (time.process_time() - web) / runs, (backend_cpu_s() - database) / runs
            print(
                f"| {kind} | `{q}` | {hits} | {percentile(times, 0.5):.1f} ms | {percentile(times, 0.95):.1f} ms "
                f"| {max(times):.1f} ms | {web * 1000:.1f} ms | {database * 1000:.1f} ms |",
                flush=True,
            )
    finally:
        Job.objects.filter(pk=job.pk).delete()
        services.delete_fabric(fabric)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pods", nargs="*", type=int, default=[261])
    parser.add_argument("--runs", type=int, default=40)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    user, _ = get_user_model().objects.get_or_create(username=USERNAME)
    user.groups.add(Group.objects.get_or_create(name=VIEWER)[0])
    client = APIClient()
    client.force_authenticate(user)
    print(f"database {connection.settings_dict['NAME']}, {args.runs} runs per query")
    for pods in args.pods:
        bench_size(pods, args.runs, client)


if __name__ == "__main__":
    main()
