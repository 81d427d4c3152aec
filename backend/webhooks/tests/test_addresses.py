"""Webhooks go only to globally routable addresses (README "Webhooks"): refused when an endpoint
is saved and again before every attempt, after DNS; the attempt connects to the checked address."""

import os
import socket
import subprocess
import sys

import pytest

from webhooks import services
from webhooks.models import WebhookDelivery, WebhookEndpoint

from .conftest import SECRET

pytestmark = pytest.mark.django_db

# (URL, the address named in the refusal, why)
REFUSED = [
    ("http://127.0.0.1:8080/hooks", "127.0.0.1", "loopback"),
    ("http://localhost/hooks", "127.0.0.1", "loopback"),
    ("http://[::1]/hooks", "::1", "loopback"),
    ("http://0.0.0.0/hooks", "0.0.0.0", "unspecified"),  # noqa: S104  (a refused target, not a bind)
    ("http://[::]/hooks", "::", "unspecified"),
    ("http://169.254.169.254/latest/meta-data/", "169.254.169.254", "link-local"),
    ("http://10.1.2.3/hooks", "10.1.2.3", "private"),
    ("http://172.16.0.9/hooks", "172.16.0.9", "private"),
    ("https://192.168.1.10/hooks", "192.168.1.10", "private"),
    ("http://[fc00::1]/hooks", "fc00::1", "private"),
    ("http://224.0.0.1/hooks", "224.0.0.1", "multicast"),
    ("http://[ff02::1]/hooks", "ff02::1", "multicast"),
    ("http://240.0.0.1/hooks", "240.0.0.1", "reserved"),
    ("http://100.64.0.1/hooks", "100.64.0.1", "not globally routable"),  # carrier-grade NAT
    ("http://[::ffff:127.0.0.1]/hooks", "::ffff:7f00:1", "loopback 127.0.0.1, embedded in an IPv6 address"),
    (
        "http://[64:ff9b::a9fe:a9fe]/hooks",
        "64:ff9b::a9fe:a9fe",
        "link-local 169.254.169.254, embedded in an IPv6 address",
    ),
    ("http://[2002:c0a8:101::1]/hooks", "2002:c0a8:101::1", "private 192.168.1.1, embedded in an IPv6 address"),
]


@pytest.fixture
def nothing_allowed(settings):
    settings.WEBHOOKS = {**settings.WEBHOOKS, "allowed_networks": []}


def create(client, fabric, url, name="ctl"):
    return client.post("/api/webhooks/", {"fabric": fabric.pk, "name": name, "payload_url": url, "secret": SECRET})


@pytest.mark.parametrize(("url", "address", "why"), REFUSED)
def test_refused_at_save(client_for, small_fabric, nothing_allowed, url, address, why):
    response = create(client_for("operator"), small_fabric, url)
    assert response.status_code == 400, response.content
    (problem,) = response.json()["payload_url"]
    assert f"{address} ({why})" in problem and "LIGHTPATH_WEBHOOK_ALLOWED_NETWORKS" in problem
    assert not WebhookEndpoint.objects.exists()


def test_every_problem_is_listed_and_updates_are_checked_too(client_for, small_fabric, nothing_allowed):
    client = client_for("admin")
    response = client.post(
        "/api/webhooks/", {"fabric": small_fabric.pk, "name": "", "payload_url": "http://10.0.0.1/", "secret": "x"}
    )
    assert response.status_code == 400 and set(response.json()) == {"name", "payload_url", "secret"}
    assert "10.0.0.1 (private)" in response.json()["payload_url"][0]
    # A globally routable address literal needs no DNS and is accepted (nothing is sent on save).
    created = create(client, small_fabric, "https://1.1.1.1/hooks")
    assert created.status_code == 201, created.content
    patched = client.patch(f"/api/webhooks/{created.json()['id']}/", {"payload_url": "http://169.254.169.254/"})
    assert patched.status_code == 400 and "169.254.169.254 (link-local)" in patched.json()["payload_url"][0]
    assert WebhookEndpoint.objects.get().payload_url == "https://1.1.1.1/hooks"


def test_a_name_that_does_not_resolve_is_refused_at_save(client_for, small_fabric, nothing_allowed):
    response = create(client_for("operator"), small_fabric, "https://no-such-host.invalid/hooks")
    assert response.status_code == 400
    assert "'no-such-host.invalid' does not resolve" in response.json()["payload_url"][0]
    assert "port" in str(create(client_for("operator"), small_fabric, "http://1.1.1.1:99999/").json())


def test_allowed_networks_admit_on_premises_receivers(client_for, small_fabric, settings):
    settings.WEBHOOKS = {**settings.WEBHOOKS, "allowed_networks": ["10.20.0.0/16", "fd00:1::/64"]}
    client = client_for("operator")
    assert create(client, small_fabric, "http://10.20.3.4:8443/hooks", "a").status_code == 201
    assert create(client, small_fabric, "http://[fd00:1::5]/hooks", "b").status_code == 201
    for url in ("http://10.21.0.1/hooks", "http://127.0.0.1/hooks", "http://[fd00:2::5]/hooks"):
        assert create(client, small_fabric, url, "c").status_code == 400, url


def test_the_setting_comes_from_the_environment_and_a_typo_stops_the_start(settings):
    def settings_with(networks: str) -> subprocess.CompletedProcess:
        code = "from django.conf import settings; print(settings.WEBHOOKS['allowed_networks'])"
        env = {**os.environ, "LIGHTPATH_WEBHOOK_ALLOWED_NETWORKS": networks}
        return subprocess.run(
            [sys.executable, "-c", code], env=env, cwd=settings.BACKEND_DIR, capture_output=True, text=True
        )

    good = settings_with("10.20.0.0/16, fd00:1::/64,192.168.7.9/24")
    assert good.returncode == 0 and good.stdout.strip() == "['10.20.0.0/16', 'fd00:1::/64', '192.168.7.0/24']"
    typo = settings_with("10.0.0.0/33")
    assert typo.returncode != 0 and "10.0.0.0/33" in typo.stderr


@pytest.mark.parametrize(("url", "address", "why"), REFUSED)
def test_refused_at_send_and_not_retried(small_fabric, nothing_allowed, make_user, url, address, why):
    # Saved when it was allowed (or before the rule existed): the attempt checks again.
    endpoint = WebhookEndpoint.objects.create(fabric=small_fabric, name="old", payload_url=url, secret=SECRET)
    delivery = services.send_test_event(endpoint, make_user("operator"))
    outcome = services.attempt_delivery(delivery.pk)
    assert outcome is not None and outcome.state == "failed" and outcome.retry_in_s is None
    delivery.refresh_from_db()
    (attempt,) = delivery.attempt_log.all()
    assert attempt.error.startswith("not sent: ") and f"{address} ({why})" in attempt.error
    assert delivery.state == "failed" and delivery.next_attempt_at is None and delivery.finished_at is not None


def test_a_receiver_that_became_refused_gets_nothing(small_fabric, receiver, settings, make_user):
    endpoint = WebhookEndpoint.objects.create(
        fabric=small_fabric, name="onprem", payload_url=receiver.url, secret=SECRET
    )
    settings.WEBHOOKS = {**settings.WEBHOOKS, "allowed_networks": ["10.0.0.0/8"]}  # 127/8 no longer
    delivery = services.send_test_event(endpoint, make_user("operator"))
    assert services.attempt_delivery(delivery.pk).state == "failed"
    assert receiver.requests == []
    assert "127.0.0.1 (loopback)" in WebhookDelivery.objects.get(pk=delivery.pk).last_error


def test_a_name_that_stops_resolving_is_retried(small_fabric, nothing_allowed, make_user):
    endpoint = WebhookEndpoint.objects.create(
        fabric=small_fabric, name="gone", payload_url="https://no-such-host.invalid/", secret=SECRET
    )
    delivery = services.send_test_event(endpoint, make_user("operator"))
    outcome = services.attempt_delivery(delivery.pk)
    assert outcome.state == "pending" and outcome.retry_in_s is not None
    assert "does not resolve" in outcome.error


def test_the_checked_address_is_the_one_connected_with_the_host_kept(small_fabric, receiver, settings, make_user,
                                                                     monkeypatch):  # fmt: skip
    """DNS rebinding: the name answers an allowed address for the check, then another one. The
    attempt connects to the checked address (the receiver gets it) and sends the name as Host."""
    settings.WEBHOOKS = {**settings.WEBHOOKS, "allowed_networks": ["127.0.0.1/32"]}
    port = receiver.server.server_address[1]
    real_getaddrinfo = socket.getaddrinfo
    answers = ["127.0.0.1"]  # then 127.0.0.2: refused, and no receiver listens there

    def rebinding_dns(host, *args, **kwargs):
        if host == "rebind.example":
            address = answers.pop(0) if answers else "127.0.0.2"
            return real_getaddrinfo(address, *args, **kwargs)
        return real_getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", rebinding_dns)
    endpoint = WebhookEndpoint.objects.create(
        fabric=small_fabric, name="rebind", payload_url=f"http://rebind.example:{port}/hooks", secret=SECRET
    )
    delivery = services.send_test_event(endpoint, make_user("operator"))
    outcome = services.attempt_delivery(delivery.pk)
    assert outcome.state == "succeeded", outcome.error
    (request,) = receiver.requests
    assert request.headers["Host"] == f"rebind.example:{port}" and request.path == "/hooks"
    # The next attempt resolves again and meets the rebound, refused answer.
    again = services.redeliver(delivery)
    assert services.attempt_delivery(again.pk).state == "failed"
    assert "127.0.0.2 (loopback)" in WebhookDelivery.objects.get(pk=again.pk).last_error
    assert len(receiver.requests) == 1
