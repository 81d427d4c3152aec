"""`link.at_risk` and `link.risk_cleared` (issue #19, trial 27 "missing for a mature tool"): when
derivation's forecast flips a link's at-risk state, the fabric's endpoints hear it through the outbox,
with the forecast, as they hear admin and oper state changes."""

import datetime as dt
import json
import random

import pytest
from django.db import connection
from django.utils import timezone

from fabric.models import Link
from fabric.services import link_state
from telemetry.models import LinkForecast
from telemetry.services import derivation, forecasts
from telemetry.tests.factories import forecast_row
from telemetry.tests.test_forecast_derivation import derive_in_batches, falling, flat, polls
from webhooks import services
from webhooks.models import WebhookDelivery, WebhookEvent
from webhooks.tests.test_worker import safe_to_disable

pytestmark = pytest.mark.django_db

AT_RISK, CLEARED, CHANGED = "link.at_risk", "link.risk_cleared", "link.risk_changed"


def risk_events():
    return list(WebhookEvent.objects.filter(kind__in=[AT_RISK, CLEARED, CHANGED]).order_by("id"))


# The fabric's links get ids from these on: a link's bucket phase is a hash of its id. Before the
# contamination rule weighed the far end's fall against the near end's, the first at-risk forecast
# of this fall named no cause ("unknown") in some phases: ids 1032, 1050, 1056 and 1068 in the
# suite's order (session 28), the first link here being t0:up0.
@pytest.fixture(params=[1001, 1032, 1050, 1056, 1068])
def pinned_bucket_phase(db, request):
    with connection.cursor() as cursor:
        cursor.execute("SELECT setval(pg_get_serial_sequence('fabric_link', 'id'), %s)", [request.param - 1])
    return request.param


def test_a_falling_receiver_is_announced_once_with_its_forecast(
    pinned_bucket_phase, small_fabric, endpoint, django_capture_on_commit_callbacks
):
    """t0's receiver loses 1.2 dB a day (telemetry's contamination case), derived every 8 hours."""
    derivation.forget_cached_state()
    link = Link.objects.get(fabric=small_fabric, a_switch__name="t0", a_port="up0")
    rows = polls(5, random.Random(1), rx_a=falling(-3.0, -1.2), rx_z=flat(-2.6), tx_a=flat(-1.8), tx_z=flat(-1.5))
    derive_in_batches(small_fabric, rows, dt.timedelta(hours=8), django_capture_on_commit_callbacks)

    assert LinkForecast.objects.get(link=link).at_risk
    (event,) = risk_events()  # at risk over several runs since: announced once
    assert (event.kind, event.link_id) == (AT_RISK, link.pk)
    (delivery,) = WebhookDelivery.objects.filter(event=event)
    assert delivery.endpoint_id == endpoint.pk
    body = json.loads(services.request_body(delivery))
    assert body["event"] == AT_RISK and body["at_risk"] is True and body["reason"] == "forecast"
    assert body["link"] == {"id": link.pk, "a": {"switch": "t0", "port": "up0"}, "z": {"switch": "f0", "port": "d0"}}
    assert (body["forecast"]["cause"], body["forecast"]["side"], body["forecast"]["at_risk"]) == (
        "contamination",
        "a",
        True,
    )
    assert body["changed_by"] == {"kind": "system", "username": None}


def stored(link: Link) -> LinkForecast:
    return forecast_row(link, days=3, cause="bent_fiber", latest_at=None, cause_side=None)


def row(forecast: LinkForecast, **changes) -> tuple:
    """A row of `write` (forecasts.COLUMNS) from a stored forecast, changed."""
    values = {name: getattr(forecast, name) for name in forecasts.COLUMNS} | changes
    return tuple(values[name] for name in forecasts.COLUMNS)


def announce(fabric, link: Link, rows: list[tuple]) -> None:
    """`write`'s announcement of `rows` for `link`, judged against what is stored."""
    with connection.cursor() as cursor:
        before = forecasts.stored_risk(cursor, [link.pk])
    forecasts.publish_risk_changes(fabric, [link.pk], before, rows, timezone.now())


def delivered(receiver, count: int) -> list[dict]:
    """Every pending delivery attempted, as the worker would, to the real receiver: the bodies it got."""
    for delivery in WebhookDelivery.objects.filter(state=WebhookDelivery.State.PENDING).order_by("id"):
        services.attempt_delivery(delivery.pk)
    return [json.loads(request.body) for request in receiver.wait_for(count)]


@pytest.mark.parametrize("new_row", ["not_at_risk", "gone"])
def test_a_link_no_longer_at_risk_is_announced_cleared(small_fabric, endpoint, new_row):
    link = Link.objects.get(fabric=small_fabric, a_switch__name="t0", a_port="up0")
    before = stored(link)
    announce(small_fabric, link, [row(before, at_risk=False, confidence=0.3)] if new_row == "not_at_risk" else [])
    (event,) = risk_events()
    body = json.loads(services.request_body(WebhookDelivery.objects.get(event=event)))
    assert (body["event"], body["at_risk"]) == (CLEARED, False)
    if new_row == "gone":  # the trend no longer heads for a limit: no forecast at all
        assert body["forecast"] is None and body["reason"] == "no_forecast"
    else:
        assert (body["forecast"]["at_risk"], body["forecast"]["confidence"]) == (False, 0.3)
        assert body["reason"] == "recovered"


def test_no_flip_no_event(small_fabric, endpoint):
    link = Link.objects.get(fabric=small_fabric, a_switch__name="t0", a_port="up0")
    before = stored(link)
    announce(small_fabric, link, [row(before, confidence=0.95)])
    assert risk_events() == []


def test_a_link_at_risk_that_fails_is_cleared_and_announced_again_when_back(small_fabric, endpoint, receiver):
    """Trial 29 item 3: a link at risk that CorrOpt takes out of service for corruption is not at
    risk any more (its repair ticket has it): the subscriber's alert clears, with the reason. Put
    back in service with the same forecast, it is at risk again, as the API says."""
    link = safe_to_disable(small_fabric)
    stored(link)
    link_state.set_admin_state(link, "disabled", "corruption")
    cleared = [body for body in delivered(receiver, 2) if body["event"] != "link.admin_state_changed"]
    assert [(body["event"], body["reason"], body["at_risk"]) for body in cleared] == [(CLEARED, "failed", False)]
    assert cleared[0]["forecast"]["cause"] == "bent_fiber" and cleared[0]["link"]["id"] == link.pk

    link_state.set_admin_state(link, "enabled", "repaired")
    again = [body for body in delivered(receiver, 4)[2:] if body["event"] != "link.admin_state_changed"]
    assert [(body["event"], body["reason"], body["at_risk"]) for body in again] == [(AT_RISK, "no_longer_failed", True)]
    assert again[0]["event_id"] > cleared[0]["event_id"]


def set_health(link: Link, health: str) -> None:
    """Derivation's write of a link's measured health (the capacity guard's set_measured_health)."""
    link_state.set_measured_health("SELECT %s::bigint AS id, %s::text AS health, false AS rx_low", [link.pk, health])


def test_a_link_at_risk_that_starts_corrupting_is_cleared(small_fabric, endpoint, receiver):
    at_risk, healthy = Link.objects.filter(fabric=small_fabric).order_by("id")[:2]
    stored(at_risk)
    set_health(at_risk, "clean")
    assert risk_events() == []  # not failed before, not failed now
    set_health(at_risk, "corrupting")
    set_health(healthy, "corrupting")  # failed, but was never at risk: nothing to clear
    (body,) = delivered(receiver, 1)
    assert (body["event"], body["reason"], body["link"]["id"]) == (CLEARED, "failed", at_risk.pk)

    set_health(at_risk, "lossy")
    assert [(event.kind, event.payload["reason"]) for event in risk_events()] == [
        (CLEARED, "failed"), (AT_RISK, "no_longer_failed"),
    ]  # fmt: skip


def test_a_failed_link_whose_forecast_turns_at_risk_is_not_announced(small_fabric, endpoint):
    """Its forecast's verdict changes nothing: a failed link is not at risk (forecasts.at_risk_q)."""
    link = Link.objects.get(fabric=small_fabric, a_switch__name="t0", a_port="up0")
    set_health(link, "corrupting")
    before = stored(link)
    LinkForecast.objects.filter(pk=before.pk).update(at_risk=False)
    announce(small_fabric, link, [row(before, at_risk=True)])
    announce(small_fabric, link, [])
    assert risk_events() == []


def test_a_link_at_risk_with_another_cause_is_announced_changed(small_fabric, endpoint, receiver):
    """A stored contamination whose new forecast, still at risk, names a bent fiber: the advice
    changes (clean the connectors -> replace the cable), so the subscriber hears it once."""
    link = Link.objects.get(fabric=small_fabric, a_switch__name="t0", a_port="up0")
    before = forecast_row(link, days=3, cause="contamination")
    announce(small_fabric, link, [row(before, cause="bent_fiber")])
    (body,) = delivered(receiver, 1)
    assert (body["event"], body["reason"], body["at_risk"]) == (CHANGED, "cause_changed", True)
    assert (body["previous_cause"], body["forecast"]["cause"]) == ("contamination", "bent_fiber")

    LinkForecast.objects.filter(pk=before.pk).update(cause="bent_fiber")  # as write stores it
    announce(small_fabric, link, [row(before, cause="bent_fiber", confidence=0.8)])
    assert len(risk_events()) == 1  # the same cause again: nothing new to say
