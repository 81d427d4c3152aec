"""The telemetry rules of docs/telemetry.md in plain Python: counter windows to loss rates,
rates to health, power to classes. Derivation applies them through the Rust engine
(services/derivation.py); the tests feed the same sequences to both and compare."""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass, field

from telemetry.services.rules import MAX_GAP_WINDOWS, NO_LIGHT_CEILING_DBM

UNKNOWN, CLEAN, LOSSY, CORRUPTING = "unknown", "clean", "lossy", "corrupting"
_SEVERITY = {UNKNOWN: 0, CLEAN: 1, LOSSY: 2, CORRUPTING: 3}


@dataclass
class WindowSettings:
    window_s: float = 900.0
    min_packets: int = 1000

    @classmethod
    def of(cls, fabric) -> WindowSettings:
        return cls(window_s=float(fabric.telemetry_window_s), min_packets=int(fabric.telemetry_min_packets))


@dataclass
class CounterWindow:
    """Derivation state of one link end: its newest counter sample and its open window's first."""

    last_time: dt.datetime | None = None
    last: dict[str, int] = field(default_factory=dict)
    start_time: dt.datetime | None = None
    start: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class WindowRates:
    """Rates of one completed window at one end: the corruption it received and the
    congestion it sent. None where the window had no usable counters for that rate."""

    time: dt.datetime
    start_time: dt.datetime
    rx_corruption: float | None
    tx_congestion: float | None
    rx_packets: int
    tx_packets: int


def advance(state: CounterWindow, time: dt.datetime, counters: dict[str, int], settings: WindowSettings):
    """Feed one counter sample (newer than the last one) into the end's window.

    Returns the window's rates when this sample completes it, else None. A negative delta
    (wrap or reset) or a gap of more than MAX_GAP_WINDOWS windows restarts the window here.
    Samples at or before the newest seen are ignored (out of order: stored, not derived).
    """
    if state.last_time is not None and time <= state.last_time:
        return None
    previous_time, previous = state.last_time, state.last
    state.last_time, state.last = time, dict(counters)
    if previous_time is None or state.start_time is None:
        state.start_time, state.start = time, dict(counters)
        return None
    gap = (time - previous_time).total_seconds()
    # Against the window's start too: a counter missing from the previous sample may have reset.
    went_back = any(
        counters[key] < reference[key]
        for reference in (previous, state.start)
        for key in counters.keys() & reference.keys()
    )
    if gap > MAX_GAP_WINDOWS * settings.window_s or went_back:
        state.start_time, state.start = time, dict(counters)
        return None
    if (time - state.start_time).total_seconds() < settings.window_s:
        return None
    delta = {key: counters[key] - state.start[key] for key in counters.keys() & state.start.keys()}
    start_time = state.start_time
    state.start_time, state.start = time, dict(counters)
    rx_corruption, rx_packets = _corruption(delta, settings.min_packets)
    tx_congestion, tx_packets = _congestion(delta, settings.min_packets)
    if rx_corruption is None and tx_congestion is None:
        return None
    return WindowRates(time, start_time, rx_corruption, tx_congestion, rx_packets, tx_packets)


def _corruption(delta: dict[str, int], min_packets: int) -> tuple[float | None, int]:
    if "in_pkts" not in delta or "in_fcs_errors" not in delta:
        return None, 0
    frames = delta["in_pkts"] + delta["in_fcs_errors"]
    if frames < max(min_packets, 1):
        return None, frames
    return delta["in_fcs_errors"] / frames, frames


def _congestion(delta: dict[str, int], min_packets: int) -> tuple[float | None, int]:
    if "out_pkts" not in delta or "out_discards" not in delta:
        return None, 0
    sent = delta["out_pkts"]
    if sent < max(min_packets, 1):
        return None, sent
    return delta["out_discards"] / sent, sent


def health_of(rate: float | None, action: float, report: float) -> str:
    if rate is None:
        return UNKNOWN
    if rate >= action:
        return CORRUPTING
    if rate >= report:
        return LOSSY
    return CLEAN


def worse(a: str, b: str) -> str:
    return a if _SEVERITY[a] >= _SEVERITY[b] else b


# --- Optical power -------------------------------------------------------------------------


def is_no_light(value: float) -> bool:
    return value == 0.0 or value <= NO_LIGHT_CEILING_DBM


def mean_dbm(values: list[float]) -> float | None:
    """Average of lane powers, taken in milliwatts (a dBm mean would understate a weak lane)."""
    if not values:
        return None
    return 10.0 * math.log10(sum(10.0 ** (v / 10.0) for v in values) / len(values))


@dataclass(frozen=True)
class Limits:
    lower: float | None
    upper: float | None


def rx_class(value: float | None, no_light: bool, limits: Limits) -> str:
    """Rx below its lower limit is low (strictly, as Algorithm 1 compares Rx < ThreshRx)."""
    if no_light:
        return "low"
    if value is None or (limits.lower is None and limits.upper is None):
        return "unknown"
    if limits.lower is not None and value < limits.lower:
        return "low"
    if limits.upper is not None and value > limits.upper:
        return "high"
    return "ok"


def tx_class(value: float | None, no_light: bool, limits: Limits) -> str:
    """Tx at or below its lower limit is low (Algorithm 1 compares Tx <= ThreshTx)."""
    if no_light:
        return "low"
    if value is None or (limits.lower is None and limits.upper is None):
        return "unknown"
    if limits.lower is not None and value <= limits.lower:
        return "low"
    if limits.upper is not None and value > limits.upper:
        return "high"
    return "ok"
