"""gNMI Notifications in the proto3 JSON mapping (docs/telemetry.md, "gNMI notifications")."""

from __future__ import annotations

import base64
import binascii
import json
from datetime import datetime
from decimal import Decimal
from typing import Any

from pydantic_core import from_json

from ._common import (
    COUNTER,
    FLOAT,
    FLOAT_LANES,
    MAX_LANE,
    OPER,
    POWER,
    POWER_LANES,
    Bad,
    FormatError,
    Grouper,
    Parsed,
    check_name,
    counter_from_int,
    finite_or_inf,
    from_epoch,
    load_json,
    oper_status,
    show,
    strip_transceiver_word,
)

# Elem names of a path (keys aside) -> (field, kind, key of elems[4]). elems[1] is always
# interface[name] or component[name]; elems[4] is channel[index] or threshold[severity] where named.
_CHANNEL = ("components", "component", "transceiver", "physical-channels", "channel", "state")
_XCVR_STATE = ("components", "component", "transceiver", "state")
_THRESHOLD = ("components", "component", "transceiver", "thresholds", "threshold", "state")
_COUNTERS = ("interfaces", "interface", "state", "counters")
PATHS: dict[tuple[str, ...], tuple[str, int, str | None]] = {
    (*_COUNTERS, "in-pkts"): ("in_pkts", COUNTER, None),
    (*_COUNTERS, "in-fcs-errors"): ("in_fcs_errors", COUNTER, None),
    (*_COUNTERS, "in-discards"): ("in_discards", COUNTER, None),
    (*_COUNTERS, "out-pkts"): ("out_pkts", COUNTER, None),
    (*_COUNTERS, "out-discards"): ("out_discards", COUNTER, None),
    ("interfaces", "interface", "state", "oper-status"): ("oper_status", OPER, None),
    (*_CHANNEL, "input-power", "instant"): ("input_power_channels_dbm", POWER_LANES, "index"),
    (*_CHANNEL, "output-power", "instant"): ("output_power_channels_dbm", POWER_LANES, "index"),
    (*_CHANNEL, "laser-bias-current", "instant"): ("laser_bias_current_channels_ma", FLOAT_LANES, "index"),
    # The transceiver-level readings (OpenConfig's totals) give the average fields directly.
    (*_XCVR_STATE, "input-power", "instant"): ("input_power_dbm", POWER, None),
    (*_XCVR_STATE, "output-power", "instant"): ("output_power_dbm", POWER, None),
    (*_XCVR_STATE, "laser-bias-current", "instant"): ("laser_bias_current_ma", FLOAT, None),
    (*_XCVR_STATE, "supply-voltage", "instant"): ("supply_voltage_v", FLOAT, None),
    ("components", "component", "state", "temperature", "instant"): ("temperature_c", FLOAT, None),
    (*_THRESHOLD, "input-power-lower"): ("input_power_lower_dbm", POWER, "severity"),
    (*_THRESHOLD, "input-power-upper"): ("input_power_upper_dbm", POWER, "severity"),
    (*_THRESHOLD, "output-power-lower"): ("output_power_lower_dbm", POWER, "severity"),
    (*_THRESHOLD, "output-power-upper"): ("output_power_upper_dbm", POWER, "severity"),
}


def parse_gnmi(text: str) -> Parsed:
    items = _items(text)
    parsed = Parsed()
    group = Grouper(parsed)
    index_of, samples = group.index_of, parsed.samples
    times: dict[Any, datetime] = {}
    ports: dict[str, str] = {}  # interface or component name -> port, a few hundred names per body
    for position, (item, line) in enumerate(items):
        where = {"notification": position}
        if line is not None:
            where["line"] = line
        if isinstance(item, Bad):
            group.fail(None, None, item.reason, where)
            continue
        notification = _notification(item)
        if notification is None:  # sync_response
            continue
        if isinstance(notification, Bad):
            group.fail(None, None, notification.reason, where)
            continue
        updates = notification.get("update") or ()
        if not updates:
            continue  # a notification of deletes only: nothing we store
        stamp = notification.get("timestamp")
        moment = times.get(stamp) if type(stamp) is int or type(stamp) is str else None
        if moment is None:
            try:
                moment = times[stamp] = _timestamp(stamp)
            except Bad as bad:
                group.fail(None, "timestamp", bad.reason, where)
                continue
        prefix = notification.get("prefix") or {}
        try:
            switch = check_name(prefix.get("target") if type(prefix) is dict else None)
        except Bad as bad:
            group.fail(None, "prefix.target", bad.reason, where)
            continue
        prefix_elems = prefix.get("elem") or []
        if type(updates) is not list or type(prefix_elems) is not list:
            group.fail(None, None, "update and prefix.elem must be lists", where)
            continue
        for update in updates:
            try:
                path_elems = update["path"].get("elem") or []
                elems: list[Any] = prefix_elems + path_elems if prefix_elems else path_elems
                names = tuple([elem["name"] for elem in elems])
            except (TypeError, KeyError, AttributeError):
                group.fail(None, None, f"update {show(update)} has no gNMI Path", where)
                continue
            target = PATHS.get(names)
            if target is None:
                target = _with_modules_dropped(names)
                if target is None:
                    parsed.skipped += 1
                    continue
            field_name, kind, inner = target
            key = None
            try:
                name = _key_of(elems[1], "name")
                port = ports.get(name) if type(name) is str else None
                if port is None:
                    port = ports[name] = _port(elems[1], name)
                key = (switch, port, moment)
                lane = None
                if inner is not None:
                    lane = _inner_key(elems[4], inner)
                    if lane == -1:  # a threshold of another severity
                        parsed.skipped += 1
                        continue
                val = update.get("val")
                if kind == OPER:
                    value: int | float | str = _oper_value(val)
                    index = index_of.get(key)
                    sample = samples[index] if index is not None else None
                    if sample is not None and field_name not in sample:
                        sample[field_name] = value
                    else:
                        group.put(key, field_name, value, None, where)
                    continue
                # Fast paths for what collectors send most: counters as uintVal strings, readings as doubleVal.
                raw = val.get("uintVal") if kind == COUNTER and type(val) is dict else None
                if type(raw) is str and raw.isdigit() and raw.isascii() and len(raw) < 20:
                    value = int(raw)
                else:
                    raw = val.get("doubleVal") if kind != COUNTER and type(val) is dict else None
                    value = raw if type(raw) is float and raw - raw == 0 else _value(val, kind)
            except Bad as bad:
                group.fail(key, field_name, bad.reason, where)
                continue
            index = index_of.get(key)
            sample = samples[index] if index is not None else None
            if sample is not None and lane is None and field_name not in sample:
                sample[field_name] = value  # the common case, without a call
            else:
                group.put(key, field_name, value, lane, where)
    group.finish()
    return parsed


def _items(text: str) -> list[tuple[Any, int | None]]:
    """(notification or SubscribeResponse, its line for newline-delimited JSON); a bad line is a Bad."""
    if text.lstrip()[:1] == "[":
        return [(item, None) for item in load_json(text.encode())]
    items: list[tuple[Any, int | None]] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            items.append((from_json(line, allow_inf_nan=True, cache_strings="keys"), number))
        except ValueError as exc:
            items.append((Bad(f"line {number} is not JSON: {exc}"), number))
    if not items:
        raise FormatError("the body holds no notification")
    return items


def _notification(item: Any) -> dict[str, Any] | Bad | None:
    if type(item) is not dict:
        return Bad(f"{show(item)} is not a Notification or a SubscribeResponse object")
    update = item.get("update")
    if type(update) is dict:  # SubscribeResponse {"update": Notification}
        return update
    if "sync_response" in item and update is None:
        return None
    if update is None and "delete" not in item and "timestamp" not in item:
        return Bad("an object that is neither a Notification nor a SubscribeResponse")
    return item


def _timestamp(stamp: Any) -> datetime:
    if type(stamp) is int:
        nanoseconds = stamp
    elif type(stamp) is str and stamp.isascii() and stamp.isdigit():
        nanoseconds = int(stamp)
    elif stamp is None:
        raise Bad("missing (nanoseconds since the epoch)")
    else:
        raise Bad(f"{show(stamp)} is not nanoseconds since the epoch")
    if nanoseconds < 0:
        raise Bad(f"{show(stamp)} is not nanoseconds since the epoch")
    return from_epoch(nanoseconds, "ns", stamp)


def _with_modules_dropped(names: tuple[str, ...]) -> tuple[str, int, str | None] | None:
    """Elem names may carry their YANG module (openconfig-interfaces:interfaces)."""
    if not any(":" in name for name in names):
        return None
    return PATHS.get(tuple([name.rpartition(":")[2] for name in names]))


def _key_of(elem: dict[str, Any], key: str) -> Any:
    """A key of a path elem, or None when the elem has no such key (reported by the slow path)."""
    keys = elem.get("key")
    return keys.get(key) if type(keys) is dict else None


def _port(elem: dict[str, Any], name: Any) -> str:
    if type(name) is not str or not name:
        raise Bad(f"{elem['name']} has no name key")
    return check_name(strip_transceiver_word(name))


def _inner_key(elem: dict[str, Any], inner: str) -> int | None:
    """The lane of channel[index=N]; for threshold[severity=S] None, or -1 for a severity we do not store."""
    if inner == "severity":
        severity = str(_key_of(elem, "severity") or "").rpartition(":")[2]  # an identityref may carry its module
        return None if severity.upper() == "CRITICAL" else -1
    index = _key_of(elem, "index")
    if type(index) is str and index.isascii() and index.isdigit():
        index = int(index)
    if type(index) is not int:
        raise Bad(f"channel has no numeric index key ({show(index)})")
    if not 0 <= index <= MAX_LANE:
        raise Bad(f"channel index {index} is beyond {MAX_LANE}")
    return index


def _oper_value(val: Any) -> str:
    """An oper-status enumeration: a stringVal (or asciiVal) `UP`, or a jsonVal/jsonIetfVal holding
    the string (RFC 7951 may prefix the module: `openconfig-interfaces:UP`), plain or base64."""
    if type(val) is not dict or not val:
        raise Bad(f"val {show(val)} is not a TypedValue")
    type_name, raw = next(iter(val.items()))
    if type_name in ("jsonVal", "jsonIetfVal") and type(raw) is str and raw.upper() != raw:
        try:  # base64 of JSON text, as proto3 JSON writes bytes
            decoded = json.loads(base64.b64decode(raw, validate=True).decode("utf-8"))
        except (binascii.Error, UnicodeDecodeError, ValueError):
            decoded = raw
        raw = decoded
    elif type_name not in ("stringVal", "asciiVal", "jsonVal", "jsonIetfVal"):
        raise Bad(f'a {type_name} is not an oper-status (a stringVal such as "UP")')
    if type(raw) is str:
        raw = raw.rpartition(":")[2]
    return oper_status(raw)


def _value(val: Any, kind: int) -> int | float:
    """The update's TypedValue as the field's type (counters: int; the rest: float)."""
    if type(val) is not dict or not val:
        raise Bad(f"val {show(val)} is not a TypedValue")
    type_name, raw = next(iter(val.items()))
    number = _number(type_name, raw)
    if kind == COUNTER:
        if type(number) is not int:
            raise Bad(f"{type_name} {show(raw)} is not an integer")
        return counter_from_int(number)
    if type(number) is int:
        return float(number)
    return finite_or_inf(number, POWER if kind in (POWER, POWER_LANES) else FLOAT, raw)


def _number(type_name: str, raw: Any) -> int | float:
    rtype = type(raw)
    if type_name == "uintVal" or type_name == "intVal":
        if rtype is int:
            number = raw
        elif rtype is str and _is_integer_text(raw):
            number = int(raw)
        else:
            raise Bad(f"{type_name} {show(raw)} is not an integer")
        if type_name == "uintVal" and number < 0:
            raise Bad(f"uintVal {show(raw)} is negative")
        return number
    if type_name == "doubleVal" or type_name == "floatVal":
        if rtype is float or rtype is int:
            return float(raw)
        if rtype is str:  # proto3 JSON writes "NaN", "Infinity", "-Infinity", and may quote numbers
            try:
                return float(raw)
            except ValueError:
                pass
        raise Bad(f"{type_name} {show(raw)} is not a number")
    if type_name == "decimalVal":
        return _decimal(raw)
    if type_name == "jsonVal" or type_name == "jsonIetfVal":
        return _json_number(type_name, raw)
    if type_name in ("stringVal", "boolVal", "bytesVal", "asciiVal", "leaflistVal", "anyVal", "protoBytes"):
        raise Bad(f"a {type_name} is not a number value")
    raise Bad(f"unknown value type {show(type_name)}")


def _is_integer_text(text: str) -> bool:
    body = text[1:] if text[:1] == "-" else text
    return body.isascii() and body.isdigit()


def _decimal(raw: Any) -> int | float:
    """Decimal64 {"digits": "-312", "precision": 2}: digits / 10^precision (precision may be omitted: 0)."""
    if type(raw) is not dict:
        raise Bad(f"decimalVal {show(raw)} is not an object with digits and precision")
    digits, precision = raw.get("digits", 0), raw.get("precision", 0)
    if type(digits) is str and _is_integer_text(digits):
        digits = int(digits)
    if type(precision) is str and precision.isascii() and precision.isdigit():
        precision = int(precision)
    if type(digits) is not int or type(precision) is not int or not 0 <= precision <= 18:
        raise Bad(f"decimalVal {show(raw)} needs integer digits and a precision of 0 to 18")
    if precision == 0:
        return digits
    return float(Decimal(digits).scaleb(-precision))


def _json_number(type_name: str, raw: Any) -> int | float:
    """A JSON-encoded number: as a JSON value, or as base64 of JSON text (proto3 JSON writes bytes so).

    RFC 7951 (jsonIetfVal) writes 64-bit integers and decimals as JSON strings, hence the text step.
    """
    if type(raw) is int or type(raw) is float:
        return raw
    if type(raw) is not str:
        raise Bad(f"{type_name} {show(raw)} is not a number")
    number = _number_text(raw)
    if number is not None:
        return number
    try:
        decoded = json.loads(base64.b64decode(raw, validate=True).decode("utf-8"))
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise Bad(f"{type_name} {show(raw)} is neither a number nor base64 of one") from None
    if type(decoded) is int or type(decoded) is float:
        return decoded
    number = _number_text(decoded) if type(decoded) is str else None
    if number is None:
        raise Bad(f"{type_name} {show(raw)} holds {show(decoded)}, not a number")
    return number


def _number_text(text: str) -> int | float | None:
    text = text.strip()
    if _is_integer_text(text):
        return int(text)
    if "_" in text:
        return None
    try:
        return float(text)
    except ValueError:
        return None
