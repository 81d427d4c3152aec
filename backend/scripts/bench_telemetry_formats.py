"""Parse speed of the four telemetry ingest formats (samples per CPU second, one core).

Usage: .venv/bin/python backend/scripts/bench_telemetry_formats.py [SAMPLES]

Each body holds SAMPLES samples of 100 switches x N ports at a handful of times: half "full"
samples (5 counters, Rx/Tx averages, 4-lane Rx/Tx/bias lists, temperature, voltage), half counters only,
which is the mix of a DOM poll every 5 minutes and a counter poll every 15.
"""

from __future__ import annotations

import json
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from telemetry.formats import MEDIA_TYPES, parse

COUNTERS = ("in_pkts", "in_fcs_errors", "in_discards", "out_pkts", "out_discards")
T0 = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)


def samples(count: int) -> list[dict]:
    out = []
    for i in range(count):
        moment = T0 + timedelta(minutes=5 * (i // 6400))
        sample = {"time": moment, "switch": f"tor-{i % 100}", "port": f"eth{(i // 100) % 64}"}
        for n, name in enumerate(COUNTERS):
            sample[name] = 10_000_000 * i + n
        if i % 2 == 0:
            sample["input_power_dbm"] = -2.5 - (i % 7) / 10
            sample["output_power_dbm"] = 1.25
            sample["input_power_channels_dbm"] = [-2.1, -2.4, -2.6, -3.0]
            sample["output_power_channels_dbm"] = [1.1, 1.2, 1.3, 1.4]
            sample["laser_bias_current_channels_ma"] = [7.5, 7.6, 7.7, 7.8]
            sample["temperature_c"] = 41.5
            sample["supply_voltage_v"] = 3.29
        out.append(sample)
    return out


def iso(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


def to_json(rows: list[dict]) -> bytes:
    return json.dumps({"fabric": "bench", "samples": [{**s, "time": iso(s["time"])} for s in rows]}).encode()


def to_csv(rows: list[dict]) -> bytes:
    columns = list(dict.fromkeys(k for s in rows[:2] for k in s))
    lines = [",".join(columns)]
    for s in rows:
        cells = []
        for c in columns:
            v = s.get(c)
            if v is None:
                cells.append("")
            elif c == "time":
                cells.append(iso(v))
            elif isinstance(v, list):
                cells.append(";".join(map(str, v)))
            else:
                cells.append(str(v))
        lines.append(",".join(cells))
    return ("\n".join(lines) + "\n").encode()


GNMI = {
    "in_pkts": ("interfaces", "counters", "in-pkts"),
    "in_fcs_errors": ("interfaces", "counters", "in-fcs-errors"),
    "in_discards": ("interfaces", "counters", "in-discards"),
    "out_pkts": ("interfaces", "counters", "out-pkts"),
    "out_discards": ("interfaces", "counters", "out-discards"),
}


def gnmi_path(field: str, port: str, lane: int | None = None) -> dict:
    if field in GNMI:
        elems = [{"name": "interfaces"}, {"name": "interface", "key": {"name": port}}, {"name": "state"}]
        return {"elem": [*elems, {"name": "counters"}, {"name": GNMI[field][2]}]}
    component = [{"name": "components"}, {"name": "component", "key": {"name": f"Transceiver {port}"}}]
    if field == "temperature_c":
        return {"elem": [*component, {"name": "state"}, {"name": "temperature"}, {"name": "instant"}]}
    if field == "supply_voltage_v":
        return {
            "elem": [
                *component,
                {"name": "transceiver"},
                {"name": "state"},
                {"name": "supply-voltage"},
                {"name": "instant"},
            ]
        }
    leaf = {"input_power_channels_dbm": "input-power", "output_power_channels_dbm": "output-power"}.get(
        field, "laser-bias-current"
    )
    channel = [{"name": "transceiver"}, {"name": "physical-channels"}, {"name": "channel", "key": {"index": str(lane)}}]
    return {"elem": [*component, *channel, {"name": "state"}, {"name": leaf}, {"name": "instant"}]}


def to_gnmi(rows: list[dict]) -> bytes:
    out = []
    for s in rows:
        updates = []
        for field, value in s.items():
            if field in ("time", "switch", "port", "input_power_dbm", "output_power_dbm"):
                continue
            if isinstance(value, list):
                for lane, v in enumerate(value):
                    updates.append({"path": gnmi_path(field, s["port"], lane), "val": {"doubleVal": v}})
            elif isinstance(value, int):
                updates.append({"path": gnmi_path(field, s["port"]), "val": {"uintVal": str(value)}})
            else:
                updates.append({"path": gnmi_path(field, s["port"]), "val": {"doubleVal": value}})
        stamp = str(int(s["time"].timestamp()) * 10**9)
        out.append(json.dumps({"timestamp": stamp, "prefix": {"target": s["switch"]}, "update": updates}))
    return ("\n".join(out) + "\n").encode()


PROM = {
    "in_pkts": "interfaces_interface_state_counters_in_pkts",
    "in_fcs_errors": "interfaces_interface_state_counters_in_fcs_errors",
    "in_discards": "interfaces_interface_state_counters_in_discards",
    "out_pkts": "interfaces_interface_state_counters_out_pkts",
    "out_discards": "interfaces_interface_state_counters_out_discards",
    "input_power_channels_dbm": "components_component_transceiver_physical_channels_channel_state_input_power_instant",
    "output_power_channels_dbm": "components_component_transceiver_physical_channels_channel_state_output_power_instant",
    "laser_bias_current_channels_ma": "components_component_transceiver_physical_channels_channel_state_laser_bias_current_instant",
    "temperature_c": "components_component_state_temperature_instant",
    "supply_voltage_v": "components_component_transceiver_state_supply_voltage_instant",
}


def to_prometheus(rows: list[dict]) -> bytes:
    lines = []
    for s in rows:
        ms = int(s["time"].timestamp() * 1000)
        for field, value in s.items():
            metric = PROM.get(field)
            if metric is None:
                continue
            if field in COUNTERS:
                lines.append(f'{metric}{{source="{s["switch"]}:57400",interface_name="{s["port"]}"}} {value} {ms}')
            elif isinstance(value, list):
                for lane, v in enumerate(value):
                    labels = (
                        f'source="{s["switch"]}:57400",component_name="Transceiver {s["port"]}",channel_index="{lane}"'
                    )
                    lines.append(f"{metric}{{{labels}}} {v} {ms}")
            else:
                lines.append(f'{metric}{{source="{s["switch"]}:57400",component_name="{s["port"]}"}} {value} {ms}')
    return ("\n".join(lines) + "\n").encode()


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    rows = samples(count)
    # one gNMI update or Prometheus line per value: the unit those two formats cost by
    values = sum(
        len(v) if isinstance(v, list) else 1 for s in rows for k, v in s.items() if k not in ("time", "switch", "port")
    )
    for name, write in (("json", to_json), ("csv", to_csv), ("openconfig", to_gnmi), ("prometheus", to_prometheus)):
        body = write(rows)
        # CPU time of this process: on a shared machine the wall clock also counts other processes' turns.
        best = float("inf")
        for _ in range(5):
            start = time.process_time()
            parsed = parse(MEDIA_TYPES[name], body)
            best = min(best, time.process_time() - start)
        assert not parsed.errors and len(parsed.samples) == count, (name, parsed.errors[:3], len(parsed.samples))
        print(
            f"{name:11} {count / best:>10,.0f} samples/s {values / best:>11,.0f} values/s"
            f"  ({len(body) / 1e6:.1f} MB, best of 5: {best:.3f} CPU s)"
        )


if __name__ == "__main__":
    main()
