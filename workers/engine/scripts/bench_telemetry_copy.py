"""Time `TelemetryState.apply_copy` (COPY text parsed, then applied) on a fabric's polls.

The derivation reads a run's samples as PostgreSQL COPY text and hands them to the engine; this
measures that engine call alone, without a database, on the 100K-link fabric's 200,448 ends:

    .venv/bin/python workers/engine/scripts/bench_telemetry_copy.py [--links 100224] [--repeat 5]

Poll 1 opens every end's window; polls 2 and 3 complete one in each direction. Each poll is timed
`--repeat` times on a fresh state brought to that poll; the best and median are printed.
"""

from __future__ import annotations

import argparse
import statistics
import time

import lightpath_engine

POLL_US = 900 * 1_000_000
START_US = 1_795_000_000 * 1_000_000


def poll_copy(links: int, poll: int) -> bytes:
    """One poll's samples as `COPY ... TO STDOUT` writes them, sorted by (batch, link, side, time)."""
    t = START_US + poll * POLL_US
    rows = []
    for link in range(1, links + 1):
        for side in ("f", "t"):
            base = (poll + 1) * 1_000_000 + link
            counters = f"{base * 1500}\t{base}\t{poll}\t0\t0"
            readings = "-3.4\t-3.9\t1.2\t0.8\t6.5\t41.5\t3.3"
            rows.append(f"{poll}\t{link}\t{side}\t{t}\t{counters}\t{readings}\tf\tf\t1\n")
    return "".join(rows).encode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--links", type=int, default=100_224)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    polls = [poll_copy(args.links, poll) for poll in range(3)]
    print(f"{2 * args.links} samples per poll, {len(polls[0]) / 1e6:.1f} MB of COPY text")
    for poll in range(3):
        times = []
        for _ in range(args.repeat):
            state = lightpath_engine.TelemetryState(900.0, 1800.0, 1000, 1e-5, 1e-8)
            for earlier in polls[:poll]:
                state.apply_copy(earlier)
            start = time.perf_counter()
            samples, _windows = state.apply_copy(polls[poll])
            times.append(time.perf_counter() - start)
        best, median = min(times), statistics.median(times)
        print(
            f"poll {poll + 1}: best {best * 1e3:.0f} ms, median {median * 1e3:.0f} ms, "
            f"{samples / best / 1e6:.2f} M samples/s (best)"
        )


if __name__ == "__main__":
    main()
