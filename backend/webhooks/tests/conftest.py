import pytest

from webhooks.models import WebhookEndpoint

from .receiver import start_receiver, stop_receiver

SECRET = "s3cret-shared-with-the-controller"


@pytest.fixture
def receiver():
    server = start_receiver()
    yield server
    stop_receiver(server)


@pytest.fixture
def endpoint(small_fabric, receiver):
    return WebhookEndpoint.objects.create(
        fabric=small_fabric, name="controller", payload_url=receiver.url, secret=SECRET, max_attempts=3
    )
