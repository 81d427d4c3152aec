"""What publishing to webhooks adds to link changes (issue #5): the outbox rows written by
the capacity guard (fabric.services.link_state), per change and for a bulk change.

Runs in-process against the local PostgreSQL inside one transaction that is rolled back at the
end, so nothing is kept and no delivery task is sent. Usage, from the repository root:

    eval "$(backend/scripts/devstack.sh env)"; .venv/bin/python backend/scripts/bench_webhooks.py [K]
"""

import os
import statistics
import sys
import time
from pathlib import Path

BACKEND = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(BACKEND))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lightpath.settings")

import django  # noqa: E402

django.setup()

from django.db import connection, transaction  # noqa: E402

from fabric import services  # noqa: E402
from fabric.models import Link  # noqa: E402
from fabric.services import link_state  # noqa: E402
from lightpath_fixtures.generators import fat_tree  # noqa: E402
from webhooks.models import WebhookDelivery, WebhookEndpoint  # noqa: E402
from webhooks.services import batched_link_changes  # noqa: E402


class Rollback(Exception):
    pass


class QueryCounter:
    """Counts statements (CaptureQueriesContext keeps only the last 9000)."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        return execute(sql, params, many, context)

    def __enter__(self) -> "QueryCounter":
        self._wrapper = connection.execute_wrapper(self)
        self._wrapper.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        self._wrapper.__exit__(*exc)


def flip(links: list[Link], state: str) -> None:
    for link in links:
        link_state.set_admin_state(link, state, "bench", None, override=True)


def per_change(links: list[Link], state: str) -> tuple[float, float]:
    """Median ms of one guarded change (fabric.services.link_state), and its queries."""
    samples = []
    with QueryCounter() as queries:
        for link in links:
            start = time.perf_counter()
            link_state.set_admin_state(link, state, "bench", None, override=True)
            samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1000, queries.count / len(links)


def bulk(links: list[Link], state: str, batched: bool) -> tuple[float, int]:
    start = time.perf_counter()
    with QueryCounter() as queries:
        if batched:
            with batched_link_changes():
                flip(links, state)
        else:
            flip(links, state)
    return (time.perf_counter() - start) * 1000, queries.count


def main() -> None:
    k = int(sys.argv[1]) if len(sys.argv) > 1 else 16
    print("| case | links | time | queries |\n| --- | --- | --- | --- |")
    try:
        with transaction.atomic():
            fabric = services.import_document(fat_tree(k, name=f"bench-webhooks-{k}"))
            links = list(Link.objects.filter(fabric=fabric).order_by("id")[:1000])
            ms, q = per_change(links, "disabled")
            print(f"| one change, no endpoint | {len(links)} | {ms:.2f} ms each (median) | {q:.0f} each |")
            for count in (1, 3):
                WebhookEndpoint.objects.bulk_create(
                    WebhookEndpoint(
                        fabric=fabric, name=f"ep{count}-{i}", payload_url="http://127.0.0.1:9/", secret="x" * 32
                    )
                    for i in range(count - WebhookEndpoint.objects.filter(fabric=fabric).count())
                )
                state = "enabled" if count == 1 else "disabled"
                ms, q = per_change(links, state)
                print(f"| one change, {count} endpoint(s) | {len(links)} | {ms:.2f} ms each (median) | {q:.0f} each |")
            for batched in (False, True):
                state = "enabled" if not batched else "disabled"
                ms, q = bulk(links, state, batched)
                label = "in batched_link_changes()" if batched else "one guarded change after another"
                print(
                    f"| {len(links)} changes in one transaction, 3 endpoints, {label} | {len(links)} | {ms:,.0f} ms | {q} |"
                )
            print(f"<!-- {WebhookDelivery.objects.filter(endpoint__fabric=fabric).count()} deliveries written -->")
            raise Rollback
    except Rollback:
        pass


if __name__ == "__main__":
    main()
