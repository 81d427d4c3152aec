"""CorrOpt fast checker: lightpath_engine against a plain Python + networkx implementation.

Facebook-style fabric as in bench_tor_capacity.py: 261 pods of 48 ToRs and 4 fabric switches, 4 spine
planes of 48 spines (100,224 links), threshold c = 0.75. In pod 0, ToR 0 has two of its 4 up-links
down (already under its threshold: it may lose nothing more) and fabric switch 1 has 13 of its 48
spine links down (its 48 ToRs keep 3*48 + 35 = 179 of 192 paths, need 144), so some decisions are
refusals.

The Python checker is the paper's (CorrOpt section 3.4, reference note section 3.4): up-path counts P
per switch over enabled links, kept up to date; to decide on link v->u, loss[v] = P[u] is pushed down
the cone below v over enabled links, and the link may go iff every ToR t in the cone keeps
P[t] - loss[t] >= floor(t) = min(ceil(c * design(t)), P[t] at the start).

Timed, median of repeated runs:
- one decision (no state change), on links picked at random: Python with its state built once, and
  lightpath_engine.corropt_check(graph, [(link, rate)], states), which also builds the engine's state
  (an O(|E|) path count and the conversion of 100K link states) on every call;
- a batch of 2,000 arriving links decided in decreasing penalty, each disable applied before the
  next decision: per-decision cost on both sides (the engine's state built once per batch), then the
  same for batches of ToR up-links only and of spine links only: each engine decision returns its
  affected ToRs as dicts (48 for a spine link), and building those dominates the engine's time.
Single-decision figures are the median over passes of the mean time per link in the pass.
Both sides must reach the same decisions; the script says so or exits 1.

lightpath_engine.CorrOptSession keeps the engine's state between calls (built once, from link states
as bytes), so its rows are the cost of one decision from Python: session.check(link, rate) with and
without the `affected` dicts, timed call by call (a disable is undone, untimed, so that every link is
decided on the same state), and the batches through session.check_batch and through one
session.check call per arrival.

Run: .venv/bin/python workers/engine/scripts/bench_fast_checker_networkx.py  (about 30 s)
"""

from __future__ import annotations

import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Literal

import networkx as nx
from bench_tor_capacity import PLANES, PODS, SPINES_PER_PLANE, TORS_PER_POD, facebook_arrays

import lightpath_engine
from lightpath_engine import CorrOptSession, FabricGraph, corropt_check

CAPACITY = 0.75
SINGLE_LINKS = 200
SINGLE_RUNS = 5
BATCH = 2000
BATCH_RUNS = 3

LinkState = Literal["enabled", "disabled", "down"]


def required(fraction: float, design: int) -> int:
    x = fraction * design
    nearest = round(x)
    return nearest if abs(x - nearest) <= 1e-9 * max(nearest, 1) else math.ceil(x)


class NetworkxChecker:
    """The fast checker on a networkx DiGraph of enabled links, lower switch -> upper switch."""

    def __init__(self, tiers: list[int], lower: list[int], upper: list[int], states: list[LinkState]) -> None:
        self.tiers, self.lower, self.upper = tiers, lower, upper
        self.top = max(tiers)
        self.graph = nx.DiGraph()
        self.graph.add_nodes_from(range(len(tiers)))
        self.graph.add_edges_from((a, b) for a, b, s in zip(lower, upper, states, strict=True) if s == "enabled")
        self.enabled = [s == "enabled" for s in states]
        design_graph = nx.DiGraph()
        design_graph.add_nodes_from(range(len(tiers)))
        design_graph.add_edges_from(zip(lower, upper, strict=True))
        design = self.counts(design_graph)
        self.paths = self.counts(self.graph)
        self.floor = {t: min(required(CAPACITY, design[t]), self.paths[t]) for t, tier in enumerate(tiers) if tier == 0}

    def counts(self, graph: nx.DiGraph) -> list[int]:
        """Up-paths per switch, top tier down (no parallel links in this fabric)."""
        paths = [1 if tier == self.top else 0 for tier in self.tiers]
        for tier in range(self.top - 1, -1, -1):
            for v in range(len(self.tiers)):
                if self.tiers[v] == tier:
                    paths[v] = sum(paths[u] for u in graph.successors(v))
        return paths

    def loss(self, link: int) -> dict[int, int]:
        """Paths each switch in the down-cone of the link's lower end loses if the link goes."""
        v, u = self.lower[link], self.upper[link]
        loss = {v: self.paths[u]}
        frontier = [v]
        while frontier:
            below = {w for x in frontier for w in self.graph.predecessors(x)}
            for w in below:
                loss[w] = sum(loss.get(x, 0) for x in self.graph.successors(w))
            frontier = list(below)
        return loss

    def can_disable(self, link: int) -> tuple[bool, dict[int, int]]:
        if not self.enabled[link]:
            raise ValueError(f"link {link} is not enabled")
        loss = self.loss(link)
        ok = all(self.paths[t] - lost >= self.floor[t] for t, lost in loss.items() if self.tiers[t] == 0)
        return ok, loss

    def decide(self, link: int) -> bool:
        ok, loss = self.can_disable(link)
        if ok:
            for w, lost in loss.items():
                self.paths[w] -= lost
            self.graph.remove_edge(self.lower[link], self.upper[link])
            self.enabled[link] = False
        return ok


def median_ms(runs: int, fn: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def session_pass(session: CorrOptSession, links: list[int], include_affected: bool) -> list[float]:
    """Seconds of each session.check decision over `links`, all on the same state (disables undone, untimed)."""
    times = []
    for link in links:
        start = time.perf_counter_ns()
        decision = session.check(link, 1e-4, include_affected=include_affected)
        times.append((time.perf_counter_ns() - start) * 1e-9)
        if decision["disabled"]:
            session.set_link_state(link, "enabled")
    return times


def main() -> int:
    tiers, lower, upper = facebook_arrays()
    n = len(lower)
    tors = PODS * TORS_PER_POD
    states: list[LinkState] = ["enabled"] * n
    for plane in (0, 1):  # ToR 0 of pod 0 loses two up-links
        states[plane] = "down"
    first_spine_link = tors * PLANES
    for spine in range(13):  # fabric switch 1 of pod 0 loses 13 of its 48 spine links
        states[first_spine_link + SPINES_PER_PLANE + spine] = "down"

    start = time.perf_counter()
    graph = FabricGraph(3, tiers, lower, upper)
    engine_build_s = time.perf_counter() - start
    start = time.perf_counter()
    python = NetworkxChecker(tiers, lower, upper, states)
    python_build_s = time.perf_counter() - start
    print(f"lightpath_engine {lightpath_engine.__version__}, networkx {nx.__version__}: {graph!r}, c = {CAPACITY}")
    print(f"state build: engine FabricGraph {engine_build_s * 1e3:.1f} ms, networkx graph + path counts "
          f"{python_build_s * 1e3:.0f} ms")  # fmt: skip
    state_bytes = bytes(b"edD"[["enabled", "disabled", "down"].index(s)] for s in states)
    session_build = {}
    for kind, link_states in (("link_states as 100K str", states), ("as bytes", state_bytes)):
        session_build[kind] = median_ms(5, lambda link_states=link_states: CorrOptSession(graph, link_states, CAPACITY))
    session = CorrOptSession(graph, state_bytes, CAPACITY)
    print("CorrOptSession build: " + ", ".join(f"{kind} {ms:.1f} ms" for kind, ms in session_build.items()))

    rng = random.Random(0)  # noqa: S311 (seeded sampling, not cryptography)
    enabled = [link for link in range(n) if states[link] == "enabled"]
    # Every enabled link of pod 0 (ToR up-links and spine links) plus random ones from the whole fabric.
    pod0 = [link for link in enabled if lower[link] < TORS_PER_POD or lower[link] in range(tors, tors + PLANES)]
    single = rng.sample(pod0, SINGLE_LINKS // 2) + rng.sample(enabled, SINGLE_LINKS // 2)
    engine_single = [corropt_check(graph, [(link, 1e-4)], states, capacity=CAPACITY)[0]["disabled"] for link in single]
    python_single = [python.can_disable(link)[0] for link in single]
    session_single = []
    for link in single:
        decision = session.check(link, 1e-4)
        session_single.append(decision["disabled"])
        if decision["disabled"]:
            session.set_link_state(link, "enabled")
    if engine_single != python_single or session_single != python_single:
        print("MISMATCH: single decisions differ", file=sys.stderr)
        return 1
    print(f"single decisions agree on {len(single)} links ({engine_single.count(False)} refused)")

    uplinks = [link for link in single if tiers[lower[link]] == 0]
    spine_links = [link for link in single if tiers[lower[link]] == 1]
    print(f"one decision, median of {SINGLE_RUNS} passes (microseconds per decision):")
    print(f"  {'':52s} {'ToR up-link':>12s} {'spine link':>12s}")
    cases: list[tuple[str, Callable[[int], object]]] = [
        ("networkx (state prebuilt)", lambda link: python.can_disable(link)),
        (
            "engine corropt_check, with link_states",
            lambda link: corropt_check(graph, [(link, 1e-4)], states, capacity=CAPACITY),
        ),
        (
            "engine corropt_check, all enabled (no link_states)",
            lambda link: corropt_check(graph, [(link, 1e-4)], capacity=CAPACITY),
        ),
    ]
    for name, decide in cases:
        cells = []
        for links in (uplinks, spine_links):

            def one_pass(links: list[int] = links, decide: Callable[[int], object] = decide) -> None:
                for link in links:
                    decide(link)

            cells.append(median_ms(SINGLE_RUNS, one_pass) * 1e3 / len(links))
        print(f"  {name:52s} {cells[0]:12.1f} {cells[1]:12.1f}")
    medians = []
    for include_affected in (False, True):
        name = f"engine CorrOptSession.check, include_affected={include_affected}"
        cells = []
        for links in (uplinks, spine_links):
            passes = [session_pass(session, links, include_affected) for _ in range(SINGLE_RUNS)]
            cells.append(statistics.median(statistics.fmean(p) for p in passes) * 1e6)
            medians.append(statistics.median(t for p in passes for t in p) * 1e6)
        print(f"  {name:52s} {cells[0]:12.1f} {cells[1]:12.1f}")
    print(
        "  median single session.check call (issue #3 target < 50 us): "
        f"without affected {medians[0]:.1f} / {medians[1]:.1f} us, "
        f"with affected {medians[2]:.1f} / {medians[3]:.1f} us (ToR up-link / spine link)"
    )
    if session.link_states() != state_bytes:
        print("MISMATCH: the session's state changed", file=sys.stderr)
        return 1

    batch = rng.sample(pod0, len(pod0) // 2) + rng.sample(enabled, BATCH - len(pod0) // 2)
    batch = list(dict.fromkeys(batch))
    arrivals = [(link, 10 ** rng.uniform(-8, -2)) for link in batch]
    ordered = [link for link, _ in sorted(arrivals, key=lambda a: (-a[1], a[0]))]

    def python_batch() -> list[bool]:
        checker = NetworkxChecker.__new__(NetworkxChecker)
        checker.__dict__.update(python.__dict__)
        checker.graph = python.graph.copy()
        checker.paths = list(python.paths)
        checker.enabled = list(python.enabled)
        start = time.perf_counter()
        decisions = [checker.decide(link) for link in ordered]
        python_batch.elapsed = time.perf_counter() - start  # type: ignore[attr-defined]
        return decisions

    python_times, engine_times = [], []
    session_times: dict[str, list[float]] = {"check_batch": [], "check_batch brief": [], "check": []}
    session_decisions: dict[str, list[bool]] = {}
    for _ in range(BATCH_RUNS):
        python_decisions = python_batch()
        python_times.append(python_batch.elapsed)  # type: ignore[attr-defined]
        start = time.perf_counter()
        result = corropt_check(graph, arrivals, states, capacity=CAPACITY)
        engine_times.append(time.perf_counter() - start)
        for include_affected, key in ((True, "check_batch"), (False, "check_batch brief")):
            fresh = CorrOptSession(graph, state_bytes, CAPACITY)
            start = time.perf_counter()
            decisions = fresh.check_batch(arrivals, include_affected=include_affected)
            session_times[key].append(time.perf_counter() - start)
            session_decisions[key] = [d["disabled"] for d in decisions]
        fresh = CorrOptSession(graph, state_bytes, CAPACITY)
        rates = dict(arrivals)
        start = time.perf_counter()
        decisions = [fresh.check(link, rates[link], include_affected=False) for link in ordered]
        session_times["check"].append(time.perf_counter() - start)
        session_decisions["check"] = [d["disabled"] for d in decisions]
    engine_decisions = [d["disabled"] for d in result]
    if [d["link"] for d in result] != ordered or engine_decisions != python_decisions:
        print("MISMATCH: batch decisions differ", file=sys.stderr)
        return 1
    if any(decisions != python_decisions for decisions in session_decisions.values()):
        print("MISMATCH: session batch decisions differ", file=sys.stderr)
        return 1
    print(
        f"batch of {len(ordered)} arrivals in decreasing penalty, median of {BATCH_RUNS} "
        f"({engine_decisions.count(True)} disabled, {engine_decisions.count(False)} refused; decisions agree):"
    )
    per = 1e6 / len(ordered)
    print(f"  networkx, per decision (check + apply)             {statistics.median(python_times) * per:10.1f} us")
    print(
        f"  engine corropt_check, per decision (incl. state)   {statistics.median(engine_times) * per:10.1f} us"
        f"   (whole call {statistics.median(engine_times) * 1e3:.1f} ms)"
    )
    for key, label in (
        ("check_batch", "session.check_batch, per decision"),
        ("check_batch brief", "session.check_batch, no affected"),
        ("check", "session.check per arrival, no affected"),
    ):
        print(f"  engine {label:44s}{statistics.median(session_times[key]) * per:10.1f} us")

    # Where the engine's batch time goes: a spine-link decision reports its 48 ToRs as `affected` dicts.
    print(f"batch of {BATCH} by link kind, all links enabled, no link_states (per decision, median of {BATCH_RUNS}):")
    all_enabled = NetworkxChecker(tiers, lower, upper, ["enabled"] * n)
    for kind, tier in (("ToR up-links", 0), ("spine links", 1)):
        pool = [link for link in range(n) if tiers[lower[link]] == tier]
        arrivals = [(link, 10 ** rng.uniform(-8, -2)) for link in rng.sample(pool, BATCH)]
        ordered = [link for link, _ in sorted(arrivals, key=lambda a: (-a[1], a[0]))]
        python_times, engine_times, session_times_kind = [], [], []
        for _ in range(BATCH_RUNS):
            fresh = CorrOptSession(graph, None, CAPACITY)
            start = time.perf_counter()
            session_result = fresh.check_batch(arrivals)
            session_times_kind.append(time.perf_counter() - start)
            checker = NetworkxChecker.__new__(NetworkxChecker)
            checker.__dict__.update(all_enabled.__dict__)
            checker.graph = all_enabled.graph.copy()
            checker.paths = list(all_enabled.paths)
            checker.enabled = list(all_enabled.enabled)
            start = time.perf_counter()
            python_decisions = [checker.decide(link) for link in ordered]
            python_times.append(time.perf_counter() - start)
            start = time.perf_counter()
            result = corropt_check(graph, arrivals, capacity=CAPACITY)
            engine_times.append(time.perf_counter() - start)
        if [d["disabled"] for d in result] != python_decisions or session_result != result:
            print(f"MISMATCH: {kind} batch decisions differ", file=sys.stderr)
            return 1
        affected = sum(len(d["affected"]) for d in result)
        print(
            f"  {kind:13s} networkx {statistics.median(python_times) * 1e6 / BATCH:7.1f} us   "
            f"engine {statistics.median(engine_times) * 1e6 / BATCH:7.1f} us   "
            f"session.check_batch {statistics.median(session_times_kind) * 1e6 / BATCH:7.1f} us   "
            f"({affected} affected-ToR records returned)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
