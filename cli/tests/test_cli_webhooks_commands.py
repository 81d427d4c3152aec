"""webhooks list|add|deliveries|test|redeliver against the real backend and a real HTTP receiver.

Deliveries are made by webhooks.services.attempt_delivery, the function the worker's task runs."""

from __future__ import annotations

import csv
import io
import json
import os
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from cli_testing import FIXTURE_DATA, Cli, logged_in_as

if not os.environ.get("DJANGO_SETTINGS_MODULE"):
    pytest.skip("needs the backend's Django settings: run pytest from the repository root", allow_module_level=True)

pytestmark = pytest.mark.django_db(transaction=True, databases="__all__")

ENDPOINT_KEYS = [
    "id", "fabric", "name", "payload_url", "enabled", "max_attempts", "secret_hint", "pending_deliveries",
    "failed_deliveries", "last_success_at", "created_by", "created", "updated",
]  # fmt: skip
DELIVERY_KEYS = [
    "id", "delivery_id", "fabric", "endpoint", "endpoint_name", "event", "event_type", "link", "state", "attempts",
    "next_attempt_at", "last_status_code", "last_error", "redelivery_of", "created", "finished_at",
]  # fmt: skip
FABRIC = "leaf-spine-4x2"
SECRET = "cli-shared-secret-0123"


@pytest.fixture(autouse=True)
def unconsumed_queue(settings: Any) -> Iterator[None]:
    """Delivery tasks go to a queue no worker reads: the test makes the attempts itself, so a
    test worker running meanwhile cannot race it. The queue is emptied afterwards."""
    from lightpath_worker import app as celery_app

    queue = f"{settings.CELERY_TASK_DEFAULT_QUEUE}-cli-webhooks"
    # The test receiver listens on the loopback, which webhooks refuse unless allowed.
    settings.WEBHOOKS = {**settings.WEBHOOKS, "queue": queue, "allowed_networks": ["127.0.0.0/8"]}
    yield
    with celery_app.connection_for_write() as broker:
        broker.default_channel.queue_purge(queue)


@pytest.fixture
def receiver_url() -> Iterator[str]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length", "0")))
            self.send_response(204)
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/hook"
    server.shutdown()
    server.server_close()


@pytest.fixture
def operator(cli: Cli, live_server: Any, make_role_user: Callable[..., Any]) -> Cli:
    from fabric import services as fabric_services
    from lightpath_fixtures.documents import read_document

    fabric_services.import_document(read_document(FIXTURE_DATA / f"{FABRIC}.json"))
    make_role_user("cli-operator", "operator")
    return logged_in_as(cli, live_server.url, "cli-operator")


def deliver_pending() -> None:
    from webhooks import services
    from webhooks.models import WebhookDelivery

    for delivery_id in WebhookDelivery.objects.filter(state="pending").values_list("pk", flat=True):
        services.attempt_delivery(delivery_id)


def test_add_list_and_the_secret_shown_once(operator: Cli, receiver_url: str) -> None:
    given = operator.json("webhooks", "add", FABRIC, "ctl", receiver_url, "--secret", SECRET, "--max-attempts", "5")
    assert list(given) == [*ENDPOINT_KEYS, "secret"]
    assert (given["name"], given["max_attempts"], given["enabled"], given["secret"]) == ("ctl", 5, True, None)
    assert given["secret_hint"] == "…0123" and given["created_by"] == "cli-operator"

    generated = operator("webhooks", "add", FABRIC, "spare", receiver_url, "--disabled")
    assert generated.exit_code == 0, generated.stderr
    assert "not shown again" in generated.stderr
    secret = next(line.split()[-1] for line in generated.stdout.splitlines() if "shown once" in line)
    assert len(secret) >= 32

    listed = operator.json("webhooks", "list", "--fabric", FABRIC)
    assert [row["name"] for row in listed] == ["ctl", "spare"] and list(listed[0]) == ENDPOINT_KEYS
    table = operator("webhooks", "list")
    assert SECRET not in table.stdout and secret not in table.stdout and "…0123" in table.stdout
    rows = list(csv.DictReader(io.StringIO(operator("webhooks", "list", "--output", "csv").stdout)))
    assert [row["enabled"] for row in rows] == ["true", "false"]


def test_a_rejected_endpoint_lists_every_problem(operator: Cli) -> None:
    result = operator("webhooks", "add", FABRIC, "bad", "ftp://files.example.net/x", "--secret", "short")
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert lines[0] == "error: cannot add webhook 'bad'"
    assert any(line.strip().startswith("payload_url: ") for line in lines)
    assert any(line.strip().startswith("secret: ") for line in lines)
    assert operator("webhooks", "add", "no-such-fabric", "x", "http://x.test/").stderr.startswith("error: fabric")


def test_deliveries_test_and_redeliver(operator: Cli, receiver_url: str) -> None:
    from fabric.models import Link
    from fabric.services import link_state

    endpoint = operator.json("webhooks", "add", FABRIC, "ctl", receiver_url, "--secret", SECRET)
    link = Link.objects.filter(fabric__name=FABRIC).order_by("id").first()
    assert link is not None
    link_state.set_admin_state(link, Link.AdminState.DISABLED, "maintenance", None, override=True)
    (pending,) = operator.json("webhooks", "deliveries", "--state", "pending")
    assert list(pending) == DELIVERY_KEYS
    assert (pending["event_type"], pending["link"], pending["attempts"]) == ("link.admin_state_changed", link.pk, 0)

    assert operator.json("webhooks", "list")[0]["pending_deliveries"] == 1
    deliver_pending()
    (done,) = operator.json("webhooks", "deliveries", "--fabric", FABRIC, "--state", "succeeded")
    (listed,) = operator.json("webhooks", "list")
    assert (listed["pending_deliveries"], listed["last_success_at"]) == (0, done["finished_at"])
    assert (done["id"], done["attempts"], done["last_status_code"]) == (pending["id"], 1, 204)

    tested = operator("webhooks", "test", str(endpoint["id"]))
    assert tested.exit_code == 0 and tested.stdout.startswith("test event queued as delivery ")
    again = json.loads(operator("webhooks", "redeliver", str(done["id"]), "--output", "json").stdout)
    assert again["redelivery_of"] == done["id"] and again["event"] == done["event"] and again["state"] == "pending"
    deliver_pending()
    states = {
        row["event_type"]: row["state"]
        for row in operator.json("webhooks", "deliveries", "--endpoint", str(endpoint["id"]))
    }
    assert states == {"webhook.test": "succeeded", "link.admin_state_changed": "succeeded"}
    assert len(operator.json("webhooks", "deliveries", "--limit", "1")) == 1

    missing = operator("webhooks", "redeliver", "999999")
    assert missing.exit_code == 1 and missing.stderr.strip() == "error: cannot redeliver delivery 999999: not found"


def test_a_viewer_may_read_but_not_add(operator: Cli, live_server: Any, make_role_user: Callable[..., Any]) -> None:
    make_role_user("cli-viewer", "viewer")
    viewer = logged_in_as(operator, live_server.url, "cli-viewer")
    assert viewer.json("webhooks", "list") == []
    result = viewer("webhooks", "add", FABRIC, "x", "http://x.test/")
    assert result.exit_code == 1 and result.stderr.startswith("error: permission denied: ")
