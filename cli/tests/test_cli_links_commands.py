"""links list|show against the real backend, with health and readings from pushed telemetry."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from cli_testing import FIXTURE_DATA, Cli, cells, import_file, logged_in_as

if not os.environ.get("DJANGO_SETTINGS_MODULE"):
    pytest.skip("needs the backend's Django settings: run pytest from the repository root", allow_module_level=True)

pytestmark = pytest.mark.django_db(transaction=True, databases="__all__")

LINK_KEYS = [
    "id",
    "fabric",
    "a_switch",
    "a_switch_name",
    "a_port",
    "z_switch",
    "z_switch_name",
    "z_port",
    "length_m",
    "fiber",
    "speed_gbps",
    "admin_state",
    "admin_reason",
    "oper_state",
    "health",
    "rx_low",
]
FABRIC = "leaf-spine-4x2"


def iso(minutes_ago: float) -> str:
    moment = dt.datetime.now(dt.UTC) - dt.timedelta(minutes=minutes_ago)
    return moment.replace(second=0, microsecond=0).isoformat().replace("+00:00", "Z")


@pytest.fixture
def fabric_with_telemetry(
    cli: Cli, live_server: Any, make_role_user: Callable[..., Any], tmp_path: Path, worker: Any
) -> Cli:
    """leaf-spine-4x2 as an operator, with telemetry pushed for two links:

    - leaf0:eth2/1 - spine0:eth1/1 (100G-SR4, catalog Rx -10.3..2.4 dBm): spine0 receives with
      FCS errors (corrupting a_to_z); both sides report optical readings; leaf0 reports its own
      alarm thresholds.
    - leaf1:eth2/1 - spine0:eth1/2: spine0's receiver is dark (-40 dBm = no light), counters clean.
    """
    make_role_user("cli-operator", "operator")
    logged_in_as(cli, live_server.url, "cli-operator")
    import_file(cli, FIXTURE_DATA / "leaf-spine-4x2.json")
    samples: list[dict[str, Any]] = []
    for i in range(4):
        moment = iso(70 - 15 * i)
        samples += [
            {"time": moment, "switch": "spine0", "port": "eth1/1", "in_pkts": 1_000_000 * i, "in_fcs_errors": 20 * i},
            {"time": moment, "switch": "spine0", "port": "eth1/2", "in_pkts": 1_000_000 * i, "in_fcs_errors": 0},
        ]
    now = iso(5)
    samples += [
        {
            "time": now,
            "switch": "spine0",
            "port": "eth1/1",
            "input_power_channels_dbm": [-2.0, -3.4, -2.5, -2.6],
            "output_power_dbm": -1.5,
            "temperature_c": 38.25,
        },
        {
            "time": now,
            "switch": "leaf0",
            "port": "eth2/1",
            "input_power_dbm": -11.0,
            "output_power_dbm": -1.0,
            "laser_bias_current_ma": 7.5,
            "supply_voltage_v": 3.29,
            "input_power_lower_dbm": -12.0,
            "input_power_upper_dbm": 3.0,
        },
        {"time": now, "switch": "spine0", "port": "eth1/2", "input_power_dbm": -40.0},
    ]
    path = tmp_path / "telemetry.json"
    path.write_text(json.dumps({"samples": samples}))
    result = cli("telemetry", "push", str(path), "--fabric", FABRIC)
    assert result.exit_code == 0, result.stderr
    # The push queued the derivation: wait for the worker's run.
    from telemetry.models import Derivation, IngestBatch

    last = IngestBatch.objects.filter(fabric__name=FABRIC).order_by("-id").values_list("id", flat=True).first()
    deadline = time.monotonic() + 60
    while not Derivation.objects.filter(fabric__name=FABRIC, watermark__gte=last).exists():
        assert time.monotonic() < deadline, "the worker did not derive the pushed telemetry"
        time.sleep(0.1)
    # ... and for CorrOpt's decision on the opened event, which the worker takes next: the
    # database is flushed after the test, which must not race the task.
    from corruption.models import Decision

    while not Decision.objects.filter(event__link__fabric__name=FABRIC).exists():
        assert time.monotonic() < deadline, "the worker did not decide the opened event"
        time.sleep(0.1)
    time.sleep(0.3)
    return cli


def ends(rows: list[dict[str, Any]]) -> list[str]:
    return [f"{r['a_switch_name']}:{r['a_port']}-{r['z_switch_name']}:{r['z_port']}" for r in rows]


def test_list_json_filters_by_health_and_rx_low(fabric_with_telemetry: Cli) -> None:
    cli = fabric_with_telemetry
    every = cli.json("links", "list", "--fabric", FABRIC)
    assert len(every) == 8 and list(every[0]) == LINK_KEYS

    corrupting = cli.json("links", "list", "--health", "corrupting")
    assert ends(corrupting) == ["leaf0:eth2/1-spine0:eth1/1"]
    assert (corrupting[0]["health"], corrupting[0]["rx_low"]) == ("corrupting", False)

    # Repeating --health means either.
    either = cli.json("links", "list", "--health", "corrupting", "--health", "clean")
    assert ends(either) == ["leaf0:eth2/1-spine0:eth1/1", "leaf1:eth2/1-spine0:eth1/2"]
    assert len(cli.json("links", "list", "--health", "unknown")) == 6

    dark = cli.json("links", "list", "--rx-low")
    assert ends(dark) == ["leaf1:eth2/1-spine0:eth1/2"] and dark[0]["rx_low"] is True
    assert cli.json("links", "list", "--rx-low", "--health", "corrupting") == []
    assert cli.json("links", "list", "--admin-state", "disabled") == []


def test_list_table_csv_and_limit(fabric_with_telemetry: Cli) -> None:
    cli = fabric_with_telemetry
    table = cli("links", "list", "--fabric", FABRIC)
    assert table.exit_code == 0, table.stderr
    rows = [cells(line) for line in table.stdout.splitlines() if "leaf" in line]
    by_a = {row[1]: row for row in rows}
    assert by_a["leaf0:eth2/1"][2:] == ["spine0:eth1/1", "enabled", "up", "corrupting"]
    assert by_a["leaf1:eth2/1"][2:] == ["spine0:eth1/2", "enabled", "up", "clean", "LOW"]
    assert by_a["leaf3:eth2/2"][2:] == ["spine1:eth1/4", "enabled", "up", "unknown"]

    as_csv = cli("links", "list", "--health", "corrupting", "--output", "csv")
    parsed = list(csv.DictReader(io.StringIO(as_csv.stdout)))
    assert list(parsed[0]) == LINK_KEYS
    assert (parsed[0]["a_switch_name"], parsed[0]["health"], parsed[0]["rx_low"]) == ("leaf0", "corrupting", "false")

    limited = cli("links", "list", "--limit", "3", "--output", "json")
    assert limited.exit_code == 0, limited.stderr
    assert len(json.loads(limited.stdout)) == 3
    assert limited.stderr == "showing the first 3 of 8 links (raise --limit for more)\n"


def test_list_pages_past_the_server_page(fabric_with_telemetry: Cli) -> None:
    from fabric.models import Fabric, Link, Switch

    fabric = Fabric.objects.create(name="wide", tiers=["leaf", "spine"], capacity_constraint=0.75)
    leaf = Switch.objects.create(fabric=fabric, name="l0", tier=0)
    spine = Switch.objects.create(fabric=fabric, name="s0", tier=1)
    Link.objects.bulk_create(
        Link(fabric=fabric, a_switch=leaf, a_port=f"p{i}", z_switch=spine, z_port=f"p{i}") for i in range(1203)
    )
    listed = fabric_with_telemetry.json("links", "list", "--fabric", "wide", "--limit", "1500")
    assert [row["a_port"] for row in listed] == [f"p{i}" for i in range(1203)]


def test_show_json_is_the_link_its_status_and_open_events(fabric_with_telemetry: Cli) -> None:
    cli = fabric_with_telemetry
    shown = cli.json("links", "show", "spine0:eth1/1")
    assert list(shown) == ["link", "status", "open_events", "signatures"]
    assert list(shown["link"]) == LINK_KEYS
    assert (shown["link"]["a_switch_name"], shown["link"]["z_port"]) == ("leaf0", "eth1/1")

    status = shown["status"]
    assert (status["health"], status["rx_low"]) == ("corrupting", False)
    a, z = status["sides"]["a"], status["sides"]["z"]
    assert (a["input_power_dbm"], a["rx_class"], a["tx_class"]) == (-11.0, "ok", "ok")
    assert z["input_power_min_channel_dbm"] == -3.4 and z["rx_class"] == "ok"
    # leaf0 reported its own Rx limits; the rest comes from the 100G-SR4 catalog entry.
    assert a["thresholds"]["input_power_lower_dbm"] == {"value": -12.0, "provenance": "device"}
    assert a["thresholds"]["output_power_lower_dbm"] == {"value": -8.4, "provenance": "catalog"}
    assert z["thresholds"]["input_power_lower_dbm"] == {"value": -10.3, "provenance": "catalog"}
    assert status["directions"]["a_to_z"]["health"] == "corrupting"
    assert status["directions"]["a_to_z"]["corruption_rate"] == pytest.approx(20 / 1_000_020)

    events = shown["open_events"]
    assert len(events) == 1 and list(events[0]) == [
        "id",
        "direction",
        "rate",
        "first_seen",
        "last_rate",
        "peak_rate",
        "last_seen",
    ]
    assert events[0]["direction"] == "a_to_z"

    # Three 15-minute intervals of counters: too few for a loss signature.
    corruption = shown["signatures"]["a_to_z"]["corruption"]
    assert (corruption["intervals"], corruption["signature"]) == (3, "insufficient data")
    assert shown["signatures"]["a_to_z"]["verdict"] == "insufficient data"

    # Every way of naming the link finds the same one.
    link_id = shown["link"]["id"]
    for name in (str(link_id), "leaf0:eth2/1", "leaf0:eth2/1-spine0:eth1/1", "spine0:eth1/1 - leaf0:eth2/1"):
        assert cli.json("links", "show", name)["link"]["id"] == link_id, name


def test_show_table_prints_classes_thresholds_rates_and_events(fabric_with_telemetry: Cli) -> None:
    result = fabric_with_telemetry("links", "show", "leaf0:eth2/1", "--fabric", FABRIC)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()

    def row(label: str) -> str:
        return next(line for line in lines if line.strip().startswith(label))

    assert "leaf0:eth2/1 - spine0:eth1/1" in row("Link")
    assert cells(row("Health")) == ["Health", "corrupting"]
    assert cells(row("Rx power (dBm)")) == ["Rx", "power", "(dBm)", "-11.00", "-2.60", "(lowest", "lane", "-3.40)"]
    assert cells(row("Rx class")) == ["Rx", "class", "ok", "ok"]
    assert cells(row("Rx lower threshold")) == ["Rx", "lower", "threshold", "-12.00", "(device)", "-10.30", "(catalog)"]
    assert cells(row("Tx upper threshold"))[3:] == ["2.40", "(catalog)", "2.40", "(catalog)"]
    assert cells(row("Temperature (C)"))[2:] == ["-", "38.2"]
    assert cells(row("A -> Z"))[3:5] == ["corrupting", "2.00e-05"]
    assert cells(row("Z -> A"))[3] == "unknown"
    assert any(line.strip() == "Open corruption events" for line in lines)
    signatures = lines[next(i for i, line in enumerate(lines) if line.strip().startswith("Loss signatures")) :]
    # A steady 2e-5 over three intervals: CV 0, no correlation below eight lossy intervals.
    assert cells(next(line for line in signatures if line.strip().startswith("A -> Z")))[3:7] == [
        "insufficient",
        "data",
        "0.00",
        "-",
    ]


def test_show_dark_receiver_and_csv(fabric_with_telemetry: Cli) -> None:
    table = fabric_with_telemetry("links", "show", "spine0:eth1/2")
    assert table.exit_code == 0, table.stderr
    lines = [line.strip() for line in table.stdout.splitlines()]
    assert cells(next(line for line in lines if line.startswith("Rx power")))[3:] == ["-", "no", "light"]
    assert cells(next(line for line in lines if line.startswith("Rx class")))[2:] == ["-", "low"]
    assert "No open corruption events." in lines

    as_csv = fabric_with_telemetry("links", "show", "spine0:eth1/2", "--output", "csv")
    values = {row["field"]: row["value"] for row in csv.DictReader(io.StringIO(as_csv.stdout))}
    assert values["link.z_port"] == "eth1/2"
    assert values["status.sides.z.rx_no_light"] == "true"
    assert values["status.sides.z.thresholds.input_power_lower_dbm.provenance"] == "catalog"


def test_show_errors(fabric_with_telemetry: Cli) -> None:
    cli = fabric_with_telemetry
    for name, message in (
        ("spine0:eth9/9", "error: link 'spine0:eth9/9' not found\n"),
        ("nope:eth1", "error: no switch named 'nope'\n"),
        ("999999", "error: link '999999' not found\n"),
        ("spine0", "error: 'spine0' is not a link: give an id, SWITCH:PORT or A_SWITCH:A_PORT-Z_SWITCH:Z_PORT\n"),
        ("leaf0:eth2/1-spine1:eth1/1", "error: link 'leaf0:eth2/1-spine1:eth1/1' not found\n"),
    ):
        result = cli("links", "show", name)
        assert (result.exit_code, result.stderr) == (1, message), name

    # The same switch names in a second fabric: --fabric chooses.
    import_file(cli, FIXTURE_DATA / "leaf-spine-4x2.json", "--name", "copy")
    ambiguous = cli("links", "show", "spine0:eth1/1")
    assert ambiguous.exit_code == 1
    assert ambiguous.stderr == "error: switch 'spine0' is in 2 fabrics (copy, leaf-spine-4x2): choose with --fabric\n"
    in_copy = cli.json("links", "show", "spine0:eth1/1", "--fabric", "copy")
    assert (in_copy["link"]["health"], in_copy["open_events"]) == ("unknown", [])
    other = cli("links", "show", str(in_copy["link"]["id"]), "--fabric", FABRIC)
    assert (other.exit_code, other.stderr) == (1, f"error: link {in_copy['link']['id']} is not in fabric '{FABRIC}'\n")
