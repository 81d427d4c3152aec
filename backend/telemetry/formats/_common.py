"""What every format shares: the sample's fields, value checks, times, and the result type."""

from __future__ import annotations

import difflib
import gc
import json
import math
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from pydantic_core import from_json

COUNTER_MAX = 2**64 - 1
# A lane index above this is a typo or garbage; without a bound one update could allocate a huge list.
MAX_LANE = 63
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)

# Value kinds. Small ints compared with `is`/`==` in the hot loops.
TIME, NAME, COUNTER, POWER, FLOAT, POWER_LANES, FLOAT_LANES, OPER = range(8)

# OpenConfig's /interfaces/interface/state/oper-status values (lower case) and their IF-MIB
# ifOperStatus numbers, which is also how a sample stores them.
OPER_STATUSES: dict[str, int] = {
    "up": 1,
    "down": 2,
    "testing": 3,
    "unknown": 4,
    "dormant": 5,
    "not_present": 6,
    "lower_layer_down": 7,
}
OPER_STATUS_NAMES: dict[int, str] = {code: name for name, code in OPER_STATUSES.items()}
# Other spellings a device or exporter writes: gNMI's upper case, IF-MIB's camel case.
_OPER_SPELLINGS: dict[str, str] = {
    **{name: name for name in OPER_STATUSES},
    **{name.upper(): name for name in OPER_STATUSES},
    "notPresent": "not_present",
    "lowerLayerDown": "lower_layer_down",
}

KINDS: dict[str, int] = {
    "time": TIME,
    "switch": NAME,
    "port": NAME,
    "input_power_dbm": POWER,
    "output_power_dbm": POWER,
    "input_power_channels_dbm": POWER_LANES,
    "output_power_channels_dbm": POWER_LANES,
    "laser_bias_current_ma": FLOAT,
    "laser_bias_current_channels_ma": FLOAT_LANES,
    "temperature_c": FLOAT,
    "supply_voltage_v": FLOAT,
    "in_pkts": COUNTER,
    "in_fcs_errors": COUNTER,
    "in_discards": COUNTER,
    "out_pkts": COUNTER,
    "out_discards": COUNTER,
    "input_power_lower_dbm": POWER,
    "input_power_upper_dbm": POWER,
    "output_power_lower_dbm": POWER,
    "output_power_upper_dbm": POWER,
    "oper_status": OPER,
}
FIELDS = tuple(KINDS)
REQUIRED = ("time", "switch", "port")
LANE_KINDS = (POWER_LANES, FLOAT_LANES)

# Strings that stand for infinity in a power field (float() would also take "nan", refused separately).
INFINITIES = {
    "-inf": -math.inf,
    "-infinity": -math.inf,
    "inf": math.inf,
    "+inf": math.inf,
    "infinity": math.inf,
    "+infinity": math.inf,
}


class FormatError(ValueError):
    """The whole body is unusable; the message says why (and on which line, when there is one)."""


class Bad(Exception):
    """One value is wrong; `reason` completes the sentence after the field name."""

    def __init__(self, reason: str, field: str | None = None):
        super().__init__(reason)
        self.reason = reason
        self.field = field  # when the problem is not in the field being read (a label, the time)


@dataclass
class Parsed:
    """The samples of one body in canonical form, and every syntax problem found in it.

    `samples` holds only samples that parsed completely; `where[i]` says where `samples[i]` came
    from and always carries its `index` (its position among the body's samples, counting bad ones).
    """

    samples: list[dict[str, Any]] = field(default_factory=list)
    where: list[dict[str, int]] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    skipped: int = 0
    fabric: str | None = None


def load_json(body: bytes) -> Any:
    """JSON with NaN and Infinity allowed (refused per field later), as a FormatError when unusable.

    pydantic-core's parser (a pinned requirement) takes about half the time of the stdlib's here.
    """
    try:
        return from_json(body, allow_inf_nan=True, cache_strings="keys")
    except ValueError as exc:
        try:
            bytes(body).decode("utf-8")
        except UnicodeDecodeError as bad:
            line = bytes(body)[: bad.start].count(b"\n") + 1
            raise FormatError(f"line {line}: the body is not UTF-8 (byte {bad.start})") from None
        raise FormatError(f"not JSON: {exc}") from None


@contextmanager
def collection_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a body becomes a million small containers.

    Every few hundred new dicts and lists trigger a collection that walks all of them again:
    parsing spent more than half its time there. Nothing built here forms cycles.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def show(value: Any) -> str:
    """A value as the user wrote it, JSON-quoted, cut short."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def error(index: int | None, field_name: str | None, reason: str, **where: int) -> dict[str, Any]:
    """An error entry; `index` is left out when the sample is unknown (a line that made no sample)."""
    entry: dict[str, Any] = {} if index is None else {"index": index}
    entry.update(where)
    entry["field"] = field_name
    entry["reason"] = f"{field_name}: {reason}" if field_name else reason
    return entry


def unknown_field_reason(key: str) -> str:
    close = difflib.get_close_matches(key, FIELDS, n=1, cutoff=0.6)
    return "unknown field" + (f" (did you mean {close[0]}?)" if close else "")


def check_name(value: Any) -> str:
    if type(value) is not str or not value:
        raise Bad(f"{show(value)} is not a non-empty string" if value is not None else "missing (required)")
    if "\x00" in value:
        raise Bad("contains a NUL character")
    return value


def to_utc(moment: datetime) -> datetime:
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError("default_time must be timezone-aware")
    return moment.astimezone(UTC)


def parse_time(value: Any) -> datetime:
    """ISO 8601 with an offset or Z, or Unix seconds (a number or a numeric string), as UTC.

    Raises Bad with the reason; the service may use it for `?time=` as well.
    """
    kind = type(value)
    if kind is str:
        text = value.strip()
        if ":" not in text:  # every ISO time with an offset has one; a bare number has none
            try:
                seconds = float(text)
            except ValueError:
                pass
            else:
                return _from_seconds(seconds, value)
        try:
            moment = datetime.fromisoformat(text)
        except ValueError:
            raise Bad(f"{show(value)} is not an ISO 8601 time or Unix seconds") from None
        if moment.tzinfo is None or moment.utcoffset() is None:
            raise Bad(f"{show(value)} has no UTC offset (add Z or +00:00)")
        return moment.astimezone(UTC)
    if kind is int or kind is float:
        return _from_seconds(value, value)
    if value is None:
        raise Bad("missing (required)")
    raise Bad(f"{show(value)} is not an ISO 8601 time or Unix seconds")


def _from_seconds(seconds: float, shown: Any) -> datetime:
    try:
        return datetime.fromtimestamp(seconds, UTC)
    except (ValueError, OverflowError, OSError):
        raise Bad(f"{show(shown)} is not a valid Unix time") from None


def from_epoch(amount: int, unit: str, shown: Any) -> datetime:
    """`amount` nanoseconds or milliseconds since the epoch (sub-microsecond digits are dropped)."""
    try:
        if unit == "ns":
            return EPOCH + timedelta(microseconds=amount // 1000)
        return EPOCH + timedelta(milliseconds=amount)
    except OverflowError:
        raise Bad(f"{show(shown)} is out of the range of dates") from None


def counter_from_int(value: int) -> int:
    if value < 0:
        raise Bad(f"{value} must be ≥ 0")
    if value > COUNTER_MAX:
        raise Bad(f"{value} is above 2^64-1")
    return value


def finite_or_inf(value: float, kind: int, shown: Any) -> float:
    """Refuse NaN always, and infinities outside power fields (a no-light -inf is a power reading)."""
    if value != value:
        raise Bad(f"{show(shown)} is not a number")
    if kind != POWER and kind != POWER_LANES and value in (math.inf, -math.inf):
        raise Bad(f"{show(shown)} is not a finite number")
    return value


def number_from_text(text: str, kind: int) -> int | float:
    """A CSV cell or a label-free text value as the kind wants it (counter: int, else float)."""
    stripped = text.strip()
    if kind == COUNTER:
        if stripped.isascii() and stripped.isdigit():
            return counter_from_int(int(stripped))
        body = stripped[1:] if stripped[:1] in "+-" else stripped
        if body and body.isascii() and body.isdigit():
            return counter_from_int(int(stripped))
        raise Bad(f"{show(text)} is not an integer")
    if "_" in stripped:  # float() would read "1_0" as 10
        raise Bad(f"{show(text)} is not a number")
    try:
        value = float(stripped)
    except ValueError:
        raise Bad(f"{show(text)} is not a number") from None
    return finite_or_inf(value, kind, text)


def float_from_json(value: Any, kind: int) -> float:
    """A JSON value for a float field: a number (not a bool), or an infinity string for powers."""
    vtype = type(value)
    if vtype is float:
        if value - value == 0:
            return value
        return finite_or_inf(value, kind, value)
    if vtype is int:
        try:
            return float(value)
        except OverflowError:
            raise Bad(f"{show(value)} is too large") from None
    if vtype is str and (kind in (POWER, POWER_LANES)):
        infinity = INFINITIES.get(value.strip().lower())
        if infinity is not None:
            return infinity
    raise Bad(f"{show(value)} is not a number")


def counter_from_json(value: Any) -> int:
    if type(value) is int:
        return counter_from_int(value)
    raise Bad(f"{show(value)} is not an integer")


def lanes_from_json(value: Any, kind: int) -> list[float | None]:
    if type(value) is not list:
        raise Bad(f"{show(value)} is not a list (one value per lane)")
    if not value:
        raise Bad("an empty list (leave the field out when not measured)")
    item_kind = POWER if kind == POWER_LANES else FLOAT
    lanes: list[float | None] = []
    for lane, item in enumerate(value):
        if item is None:
            lanes.append(None)
            continue
        try:
            lanes.append(float_from_json(item, item_kind))
        except Bad as bad:
            raise Bad(f"lane {lane}: {bad.reason}") from None
    return lanes


def lanes_from_text(text: str, kind: int) -> list[float | None]:
    item_kind = POWER if kind == POWER_LANES else FLOAT
    lanes: list[float | None] = []
    for lane, item in enumerate(text.split(";")):
        if not item.strip():
            lanes.append(None)
            continue
        try:
            lanes.append(float(number_from_text(item, item_kind)))
        except Bad as bad:
            raise Bad(f"lane {lane}: {bad.reason}") from None
    return lanes


def oper_status(value: Any) -> str:
    """An oper-status as its lower-case OpenConfig name (`UP`, `lowerLayerDown` are taken too)."""
    if type(value) is str:
        name = _OPER_SPELLINGS.get(value) or _OPER_SPELLINGS.get(value.strip())
        if name is None:
            name = _OPER_SPELLINGS.get(value.strip().lower())
        if name is not None:
            return name
    raise Bad(f"{show(value)} is not an oper-status (one of {', '.join(OPER_STATUSES)})")


def oper_status_from_number(text: str) -> str:
    """IF-MIB's ifOperStatus number (1 up ... 7 lowerLayerDown) as the OpenConfig name."""
    try:
        number = float(text)
    except ValueError:
        number = math.nan
    # isfinite first: int() of an infinity raises (a `+Inf` value was a 500, not a 400).
    name = OPER_STATUS_NAMES.get(int(number)) if math.isfinite(number) and number == int(number) else None
    if name is None:
        raise Bad(f"{show(text)} is not an ifOperStatus number (1 up, 2 down, 3 testing, 4 unknown, 5 dormant, "
                  "6 notPresent, 7 lowerLayerDown)")  # fmt: skip
    return name


def strip_transceiver_word(name: str) -> str:
    """`Transceiver eth49` names the optic of port eth49."""
    if name[:12].lower() == "transceiver " and len(name) > 12:
        return name[12:].lstrip()
    return name


class Grouper:
    """Samples built from many single-value updates (gNMI, Prometheus), keyed by (switch, port, time).

    A sample's index is the order in which its key first appears in the body. A field given twice
    for one key must agree. A key with any error still takes its index, but its sample is dropped.
    """

    __slots__ = ("bad", "index_of", "parsed")

    def __init__(self, parsed: Parsed):
        self.parsed = parsed
        self.index_of: dict[tuple[str, str, datetime], int] = {}
        self.bad: set[int] = set()

    def _index(self, key: tuple[str, str, datetime], where: dict[str, int]) -> int:
        index = self.index_of.get(key)
        if index is None:
            index = self.index_of[key] = len(self.parsed.samples)
            self.parsed.samples.append({"time": key[2], "switch": key[0], "port": key[1]})
            self.parsed.where.append({"index": index, **where})
        return index

    def put(
        self, key: tuple[str, str, datetime], field_name: str, value: Any, lane: int | None, where: dict[str, int]
    ) -> None:
        sample = self.parsed.samples[self._index(key, where)]
        if lane is None:
            old = sample.get(field_name)
            if old is None:
                sample[field_name] = value
            elif old != value:
                self.fail(key, field_name, f"given twice with different values ({show(old)} and {show(value)})", where)
            return
        lanes = sample.get(field_name)
        if lanes is None:
            lanes = sample[field_name] = [None] * (lane + 1)
        elif len(lanes) <= lane:
            lanes.extend([None] * (lane + 1 - len(lanes)))
        old = lanes[lane]
        if old is None:
            lanes[lane] = value
        elif old != value:
            self.fail(key, field_name, f"lane {lane} given twice with different values ({old} and {value})", where)

    def fail(
        self, key: tuple[str, str, datetime] | None, field_name: str | None, reason: str, where: dict[str, int]
    ) -> None:
        index = None
        if key is not None:
            index = self._index(key, where)
            self.bad.add(index)
        self.parsed.errors.append(error(index, field_name, reason, **where))

    def finish(self) -> None:
        """Drop the samples that had an error: `samples` holds complete samples only."""
        if self.bad:
            keep = [i for i in range(len(self.parsed.samples)) if i not in self.bad]
            self.parsed.samples = [self.parsed.samples[i] for i in keep]
            self.parsed.where = [self.parsed.where[i] for i in keep]
