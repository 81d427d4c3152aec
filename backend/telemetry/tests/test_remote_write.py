"""Prometheus remote write (POST /api/telemetry/remote-write/): what a collector that pushes
WriteRequests sees, and that it reads metrics exactly as the text format does."""

import datetime as dt
import math
import struct

import cramjam
import pytest
from django.db import connection
from django.utils import timezone

from accounts.roles import ADMIN, COLLECTOR, ROLES
from fabric.models import Fabric, Link
from telemetry import formats
from telemetry.formats._prometheus import METRICS
from telemetry.services import derivation

from .remote_write import CONTENT_TYPE, DJANGO_HEADERS, write_request

pytestmark = pytest.mark.django_db

RX_LANE = "components_component_transceiver_physical_channels_channel_state_input_power_instant"
STALE_MARKER = struct.unpack("<d", struct.pack("<Q", 0x7FF0000000000002))[0]


def ms_ago(minutes: float) -> int:
    return int((timezone.now() - dt.timedelta(minutes=minutes)).timestamp()) * 1000


def send(client, body: bytes, *, fabric="small", content_type=CONTENT_TYPE, **headers):
    return client.post(
        f"/api/telemetry/remote-write/?fabric={fabric}",
        data=body,
        content_type=content_type,
        **{**DJANGO_HEADERS, **headers},
    )


def stored(fabric: Fabric) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT l.a_port, s.side, s.oper_status, s.input_power_channels_dbm FROM telemetry_sample s "
            "JOIN fabric_link l ON l.id = s.link_id WHERE l.fabric_id = %s ORDER BY l.a_port, s.side",
            [fabric.pk],
        )
        return cursor.fetchall()


def the_link(fabric) -> Link:
    return Link.objects.get(fabric=fabric, a_switch__name="t0", a_port="up0")


class TestReceiver:
    def test_a_collectors_batch_is_stored_and_derivation_sees_it(self, small_fabric, client_for):
        ms = ms_ago(5)
        body = write_request(
            [
                # snmp_exporter's oper status of t0:up0, as Prometheus labels it (instance, job).
                ({"__name__": "ifOperStatus", "ifName": "up0", "instance": "t0:9116", "job": "snmp"}, [(2, ms)]),
                # gnmic's per-lane Rx power of f0:d0, dim on lane 1.
                *(
                    (
                        {"__name__": RX_LANE, "source": "f0", "component_name": "d0", "channel_index": str(lane)},
                        [(power, ms)],
                    )
                    for lane, power in enumerate([-2.0, -17.5, -2.1, -2.2])
                ),
                # What a scrape carries besides: Prometheus's own series, a management port.
                ({"__name__": "up", "instance": "t0:9116", "job": "snmp"}, [(1, ms)]),
                ({"__name__": "ifOperStatus", "ifName": "mgmt0", "instance": "t0:9116"}, [(1, ms)]),
            ]
        )
        response = send(client_for(COLLECTOR), body)
        assert response.status_code == 204, response.content
        assert response.content == b""
        assert stored(small_fabric) == [("up0", "a", 2, None), ("up0", "z", None, [-2.0, -17.5, -2.1, -2.2])]

        derivation.derive(small_fabric)
        link = the_link(small_fabric)
        viewer = client_for("viewer")
        assert viewer.get(f"/api/links/{link.pk}/").json()["oper_state"] == "down"
        status = viewer.get(f"/api/links/{link.pk}/telemetry/").json()["status"]
        assert status["sides"]["z"]["input_power_min_channel_dbm"] == -17.5
        assert status["sides"]["z"]["rx_class"] == "low" and status["rx_low"] is True

    @pytest.mark.parametrize("role", ROLES)
    def test_only_collectors_and_admins_may_write(self, small_fabric, client_for, role):
        body = write_request([({"__name__": "ifOperStatus", "ifName": "up0", "switch": "t0"}, [(1, ms_ago(1))])])
        expected = 204 if role in (COLLECTOR, ADMIN) else 403
        assert send(client_for(role), body).status_code == expected

    def test_anonymous_gets_401(self, small_fabric, anonymous):
        assert send(anonymous, write_request([])).status_code == 401

    def test_every_problem_of_the_request_is_listed_at_once(self, small_fabric, client_for):
        response = send(client_for(COLLECTOR), b"# HELP up\nup 1\n", fabric="nope", HTTP_CONTENT_ENCODING="gzip")
        assert response.status_code == 400
        reasons = [error["reason"] for error in response.json()["errors"]]
        assert reasons[0] == "no fabric named 'nope'"
        assert "Content-Encoding 'gzip'" in reasons[1]
        assert "not snappy-compressed" in reasons[2]

    def test_snappy_that_is_no_write_request_and_a_size_bomb_are_400s(self, small_fabric, client_for):
        client = client_for(COLLECTOR)
        response = send(client, bytes(cramjam.snappy.compress_raw(b"\xff\xff\xff\xff")))
        assert response.status_code == 400
        assert "not a protobuf prometheus.WriteRequest" in response.json()["errors"][0]["reason"]
        # A label value that is not UTF-8, as protobuf requires of strings.
        labels = [b"\n\x08__name__\x12\x0cifOperStatus", b"\n\x06switch\x12\x02\xff\xfe"]
        series = b"".join(b"\n" + bytes([len(label)]) + label for label in labels)
        response = send(client, bytes(cramjam.snappy.compress_raw(b"\n" + bytes([len(series)]) + series)))
        assert response.status_code == 400
        assert "not a protobuf prometheus.WriteRequest" in response.json()["errors"][0]["reason"]
        # A snappy preamble announcing 2 GiB: refused before anything is allocated.
        response = send(client, b"\x80\x80\x80\x80\x08" + b"\x00" * 16)
        assert response.status_code == 400 and "above the limit" in response.json()["errors"][0]["reason"]

    def test_bad_series_are_listed_with_their_position_and_nothing_is_written(self, small_fabric, client_for):
        ms = ms_ago(2)
        body = write_request(
            [
                ({"__name__": "ifOperStatus", "ifName": "up0", "switch": "t0"}, [(1, ms)]),
                ({"__name__": "ifOperStatus", "ifName": "d0", "switch": "nope"}, [(1, ms)]),
                ({"__name__": "ifHCInUcastPkts", "switch": "t0"}, [(5, ms)]),
                ({"__name__": "ifHCInUcastPkts", "ifName": "up1", "switch": "t0"}, [(1.5, ms)]),
                ({"__name__": RX_LANE, "source": "f0", "component_name": "d0"}, [(-3.0, ms)]),
            ]
        )
        response = send(client_for(COLLECTOR), body)
        assert response.status_code == 400
        errors = {error["series"]: error["reason"] for error in response.json()["errors"]}
        assert errors.keys() == {1, 2, 3, 4}
        assert "unknown switch 'nope'" in errors[1]
        assert "no port label" in errors[2]
        assert errors[3] == "in_pkts: 1.5 is not an integer"
        assert "no lane label" in errors[4]
        assert stored(small_fabric) == []

    def test_a_label_given_twice_is_named(self, small_fabric, client_for):
        request = formats._remote_write.WriteRequest()
        series = request.timeseries.add()
        for name, value in [("__name__", "ifOperStatus"), ("switch", "t0"), ("ifName", "up0"), ("switch", "t1")]:
            series.labels.add(name=name, value=value)
        series.samples.add(value=1, timestamp=ms_ago(1))
        response = send(client_for(COLLECTOR), formats._remote_write.compress(request))
        assert response.status_code == 400
        assert response.json()["errors"] == [
            {"series": 0, "field": None, "reason": "series 0: label switch appears twice"}
        ]

    def test_staleness_markers_are_no_readings(self, small_fabric, client_for):
        ms = ms_ago(2)
        body = write_request(
            [({"__name__": "ifOperStatus", "ifName": "up0", "switch": "t0"}, [(1, ms - 15_000), (STALE_MARKER, ms)])]
        )
        assert send(client_for(COLLECTOR), body).status_code == 204
        assert stored(small_fabric) == [("up0", "a", 1, None)]
        nan = write_request([({"__name__": "ifOperStatus", "ifName": "up0", "switch": "t0"}, [(math.nan, ms)])])
        response = send(client_for(COLLECTOR), nan)
        assert response.status_code == 400 and "ifOperStatus number" in response.json()["errors"][0]["reason"]

    def test_a_remote_write_2_sender_is_told_to_fall_back(self, small_fabric, client_for):
        content_type = "application/x-protobuf;proto=io.prometheus.write.v2.Request"
        response = send(client_for(COLLECTOR), write_request([]), content_type=content_type)
        assert response.status_code == 415 and "1.0" in response.json()["detail"]


def _text_line(labels: dict[str, str], value: float, ms: int) -> str:
    name = labels["__name__"]
    rest = ",".join(f'{key}="{text}"' for key, text in labels.items() if key != "__name__")
    return f"{name}{{{rest}}} {value!r} {ms}\n"


class TestOneMapping:
    """Every metric the text format knows reads the same from a WriteRequest, and nothing else."""

    @pytest.mark.parametrize("metric", sorted(METRICS))
    @pytest.mark.parametrize(
        "labels",
        [
            {"source": "10.0.0.7:57400", "interface_name": "Ethernet1/1", "component_name": "Ethernet1/1"},
            {"instance": "p0-tor1:9116", "ifName": "eth49", "ifDescr": "Ethernet49"},
            {"switch": "p0-tor1", "name": "Transceiver eth2/1", "index": "3"},
        ],
    )
    def test_a_series_parses_as_its_text_line_does(self, metric, labels):
        series = {"__name__": metric, **labels, "channel_index": "1"}
        value = 7.0 if METRICS[metric][0] == "oper_status" else -3.25 if "power" in metric else 1234.0
        ms = 1_795_437_600_000
        from_text = formats.parse("prometheus", _text_line(series, value, ms).encode())
        from_write = formats.parse_remote_write(write_request([(series, [(value, ms)])]), max_bytes=1 << 20)
        assert from_write.samples == from_text.samples and from_write.errors == from_text.errors == []
        assert from_write.samples[0]["switch"] in ("10.0.0.7", "p0-tor1")

    def test_an_infinite_oper_status_is_a_400_in_both_formats(self, small_fabric, client_for):
        ms = ms_ago(2)
        series = {"__name__": "ifOperStatus", "ifName": "up0", "switch": "t0"}
        text = _text_line(series, math.inf, ms).replace("inf", "+Inf")
        response = client_for(COLLECTOR).post(
            "/api/telemetry/?fabric=small", data=text, content_type="text/plain; version=0.0.4"
        )
        assert response.status_code == 400 and "ifOperStatus number" in response.json()["errors"][0]["reason"]
        response = send(client_for(COLLECTOR), write_request([(series, [(math.inf, ms)])]))
        assert response.status_code == 400 and "ifOperStatus number" in response.json()["errors"][0]["reason"]
