"""The webhooks API: endpoint config (secret write-only), the delivery log, test and redeliver,
per role."""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from audit.models import AuditEvent
from fabric.models import Link
from fabric.services import link_state
from telemetry.services import forecasts
from telemetry.tests.factories import forecast_row
from webhooks.models import WebhookDelivery, WebhookEndpoint

from .conftest import SECRET

pytestmark = pytest.mark.django_db

WRITERS = {"operator", "admin"}


def body_for(fabric, **overrides) -> dict:
    return {
        "fabric": fabric.pk,
        "name": "ctl",
        "payload_url": "https://localhost/hooks",  # loopback, allowed in these tests (conftest)
        "secret": SECRET,
        **overrides,
    }


def flip_links(fabric, count: int) -> None:
    for link in Link.objects.filter(fabric=fabric).order_by("id")[:count]:
        link_state.set_admin_state(link, Link.AdminState.DISABLED, "", None, override=True)


def test_create_per_role(client_for, every_role, small_fabric):
    response = client_for(every_role).post("/api/webhooks/", body_for(small_fabric))
    assert response.status_code == (201 if every_role in WRITERS else 403), response.content


def test_reads_and_writes_per_role(client_for, every_role, endpoint):
    client = client_for(every_role)
    assert client.get("/api/webhooks/").status_code == 200
    assert client.get("/api/webhook-deliveries/").status_code == 200
    patched = client.patch(f"/api/webhooks/{endpoint.pk}/", {"enabled": False})
    assert patched.status_code == (200 if every_role in WRITERS else 403)
    deleted = client.delete(f"/api/webhooks/{endpoint.pk}/")
    assert deleted.status_code == (204 if every_role == "admin" else 403)


def test_anonymous_and_roleless_users_are_refused(anonymous, client_for, endpoint):
    assert anonymous.get("/api/webhooks/").status_code == 401
    assert client_for(None).get("/api/webhook-deliveries/").status_code == 403


def test_the_secret_is_never_returned(client_for, small_fabric):
    client = client_for("operator")
    created = client.post("/api/webhooks/", body_for(small_fabric))
    assert created.status_code == 201
    endpoint_id = created.json()["id"]
    patched = client.patch(f"/api/webhooks/{endpoint_id}/", {"secret": "a-rotated-secret-0042"})
    assert patched.status_code == 200
    responses = [created, patched, client.get(f"/api/webhooks/{endpoint_id}/"), client.get("/api/webhooks/")]
    responses.append(client.get("/api/audit/", {"object_type": "webhooks.webhookendpoint"}))
    for response in responses:
        assert SECRET not in response.content.decode() and "a-rotated-secret-0042" not in response.content.decode()
    assert created.json()["secret_hint"] == "…ller"
    assert patched.json()["secret_hint"] == "…0042"
    assert "secret" not in created.json()
    assert WebhookEndpoint.objects.get(pk=endpoint_id).secret == "a-rotated-secret-0042"
    update = AuditEvent.objects.get(object_type="webhooks.webhookendpoint", action="update")
    assert (update.before["secret"], update.after["secret"]) == ("…ller", "…0042")


def test_put_without_a_secret_keeps_it(client_for, endpoint):
    body = {"name": "renamed", "payload_url": "https://localhost/v2", "enabled": False, "max_attempts": 4}
    response = client_for("operator").put(f"/api/webhooks/{endpoint.pk}/", body)
    assert response.status_code == 200, response.content
    endpoint.refresh_from_db()
    assert (endpoint.name, endpoint.payload_url, endpoint.enabled, endpoint.max_attempts) == tuple(body.values())
    assert endpoint.secret == SECRET


def test_without_a_secret_one_is_generated_and_shown_once(client_for, small_fabric):
    client = client_for("admin")
    created = client.post("/api/webhooks/", body_for(small_fabric, secret=None)).json()
    stored = WebhookEndpoint.objects.get(pk=created["id"]).secret
    assert created["secret"] == stored and len(stored) >= 32
    assert stored not in client.get(f"/api/webhooks/{created['id']}/").content.decode()


def test_bad_input_lists_every_problem(client_for, small_fabric):
    client = client_for("operator")
    response = client.post(
        "/api/webhooks/",
        {
            "fabric": 999999,
            "name": "",
            "payload_url": "ftp://files.example.net/x",
            "secret": "short",
            "max_attempts": 0,
        },
    )
    assert response.status_code == 400
    assert set(response.json()) == {"fabric", "name", "payload_url", "secret", "max_attempts"}
    for url, problem in [
        ("javascript:alert(1)", "valid URL"),
        ("https://user:pw@ctl.example.net/", "credentials"),
        ("http://ctl.example.net/#frag", "fragment"),
    ]:
        response = client.post("/api/webhooks/", body_for(small_fabric, payload_url=url))
        assert response.status_code == 400 and problem in str(response.json()["payload_url"]), url
    assert client.post("/api/webhooks/", body_for(small_fabric)).status_code == 201
    duplicate = client.post("/api/webhooks/", body_for(small_fabric))
    assert duplicate.status_code == 400
    assert client.post("/api/webhooks/", [body_for(small_fabric)]).status_code == 400


def test_the_fabric_of_an_endpoint_cannot_change(client_for, endpoint, small_document):
    from fabric import services as fabric_services

    other = fabric_services.import_document({**small_document, "name": "other"})
    response = client_for("operator").patch(f"/api/webhooks/{endpoint.pk}/", {"fabric": other.pk, "name": "renamed"})
    assert response.status_code == 200
    endpoint.refresh_from_db()
    assert endpoint.fabric_id != other.pk and endpoint.name == "renamed"


def test_delivery_log_filters_and_detail(client_for, small_fabric, endpoint):
    second = WebhookEndpoint.objects.create(fabric=small_fabric, name="b", payload_url="http://b.test/", secret=SECRET)
    flip_links(small_fabric, 2)
    client = client_for("technician")
    listing = client.get("/api/webhook-deliveries/").json()
    assert listing["count"] == 4
    by_endpoint = client.get("/api/webhook-deliveries/", {"endpoint": second.pk, "state": "pending"}).json()
    assert by_endpoint["count"] == 2 and {row["endpoint_name"] for row in by_endpoint["results"]} == {"b"}
    assert client.get("/api/webhook-deliveries/", {"fabric": small_fabric.pk}).json()["count"] == 4
    assert client.get("/api/webhook-deliveries/", {"state": "succeeded"}).json()["count"] == 0
    assert client.get("/api/webhook-deliveries/", {"event_type": "webhook.test"}).json()["count"] == 0
    assert client.get("/api/webhook-deliveries/", {"state": "bogus"}).status_code == 400
    row = listing["results"][0]
    link_rows = client.get("/api/webhook-deliveries/", {"link": row["link"]}).json()["results"]
    assert {r["link"] for r in link_rows} == {row["link"]} and len(link_rows) == 2
    detail = client.get(f"/api/webhook-deliveries/{row['id']}/").json()
    # The body sent is for operators and admins only (test_payload_visibility.py).
    assert detail["attempt_log"] == [] and "request_body" not in detail
    detail = client_for("operator").get(f"/api/webhook-deliveries/{row['id']}/").json()
    assert detail["attempt_log"] == [] and f'"delivery_id":"{row["delivery_id"]}"' in detail["request_body"]
    assert SECRET not in str(detail)
    assert client.post(f"/api/webhook-deliveries/{row['id']}/redeliver/").status_code == 403


def test_delivery_log_costs_the_same_queries_for_more_rows(client_for, small_fabric, endpoint):
    client = client_for("viewer")
    flip_links(small_fabric, 2)
    client.get("/api/webhook-deliveries/")
    with CaptureQueriesContext(connection) as few:
        client.get("/api/webhook-deliveries/", {"limit": 100})
    flip_links(small_fabric, 14)
    with CaptureQueriesContext(connection) as many:
        client.get("/api/webhook-deliveries/", {"limit": 100})
    assert len(few) == len(many)


@pytest.mark.parametrize("role", ["operator", "admin", "planner", "technician"])
def test_send_test_event_and_redeliver(client_for, endpoint, role, django_capture_on_commit_callbacks):
    client = client_for(role)
    with django_capture_on_commit_callbacks() as callbacks:
        tested = client.post(f"/api/webhooks/{endpoint.pk}/test/")
    if role not in WRITERS:
        assert tested.status_code == 403 and not WebhookDelivery.objects.exists()
        return
    assert tested.status_code == 202 and tested.json()["event_type"] == "webhook.test" and len(callbacks) == 1
    original = WebhookDelivery.objects.get(pk=tested.json()["id"])
    again = client.post(f"/api/webhook-deliveries/{original.pk}/redeliver/")
    assert again.status_code == 202
    redelivered = WebhookDelivery.objects.get(pk=again.json()["id"])
    assert redelivered.event_id == original.event_id and redelivered.redelivery_of_id == original.pk
    assert redelivered.delivery_id != original.delivery_id and redelivered.state == "pending"


@pytest.mark.django_db(transaction=True)  # the attempt runs in a thread, on a connection of its own
def test_a_test_send_reads_sending_while_the_receiver_holds_it_then_delivered(client_for, endpoint, receiver):
    """Trial 28: the log showed a test send as "Pending, next attempt in 40 s" (the running
    attempt's lease) after the receiver had it. While the attempt runs the log says so
    (`sending_since`); once the receiver answered, the same row reads delivered."""
    import threading

    from webhooks import services

    client = client_for("operator")
    receiver.delay_s = 1.0  # the receiver holds the request: the attempt is in flight meanwhile
    delivery_id = client.post(f"/api/webhooks/{endpoint.pk}/test/").json()["id"]
    row = client.get(f"/api/webhook-deliveries/{delivery_id}/").json()
    assert (row["state"], row["attempts"], row["sending_since"]) == ("pending", 0, None)

    def attempt_then_close() -> None:
        try:
            services.attempt_delivery(delivery_id)
        finally:
            connection.close()

    attempt = threading.Thread(target=attempt_then_close)
    attempt.start()
    try:
        receiver.wait_for(1, timeout=10)
        sending = client.get(f"/api/webhook-deliveries/{delivery_id}/").json()
    finally:
        attempt.join(timeout=30)
    assert sending["state"] == "pending" and sending["attempts"] == 1 and sending["sending_since"] is not None
    assert sending["last_error"] == ""

    done = client.get(f"/api/webhook-deliveries/{delivery_id}/").json()
    assert (done["state"], done["last_status_code"], done["sending_since"]) == ("succeeded", 200, None)
    assert done["next_attempt_at"] is None and done["finished_at"] is not None


def test_a_disabled_endpoint_refuses_test_and_redeliver(client_for, small_fabric, endpoint):
    flip_links(small_fabric, 1)
    delivery = WebhookDelivery.objects.get()
    endpoint.enabled = False
    endpoint.save()
    client = client_for("operator")
    assert "disabled" in str(client.post(f"/api/webhooks/{endpoint.pk}/test/").json()["enabled"])
    response = client.post(f"/api/webhook-deliveries/{delivery.pk}/redeliver/")
    assert response.status_code == 400 and "disabled" in str(response.json()["endpoint"])


def test_link_api_change_publishes_with_the_operator_name(client_for, small_fabric, endpoint, make_user):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(make_user("operator", "oscar"))
    link = safe_to_disable(small_fabric)
    response = client.patch(f"/api/links/{link.pk}/", {"admin_state": "disabled", "admin_reason": "maintenance"})
    assert response.status_code == 200
    payload = WebhookDelivery.objects.select_related("event").get().event.payload
    assert payload["changed_by"] == {"kind": "user", "username": "oscar"} and payload["reason"] == "maintenance"


def test_schema_documents_the_endpoints(client_for):
    schema = client_for("viewer").get("/api/schema/")
    assert schema.status_code == 200
    text = schema.content.decode()
    for path in ("/api/webhooks/{id}/test/", "/api/webhook-deliveries/{id}/redeliver/", "/api/webhook-deliveries/"):
        assert f"{path}:" in text
    assert "secret_hint" in text and "WebhookDeliveryStateEnum" in text


def test_endpoints_show_pending_failed_and_last_success(client_for, small_fabric, endpoint, receiver):
    from webhooks import services

    receiver.statuses = [200, 404]
    flip_links(small_fabric, 3)
    first, second, _ = WebhookDelivery.objects.order_by("id")
    services.attempt_delivery(first.pk)
    services.attempt_delivery(second.pk)
    client = client_for("viewer")
    row = client.get(f"/api/webhooks/{endpoint.pk}/").json()
    first.refresh_from_db()
    assert (row["pending_deliveries"], row["failed_deliveries"]) == (1, 1)
    assert row["last_success_at"] == first.finished_at.isoformat().replace("+00:00", "Z")
    (listed,) = client.get("/api/webhooks/", {"fabric": small_fabric.pk}).json()["results"]
    assert listed == row


def test_schema_describes_the_bodies_actually_sent(client_for, small_fabric, endpoint, make_user):
    from webhooks import services

    schema = client_for("viewer").get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    components = schema["components"]["schemas"]
    components_of = {
        "link.admin_state_changed": "LinkAdminStateChanged",
        "link.oper_state_changed": "LinkOperStateChanged",
        "link.at_risk": "LinkRisk",
        "link.risk_cleared": "LinkRisk",
        "link.risk_changed": "LinkRiskChanged",
        "webhook.test": "WebhookTest",
    }
    assert set(schema["x-webhooks"]) == set(components_of)
    flip_links(small_fabric, 1)
    link_state.set_oper_states(small_fabric.pk, {safe_to_disable(small_fabric).pk: "down"})
    services.send_test_event(endpoint, make_user("operator"))
    # Derivation's forecasts change three links: one comes at risk, the second's forecast is gone,
    # the third stays at risk with another cause.
    rising, clearing, changing = Link.objects.filter(fabric=small_fabric).order_by("id")[:3]
    was_calm = forecast_row(rising, days=3, at_risk=False)
    forecast_row(clearing, days=3)
    was_dirty = forecast_row(changing, days=3, cause="contamination")
    at_risk_row = tuple(True if name == "at_risk" else getattr(was_calm, name) for name in forecasts.COLUMNS)
    bent_row = tuple("bent_fiber" if name == "cause" else getattr(was_dirty, name) for name in forecasts.COLUMNS)
    links = [rising.pk, clearing.pk, changing.pk]
    with connection.cursor() as cursor:
        before = forecasts.stored_risk(cursor, links)
    forecasts.publish_risk_changes(small_fabric, links, before, [at_risk_row, bent_row], timezone.now())
    seen = set()
    for delivery in WebhookDelivery.objects.select_related("event"):
        body = json.loads(services.request_body(delivery))
        component = components_of[body["event"]]
        seen.add(body["event"])
        assert set(body) == set(components[component]["properties"]), component
    assert seen == set(components_of)


def safe_to_disable(fabric) -> Link:
    """A fabric-to-spine link: the ToRs below keep 3 of 4 up-paths, so the capacity guard lets it
    go (a ToR uplink would leave its ToR with 2, under the 3 its constraint requires)."""
    return Link.objects.filter(fabric=fabric, a_switch__tier=1).select_related("a_switch").order_by("id").first()
