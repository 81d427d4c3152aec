"""Benchmark of the CorrOpt optimizer job on a live fabric (corruption.optimizer.optimize_fabric).

The Facebook-style fabric (261 pods: 100,224 links) is imported, CORRUPTING links get an open
corruption event (nothing decided yet: the fast checker never ran), and the optimizer runs once
as the job would, in one transaction under the fabric's lock. Two placements: spread over the
whole fabric, and crowded into 4 pods (where ToRs compete for the same fabric switches). The
progress reports split the time: reading the fabric and the candidates, the engine's optimizer,
and applying its answer (a decision per link through the fast checker, and for each disabled link
the admin-state change, its webhook outbox, audit rows and a ticket with its recommendation).

Usage, from the repository root with the dev stack's environment:

    eval "$(backend/scripts/devstack.sh env)"; .venv/bin/python backend/scripts/bench_optimizer.py [--pods 261] [--corrupting 200]

It creates fabrics named bench-optimizer-* and deletes them at the end.
"""

import argparse
import os
import random
import sys
import time
from pathlib import Path

BACKEND = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(BACKEND), str(BACKEND.parent)]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lightpath.settings")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.utils import timezone  # noqa: E402

from corruption import optimizer  # noqa: E402
from fabric import services as fabric_services  # noqa: E402
from fabric.models import Fabric, Link, Switch  # noqa: E402
from lightpath_fixtures.generators import fb_fabric  # noqa: E402
from telemetry.models import CorruptionEvent  # noqa: E402


def run_case(pods: int, corrupting: int, crowded: bool, seed: int) -> dict:
    name = f"bench-optimizer-{'crowded' if crowded else 'spread'}"
    Fabric.objects.filter(name=name).delete()
    fabric = fabric_services.import_document({**fb_fabric(pods, seed=seed, name=name), "capacity_constraint": 0.75})
    links = Link.objects.filter(fabric=fabric)
    if crowded:
        links = links.filter(a_switch__pod__in=[0, 1, 2, 3])
    rng = random.Random(seed)
    chosen = rng.sample(list(links.values_list("id", flat=True)), corrupting)
    now = timezone.now()
    CorruptionEvent.objects.bulk_create(
        CorruptionEvent(
            link_id=link_id,
            direction="a_to_z",
            rate=rate,
            last_rate=rate,
            peak_rate=rate,
            first_seen=now,
            last_seen=now,
        )
        for link_id, rate in ((link_id, 10 ** rng.uniform(-8, -3)) for link_id in chosen)
    )
    # Fresh statistics, as autovacuum gathers them shortly after a bulk load: without them the
    # planner takes the new fabric's tables for empty and the first run is several times slower.
    with connection.cursor() as cursor:
        for model in (Link, Switch, CorruptionEvent):
            cursor.execute(f"ANALYZE {connection.ops.quote_name(model._meta.db_table)}")
    marks: dict[str, float] = {}

    def progress(fraction: float, message: str) -> None:
        marks.setdefault(message.split(" ")[0], time.perf_counter())

    started = time.perf_counter()
    summary = optimizer.optimize_fabric(fabric.pk, progress=progress)
    ended = time.perf_counter()
    fabric_services.delete_fabric(fabric)
    return {
        "case": "crowded into 4 pods" if crowded else "spread",
        "read_s": marks["optimizing"] - marks["reading"],
        "engine_s": marks["applying"] - marks["optimizing"],
        "apply_s": ended - marks["applying"],
        "total_s": ended - started,
        "disabled": len(summary["disabled"]),
        "kept": len(summary["kept"]),
        "proven_optimal": summary["proven_optimal"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pods", type=int, default=261)
    parser.add_argument("--corrupting", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    print(f"fb_fabric({args.pods}), c = 0.75, {args.corrupting} corrupting links, optimize_fabric once")
    print("| placement | read fabric + candidates | engine optimizer | apply | total | disabled / kept | proven |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for crowded in (False, True):
        row = run_case(args.pods, args.corrupting, crowded, args.seed)
        per_link = row["apply_s"] / max(row["disabled"] + row["kept"], 1) * 1000
        print(
            f"| {row['case']} | {row['read_s']:.2f} s | {row['engine_s'] * 1000:.1f} ms | {row['apply_s']:.2f} s "
            f"({per_link:.1f} ms per decision) | {row['total_s']:.2f} s | {row['disabled']} / {row['kept']} | "
            f"{'yes' if row['proven_optimal'] else 'no'} |"
        )


if __name__ == "__main__":
    main()
