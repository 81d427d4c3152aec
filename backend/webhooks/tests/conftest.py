import pytest

from webhooks.models import WebhookEndpoint

from .receiver import start_receiver, stop_receiver

SECRET = "s3cret-shared-with-the-controller"
# The test receivers listen on the loopback, which webhooks refuse unless allowed (README
# "Webhooks"); test_addresses.py checks the refusals with nothing allowed.
LOOPBACK_NETWORKS = ["127.0.0.0/8", "::1/128"]


@pytest.fixture(autouse=True)
def loopback_receivers_allowed(settings):
    settings.WEBHOOKS = {**settings.WEBHOOKS, "allowed_networks": LOOPBACK_NETWORKS}


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
