"""Exact maximum-weight matching: lightpath_engine against rustworkx on the same instances, plus a one-hour plan.

Instances: complete graphs with integer weights uniform in 1..1e6 (dense), random graphs of average degree 10
(sparse), one run each after a warm-up on a small graph; both answers are checked to weigh the same.
The plan: 320 racks, 3601 one-second windows, every rack with 8 slowly drifting partners (bench matching.rs).

Run: .venv/bin/python workers/engine/scripts/bench_matching.py [--dense 250,500,1000] [--sparse 1000,4000]
rustworkx is optional (pip install rustworkx); without it only our times are printed.
"""

from __future__ import annotations

import argparse
import random
import time

from lightpath_engine import circuit_plan, max_weight_matching

try:
    import rustworkx
except ImportError:  # the comparison is optional
    rustworkx = None


def dense(n: int, seed: int) -> list[tuple[int, int, int]]:
    rng = random.Random(seed)  # noqa: S311 (seeded benchmark data, not cryptography)
    return [(a, b, rng.randint(1, 10**6)) for a in range(n) for b in range(a + 1, n)]


def sparse(n: int, degree: int, seed: int) -> list[tuple[int, int, int]]:
    rng = random.Random(seed)  # noqa: S311 (seeded benchmark data, not cryptography)
    seen: set[tuple[int, int]] = set()
    edges = []
    while len(edges) < n * degree // 2:
        a, b = rng.randrange(n), rng.randrange(n)
        if a != b and (min(a, b), max(a, b)) not in seen:
            seen.add((min(a, b), max(a, b)))
            edges.append((min(a, b), max(a, b), rng.randint(1, 10**6)))
    return edges


def ours(n: int, edges: list[tuple[int, int, int]]) -> tuple[float, int]:
    start = time.perf_counter()
    mate = max_weight_matching(n, edges)
    elapsed = time.perf_counter() - start
    return elapsed, sum(w for a, b, w in edges if mate[a] == b)


def theirs(n: int, edges: list[tuple[int, int, int]]) -> tuple[float, int] | None:
    if rustworkx is None:
        return None
    graph = rustworkx.PyGraph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from(edges)
    start = time.perf_counter()
    matching = rustworkx.max_weight_matching(graph, weight_fn=lambda w: w)
    elapsed = time.perf_counter() - start
    weights = {(a, b): w for a, b, w in edges}
    return elapsed, sum(weights[(min(a, b), max(a, b))] for a, b in matching)


def hour_windows(racks: int, windows: int, seed: int) -> list[list[tuple[int, int, int]]]:
    rng = random.Random(seed)  # noqa: S311 (seeded benchmark data, not cryptography)
    partners = [[rng.randrange(racks) for _ in range(8)] for _ in range(racks)]
    out = []
    for _ in range(windows):
        window = []
        for src, dsts in enumerate(partners):
            for i in range(len(dsts)):
                if rng.random() < 0.05:
                    dsts[i] = rng.randrange(racks)
                if dsts[i] != src:
                    window.append((src, dsts[i], 10_000_000 + rng.randrange(2_000_000_000)))
        out.append(window)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dense", default="250,500,1000")
    parser.add_argument("--sparse", default="1000,2000,4000")
    parser.add_argument("--hour", action=argparse.BooleanOptionalAction, default=True)
    args = parser.parse_args()
    ours(10, dense(10, 0))
    print(f"{'instance':<28}{'lightpath (s)':>14}{'rustworkx (s)':>15}{'speed-up':>10}")
    cases = [(f"dense n={n}", n, dense(n, 7)) for n in map(int, filter(None, args.dense.split(",")))]
    cases += [(f"sparse n={n} deg=10", n, sparse(n, 10, 11)) for n in map(int, filter(None, args.sparse.split(",")))]
    for name, n, edges in cases:
        our_time, our_weight = ours(n, edges)
        other = theirs(n, edges)
        if other is None:
            print(f"{name:<28}{our_time:>14.3f}{'-':>15}{'-':>10}")
            continue
        their_time, their_weight = other
        assert our_weight == their_weight, f"{name}: weights differ ({our_weight} vs {their_weight})"
        print(f"{name:<28}{our_time:>14.3f}{their_time:>15.3f}{their_time / our_time:>9.1f}x")
    if args.hour:
        windows = hour_windows(320, 3601, 5)
        start = time.perf_counter()
        schedule = circuit_plan([1] * 320, windows)
        elapsed = time.perf_counter() - start
        m = schedule["metrics"]
        print(
            f"one-hour plan, 320 racks, {len(schedule['slots'])} slots: {elapsed:.1f} s "
            f"(optical ratio {m['optical_ratio']:.3f}, uniform {m['uniform_ratio']:.4f}, gap {m['gap']:.4f})"
        )


if __name__ == "__main__":
    main()
