"""A full trend re-analysis: 100K links x 30 days of hourly optics through the engine (issue #19,
"Cost": under 60 s).

Usage, from the repository root (no database):

    .venv/bin/python backend/scripts/bench_trend.py [--links 100000] [--days 30] [--lanes 1 4] [--json out.json]

Each lane count runs in a child process of its own, so its peak memory is its own. In each:
- the readings are built with numpy, one 6-hour chunk at a time, end after end (each end's hours
  in time order, as `apply_readings` wants them, and as a re-analysis reads them from storage): per lane a level 3-9 dB above the Rx limit, a diurnal
  swing, noise; 1% of the links' side Z receivers fall to reach their limit 1-5 days after the
  range's end (so forecasts have something to say: those links are at risk); Tx,
  bias and temperature alike. The noise comes from a bank drawn once and reused (the engine's work
  does not depend on the values, and drawing 1.7 billion normals would time numpy instead);
- `TelemetryState.apply_readings` takes each chunk (the trends only, as the contract says);
- then `forecasts` for every link, with the catalog's 100G-SR4 limits, horizon 7 days.

Reported: the engine's wall and CPU time (apply_readings + forecasts: the re-analysis; CPU time
is what a 2-core machine shared with other work still measures fairly), the array building
beside it, wall and CPU time of the whole, and the peak resident memory (ru_maxrss) of the process.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from lightpath_engine import TelemetryState

START_US = 1_780_272_000_000_000  # 2026-06-01T00:00:00Z
HOUR_US = 3_600_000_000
CHUNK_HOURS = 6
RX_MIN, TX_MIN = -10.3, -8.4  # 100G-SR4, per lane
FALLING_SHARE = 0.01
HORIZON_S = 7 * 86_400.0


def run(links: int, days: int, lanes: int, seed: int) -> dict[str, Any]:
    wall_began, cpu_began = time.perf_counter(), time.process_time()
    rng = np.random.default_rng(seed)
    ends = 2 * links
    hours = days * 24
    link_ids = np.repeat(np.arange(1, links + 1, dtype="<i8"), 2)
    sides = np.tile(np.array([0, 1], dtype="<u1"), links)
    # End-major inside a chunk (each end's hours in time order, end after end): the order a
    # re-analysis reads from storage, and the engine looks each end up once per run of rows.
    link_column = np.repeat(link_ids, CHUNK_HOURS).tobytes()
    side_column = np.repeat(sides, CHUNK_HOURS).tobytes()
    rx_level = RX_MIN + rng.uniform(3.0, 9.0, (ends, lanes))
    tx_level = TX_MIN + rng.uniform(5.0, 7.0, (ends, lanes))
    bias_level = rng.uniform(6.0, 8.0, (ends, lanes))
    temp_level = rng.uniform(30.0, 50.0, ends)
    phase = rng.uniform(0, 2 * np.pi, ends)
    falling = np.zeros(ends)  # dB per hour
    chosen = np.flatnonzero(rng.random(links) < FALLING_SHARE)
    # Side Z's receiver of the chosen links (lane 0) reaches its limit 1-5 days after the range's end.
    margin = rx_level[2 * chosen + 1, 0] - RX_MIN
    falling[2 * chosen + 1] = margin / (hours + rng.uniform(24.0, 120.0, len(chosen)))
    bank = rng.normal(0.0, 0.1, (CHUNK_HOURS, ends, lanes))
    build_s = apply_s = engine_cpu_s = 0.0
    applied = 0
    state = TelemetryState(900.0, 2700.0, 1, 1e-8, 1e-8)
    for first in range(0, hours, CHUNK_HOURS):
        began = time.perf_counter()
        chunk = np.arange(first, min(first + CHUNK_HOURS, hours))
        count = len(chunk)
        swing = np.sin(2 * np.pi * (chunk[:, None] % 24) / 24.0 + phase[None, :])  # (hours, ends)
        rx = rx_level[None] + 0.2 * swing[:, :, None] - (falling[None, :] * chunk[:, None])[:, :, None]
        rx += bank[:count]
        tx = tx_level[None] - 0.05 * swing[:, :, None] + 0.3 * bank[:count]
        bias = bias_level[None] + 0.1 * bank[:count]
        temperature = temp_level[None] + 2.0 * swing
        times = np.tile(START_US + chunk.astype("<i8") * HOUR_US, ends)

        def end_major(values: np.ndarray) -> bytes:
            return np.ascontiguousarray(values.swapaxes(0, 1), dtype="<f8").tobytes()

        columns = (
            link_column if count == CHUNK_HOURS else np.repeat(link_ids, count).tobytes(),
            side_column if count == CHUNK_HOURS else np.repeat(sides, count).tobytes(),
            times.astype("<i8").tobytes(),
            end_major(rx),
            end_major(tx),
            end_major(bias),
            end_major(temperature),
        )
        built, cpu = time.perf_counter(), time.process_time()
        applied += state.apply_readings(*columns[:3], lanes, *columns[3:])
        apply_s += time.perf_counter() - built
        engine_cpu_s += time.process_time() - cpu
        build_s += built - began
    began, cpu = time.perf_counter(), time.process_time()
    limits = [(RX_MIN, TX_MIN, RX_MIN, TX_MIN)] * links
    now_us = START_US + hours * HOUR_US
    forecasts = state.forecasts(list(range(1, links + 1)), limits, now_us, HORIZON_S, 0.8)
    forecast_s = time.perf_counter() - began
    engine_cpu_s += time.process_time() - cpu
    return {
        "links": links,
        "days": days,
        "lanes": lanes,
        "rows": applied,
        "values": applied * (3 * lanes + 1),
        "falling_links": len(chosen),
        "reported": len(forecasts),
        "at_risk": sum(1 for f in forecasts if f["at_risk"]),
        "engine_s": round(apply_s + forecast_s, 2),
        "engine_cpu_s": round(engine_cpu_s, 2),
        "apply_readings_s": round(apply_s, 2),
        "forecasts_s": round(forecast_s, 2),
        "array_building_s": round(build_s, 2),
        "wall_s": round(time.perf_counter() - wall_began, 2),
        "cpu_s": round(time.process_time() - cpu_began, 2),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--links", type=int, default=100_000)
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--lanes", type=int, nargs="+", default=[1, 4])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, help="write the results here too")
    parser.add_argument("--in-process", action="store_true", help="run here (one lane count), not in a child")
    args = parser.parse_args(argv)
    if args.links < 1 or args.days < 1 or any(lanes < 1 for lanes in args.lanes):
        parser.error("--links, --days and --lanes must be positive")
    results = []
    for lanes in args.lanes:
        if args.in_process:
            result = run(args.links, args.days, lanes, args.seed)
        else:
            child = [
                sys.executable,
                __file__,
                "--in-process",
                "--links",
                str(args.links),
                "--days",
                str(args.days),
                "--lanes",
                str(lanes),
                "--seed",
                str(args.seed),
            ]
            done = subprocess.run(child, check=True, capture_output=True, text=True)  # noqa: S603 (this script)
            result = json.loads(done.stdout)[0]
        results.append(result)
        if not args.in_process:
            print(
                f"{result['links']:,} links x {result['days']} days hourly, {lanes} lane(s): "
                f"{result['rows']:,} rows; engine {result['engine_s']} s, CPU {result['engine_cpu_s']} s (apply_readings {result['apply_readings_s']} s, "
                f"forecasts {result['forecasts_s']} s, {result['reported']} reported, {result['at_risk']} at risk); "
                f"arrays {result['array_building_s']} s; wall {result['wall_s']} s, CPU {result['cpu_s']} s; "
                f"peak RSS {result['peak_rss_mb']} MB"
            )
    if args.in_process:
        print(json.dumps(results))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
