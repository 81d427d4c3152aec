"""TELEMETRY_TRENDS (env LIGHTPATH_TELEMETRY_TRENDS, on by default): off, derivation keeps no
optical trends and makes no forecasts (what BENCHMARKS.md's "Derivation with forecasting" measures
against); everything else is derived as before. Turned on again, trends start from the next polls
and forecasts come back once a few days of them are in."""

import datetime as dt
import random

import pytest
from django.test import override_settings

from fabric.models import Link
from telemetry.models import Checkpoint, Derivation, EndState, LinkForecast
from telemetry.services import derivation
from telemetry.services.ingest import ingest

from .test_forecast_derivation import POLL, T0, falling, flat, polls

pytestmark = pytest.mark.django_db

NOW = T0 + dt.timedelta(days=10)


def derive_every(fabric, rows: list[dict], batch: dt.timedelta, capture) -> list[derivation.DerivationResult]:
    """Ingest time-ordered `rows` a batch of `batch` at a time, deriving after each as the worker does."""
    results = []
    start = 0
    while start < len(rows):
        until = rows[start]["time"] + batch
        end = next((i for i in range(start, len(rows)) if rows[i]["time"] >= until), len(rows))
        ingest(fabric, rows[start:end], now=NOW)
        with capture(execute=True):
            results.append(derivation.derive(fabric))
        start = end
    return results


def stored_state(fabric):
    """The fabric's engine state as a restarted worker restores it from the checkpoint."""
    derivation.forget_cached_state()
    return derivation.restore(fabric, Derivation.objects.get(fabric=fabric).watermark)


def test_with_trends_off_a_falling_receiver_gets_no_forecast_until_they_are_on_again(
    small_fabric, django_capture_on_commit_callbacks
):
    derivation.forget_cached_state()
    link = Link.objects.get(fabric=small_fabric, a_switch__name="t0", a_port="up0")
    # t0's receiver loses 0.6 dB a day from -3 dBm: -10.3 dBm (the catalog's low limit) at day 12.2.
    rows = polls(9, random.Random(5), rx_a=falling(-3.0, -0.6), rx_z=flat(-2.6), tx_a=flat(-1.8), tx_z=flat(-1.5))
    first_days = [row for row in rows if row["time"] < T0 + dt.timedelta(days=4)]

    with override_settings(TELEMETRY_TRENDS=False):
        results = derive_every(small_fabric, first_days, dt.timedelta(hours=8), django_capture_on_commit_callbacks)
        state = stored_state(small_fabric)
        off_bytes = len(Checkpoint.objects.get(fabric=small_fabric).data)
    assert not LinkForecast.objects.filter(link=link).exists()
    # (The first run judges every link by the fabric's horizon once, and finds nothing to report.)
    assert all(r.forecasts == 0 for r in results) and all(r.forecast_links == [] for r in results[1:])
    assert state.trend(link.pk, False) is None and state.trend(link.pk, True) is None
    # The rest is derived as with trends: the end's newest reading and class are there.
    end = EndState.objects.get(link=link, side="a")
    assert end.optical_time == first_days[-2]["time"] and end.rx_class == "ok"

    # On again (the default): trends start from the next polls; after four more days the link is at risk.
    derive_every(small_fabric, rows[len(first_days) :], dt.timedelta(hours=8), django_capture_on_commit_callbacks)
    forecast = LinkForecast.objects.get(link=link)
    assert forecast.cause == "contamination" and (forecast.side, forecast.quantity) == ("a", "rx")
    assert forecast.slope_db_per_day == pytest.approx(-0.6, abs=0.1)
    state = stored_state(small_fabric)
    buckets = state.trend(link.pk, False)["rx"][0]["buckets"]
    assert buckets and min(end_us for end_us, _ in buckets) > (T0 + dt.timedelta(days=4) - POLL).timestamp() * 1e6
    assert len(Checkpoint.objects.get(fabric=small_fabric).data) > off_bytes
