"""Per-ToR capacity from the native engine, checked against the plain Python reference."""

import random

import pytest

from fabric.models import Link, Switch
from fabric.services import export_document
from lightpath_fixtures import tor_capacity

pytestmark = pytest.mark.django_db


def test_full_fabric(client_for, small_fabric):
    body = client_for("viewer").get(f"/api/fabrics/{small_fabric.pk}/capacity/").json()
    assert body["summary"] == {"tors": 3, "below_constraint": 0, "min_fraction": 1.0}
    assert {t["name"]: (t["available_paths"], t["total_paths"]) for t in body["tors"]} == {
        "t0": (4, 4),
        "t1": (4, 4),
        "t2": (4, 4),
    }


def test_disabled_and_down_links_reduce_capacity(client_for, small_fabric):
    Link.objects.filter(a_switch__name="f0", z_switch__name="s0").update(admin_state="disabled")
    Link.objects.filter(a_switch__name="t2", z_switch__name="f2").update(oper_state="down")
    Switch.objects.filter(name="t1").update(capacity_constraint=0.5)
    body = client_for("viewer").get(f"/api/fabrics/{small_fabric.pk}/capacity/").json()
    by_name = {t["name"]: t for t in body["tors"]}
    assert (by_name["t0"]["available_paths"], by_name["t0"]["fraction"], by_name["t0"]["below_constraint"]) == (
        3,
        0.75,
        False,
    )
    assert by_name["t0"]["headroom_paths"] == 0
    assert (by_name["t1"]["constraint"], by_name["t1"]["headroom_paths"]) == (0.5, 1)
    assert (by_name["t2"]["available_paths"], by_name["t2"]["below_constraint"]) == (2, True)
    assert body["summary"]["below_constraint"] == 1


def test_matches_path_enumeration_on_random_states(client_for, small_fabric):
    client = client_for("viewer")
    rng = random.Random(7)
    links = list(Link.objects.filter(fabric=small_fabric))
    for _ in range(10):
        for link in links:
            link.admin_state = rng.choice(["enabled", "enabled", "disabled"])
            link.oper_state = rng.choice(["up", "up", "down"])
        Link.objects.bulk_update(links, ["admin_state", "oper_state"])
        body = client.get(f"/api/fabrics/{small_fabric.pk}/capacity/").json()
        expected = {row["name"]: row["available_paths"] for row in tor_capacity(export_document(small_fabric))}
        assert {t["name"]: t["available_paths"] for t in body["tors"]} == expected


def test_topology_is_compact_and_complete(client_for, small_fabric):
    body = client_for("viewer").get(f"/api/fabrics/{small_fabric.pk}/topology/").json()
    assert body["tiers"] == ["tor", "fabric", "spine"]
    assert len(body["switches"]) == 9 and len(body["links"]) == 14
    ids = {s["id"] for s in body["switches"]}
    assert all(link["a"] in ids and link["z"] in ids for link in body["links"])
    assert set(body["links"][0]) == {"id", "a", "z", "admin_state", "oper_state", "health"}
    assert {link["health"] for link in body["links"]} == {"unknown"}  # no telemetry yet


def test_topology_carries_link_health(client_for, small_fabric):
    corrupting = Link.objects.filter(fabric=small_fabric).order_by("id").first()
    Link.objects.filter(pk=corrupting.pk).update(health=Link.Health.CORRUPTING)
    body = client_for("viewer").get(f"/api/fabrics/{small_fabric.pk}/topology/").json()
    health = {link["id"]: link["health"] for link in body["links"]}
    assert health.pop(corrupting.pk) == "corrupting"
    assert set(health.values()) == {"unknown"}
