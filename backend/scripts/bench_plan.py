"""Benchmark of the tickets.plan job's service call (maintenance.services.plan.plan_fabric, issue #18).

Runs in-process against the local PostgreSQL and removes what it created. Usage, from the
repository root:

    eval "$(backend/scripts/devstack.sh env)"; .venv/bin/python backend/scripts/bench_plan.py [PODS]

On the demo fabric and on a generated Facebook fabric (`fb_fabric(PODS)`, default 64 pods), open work
orders are written directly (no tickets: the plan reads open orders): each a fabric switch's spine
cable (its four spine uplinks, 2 h) or a ToR uplink's transceiver (45 min), with one corrupting link
in service on it (rates 1e-6..1e-3) so that every order has a penalty. Rows: 10 orders (branch and
bound, proven optimal), and 200 and 1,000 orders with 20 technicians (greedy and local search for
the default 3 s, with the lower bound's gap); all with an 8-hour shift. The time is the whole call:
reading the orders, penalties and locations, the guard's verdict per footprint, a restoration for
the unsafe ones, the search, and the headroom over the day (maintenance.services.headroom), which is
also timed alone with its intervals and engine evaluates (one per distinct set of visits in progress).
"""

import os
import random
import sys
import time
from pathlib import Path
from typing import Any

BACKEND = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(BACKEND))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lightpath.settings")

import django  # noqa: E402

django.setup()

import json  # noqa: E402

from django.conf import settings  # noqa: E402
from django.utils import timezone  # noqa: E402

from fabric import services  # noqa: E402
from fabric.models import Fabric, Link, Switch  # noqa: E402
from lightpath_fixtures.generators import fb_fabric  # noqa: E402
from maintenance.models import WorkOrder  # noqa: E402
from maintenance.services import headroom as headroom_module  # noqa: E402
from maintenance.services import plan as plan_module  # noqa: E402
from maintenance.services.plan import PlanParams, plan_fabric  # noqa: E402
from telemetry.models import CorruptionEvent  # noqa: E402


def open_orders(fabric: Fabric, count: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    WorkOrder.objects.filter(fabric=fabric).delete()
    CorruptionEvent.objects.filter(link__fabric=fabric).delete()
    fabs = list(Switch.objects.filter(fabric=fabric, tier=1).values_list("id", flat=True))
    tors = list(Switch.objects.filter(fabric=fabric, tier=0).values_list("id", flat=True))
    now = timezone.now()
    used: set[int] = set()
    orders: list[WorkOrder] = []
    events: list[CorruptionEvent] = []
    maintenance: dict[str, Any] = settings.MAINTENANCE
    durations: dict[str, int] = maintenance["duration_s"]
    while len(orders) < count:
        cable = rng.random() < 0.5
        switch = rng.choice(fabs if cable else tors)
        links = list(
            Link.objects.filter(a_switch_id=switch, admin_state="enabled", oper_state="up")
            .order_by("a_port")
            .values_list("id", flat=True)
        )
        footprint = links if cable else [rng.choice(links)] if links else []
        if not footprint or used & set(footprint):
            continue
        used |= set(footprint)
        action = "replace_cable" if cable else "replace_transceiver"
        orders.append(
            WorkOrder(
                fabric=fabric,
                action=action,
                component=f"bench:{switch}:{footprint[0]}",
                component_name=f"bench {action} {footprint[0]}",
                footprint=footprint,
                duration_s=durations[action],
                success_chance=0.8,
            )
        )
        rate = 10 ** rng.uniform(-6, -3)
        events.append(
            CorruptionEvent(
                link_id=rng.choice(footprint),
                direction="a_to_z",
                rate=rate,
                last_rate=rate,
                peak_rate=rate,
                first_seen=now,
                last_seen=now,
            )
        )
    WorkOrder.objects.bulk_create(orders)
    CorruptionEvent.objects.bulk_create(events)


class HeadroomTimer:
    """Wraps the plan's headroom call to time it alone (the real function runs)."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.cpu_seconds = 0.0
        self.real = headroom_module.headroom

    def __call__(self, *args: Any) -> Any:
        start, cpu = time.perf_counter(), time.process_time()
        try:
            return self.real(*args)
        finally:
            self.seconds += time.perf_counter() - start
            self.cpu_seconds += time.process_time() - cpu


def timed(label: str, fabric: Fabric, orders: int, technicians: int) -> None:
    open_orders(fabric, orders)
    timer = HeadroomTimer()
    plan_module.headroom = timer  # type: ignore[assignment]
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        result = plan_fabric(fabric, PlanParams(technicians=technicians, shift_hours=8.0))
    finally:
        plan_module.headroom = timer.real
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    unsafe = sum(not order["safe_alone"] for order in result["work_orders"])
    quality = "proven optimal" if result["proven_optimal"] else f"gap {result['gap']:.1%}"
    # One engine evaluate per distinct set of visits in progress (none for an idle stretch).
    evaluates = len({tuple(interval["visits"]) for interval in result["headroom"] if interval["visits"]})
    print(
        f"| {label} | {orders} | {technicians} | {wall * 1000:,.0f} ms | {cpu * 1000:,.0f} ms | {unsafe} "
        f"| {len(result['visits'])} | {result['expected_penalty_hours']:.4g} | {result['fifo_penalty_hours']:.4g} "
        f"| {result['expected_penalty_hours'] / result['fifo_penalty_hours']:.3f} | {quality} "
        f"| {len(result['headroom'])} / {evaluates} / {timer.seconds * 1000:,.0f} ms "
        f"({timer.cpu_seconds * 1000:,.0f} ms CPU) |",
        flush=True,
    )


def main() -> None:
    pods = int(sys.argv[1]) if len(sys.argv) > 1 else 64
    demo_document = json.loads((Path(settings.REPO_ROOT) / "fixtures" / "data" / "demo-fb.json").read_text())
    demo_document["name"] = "bench-plan-demo"
    name = f"bench-plan-fb-{pods}"
    Fabric.objects.filter(name__in=[name, demo_document["name"]]).delete()
    demo = services.import_document(demo_document)
    document = fb_fabric(pods, name=name, seed=1)
    big = services.import_document(document)
    print(f"<!-- fb_fabric({pods}): {len(document['switches'])} switches, {len(document['links'])} links -->")
    print(
        "| fabric | orders | technicians | wall | CPU (this process) | unsafe alone | visits "
        "| expected penalty-h | FIFO penalty-h | plan / FIFO | search | headroom: intervals / evaluates / wall (CPU) |\n"
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    )
    try:
        timed("demo (192 links)", demo, 10, 2)
        timed(f"fb_fabric({pods}) ({len(document['links']):,} links)", big, 10, 2)
        timed(f"fb_fabric({pods}) ({len(document['links']):,} links)", big, 200, 20)
        timed(f"fb_fabric({pods}) ({len(document['links']):,} links)", big, 1000, 20)
    finally:
        services.delete_fabric(demo)
        services.delete_fabric(big)


if __name__ == "__main__":
    main()
