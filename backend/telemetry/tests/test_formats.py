"""The four ingest formats parsed into canonical samples (docs/telemetry.md, "Formats"). No database."""

from __future__ import annotations

import base64
import json
import math
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest

from telemetry.formats import FIELDS, MEDIA_TYPES, FormatError, Parsed, parse, parse_time

T0 = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)
T0_NS = int(T0.timestamp()) * 10**9
T0_MS = T0_NS // 10**6
COUNTERS = ("in_pkts", "in_fcs_errors", "in_discards", "out_pkts", "out_discards")
LANE_FIELDS = ("input_power_channels_dbm", "output_power_channels_dbm", "laser_bias_current_channels_ma")

# Canonical samples exercising every field and the awkward values: no light, a missing lane,
# the largest counter, a port name with characters CSV and Prometheus must quote.
SAMPLES: list[dict[str, Any]] = [
    {
        "time": T0,
        "switch": "tor-1-1",
        "port": "eth49",
        "input_power_channels_dbm": [-2.5, -2.75, None, -float("inf")],
        "output_power_channels_dbm": [1.25, 1.5, 1.0, 0.5],
        "laser_bias_current_channels_ma": [7.5, 7.25, 7.0, 6.5],
        "temperature_c": 41.5,
        "supply_voltage_v": 3.29,
        "in_pkts": 2**64 - 1,
        "in_fcs_errors": 0,
        "in_discards": 12,
        "out_pkts": 81234567,
        "out_discards": 3,
    },
    {"time": T0, "switch": "tor-1-1", "port": 'Ethernet1/1, "uplink"', "in_pkts": 5, "out_pkts": 7},
    {
        "time": T0 + timedelta(minutes=5),
        "switch": "fab-2",
        "port": "eth1",
        "input_power_channels_dbm": [-40.0],
        "temperature_c": -5.0,
        "supply_voltage_v": 3.3,
    },
]


def ok(media_type: str, body: bytes | str, **options: Any) -> Parsed:
    parsed = parse(media_type, body.encode() if isinstance(body, str) else body, **options)
    assert parsed.errors == []
    return parsed


def reasons(parsed: Parsed) -> list[str]:
    return [e["reason"] for e in parsed.errors]


def iso(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


# -- test-local writers (the production ones are checked at the end) --------------------------------


def write_json(samples: list[dict[str, Any]], **top: Any) -> bytes:
    # -inf as JSON's non-standard -Infinity, as Python and many collectors write it
    return json.dumps({**top, "samples": [{**s, "time": iso(s["time"])} for s in samples]}).encode()


def write_csv(samples: list[dict[str, Any]]) -> bytes:
    columns = list(dict.fromkeys(key for sample in samples for key in sample))

    def cell(value: Any) -> str:
        if value is None:
            return ""
        if isinstance(value, datetime):
            return iso(value)
        if isinstance(value, list):
            return ";".join("" if v is None else repr(v) for v in value)
        text = str(value)
        return '"' + text.replace('"', '""') + '"' if any(c in text for c in ',"\n') else text

    lines = [",".join(columns)] + [",".join(cell(s.get(c)) for c in columns) for s in samples]
    return ("\r\n".join(lines) + "\r\n").encode()


GNMI_LEAVES = {
    "in_pkts": ["interfaces", ("interface", "name"), "state", "counters", "in-pkts"],
    "in_fcs_errors": ["interfaces", ("interface", "name"), "state", "counters", "in-fcs-errors"],
    "in_discards": ["interfaces", ("interface", "name"), "state", "counters", "in-discards"],
    "out_pkts": ["interfaces", ("interface", "name"), "state", "counters", "out-pkts"],
    "out_discards": ["interfaces", ("interface", "name"), "state", "counters", "out-discards"],
    "temperature_c": ["components", ("component", "name"), "state", "temperature", "instant"],
    "supply_voltage_v": ["components", ("component", "name"), "transceiver", "state", "supply-voltage", "instant"],
}
GNMI_CHANNELS = {
    "input_power_channels_dbm": "input-power",
    "output_power_channels_dbm": "output-power",
    "laser_bias_current_channels_ma": "laser-bias-current",
}


def gnmi_path(names: list[Any], port: str, lane: int | None = None) -> dict[str, Any]:
    elems = []
    for name in names:
        if isinstance(name, tuple):
            elems.append({"name": name[0], "key": {name[1]: port if name[1] == "name" else str(lane)}})
        else:
            elems.append({"name": name})
    return {"elem": elems}


def channel_path(leaf: str, port: str, lane: int) -> dict[str, Any]:
    names = ["components", ("component", "name"), "transceiver", "physical-channels", ("channel", "index")]
    return gnmi_path([*names, "state", leaf, "instant"], port, lane)


def gnmi_value(value: Any) -> dict[str, Any]:
    if isinstance(value, int):
        return {"uintVal": str(value)}
    if math.isinf(value):
        return {"doubleVal": "-Infinity" if value < 0 else "Infinity"}
    return {"doubleVal": value}


def write_gnmi(samples: list[dict[str, Any]]) -> list[dict[str, Any]]:
    notifications = []
    for s in samples:
        updates = []
        for field, value in s.items():
            if field in GNMI_LEAVES:
                updates.append({"path": gnmi_path(GNMI_LEAVES[field], s["port"]), "val": gnmi_value(value)})
            elif field in GNMI_CHANNELS:
                for lane, v in enumerate(value):
                    if v is not None:
                        path = channel_path(GNMI_CHANNELS[field], s["port"], lane)
                        updates.append({"path": path, "val": gnmi_value(v)})
        stamp = str(int(s["time"].timestamp()) * 10**9)
        notifications.append({"timestamp": stamp, "prefix": {"target": s["switch"]}, "update": updates})
    return notifications


PROMETHEUS = {
    "in_pkts": "interfaces_interface_state_counters_in_pkts",
    "in_fcs_errors": "interfaces_interface_state_counters_in_fcs_errors",
    "in_discards": "interfaces_interface_state_counters_in_discards",
    "out_pkts": "interfaces_interface_state_counters_out_pkts",
    "out_discards": "interfaces_interface_state_counters_out_discards",
    "temperature_c": "components_component_state_temperature_instant",
    "supply_voltage_v": "components_component_transceiver_state_supply_voltage_instant",
    "input_power_channels_dbm": "components_component_transceiver_physical_channels_channel_state_input_power_instant",
    "output_power_channels_dbm": "components_component_transceiver_physical_channels_channel_state_output_power_instant",
    "laser_bias_current_channels_ma": (
        "components_component_transceiver_physical_channels_channel_state_laser_bias_current_instant"
    ),
}


def label(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def prom_number(value: float) -> str:
    if isinstance(value, int):
        return str(value)
    return {math.inf: "+Inf", -math.inf: "-Inf"}.get(value, repr(value))


def write_prometheus(samples: list[dict[str, Any]]) -> bytes:
    lines = ["# HELP interfaces_interface_state_counters_in_pkts in-pkts", "# TYPE x counter"]
    for s in samples:
        ms = int(s["time"].timestamp() * 1000)
        base = f'source="{label(s["switch"])}:57400",interface_name="{label(s["port"])}"'
        for field, value in s.items():
            metric = PROMETHEUS.get(field)
            if metric is None:
                continue
            if isinstance(value, list):
                for lane, v in enumerate(value):
                    if v is not None:
                        lines.append(f'{metric}{{{base},channel_index="{lane}"}} {prom_number(v)} {ms}')
            else:
                lines.append(f"{metric}{{{base}}} {prom_number(value)} {ms}")
    return ("\n".join(lines) + "\n").encode()


def without_trailing_missing_lanes(sample: dict[str, Any]) -> dict[str, Any]:
    """gNMI and Prometheus name each lane, so a list ends at the last lane given."""
    out = dict(sample)
    for field in LANE_FIELDS:
        if field in out:
            lanes = list(out[field])
            while lanes and lanes[-1] is None:
                lanes.pop()
            out[field] = lanes
    return out


# -- round trips -------------------------------------------------------------------------------------


def test_json_round_trip_keeps_every_value_and_the_fabric() -> None:
    parsed = ok("application/json", write_json(SAMPLES, fabric="dc1"))
    assert parsed.samples == SAMPLES
    assert parsed.fabric == "dc1"
    assert parsed.where == [{"index": 0}, {"index": 1}, {"index": 2}]
    assert all(type(s["in_pkts"]) is int for s in parsed.samples if "in_pkts" in s)
    assert parsed.samples[0]["time"].tzinfo is UTC


def test_csv_round_trip_with_quoted_names_crlf_and_line_numbers() -> None:
    parsed = ok("text/csv; charset=utf-8", write_csv(SAMPLES))
    assert parsed.samples == SAMPLES
    assert parsed.where == [{"index": 0, "line": 2}, {"index": 1, "line": 3}, {"index": 2, "line": 4}]
    assert parsed.fabric is None


@pytest.mark.parametrize("shape", ["list", "subscribe_responses", "lines"])
def test_gnmi_round_trip_in_each_body_shape(shape: str) -> None:
    notifications = write_gnmi(SAMPLES)
    if shape == "list":
        body = json.dumps(notifications)
    elif shape == "subscribe_responses":
        body = json.dumps([{"update": n} for n in notifications] + [{"sync_response": True}])
    else:
        body = "\n".join(json.dumps(n) for n in notifications) + "\n"
    parsed = ok(MEDIA_TYPES["openconfig"], body)
    assert parsed.samples == [without_trailing_missing_lanes(s) for s in SAMPLES]
    assert [w["notification"] for w in parsed.where] == [0, 1, 2]
    assert parsed.skipped == 0


def test_prometheus_round_trip() -> None:
    parsed = ok(MEDIA_TYPES["prometheus"], write_prometheus(SAMPLES))
    assert parsed.samples == [without_trailing_missing_lanes(s) for s in SAMPLES]
    assert parsed.where[0] == {"index": 0, "line": 3}
    assert parsed.skipped == 0


def test_media_types_are_the_docs_table_and_parameters_are_ignored() -> None:
    assert MEDIA_TYPES == {
        "json": "application/json",
        "csv": "text/csv",
        "openconfig": "application/vnd.lightpath.gnmi+json",
        "prometheus": "text/plain; version=0.0.4",
    }
    body = write_json(SAMPLES[1:2])
    assert ok("Application/JSON; charset=utf-8", body).samples == SAMPLES[1:2]
    assert ok("json", body).samples == SAMPLES[1:2]  # a format name works too (CLI, scripts)
    assert ok("text/plain", write_prometheus(SAMPLES[1:2])).samples == SAMPLES[1:2]
    with pytest.raises(FormatError, match="unsupported Content-Type 'application/xml'"):
        parse("application/xml", b"<a/>")


def test_fields_are_the_docs_sample_fields() -> None:
    assert set(FIELDS) == {*("time", "switch", "port"), *COUNTERS, *LANE_FIELDS} | {
        "input_power_dbm",
        "output_power_dbm",
        "laser_bias_current_ma",
        "temperature_c",
        "supply_voltage_v",
        "input_power_lower_dbm",
        "input_power_upper_dbm",
        "output_power_lower_dbm",
        "output_power_upper_dbm",
        "oper_status",
    }


# -- whole-body errors -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("media_type", "body", "message"),
    [
        ("application/json", b'{"samples": [\n{"time": 1,}\n]}', "not JSON: .*line 2"),
        ("application/json", b"[]", "must be a JSON object"),
        ("application/json", b'{"sample": []}', 'unknown top-level key "sample"'),
        ("application/json", b'{"samples": {}}', '"samples" must be a list'),
        ("application/json", b'{"fabric": 3, "samples": []}', "fabric: 3 is not a non-empty string"),
        ("application/json", b'{"samples": [\n{"switch": "\xff"}]}', "line 2: the body is not UTF-8"),
        ("text/csv", b"time,switch,port\n\xfe\n", "line 2: the body is not UTF-8"),
        ("text/csv", b"", "the CSV body is empty"),
        ("text/csv", b"\n\n", "the CSV body is empty"),
        ("text/csv", b"time,switch,port,input_power\n", 'line 1: unknown column "input_power".*input_power_dbm'),
        ("text/csv", b"\ntime,switch,port,in_pkts,in_pkts\n", 'line 2: column "in_pkts" appears twice'),
        ("text/csv", b"time,port,in_pkts\n", "line 1: the header lacks the required column.*switch"),
        (MEDIA_TYPES["openconfig"], b"[{]", "not JSON"),
        (MEDIA_TYPES["openconfig"], b"\n \n", "holds no notification"),
    ],
)
def test_unusable_bodies_raise_format_error_naming_the_line(media_type: str, body: bytes, message: str) -> None:
    with pytest.raises(FormatError, match=message):
        parse(media_type, body)


def test_a_byte_order_mark_is_ignored() -> None:
    assert ok("text/csv", b"\xef\xbb\xbf" + write_csv(SAMPLES[1:2])).samples == SAMPLES[1:2]
    assert ok("application/json", b"\xef\xbb\xbf" + write_json(SAMPLES[1:2])).samples == SAMPLES[1:2]


# -- values: JSON ------------------------------------------------------------------------------------


def json_errors(*samples: dict[str, Any]) -> Parsed:
    return parse("application/json", json.dumps({"samples": list(samples)}).encode())


BASE = {"time": "2026-11-22T10:00:00Z", "switch": "s", "port": "p"}


def test_times_iso_with_offset_or_unix_seconds_become_utc() -> None:
    parsed = ok(
        "application/json",
        json.dumps(
            {
                "samples": [
                    {**BASE, "time": "2026-11-22T11:00:00+01:00", "in_pkts": 1},
                    {**BASE, "time": T0_NS // 10**9, "in_pkts": 2},
                    {**BASE, "time": T0_NS / 10**9 + 0.5, "in_pkts": 3},
                    {**BASE, "time": str(T0_NS // 10**9), "in_pkts": 4},
                ]
            }
        ),
    )
    times = [s["time"] for s in parsed.samples]
    assert times == [T0, T0, T0 + timedelta(milliseconds=500), T0]
    assert all(t.utcoffset() == timedelta(0) for t in times)


@pytest.mark.parametrize(
    ("time", "reason"),
    [
        ("2026-11-22T10:00:00", 'time: "2026-11-22T10:00:00" has no UTC offset (add Z or +00:00)'),
        ("yesterday", 'time: "yesterday" is not an ISO 8601 time or Unix seconds'),
        (True, "time: true is not an ISO 8601 time or Unix seconds"),
        (1e30, "time: 1e+30 is not a valid Unix time"),
        (None, "time: missing (required)"),
    ],
)
def test_bad_times_are_errors_with_a_reason(time: Any, reason: str) -> None:
    assert reasons(json_errors({**BASE, "time": time, "in_pkts": 1})) == [reason]


def test_parse_time_is_the_same_rule_for_the_query_time() -> None:
    assert parse_time("2026-11-22T10:00:00Z") == T0
    assert parse_time(T0_NS // 10**9) == T0
    with pytest.raises(ValueError, match="has no UTC offset"):
        parse_time("2026-11-22T10:00:00")


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        (1.5, "in_pkts: 1.5 is not an integer"),
        (5.0, "in_pkts: 5.0 is not an integer"),
        ("12", 'in_pkts: "12" is not an integer'),
        ("12x", 'in_pkts: "12x" is not an integer'),
        (True, "in_pkts: true is not an integer"),
        (-1, "in_pkts: -1 must be ≥ 0"),
        (2**64, "in_pkts: 18446744073709551616 is above 2^64-1"),
    ],
)
def test_json_counters_must_be_integers_from_0_to_2_64_minus_1(value: Any, reason: str) -> None:
    assert reasons(json_errors({**BASE, "in_pkts": value})) == [reason]


def test_json_powers_take_minus_infinity_in_any_spelling_and_keep_out_of_range_values() -> None:
    body = b'{"samples": [{"time": 0, "switch": "s", "port": "p", "input_power_dbm": -Infinity, "output_power_dbm": "-inf",'
    body += b' "input_power_upper_dbm": "Infinity", "input_power_channels_dbm": [-99, "-Infinity", null],'
    body += b' "output_power_channels_dbm": [0], "temperature_c": 900}]}'
    sample = ok("application/json", body).samples[0]
    assert sample["input_power_dbm"] == -math.inf and sample["output_power_dbm"] == -math.inf
    assert sample["input_power_upper_dbm"] == math.inf
    assert sample["input_power_channels_dbm"] == [-99.0, -math.inf, None]
    assert type(sample["output_power_channels_dbm"][0]) is float
    assert sample["temperature_c"] == 900.0  # ranges are the service's business


def test_json_non_numbers_nan_and_non_power_infinities_are_errors() -> None:
    body = b'{"samples": [{"time": 0, "switch": "s", "port": "p", "input_power_dbm": NaN, "temperature_c": Infinity,'
    body += b' "supply_voltage_v": "-inf", "laser_bias_current_ma": true, "output_power_dbm": "-3.5",'
    body += b' "laser_bias_current_channels_ma": [1, "-inf"], "input_power_channels_dbm": [], "output_power_channels_dbm": 3}]}'
    assert reasons(parse("application/json", body)) == [
        "input_power_dbm: NaN is not a number",
        "temperature_c: Infinity is not a finite number",
        'supply_voltage_v: "-inf" is not a number',
        "laser_bias_current_ma: true is not a number",
        'output_power_dbm: "-3.5" is not a number',
        'laser_bias_current_channels_ma: lane 1: "-inf" is not a number',
        "input_power_channels_dbm: an empty list (leave the field out when not measured)",
        "output_power_channels_dbm: 3 is not a list (one value per lane)",
    ]


def test_json_null_is_not_measured() -> None:
    sample = ok("application/json", json.dumps({"samples": [{**BASE, "in_pkts": 3, "out_pkts": None}]})).samples[0]
    assert sample == {"time": T0, "switch": "s", "port": "p", "in_pkts": 3}


def test_json_unknown_keys_and_missing_names_are_errors_and_every_error_is_listed() -> None:
    parsed = json_errors(
        {**BASE, "in_pkts": 1},
        {**BASE, "input_power": -3, "in_pkts": "x"},
        {"time": "2026-11-22T10:00:00Z", "port": "", "in_pkts": 1},
        "eth1",
        {**BASE, "switch": "a\x00b", "out_pkts": 2},
        {**BASE, "out_pkts": 2},
    )
    assert parsed.errors == [
        {"index": 1, "field": "input_power", "reason": "input_power: unknown field (did you mean input_power_dbm?)"},
        {"index": 1, "field": "in_pkts", "reason": 'in_pkts: "x" is not an integer'},
        {"index": 2, "field": "port", "reason": 'port: "" is not a non-empty string'},
        {"index": 2, "field": "switch", "reason": "switch: missing (required)"},
        {"index": 3, "field": None, "reason": 'sample 3 is "eth1", not an object'},
        {"index": 4, "field": "switch", "reason": "switch: contains a NUL character"},
    ]
    # only complete samples are returned; where[i]["index"] is their position in the body
    assert [w["index"] for w in parsed.where] == [0, 5]


# -- values: CSV -------------------------------------------------------------------------------------


def test_csv_header_in_any_order_empty_cells_lists_and_blank_lines() -> None:
    seconds = T0_NS // 10**9
    body = (
        " port , in_pkts,time,switch,input_power_channels_dbm,temperature_c\n"
        "\n"
        "eth1,12,2026-11-22T10:00:00Z,tor-1,-2.5;;-inf,\n"
        f"eth2,,{seconds},tor-1,,41\n"
        f"eth3,+7,{seconds}.0,tor-1, -1 ; -2 ,\n"
    )
    parsed = ok("text/csv", body)
    assert parsed.samples == [
        {
            "time": T0,
            "switch": "tor-1",
            "port": "eth1",
            "in_pkts": 12,
            "input_power_channels_dbm": [-2.5, None, -math.inf],
        },
        {"time": T0, "switch": "tor-1", "port": "eth2", "temperature_c": 41.0},
        {"time": T0, "switch": "tor-1", "port": "eth3", "in_pkts": 7, "input_power_channels_dbm": [-1.0, -2.0]},
    ]
    assert [w["line"] for w in parsed.where] == [3, 4, 5]
    assert type(parsed.samples[1]["temperature_c"]) is float


def test_csv_errors_name_index_line_and_field_and_every_one_is_listed() -> None:
    body = (
        "time,switch,port,in_pkts,out_pkts,input_power_dbm,temperature_c,laser_bias_current_channels_ma\n"
        "2026-11-22T10:00:00Z,s,p,1,2,-3,40,1;2\n"
        '2026-11-22T10:00:00,s,"multi\nline",12x,-3,nan,inf,1;x\n'
        "2026-11-22T10:00:00Z,,p,1.5,1_000,-inf,,\n"
        "\n"
        "2026-11-22T10:00:00Z,s\n"
        "2026-11-22T10:00:00Z,s,p,18446744073709551616,,abc,,\n"
        "2026-11-22T10:00:00Z,s,p,1,,,,\n"
    )
    parsed = parse("text/csv", body.encode())
    assert parsed.errors == [
        {
            "index": 1,
            "line": 3,
            "field": "time",
            "reason": 'time: "2026-11-22T10:00:00" has no UTC offset (add Z or +00:00)',
        },
        {"index": 1, "line": 3, "field": "in_pkts", "reason": 'in_pkts: "12x" is not an integer'},
        {"index": 1, "line": 3, "field": "out_pkts", "reason": "out_pkts: -3 must be ≥ 0"},
        {"index": 1, "line": 3, "field": "input_power_dbm", "reason": 'input_power_dbm: "nan" is not a number'},
        {"index": 1, "line": 3, "field": "temperature_c", "reason": 'temperature_c: "inf" is not a finite number'},
        {
            "index": 1,
            "line": 3,
            "field": "laser_bias_current_channels_ma",
            "reason": 'laser_bias_current_channels_ma: lane 1: "x" is not a number',
        },
        {"index": 2, "line": 5, "field": "switch", "reason": "switch: missing (required)"},
        {"index": 2, "line": 5, "field": "in_pkts", "reason": 'in_pkts: "1.5" is not an integer'},
        {"index": 2, "line": 5, "field": "out_pkts", "reason": 'out_pkts: "1_000" is not an integer'},
        {"index": 3, "line": 7, "field": None, "reason": "line 7 has 2 cells, the header has 8"},
        {"index": 4, "line": 8, "field": "in_pkts", "reason": "in_pkts: 18446744073709551616 is above 2^64-1"},
        {"index": 4, "line": 8, "field": "input_power_dbm", "reason": 'input_power_dbm: "abc" is not a number'},
    ]
    assert parsed.where == [{"index": 0, "line": 2}, {"index": 5, "line": 9}]
    assert parsed.samples[1] == {"time": T0, "switch": "s", "port": "p", "in_pkts": 1}


def test_csv_power_minus_inf_spellings() -> None:
    body = "time,switch,port,input_power_dbm,output_power_dbm,output_power_lower_dbm\n0,s,p,-Infinity,-INF,inf\n"
    sample = ok("text/csv", body).samples[0]
    assert (sample["input_power_dbm"], sample["output_power_dbm"]) == (-math.inf, -math.inf)
    assert sample["output_power_lower_dbm"] == math.inf


# -- gNMI --------------------------------------------------------------------------------------------


def notification(updates: list[dict[str, Any]], *, target: str = "tor-1", stamp: Any = str(T0_NS), **more: Any) -> dict:
    return {"timestamp": stamp, "prefix": {"target": target}, "update": updates, **more}


def counter_update(port: str = "eth1", leaf: str = "in-pkts", val: Any = None) -> dict[str, Any]:
    path = gnmi_path(["interfaces", ("interface", "name"), "state", "counters", leaf], port)
    return {"path": path, "val": val if val is not None else {"uintVal": "5"}}


def gnmi(*notifications: Any) -> Parsed:
    return parse(MEDIA_TYPES["openconfig"], json.dumps(list(notifications)).encode())


@pytest.mark.parametrize(
    ("val", "field", "expected"),
    [
        ({"uintVal": "18446744073709551615"}, "in_pkts", 2**64 - 1),
        ({"uintVal": 42}, "in_pkts", 42),
        ({"intVal": "-312"}, "temperature_c", -312.0),
        ({"intVal": 7}, "in_pkts", 7),
        ({"doubleVal": -3.25}, "temperature_c", -3.25),
        ({"doubleVal": "41.5"}, "temperature_c", 41.5),
        ({"floatVal": 41}, "temperature_c", 41.0),
        ({"decimalVal": {"digits": "-312", "precision": 2}}, "temperature_c", -3.12),
        ({"decimalVal": {"digits": 4150, "precision": "2"}}, "temperature_c", 41.5),
        ({"decimalVal": {"digits": "9"}}, "in_pkts", 9),
        ({"jsonVal": 41.5}, "temperature_c", 41.5),
        ({"jsonVal": "81234567"}, "in_pkts", 81234567),
        ({"jsonVal": base64.b64encode(b"-3.5").decode()}, "temperature_c", -3.5),
        ({"jsonIetfVal": base64.b64encode(b'"81234567"').decode()}, "in_pkts", 81234567),
        ({"jsonIetfVal": "41.5"}, "temperature_c", 41.5),
    ],
)
def test_gnmi_every_value_kind(val: dict[str, Any], field: str, expected: Any) -> None:
    if field == "in_pkts":
        update = counter_update(val=val)
    else:
        update = {"path": gnmi_path(GNMI_LEAVES["temperature_c"], "eth1"), "val": val}
    sample = gnmi(notification([update])).samples[0]
    assert sample[field] == pytest.approx(expected) and type(sample[field]) is type(expected)


def test_gnmi_minus_infinity_power_lane_and_proto3_spellings() -> None:
    updates = [
        {"path": channel_path("input-power", "eth1", 0), "val": {"doubleVal": "-Infinity"}},
        {"path": channel_path("input-power", "eth1", 1), "val": {"floatVal": -40}},
    ]
    assert gnmi(notification(updates)).samples[0]["input_power_channels_dbm"] == [-math.inf, -40.0]


@pytest.mark.parametrize(
    ("val", "reason"),
    [
        ({"doubleVal": 5.0}, "in_pkts: doubleVal 5.0 is not an integer"),
        ({"uintVal": "-5"}, 'in_pkts: uintVal "-5" is negative'),
        ({"uintVal": "5x"}, 'in_pkts: uintVal "5x" is not an integer'),
        ({"intVal": "-5"}, "in_pkts: -5 must be ≥ 0"),
        ({"uintVal": str(2**64)}, "in_pkts: 18446744073709551616 is above 2^64-1"),
        ({"stringVal": "5"}, "in_pkts: a stringVal is not a number value"),
        ({"jsonVal": "!!"}, 'in_pkts: jsonVal "!!" is neither a number nor base64 of one'),
        ({"jsonVal": base64.b64encode(b'{"a": 1}').decode()}, "in_pkts: jsonVal"),
        ({"decimalVal": {"digits": "x"}}, "in_pkts: decimalVal"),
        ({"fooVal": 1}, 'in_pkts: unknown value type "fooVal"'),
        ({}, "in_pkts: val {} is not a TypedValue"),
    ],
)
def test_gnmi_bad_values_are_errors(val: dict[str, Any], reason: str) -> None:
    parsed = gnmi(notification([counter_update(val=val)]))
    assert parsed.samples == []
    [entry] = parsed.errors
    assert entry["reason"].startswith(reason)
    assert (entry["index"], entry["notification"], entry["field"]) == (0, 0, "in_pkts")


def test_gnmi_nan_is_an_error_and_non_power_infinity_too() -> None:
    temperature = gnmi_path(GNMI_LEAVES["temperature_c"], "eth1")
    parsed = gnmi(
        notification([{"path": temperature, "val": {"doubleVal": "NaN"}}]),
        notification([{"path": temperature, "val": {"doubleVal": "Infinity"}}], target="tor-2"),
    )
    assert reasons(parsed) == [
        'temperature_c: "NaN" is not a number',
        'temperature_c: "Infinity" is not a finite number',
    ]


def test_gnmi_prefix_elems_origin_module_names_and_transceiver_word() -> None:
    prefix_elems = [
        {"name": "openconfig-platform:components"},
        {"name": "component", "key": {"name": "Transceiver eth7"}},
    ]
    updates = [
        {
            "path": {"origin": "openconfig", "elem": [{"name": "state"}, {"name": "temperature"}, {"name": "instant"}]},
            "val": {"doubleVal": 40.0},
        },
        {
            "path": {
                "elem": [{"name": "transceiver"}, {"name": "state"}, {"name": "input-power"}, {"name": "instant"}]
            },
            "val": {"doubleVal": -2.0},
        },
    ]
    lower = channel_path("output-power", "transceiver eth8", 0)
    parsed = gnmi(
        {
            "timestamp": T0_NS,
            "prefix": {"target": "tor-1", "origin": "openconfig", "elem": prefix_elems},
            "update": updates,
        },
        notification([{"path": lower, "val": {"doubleVal": 1.0}}]),
    )
    assert parsed.errors == []
    assert parsed.samples == [
        {"time": T0, "switch": "tor-1", "port": "eth7", "temperature_c": 40.0, "input_power_dbm": -2.0},
        {"time": T0, "switch": "tor-1", "port": "eth8", "output_power_channels_dbm": [1.0]},
    ]


def test_gnmi_critical_thresholds_are_read_other_severities_and_unknown_paths_skipped() -> None:
    def threshold(severity: str, leaf: str, value: float) -> dict[str, Any]:
        elems = [
            {"name": "components"},
            {"name": "component", "key": {"name": "eth1"}},
            {"name": "transceiver"},
            {"name": "thresholds"},
            {"name": "threshold", "key": {"severity": severity}},
            {"name": "state"},
            {"name": leaf},
        ]
        return {"path": {"elem": elems}, "val": {"doubleVal": value}}

    updates = [
        threshold("CRITICAL", "input-power-lower", -14.0),
        threshold("openconfig-alarm-types:CRITICAL", "input-power-upper", 3.0),
        threshold("CRITICAL", "output-power-lower", -9.0),
        threshold("CRITICAL", "output-power-upper", 4.0),
        threshold("WARNING", "input-power-lower", -12.0),
        {"path": {"elem": [{"name": "system"}, {"name": "state"}, {"name": "hostname"}]}, "val": {"stringVal": "x"}},
        counter_update(leaf="in-octets"),
    ]
    parsed = gnmi(notification(updates, delete=[{"elem": [{"name": "interfaces"}]}]))
    assert parsed.errors == []
    assert parsed.skipped == 3
    assert parsed.samples == [
        {
            "time": T0,
            "switch": "tor-1",
            "port": "eth1",
            "input_power_lower_dbm": -14.0,
            "input_power_upper_dbm": 3.0,
            "output_power_lower_dbm": -9.0,
            "output_power_upper_dbm": 4.0,
        }
    ]


def test_gnmi_merges_updates_of_one_switch_port_and_time_across_notifications() -> None:
    parsed = gnmi(
        {"sync_response": True},
        notification([counter_update("eth1"), counter_update("eth2")]),
        notification([counter_update("eth1", "out-pkts", {"uintVal": 9})], stamp=T0_NS),  # same time as an int
        notification([counter_update("eth1", "out-pkts", {"uintVal": 9})], stamp=str(T0_NS + 10**9)),
        notification([{"path": channel_path("input-power", "eth1", 2), "val": {"doubleVal": -3.0}}]),
        {"timestamp": str(T0_NS), "prefix": {"target": "tor-1"}, "delete": [gnmi_path(["interfaces"], "")]},
    )
    assert parsed.errors == []
    assert parsed.samples == [
        {
            "time": T0,
            "switch": "tor-1",
            "port": "eth1",
            "in_pkts": 5,
            "out_pkts": 9,
            "input_power_channels_dbm": [None, None, -3.0],
        },
        {"time": T0, "switch": "tor-1", "port": "eth2", "in_pkts": 5},
        {"time": T0 + timedelta(seconds=1), "switch": "tor-1", "port": "eth1", "out_pkts": 9},
    ]
    assert parsed.where == [
        {"index": 0, "notification": 1},
        {"index": 1, "notification": 1},
        {"index": 2, "notification": 3},
    ]


def test_gnmi_a_value_given_twice_differently_is_an_error() -> None:
    parsed = gnmi(
        notification([counter_update("eth2")]),
        notification([counter_update("eth1"), counter_update("eth1", val={"uintVal": "6"})]),
    )
    assert parsed.errors == [
        {
            "index": 1,
            "notification": 1,
            "field": "in_pkts",
            "reason": "in_pkts: given twice with different values (5 and 6)",
        }
    ]
    assert parsed.where == [{"index": 0, "notification": 0}]


def test_gnmi_notification_level_errors_and_newline_delimited_line_numbers() -> None:
    lines = [
        json.dumps(notification([counter_update()])),
        "",
        "{not json",
        json.dumps(notification([counter_update()], stamp="yesterday")),
        json.dumps(notification([counter_update()], target="")),
        json.dumps({"timestamp": str(T0_NS), "update": [counter_update()]}),
        json.dumps(
            notification([{"path": channel_path("input-power", "eth1", 0), "val": {"doubleVal": 1.0}}], target="t5")
        ),
        json.dumps(notification([{"val": {"doubleVal": 1.0}, "path": "x"}])),
        json.dumps(
            notification([{"path": channel_path("input-power", "eth1", 99), "val": {"doubleVal": 1.0}}], target="t7")
        ),
        json.dumps([1]),
        json.dumps({"hello": "world"}),
    ]
    lines[6] = lines[6].replace('"index": "0"', '"index": "first"')
    parsed = parse(MEDIA_TYPES["openconfig"], "\n".join(lines).encode())
    assert [(e.get("index"), e["notification"], e["line"], e["field"]) for e in parsed.errors] == [
        (None, 1, 3, None),
        (None, 2, 4, "timestamp"),
        (None, 3, 5, "prefix.target"),
        (None, 4, 6, "prefix.target"),
        (1, 5, 7, "input_power_channels_dbm"),
        (None, 6, 8, None),
        (2, 7, 9, "input_power_channels_dbm"),
        (None, 8, 10, None),
        (None, 9, 11, None),
    ]
    assert reasons(parsed)[0].startswith("line 3 is not JSON")
    assert reasons(parsed)[1] == 'timestamp: "yesterday" is not nanoseconds since the epoch'
    assert reasons(parsed)[3] == "prefix.target: missing (required)"
    assert reasons(parsed)[4] == 'input_power_channels_dbm: channel has no numeric index key ("first")'
    assert reasons(parsed)[6] == "input_power_channels_dbm: channel index 99 is beyond 63"
    assert parsed.where == [{"index": 0, "notification": 0, "line": 1}]


# -- Prometheus --------------------------------------------------------------------------------------

IN_PKTS = "interfaces_interface_state_counters_in_pkts"
RX_LANE = "components_component_transceiver_physical_channels_channel_state_input_power_instant"


def prom(text: str, **options: Any) -> Parsed:
    return parse(MEDIA_TYPES["prometheus"], text.encode(), **options)


@pytest.mark.parametrize(
    ("labels", "switch", "port"),
    [
        ('switch="a",device="b",source="c",target="d",instance="e",port="p",interface_name="q"', "a", "p"),
        ('device="b",source="c",target="d",instance="e",interface_name="q",interface="r"', "b", "q"),
        ('source="c:57400",target="d",instance="e",interface="r",ifName="s"', "c", "r"),
        ('target="d:1",instance="e",ifName="s",ifDescr="t"', "d:1", "s"),  # only instance and source lose a port
        ('instance="10.0.0.1:9116",ifDescr="t",component_name="u"', "10.0.0.1", "t"),
        ('instance="[2001:db8::1]:9116",component_name="Transceiver u",name="v"', "2001:db8::1", "u"),
        ('instance="2001:db8::1",name="v"', "2001:db8::1", "v"),
        ('switch="",device="b",port="",name="v"', "b", "v"),  # an empty label is no label
    ],
)
def test_prometheus_switch_and_port_label_precedence(labels: str, switch: str, port: str) -> None:
    sample = prom(f"{IN_PKTS}{{{labels}}} 5 {T0_MS}\n").samples[0]
    assert (sample["switch"], sample["port"]) == (switch, port)


@pytest.mark.parametrize("lane_label", ["channel_index", "index", "lane"])
def test_prometheus_lane_labels(lane_label: str) -> None:
    sample = prom(f'{RX_LANE}{{switch="s",port="p",{lane_label}="1"}} -2.5 {T0_MS}\n').samples[0]
    assert sample["input_power_channels_dbm"] == [None, -2.5]


def test_prometheus_label_escapes_and_odd_spacing() -> None:
    text = f'  {IN_PKTS} {{ switch = "s\\\\1" , port="a \\"b\\"\\nc}}, d" , }}\t5\t{T0_MS}  \r\n'
    sample = prom(text).samples[0]
    assert sample["switch"] == "s\\1"
    assert sample["port"] == 'a "b"\nc}, d'


def test_prometheus_values_counters_in_exponent_form_and_infinities() -> None:
    text = (
        f'{IN_PKTS}{{switch="s",port="p"}} 1.234567e+06 {T0_MS}\n'
        f'{RX_LANE}{{switch="s",port="p",lane="0"}} -Inf {T0_MS}\n'
        f'{RX_LANE}{{switch="s",port="p",lane="1"}} +Inf {T0_MS}\n'
        f'ifHCOutUcastPkts{{switch="s",port="p"}} 7 {T0_MS}\n'
    )
    sample = prom(text).samples[0]
    assert sample["in_pkts"] == 1234567 and type(sample["in_pkts"]) is int
    assert sample["input_power_channels_dbm"] == [-math.inf, math.inf]
    assert sample["out_pkts"] == 7


def test_prometheus_every_metric_of_the_docs_table() -> None:
    snmp = {
        "ifHCInUcastPkts": "in_pkts",
        "dot3StatsFCSErrors": "in_fcs_errors",
        "ifInDiscards": "in_discards",
        "ifHCOutUcastPkts": "out_pkts",
        "ifOutDiscards": "out_discards",
    }
    gnmic = {metric: field for field, metric in PROMETHEUS.items()}
    text = "".join(f'{m}{{instance="snmp:9116",ifName="p"}} {n} {T0_MS}\n' for n, m in enumerate(snmp))
    text += "".join(f'{m}{{source="gnmic",component_name="p",lane="0"}} {n} {T0_MS}\n' for n, m in enumerate(gnmic))
    parsed = prom(text)
    assert parsed.errors == [] and parsed.skipped == 0
    by_snmp, by_gnmic = parsed.samples
    assert {k: v for k, v in by_snmp.items() if k in snmp.values()} == {f: n for n, f in enumerate(snmp.values())}
    expected = {f: ([float(n)] if f in LANE_FIELDS else n) for n, f in enumerate(gnmic.values())}
    assert {k: v for k, v in by_gnmic.items() if k in expected} == expected


def test_prometheus_timestamps_default_time_comments_unknown_metrics_and_grouping() -> None:
    text = (
        "# HELP interfaces_interface_state_counters_in_pkts in-pkts\n"
        "# TYPE interfaces_interface_state_counters_in_pkts counter\n"
        "\n"
        "   # an indented comment\n"
        f'{IN_PKTS}{{switch="s",port="p"}} 5\n'
        f'node_cpu_seconds_total{{cpu="0"}} 1.5e3 {T0_MS}\n'
        "up 1\n"
        f'interfaces_interface_state_counters_out_pkts{{switch="s",port="p"}} 6\n'
        f'{IN_PKTS}{{switch="s",port="p"}} 9 {T0_MS + 1500}\n'
    )
    default = datetime(2026, 11, 22, 11, 0, tzinfo=timezone(timedelta(hours=1)))
    parsed = prom(text, default_time=default)
    assert parsed.errors == []
    assert parsed.skipped == 2
    assert parsed.samples == [
        {"time": T0, "switch": "s", "port": "p", "in_pkts": 5, "out_pkts": 6},
        {"time": T0 + timedelta(milliseconds=1500), "switch": "s", "port": "p", "in_pkts": 9},
    ]
    assert parsed.where == [{"index": 0, "line": 5}, {"index": 1, "line": 9}]
    assert parsed.samples[0]["time"].tzinfo is UTC


def test_prometheus_a_line_without_timestamp_needs_a_default_time() -> None:
    parsed = prom(f'{IN_PKTS}{{switch="s",port="p"}} 5 {T0_MS}\n{IN_PKTS}{{switch="s",port="q"}} 5\n')
    assert parsed.errors == [
        {
            "line": 2,
            "field": "time",
            "reason": "time: the line has no timestamp and no default time was given (?time=)",
        }
    ]
    assert len(parsed.samples) == 1
    with pytest.raises(ValueError, match="timezone-aware"):
        prom("", default_time=datetime(2026, 11, 22))


def test_prometheus_bad_lines_are_errors_with_their_line_numbers() -> None:
    text = (
        f'{IN_PKTS}{{switch="s",port="p"}} 5 {T0_MS}\n'
        "this is not a sample\n"
        f'{IN_PKTS}{{switch="s",port="p"}}\n'
        f'{IN_PKTS}{{switch="s" port="p"}} 5 {T0_MS}\n'
        f'{IN_PKTS}{{switch="s",port="p\\t"}} 5 {T0_MS}\n'
        f'{IN_PKTS}{{switch="s",switch="t",port="p"}} 5 {T0_MS}\n'
        f'{IN_PKTS}{{port="p"}} 5 {T0_MS}\n'
        f'{IN_PKTS}{{switch="s"}} 5 {T0_MS}\n'
        f'{IN_PKTS}{{switch="s",port="q"}} 1.5 {T0_MS}\n'
        f'{IN_PKTS}{{switch="s",port="q"}} -1 {T0_MS + 1}\n'
        f'{IN_PKTS}{{switch="s",port="q"}} NaN {T0_MS + 2}\n'
        f'{IN_PKTS}{{switch="s",port="q"}} 5 1.5e12\n'
        f'{RX_LANE}{{switch="s",port="q"}} -2 {T0_MS}\n'
        f'{RX_LANE}{{switch="s",port="q",lane="x"}} -2 {T0_MS}\n'
        f'{RX_LANE}{{switch="s",port="q",lane="64"}} -2 {T0_MS}\n'
        f'{RX_LANE}{{switch="s",port="q",lane="0"}} NaN {T0_MS}\n'
        f'{IN_PKTS}{{switch="s",port="p"}} 6 {T0_MS}\n'
        f"9metric 5 {T0_MS}\n"
    )
    parsed = prom(text)
    assert [(e.get("index"), e["line"], e["field"]) for e in parsed.errors] == [
        (None, 2, None),
        (None, 3, None),
        (None, 4, "in_pkts"),
        (None, 5, "in_pkts"),
        (None, 6, "in_pkts"),
        (None, 7, "switch"),
        (None, 8, "port"),
        (1, 9, "in_pkts"),
        (2, 10, "in_pkts"),
        (3, 11, "in_pkts"),
        (None, 12, "time"),
        (1, 13, "input_power_channels_dbm"),
        (1, 14, "input_power_channels_dbm"),
        (1, 15, "input_power_channels_dbm"),
        (1, 16, "input_power_channels_dbm"),
        (0, 17, "in_pkts"),
        (None, 18, None),
    ]
    assert reasons(parsed) == [
        'line 2 is not a Prometheus sample: "this is not a sample"',
        f'line 3 is not a Prometheus sample: "{IN_PKTS}{{switch=\\"s\\"...',
        'in_pkts: the labels {switch="s" port="p"} are malformed',
        'in_pkts: \\t is not an escape of the text format (only \\\\, \\" and \\n)',
        "in_pkts: label switch appears twice",
        "switch: no switch label (one of switch, device, source, target, instance)",
        "port: no port label (one of port, interface_name, interface, ifName, ifDescr, component_name, name)",
        'in_pkts: "1.5" is not an integer',
        'in_pkts: "-1" must be ≥ 0',
        'in_pkts: "NaN" is not an integer',
        'time: timestamp "1.5e12" is not an integer of milliseconds',
        "input_power_channels_dbm: no lane label (one of channel_index, index, lane)",
        'input_power_channels_dbm: lane label lane="x" is not a lane number',
        "input_power_channels_dbm: lane 64 is beyond 63",
        'input_power_channels_dbm: "NaN" is not a number',
        "in_pkts: given twice with different values (5 and 6)",
        'line 18: "9metric" is not a metric name',
    ]
    assert parsed.samples == []  # every key that was named had an error


# -- the production writers (fixtures/lightpath_fixtures/telemetry) ----------------------------------


def test_the_fixture_writers_parse_back_to_the_generated_samples() -> None:
    fixtures = pytest.importorskip("lightpath_fixtures.telemetry")
    from lightpath_fixtures import fat_tree

    telemetry = fixtures.generate_telemetry(fat_tree(4), start=T0, hours=0.5, seed=5, device_thresholds=True)
    samples = [{k: v for k, v in s.items() if v is not None} for s in telemetry]
    assert any("input_power_upper_dbm" in s for s in samples)

    def per_lane(sample: dict[str, Any], keep: tuple[str, ...]) -> dict[str, Any]:
        """What a gNMI or Prometheus body can carry: lanes (the average as the one lane when there are none)."""
        out = {k: v for k, v in sample.items() if k in keep}
        for lanes, average in zip(
            LANE_FIELDS, ("input_power_dbm", "output_power_dbm", "laser_bias_current_ma"), strict=True
        ):
            if lanes in sample:
                out[lanes] = sample[lanes]
            elif average in sample:
                out[lanes] = [sample[average]]
        return out

    def by_end(sample: dict[str, Any]) -> tuple[datetime, str, str]:
        return sample["time"], sample["switch"], sample["port"]

    thresholds = ("input_power_lower_dbm", "input_power_upper_dbm", "output_power_lower_dbm", "output_power_upper_dbm")
    plain = ("time", "switch", "port", "temperature_c", "supply_voltage_v", *COUNTERS, "oper_status")
    expected = {
        "json": samples,
        "csv": samples,
        "openconfig": [per_lane(s, (*plain, *thresholds)) for s in samples],
        "prometheus": [per_lane(s, plain) for s in samples],
    }
    for name in ("json", "csv", "openconfig", "prometheus"):
        body = fixtures.telemetry_text(telemetry, name).encode()
        parsed = ok(fixtures.CONTENT_TYPES[name], body)
        assert sorted(parsed.samples, key=by_end) == sorted(expected[name], key=by_end), name  # gNMI groups by switch
    assert fixtures.CONTENT_TYPES == MEDIA_TYPES
