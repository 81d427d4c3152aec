"""The telemetry API as a collector, a technician and a script see it."""

import datetime as dt
import json

import pytest
from django.db import connection
from django.utils import timezone

from accounts.roles import ADMIN, COLLECTOR, OPERATOR, ROLES
from fabric.models import Fabric, Link
from telemetry.models import PowerThreshold
from telemetry.services import derivation, maintenance

pytestmark = pytest.mark.django_db


def now_minus(minutes: float) -> dt.datetime:
    return (timezone.now() - dt.timedelta(minutes=minutes)).replace(microsecond=0)


def iso(t: dt.datetime) -> str:
    return t.isoformat().replace("+00:00", "Z")


def push(client, body, *, fabric="small", content_type="application/json"):
    """POST a batch, then run the derivation it queued, as the worker would (`.derived`)."""
    data = json.dumps(body) if not isinstance(body, (str, bytes)) else body
    response = client.post(f"/api/telemetry/?fabric={fabric}", data=data, content_type=content_type)
    if response.status_code == 200:
        response.derived = derivation.derive(Fabric.objects.get(name=fabric))
    return response


def corrupting_polls(start: dt.datetime, polls: int, errors: int):
    """f0:d0 (side Z of t0:up0) receiving 1M frames per 15-minute poll with `errors` FCS errors each."""
    return [
        {
            "time": iso(start + dt.timedelta(minutes=15 * i)),
            "switch": "f0",
            "port": "d0",
            "in_pkts": 1_000_000 * i,
            "in_fcs_errors": errors * i,
            "input_power_dbm": -2.5,
        }
        for i in range(polls)
    ]


def the_link(fabric) -> Link:
    return Link.objects.get(fabric=fabric, a_switch__name="t0", a_port="up0")


class TestIngestEndpoint:
    def test_a_collector_pushes_json_and_the_link_becomes_corrupting(self, small_fabric, client_for):
        response = push(client_for(COLLECTOR), {"samples": corrupting_polls(now_minus(60), 4, errors=20)})
        assert response.status_code == 200, response.content
        body = response.json()
        assert body["samples"] == 4 and body["inserted"] == 4 and body["derivation"] == "queued"
        assert response.derived.windows == 3 and len(response.derived.events_opened) == 1
        links = client_for("viewer").get("/api/links/", {"fabric": small_fabric.pk, "health": "corrupting"}).json()
        assert [row["id"] for row in links["results"]] == [the_link(small_fabric).pk]
        events = client_for("viewer").get("/api/corruption-events/", {"open": "true"}).json()["results"]
        assert events[0]["direction"] == "a_to_z" and events[0]["rate"] == pytest.approx(20 / 1_000_020)

    def test_csv_with_a_bad_row_is_refused_whole_with_its_line(self, small_fabric, client_for):
        t = iso(now_minus(30))
        body = f"time,switch,port,input_power_dbm\n{t},t0,up0,-3.1\n{t},t0,up1,99\n"
        response = push(client_for(OPERATOR), body, content_type="text/csv")
        assert response.status_code == 400
        errors = response.json()["errors"]
        assert len(errors) == 1 and errors[0]["index"] == 1 and errors[0]["line"] == 3
        assert "out of range" in errors[0]["reason"]
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM telemetry_sample")
            assert cursor.fetchone()[0] == 0

    def test_unknown_fabric_and_media_type_are_clear_400s_and_415s(self, small_fabric, client_for):
        client = client_for(COLLECTOR)
        response = push(client, {"samples": []}, fabric="nope")
        assert response.status_code == 400 and "no fabric named 'nope'" in response.json()["fabric"][0]
        assert push(client, "x", content_type="application/xml").status_code == 415
        response = push(client, "{not json", content_type="application/json")
        assert response.status_code == 400 and response.json()["errors"]

    @pytest.mark.parametrize("role", ROLES)
    def test_only_collectors_operators_and_admins_may_push(self, small_fabric, client_for, role):
        body = {"samples": [{"time": iso(now_minus(5)), "switch": "t0", "port": "up0", "input_power_dbm": -2.0}]}
        expected = 200 if role in (COLLECTOR, OPERATOR, ADMIN) else 403
        assert push(client_for(role), body).status_code == expected

    def test_a_collector_may_not_edit_topology(self, small_fabric, client_for):
        response = client_for(COLLECTOR).patch(
            f"/api/links/{the_link(small_fabric).pk}/", {"admin_state": "disabled"}, format="json"
        )
        assert response.status_code == 403

    def test_anonymous_gets_401(self, small_fabric, anonymous):
        assert push(anonymous, {"samples": []}).status_code == 401


class TestLinkTelemetry:
    def test_chart_series_has_power_and_loss_per_direction(self, small_fabric, client_for):
        start = now_minus(120)
        push(client_for(COLLECTOR), {"samples": corrupting_polls(start, 5, errors=3)})
        link = the_link(small_fabric)
        response = client_for("viewer").get(
            f"/api/links/{link.pk}/telemetry/", {"from": iso(start - dt.timedelta(minutes=1))}
        )
        assert response.status_code == 200, response.content
        body = response.json()
        assert body["resolution"] == "raw"
        assert body["sides"]["z"]["input_power_dbm"] == [-2.5] * 5
        polls = [iso(start + dt.timedelta(minutes=15 * i)) for i in range(5)]
        assert body["sides"]["z"]["time"] == polls
        corruption = body["loss"]["a_to_z"]["corruption"]
        assert corruption["time"] == polls[1:]
        assert corruption["rate"] == [pytest.approx(3 / 1_000_003)] * 4
        assert body["status"]["directions"]["a_to_z"]["health"] == "corrupting"
        assert body["corruption_action_threshold"] == 1e-6

    def test_times_print_as_the_api_prints_every_other_time(self, small_fabric, client_for):
        # ISO 8601 in UTC with a Z; microseconds only when the poll had some.
        start = now_minus(30)
        times = [start, start + dt.timedelta(minutes=15, microseconds=250_000)]
        polls = [
            {"time": t.isoformat(), "switch": "f0", "port": "d0", "input_power_dbm": -3.0, "in_pkts": 10_000 * i,
             "in_fcs_errors": 0}
            for i, t in enumerate(times)
        ]  # fmt: skip
        assert push(client_for(COLLECTOR), {"samples": polls}).status_code == 200
        link = the_link(small_fabric)
        body = client_for("viewer").get(f"/api/links/{link.pk}/telemetry/", {"from": iso(start)}).json()
        assert body["sides"]["z"]["time"] == [iso(times[0]), iso(times[1])]
        assert body["sides"]["z"]["time"][1].endswith(".250000Z")
        assert body["loss"]["a_to_z"]["corruption"]["time"] == [iso(times[1])]
        assert body["from"] == iso(start)

    def test_a_counter_reset_breaks_the_chart_and_the_signatures_skip_the_same_intervals(
        self, small_fabric, client_for
    ):
        # f0:d0 receives 1M frames per 15-minute poll with 10 to 19 FCS errors; it sends 2M
        # packets with 3 discards. The device restarts before poll 6 (every counter starts over,
        # in_pkts from just under 2^64), and in_pkts wraps before poll 10 while the rest go on.
        start = now_minus(15 * 14)
        polls, good, errors, sent, dropped = [], 0, 0, 0, 0
        for i in range(14):
            if i == 6:
                good, errors, sent, dropped = 2**64 - 4_500_000, 0, 0, 0
            good = (good + 1_000_000) % 2**64
            errors, sent, dropped = errors + 10 + i % 10, sent + 2_000_000, dropped + 3
            polls.append({"time": iso(start + dt.timedelta(minutes=15 * i)), "switch": "f0", "port": "d0",
                          "in_pkts": good, "in_fcs_errors": errors, "out_pkts": sent, "out_discards": dropped})  # fmt: skip
        pushed = push(client_for(COLLECTOR), {"samples": polls})
        assert pushed.status_code == 200, pushed.content
        assert pushed.derived.windows == 11  # 13 intervals; derivation skips the reset and the wrap

        # The range starts at poll 1: poll 0 gives its first interval a start.
        link = the_link(small_fabric)
        params = {"from": iso(start + dt.timedelta(minutes=15)), "resolution": "raw"}
        body = client_for("viewer").get(f"/api/links/{link.pk}/telemetry/", params).json()
        corruption = body["loss"]["a_to_z"]["corruption"]
        congestion = body["loss"]["z_to_a"]["congestion"]
        for line in (corruption, congestion):
            assert len(line["time"]) == 13
            breaks = [t for t, r in zip(line["time"], line["rate"], strict=True) if r is None]
            assert breaks == [polls[6]["time"], polls[10]["time"]]
        expected = [(10 + i % 10) / (1_000_000 + 10 + i % 10) for i in range(1, 14) if i not in (6, 10)]
        assert [r for r in corruption["rate"] if r is not None] == pytest.approx(expected)
        assert [r for r in congestion["rate"] if r is not None] == pytest.approx([3 / 2_000_000] * 11)

        # The signatures count exactly the intervals the chart draws, congestion included.
        signatures = body["signatures"]
        assert signatures["a_to_z"]["corruption"]["intervals"] == 11
        assert signatures["a_to_z"]["corruption"]["mean_rate"] == pytest.approx(sum(expected) / len(expected))
        assert signatures["z_to_a"]["congestion"]["intervals"] == 11
        assert signatures["z_to_a"]["congestion"]["mean_rate"] == pytest.approx(3 / 2_000_000)

    def test_hour_resolution_reads_the_rollup(self, small_fabric, client_for):
        start = now_minus(180).replace(minute=0, second=0)
        push(client_for(COLLECTOR), {"samples": corrupting_polls(start, 9, errors=3)})
        maintenance.rollup_hours(start, timezone.now())
        link = the_link(small_fabric)
        body = (
            client_for("viewer")
            .get(f"/api/links/{link.pk}/telemetry/", {"from": iso(start), "resolution": "hour"})
            .json()
        )
        assert body["resolution"] == "hour"
        rates = body["loss"]["a_to_z"]["corruption"]["rate"]
        assert rates and all(r == pytest.approx(3 / 1_000_003) for r in rates)
        assert body["sides"]["z"]["input_power_dbm_avg"][0] == pytest.approx(-2.5)

    def test_bad_range_is_a_400(self, small_fabric, client_for):
        link = the_link(small_fabric)
        client = client_for("viewer")
        assert client.get(f"/api/links/{link.pk}/telemetry/", {"from": "yesterday"}).status_code == 400
        response = client.get(
            f"/api/links/{link.pk}/telemetry/", {"from": "2026-01-02T00:00:00Z", "to": "2026-01-01T00:00:00Z"}
        )
        assert response.status_code == 400 and "before" in response.json()["range"][0]
        assert client.get(f"/api/links/{link.pk}/telemetry/", {"resolution": "minute"}).status_code == 400
        assert client.get("/api/links/999999/telemetry/").status_code == 404


class TestThresholds:
    def test_a_manual_override_reclassifies_and_survives_reingest(self, small_fabric, client_for):
        link = the_link(small_fabric)
        # The catalog's 100G-SR4 has rx_power_min_dbm -10.3 on both ends of t0:up0.
        sample = {"time": iso(now_minus(10)), "switch": "t0", "port": "up0", "input_power_dbm": -11.0}
        push(client_for(COLLECTOR), {"samples": [sample]})
        assert (
            client_for("viewer").get("/api/links/", {"rx_low": "true", "fabric": small_fabric.pk}).json()["count"] == 1
        )
        response = client_for("technician").post(
            "/api/power-thresholds/", {"link": link.pk, "side": "a", "input_power_lower_dbm": -12.0}, format="json"
        )
        assert response.status_code == 201, response.content
        assert response.json()["source"] == "manual"
        link.refresh_from_db()
        assert not link.rx_low
        status = client_for("viewer").get(f"/api/links/{link.pk}/telemetry/").json()["status"]
        assert status["sides"]["a"]["thresholds"]["input_power_lower_dbm"] == {"value": -12.0, "provenance": "manual"}
        push(client_for(COLLECTOR), {"samples": [{**sample, "time": iso(now_minus(5)), "input_power_lower_dbm": -9.0}]})
        assert PowerThreshold.objects.get(link=link, side="a", source="manual").input_power_lower_dbm == -12.0
        link.refresh_from_db()
        assert not link.rx_low

    def test_device_rows_are_read_only(self, small_fabric, client_for):
        link = the_link(small_fabric)
        sample = {"time": iso(now_minus(10)), "switch": "t0", "port": "up0", "input_power_lower_dbm": -9.0}
        push(client_for(COLLECTOR), {"samples": [sample]})
        device = PowerThreshold.objects.get(link=link, source="device")
        response = client_for(OPERATOR).patch(
            f"/api/power-thresholds/{device.pk}/", {"input_power_lower_dbm": -1}, format="json"
        )
        assert response.status_code == 404

    def test_bad_override_lists_its_problems(self, small_fabric, client_for):
        link = the_link(small_fabric)
        response = client_for(OPERATOR).post(
            "/api/power-thresholds/",
            {"link": link.pk, "side": "a", "input_power_lower_dbm": -3.0, "input_power_upper_dbm": -5.0},
            format="json",
        )
        assert response.status_code == 400 and "input_power_upper_dbm" in response.json()
        response = client_for(OPERATOR).post(
            "/api/power-thresholds/", {"link": link.pk, "side": "a", "output_power_lower_dbm": -90}, format="json"
        )
        assert response.status_code == 400 and "output_power_lower_dbm" in response.json()


class TestDeviceWideCollectors:
    def test_prometheus_lines_of_ports_without_links_are_skipped_and_counted(self, small_fabric, client_for):
        ms = int(now_minus(10).timestamp() * 1000)
        body = (
            f'interfaces_interface_state_counters_in_pkts{{source="f0",interface_name="d0"}} 1000 {ms}\n'
            f'interfaces_interface_state_counters_in_pkts{{source="f0",interface_name="mgmt0"}} 5 {ms}\n'
        )
        response = push(client_for(COLLECTOR), body, content_type="text/plain; version=0.0.4")
        assert response.status_code == 200, response.content
        assert (response.json()["samples"], response.json()["skipped_samples"]) == (1, 1)

    def test_an_unknown_switch_is_still_an_error_and_json_batches_skip_nothing(self, small_fabric, client_for):
        ms = int(now_minus(10).timestamp() * 1000)
        body = f'interfaces_interface_state_counters_in_pkts{{source="nope",interface_name="d0"}} 1 {ms}\n'
        response = push(client_for(COLLECTOR), body, content_type="text/plain; version=0.0.4")
        assert response.status_code == 400 and "unknown switch 'nope'" in response.json()["errors"][0]["reason"]
        sample = {"time": iso(now_minus(5)), "switch": "f0", "port": "mgmt0", "in_pkts": 1}
        response = push(client_for(COLLECTOR), {"samples": [sample]})
        assert response.status_code == 400 and "no link on port 'mgmt0'" in response.json()["errors"][0]["reason"]
