"""Prometheus text exposition format 0.0.4 (docs/telemetry.md, "Prometheus text exposition")."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from ._common import (
    COUNTER,
    COUNTER_MAX,
    FLOAT,
    FLOAT_LANES,
    MAX_LANE,
    OPER,
    POWER,
    POWER_LANES,
    Bad,
    Grouper,
    Parsed,
    check_name,
    finite_or_inf,
    from_epoch,
    oper_status_from_number,
    show,
    strip_transceiver_word,
)

METRICS: dict[str, tuple[str, int]] = {
    "interfaces_interface_state_counters_in_pkts": ("in_pkts", COUNTER),
    "ifHCInUcastPkts": ("in_pkts", COUNTER),
    "interfaces_interface_state_counters_in_fcs_errors": ("in_fcs_errors", COUNTER),
    "dot3StatsFCSErrors": ("in_fcs_errors", COUNTER),
    "interfaces_interface_state_counters_in_discards": ("in_discards", COUNTER),
    "ifInDiscards": ("in_discards", COUNTER),
    "interfaces_interface_state_counters_out_pkts": ("out_pkts", COUNTER),
    "ifHCOutUcastPkts": ("out_pkts", COUNTER),
    "interfaces_interface_state_counters_out_discards": ("out_discards", COUNTER),
    "ifOutDiscards": ("out_discards", COUNTER),
    # IF-MIB's ifOperStatus as snmp_exporter exposes it: 1 up, 2 down, ... 7 lowerLayerDown.
    "ifOperStatus": ("oper_status", OPER),
    "components_component_transceiver_physical_channels_channel_state_input_power_instant": (
        "input_power_channels_dbm",
        POWER_LANES,
    ),
    "components_component_transceiver_physical_channels_channel_state_output_power_instant": (
        "output_power_channels_dbm",
        POWER_LANES,
    ),
    "components_component_transceiver_physical_channels_channel_state_laser_bias_current_instant": (
        "laser_bias_current_channels_ma",
        FLOAT_LANES,
    ),
    "components_component_state_temperature_instant": ("temperature_c", FLOAT),
    "components_component_transceiver_state_supply_voltage_instant": ("supply_voltage_v", FLOAT),
}
SWITCH_LABELS = ("switch", "device", "source", "target", "instance")
PORT_LABELS = ("port", "interface_name", "interface", "ifName", "ifDescr", "component_name", "name")
LANE_LABELS = ("channel_index", "index", "lane")

_NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")
_PAIR = r'[ \t]*[a-zA-Z_][a-zA-Z0-9_]*[ \t]*=[ \t]*"(?:[^"\\\n]|\\.)*"[ \t]*'
_LABELS = re.compile(rf"(?:{_PAIR}(?:,{_PAIR})*,?)?[ \t]*")
_LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)[ \t]*=[ \t]*"((?:[^"\\]|\\.)*)"')
_ESCAPE = re.compile(r"\\(.)")
_ESCAPES = {"\\": "\\", '"': '"', "n": "\n"}


def parse_prometheus(text: str, default_time: datetime | None) -> Parsed:
    parsed = Parsed()
    group = Grouper(parsed)
    index_of, samples = group.index_of, parsed.samples
    times: dict[str, datetime] = {}
    # A label block names a switch, a port and maybe a lane; the same block recurs on every
    # metric of that port (and lane), so each distinct block is read once.
    ends: dict[str, tuple[str, str, int | Bad | None] | Bad] = {}
    for number, line in enumerate(text.split("\n"), 1):
        if not line or line[0] == "#":
            continue
        brace = line.find("{")
        if brace >= 0:
            close = line.rfind("}")
            metric = line[:brace].strip()
            labels_text = line[brace + 1 : close] if close > brace else None
            rest = line[close + 1 :].split()
        else:
            rest = line.split()
            if not rest or rest[0][0] == "#":  # blank, or a comment after white space
                continue
            metric = rest[0]
            del rest[0]
            labels_text = ""
        if labels_text is None or not 1 <= len(rest) <= 2:
            group.fail(None, None, f"line {number} is not a Prometheus sample: {show(line.strip())}", {"line": number})
            continue
        target = METRICS.get(metric)
        if target is None:
            if _NAME.fullmatch(metric) is None:
                group.fail(None, None, f"line {number}: {show(metric)} is not a metric name", {"line": number})
            else:
                parsed.skipped += 1
            continue
        field_name, kind = target
        where = {"line": number}
        key = None
        try:
            end = ends.get(labels_text)
            if end is None:
                end = ends[labels_text] = _identify(labels_text)
            if type(end) is Bad:
                raise end
            switch, port, lane = end  # type: ignore[misc]
            if len(rest) == 1:
                if default_time is None:
                    raise Bad("the line has no timestamp and no default time was given (?time=)", "time")
                moment = default_time
            else:
                moment = times.get(rest[1]) or _timestamp(rest[1], times)
            key = (switch, port, moment)
            if kind in (POWER_LANES, FLOAT_LANES):
                if type(lane) is not int:
                    raise lane if type(lane) is Bad else Bad(f"no lane label (one of {', '.join(LANE_LABELS)})")
            else:
                lane = None
            value_text = rest[0]
            if kind == COUNTER and value_text.isdigit() and value_text.isascii() and len(value_text) < 20:
                value: int | float = int(value_text)
            else:
                value = _value(value_text, kind)
        except Bad as bad:
            group.fail(key, bad.field or field_name, bad.reason, where)
            continue
        index = index_of.get(key)
        sample = samples[index] if index is not None else None
        if sample is not None and lane is None and field_name not in sample:
            sample[field_name] = value  # the common case, without a call
        else:
            group.put(key, field_name, value, lane, where)
    group.finish()
    return parsed


def _identify(labels_text: str) -> tuple[str, str, int | Bad | None] | Bad:
    """(switch, port, lane) named by a label block; lane None when absent, a Bad when unreadable."""
    try:
        labels = _labels(labels_text) if labels_text else {}
    except Bad as bad:
        return bad
    return identify(labels)


def identify(labels: Mapping[str, str]) -> tuple[str, str, int | Bad | None] | Bad:
    """(switch, port, lane) named by a series' labels (the text format's or remote write's)."""
    try:
        switch_label, switch = _first(labels, SWITCH_LABELS, "switch")
        if switch_label == "source" or switch_label == "instance":
            switch = _drop_port(switch)
        port = strip_transceiver_word(_first(labels, PORT_LABELS, "port")[1])
        switch, port = check_name(switch), check_name(port)
    except Bad as bad:
        return bad
    lane: int | Bad | None = None
    if any(labels.get(name) for name in LANE_LABELS):
        try:
            lane = _lane(labels)
        except Bad as bad:
            lane = bad
    return switch, port, lane


def _labels(text: str) -> dict[str, str]:
    if _LABELS.fullmatch(text) is None:
        raise Bad(f"the labels {{{text}}} are malformed")
    labels: dict[str, str] = {}
    for name, value in _LABEL.findall(text):
        if name in labels:
            raise Bad(f"label {name} appears twice")
        if "\\" in value:
            value = _ESCAPE.sub(_unescape, value)
        labels[name] = value
    return labels


def _unescape(match: re.Match[str]) -> str:
    replacement = _ESCAPES.get(match.group(1))
    if replacement is None:
        raise Bad(f'\\{match.group(1)} is not an escape of the text format (only \\\\, \\" and \\n)')
    return replacement


def _first(labels: Mapping[str, str], names: tuple[str, ...], what: str) -> tuple[str, str]:
    for name in names:
        value = labels.get(name)
        if value:  # an empty label value is the same as no label
            return name, value
    raise Bad(f"no {what} label (one of {', '.join(names)})", what)


def _drop_port(address: str) -> str:
    """host:port -> host, [v6]:port -> v6; a bare IPv6 address has more than one colon and stays."""
    if address.startswith("["):
        end = address.find("]")
        return address[1:end] if end > 0 else address
    host, colon, port = address.rpartition(":")
    if colon and ":" not in host and port.isdigit():
        return host
    return address


def _timestamp(text: str, times: dict[str, datetime]) -> datetime:
    """Milliseconds since the epoch (the format's timestamps may be negative)."""
    body = text[1:] if text[:1] == "-" else text
    if not (body.isascii() and body.isdigit()):
        raise Bad(f"timestamp {show(text)} is not an integer of milliseconds", "time")
    moment = times[text] = from_epoch(int(text), "ms", text)
    return moment


def _lane(labels: Mapping[str, str]) -> int:
    name, text = _first(labels, LANE_LABELS, "lane")
    if not (text.isascii() and text.isdigit()):
        raise Bad(f"lane label {name}={show(text)} is not a lane number")
    lane = int(text)
    if lane > MAX_LANE:
        raise Bad(f"lane {lane} is beyond {MAX_LANE}")
    return lane


def _value(text: str, kind: int) -> Any:
    if kind == OPER:
        return oper_status_from_number(text)
    if kind == COUNTER and text.isascii() and text.isdigit():
        number = int(text)
        if number > COUNTER_MAX:
            raise Bad(f"{show(text)} is above 2^64-1")
        return number
    try:
        real = float(text)
    except ValueError:
        raise Bad(f"{show(text)} is not a number") from None
    return value_of(real, kind, text)


def value_of(real: float, kind: int, shown: Any) -> Any:
    """A sample value (float64 in both Prometheus formats) as the field's kind wants it."""
    if kind == OPER:
        return oper_status_from_number(repr(real))
    if kind == COUNTER:
        # Prometheus values are float64: exporters write large counters as 1.234567e+09.
        if real != real or real in (float("inf"), float("-inf")) or real != int(real):
            raise Bad(f"{show(shown)} is not an integer")
        number = int(real)
        if number < 0:
            raise Bad(f"{show(shown)} must be ≥ 0")
        if number > COUNTER_MAX:
            raise Bad(f"{show(shown)} is above 2^64-1")
        return number
    if real - real == 0:
        return real
    return finite_or_inf(real, POWER if kind == POWER_LANES else kind, shown)
