"""Deliveries through a real Celery worker process to a real HTTP receiver: signed bodies,
retries after a 500, final failure, nothing for a rolled-back change, lost tasks recovered."""

import datetime as dt
import json
import time

import pytest
from django.db import transaction
from django.utils import timezone
from rest_framework.test import APIClient

from fabric.models import Link
from fabric.services import link_state
from lightpath.tests.workers import worker
from lightpath_worker import app as celery_app
from webhooks.models import WebhookDelivery, WebhookEvent

from .conftest import SECRET
from .test_services import verify

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture(scope="module")
def webhook_queue(django_db_setup, tmp_path_factory):
    """A worker on its own queue with a short backoff (0.2 s, 0.4 s, ... capped at 1 s)."""
    from django.conf import settings

    queue = f"{settings.CELERY_TASK_DEFAULT_QUEUE}-webhooks"
    env = {
        "LIGHTPATH_QUEUE": queue,
        "LIGHTPATH_QUEUE_WEBHOOKS": queue,
        "LIGHTPATH_WEBHOOK_BACKOFF_BASE_S": "0.2",
        "LIGHTPATH_WEBHOOK_BACKOFF_MAX_S": "1",
        "LIGHTPATH_WEBHOOK_TIMEOUT_S": "2",
        "LIGHTPATH_WEBHOOK_ALLOWED_NETWORKS": "127.0.0.0/8",  # the test receiver's
    }
    log = tmp_path_factory.mktemp("webhook-worker") / "worker.log"
    with worker([queue], log, name="webhooks", env=env):
        yield queue


@pytest.fixture(autouse=True)
def use_webhook_queue(webhook_queue, settings):
    settings.WEBHOOKS = {**settings.WEBHOOKS, "queue": webhook_queue}


def wait_for_state(delivery: WebhookDelivery, state: str, timeout: float = 30) -> WebhookDelivery:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        delivery.refresh_from_db()
        if delivery.state == state:
            return delivery
        time.sleep(0.05)
    raise AssertionError(f"delivery stayed {delivery.state} after {delivery.attempts} attempts: {delivery.last_error}")


def test_a_link_disabled_through_the_api_reaches_the_receiver_after_a_500(small_fabric, endpoint, receiver, make_user):
    receiver.statuses = [500]
    client = APIClient()
    client.force_authenticate(make_user("operator", "opal"))
    link = safe_to_disable(small_fabric)
    response = client.patch(f"/api/links/{link.pk}/", {"admin_state": "disabled", "admin_reason": "maintenance"})
    assert response.status_code == 200

    first, second = receiver.wait_for(2)
    delivery = wait_for_state(WebhookDelivery.objects.get(), "succeeded")
    assert first.body == second.body and verify(SECRET, second.headers, second.body)
    body = json.loads(second.body)
    assert (body["link"]["id"], body["link"]["a"]["switch"], body["admin_state"]) == (
        link.pk,
        link.a_switch.name,
        "disabled",
    )
    assert body["changed_by"]["username"] == "opal" and body["delivery_id"] == str(delivery.delivery_id)
    attempts = list(delivery.attempt_log.values_list("number", "status_code"))
    assert attempts == [(1, 500), (2, 200)]


def test_a_receiver_that_keeps_failing_ends_failed_after_max_attempts(small_fabric, endpoint, receiver):
    receiver.statuses = [503] * 10
    link_state.set_admin_state(
        Link.objects.filter(fabric=small_fabric).first(), Link.AdminState.DISABLED, "", None, override=True
    )
    delivery = wait_for_state(WebhookDelivery.objects.get(), "failed")
    assert delivery.attempts == endpoint.max_attempts == 3 and len(receiver.requests) == 3
    assert delivery.last_error == "HTTP 503; gave up after 3 attempts"
    time.sleep(1.5)  # longer than the capped backoff: no further attempt comes
    assert len(receiver.requests) == 3


def test_nothing_is_sent_for_a_rolled_back_change(small_fabric, endpoint, receiver):
    rolled_back, committed = Link.objects.filter(fabric=small_fabric).order_by("id")[:2]
    with pytest.raises(RuntimeError), transaction.atomic():
        link_state.set_admin_state(rolled_back, Link.AdminState.DISABLED, "", None, override=True)
        raise RuntimeError("the change fails after the link was saved")
    link_state.set_admin_state(committed, Link.AdminState.DISABLED, "", None, override=True)

    (only,) = receiver.wait_for(1)
    wait_for_state(WebhookDelivery.objects.get(), "succeeded")
    time.sleep(0.5)
    assert len(receiver.requests) == 1 and json.loads(only.body)["link"]["id"] == committed.pk
    assert not WebhookEvent.objects.filter(link_id=rolled_back.pk).exists()


def test_a_delivery_whose_task_was_lost_is_sent_by_the_maintenance_task(
    small_fabric, endpoint, receiver, webhook_queue
):
    # What a commit while the broker was down leaves behind: outbox rows and no task.
    event = WebhookEvent.objects.create(
        fabric=small_fabric, kind=WebhookEvent.Kind.TEST, payload={"message": "written while the broker was down"}
    )
    lost = WebhookDelivery.objects.create(
        event=event, endpoint=endpoint, next_attempt_at=timezone.now() - dt.timedelta(minutes=10)
    )
    assert celery_app.send_task("webhooks.maintain", queue=webhook_queue).get(timeout=30)["requeued"] == 1
    wait_for_state(lost, "succeeded")
    assert json.loads(receiver.wait_for(1)[0].body)["message"] == "written while the broker was down"


def safe_to_disable(fabric) -> Link:
    """A fabric-to-spine link: the ToRs below keep 3 of 4 up-paths, so the capacity guard lets it
    go (a ToR uplink would leave its ToR with 2, under the 3 its constraint requires)."""
    return Link.objects.filter(fabric=fabric, a_switch__tier=1).select_related("a_switch").order_by("id").first()
