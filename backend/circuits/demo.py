"""Demo content for circuit schedules (`make demo`): one circuit switch on the demo fabric with every
ToR attached (one optical port each), a small demand series with hot pairs that move, and one
schedule job comparing exact, greedy and round-robin. Safe to run twice."""

import random

from django.db import transaction

from fabric.models import Fabric
from jobs import services as jobs

from . import schedule, services
from .models import CircuitSwitch, Demand

SWITCH_NAME = "ocs-1"
DEMAND_NAME = "demo hot pairs"
WINDOWS = 8
MB = 1_000_000


def demand_csv(tors: list[str], seed: int = 4) -> str:
    """Background chatter between random racks plus hot pairs (a shuffle between pods) that change
    partners halfway through, so circuits move once and the heat map has a few bright cells."""
    rng = random.Random(seed)  # noqa: S311  (seeded demo data, not cryptography)
    half = len(tors) // 2
    lines = ["src,dst,bytes,window_start"]
    for window in range(WINDOWS):
        shift = 0 if window < WINDOWS // 2 else 1
        for i in range(0, half, 2):
            src, dst = tors[i], tors[half + (i + 2 * shift) % half]
            lines.append(f"{src},{dst},{rng.randint(600, 1200) * MB},{window}")
            lines.append(f"{dst},{src},{rng.randint(50, 200) * MB},{window}")
        for _ in range(len(tors)):
            src, dst = rng.sample(tors, 2)
            lines.append(f"{src},{dst},{rng.randint(1, 80) * MB},{window}")
    return "\n".join(lines) + "\n"


@transaction.atomic
def load(fabric: Fabric) -> None:
    switch = CircuitSwitch.objects.filter(fabric=fabric, name=SWITCH_NAME).first()
    if switch is None:
        attachments = services.all_tor_attachments(fabric)
        switch = CircuitSwitch.objects.create(
            fabric=fabric,
            name=SWITCH_NAME,
            zone="zone-a",
            port_count=max(len(attachments), 1),
            dark_time_s=0.01,
            capacity_gbps=100.0,
            description="Demo optical circuit switch: every ToR of the demo fabric, one port each.",
        )
        services.replace_attachments(switch, attachments)
    if Demand.objects.filter(fabric=fabric, name=DEMAND_NAME).exists():
        return
    tors = sorted(services.tor_ids_by_name(fabric))
    demand = services.create_demand(
        fabric, DEMAND_NAME, text=demand_csv(tors), window_s=1.0, description="Synthetic: hot pairs move at 4 s."
    )
    request = schedule.validate_request(
        {"demand": demand.pk, "circuit_switch": switch.pk, "params": {"compare": ["greedy", "round_robin"]}}, fabric
    )
    jobs.submit(schedule.JOB_KIND, fabric=fabric, params=request)
