"""GET /api/links/{id}/corropt-check/: the fast checker's verdict on the live fabric, changing nothing."""

import pytest

from accounts.roles import ROLES
from audit.models import AuditEvent
from corruption.models import Decision
from fabric.models import Link

from .test_services import link, open_event

pytestmark = pytest.mark.django_db


def check(client, lnk: Link, **params):
    return client.get(f"/api/links/{lnk.pk}/corropt-check/", params)


def test_a_tor_uplink_would_be_kept_for_its_tor_and_nothing_changes(client_for, small_fabric):
    uplink = link(small_fabric, "t0", "up0")
    event = open_event(uplink, rate=3e-5)
    audits = AuditEvent.objects.count()
    response = check(client_for("viewer"), uplink)
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["verdict"], body["event"], body["loss_rate_a_to_z"], body["penalty"]) == ("keep", event.pk, 3e-5, 3e-5)
    assert body["blocking_tor"] == {
        "switch": uplink.a_switch_id, "name": "t0", "fraction": 1.0, "required_paths": 3, "paths": 4,
    }  # fmt: skip
    assert body["reason"] == "t0 would fall to 2 of 4 up-paths, under the 3 its constraint (0.75) requires"
    assert {row["name"]: row["fraction_after"] for row in body["affected"]} == {"t0": 0.5}
    assert body["last_decision"] is None
    uplink.refresh_from_db()
    assert uplink.admin_state == "enabled" and not Decision.objects.exists() and AuditEvent.objects.count() == audits


def test_what_if_a_clean_spine_uplink_corrupted(client_for, small_fabric):
    uplink = link(small_fabric, "f0", "u0")
    body = check(client_for("technician"), uplink, loss_rate="1e-5", loss_rate_down="2e-6").json()
    assert (body["verdict"], body["event"]) == ("disable", None)
    assert body["penalty"] == pytest.approx(1.2e-5) and body["blocking_tor"] is None
    assert sorted(row["name"] for row in body["affected"]) == ["t0", "t1"]
    assert Link.objects.get(pk=uplink.pk).admin_state == "enabled"


def test_a_disabled_link_is_not_for_the_fast_checker(client_for, small_fabric):
    uplink = link(small_fabric, "f0", "u0")
    Link.objects.filter(pk=uplink.pk).update(admin_state="disabled", admin_reason="maintenance")
    body = check(client_for("operator"), uplink).json()
    assert (body["verdict"], body["admin_reason"], body["affected"]) == ("not_applicable", "maintenance", [])
    assert body["reason"].startswith("the link is disabled and up")


def test_every_role_may_ask_and_bad_rates_are_listed(client_for, anonymous, small_fabric):
    uplink = link(small_fabric, "f0", "u0")
    for role in ROLES:
        assert check(client_for(role), uplink).status_code == 200, role
    assert check(anonymous, uplink).status_code == 401
    assert client_for("admin").get("/api/links/999999/corropt-check/").status_code == 404
    bad = check(client_for("viewer"), uplink, loss_rate="lots", loss_rate_down="2")
    assert bad.status_code == 400
    assert bad.json() == {
        "loss_rate": ["must be a number, got 'lots'"],
        "loss_rate_down": ["must be a fraction between 0 and 1, got 2"],
    }
