"""The per-process engine session of the capacity guard (fabric.services.live) stays on the
committed state: a rolled-back change is forgotten, another process's change is seen by the next
guarded call, and a new link rebuilds the session (docs/capacity-guard.md).

Pod 1 of the demo fabric: p1-tor0 has 4 uplinks (to p1-fab0..3), each fabric switch 4 spine
uplinks, so 16 up-paths; the constraint 0.75 requires 12. One uplink may go (16 -> 12), a second
may not (12 -> 8).
"""

import json
from pathlib import Path

import psycopg
import pytest
from django.conf import settings
from django.db import connections, transaction

from fabric import services as fabric_services
from fabric.models import Link, Switch
from fabric.services import link_state, live

pytestmark = pytest.mark.django_db(transaction=True)  # each change in its own, real transaction

DEMO = Path(settings.REPO_ROOT) / "fixtures" / "data" / "demo-fb.json"
TOR = "p1-tor0"


class Rollback(Exception):
    pass


@pytest.fixture
def fabric():
    live.forget()
    yield fabric_services.import_document(json.loads(DEMO.read_text()))
    live.forget()


@pytest.fixture
def uplinks(fabric):
    return list(Link.objects.filter(fabric=fabric, a_switch__name=TOR).order_by("id"))


def tor_row(verdict: link_state.Verdict) -> dict:
    [row] = [row for row in verdict.affected_tors if row["name"] == TOR]
    return row


def tor_paths(fabric) -> tuple[int, int]:
    [row] = [row for row in fabric_services.fabric_capacity(fabric)["tors"] if row["name"] == TOR]
    return row["available_paths"], row["total_paths"]


def disable(link: Link) -> link_state.Verdict:
    return link_state.set_admin_state(Link.objects.get(pk=link.pk), Link.AdminState.DISABLED, "test")


def write_from_another_process(link: Link, admin_state: str) -> None:
    """A committed UPDATE on a connection of its own, never told to this process's session."""
    db = connections["default"].settings_dict
    with psycopg.connect(
        host=db["HOST"], port=db["PORT"], dbname=db["NAME"], user=db["USER"], password=db["PASSWORD"]
    ) as other:
        other.execute("UPDATE fabric_link SET admin_state = %s WHERE id = %s", [admin_state, link.pk])


def test_a_rolled_back_disable_is_forgotten(fabric, uplinks):
    first, second = uplinks[:2]
    assert tor_paths(fabric) == (16, 16)  # the session is built
    with pytest.raises(Rollback), transaction.atomic():
        verdict = disable(first)
        assert verdict.applied and (tor_row(verdict)["paths_before"], tor_row(verdict)["paths_after"]) == (16, 12)
        # The transaction sees its own change: a second uplink is refused in it.
        refused = disable(second)
        assert not refused.applied and refused.blocking_tors[0]["name"] == TOR
        assert (refused.blocking_tors[0]["paths_before"], refused.blocking_tors[0]["paths_after"]) == (12, 8)
        raise Rollback

    first.refresh_from_db()
    assert first.admin_state == Link.AdminState.ENABLED
    assert tor_paths(fabric) == (16, 16)
    # The next guarded change decides on the committed state: the first uplink is in service.
    verdict = disable(second)
    assert verdict.applied and (tor_row(verdict)["paths_before"], tor_row(verdict)["paths_after"]) == (16, 12)
    refused = disable(first)
    assert not refused.applied
    assert (refused.blocking_tors[0]["paths_before"], refused.blocking_tors[0]["paths_after"]) == (12, 8)
    assert tor_paths(fabric) == (12, 16)


def test_a_rolled_back_savepoint_is_forgotten_by_the_rest_of_its_transaction(fabric, uplinks):
    first, second = uplinks[:2]
    assert tor_paths(fabric) == (16, 16)
    with transaction.atomic():
        with pytest.raises(Rollback), transaction.atomic():
            assert disable(first).applied
            raise Rollback
        verdict = disable(second)
        assert verdict.applied and (tor_row(verdict)["paths_before"], tor_row(verdict)["paths_after"]) == (16, 12)
    refused = disable(first)
    assert not refused.applied and refused.blocking_tors[0]["name"] == TOR
    assert dict(Link.objects.filter(pk__in=[first.pk, second.pk]).values_list("id", "admin_state")) == {
        first.pk: "enabled",
        second.pk: "disabled",
    }


def test_a_state_written_by_another_process_is_seen_by_the_next_guarded_call(fabric, uplinks):
    first, second = uplinks[:2]
    assert tor_paths(fabric) == (16, 16)
    write_from_another_process(first, "disabled")
    refused = disable(second)
    assert not refused.applied, "the session did not see the other process's disable"
    assert (refused.blocking_tors[0]["paths_before"], refused.blocking_tors[0]["paths_after"]) == (12, 8)

    write_from_another_process(first, "enabled")
    verdict = disable(second)
    assert verdict.applied, "the session did not see the other process's enable"
    assert (tor_row(verdict)["paths_before"], tor_row(verdict)["paths_after"]) == (16, 12)
    assert tor_paths(fabric) == (12, 16)


def test_a_new_link_rebuilds_the_session(fabric, uplinks):
    assert tor_paths(fabric) == (16, 16)
    tor, fab = Switch.objects.get(fabric=fabric, name=TOR), Switch.objects.get(fabric=fabric, name="p1-fab0")
    extra = Link.objects.create(fabric=fabric, a_switch=tor, a_port="eth9/1", z_switch=fab, z_port="eth9/1")
    # 5 uplinks: 20 up-paths, 15 required.
    assert tor_paths(fabric) == (20, 20)
    verdict = disable(extra)
    assert verdict.applied and (tor_row(verdict)["paths_before"], tor_row(verdict)["paths_after"]) == (20, 16)
    refused = disable(uplinks[0])
    assert not refused.applied
    assert (refused.blocking_tors[0]["paths_after"], refused.blocking_tors[0]["required_paths"]) == (12, 15)


def test_a_link_written_twice_then_a_rebuild_in_one_rolled_back_transaction(fabric, uplinks):
    first, second = uplinks[:2]
    tor = Switch.objects.get(fabric=fabric, name=TOR)
    f0 = Switch.objects.get(fabric=fabric, name="p1-fab0")
    assert tor_paths(fabric) == (16, 16)
    with pytest.raises(Rollback), transaction.atomic():
        assert disable(first).applied
        # Back in this transaction: the row's committed state is the one before the first write.
        assert link_state.set_admin_state(Link.objects.get(pk=first.pk), Link.AdminState.ENABLED, "back").applied
        # Another process adds an uplink and commits: the next call rebuilds the session inside this
        # transaction, from rows that include this transaction's own.
        insert_from_another_process(fabric, tor, f0)
        verdict = disable(second)
        assert verdict.applied and (tor_row(verdict)["paths_before"], tor_row(verdict)["paths_after"]) == (20, 16)
        raise Rollback
    # The committed state: every old uplink enabled and the new one, 20 of 20 (15 required).
    assert tor_paths(fabric) == (20, 20)
    assert disable(first).applied
    assert not disable(second).applied


def insert_from_another_process(fabric, lower: Switch, upper: Switch) -> None:
    db = connections["default"].settings_dict
    with psycopg.connect(
        host=db["HOST"], port=db["PORT"], dbname=db["NAME"], user=db["USER"], password=db["PASSWORD"]
    ) as other:
        other.execute(
            "INSERT INTO fabric_link (fabric_id, a_switch_id, a_port, z_switch_id, z_port, fiber, admin_state, "
            "admin_reason, oper_state) VALUES (%s, %s, 'new', %s, 'new', '', 'enabled', '', 'up')",
            [fabric.pk, lower.pk, upper.pk],
        )
