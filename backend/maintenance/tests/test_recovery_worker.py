"""Capacity recovery applied by the system through a real Celery worker (issue #18): on a fabric
with auto_restore, a link going down (telemetry's path through link_state) sends
`maintenance.recover` once its transaction commits, and the worker re-enables the lossy link
that brings the ToR back. The demo's pod 1 as in test_recovery.py."""

import copy
import time

import pytest

from audit.models import AuditEvent
from fabric import services as fabric_services
from fabric.models import Fabric, Link
from fabric.services import link_state, live

from .test_visits import DEMO, corrupt, decide, link_at

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True, databases=["default", "progress"])]


def wait_for_state(link: Link, admin_state: str, timeout: float = 60) -> Link:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        link.refresh_from_db()
        if link.admin_state == admin_state:
            return link
        time.sleep(0.1)
    raise AssertionError(f"{link} still {link.admin_state} ({link.admin_reason}) after {timeout} s")


def test_a_link_going_down_is_recovered_by_the_worker_when_auto_restore_is_on(worker):
    live.forget()
    fabric = fabric_services.import_document(copy.deepcopy(DEMO))
    lossy = link_at(fabric, "p1-tor0", "eth2/1")
    decide(corrupt(lossy, rate=1e-4))
    Fabric.objects.filter(pk=fabric.pk).update(auto_restore=True)

    down = link_at(fabric, "p1-tor0", "eth2/2")
    link_state.set_oper_states(fabric.pk, {down.pk: Link.OperState.DOWN})  # commits: the task is sent

    lossy = wait_for_state(lossy, "enabled")
    assert lossy.admin_reason == "restoration: capacity recovery" and lossy.admin_changed_by is None
    row = AuditEvent.objects.get(object_type="fabric.fabric", object_id=fabric.pk, note__startswith="capacity")
    assert row.user is None and row.note == "capacity recovery: automatic (auto_restore)"
    (tor,) = [row for row in fabric_services.fabric_capacity(fabric)["tors"] if row["name"] == "p1-tor0"]
    assert (tor["available_paths"], tor["required_paths"]) == (12, 12)
    live.forget()
