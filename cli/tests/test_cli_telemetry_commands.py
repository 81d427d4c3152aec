"""telemetry push against the real backend: the four formats, batches, rejected rows, roles.

Files are written by hand in each test (small, readable), with times in the last hours so that
the server's retention and future checks accept them.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_testing import FIXTURE_DATA, Cli, import_file, logged_in_as

if not os.environ.get("DJANGO_SETTINGS_MODULE"):
    pytest.skip("needs the backend's Django settings: run pytest from the repository root", allow_module_level=True)

pytestmark = pytest.mark.django_db(transaction=True, databases="__all__")

SUMMARY_KEYS = [
    "file",
    "fabric",
    "format",
    "batches",
    "samples",
    "inserted",
    "merged",
    "skipped_updates",
    "skipped_samples",
    "derivation",
]
FABRIC = "leaf-spine-4x2"
# leaf0:eth2/1 (side A) - spine0:eth1/1 (side Z): spine0's receiver sees the a_to_z direction.
RECEIVER = ("spine0", "eth1/1")


@pytest.fixture
def operator(cli: Cli, live_server: Any, make_role_user: Callable[..., Any]) -> Cli:
    """The CLI as an operator (may import fabrics and push telemetry), with leaf-spine-4x2 imported."""
    make_role_user("cli-operator", "operator")
    logged_in_as(cli, live_server.url, "cli-operator")
    import_file(cli, FIXTURE_DATA / "leaf-spine-4x2.json")
    return cli


def minutes_ago(minutes: float) -> dt.datetime:
    return (dt.datetime.now(dt.UTC) - dt.timedelta(minutes=minutes)).replace(second=0, microsecond=0)


def iso(moment: dt.datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


def corrupting_polls(switch: str, port: str, polls: int = 4, errors: int = 20) -> list[dict[str, Any]]:
    """A receiving end polled every 15 minutes: 1M frames and `errors` FCS errors per poll (2e-5)."""
    start = minutes_ago(15 * polls + 10)
    return [
        {
            "time": iso(start + dt.timedelta(minutes=15 * i)),
            "switch": switch,
            "port": port,
            "in_pkts": 1_000_000 * i,
            "in_fcs_errors": errors * i,
        }
        for i in range(polls)
    ]


def write_json(path: Path, samples: list[dict[str, Any]]) -> Path:
    path.write_text(json.dumps({"samples": samples}, indent=1))
    return path


def write_csv(path: Path, samples: list[dict[str, Any]]) -> Path:
    lines = ["time,switch,port,in_pkts,in_fcs_errors"]
    lines += [f"{s['time']},{s['switch']},{s['port']},{s['in_pkts']},{s['in_fcs_errors']}" for s in samples]
    path.write_text("\n".join(lines) + "\n")
    return path


def _nanoseconds(time: str) -> str:
    return str(int(dt.datetime.fromisoformat(time).timestamp()) * 1_000_000_000)


def _counter_update(port: str, name: str, value: int) -> dict[str, Any]:
    elems = [
        {"name": "interfaces"},
        {"name": "interface", "key": {"name": port}},
        {"name": "state"},
        {"name": "counters"},
        {"name": name},
    ]
    return {"path": {"elem": elems}, "val": {"uintVal": str(value)}}


def write_gnmi(path: Path, samples: list[dict[str, Any]]) -> Path:
    notifications = [
        {
            "timestamp": _nanoseconds(s["time"]),
            "prefix": {"target": s["switch"]},
            "update": [
                _counter_update(s["port"], "in-pkts", s["in_pkts"]),
                _counter_update(s["port"], "in-fcs-errors", s["in_fcs_errors"]),
                # A path Lightpath does not store: skipped and counted.
                {"path": {"elem": [{"name": "system"}, {"name": "state"}, {"name": "hostname"}]}, "val": {}},
            ],
        }
        for s in samples
    ]
    path.write_text(json.dumps(notifications))
    return path


def _milliseconds(time: str) -> int:
    return int(dt.datetime.fromisoformat(time).timestamp()) * 1000


def write_prometheus(path: Path, samples: list[dict[str, Any]]) -> Path:
    lines = []
    for metric, key in (
        ("interfaces_interface_state_counters_in_pkts", "in_pkts"),
        ("interfaces_interface_state_counters_in_fcs_errors", "in_fcs_errors"),
    ):
        lines += [f"# HELP {metric} gnmic", f"# TYPE {metric} counter"]
        lines += [
            f'{metric}{{source="{s["switch"]}:57400",interface_name="{s["port"]}"}} {s[key]} {_milliseconds(s["time"])}'
            for s in samples
        ]
    path.write_text("\n".join(lines) + "\n")
    return path


WRITERS: dict[str, tuple[str, Callable[[Path, list[dict[str, Any]]], Path]]] = {
    "json": ("polls.json", write_json),
    "csv": ("polls.csv", write_csv),
    "openconfig": ("polls.gnmi.json", write_gnmi),
    "prometheus": ("polls.prom", write_prometheus),
}


def push_json(cli: Cli, path: Path, *extra: str) -> dict[str, Any]:
    result = cli("telemetry", "push", str(path), "--fabric", FABRIC, "--output", "json", *extra)
    assert result.exit_code == 0, result.stderr
    summary: dict[str, Any] = json.loads(result.stdout)
    return summary


@pytest.fixture(autouse=True)
def settled(worker: Any) -> Iterator[None]:
    """Every push queues the worker's derivation (and CorrOpt's decisions after it): let them
    finish after each test, before its database is flushed."""
    yield
    from fabric.models import Fabric

    for name in Fabric.objects.values_list("name", flat=True):
        derived(name)


def derived(fabric: str = FABRIC) -> None:
    """Wait until the worker (the `worker` fixture) derived every batch pushed to the fabric."""
    from fabric.models import Fabric
    from telemetry.models import Derivation, IngestBatch

    batches = IngestBatch.objects.filter(fabric=Fabric.objects.get(name=fabric))
    last = batches.order_by("-id").values_list("id", flat=True).first()
    if last is None:
        return
    deadline = time.monotonic() + 60
    while not Derivation.objects.filter(fabric__name=fabric, watermark__gte=last).exists():
        assert time.monotonic() < deadline, "the worker did not derive the pushed batches"
        time.sleep(0.1)
    settle_decisions(fabric)


def settle_decisions(fabric: str) -> None:
    """Wait until CorrOpt decided every event the derivation opened: the worker does it right
    after, and must be done before the test's database is flushed."""
    from corruption.models import Decision
    from telemetry.models import CorruptionEvent

    deadline = time.monotonic() + 60
    events = CorruptionEvent.objects.filter(link__fabric__name=fabric)
    while Decision.objects.filter(event__in=events).values("event").distinct().count() < events.count():
        assert time.monotonic() < deadline, "the worker did not decide the opened events"
        time.sleep(0.1)
    time.sleep(0.3)  # the task's last statements after its decision row


def stored_samples() -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM telemetry_sample")
        count: int = cursor.fetchone()[0]
    return count


@pytest.mark.parametrize("fmt", list(WRITERS))
def test_each_format_is_pushed_and_the_link_turns_corrupting(
    operator: Cli, tmp_path: Path, fmt: str, worker: Any
) -> None:
    name, write = WRITERS[fmt]
    path = write(tmp_path / name, corrupting_polls(*RECEIVER))

    summary = push_json(operator, path)  # the format comes from the extension

    assert list(summary) == SUMMARY_KEYS
    assert (summary["file"], summary["fabric"], summary["format"]) == (str(path), FABRIC, fmt)
    assert (summary["batches"], summary["samples"], summary["inserted"], summary["merged"]) == (1, 4, 4, 0)
    assert summary["skipped_updates"] == (4 if fmt == "openconfig" else 0)
    assert summary["derivation"] == "queued"
    derived()

    corrupting = operator.json("links", "list", "--health", "corrupting")
    assert [(row["a_switch_name"], row["a_port"], row["z_switch_name"], row["z_port"]) for row in corrupting] == [
        ("leaf0", "eth2/1", "spine0", "eth1/1")
    ]
    assert corrupting[0]["health"] == "corrupting"
    events = operator.json("links", "show", "spine0:eth1/1")["open_events"]
    assert [event["direction"] for event in events] == ["a_to_z"]


def test_summary_table_and_csv(operator: Cli, tmp_path: Path) -> None:
    path = write_json(tmp_path / "polls.json", corrupting_polls(*RECEIVER))
    table = operator("telemetry", "push", str(path), "--fabric", FABRIC)
    assert table.exit_code == 0, table.stderr
    rows = {line.split("  ")[0]: line.split("  ", 1)[1].strip() for line in table.stdout.splitlines() if line.strip()}
    assert (rows["Batches"], rows["Samples"], rows["Inserted"], rows["Derivation"]) == ("1", "4", "4", "queued")
    assert table.stderr == ""  # no progress bar off a terminal

    # Sent again: merged into the stored samples, nothing new.
    as_csv = operator("telemetry", "push", str(path), "--fabric", FABRIC, "--output", "csv")
    assert as_csv.exit_code == 0, as_csv.stderr
    header, row = as_csv.stdout.splitlines()
    assert header.split(",") == SUMMARY_KEYS
    values = dict(zip(SUMMARY_KEYS, row.split(","), strict=True))
    assert (values["samples"], values["inserted"], values["merged"], values["derivation"]) == ("4", "0", "4", "queued")
    assert stored_samples() == 4


@pytest.mark.parametrize("fmt", list(WRITERS))
def test_batches_of_ten_split_25_samples_into_three(operator: Cli, tmp_path: Path, fmt: str, worker: Any) -> None:
    polls = corrupting_polls(*RECEIVER, polls=25, errors=0)
    name, write = WRITERS[fmt]
    batch_size = 10
    if fmt == "prometheus":
        # --batch-size counts metric lines: two lines a poll, so twenty lines make ten samples.
        batch_size = 20
        families = ("interfaces_interface_state_counters_in_pkts", "interfaces_interface_state_counters_in_fcs_errors")
        lines = [comment for family in families for comment in (f"# HELP {family} x", f"# TYPE {family} counter")]
        for p in polls:
            labels = '{device="spine0",interface="eth1/1"}'
            lines += [
                f"{family}{labels} {p[key]} {_milliseconds(p['time'])}"
                for family, key in zip(families, ("in_pkts", "in_fcs_errors"), strict=True)
            ]
        path = tmp_path / name
        path.write_text("\n".join(lines) + "\n")
    else:
        path = write(tmp_path / name, polls)

    summary = push_json(operator, path, "--batch-size", str(batch_size))

    assert summary["batches"] == 3
    assert (summary["samples"], summary["inserted"], summary["merged"]) == (25, 25, 0)
    assert stored_samples() == 25
    # Counter windows span batch boundaries: the newest rate comes from the window that ends
    # at the last poll, whether the batches were derived in one run or three.
    derived()
    from telemetry.models import DirectionHealth

    health = DirectionHealth.objects.get(link__z_switch__name=RECEIVER[0], link__z_port=RECEIVER[1], direction="a_to_z")
    assert (health.health, health.corruption_rate, health.corruption_time) == (
        "clean",
        0.0,
        dt.datetime.fromisoformat(polls[-1]["time"]),
    )


def test_a_bad_csv_row_names_its_file_line_and_stops_at_its_batch(operator: Cli, tmp_path: Path) -> None:
    polls = corrupting_polls(*RECEIVER, polls=25, errors=0)
    lines = ["time,switch,port,in_pkts,input_power_channels_dbm"]
    for i, p in enumerate(polls):
        # A quoted cell over two lines (lanes -2.1 and -2.3) in row 3: line numbers shift by one.
        lanes = '"-2.1;\n-2.3"' if i == 2 else "-2.1;-2.3"
        lines.append(f"{p['time']},{p['switch']},{p['port']},{p['in_pkts']},{lanes}")
    lines[15] = lines[15].replace("eth1/1", "eth9/9")  # row 15, file line 17 (batch 2)
    lines[18] = lines[18].replace("-2.1;-2.3", "-2.1;99")  # row 18, file line 20 (batch 2)
    path = tmp_path / "bad.csv"
    path.write_text("\n".join(lines) + "\n")

    result = operator("telemetry", "push", str(path), "--fabric", FABRIC, "--batch-size", "10")

    assert result.exit_code == 1
    assert result.stdout == ""
    errors = result.stderr.splitlines()
    assert errors[0] == (
        f"error: {path}: batch 2 of 3 rejected with 2 errors, nothing of it written; "
        "1 earlier batch (10 samples) stays committed; later batches were not sent"
    )
    assert errors[1].startswith("  line 17: ") and "eth9/9" in errors[1]
    assert errors[2] == "  line 20: input_power_channels_dbm[1]: 99 dBm is out of range (-50 to +10 dBm)"
    assert len(errors) == 3
    assert stored_samples() == 10  # batch 1 only


def test_a_bad_prometheus_line_in_a_later_batch_names_its_file_line(operator: Cli, tmp_path: Path) -> None:
    metric = "interfaces_interface_state_counters_in_pkts"
    polls = corrupting_polls(*RECEIVER, polls=6, errors=0)
    lines = [f"# HELP {metric} packets in", f"# TYPE {metric} counter"]
    lines += [
        f'{metric}{{device="spine0",interface="eth1/1"}} {p["in_pkts"]} {_milliseconds(p["time"])}' for p in polls
    ]
    lines[6] = f'{metric}{{device="spine0",interface="eth1/1"}} lots'  # file line 7, batch 2 of 3
    path = tmp_path / "bad.prom"
    path.write_text("\n".join(lines) + "\n")

    result = operator("telemetry", "push", str(path), "--fabric", FABRIC, "--batch-size", "2")

    assert result.exit_code == 1
    first, *details = result.stderr.splitlines()
    assert "batch 3 of 3 rejected with 1 error" in first and "2 earlier batches (4 samples) stay committed" in first
    assert len(details) == 1 and details[0].startswith("  line 7: ")
    assert stored_samples() == 4


def test_errors_beyond_fifty_are_counted(operator: Cli, tmp_path: Path) -> None:
    time = iso(minutes_ago(30))
    lines = ["time,switch,port,input_power_dbm"] + [f"{time},nope{i},eth1,-2.0" for i in range(60)]
    path = tmp_path / "unknown.csv"
    path.write_text("\n".join(lines) + "\n")

    result = operator("telemetry", "push", str(path), "--fabric", FABRIC)

    assert result.exit_code == 1
    errors = result.stderr.splitlines()
    assert "rejected with 60 errors" in errors[0] and "no earlier batch was committed" in errors[0]
    assert errors[1].startswith("  line 2: ") and "nope0" in errors[1]
    assert errors[50].startswith("  line 51: ")
    assert errors[51:] == ["  ... and 10 more"]
    assert stored_samples() == 0


def test_a_viewer_may_not_push(viewer: Cli, tmp_path: Path) -> None:
    from fabric.models import Fabric

    Fabric.objects.create(name=FABRIC, tiers=["leaf", "spine"], capacity_constraint=0.75)
    path = write_json(tmp_path / "polls.json", corrupting_polls(*RECEIVER))

    result = viewer("telemetry", "push", str(path), "--fabric", FABRIC)

    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == (
        "error: permission denied: Your role does not allow this action. "
        "(pushing telemetry needs the collector, operator or admin role)\n"
    )


def test_format_and_fabric_must_be_known(operator: Cli, tmp_path: Path) -> None:
    unknown_extension = tmp_path / "polls.dat"
    unknown_extension.write_text("x\n1\n")
    result = operator("telemetry", "push", str(unknown_extension), "--fabric", FABRIC)
    assert result.exit_code == 2
    assert "cannot tell the format of polls.dat from its extension: give --format" in result.stderr

    # With --format the same file is read as CSV: a line that is no header the server knows.
    result = operator("telemetry", "push", str(unknown_extension), "--fabric", FABRIC, "--format", "csv")
    assert result.exit_code == 1
    assert "unknown column" in result.stderr

    path = write_json(tmp_path / "polls.json", corrupting_polls(*RECEIVER))
    result = operator("telemetry", "push", str(path), "--fabric", "nope")
    assert (result.exit_code, result.stderr) == (1, "error: fabric 'nope' not found\n")
    result = operator("telemetry", "push", str(path))
    assert (result.exit_code, result.stderr) == (2, "error: name the fabric with --fabric\n")

    # A JSON document may name its fabric itself.
    path.write_text(json.dumps({"fabric": FABRIC, "samples": corrupting_polls(*RECEIVER)}))
    assert push_json(operator, path)["fabric"] == FABRIC


def _lane_power(switch: str, port: str) -> tuple[float, float, float]:
    """(lowest lane, average, temperature) stored for a link end."""
    from django.db.models import Q

    from telemetry.models import EndState

    derived()
    end = EndState.objects.get(
        Q(link__a_switch__name=switch, link__a_port=port, side="a")
        | Q(link__z_switch__name=switch, link__z_port=port, side="z")
    )
    return end.input_power_min_channel_dbm, end.input_power_dbm, end.temperature_c


def test_prometheus_lanes_stay_in_one_batch_and_take_time(operator: Cli, tmp_path: Path, worker: Any) -> None:
    from telemetry.models import EndState

    power = "components_component_transceiver_physical_channels_channel_state_input_power_instant"
    temperature = "components_component_state_temperature_instant"
    lines = [f"# TYPE {power} gauge", f"# TYPE {temperature} gauge"]
    for switch, port in (("spine0", "eth1/1"), ("leaf0", "eth2/2")):
        labels = f'device="{switch}",component_name="{port}"'
        lines += [
            f'{power}{{{labels},channel_index="{lane}"}} {dbm}' for lane, dbm in enumerate((-2.0, -3.0, -2.5, -2.5))
        ]
        lines.append(f"{temperature}{{{labels}}} 41.5")
    path = tmp_path / "dom.txt"
    path.write_text("\n".join(lines) + "\n")
    moment = minutes_ago(20)

    # Five lines per end and time, more than --batch-size: they still travel together, because the
    # server would replace (not extend) a lane list sent again in a later batch.
    summary = push_json(operator, path, "--time", iso(moment), "--batch-size", "4")

    assert (summary["format"], summary["batches"], summary["inserted"], summary["merged"]) == ("prometheus", 2, 2, 0)
    for switch, port in (("spine0", "eth1/1"), ("leaf0", "eth2/2")):
        lowest, average, celsius = _lane_power(switch, port)
        assert (lowest, celsius) == (pytest.approx(-3.0), pytest.approx(41.5))
        assert -3.0 < average < -2.0
    assert set(EndState.objects.values_list("optical_time", flat=True)) == {moment}

    result = operator("telemetry", "push", str(path), "--fabric", FABRIC, "--time", "yesterday")
    assert result.exit_code == 2 and "'yesterday' is not an ISO 8601 time" in result.stderr


def test_gnmi_notifications_of_one_switch_and_time_stay_in_one_batch(
    operator: Cli, tmp_path: Path, worker: Any
) -> None:
    stamp = _nanoseconds(iso(minutes_ago(20)))

    def lane(switch: str, port: str, index: int, dbm: float) -> dict[str, Any]:
        elems = [
            {"name": "components"},
            {"name": "component", "key": {"name": f"Transceiver {port}"}},
            {"name": "transceiver"},
            {"name": "physical-channels"},
            {"name": "channel", "key": {"index": str(index)}},
            {"name": "state"},
            {"name": "input-power"},
            {"name": "instant"},
        ]
        update = {"path": {"elem": elems}, "val": {"doubleVal": dbm}}
        return {"update": {"timestamp": stamp, "prefix": {"target": switch}, "update": [update]}}

    # One notification per lane, as some collectors send them; NDJSON, one per line.
    spine = [lane("spine0", "eth1/1", i, dbm) for i, dbm in enumerate((-2.0, -3.0, -2.5, -2.5))]
    leaf = [lane("leaf0", "eth2/2", i, dbm) for i, dbm in enumerate((-2.0, -3.0, -2.5, -2.5))]
    path = tmp_path / "lanes.ndjson"
    path.write_text("".join(json.dumps(item) + "\n" for pair in zip(spine, leaf, strict=True) for item in pair))

    summary = push_json(operator, path, "--batch-size", "3")

    assert (summary["format"], summary["batches"], summary["inserted"], summary["merged"]) == ("openconfig", 2, 2, 0)
    for switch, port in (("spine0", "eth1/1"), ("leaf0", "eth2/2")):
        assert _lane_power(switch, port)[0] == pytest.approx(-3.0)

    # A bad line is reported with its line in the file.
    lines = path.read_text().splitlines()
    lines[5] = lines[5].replace('"doubleVal": -2.5', '"doubleVal": "loud"')
    path.write_text("\n".join(lines) + "\n")
    result = operator("telemetry", "push", str(path), "--fabric", FABRIC, "--batch-size", "3")
    assert result.exit_code == 1
    first, *details = result.stderr.splitlines()
    assert "batch 2 of 2 rejected with 1 error" in first and "1 earlier batch (1 sample) stays committed" in first
    assert len(details) == 1 and details[0].startswith("  notification 5, line 6: "), details
