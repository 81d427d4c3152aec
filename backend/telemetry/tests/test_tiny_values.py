"""Odd but legal numbers through the ingest API: a subnormal reading (5e-324), negative zero and the
largest accepted values are stored (never a 500), derivation runs over them, and ingest's fast path
and its set-based (full) path store and classify them alike."""

import datetime as dt
import json

import pytest
from django.db import connection
from django.utils import timezone

from accounts.roles import COLLECTOR
from fabric.models import Fabric, Link
from telemetry.models import EndState
from telemetry.services import derivation

pytestmark = pytest.mark.django_db

TINY = 5e-324  # the smallest float above zero
FLOAT4_TINY = 1e-40  # subnormal as a float4 (the sample table's type), normal as a float8
ODD_VALUES = {
    "subnormal": {
        "input_power_dbm": TINY,
        "output_power_dbm": -TINY,
        "input_power_channels_dbm": [TINY, -3.0],
        "output_power_channels_dbm": [-2.0, FLOAT4_TINY],
        "laser_bias_current_ma": TINY,
        "laser_bias_current_channels_ma": [TINY, 40.0],
        "temperature_c": -TINY,
        "supply_voltage_v": TINY,
        "input_power_lower_dbm": -TINY,
        "input_power_upper_dbm": TINY,
    },
    "float4 subnormal": {
        "input_power_channels_dbm": [FLOAT4_TINY, -1e-12],
        "output_power_channels_dbm": [1e-45, -2.5],
        "laser_bias_current_ma": FLOAT4_TINY,
        "temperature_c": 1e-45,
        "supply_voltage_v": 1e-12,
    },
    "negative zero": {
        "input_power_dbm": -0.0,
        "output_power_channels_dbm": [-0.0, -2.0],
        "laser_bias_current_ma": -0.0,
        "temperature_c": -0.0,
        "supply_voltage_v": -0.0,
    },
    "largest accepted": {
        "input_power_dbm": 10.0,
        "input_power_channels_dbm": [10.0, 10.0, 10.0, 10.0],
        "output_power_channels_dbm": [10.0, -49.999999],
        "laser_bias_current_ma": 500.0,
        "laser_bias_current_channels_ma": [500.0, 500.0],
        "temperature_c": 150.0,
        "supply_voltage_v": 10.0,
        "input_power_upper_dbm": 10.0,
        "in_pkts": 2**64 - 1,
        "in_fcs_errors": 2**64 - 1,
    },
}
STORED_SAMPLES = (
    "SELECT input_power_dbm, output_power_dbm, input_power_channels_dbm, output_power_channels_dbm, "
    "laser_bias_current_ma, laser_bias_current_channels_ma, temperature_c, supply_voltage_v, rx_no_light, "
    "tx_no_light, in_pkts, in_fcs_errors FROM telemetry_sample WHERE link_id = %s AND side = 'a' ORDER BY time"
)
STATE_FIELDS = (
    "input_power_dbm", "input_power_min_channel_dbm", "output_power_dbm", "output_power_min_channel_dbm",
    "laser_bias_current_ma", "temperature_c", "supply_voltage_v", "rx_no_light", "tx_no_light", "rx_class",
    "tx_class",
)  # fmt: skip


def push(client, samples):
    """POST a JSON batch; on success run the derivation it queued, as the worker would."""
    response = client.post(
        "/api/telemetry/?fabric=small", data=json.dumps({"samples": samples}), content_type="application/json"
    )
    if response.status_code == 200:
        derivation.derive(Fabric.objects.get(name="small"))
    return response


def stored(link: Link) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(STORED_SAMPLES, [link.pk])
        return cursor.fetchall()


def state(link: Link) -> dict:
    return EndState.objects.filter(link=link, side="a").values(*STATE_FIELDS).get()


@pytest.mark.parametrize("values", ODD_VALUES.values(), ids=ODD_VALUES.keys())
def test_odd_values_are_stored_and_derived_alike_on_both_paths(small_fabric, client_for, values):
    client = client_for(COLLECTOR)
    first = (timezone.now() - dt.timedelta(minutes=30)).replace(microsecond=0)
    then = first + dt.timedelta(minutes=15)
    fast_end, full_end = (Link.objects.get(fabric=small_fabric, a_switch__name="t0", a_port=p) for p in ("up0", "up1"))
    earlier = {"time": first.isoformat(), "switch": "t0", "port": "up1", "temperature_c": 30.0}
    assert push(client, [earlier]).status_code == 200

    # The fast path: a batch of new samples.
    fast = push(client, [{"time": then.isoformat(), "switch": "t0", "port": "up0", **values}])
    assert fast.status_code == 200, fast.content
    assert fast.json()["inserted"] == 1 and fast.json()["merged"] == 0
    # The full path: the re-sent sample makes the fast path give the whole batch up.
    full = push(client, [earlier, {"time": then.isoformat(), "switch": "t0", "port": "up1", **values}])
    assert full.status_code == 200, full.content
    assert full.json()["inserted"] == 1 and full.json()["merged"] == 1

    assert len(stored(fast_end)) == 1
    assert stored(fast_end) == stored(full_end)[-1:]
    assert state(fast_end) == state(full_end)
    # The link's page reads the stored samples back.
    page = client_for("viewer").get(f"/api/links/{fast_end.pk}/telemetry/", {"from": first.isoformat()})
    assert page.status_code == 200, page.content


def test_a_subnormal_power_is_that_units_zero_which_means_no_light(small_fabric, client_for):
    """The rules read 0 dBm as a dark receiver (devices report one so); a power too small for any
    instrument to tell from 0 is 0."""
    client = client_for(COLLECTOR)
    when = (timezone.now() - dt.timedelta(minutes=5)).replace(microsecond=0).isoformat()
    response = push(
        client,
        [
            {"time": when, "switch": "t0", "port": "up0", "input_power_dbm": TINY, "temperature_c": -TINY},
            {"time": when, "switch": "t0", "port": "up1", "input_power_channels_dbm": [-TINY, -3.0]},
        ],
    )
    assert response.status_code == 200, response.content
    up0, up1 = (Link.objects.get(fabric=small_fabric, a_switch__name="t0", a_port=p) for p in ("up0", "up1"))
    assert stored(up0)[0][0] is None and stored(up0)[0][6] == 0.0 and stored(up0)[0][8] is True
    assert stored(up1)[0][2] == [None, -3.0] and stored(up1)[0][8] is True
    assert state(up0)["rx_no_light"] and state(up1)["rx_no_light"]
