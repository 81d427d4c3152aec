"""What a receiver answered and the body sent are for operators and admins only: other roles see
the delivery log without `request_body` and without each attempt's `response_excerpt`."""

import pytest

from webhooks import services

pytestmark = pytest.mark.django_db

READERS = {"operator", "admin"}


@pytest.fixture
def answered_delivery(endpoint, receiver, make_user):
    receiver.answer = b"internal: db-7.corp password reset page"
    delivery = services.send_test_event(endpoint, make_user("operator"))
    assert services.attempt_delivery(delivery.pk).state == "succeeded"
    return delivery


def test_payloads_per_role(client_for, every_role, answered_delivery):
    detail = client_for(every_role).get(f"/api/webhook-deliveries/{answered_delivery.pk}/")
    assert detail.status_code == 200
    body = detail.json()
    (attempt,) = body["attempt_log"]
    assert attempt["status_code"] == 200 and attempt["number"] == 1  # the log itself is for everyone
    if every_role in READERS:
        assert attempt["response_excerpt"] == "internal: db-7.corp password reset page"
        assert '"event":"webhook.test"' in body["request_body"]
    else:
        assert "response_excerpt" not in attempt and "request_body" not in body
        assert "db-7.corp" not in detail.content.decode()


def test_the_schema_says_who_gets_them(client_for):
    schema = client_for("viewer").get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    components = schema["components"]["schemas"]
    for component, field in (("DeliveryAttempt", "response_excerpt"), ("WebhookDeliveryDetail", "request_body")):
        assert field not in components[component]["required"]
        assert "operators and admins" in components[component]["properties"][field]["description"]
