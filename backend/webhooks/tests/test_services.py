"""Publishing (the outbox written with the change) and delivering (signed POSTs to a real HTTP
receiver, retries, final failures), in-process."""

import datetime as dt
import hashlib
import hmac
import json
import socket
import time

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from fabric.models import Link
from fabric.services import link_state, update_link
from lightpath_worker import app as celery_app
from webhooks import services
from webhooks.models import WebhookDelivery, WebhookEndpoint, WebhookEvent

from .conftest import SECRET
from .receiver import start_receiver, stop_receiver

pytestmark = pytest.mark.django_db


def verify(secret: str, headers: dict[str, str], body: bytes, tolerance_s: int = 300) -> bool:
    """The receiver's check, as the README shows it."""
    timestamp = headers["X-Lightpath-Timestamp"]
    expected = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256).hexdigest()
    fresh = abs(time.time() - int(timestamp)) <= tolerance_s
    return fresh and hmac.compare_digest(headers["X-Lightpath-Signature"], f"sha256={expected}")


def make_due(delivery: WebhookDelivery) -> None:
    WebhookDelivery.objects.filter(pk=delivery.pk).update(next_attempt_at=timezone.now())


def disable(link: Link, user=None, reason: str = "maintenance") -> None:
    link_state.set_admin_state(link, Link.AdminState.DISABLED, reason, user, override=True)


def first_link(fabric) -> Link:
    return Link.objects.filter(fabric=fabric).select_related("a_switch", "z_switch").order_by("id").first()


def test_a_state_change_writes_one_delivery_per_enabled_endpoint_and_enqueues_on_commit(
    small_fabric, endpoint, django_capture_on_commit_callbacks
):
    WebhookEndpoint.objects.create(
        fabric=small_fabric, name="off", payload_url="http://x.test/", secret=SECRET, enabled=False
    )
    second = WebhookEndpoint.objects.create(
        fabric=small_fabric, name="second", payload_url="http://y.test/", secret=SECRET
    )
    link = first_link(small_fabric)
    with django_capture_on_commit_callbacks() as callbacks:
        update_link(link, {"admin_reason": "just a note"}, None)  # not a state change
        assert not WebhookDelivery.objects.exists()
        disable(link)
    assert {d.endpoint_id for d in WebhookDelivery.objects.all()} == {endpoint.pk, second.pk}
    assert len(callbacks) == 1  # the enqueue waits for the commit
    event = WebhookEvent.objects.get()
    assert event.kind == "link.admin_state_changed" and event.link_id == link.pk
    assert event.payload["admin_state"] == "disabled" and event.payload["previous_admin_state"] == "enabled"


def test_fabrics_without_endpoints_get_no_rows(small_fabric):
    disable(first_link(small_fabric))
    assert not WebhookEvent.objects.exists()


def test_delivered_body_is_signed_and_names_the_link_ends(small_fabric, endpoint, receiver, make_user):
    link = first_link(small_fabric)
    operator = make_user("operator", "olga")
    disable(link, operator, reason="drain for fiber work")
    delivery = WebhookDelivery.objects.get()

    outcome = services.attempt_delivery(delivery.pk)

    assert outcome is not None and outcome.state == "succeeded" and outcome.status_code == 200
    (request,) = receiver.requests
    assert verify(SECRET, request.headers, request.body)
    assert not verify("another-secret-of-16+", request.headers, request.body)
    assert not verify(SECRET, request.headers, request.body.replace(b"disabled", b"enabled_"))
    body = json.loads(request.body)
    assert body["event"] == request.headers["X-Lightpath-Event"] == "link.admin_state_changed"
    assert body["delivery_id"] == request.headers["X-Lightpath-Delivery"] == str(delivery.delivery_id)
    assert body["event_id"] == delivery.event_id
    assert body["fabric"] == {"id": small_fabric.pk, "name": "small"}
    assert body["link"] == {
        "id": link.pk,
        "a": {"switch": link.a_switch.name, "port": link.a_port},
        "z": {"switch": link.z_switch.name, "port": link.z_port},
    }
    assert body["admin_state"] == "disabled" and body["previous_admin_state"] == "enabled"
    assert body["reason"] == "drain for fiber work"
    assert body["changed_by"] == {"kind": "user", "username": "olga"}
    assert dt.datetime.fromisoformat(body["changed_at"]) == Link.objects.get(pk=link.pk).admin_changed_at
    delivery.refresh_from_db()
    assert delivery.state == "succeeded" and delivery.finished_at is not None and delivery.next_attempt_at is None
    assert delivery.attempt_log.get().status_code == 200
    assert services.attempt_delivery(delivery.pk) is None  # a duplicate task sends nothing
    assert len(receiver.requests) == 1


def test_system_changes_say_so(small_fabric, endpoint, receiver):
    disable(first_link(small_fabric), None, reason="corruption")
    services.attempt_delivery(WebhookDelivery.objects.get().pk)
    body = json.loads(receiver.requests[0].body)
    assert body["changed_by"] == {"kind": "system", "username": None} and body["reason"] == "corruption"


def test_a_500_is_retried_with_backoff_and_the_same_body(small_fabric, endpoint, receiver, settings):
    settings.WEBHOOKS = {**settings.WEBHOOKS, "backoff_base_s": 30, "backoff_max_s": 3600}
    receiver.statuses = [500]
    disable(first_link(small_fabric))
    delivery = WebhookDelivery.objects.get()

    first = services.attempt_delivery(delivery.pk)
    assert first is not None and first.state == "pending" and first.retry_in_s == 30
    delivery.refresh_from_db()
    assert delivery.last_status_code == 500 and delivery.last_error == "HTTP 500"
    assert delivery.next_attempt_at > timezone.now() + dt.timedelta(seconds=25)
    assert services.attempt_delivery(delivery.pk) is None  # not due yet
    make_due(delivery)
    second = services.attempt_delivery(delivery.pk)

    assert second is not None and second.state == "succeeded" and second.number == 2
    one, two = receiver.requests
    assert one.body == two.body and one.headers["X-Lightpath-Delivery"] == two.headers["X-Lightpath-Delivery"]
    log = list(delivery.attempt_log.values_list("number", "status_code", "error"))
    assert log == [(1, 500, "HTTP 500"), (2, 200, "")]
    assert delivery.attempt_log.get(number=1).next_retry_at is not None


def test_retries_stop_at_max_attempts(small_fabric, endpoint, receiver):
    receiver.statuses = [503, 502, 500, 200]
    disable(first_link(small_fabric))
    delivery = WebhookDelivery.objects.get()
    outcomes = []
    for _ in range(3):
        outcomes.append(services.attempt_delivery(delivery.pk))
        make_due(delivery)
    assert [o.state for o in outcomes] == ["pending", "pending", "failed"]
    delivery.refresh_from_db()
    assert delivery.state == "failed" and delivery.attempts == 3
    assert delivery.last_error == "HTTP 500; gave up after 3 attempts"
    assert services.attempt_delivery(delivery.pk) is None
    assert len(receiver.requests) == 3


def test_only_the_start_of_an_endless_answer_is_read_and_logged(small_fabric, endpoint, receiver, settings):
    settings.WEBHOOKS = {**settings.WEBHOOKS, "timeout_s": 3}
    receiver.answer, receiver.endless = "é".encode() + b"x" * 65_536, True
    disable(first_link(small_fabric))
    delivery = WebhookDelivery.objects.get()
    started = time.monotonic()
    outcome = services.attempt_delivery(delivery.pk)
    assert outcome is not None and outcome.state == "succeeded"
    assert time.monotonic() - started < 3
    assert delivery.attempt_log.get().response_excerpt == "é" + "x" * 499


@pytest.mark.parametrize(("status", "final"), [(400, True), (404, True), (301, True), (408, False), (429, False)])
def test_which_answers_are_final(small_fabric, endpoint, receiver, status, final):
    receiver.statuses = [status]
    disable(first_link(small_fabric))
    outcome = services.attempt_delivery(WebhookDelivery.objects.get().pk)
    assert outcome is not None and outcome.state == ("failed" if final else "pending")
    if final:
        assert "not retried" in outcome.error


def test_backoff_doubles_up_to_the_cap(settings):
    settings.WEBHOOKS = {**settings.WEBHOOKS, "backoff_base_s": 30, "backoff_max_s": 3600}
    assert [services.backoff_s(n) for n in range(1, 10)] == [30, 60, 120, 240, 480, 960, 1920, 3600, 3600]
    assert services.backoff_s(1, retry_after=300) == 300


def test_connection_errors_and_timeouts_are_logged_and_retried(small_fabric, settings):
    settings.WEBHOOKS = {**settings.WEBHOOKS, "timeout_s": 0.3}
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        closed_port = probe.getsockname()[1]
    WebhookEndpoint.objects.create(
        fabric=small_fabric, name="down", payload_url=f"http://127.0.0.1:{closed_port}/", secret=SECRET
    )
    slow = start_receiver(delay_s=1.0)
    try:
        WebhookEndpoint.objects.create(fabric=small_fabric, name="slow", payload_url=slow.url, secret=SECRET)
        disable(first_link(small_fabric))
        errors = {}
        for delivery in WebhookDelivery.objects.select_related("endpoint"):
            outcome = services.attempt_delivery(delivery.pk)
            assert outcome is not None and outcome.state == "pending" and outcome.status_code is None
            errors[delivery.endpoint.name] = outcome.error
    finally:
        stop_receiver(slow)
    assert errors["down"].startswith("ConnectError")
    assert errors["slow"] == "timed out after 0.3 s"


def test_disabling_an_endpoint_stops_its_pending_deliveries(small_fabric, endpoint, receiver):
    disable(first_link(small_fabric))
    WebhookEndpoint.objects.filter(pk=endpoint.pk).update(enabled=False)
    outcome = services.attempt_delivery(WebhookDelivery.objects.get().pk)
    assert outcome is not None and outcome.state == "failed" and "disabled" in outcome.error
    assert receiver.requests == []


def test_bulk_changes_in_a_batch_cost_the_same_queries_for_2_or_20_links(small_fabric, endpoint, settings):
    links = list(Link.objects.filter(fabric=small_fabric).order_by("id"))
    WebhookEndpoint.objects.create(fabric=small_fabric, name="second", payload_url="http://y.test/", secret=SECRET)

    def webhook_queries(batch: list[Link]) -> int:
        with CaptureQueriesContext(connection) as captured, transaction.atomic(), services.batched_link_changes():
            for link in batch:
                disable(link)
        return sum("webhooks_" in query["sql"] for query in captured.captured_queries)

    few = webhook_queries(links[:2])
    for link in links[:2]:
        link_state.set_admin_state(link, Link.AdminState.ENABLED, "", None, override=True)
    WebhookDelivery.objects.all().delete()
    many = webhook_queries(links)  # 14 links: every one of the small fabric
    assert few == many == 3  # endpoints, events, deliveries (plus one query for the link ends)
    assert WebhookDelivery.objects.count() == 2 * len(links)
    assert WebhookEvent.objects.filter(link_id__in=[link.pk for link in links]).count() == len(links) + 4


def test_requeue_overdue_takes_only_long_overdue_pending_deliveries(small_fabric, endpoint, settings):
    queue = f"{settings.CELERY_TASK_DEFAULT_QUEUE}-webhooks-unconsumed"
    settings.WEBHOOKS = {**settings.WEBHOOKS, "stale_after_s": 120, "queue": queue}
    disable(first_link(small_fabric))
    delivery = WebhookDelivery.objects.get()
    now = timezone.now()
    try:
        assert services.requeue_overdue(now) == 0  # just created: its task is on its way
        WebhookDelivery.objects.filter(pk=delivery.pk).update(next_attempt_at=now - dt.timedelta(minutes=5))
        assert services.requeue_overdue(now) == 1
        with celery_app.connection_for_read() as broker:
            assert broker.default_channel.queue_declare(queue, passive=True).message_count == 1
        delivery.refresh_from_db()
        assert delivery.next_attempt_at == now  # not picked again by the next run
        assert services.requeue_overdue(now + dt.timedelta(seconds=60)) == 0
    finally:
        with celery_app.connection_for_write() as broker:
            broker.default_channel.queue_purge(queue)


def test_purge_keeps_recent_and_pending_deliveries(small_fabric, endpoint, receiver, settings):
    settings.WEBHOOKS = {**settings.WEBHOOKS, "retention_days": 30}
    link = first_link(small_fabric)
    disable(link)
    link_state.set_admin_state(link, Link.AdminState.ENABLED, "", None, override=True)
    old, pending = WebhookDelivery.objects.order_by("id")
    services.attempt_delivery(old.pk)
    WebhookDelivery.objects.filter(pk=old.pk).update(finished_at=timezone.now() - dt.timedelta(days=31))
    WebhookEvent.objects.filter(pk=old.event_id).update(created=timezone.now() - dt.timedelta(days=31))
    assert services.purge_finished() == 2  # the delivery and its attempt
    assert list(WebhookDelivery.objects.values_list("pk", flat=True)) == [pending.pk]
    assert list(WebhookEvent.objects.values_list("pk", flat=True)) == [pending.event_id]


def test_correcting_a_wrong_url_rescues_pending_deliveries(small_fabric, endpoint, receiver):
    right_url = endpoint.payload_url
    WebhookEndpoint.objects.filter(pk=endpoint.pk).update(payload_url=right_url.replace("/hooks/", "/typo/"))
    receiver.statuses = [503]  # the wrong path answers 503 here; a proxy might say the same
    disable(first_link(small_fabric))
    delivery = WebhookDelivery.objects.get()
    assert services.attempt_delivery(delivery.pk).state == "pending"
    WebhookEndpoint.objects.filter(pk=endpoint.pk).update(payload_url=right_url)
    make_due(delivery)
    assert services.attempt_delivery(delivery.pk).state == "succeeded"
    assert [request.path for request in receiver.requests] == ["/typo/lightpath", "/hooks/lightpath"]


def test_an_attempt_whose_worker_died_is_logged_and_counted(small_fabric, endpoint, receiver):
    disable(first_link(small_fabric))
    delivery = WebhookDelivery.objects.get()
    # What a worker killed mid-request leaves: the claim (attempt 1, a lease) and no result.
    WebhookDelivery.objects.filter(pk=delivery.pk).update(attempts=1)
    outcome = services.attempt_delivery(delivery.pk)
    assert outcome is not None and outcome.number == 2 and outcome.state == "succeeded"
    log = list(delivery.attempt_log.values_list("number", "status_code", "error"))
    assert log == [(1, None, "no result: the worker stopped during this attempt"), (2, 200, "")]


def test_a_batch_that_raises_still_publishes_what_a_caller_may_commit(small_fabric, endpoint):
    changed, _ = Link.objects.filter(fabric=small_fabric).order_by("id")[:2]
    with transaction.atomic():
        try:
            with services.batched_link_changes():
                disable(changed)
                raise ValueError("a later step fails and the caller carries on")
        except ValueError:
            pass
    assert list(WebhookEvent.objects.values_list("link_id", flat=True)) == [changed.pk]
    assert WebhookDelivery.objects.count() == 1


def test_a_batch_whose_transaction_broke_lets_the_database_error_through(small_fabric, endpoint):
    from django.db import DatabaseError

    with pytest.raises(DatabaseError), transaction.atomic(), services.batched_link_changes():
        disable(first_link(small_fabric))
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1 / 0")
