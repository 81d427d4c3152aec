"""The capacity guard through the REST API (docs/capacity-guard.md), on the two-pod fabric of
backend/conftest.py: every ToR has 4 up-paths and needs 3 at the fabric's 0.75."""

import pytest

from audit.models import AuditEvent
from fabric.models import Link, Switch
from fabric.services import link_state
from webhooks.models import WebhookDelivery, WebhookEndpoint

pytestmark = pytest.mark.django_db


def link(fabric, a: str, a_port: str) -> Link:
    return Link.objects.get(fabric=fabric, a_switch__name=a, a_port=a_port)


def state(item: Link) -> str:
    item.refresh_from_db()
    return item.admin_state


def test_a_change_that_starves_a_tor_is_refused_with_the_tor_and_its_numbers(client_for, small_fabric):
    uplink = link(small_fabric, "t0", "up0")
    response = client_for("operator").patch(f"/api/links/{uplink.pk}/", {"admin_state": "disabled"}, format="json")
    assert response.status_code == 409
    body = response.json()
    assert body["links"] == [uplink.pk]
    assert body["detail"] == ("Refused: t0 would fall to 2 of 4 up-paths, under the 3 its constraint (0.75) requires.")
    (tor,) = body["blocking_tors"]
    t0 = Switch.objects.get(fabric=small_fabric, name="t0")
    assert {key: tor[key] for key in ("switch", "name", "paths_before", "paths_after", "required_paths")} == {
        "switch": t0.pk,
        "name": "t0",
        "paths_before": 4,
        "paths_after": 2,
        "required_paths": 3,
    }
    assert tor["constraint"] == 0.75
    assert state(uplink) == "enabled"
    assert not AuditEvent.objects.filter(object_type="fabric.link").exists()


def test_a_per_tor_override_is_the_constraint_that_counts(client_for, small_fabric):
    Switch.objects.filter(fabric=small_fabric, name="t0").update(capacity_constraint=0.5)
    uplink = link(small_fabric, "t0", "up0")
    response = client_for("operator").patch(f"/api/links/{uplink.pk}/", {"admin_state": "disabled"}, format="json")
    assert response.status_code == 200 and response.json()["admin_state"] == "disabled"
    # t0 is now at its floor of 2: its other uplink may not go, whatever the fabric default says.
    other = link(small_fabric, "t0", "up1")
    response = client_for("operator").patch(f"/api/links/{other.pk}/", {"admin_state": "disabled"}, format="json")
    assert response.status_code == 409
    assert response.json()["blocking_tors"][0]["constraint"] == 0.5


def test_dry_run_previews_and_changes_nothing(client_for, small_fabric):
    client = client_for("operator")
    safe = link(small_fabric, "f2", "u0")
    response = client.patch(f"/api/links/{safe.pk}/?dry_run=1", {"admin_state": "disabled"}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["verdict"] == "safe" and body["blocking_tors"] == [] and body["links"] == [safe.pk]
    assert body["detail"] == "Safe: no ToR falls under its capacity constraint (1 link changing)."
    assert [(t["name"], t["paths_before"], t["paths_after"]) for t in body["affected_tors"]] == [("t2", 4, 3)]
    unsafe = link(small_fabric, "t1", "up1")
    body = client.patch(f"/api/links/{unsafe.pk}/?dry_run=1", {"admin_state": "disabled"}, format="json").json()
    assert body["verdict"] == "unsafe" and [t["name"] for t in body["blocking_tors"]] == ["t1"]
    assert state(safe) == state(unsafe) == "enabled"


def test_only_an_admin_with_a_reason_may_override(client_for, small_fabric, make_user):
    WebhookEndpoint.objects.create(fabric=small_fabric, name="ctl", payload_url="http://ctl.test/", secret="s" * 32)
    uplink = link(small_fabric, "t0", "up0")
    url = f"/api/links/{uplink.pk}/"
    forced = {"admin_state": "disabled", "override_capacity": True}
    assert client_for("operator").patch(url, {**forced, "admin_reason": "x"}, format="json").status_code == 403
    admin = client_for("admin")
    response = admin.patch(url, forced, format="json")
    assert response.status_code == 400 and "admin_reason" in response.json()
    assert state(uplink) == "enabled"
    response = admin.patch(url, {**forced, "admin_reason": "optic swap, traffic drained"}, format="json")
    assert response.status_code == 200
    assert state(uplink) == "disabled"
    row = AuditEvent.objects.get(object_type="fabric.link", object_id=uplink.pk)
    assert row.note == "capacity override: optic swap, traffic drained"
    payload = WebhookDelivery.objects.select_related("event").get().event.payload
    assert payload["override_capacity"] is True and payload["admin_state"] == "disabled"


def test_a_safe_change_by_an_admin_is_no_override(client_for, small_fabric):
    safe = link(small_fabric, "f2", "u0")
    body = {"admin_state": "disabled", "override_capacity": True, "admin_reason": "planned"}
    assert client_for("admin").patch(f"/api/links/{safe.pk}/", body, format="json").status_code == 200
    assert AuditEvent.objects.get(object_type="fabric.link", object_id=safe.pk).note == ""


def test_a_bulk_change_is_decided_as_one_set(client_for, small_fabric):
    client = client_for("operator")
    # Each is safe alone (t2 keeps 3 of 4); together t2 keeps 2.
    first, second = link(small_fabric, "f2", "u0"), link(small_fabric, "f3", "u0")
    rows = [{"id": first.pk, "admin_state": "disabled"}, {"id": second.pk, "admin_state": "disabled"}]
    response = client.patch("/api/links/", rows, format="json")
    assert response.status_code == 409
    assert response.json()["links"] == sorted([first.pk, second.pk])
    assert [t["name"] for t in response.json()["blocking_tors"]] == ["t2"]
    assert state(first) == state(second) == "enabled"
    # The same set with a spine link of the other pod swapped in is safe, and applied whole.
    third = link(small_fabric, "f0", "u0")
    rows = [{"id": first.pk, "admin_state": "disabled", "admin_reason": "fiber work"},
            {"id": third.pk, "admin_state": "disabled", "admin_reason": "fiber work"}]  # fmt: skip
    response = client.patch("/api/links/", rows, format="json")
    assert response.status_code == 200
    assert sorted((row["id"], row["admin_state"]) for row in response.json()) == sorted(
        [(first.pk, "disabled"), (third.pk, "disabled")]
    )


def test_a_bulk_change_lists_every_problem(client_for, small_fabric, small_document):
    client = client_for("operator")
    one = link(small_fabric, "f2", "u0")
    rows = [{"id": one.pk, "admin_state": "off"}, {"id": one.pk}]
    response = client.patch("/api/links/", rows, format="json")
    assert response.status_code == 400
    errors = response.json()  # keyed by the entry's index, as bulk creates are
    assert "admin_state" in errors["0"] and "admin_state" in errors["1"]
    response = client.patch(
        "/api/links/", [{"id": one.pk, "admin_state": "disabled"}, {"id": one.pk, "admin_state": "enabled"}]
    )
    assert response.status_code == 400 and "more than once" in str(response.json())
    response = client.patch("/api/links/", [{"id": 10**9, "admin_state": "disabled"}], format="json")
    assert response.status_code == 400 and response.json() == {"0": {"id": ["link 1000000000 does not exist"]}}
    assert client.patch("/api/links/", [], format="json").status_code == 400
    # Every problem in one answer, keyed by entry.
    rows = [{"id": one.pk, "admin_state": "bogus"}, {"id": 10**9, "admin_state": "disabled"}, {},
            {"id": one.pk, "admin_state": "disabled"}, {"id": one.pk, "admin_state": "enabled"}]  # fmt: skip
    errors = client.patch("/api/links/", rows, format="json").json()
    assert set(errors) == {"0", "1", "2", "4"}
    assert errors["1"] == {"id": ["link 1000000000 does not exist"]}
    assert errors["4"] == {"id": [f"link {one.pk} is listed more than once (entry 3)"]}
    assert state(one) == "enabled"


def test_drain_and_undrain_a_spine(client_for, small_fabric):
    client = client_for("operator")
    s0 = Switch.objects.get(fabric=small_fabric, name="s0")
    spine_links = set(link_state.switch_links(s0))
    # At 0.75 every ToR would keep 2 of 4 paths: refused, as one set.
    preview = client.post(f"/api/switches/{s0.pk}/drain/?dry_run=1", {}, format="json").json()
    assert preview["verdict"] == "unsafe" and len(preview["blocking_tors"]) == 3
    response = client.post(f"/api/switches/{s0.pk}/drain/", {}, format="json")
    assert response.status_code == 409
    assert not Link.objects.filter(pk__in=spine_links, admin_state="disabled").exists()
    # At 0.5 it is safe. A spine link already disabled for corruption stays as it is.
    client.put(f"/api/fabrics/{small_fabric.pk}/constraints/", {"default": 0.5, "overrides": {}}, format="json")
    corrupt = link(small_fabric, "f3", "u0")
    link_state.set_admin_state(corrupt, "disabled", "corruption")
    response = client.post(f"/api/switches/{s0.pk}/drain/", {"admin_reason": "PSU swap"}, format="json")
    assert response.status_code == 200
    assert set(response.json()["links"]) == spine_links - {corrupt.pk}
    reasons = dict(Link.objects.filter(pk__in=spine_links).values_list("id", "admin_reason"))
    assert reasons == {pk: "corruption" if pk == corrupt.pk else "maintenance: PSU swap" for pk in spine_links}
    assert client.get(f"/api/switches/{s0.pk}/").json()["drained"] is True
    response = client.post(f"/api/switches/{s0.pk}/undrain/", format="json")
    assert response.status_code == 200 and set(response.json()["links"]) == spine_links - {corrupt.pk}
    states = dict(Link.objects.filter(pk__in=spine_links).values_list("id", "admin_state"))
    assert states == {pk: "disabled" if pk == corrupt.pk else "enabled" for pk in spine_links}
    assert client.get(f"/api/switches/{s0.pk}/").json()["drained"] is False


def test_deleting_a_link_in_service_counts_as_taking_it_out(client_for, small_fabric):
    admin = client_for("admin")
    uplink = link(small_fabric, "t0", "up0")
    response = admin.delete(f"/api/links/{uplink.pk}/")
    assert response.status_code == 409 and response.json()["blocking_tors"][0]["name"] == "t0"
    assert Link.objects.filter(pk=uplink.pk).exists()
    safe = link(small_fabric, "f2", "u0")
    assert admin.delete(f"/api/links/{safe.pk}/").status_code == 204
    # A switch whose links carry a ToR's paths: its deletion is refused too.
    f0 = Switch.objects.get(fabric=small_fabric, name="f0")
    response = admin.delete(f"/api/switches/{f0.pk}/")
    assert response.status_code == 409 and {t["name"] for t in response.json()["blocking_tors"]} == {"t0", "t1"}
    assert Switch.objects.filter(pk=f0.pk).exists()


def test_oper_state_is_measured_not_written(client_for, small_fabric):
    uplink = link(small_fabric, "t0", "up0")
    response = client_for("operator").patch(f"/api/links/{uplink.pk}/", {"oper_state": "down"}, format="json")
    assert response.status_code == 200 and response.json()["oper_state"] == "up"
    uplink.refresh_from_db()
    assert uplink.oper_state == "up"


def test_capacity_follows_changes_made_by_anyone(client_for, small_fabric):
    client = client_for("viewer")
    before = {
        t["name"]: t["available_paths"] for t in client.get(f"/api/fabrics/{small_fabric.pk}/capacity/").json()["tors"]
    }
    assert before == {"t0": 4, "t1": 4, "t2": 4}
    link_state.set_oper_states(small_fabric.pk, {link(small_fabric, "t0", "up0").pk: "down"})
    Link.objects.filter(pk=link(small_fabric, "f2", "u0").pk).update(admin_state="disabled")  # bypassing the guard
    after = {
        t["name"]: t["available_paths"] for t in client.get(f"/api/fabrics/{small_fabric.pk}/capacity/").json()["tors"]
    }
    assert after == {"t0": 2, "t1": 4, "t2": 3}
