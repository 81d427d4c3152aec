"""/api/webhooks/ (endpoints: operators create and edit, admins delete; no bulk create) and
/api/webhook-deliveries/ (the read-only delivery log; redeliver is tested by hand in test_api.py)
through the generic API tests."""

import pytest

from fabric.tests.factories import FabricFactory, LinkFactory
from lightpath.tests.api_base import CreateTests, DeleteTests, GetTests, ListTests, ReadOnlyAPIViewTestBase, UpdateTests

from ..models import WebhookDelivery, WebhookEndpoint, WebhookEvent
from .conftest import SECRET


class TestWebhookEndpointAPI(ListTests, GetTests, CreateTests, UpdateTests, DeleteTests):
    endpoint = "/api/webhooks/"
    brief_fields = ("id", "url", "fabric", "name", "enabled")
    writer_role = "operator"
    update_data = {"enabled": False}

    @pytest.fixture(autouse=True)
    def _fabric(self, db):
        self.fabric = FabricFactory()

    def make_objects(self, count):
        start = WebhookEndpoint.objects.count()
        return [
            WebhookEndpoint.objects.create(
                fabric=self.fabric, name=f"hook-{start + i}", payload_url="https://localhost/hooks", secret=SECRET
            )
            for i in range(count)
        ]

    def create_data(self):
        return [
            {"fabric": self.fabric.pk, "name": f"new-{i}", "payload_url": "https://localhost/new", "secret": SECRET}
            for i in range(3)
        ]

    def filter_cases(self, objects):
        WebhookEndpoint.objects.filter(pk=objects[0].pk).update(enabled=False)
        return [
            ({"fabric": self.fabric.pk}, objects),
            ({"enabled": "false"}, objects[:1]),
            ({"name__ic": "HOOK", "name__n": objects[1].name}, [objects[0], objects[2]]),
        ]


class TestWebhookDeliveryAPI(ReadOnlyAPIViewTestBase):
    endpoint = "/api/webhook-deliveries/"
    brief_fields = ("id", "url", "delivery_id", "event_type", "state")

    @pytest.fixture(autouse=True)
    def _endpoint(self, db):
        self.fabric = FabricFactory()
        self.hook = WebhookEndpoint.objects.create(
            fabric=self.fabric, name="controller", payload_url="https://localhost/hooks", secret=SECRET
        )

    def make_objects(self, count):
        deliveries = []
        for _ in range(count):
            link = LinkFactory(fabric=self.fabric)
            event = WebhookEvent.objects.create(
                fabric=self.fabric,
                kind=WebhookEvent.Kind.LINK_ADMIN_STATE,
                link_id=link.pk,
                payload={"event": "link.admin_state_changed", "link": {"id": link.pk}},
            )
            deliveries.append(WebhookDelivery.objects.create(event=event, endpoint=self.hook))
        return deliveries

    def filter_cases(self, objects):
        WebhookDelivery.objects.filter(pk=objects[0].pk).update(state="failed", attempts=3)
        return [
            ({"fabric": self.fabric.pk}, objects),
            ({"state": "pending"}, objects[1:]),
            ({"attempts__gte": 1}, objects[:1]),
            ({"link": objects[2].event.link_id}, objects[2:]),
            ({"event_type": "webhook.test"}, []),
        ]
