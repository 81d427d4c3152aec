"""Demo content for circuit schedules (`make demo`): one circuit switch on the demo fabric with every
ToR attached (one optical port each), a small demand series with hot pairs that move, and one
schedule job comparing exact, greedy and round-robin. Beside it, a Larry circuit switch for pod 0
with uplink ports to spare, so /larry's "stored fabric" rack set has something to check. Safe to
run twice."""

import random

from django.db import transaction

from fabric.models import Fabric, Link
from jobs import services as jobs

from . import schedule, services
from .models import CircuitSwitch, Demand

SWITCH_NAME = "ocs-1"
# Sorts after ocs-1: the circuits pages and their Playwright journey pick the first switch by name.
LARRY_SWITCH_NAME = "ocs-larry"
LARRY_POD = 0
LARRY_CABLES_PER_TOR = 2  # a ToR's highest tier-1 links run through the switch; the rest stay static
LARRY_CS_UPLINKS = 8  # R: fewer than the pod's 16 cables, so racks share them (seed 003)
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


def load_larry_switch(fabric: Fabric) -> CircuitSwitch:
    """Pod 0's ToRs on one circuit switch, Larry-style: each ToR's two highest uplinks to tier 1
    are passive cables into the switch (so a link that is disabled, down or ticketed takes its
    cable out of the rack set), its other uplinks stay static (S), and R ports face aggregation.
    No zone: a ToR is also on ocs-1, and a zone may not hold a ToR twice."""
    switch = CircuitSwitch.objects.filter(fabric=fabric, name=LARRY_SWITCH_NAME).first()
    if switch is not None:
        return switch
    uplinks = Link.objects.filter(
        fabric=fabric, a_switch__tier=services.TOR_TIER, a_switch__pod=LARRY_POD, z_switch__tier=services.TOR_TIER + 1
    ).select_related("a_switch")
    by_tor: dict[int, list[Link]] = {}
    for link in sorted(uplinks, key=lambda link: (link.a_switch.name, link.a_port)):
        by_tor.setdefault(link.a_switch_id, []).append(link)
    carried = {tor: links[-LARRY_CABLES_PER_TOR:] for tor, links in by_tor.items() if len(links) > LARRY_CABLES_PER_TOR}
    attachments = [
        {"tor": links[0].a_switch, "optical_ports": LARRY_CABLES_PER_TOR, "links": links} for links in carried.values()
    ]
    cables = [link for links in carried.values() for link in links]
    switch = CircuitSwitch.objects.create(
        fabric=fabric,
        name=LARRY_SWITCH_NAME,
        port_count=len(cables) + LARRY_CS_UPLINKS,
        dark_time_s=0.01,
        # the speed of the links it carries: a circuit runs at the rate of its cables
        capacity_gbps=float(min((link.speed_gbps for link in cables if link.speed_gbps), default=100)),
        description=f"Larry demo: pod {LARRY_POD}'s ToRs, {LARRY_CABLES_PER_TOR} cables each (their highest uplinks), "
        f"{LARRY_CS_UPLINKS} ports to aggregation.",
    )
    services.replace_attachments(switch, attachments)
    return switch


@transaction.atomic
def load(fabric: Fabric) -> None:
    load_larry_switch(fabric)
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
