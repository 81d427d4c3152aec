"""Native engine of Lightpath: path counting, capacity and CorrOpt link
disabling on Clos fabrics."""

from collections.abc import Callable, Mapping, Sequence
from typing import Literal, NotRequired, TypedDict, final, type_check_only

__all__ = [
    "FabricGraph",
    "__version__",
    "corropt_check",
    "corropt_optimize",
    "corropt_simulate",
    "corropt_switch_local",
    "corropt_trace",
]

__version__: str

@final
class FabricGraph:
    """Switch graph of a multi-tier Clos fabric.

    Switch ``s`` is on tier ``switch_tiers[s]`` (0 = ToR, ``num_tiers - 1`` =
    top tier). Link ``i`` joins switch ``link_lower[i]`` to switch
    ``link_upper[i]``, which must be exactly one tier above it. Parallel links
    are distinct links.

    Raises ``ValueError`` naming the offending switch or link when the arrays
    do not describe such a fabric.
    """

    def __new__(
        cls,
        num_tiers: int,
        switch_tiers: Sequence[int],
        link_lower: Sequence[int],
        link_upper: Sequence[int],
    ) -> FabricGraph: ...
    @property
    def num_switches(self) -> int: ...
    @property
    def num_links(self) -> int: ...
    @property
    def num_tiers(self) -> int: ...
    def up_paths(self, usable: Sequence[bool] | None = None) -> list[int]:
        """Per switch, the number of valley-free upward paths to any top-tier
        switch over links whose ``usable`` entry is True (all links if None).

        Top-tier switches count 1. Raises ``ValueError`` if ``usable`` does not
        have one entry per link, ``OverflowError`` if a count exceeds 2**64-1.
        """
    def tor_capacity(self, usable: Sequence[bool] | None = None) -> list[tuple[int, int, int]]:
        """``(switch_index, available, total)`` for every tier-0 switch, in
        index order: available counts up-paths over usable links, total over
        all links. Raises like :meth:`up_paths`.
        """

# Stub-only names: the functions return plain dicts and take plain strings.
LinkStateName = Literal["enabled", "disabled", "down"]
PenaltyName = Literal["linear", "log", "step"]
PolicyName = Literal["corropt", "fast-checker", "switch-local"]

@type_check_only
class TorImpact(TypedDict):
    """How one ToR's up-paths change (or would change) when a link is disabled."""

    tor: int
    paths_before: int
    paths_after: int
    design_paths: int
    required_paths: int
    fraction_before: float
    fraction_after: float
    threshold: float

@type_check_only
class CorrOptRefusal(TypedDict, total=False):
    """Why a link stayed enabled. ``kind`` is ``"tor_capacity"`` (with
    ``tors``, the ToRs that would fall under their threshold) or
    ``"switch_allowance"`` (with ``switch``, ``out_of_service`` and
    ``allowance``)."""

    kind: Literal["tor_capacity", "switch_allowance"]
    tors: list[int]
    switch: int
    out_of_service: int
    allowance: int

@type_check_only
class CorrOptDecision(TypedDict):
    """The outcome for one corrupting link."""

    link: int
    penalty: float
    disabled: bool
    affected: list[TorImpact]
    refusal: CorrOptRefusal | None

@type_check_only
class CorrOptOptimization(TypedDict):
    """The optimizer's answer: ``disable`` these enabled corrupting links."""

    disable: list[int]
    keep_enabled: list[int]
    remaining_penalty: float
    remaining_penalty_lower_bound: float
    proven_optimal: bool
    pruned: int
    segments: int
    largest_segment: int
    nodes: int

def corropt_check(
    graph: FabricGraph,
    corrupting: Sequence[tuple[int, float]],
    link_states: Sequence[LinkStateName] | None = None,
    capacity: float = 0.75,
    overrides: Mapping[int, float] | None = None,
    penalty: PenaltyName = "linear",
) -> list[CorrOptDecision]:
    """CorrOpt fast checker.

    ``corrupting`` lists ``(link, loss_rate)`` pairs (loss rates as fractions);
    every link must be enabled in ``link_states`` (all enabled if None). They
    are considered in decreasing penalty; each is disabled if and only if no
    ToR below it falls under its threshold (``capacity``, or its entry in
    ``overrides`` keyed by ToR switch index). A ToR's threshold requires
    ``ceil(threshold * design_paths)`` up-paths over enabled links.

    Penalty ``I(f)``: ``"linear"`` = f; ``"log"`` = log10(1 + f / 1e-8);
    ``"step"`` = the loss bucket of CorrOpt's Table 3.1 (0 below 1e-8, then
    1, 2, 3, 4 from 1e-8, 1e-5, 1e-4, 1e-3).

    Raises ``ValueError`` naming the bad link, switch or value.
    """

def corropt_switch_local(
    graph: FabricGraph,
    corrupting: Sequence[tuple[int, float]],
    link_states: Sequence[LinkStateName] | None = None,
    capacity: float = 0.75,
    overrides: Mapping[int, float] | None = None,
    penalty: PenaltyName = "linear",
    share: float | None = None,
) -> list[CorrOptDecision]:
    """Switch-local baseline: in decreasing penalty, a link is disabled if its
    lower switch (with m up-links) has fewer than ``floor(m * (1 - share))``
    up-links disabled or down. ``share`` defaults to ``capacity ** (1 / r)``
    for r tiers above the ToR. ToR thresholds are not consulted (``affected``
    shows the damage). Raises like :func:`corropt_check`.
    """

def corropt_optimize(
    graph: FabricGraph,
    corrupting: Sequence[tuple[int, float]],
    link_states: Sequence[LinkStateName] | None = None,
    capacity: float = 0.75,
    overrides: Mapping[int, float] | None = None,
    penalty: PenaltyName = "linear",
    time_budget_s: float | None = None,
) -> CorrOptOptimization:
    """Exact CorrOpt optimizer: the enabled corrupting links to disable so
    that the penalty left enabled is smallest while every ToR keeps its
    threshold (a ToR already under it may lose nothing more). Corrupting links
    that are disabled or down are ignored. With ``time_budget_s`` the best
    answer found is returned when the budget runs out, with
    ``proven_optimal`` False and a valid ``remaining_penalty_lower_bound``.
    Raises like :func:`corropt_check`.
    """

@type_check_only
class SimSeries(TypedDict):
    """Step functions: entry ``i`` holds from ``time_s[i]`` until
    ``time_s[i + 1]`` (the last until the horizon); a new entry is recorded
    only when a value changes."""

    time_s: list[float]
    penalty: list[float]
    active_corrupting: list[int]
    disabled: list[int]
    worst_fraction: list[float]

@type_check_only
class SimCounts(TypedDict):
    """Event counts of one simulation run."""

    onsets: int
    absorbed_onsets: int
    refused_arrivals: int
    disables: int
    repairs: int
    second_rounds: int
    optimizer_runs: int
    optimizer_unproven: int
    threshold_breaches: int

@type_check_only
class SimResult(TypedDict):
    """Outcome of :func:`corropt_simulate`. Integrals are over
    ``[0, horizon_s]``: ``penalty_seconds`` is penalty x seconds,
    ``active_corrupting_seconds`` and ``disabled_seconds`` link x seconds."""

    policy: PolicyName
    share: NotRequired[float]
    horizon_s: float
    series: SimSeries
    penalty_seconds: float
    active_corrupting_seconds: float
    disabled_seconds: float
    lowest_worst_fraction: float
    counts: SimCounts

def corropt_trace(graph: FabricGraph, mttf_hours: float, hours: float, seed: int = 0) -> list[tuple[float, int, float]]:
    """Synthetic corruption onsets ``(time_s, link, loss_rate)``, sorted by
    time: each link starts corrupting as a Poisson process with mean time
    between onsets ``mttf_hours``, over ``hours`` hours. Loss rates: a bucket
    of CorrOpt's Table 3.1 by its share (47.23% in [1e-8, 1e-5), 18.43% in
    [1e-5, 1e-4), 21.66% in [1e-4, 1e-3), 12.67% in [1e-3, 1e-2)), then
    log-uniform within it. Deterministic in ``seed`` (SplitMix64).

    Raises ``ValueError`` unless ``mttf_hours > 0``, ``hours >= 0`` (both
    finite) and ``0 <= seed < 2**64``.
    """

def corropt_simulate(
    graph: FabricGraph,
    trace: Sequence[tuple[float, int, float]],
    policy: PolicyName = "corropt",
    capacity: float = 0.75,
    overrides: Mapping[int, float] | None = None,
    penalty: PenaltyName = "linear",
    share: float | None = None,
    repair_delay_s: float = 172800.0,
    fix_probability: float = 0.8,
    seed: int = 0,
    progress: Callable[[float], object] | None = None,
    horizon_s: float | None = None,
    time_budget_s: float | None = None,
) -> SimResult:
    """Replays ``trace`` (``(time_s, link, loss_rate)`` sorted by time; all
    links start enabled and clean) under a policy and returns the penalty,
    corrupting and disabled link counts and worst ToR fraction over time,
    their integrals and event counts.

    Policies: ``"switch-local"`` (share ``share``, default
    ``capacity ** (1 / r)``), ``"fast-checker"`` (the fast checker on arrival
    and again after every repair), ``"corropt"`` (fast checker on arrival,
    optimizer after every repair; ``time_budget_s`` bounds each optimizer
    run). A disabled link is repaired after ``repair_delay_s`` with
    probability ``fix_probability``, else after twice that; repair coins
    follow ``seed``. Onsets on links already faulty are absorbed. The window
    ends at ``horizon_s`` (default: the last onset).

    ``progress``, if given (``TypeError`` if not callable), is called with the
    simulated fraction (increasing, at most about 100 times, last 1.0); the
    GIL is released in between. An exception it raises is re-raised when the
    run ends, and it is not called again.

    Raises ``ValueError`` for an unknown policy or penalty, ``share`` with a
    policy other than switch-local, thresholds or probabilities outside
    [0, 1], a non-positive repair delay, or a trace onset that is unsorted,
    names an unknown link or has a loss rate outside [0, 1] (the message
    names the onset's index).
    """
