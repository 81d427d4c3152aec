"""The maintenance plan against first in first out on ticket sets drawn from the seed's statistics
(issue #18, "Performance": the plan's expected penalty-hours against FIFO's, as a ratio).

Usage, from the repository root (writes one generated fabric to the database and removes it):

    eval "$(backend/scripts/devstack.sh env)"
    .venv/bin/python backend/scripts/eval_plan_seed.py [--pods 40] [--seeds 10] [--technicians 1 2 4]

A ticket set is the backlog open at one moment of a run (seed 000, CorrOpt):
- onsets: the engine's trace generator (lightpath_engine.corropt_trace: per-link Poisson onsets at
  `--mttf-hours`, loss rates from Table 3.1's buckets) over the last `--backlog-hours` (48: the
  seed's two days of service time, so every older onset has been worked on already);
- each onset's root cause by Table 3.2, the midpoint of each share's range (the ranges overlap,
  so the midpoints are used as relative weights), and the repair the recommendation engine gives
  for it: contamination -> clean the fiber, bent or damaged fiber -> replace the cable (and it
  corrupts both ways), decaying transmitter -> replace the far transceiver, bad or loose
  transceiver -> reseat it, shared component -> replace the breakout (its siblings corrupt too, at
  rates within 10x: the seed's co-located links that "start together and at similar rates");
- CorrOpt's fast checker (the session's `check`) in onset order: a link is disabled when no ToR
  falls under its constraint, else it stays in service, corrupting, on the watch list;
- every disabled link gets a ticket; the product's own code turns tickets into work orders:
  maintenance.services.footprints (footprints, by fabric.services.components' port rule),
  work_orders.group / order_fields (tickets sharing links are one order, its duration and chance
  from settings MAINTENANCE) and the location rules of maintenance.services.plan;
- an order's penalty rate is what tickets.plan gives the planner: the CorrOpt linear penalty of the
  corrupting links it repairs that are still in service (a disabled link costs no corruption); an
  order whose footprint alone is unsafe gets the least-penalty capacity restoration (engine.restore
  over the links disabled for corruption), or none when none exists.

Then the planner (fabric.services.engine.maintenance_plan, FIFO on the same input by ascending order
id, i.e. by its first ticket's onset) for each technician count with an `--shift-hours` shift, and
again with every order's chance of success at the seed's 0.5 (recommendation not followed).

It needs Django (settings MAINTENANCE, the component rule, the footprint and grouping services and
the engine door read the database), hence backend/scripts and not workers/engine/scripts.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

BACKEND = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(BACKEND))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lightpath.settings")

import django  # noqa: E402

django.setup()

import random  # noqa: E402

import lightpath_engine  # noqa: E402
from corruption.recommend import Action  # noqa: E402
from fabric.models import Fabric, Link, Switch  # noqa: E402
from fabric.services import components, engine  # noqa: E402
from maintenance.services import footprints, work_orders  # noqa: E402
from maintenance.services.plan import default_travel  # noqa: E402

HOUR_S = 3600.0

# Table 3.2 (reference/corropt.md section 2): root cause, the midpoint of its share's range (%),
# the repair recommended for it.
ROOT_CAUSES: tuple[tuple[str, float, Action], ...] = (
    ("connector contamination", (17 + 57) / 2, Action.CLEAN_FIBER),
    ("bent or damaged fiber", (14 + 48) / 2, Action.REPLACE_CABLE),
    ("decaying transmitter", 0.5, Action.REPLACE_FAR_TRANSCEIVER),
    ("bad or loose transceiver", (6 + 45) / 2, Action.RESEAT_TRANSCEIVER),
    ("shared component", (10 + 26) / 2, Action.REPLACE_SHARED_COMPONENT),
)
BREAKOUT_RULE = "shared_component.breakout"
SIBLING_RATE_RATIO = 10.0  # co-located links corrupt "at similar rates": within 10x (corropt.md default 10)


@dataclass
class TicketSet:
    """The backlog open at one moment, as the planner is given it."""

    orders: list[engine.PlanOrder]
    all_open_rates: dict[int, float]  # order id -> penalty of every corrupting link it repairs, disabled too
    session: lightpath_engine.CorrOptSession  # links disabled for corruption are disabled in it
    corrupting: int  # links open (corrupting) at the moment, breakout siblings included
    corrupting_in_service: int  # refused by the fast checker
    unordered_in_service: int  # ... of which no order repairs (no ticket shares their links)


@dataclass(frozen=True)
class Fabricated:
    """What the evaluation reads of the stored fabric once."""

    fabric: Fabric
    state: engine.EngineFabric
    found: components.Components
    link_ends: dict[int, tuple[int, int]]  # link id -> (a switch id, z switch id)
    switches: dict[int, tuple[str, str, int | None]]  # switch id -> (name, rack, pod)


def load(fabric: Fabric) -> Fabricated:
    return Fabricated(
        fabric=fabric,
        state=engine.engine_fabric(fabric),
        found=components.resolve(fabric_id=fabric.pk),
        link_ends={pk: (a, z) for pk, a, z in Link.objects.filter(fabric=fabric).values_list("id", "a_switch_id", "z_switch_id")},
        switches={pk: (name, rack, pod) for pk, name, rack, pod in Switch.objects.filter(fabric=fabric).values_list("id", "name", "rack", "pod")},
    )  # fmt: skip


def recommended_repair(rng: random.Random) -> Action:
    """The repair for a root cause drawn by Table 3.2's weights."""
    pick = rng.uniform(0.0, sum(weight for _, weight, _ in ROOT_CAUSES))
    for _, weight, action in ROOT_CAUSES:
        pick -= weight
        if pick < 0:
            return action
    return ROOT_CAUSES[-1][2]


def ticket_set(
    fab: Fabricated, seed: int, *, mttf_hours: float, backlog_hours: float, success_chance: float
) -> TicketSet:
    """The backlog of one run (module docstring), deterministic in `seed`."""
    state = fab.state
    link_ids = list(state.link_index)  # engine index -> link id
    session = lightpath_engine.CorrOptSession(
        state.graph, state.link_states, capacity=state.capacity, overrides=state.overrides
    )
    rng = random.Random(seed)  # noqa: S311 (a seeded evaluation, not cryptography)
    rates: dict[int, tuple[float, float]] = {}  # corrupting link id -> (a_to_z, z_to_a)
    advices: list[footprints.StepAdvice] = []
    onsets = lightpath_engine.corropt_trace(state.graph, mttf_hours, backlog_hours, seed)
    for _, index, rate in onsets:
        link = link_ids[index]
        if link in rates:
            continue  # already corrupting: one ticket per link
        action = recommended_repair(rng)
        direction = rng.choice(("a_to_z", "z_to_a"))
        group = [link]
        if action == Action.REPLACE_SHARED_COMPONENT:
            siblings = [pk for pk in fab.found.sharing(fab.found.of(link).breakout) if pk != link and pk not in rates]
            group += siblings
        for member in group:
            member_rate = rate if member == link else min(rate * SIBLING_RATE_RATIO ** rng.uniform(-1, 1), 1.0)
            both = action == Action.REPLACE_CABLE
            up = member_rate if both or direction == "a_to_z" else 0.0
            down = member_rate if both or direction == "z_to_a" else 0.0
            rates[member] = (up, down)
            decision = session.check(state.link_index[member], up, False, down)
            if decision["disabled"]:
                rule = BREAKOUT_RULE if action == Action.REPLACE_SHARED_COMPONENT else ""
                advices.append(footprints.StepAdvice(len(advices) + 1, member, direction, str(action), rule, {}))
    in_service = {pk for pk in rates if session.link_state(state.link_index[pk]) == "enabled"}
    repaired = footprints.repairs(advices)
    orders: list[engine.PlanOrder] = []
    racks: dict[str, int] = {}
    rows: dict[str, int] = {}
    covered: set[int] = set()
    all_open_rates: dict[int, float] = {}
    disabled = {pk: rates[pk] for pk in rates if pk not in in_service}
    for repairs_of_order in work_orders.group(repaired):
        fields = work_orders.order_fields(repairs_of_order)
        footprint = fields["footprint"]
        fixes = set(footprint) | {repair.link for repair in repairs_of_order}
        covered |= fixes
        a, z = fab.link_ends[fields["location_link_id"]]
        name, rack, pod = fab.switches[z if fields["location_side"] == "z" else a]
        rack = rack or name
        restoration: engine.Restoration | None = None
        if not session.evaluate([(state.link_index[pk], "disabled") for pk in footprint])["safe"]:
            usable = {pk: r for pk, r in disabled.items() if pk not in fixes}
            found = engine.restore(state, usable, footprint, session=session)
            restoration = found if found.restores_all and found.enable else None
        order_id = min(repair.ticket for repair in repairs_of_order)
        all_open_rates[order_id] = sum(
            lightpath_engine.corropt_penalty("linear", *rates[pk]) for pk in sorted(fixes & rates.keys())
        )
        orders.append(
            engine.PlanOrder(
                id=order_id,
                footprint=footprint,
                duration_s=fields["duration_s"],
                success_probability=success_chance,
                rack=racks.setdefault(rack, len(racks)),
                row=rows.setdefault(work_orders.row_of(rack, pod), len(rows)),
                penalty_rate=sum(
                    lightpath_engine.corropt_penalty("linear", *rates[pk]) for pk in sorted(fixes & in_service)
                ),
                restoration=None if restoration is None else restoration.enable,
                restoration_penalty_rate=0.0 if restoration is None else restoration.added_penalty,
            )
        )
    return TicketSet(
        orders=sorted(orders, key=lambda order: order.id),
        all_open_rates=all_open_rates,
        session=session,
        corrupting=len(rates),
        corrupting_in_service=len(in_service),
        unordered_in_service=len(in_service - covered),
    )


PRICINGS = ("in service", "every open link")  # see TicketSet and the module docstring
ACCURACIES = ("followed", "not followed")  # the seed's 0.8 and 0.5 success


@dataclass(frozen=True)
class Run:
    """One ticket set planned for one technician count, per pricing and accuracy."""

    seed: int
    technicians: int
    corrupting: int
    corrupting_in_service: int
    unordered_in_service: int
    orders: int
    with_penalty: int  # orders whose penalty rate (links in service) is above zero
    unsafe_alone: int
    without_restoration: int  # unsafe alone and no restoration exists
    plans: dict[tuple[str, str], lightpath_engine.MaintenancePlan]  # (pricing, accuracy) -> plan


def ratio(plan: lightpath_engine.MaintenancePlan) -> float | None:
    """Plan over FIFO expected penalty-hours; None when FIFO costs nothing (nothing to gain)."""
    return plan["expected_penalty_hours"] / plan["fifo_penalty_hours"] if plan["fifo_penalty_hours"] > 0 else None


def plan(
    fab: Fabricated, tickets: TicketSet, orders: Sequence[engine.PlanOrder], technicians: int, shift_hours: float,
    time_budget_s: float | None,
) -> lightpath_engine.MaintenancePlan:  # fmt: skip
    travel = default_travel()
    return engine.maintenance_plan(
        fab.state,
        orders,
        technicians=technicians,
        shift_s=round(shift_hours * HOUR_S),
        travel=(travel["same_rack_s"], travel["same_row_s"], travel["elsewhere_s"]),
        session=tickets.session,
        time_budget_s=time_budget_s,
    )


def evaluate(
    fab: Fabricated,
    seeds: Sequence[int],
    technicians: Sequence[int],
    *,
    shift_hours: float = 8.0,
    mttf_hours: float = 10_000.0,
    backlog_hours: float = 48.0,
    time_budget_s: float | None = None,
) -> list[Run]:
    """Every seed's ticket set planned for every technician count."""
    chances = {
        "followed": footprints.success_chance(followed=True),
        "not followed": footprints.success_chance(followed=False),
    }
    runs: list[Run] = []
    for seed in seeds:
        tickets = ticket_set(
            fab, seed, mttf_hours=mttf_hours, backlog_hours=backlog_hours, success_chance=chances["followed"]
        )
        unsafe = [
            order
            for order in tickets.orders
            if not tickets.session.evaluate([(fab.state.link_index[pk], "disabled") for pk in order.footprint])["safe"]
        ]
        inputs = {
            (pricing, accuracy): [
                replace(
                    order,
                    success_probability=chances[accuracy],
                    penalty_rate=order.penalty_rate if pricing == "in service" else tickets.all_open_rates[order.id],
                )
                for order in tickets.orders
            ]
            for pricing in PRICINGS
            for accuracy in ACCURACIES
        }
        for count in technicians:
            runs.append(
                Run(
                    seed=seed,
                    technicians=count,
                    corrupting=tickets.corrupting,
                    corrupting_in_service=tickets.corrupting_in_service,
                    unordered_in_service=tickets.unordered_in_service,
                    orders=len(tickets.orders),
                    with_penalty=sum(order.penalty_rate > 0 for order in tickets.orders),
                    unsafe_alone=len(unsafe),
                    without_restoration=sum(order.restoration is None for order in unsafe),
                    plans={
                        key: plan(fab, tickets, orders, count, shift_hours, time_budget_s)
                        for key, orders in inputs.items()
                    },
                )
            )
    return runs


def spread(values: Sequence[float], digits: str = ".3f") -> str:
    """The median, and (min-max) beside it."""
    if not values:
        return "n/a"
    if len(values) == 1:
        return format(values[0], digits)
    return f"{statistics.median(values):{digits}} ({min(values):{digits}}-{max(values):{digits}})"


def ratios(plans: Sequence[lightpath_engine.MaintenancePlan]) -> str:
    """spread() of plan / FIFO over the plans where FIFO costs something, and how many those are."""
    found = [r for r in map(ratio, plans) if r is not None]
    return f"{spread(found)} [{len(found)}]"


def ticket_table(runs: Sequence[Run]) -> str:
    """What the ticket sets held: medians over seeds, (min-max) beside them."""
    once = list({run.seed: run for run in runs}.values())

    def column(values: Sequence[float]) -> str:
        return spread(values, ".0f")

    return "\n".join(
        [
            "| seeds | corrupting links open | kept in service (none of them on an order) | work orders "
            "| orders with a penalty (in service) | unsafe alone (no restoration exists) |",
            "| --- | --- | --- | --- | --- | --- |",
            f"| {len(once)} | {column([r.corrupting for r in once])} "
            f"| {column([r.corrupting_in_service for r in once])} ({column([r.unordered_in_service for r in once])}) "
            f"| {column([r.orders for r in once])} | {column([r.with_penalty for r in once])} "
            f"| {column([r.unsafe_alone for r in once])} ({column([r.without_restoration for r in once])}) |",
        ]
    )


def plan_table(runs: Sequence[Run], shift_hours: float) -> str:
    """One row per pricing and technician count: plan / FIFO at both accuracies, the share of
    orders left for later and the search's quality, over the seeds."""
    lines = [
        f"| orders priced | technicians ({shift_hours:g} h) | plan / FIFO, p = 0.8 [seeds with FIFO > 0] "
        "| plan / FIFO, p = 0.5 | orders left for later, p = 0.8 | proven optimal | gap, p = 0.8 |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for pricing in PRICINGS:
        for count in sorted({run.technicians for run in runs}):
            plans = [run.plans[pricing, "followed"] for run in runs if run.technicians == count]
            low = [run.plans[pricing, "not followed"] for run in runs if run.technicians == count]
            left = [
                100 * len(run.plans[pricing, "followed"]["unscheduled"]) / run.orders
                for run in runs
                if run.technicians == count and run.orders
            ]
            gaps = [found["gap"] for found in plans if not found["proven_optimal"]]
            lines.append(
                f"| {pricing} | {count} | {ratios(plans)} | {ratios(low)} | {spread(left, '.0f')} % "
                f"| {sum(found['proven_optimal'] for found in plans)} of {len(plans)} | {spread(gaps, '.1%')} |"
            )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--pods", type=int, default=40, help="fb_fabric pods (40: 15,360 links, the seed's O(15K) DC)")
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--technicians", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--shift-hours", type=float, default=8.0)
    parser.add_argument("--mttf-hours", type=float, default=10_000.0)
    parser.add_argument("--backlog-hours", type=float, default=48.0)
    parser.add_argument("--time-budget-s", type=float, default=None, help="the planner's search budget (default 3 s)")
    parser.add_argument("--json", type=Path, default=None, help="also write every run's numbers here")
    args = parser.parse_args(argv)

    from fabric import services
    from lightpath_fixtures.generators import fb_fabric

    document = fb_fabric(args.pods, name=f"eval-plan-seed-fb-{args.pods}", seed=1)
    Fabric.objects.filter(name=document["name"]).delete()
    fabric = services.import_document(document)
    try:
        fab = load(fabric)
        seeds = range(args.first_seed, args.first_seed + args.seeds)
        runs = evaluate(
            fab,
            seeds,
            args.technicians,
            shift_hours=args.shift_hours,
            mttf_hours=args.mttf_hours,
            backlog_hours=args.backlog_hours,
            time_budget_s=args.time_budget_s,
        )
    finally:
        services.delete_fabric(fabric)
    print(
        f"<!-- fb_fabric({args.pods}): {len(document['links']):,} links; MTTF {args.mttf_hours:g} h, "
        f"backlog {args.backlog_hours:g} h, seeds {seeds.start}..{seeds.stop - 1} -->"
    )
    print(ticket_table(runs))
    print()
    print(plan_table(runs, args.shift_hours))
    if args.json:
        args.json.write_text(
            json.dumps(
                [
                    {
                        **{name: value for name, value in run.__dict__.items() if name != "plans"},
                        "plans": [
                            {
                                "pricing": pricing,
                                "accuracy": accuracy,
                                **{key: value for key, value in found.items() if key != "visits"},
                            }
                            for (pricing, accuracy), found in run.plans.items()
                        ],
                    }
                    for run in runs
                ],
                indent=1,
            )
        )


if __name__ == "__main__":
    main()
