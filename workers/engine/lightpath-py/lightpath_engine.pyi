"""Native engine of Lightpath: path counting, capacity and CorrOpt link
disabling on Clos fabrics."""

from collections.abc import Mapping, Sequence
from typing import Literal, TypedDict, final, type_check_only

__all__ = [
    "FabricGraph",
    "__version__",
    "corropt_check",
    "corropt_optimize",
    "corropt_switch_local",
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
