"""The role matrix: who may read and write what, and what anonymous callers get."""

import pytest
from rest_framework.test import APIClient

from accounts.roles import ROLES
from fabric.models import Link, Switch, Transceiver

pytestmark = pytest.mark.django_db

READ_ENDPOINTS = [
    "/api/fabrics/",
    "/api/switches/",
    "/api/links/",
    "/api/transceiver-models/",
    "/api/transceivers/",
    "/api/jobs/",
    "/api/jobs/kinds/",
    "/api/audit/",
    "/api/users/",
    "/api/circuit-switches/",
    "/api/demands/",
    "/api/circuit-schedules/",
    "/api/schema/",
    "/api/docs/",
]


def _write_cases(fabric):
    # A fabric-to-spine link: each ToR below keeps 3 of 4 up-paths, so the capacity guard lets it go.
    link = Link.objects.filter(fabric=fabric, a_switch__tier=1).order_by("id").first()
    switch = Switch.objects.filter(fabric=fabric, tier=0).first()
    spine = Switch.objects.filter(fabric=fabric, tier=2).first()
    transceiver = Transceiver.objects.filter(link__fabric=fabric).first()
    # An import needs a switch (README "Data model and the interchange document"): one leaf.
    new_doc = {"name": "another", "tiers": ["leaf", "spine"], "switches": [{"name": "l0", "tier": 0}], "links": []}
    return [
        ("post", "/api/fabrics/", {"name": "new", "tiers": ["leaf", "spine"]}, {"planner", "operator", "admin"}),
        ("patch", f"/api/fabrics/{fabric.pk}/", {"description": "edited"}, {"planner", "operator", "admin"}),
        ("post", "/api/fabrics/import/", new_doc, {"planner", "operator", "admin"}),
        ("patch", f"/api/switches/{switch.pk}/", {"rack": "row B"}, {"planner", "operator", "admin"}),
        # A live constraint re-runs CorrOpt: operators' call (planners set it on new fabrics).
        ("patch", f"/api/switches/{switch.pk}/", {"capacity_constraint": 0.5}, {"operator", "admin"}),
        ("put", f"/api/fabrics/{fabric.pk}/constraints/", {"default": 0.6, "overrides": {}}, {"operator", "admin"}),
        (
            "patch",
            f"/api/links/{link.pk}/",
            {"admin_state": "disabled", "admin_reason": "maintenance"},
            {"operator", "admin"},
        ),
        ("patch", "/api/links/?dry_run=1", [{"id": link.pk, "admin_state": "disabled"}], {"operator", "admin"}),
        ("post", f"/api/switches/{spine.pk}/drain/?dry_run=1", {}, {"operator", "admin"}),
        ("post", f"/api/switches/{spine.pk}/undrain/", {}, {"operator", "admin"}),
        ("post", f"/api/fabrics/{fabric.pk}/optimize/", None, {"operator", "admin"}),
        (
            "post",
            "/api/transceiver-models/",
            {"name": "25GBASE-SR", "speed_gbps": 25, "fiber": "MMF", "reach_m": 100},  # not a seeded part
            {"planner", "admin"},
        ),
        ("patch", f"/api/transceivers/{transceiver.pk}/", {"serial": "SN123"}, {"technician", "operator", "admin"}),
        ("post", "/api/jobs/", {"kind": "fabric.capacity_report", "fabric": fabric.pk}, set(ROLES)),
        ("delete", f"/api/fabrics/{fabric.pk}/", None, {"admin"}),
    ]


@pytest.mark.parametrize("url", READ_ENDPOINTS)
def test_every_role_reads_and_anonymous_gets_401(url, client_for, anonymous, small_fabric):
    for role in ROLES:
        assert client_for(role).get(url).status_code == 200, role
    assert client_for(None).get(url).status_code == 403
    response = anonymous.get(url)
    assert response.status_code == 401


def test_write_matrix(client_for, small_fabric, every_role):
    for method, url, data, allowed in _write_cases(small_fabric):
        response = getattr(client_for(every_role), method)(url, data, format="json")
        if every_role in allowed:
            assert response.status_code < 300, (method, url, every_role, response.status_code, response.content[:300])
        else:
            assert response.status_code == 403, (method, url, every_role, response.status_code)


def test_user_without_role_cannot_write(client_for, small_fabric):
    for method, url, data, _allowed in _write_cases(small_fabric):
        assert getattr(client_for(None), method)(url, data, format="json").status_code == 403, url


def test_user_without_role_sees_that_it_has_none(client_for):
    assert client_for(None).get("/api/auth/me/").json()["roles"] == []


def test_anonymous_only_reaches_health_and_login(anonymous, small_fabric):
    assert anonymous.get("/api/auth/me/").status_code == 401
    assert anonymous.get("/api/health/").status_code == 200
    assert anonymous.get("/api/auth/csrf/").status_code == 200
    assert anonymous.post("/api/fabrics/import/", {}, format="json").status_code == 401
    assert anonymous.get(f"/api/fabrics/{small_fabric.pk}/capacity/").status_code == 401


def test_token_login_and_token_auth(make_user):
    make_user("viewer", username="alice")
    client = APIClient()
    bad = client.post("/api/auth/token/", {"username": "alice", "password": "wrong"}, format="json")
    assert bad.status_code == 400
    assert "Invalid username or password." in str(bad.json())
    response = client.post("/api/auth/token/", {"username": "alice", "password": "pw-for-tests-only"}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["roles"] == ["viewer"]
    client.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    me = client.get("/api/auth/me/").json()
    assert me == {"username": "alice", "roles": ["viewer"], "is_admin": False}
    # the same token comes back on the next login, so scripts can log in repeatedly
    again = APIClient().post("/api/auth/token/", {"username": "alice", "password": "pw-for-tests-only"}, format="json")
    assert again.json()["token"] == body["token"]


def test_session_login_enforces_csrf_and_logout(make_user):
    make_user("operator", username="bob")
    client = APIClient(enforce_csrf_checks=True)
    refused = client.post("/api/auth/login/", {"username": "bob", "password": "pw-for-tests-only"}, format="json")
    assert refused.status_code == 403  # no CSRF token yet
    token = client.get("/api/auth/csrf/").json()["csrf_token"]
    ok = client.post(
        "/api/auth/login/", {"username": "bob", "password": "pw-for-tests-only"}, format="json", HTTP_X_CSRFTOKEN=token
    )
    assert ok.status_code == 200
    assert ok.json()["roles"] == ["operator"]
    assert client.get("/api/auth/me/").status_code == 200
    token = client.cookies["csrftoken"].value
    assert client.post("/api/auth/logout/", HTTP_X_CSRFTOKEN=token).status_code == 204
    assert client.get("/api/auth/me/").status_code == 401


def test_demo_users_only_in_demo_mode(settings, db):
    from django.core.exceptions import ImproperlyConfigured

    from accounts.services import create_demo_users

    settings.LIGHTPATH_DEMO = False
    with pytest.raises(ImproperlyConfigured):
        create_demo_users()
    settings.LIGHTPATH_DEMO = True
    assert create_demo_users() == list(ROLES)
