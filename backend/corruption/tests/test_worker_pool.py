"""50 simultaneous corruption events through a real pool of 2 Celery worker processes (issue #5).

One telemetry batch makes 50 links of a k=8 fat tree corrupting at once; ingest's commit hook
enqueues 50 decide_event tasks, which the two processes take concurrently and the per-fabric
advisory lock serialises. ToRs there have 16 up-paths and must keep 12, so many of the 50 are
refused.
"""

import datetime as dt
import functools
import random
import re
import time
from collections import Counter
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import timezone

import lightpath_engine
from corruption import services
from corruption.models import Decision
from fabric import services as fabric_services
from fabric.models import Link
from fabric.services.engine import engine_fabric
from lightpath.tests.workers import worker
from lightpath_fixtures.generators import fat_tree
from telemetry.models import CorruptionEvent
from telemetry.services.ingest import ingest

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

EVENTS = 50
PAUSED_WORKER = Path(__file__).with_name("paused_worker.py")


@pytest.fixture
def worker_pool(django_db_setup, tmp_path):
    """A Celery worker with 2 processes on its own queue (emptied first) and the test database,
    its decisions paused 50-250 ms after reading the fabric (paused_worker.py) to make overlaps likely."""
    queue = f"{settings.CELERY_TASK_DEFAULT_QUEUE}-pool"
    log = tmp_path / "worker.log"
    with worker(
        [queue], log, name="corr-pool", env={"LIGHTPATH_QUEUE": queue}, concurrency=2, pool="prefork", paused=True
    ) as started:
        assert len(started.pool_pids()) == 2
        yield queue, log


def corrupting_batch(links: list[Link], rng: random.Random) -> list[dict]:
    """Two polls 15 minutes apart of each link's Z end (the receiver of a_to_z), so every link
    opens an event in this one batch. Links from one lower switch get similar rates (corrupting
    links that cluster start together at similar rates, reference section 1), so tasks are queued
    switch by switch and the two processes take sibling links, which conflict, at the same time."""
    start = timezone.now().replace(microsecond=0) - dt.timedelta(minutes=30)
    switches = sorted({link.a_switch_id for link in links})
    rng.shuffle(switches)
    base = {switch_id: 20 * (rank + 1) for rank, switch_id in enumerate(switches)}  # FCS errors per 1M
    samples = []
    for link in links:
        errors = base[link.a_switch_id] + rng.randint(0, 9)
        for i in range(2):
            samples.append(
                {"switch": link.z_switch.name, "port": link.z_port, "time": start + dt.timedelta(minutes=15 * i),
                 "in_pkts": 1_000_000 * i, "in_fcs_errors": errors * i}
            )  # fmt: skip
    return samples


def test_fifty_simultaneous_events_on_one_fabric(worker_pool, monkeypatch):
    queue, log = worker_pool
    fabric = fabric_services.import_document({**fat_tree(8), "capacity_constraint": 0.75})
    rng = random.Random(7)
    candidates = list(
        Link.objects.filter(fabric=fabric, a_switch__pod__in=[0, 1]).select_related("z_switch").order_by("id")
    )
    corrupting = rng.sample(candidates, EVENTS)
    monkeypatch.setattr(services, "enqueue_decisions", functools.partial(services.enqueue_decisions, queue=queue))

    result = ingest(fabric, corrupting_batch(corrupting, rng), derive=True)  # commits, then enqueues 50 tasks
    assert len(result.events_opened) == EVENTS

    deadline = time.monotonic() + 180
    while Decision.objects.filter(fabric=fabric).count() < EVENTS:
        assert time.monotonic() < deadline, f"only {Decision.objects.count()} decided:\n{log.read_text()[-3000:]}"
        time.sleep(0.2)
    time.sleep(1)  # a duplicate, if one were coming, would land now

    # Every event decided exactly once.
    decisions = list(Decision.objects.filter(fabric=fabric).order_by("id"))
    per_event = Counter(d.event_id for d in decisions)
    assert set(per_event) == set(result.events_opened) and set(per_event.values()) == {1}
    actions = Counter(d.action for d in decisions)
    assert actions["disabled"] > 0 and actions["kept"] > 0, actions
    # Both processes of the pool took tasks.
    processes = set(re.findall(r"/(ForkPoolWorker-\d+)\] Task corruption\.decide_event", log.read_text()))
    assert len(processes) == 2, processes

    # No ToR under its constraint, from the final database state.
    assert fabric_services.fabric_capacity(fabric)["summary"]["below_constraint"] == 0
    for decision in decisions:
        decision.link.refresh_from_db()
        expected = ("disabled", "corruption") if decision.action == "disabled" else ("enabled", "")
        assert (decision.link.admin_state, decision.link.admin_reason) == expected

    # A kept link names a ToR that really was at its floor, and disabling it now still breaks it.
    state = engine_fabric(fabric)
    index_of_switch = {switch_id: i for i, switch_id in enumerate(state.switch_ids)}
    for decision in (d for d in decisions if d.action == "kept"):
        blocking = next(row for row in decision.affected if row["switch"] == decision.blocking_tor_id)
        assert blocking["paths_after"] < blocking["required_paths"] <= blocking["paths_before"]
        assert decision.blocking_tor_fraction == blocking["fraction_before"]
        [now] = lightpath_engine.corropt_check(
            state.graph,
            [(state.link_index[decision.link_id], decision.loss_rate_a_to_z, decision.loss_rate_z_to_a)],
            state.link_states,
            capacity=state.capacity,
        )
        assert not now["disabled"] and index_of_switch[decision.blocking_tor_id] in now["refusal"]["tors"]

    # Serialised: replaying the decisions in commit order from the all-enabled fabric on one
    # engine session gives the same actions, so each saw exactly the disables before it.
    replay = lightpath_engine.CorrOptSession(state.graph, None, capacity=state.capacity)
    for decision in decisions:
        check = replay.check(
            state.link_index[decision.link_id], decision.loss_rate_a_to_z, False, decision.loss_rate_z_to_a
        )
        assert check["disabled"] == (decision.action == "disabled"), decision
    assert CorruptionEvent.objects.filter(pk__in=result.events_opened, ended_at__isnull=True).count() == EVENTS
