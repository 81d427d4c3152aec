"""Capacity constraint editing: GET/PUT/PATCH /api/fabrics/{id}/constraints/ (fabric.services.constraints).

Every change is audited and, once committed, queues CorrOpt's optimizer for the fabric (one job
however many changes: corruption.optimizer coalesces).
"""

import pytest
from rest_framework.test import APIClient

from accounts.roles import ROLES
from audit.models import AuditEvent
from fabric.models import Fabric, Link, Switch
from jobs.models import Job

pytestmark = pytest.mark.django_db


def url(fabric) -> str:
    return f"/api/fabrics/{fabric.pk}/constraints/"


def overrides(fabric) -> dict[str, float]:
    return dict(
        Switch.objects.filter(fabric=fabric, capacity_constraint__isnull=False).values_list(
            "name", "capacity_constraint"
        )
    )


def optimizer_jobs(fabric) -> list[Job]:
    return list(Job.objects.filter(kind="corruption.optimize", fabric=fabric))


def run_commit_hooks(callbacks) -> None:
    """What happens once the request's transaction commits (the test's never does)."""
    for callback in callbacks:
        callback()


def test_every_role_reads_them(client_for, small_fabric):
    Switch.objects.filter(fabric=small_fabric, name="t1").update(capacity_constraint=0.5)
    for role in ROLES:
        response = client_for(role).get(url(small_fabric))
        assert response.status_code == 200, role
        assert response.json() == {"fabric": small_fabric.pk, "default": 0.75, "overrides": {"t1": 0.5}, "tors": 3}


@pytest.mark.parametrize("role", ROLES)
def test_only_operators_and_admins_write_them(role, client_for, anonymous, small_fabric):
    response = client_for(role).put(url(small_fabric), {"default": 0.6, "overrides": {}}, format="json")
    assert response.status_code == (200 if role in {"operator", "admin"} else 403), response.content
    expected = 0.6 if role in {"operator", "admin"} else 0.75
    assert Fabric.objects.get(pk=small_fabric.pk).capacity_constraint == expected
    assert client_for(role).patch(url(small_fabric), {"default": 0.7}, format="json").status_code in {200, 403}
    assert anonymous.put(url(small_fabric), {"default": 0.5}, format="json").status_code == 401


def test_put_replaces_audits_and_queues_one_optimizer_run(
    client_for, make_user, small_fabric, django_capture_on_commit_callbacks
):
    Switch.objects.filter(fabric=small_fabric, name="t1").update(capacity_constraint=0.5)
    operator = make_user("operator", "op-anna")
    client = APIClient()
    client.force_authenticate(operator)

    with django_capture_on_commit_callbacks() as callbacks:
        response = client.put(url(small_fabric), {"default": 0.7, "overrides": {"t0": 0.6, "t2": 1}}, format="json")

    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["default"], body["overrides"]) == (0.7, {"t0": 0.6, "t2": 1.0})
    assert body["changes"] == [
        {"switch": None, "before": 0.75, "after": 0.7},
        {"switch": "t0", "before": None, "after": 0.6},
        {"switch": "t1", "before": 0.5, "after": None},  # not named: its override is cleared
        {"switch": "t2", "before": None, "after": 1.0},
    ]
    assert overrides(small_fabric) == {"t0": 0.6, "t2": 1.0}
    audits = AuditEvent.objects.filter(user=operator, action="update").order_by("id")
    assert [(a.object_repr, a.before["capacity_constraint"], a.after["capacity_constraint"]) for a in audits] == [
        ("small", 0.75, 0.7),
        ("t0", None, 0.6),
        ("t1", 0.5, None),
        ("t2", None, 1.0),
    ]
    run_commit_hooks(callbacks)
    (job,) = optimizer_jobs(small_fabric)
    assert job.state == "queued" and job.created_by == operator
    assert job.params["reasons"] == [
        "capacity constraints changed: default 0.75 -> 0.7, t0 none -> 0.6, t1 0.5 -> none, t2 none -> 1"
    ]


def test_patch_changes_only_what_it_names_and_null_clears(client_for, small_fabric, django_capture_on_commit_callbacks):
    Switch.objects.filter(fabric=small_fabric, name__in=["t1", "t2"]).update(capacity_constraint=0.5)
    client = client_for("operator")
    with django_capture_on_commit_callbacks() as callbacks:
        response = client.patch(url(small_fabric), {"overrides": {"t1": None, "t0": 0.9}}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["default"] == 0.75 and overrides(small_fabric) == {"t0": 0.9, "t2": 0.5}
    assert len(callbacks) == 1

    # The same again changes nothing: no audit row, no optimizer run.
    audits = AuditEvent.objects.count()
    with django_capture_on_commit_callbacks() as callbacks:
        again = client.patch(url(small_fabric), {"overrides": {"t1": None, "t0": 0.9}, "default": 0.75}, format="json")
    assert again.status_code == 200 and again.json()["changes"] == []
    assert AuditEvent.objects.count() == audits and callbacks == []


def test_a_bad_document_lists_every_problem_and_changes_nothing(client_for, small_fabric):
    response = client_for("operator").put(
        url(small_fabric),
        {"overrides": {"t0": 1.5, "nope": 0.5, "f0": 0.5, "t1": "high", "t2": None}, "colour": "red"},
        format="json",
    )
    assert response.status_code == 400
    assert response.json() == {
        "colour": ["unknown field; the fields are default and overrides"],
        "default": ["required (PUT replaces the constraints; PATCH changes some)"],
        "overrides": {
            "t0": ["must be between 0 and 1 (a fraction of the ToR's up-paths), got 1.5"],
            "nope": ["no switch named 'nope' in fabric 'small'"],
            "f0": ["'f0' is on tier 1; only ToRs (tier 0) have a capacity constraint"],
            "t1": ["must be a number between 0 and 1, got 'high'"],
        },
    }
    for body in ({"default": True}, {"default": -0.1}, {"default": None}):
        bad = client_for("operator").patch(url(small_fabric), body, format="json")
        assert bad.status_code == 400 and list(bad.json()) == ["default"], body
    assert client_for("operator").put(url(small_fabric), [0.5], format="json").status_code == 400
    assert client_for("operator").patch(url(small_fabric), {"overrides": [0.5]}, format="json").status_code == 400
    assert Fabric.objects.get(pk=small_fabric.pk).capacity_constraint == 0.75 and overrides(small_fabric) == {}


def test_the_crud_endpoints_queue_the_optimizer_too(client_for, small_fabric, django_capture_on_commit_callbacks):
    t0 = Switch.objects.get(fabric=small_fabric, name="t0")
    f0 = Switch.objects.get(fabric=small_fabric, name="f0")
    spine_uplink = Link.objects.filter(fabric=small_fabric, a_switch=f0).first()
    Link.objects.filter(pk=spine_uplink.pk).update(admin_state="disabled")
    client = client_for("operator")
    with django_capture_on_commit_callbacks() as callbacks:
        assert (
            client.patch(f"/api/fabrics/{small_fabric.pk}/", {"capacity_constraint": 0.6}, format="json").status_code
            == 200
        )
        assert client.patch(f"/api/switches/{t0.pk}/", {"capacity_constraint": 0.5}, format="json").status_code == 200
        assert (
            client.patch(f"/api/links/{spine_uplink.pk}/", {"admin_state": "enabled"}, format="json").status_code == 200
        )
        # Not a capacity change: nothing queued.
        assert client.patch(f"/api/fabrics/{small_fabric.pk}/", {"description": "x"}, format="json").status_code == 200
        assert client.patch(f"/api/switches/{f0.pk}/", {"rack": "r1"}, format="json").status_code == 200
    assert len(callbacks) == 3
    run_commit_hooks(callbacks)
    (job,) = optimizer_jobs(small_fabric)  # coalesced into one queued job
    assert job.params["reasons"] == [
        "capacity constraints changed: default 0.75 -> 0.6",
        "capacity constraints changed: t0 none -> 0.5",
        f"link {spine_uplink.pk} enabled and up",
    ]


def test_planners_edit_the_design_but_not_the_live_constraint(client_for, small_fabric):
    t0 = Switch.objects.get(fabric=small_fabric, name="t0")
    planner = client_for("planner")
    refused = planner.patch(f"/api/fabrics/{small_fabric.pk}/", {"capacity_constraint": 0.6}, format="json")
    assert refused.status_code == 403
    assert "operators and admins" in refused.json()["detail"]
    assert planner.patch(f"/api/switches/{t0.pk}/", {"capacity_constraint": 0.5}, format="json").status_code == 403
    # Sending the unchanged value, or other fields, is a design edit planners may make.
    same = {"capacity_constraint": small_fabric.capacity_constraint, "description": "rack row B"}
    assert planner.patch(f"/api/fabrics/{small_fabric.pk}/", same, format="json").status_code == 200
    assert planner.patch(f"/api/switches/{t0.pk}/", {"rack": "r9"}, format="json").status_code == 200
    assert Fabric.objects.get(pk=small_fabric.pk).capacity_constraint == 0.75
    assert Switch.objects.get(pk=t0.pk).capacity_constraint is None
