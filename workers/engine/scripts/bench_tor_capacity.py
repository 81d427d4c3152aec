"""Times lightpath_engine on a Facebook-style fabric built in Python.

261 pods of 48 ToRs and 4 fabric switches, 4 spine planes of 48 spines
(100,224 links); every 100th link unusable. Prints best and median of 20 runs.

Run: .venv/bin/python workers/engine/scripts/bench_tor_capacity.py
"""

import statistics
import time
from collections.abc import Callable

import lightpath_engine
from lightpath_engine import FabricGraph

PODS, TORS_PER_POD, PLANES, SPINES_PER_PLANE = 261, 48, 4, 48
RUNS = 20


def facebook_arrays() -> tuple[list[int], list[int], list[int]]:
    tors, fabric_switches = PODS * TORS_PER_POD, PODS * PLANES
    switch_tiers = [0] * tors + [1] * fabric_switches + [2] * (PLANES * SPINES_PER_PLANE)
    lower: list[int] = []
    upper: list[int] = []
    for pod in range(PODS):
        for tor in range(TORS_PER_POD):
            for plane in range(PLANES):
                lower.append(pod * TORS_PER_POD + tor)
                upper.append(tors + pod * PLANES + plane)
    for pod in range(PODS):
        for plane in range(PLANES):
            for spine in range(SPINES_PER_PLANE):
                lower.append(tors + pod * PLANES + plane)
                upper.append(tors + fabric_switches + plane * SPINES_PER_PLANE + spine)
    return switch_tiers, lower, upper


def timed_ms(fn: Callable[[], object]) -> tuple[float, float]:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1e3)
    return min(times), statistics.median(times)


def main() -> None:
    switch_tiers, lower, upper = facebook_arrays()
    usable = [link % 100 != 0 for link in range(len(lower))]
    graph = FabricGraph(3, switch_tiers, lower, upper)
    print(f"lightpath_engine {lightpath_engine.__version__}: {graph!r}")
    cases: list[tuple[str, Callable[[], object]]] = [
        ("FabricGraph(...)", lambda: FabricGraph(3, switch_tiers, lower, upper)),
        ("tor_capacity()", lambda: graph.tor_capacity()),
        ("tor_capacity(usable)", lambda: graph.tor_capacity(usable)),
        (
            "FabricGraph(...).tor_capacity(usable)",
            lambda: FabricGraph(3, switch_tiers, lower, upper).tor_capacity(usable),
        ),
    ]
    for name, fn in cases:
        best, median = timed_ms(fn)
        print(f"{name:40s} best {best:7.2f} ms   median {median:7.2f} ms")


if __name__ == "__main__":
    main()
