"""Link operational state from telemetry (docs/telemetry.md, "Operational state"): oper_status in
every format, a link going down and up again through the capacity guard, dark ends, flapping, and
what follows for capacity and the optimizer."""

import datetime as dt
import json

import pytest
from django.db import connection
from django.utils import timezone

from accounts.roles import COLLECTOR
from audit.models import AuditEvent
from fabric.models import Fabric, Link
from jobs.models import Job
from telemetry.services import derivation
from telemetry.services.ingest import TelemetryRejected, ingest

pytestmark = pytest.mark.django_db

GNMI = "application/vnd.lightpath.gnmi+json"
PROMETHEUS = "text/plain; version=0.0.4"
# t0:up0 is side A of the link t0:up0 - f0:d0 (the small fabric of conftest.py).
A, Z = ("t0", "up0"), ("f0", "d0")


def minutes_ago(minutes: float) -> dt.datetime:
    return (timezone.now() - dt.timedelta(minutes=minutes)).replace(second=0, microsecond=0)


def iso(t: dt.datetime) -> str:
    return t.isoformat().replace("+00:00", "Z")


def the_link(fabric: Fabric) -> Link:
    return Link.objects.get(fabric=fabric, a_switch__name="t0", a_port="up0")


def sample(end: tuple[str, str], time: dt.datetime, **fields) -> dict:
    return {"time": iso(time), "switch": end[0], "port": end[1], **fields}


def push(client, body, *, content_type="application/json", fabric="small"):
    """POST a batch, then derive it as the worker would; answers the response."""
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    response = client.post(f"/api/telemetry/?fabric={fabric}", data=data, content_type=content_type)
    if response.status_code == 200:
        response.derived = derivation.derive(Fabric.objects.get(name=fabric))
    return response


def poll(client, time: dt.datetime, a: str | None = "up", z: str | None = "up", **fields):
    """One poll of both ends of the link (oper_status None: not reported)."""
    samples = []
    for end, status in ((A, a), (Z, z)):
        values = {"input_power_dbm": -2.5, **fields}
        if status is not None:
            values["oper_status"] = status
        samples.append(sample(end, time, **values))
    response = push(client, {"samples": samples})
    assert response.status_code == 200, response.content
    return response.derived


def stored_codes(fabric: Fabric) -> dict[tuple[str, str], int | None]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT s.side, s.oper_status FROM telemetry_sample s WHERE s.link_id = %s ORDER BY s.time",
            [the_link(fabric).pk],
        )
        return dict(cursor.fetchall())


def t0_paths(client, fabric: Fabric) -> int:
    body = client.get(f"/api/fabrics/{fabric.pk}/capacity/").json()
    return next(row["available_paths"] for row in body["tors"] if row["name"] == "t0")


def optimizer_jobs(fabric: Fabric) -> int:
    return Job.objects.filter(kind="corruption.optimize", fabric=fabric).count()


class TestFormats:
    """oper_status in the four formats: good values stored as their IF-MIB code, bad ones in the 400."""

    def test_json_takes_the_openconfig_names_and_lists_a_bad_one(self, small_fabric, client_for):
        client = client_for(COLLECTOR)
        t = minutes_ago(10)
        bad = push(
            client,
            {
                "samples": [
                    sample(A, t, oper_status="up"),
                    sample(Z, t, oper_status="sideways"),
                    sample(Z, t, oper_status=3),
                ]
            },
        )
        assert bad.status_code == 400
        errors = bad.json()["errors"]
        assert [(e["index"], e["field"]) for e in errors] == [(1, "oper_status"), (2, "oper_status")]
        assert "sideways" in errors[0]["reason"] and "lower_layer_down" in errors[0]["reason"]
        good = push(client, {"samples": [sample(A, t, oper_status="up"), sample(Z, t, oper_status="LOWER_LAYER_DOWN")]})
        assert good.status_code == 200, good.content
        assert stored_codes(small_fabric) == {"a": 1, "z": 7}

    def test_csv_takes_a_column_and_names_the_line_of_a_bad_value(self, small_fabric, client_for):
        client = client_for(COLLECTOR)
        t = iso(minutes_ago(10))
        body = f"time,switch,port,oper_status,in_pkts\n{t},t0,up0,not_present,5\n{t},f0,d0,flapping,5\n{t},t1,up0,,7\n"
        bad = push(client, body, content_type="text/csv")
        assert bad.status_code == 400
        (error,) = bad.json()["errors"]
        assert (error["index"], error["line"], error["field"]) == (1, 3, "oper_status")
        good = push(client, body.replace("flapping", "dormant"), content_type="text/csv")
        assert good.status_code == 200, good.content
        assert stored_codes(small_fabric) == {"a": 6, "z": 5}

    def test_gnmi_reads_the_interface_oper_status_enumeration(self, small_fabric, client_for):
        client = client_for(COLLECTOR)
        stamp = str(int(minutes_ago(10).timestamp()) * 10**9)

        def note(switch: str, port: str, val: dict) -> dict:
            path = [
                {"name": "interfaces"},
                {"name": "interface", "key": {"name": port}},
                {"name": "state"},
                {"name": "oper-status"},
            ]
            return {"timestamp": stamp, "prefix": {"target": switch}, "update": [{"path": {"elem": path}, "val": val}]}

        bad = push(
            client,
            [note("t0", "up0", {"stringVal": "UP"}), note("f0", "d0", {"stringVal": "SIDEWAYS"})],
            content_type=GNMI,
        )
        assert bad.status_code == 400
        (error,) = bad.json()["errors"]
        assert error["field"] == "oper_status" and "SIDEWAYS" in error["reason"] and error["index"] == 1
        good = push(
            client,
            [note("t0", "up0", {"stringVal": "UP"}), note("f0", "d0", {"jsonIetfVal": "openconfig-interfaces:DOWN"})],
            content_type=GNMI,
        )
        assert good.status_code == 200, good.content
        assert stored_codes(small_fabric) == {"a": 1, "z": 2}

    def test_prometheus_reads_snmp_exporters_if_oper_status_numbers(self, small_fabric, client_for):
        client = client_for(COLLECTOR)
        ms = int(minutes_ago(10).timestamp()) * 1000
        body = (
            "# TYPE ifOperStatus gauge\n"
            f'ifOperStatus{{ifDescr="up0",ifIndex="49",ifName="up0",instance="t0:9116"}} 1 {ms}\n'
            f'ifOperStatus{{ifDescr="d0",ifIndex="1",ifName="d0",instance="f0:9116"}} 9 {ms}\n'
        )
        bad = push(client, body, content_type=PROMETHEUS)
        assert bad.status_code == 400
        (error,) = bad.json()["errors"]
        assert (error["index"], error["line"], error["field"]) == (1, 3, "oper_status")
        assert "ifOperStatus" in error["reason"]
        good = push(client, body.replace("} 9 ", "} 7 "), content_type=PROMETHEUS)
        assert good.status_code == 200, good.content
        assert stored_codes(small_fabric) == {"a": 1, "z": 7}

    def test_the_sql_path_checks_and_merges_oper_status_as_the_fast_path_does(self, small_fabric):
        t = minutes_ago(10)
        # A script's sample with a value no parser gave: the set-based path names it.
        with pytest.raises(TelemetryRejected) as rejected:
            ingest(small_fabric, [{"time": t, "switch": "t0", "port": "up0", "oper_status": "UP!"}])
        (error,) = rejected.value.errors
        assert error["field"] == "oper_status" and '"UP!"' in error["reason"]
        ingest(small_fabric, [{"time": t, "switch": "t0", "port": "up0", "oper_status": "up", "in_pkts": 5}])
        # Re-sent (the full path, merged): the new status replaces the stored one, a field not sent stays.
        ingest(small_fabric, [{"time": t, "switch": "t0", "port": "up0", "oper_status": "down"}])
        ingest(small_fabric, [{"time": t, "switch": "t0", "port": "up0", "in_pkts": 6}])
        with connection.cursor() as cursor:
            cursor.execute("SELECT oper_status, in_pkts FROM telemetry_sample")
            assert cursor.fetchall() == [(2, 6)]


class TestLinkState:
    def test_one_end_down_takes_the_link_down_and_lowers_capacity(self, small_fabric, client_for):
        client, viewer = client_for(COLLECTOR), client_for("viewer")
        link = the_link(small_fabric)
        assert t0_paths(viewer, small_fabric) == 4
        assert poll(client, minutes_ago(30)).oper_changed == []  # already up: nothing changes
        derived = poll(client, minutes_ago(25), z="lower_layer_down")
        assert derived.oper_changed == [link.pk]
        body = viewer.get(f"/api/links/{link.pk}/").json()
        assert body["oper_state"] == "down" and body["oper_changed_at"] is not None
        assert t0_paths(viewer, small_fabric) == 2  # t0 lost the two paths through f0
        audit = AuditEvent.objects.filter(object_type="fabric.link", object_id=link.pk).order_by("-id").first()
        assert audit is not None and audit.user is None and "telemetry" in audit.note
        # Still down while one end is not up, whatever the other says.
        assert poll(client, minutes_ago(20), a="up", z="testing").oper_changed == []
        assert Link.objects.get(pk=link.pk).oper_state == "down"

    def test_both_ends_up_bring_it_back_and_queue_the_optimizer(
        self, small_fabric, client_for, django_capture_on_commit_callbacks
    ):
        client = client_for(COLLECTOR)
        link = the_link(small_fabric)
        poll(client, minutes_ago(30), a="down", z="down")
        assert Link.objects.get(pk=link.pk).oper_state == "down"
        before = optimizer_jobs(small_fabric)
        with django_capture_on_commit_callbacks(execute=True):
            derived = poll(client, minutes_ago(25), a="up", z="up")
        assert derived.oper_changed == [link.pk]
        assert Link.objects.get(pk=link.pk).oper_state == "up"
        assert optimizer_jobs(small_fabric) == before + 1
        assert t0_paths(client_for("viewer"), small_fabric) == 4

    def test_an_end_that_never_reported_does_not_count_and_links_without_it_keep_their_state(
        self, small_document, client_for
    ):
        small_document["links"][0]["oper_state"] = "down"  # imported down (a new fabric's document may say so)
        from fabric import services as fabric_services

        fabric = fabric_services.import_document(small_document)
        client = client_for(COLLECTOR)
        # Counters and light but no oper_status: the link stays as it was.
        assert poll(client, minutes_ago(30), a=None, z=None, in_pkts=10).oper_changed == []
        assert the_link(fabric).oper_state == "down"
        # One end reports up, the other never did: up.
        assert poll(client, minutes_ago(25), a="up", z=None).oper_changed == [the_link(fabric).pk]
        assert the_link(fabric).oper_state == "up"

    def test_a_dark_end_counts_as_down_after_two_polls(self, small_fabric, client_for):
        client = client_for(COLLECTOR)
        link = the_link(small_fabric)
        poll(client, minutes_ago(30))
        # Z's receiver dark on every lane, while both ends still say up.
        dark = {"input_power_channels_dbm": [-40.0, "-inf", -45.0, 0]}
        for minutes, expected in ((25, "up"), (20, "down")):
            samples = [
                sample(A, minutes_ago(minutes), oper_status="up", input_power_dbm=-2.5),
                sample(Z, minutes_ago(minutes), oper_status="up", **dark),
            ]
            assert push(client, {"samples": samples}).status_code == 200
            assert Link.objects.get(pk=link.pk).oper_state == expected, minutes
        # One lane lit again: no longer dark; both ends say up.
        lit = {"input_power_channels_dbm": [-40.0, -3.0, -40.0, -40.0]}
        samples = [sample(A, minutes_ago(15), oper_status="up"), sample(Z, minutes_ago(15), oper_status="up", **lit)]
        assert push(client, {"samples": samples}).derived.oper_changed == [link.pk]
        assert Link.objects.get(pk=link.pk).oper_state == "up"

    def test_a_dark_end_is_not_down_when_the_fabric_says_so(self, small_fabric, client_for):
        Fabric.objects.filter(pk=small_fabric.pk).update(dark_end_is_down=False)
        client = client_for(COLLECTOR)
        for minutes in (30, 25, 20, 15):
            samples = [
                sample(A, minutes_ago(minutes), oper_status="up"),
                sample(Z, minutes_ago(minutes), input_power_dbm=-40.0),
            ]
            assert push(client, {"samples": samples}).status_code == 200
        assert the_link(small_fabric).oper_state == "up"
        # Switched on again, the next derivation counts the dark polls already seen.
        Fabric.objects.filter(pk=small_fabric.pk).update(dark_end_is_down=True)
        samples = [sample(A, minutes_ago(10), oper_status="up"), sample(Z, minutes_ago(10), input_power_dbm=-40.0)]
        assert push(client, {"samples": samples}).derived.oper_changed == [the_link(small_fabric).pk]
        assert the_link(small_fabric).oper_state == "down"

    def test_a_link_that_changes_too_often_is_flapping_until_stable_for_the_window(
        self, small_fabric, client_for, settings
    ):
        settings.LINK_FLAPPING = {"changes": 2, "window_s": 3600}
        client, viewer = client_for(COLLECTOR), client_for("viewer")
        link = the_link(small_fabric)
        start = minutes_ago(150)
        flags = []
        for i, status in enumerate(("up", "down", "up", "down")):  # three changes at minutes 5, 10, 15
            derived = poll(client, start + dt.timedelta(minutes=5 * i), z=status)
            flags.append(derived.flapping_changed)
        assert flags == [{}, {}, {}, {link.pk: True}]
        body = viewer.get(f"/api/links/{link.pk}/").json()
        assert body["flapping"] is True and body["oper_state"] == "down"
        # Within the hour after the last change: still flapping.
        assert poll(client, start + dt.timedelta(minutes=60), z="down").flapping_changed == {}
        # An hour after it: stable again.
        assert poll(client, start + dt.timedelta(minutes=80), z="down").flapping_changed == {link.pk: False}
        assert viewer.get(f"/api/links/{link.pk}/").json()["flapping"] is False

    def test_the_state_survives_a_worker_restart(self, small_fabric, client_for):
        client = client_for(COLLECTOR)
        link = the_link(small_fabric)
        poll(client, minutes_ago(40), z="down")
        # One dark poll of A, then the worker restarts (its state comes back from the checkpoint).
        samples = [sample(A, minutes_ago(35), input_power_dbm=-40.0), sample(Z, minutes_ago(35), oper_status="up")]
        push(client, {"samples": samples})
        assert Link.objects.get(pk=link.pk).oper_state == "up"
        derivation.forget_cached_state()
        samples = [sample(A, minutes_ago(30), input_power_dbm=-40.0)]
        derived = push(client, {"samples": samples}).derived
        assert derived.rebuilt and derived.oper_changed == [link.pk]  # the second dark poll in a row
        assert Link.objects.get(pk=link.pk).oper_state == "down"

    def test_oper_state_follows_telemetry_only_for_links_whose_state_changes(self, small_fabric, client_for):
        client = client_for(COLLECTOR)
        poll(client, minutes_ago(30))
        entries = AuditEvent.objects.count()
        for minutes in (25, 20):
            assert poll(client, minutes_ago(minutes)).oper_changed == []
        assert AuditEvent.objects.count() == entries  # nothing written, nothing audited
