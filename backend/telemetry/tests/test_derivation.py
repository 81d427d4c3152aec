"""Derivation (services/derivation.py and the engine) against the plain-Python statement of the
rules (reference.py), on random counter sequences with resets, wraps, gaps and out-of-order polls,
ingested in random batches and derived in random runs (one run may take several batches), with
the engine's cached state dropped at random points (a restarted worker, or another worker
process, rebuilds it from the stored rows): the same windows, rates, health and events."""

import datetime as dt
import random

import pytest

from fabric.models import Link
from telemetry.models import CorruptionEvent, Derivation, DirectionHealth, EndState
from telemetry.services import derivation
from telemetry.services.ingest import ingest
from telemetry.services.rules import COUNTERS

from . import reference

T0 = dt.datetime(2026, 11, 20, 0, 0, tzinfo=dt.UTC)
NOW = T0 + dt.timedelta(days=3)


def random_polls(rng: random.Random, count: int) -> list[dict]:
    """Counter polls of f0:d0 (side Z of t0:up0): mostly every 15 minutes, sometimes early,
    late or very late; counters that grow, now and then reset or wrap; corruption that comes
    and goes across the action threshold."""
    polls, time, pkts, fcs, out, drops = [], T0, 10**12, 0, 10**12, 0
    rate = 0.0
    for _ in range(count):
        time += dt.timedelta(minutes=rng.choice([15, 15, 15, 5, 10, 20, 30, 40, 50, 240]))
        if rng.random() < 0.2:
            rate = rng.choice([0.0, 0.0, 1e-9, 5e-8, 2e-6, 1e-4])
        frames = rng.choice([500, 10**5, 10**6, 10**7])
        errors = int(frames * rate + rng.random())
        if rng.random() < 0.07:
            pkts, fcs, out, drops = rng.randrange(100), 0, rng.randrange(100), 0  # device reset
        elif rng.random() < 0.03:
            pkts = 2**64 - 1 - rng.randrange(10**6)  # about to wrap
        pkts = (pkts + frames) % 2**64
        fcs += errors
        out += frames
        drops += rng.randrange(3) if rng.random() < 0.3 else 0
        polls.append({"switch": "f0", "port": "d0", "time": time, "in_pkts": pkts, "in_fcs_errors": fcs,
                      "out_pkts": out, "out_discards": drops})  # fmt: skip
    return polls


def reference_outcome(polls: list[dict], fabric):
    settings = reference.WindowSettings.of(fabric)
    state = reference.CounterWindow()
    windows, corruption, health, events = 0, None, reference.UNKNOWN, []
    for poll in sorted(polls, key=lambda p: p["time"]):
        counters = {k: poll[k] for k in COUNTERS if k in poll}
        rates = reference.advance(state, poll["time"], counters, settings)
        if rates is None:
            continue
        windows += 1
        if rates.rx_corruption is None:
            continue
        corruption = rates.rx_corruption
        after = reference.health_of(corruption, fabric.corruption_action_threshold, fabric.corruption_report_threshold)
        if after == reference.CORRUPTING and health != reference.CORRUPTING:
            events.append([rates.time, None])
        elif after != reference.CORRUPTING and health == reference.CORRUPTING:
            events[-1][1] = rates.time
        health = after
    return windows, corruption, health, [tuple(e) for e in events]


@pytest.mark.django_db
@pytest.mark.parametrize("seed", range(25))
def test_derivation_equals_the_reference(small_fabric, seed, django_capture_on_commit_callbacks):
    rng = random.Random(seed)
    polls = random_polls(rng, rng.randrange(5, 60))
    expected_windows, expected_rate, expected_health, expected_events = reference_outcome(polls, small_fabric)

    # Live polls arrive in order, in batches of any size (a backfill is one big batch); the
    # derivation task runs after some of them, and the worker's cached state is sometimes lost.
    derivation.forget_cached_state()
    windows, start, rebuilt = 0, 0, 0
    while start < len(polls):
        size = rng.choice([1, 1, 2, 5, len(polls)])
        ingest(small_fabric, polls[start : start + size], now=NOW)
        start += size
        if rng.random() < 0.5 or start >= len(polls):
            if rng.random() < 0.3:
                derivation.forget_cached_state()
            with django_capture_on_commit_callbacks(execute=True):  # the cache is kept on commit
                run = derivation.derive(small_fabric)
            windows += run.windows
            rebuilt += run.rebuilt

    link = Link.objects.get(fabric=small_fabric, a_switch__name="t0", a_port="up0")
    assert windows == expected_windows
    health = DirectionHealth.objects.filter(link=link, direction="a_to_z").first()
    if expected_rate is None:
        assert health is None or health.corruption_rate is None
    else:
        assert health.corruption_rate == pytest.approx(expected_rate, rel=1e-12)
        assert health.health == expected_health
    events = [(e.first_seen, e.ended_at) for e in CorruptionEvent.objects.filter(link=link).order_by("first_seen")]
    assert events == expected_events
    assert rebuilt >= 1  # the first run builds the state; later ones mostly reuse it


@pytest.mark.django_db
@pytest.mark.parametrize("cache_dropped", [False, True])
def test_a_deleted_links_state_leaves_the_checkpoint(small_fabric, cache_dropped, django_capture_on_commit_callbacks):
    def poll(minutes: int, switch: str, port: str) -> dict:
        return {"switch": switch, "port": port, "time": T0 + dt.timedelta(minutes=minutes),
                "in_pkts": 10**6 * minutes, "in_fcs_errors": 0, "input_power_dbm": -2.5}  # fmt: skip

    derivation.forget_cached_state()
    ingest(small_fabric, [poll(0, "f0", "d0"), poll(0, "f1", "d0")], now=NOW)
    with django_capture_on_commit_callbacks(execute=True):
        derivation.derive(small_fabric)
    kept = Link.objects.get(fabric=small_fabric, a_switch__name="t0", a_port="up0")
    Link.objects.get(fabric=small_fabric, a_switch__name="t0", a_port="up1").delete()
    if cache_dropped:
        derivation.forget_cached_state()
    ingest(small_fabric, [poll(15, "f0", "d0")], now=NOW)
    with django_capture_on_commit_callbacks(execute=True):
        assert derivation.derive(small_fabric).windows == 1

    progress = Derivation.objects.get(fabric=small_fabric)
    state = derivation.restore(small_fabric, progress.watermark)
    assert state.num_ends == 1
    assert EndState.objects.get(link=kept, side="z").input_power_dbm == pytest.approx(-2.5)
