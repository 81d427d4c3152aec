"""`forecasts.write` and `forecasts.refresh` (issue #19, session 30): the stored at-risk state is
read once a run, a link losing its row is announced cleared before the row goes, and the demo
loader's refresh makes every link's forecast at its own time with the run's hysteresis."""

import datetime as dt
import json
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from fabric.models import Link
from telemetry.models import LinkForecast
from telemetry.services import derivation, forecasts
from telemetry.tests.factories import forecast_row
from telemetry.tests.test_forecast_derivation import NOW, derive_in_batches, falling, flat, polls
from webhooks import services as webhooks
from webhooks.models import WebhookDelivery, WebhookEndpoint, WebhookEvent

pytestmark = pytest.mark.django_db


@pytest.fixture
def link(small_fabric):
    derivation.forget_cached_state()
    return Link.objects.get(fabric=small_fabric, a_switch__name="t0", a_port="up0")


@pytest.fixture
def subscriber(small_fabric):
    # Events are written only for a fabric someone listens to; nothing is sent in these tests.
    return WebhookEndpoint.objects.create(
        fabric=small_fabric, name="alerts", payload_url="https://alerts.example.net/hook", secret="s3cret"
    )


def test_a_link_whose_row_write_deletes_still_gets_its_risk_cleared(small_fabric, link, subscriber):
    """The engine no longer reports the link (its optics no longer head for a limit): `write` drops
    its row, and the subscriber hears the link is no longer at risk, from the row as it was."""
    was = forecast_row(link, days=2, cause="contamination")
    state = derivation.restore(small_fabric, 0)  # the engine knows no trend of this link
    with CaptureQueriesContext(connection) as queries, connection.cursor() as cursor:
        links, reported = forecasts.write(cursor, small_fabric, state, NOW, links=[link.pk])
    assert (links, reported) == ([link.pk], 0)
    assert not LinkForecast.objects.filter(link=link).exists()
    (event,) = WebhookEvent.objects.filter(kind="link.risk_cleared")
    body = json.loads(webhooks.request_body(WebhookDelivery.objects.get(event=event)))
    assert (body["link"]["id"], body["reason"], body["forecast"]) == (link.pk, "no_forecast", None)
    # The stored at-risk state was read once (the hysteresis and the announcement share it), and
    # before the row was deleted.
    reads = [i for i, q in enumerate(queries.captured_queries) if "LEFT JOIN telemetry_linkforecast" in q["sql"]]
    deletes = [i for i, q in enumerate(queries.captured_queries) if q["sql"].startswith("DELETE FROM telemetry_link")]
    assert len(reads) == 1 and len(deletes) == 1 and reads[0] < deletes[0], queries.captured_queries
    assert was.at_risk


def test_refresh_makes_every_forecast_at_the_given_time_and_keeps_it_at_risk(
    small_fabric, link, subscriber, django_capture_on_commit_callbacks
):
    """The demo loader's step: derivation forecast the link when its bucket last closed, hours
    before the newest sample; after `refresh` the forecast is made at the time given, still at risk
    (the run's hysteresis), and no subscriber hears anything new."""
    rows = polls(4, random.Random(1), rx_a=falling(-3.0, -1.2), rx_z=flat(-2.6), tx_a=flat(-1.8), tx_z=flat(-1.5))
    derive_in_batches(small_fabric, rows, dt.timedelta(hours=8), django_capture_on_commit_callbacks)
    before = LinkForecast.objects.get(link=link)
    later = rows[-1]["time"] + dt.timedelta(hours=3)  # the bucket closes every 6 h: up to 6 h old
    assert before.at_risk and before.computed_at < later
    events = WebhookEvent.objects.count()

    links, reported = forecasts.refresh(small_fabric, later)
    assert set(links) == set(Link.objects.filter(fabric=small_fabric).values_list("id", flat=True))
    after = LinkForecast.objects.get(link=link)
    assert after.computed_at == later and reported >= 1
    assert after.at_risk and after.cause == "contamination"
    # Made later on the same trend, it crosses at about the same time.
    assert abs(after.crossing_at - before.crossing_at) < dt.timedelta(hours=12)
    assert WebhookEvent.objects.count() == events
