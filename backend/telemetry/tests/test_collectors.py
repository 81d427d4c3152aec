"""The collector recipes of docs/collectors.md: the WriteRequests gnmic's `prometheus_write` output
and Telegraf's `prometheusremotewrite` format send after each recipe's configuration (metric names
and labels as those tools write them) land, through the remote-write receiver, on the right link
ends, fields and lanes."""

import datetime as dt

import pytest
from django.db import connection
from django.utils import timezone

from accounts.roles import COLLECTOR

from .remote_write import CONTENT_TYPE, DJANGO_HEADERS, write_request

pytestmark = pytest.mark.django_db

OPTICS = "components_component_transceiver_physical_channels_channel_state_"


def send(client, series) -> None:
    response = client.post(
        "/api/telemetry/remote-write/?fabric=small",
        data=write_request(series),
        content_type=CONTENT_TYPE,
        **DJANGO_HEADERS,
    )
    assert response.status_code == 204, response.content


def stored(*columns: str) -> dict[tuple[str, str], tuple]:
    """(switch, port) -> those columns, of the one stored sample of each link end."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT CASE s.side WHEN 'a' THEN a.name ELSE z.name END AS switch, "
            "CASE s.side WHEN 'a' THEN l.a_port ELSE l.z_port END AS port, s.* "
            "FROM telemetry_sample s JOIN fabric_link l ON l.id = s.link_id "
            "JOIN fabric_switch a ON a.id = l.a_switch_id JOIN fabric_switch z ON z.id = l.z_switch_id"
        )
        names = [column.name for column in cursor.description]
        rows = [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
    return {(row["switch"], row["port"]): tuple(row[name] for name in columns) for row in rows}


@pytest.fixture
def ms():
    return int((timezone.now() - dt.timedelta(minutes=3)).timestamp()) * 1000


def test_gnmic_prometheus_write_output(small_fabric, client_for, ms):
    # gnmic: name = the value's path, labels = `source` (target name), `subscription_name`
    # and the path keys, one sample per series at the notification's time.
    counters = {"source": "f0", "subscription_name": "counters", "interface_name": "d0"}
    optics = {"source": "f0", "subscription_name": "optics", "component_name": "d0"}
    send(
        client_for(COLLECTOR),
        [
            ({"__name__": "interfaces_interface_state_counters_in_pkts", **counters}, [(8.1234567e7, ms)]),
            ({"__name__": "interfaces_interface_state_counters_in_fcs_errors", **counters}, [(12, ms)]),
            ({"__name__": "interfaces_interface_state_counters_out_discards", **counters}, [(0, ms)]),
            *(
                ({"__name__": OPTICS + "input_power_instant", **optics, "channel_index": str(lane)}, [(power, ms)])
                for lane, power in enumerate([-2.5, -2.75, -3.0, -3.25])
            ),
            ({"__name__": OPTICS + "laser_bias_current_instant", **optics, "channel_index": "0"}, [(6.5, ms)]),
            ({"__name__": "components_component_state_temperature_instant", **optics}, [(41.5, ms)]),
            # the subscription's other interfaces: a management port, skipped
            ({"__name__": "interfaces_interface_state_counters_in_pkts", **counters, "interface_name": "mgmt0"},
             [(5, ms)]),
        ],
    )  # fmt: skip
    columns = ("in_pkts", "in_fcs_errors", "out_discards", "input_power_channels_dbm", "laser_bias_current_channels_ma")
    assert stored(*columns, "temperature_c") == {
        ("f0", "d0"): (81_234_567, 12, 0, [-2.5, -2.75, -3.0, -3.25], [6.5], 41.5),
    }


def test_telegraf_prometheusremotewrite_of_gnmi_and_snmp(small_fabric, client_for, ms):
    # Telegraf: name = <measurement>_<field> (the subscription's name, the leaf relative to its
    # path, "/" written "_"); tags `source` (device), `name`/`index` (path keys), `host` (Telegraf's).
    gnmi = {"source": "f1", "host": "collector-1"}
    # inputs.snmp + processors.unpivot: the field name is the metric; `switch` from sysName.
    snmp = {"switch": "t0", "agent_host": "p0-tor3", "host": "collector-1", "ifName": "up0"}
    send(
        client_for(COLLECTOR),
        [
            ({"__name__": "interfaces_interface_state_counters_in_pkts", **gnmi, "name": "d0"}, [(1000, ms)]),
            ({"__name__": OPTICS + "input_power_instant", **gnmi, "name": "Transceiver d0", "index": "1"},
             [(-41.0, ms)]),
            ({"__name__": OPTICS + "output_power_instant", **gnmi, "name": "Transceiver d0", "index": "1"},
             [(-1.5, ms)]),
            ({"__name__": "ifOperStatus", **snmp}, [(7, ms)]),
            ({"__name__": "ifHCInUcastPkts", **snmp}, [(2_000_000, ms)]),
            ({"__name__": "dot3StatsFCSErrors", **snmp}, [(3, ms)]),
            ({"__name__": "ifInDiscards", **snmp}, [(4, ms)]),
        ],
    )  # fmt: skip
    columns = ("in_pkts", "in_fcs_errors", "in_discards", "oper_status")
    assert stored(*columns, "input_power_channels_dbm", "output_power_channels_dbm") == {
        # lane 1 of f1:d0 reports no light (-41 dBm): stored as such, not as a reading
        ("f1", "d0"): (1000, None, None, None, [None, None], [None, -1.5]),
        ("t0", "up0"): (2_000_000, 3, 4, 7, None, None),
    }
