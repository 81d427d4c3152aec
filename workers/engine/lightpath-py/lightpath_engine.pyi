"""Native engine of Lightpath: path counting, capacity and CorrOpt link
disabling on Clos fabrics."""

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, NotRequired, TypedDict, final, overload, type_check_only

__all__ = [
    "CorrOptSession",
    "FabricGraph",
    "TelemetryState",
    "__version__",
    "circuit_groups",
    "circuit_plan",
    "circuit_slot",
    "circuit_verify",
    "corropt_check",
    "corropt_compare",
    "corropt_optimize",
    "corropt_penalty",
    "corropt_required_paths",
    "corropt_simulate",
    "corropt_switch_local",
    "corropt_trace",
    "larry_check",
    "larry_run",
    "max_weight_matching",
    "rail_classes",
    "rail_fec",
    "rail_plan",
    "rail_standard_catalog",
    "rail_worst_path",
    "rail_xor_residual",
    "read_fabric_document",
    "reconfig_costs",
    "sharebackup_monte_carlo",
    "sharebackup_plan",
    "sharebackup_size",
    "sharebackup_synthetic_log",
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
# A corrupting link: (link, loss_rate) for one direction, or (link, loss_rate_up, loss_rate_down)
# per direction (None = 0). Its penalty is I(loss_rate_up) + I(loss_rate_down).
CorruptingLink = tuple[int, float] | tuple[int, float | None, float | None]

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
    corrupting: Sequence[CorruptingLink],
    link_states: LinkStates | None = None,
    capacity: float = 0.75,
    overrides: Mapping[int, float] | None = None,
    penalty: PenaltyName = "linear",
) -> list[CorrOptDecision]:
    """CorrOpt fast checker.

    ``link_states``: None (all enabled), a sequence of ``"enabled"``,
    ``"disabled"``, ``"down"``, or ``bytes`` with one byte per link as
    :meth:`CorrOptSession.link_states` returns (``b"e"``/0, ``b"d"``/1,
    ``b"D"``/2), which skips converting a string per link.

    ``corrupting`` lists ``(link, loss_rate)`` pairs (loss rates as fractions)
    or ``(link, loss_rate_up, loss_rate_down)`` triples, one rate per
    direction (up = from the link's lower to its upper switch; ``None`` or 0 =
    clean); a link's penalty is ``I(up) + I(down)``, not ``I(up + down)``.
    Every link must be enabled in ``link_states`` (all enabled if None). They
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
    corrupting: Sequence[CorruptingLink],
    link_states: LinkStates | None = None,
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
    corrupting: Sequence[CorruptingLink],
    link_states: LinkStates | None = None,
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

def corropt_penalty(name: PenaltyName, loss_rate: float, loss_rate_down: float = 0.0) -> float:
    """Penalty ``I(loss_rate) + I(loss_rate_down)`` of a link exactly as the
    deciders compute it (the ``penalty`` of a decision): ``"linear"`` = f,
    ``"log"`` = log10(1 + f / 1e-8), ``"step"`` = the Table 3.1 bucket, 0 to
    4; ``I(0) = 0``.

    Raises ``ValueError`` for an unknown name or a loss rate outside [0, 1].
    """

def corropt_required_paths(capacity: float, design_paths: int) -> int:
    """Up-paths a ToR with ``design_paths`` up-paths must keep at threshold
    ``capacity``: ``ceil(capacity * design_paths)``, a product within a
    relative 1e-9 of a whole number taken as that number (0.7 of 10 is 7).
    The ``required_paths`` of an ``affected`` entry.

    Raises ``ValueError`` unless ``0 <= capacity <= 1`` and
    ``0 <= design_paths < 2**64``.
    """

@type_check_only
class CorrOptBriefDecision(TypedDict):
    """A decision of :class:`CorrOptSession` with ``include_affected=False``:
    :class:`CorrOptDecision` without ``affected``."""

    link: int
    penalty: float
    disabled: bool
    refusal: CorrOptRefusal | None

LinkStates = bytes | bytearray | Sequence[LinkStateName]

@type_check_only
class GuardVerdict(TypedDict):
    """:meth:`CorrOptSession.evaluate`: ``affected`` ToRs (ascending) and
    the ``blocking`` ones (empty when ``safe``)."""

    safe: bool
    affected: list[TorImpact]
    blocking: list[int]

@type_check_only
class UnreachableTor(TypedDict):
    """A ToR no restoration brings to its ``floor``: ``paths_best`` is what it
    has with the footprint down and every candidate enabled."""

    tor: int
    paths_before: int
    paths_best: int
    floor: int
    required_paths: int
    design_paths: int

@type_check_only
class Restoration(TypedDict):
    """:meth:`CorrOptSession.restore`: ``enable`` these candidates (ascending)."""

    enable: list[int]
    added_penalty: float
    added_penalty_lower_bound: float
    proven_optimal: bool
    restores_all: bool
    unreachable: list[UnreachableTor]
    nodes: int

RestoreMode = Literal["restore", "recover"]

@final
class CorrOptSession:
    """CorrOpt state of one fabric kept between calls.

    The ``corropt_*`` functions rebuild the engine's state (a full up-path
    count and the conversion of every link state) on each call; a session
    builds it once, so one fast-checker decision costs microseconds. Decisions
    that disable a link, :meth:`set_link_state` and ``optimize(apply=True)``
    change the session's state; nothing else does. Its decisions equal
    :func:`corropt_check`'s on the same state.

    ``link_states``: None (all enabled), a sequence of ``"enabled"``,
    ``"disabled"``, ``"down"``, or ``bytes`` / ``bytearray`` with one byte per
    link: ``b"e"`` or ``0`` enabled, ``b"d"`` or ``1`` disabled, ``b"D"`` or
    ``2`` down (the fast way to build a session on a large fabric).
    ``capacity``, ``overrides`` and ``penalty`` as for :func:`corropt_check`.

    The session keeps the graph alive. The GIL is released while the engine
    works; a session is not for concurrent use (a call made while another
    runs raises ``RuntimeError``). Raises ``ValueError`` naming the bad link,
    switch or value, ``TypeError`` if ``link_states`` is a ``str``.
    """

    def __new__(
        cls,
        graph: FabricGraph,
        link_states: LinkStates | None = None,
        capacity: float = 0.75,
        overrides: Mapping[int, float] | None = None,
        penalty: PenaltyName = "linear",
    ) -> CorrOptSession: ...
    @property
    def graph(self) -> FabricGraph: ...
    @property
    def capacity(self) -> float: ...
    @property
    def penalty(self) -> PenaltyName: ...
    @overload
    def check(
        self, link: int, loss_rate: float, include_affected: Literal[True] = True, loss_rate_down: float = 0.0
    ) -> CorrOptDecision:
        """Fast checker for one newly corrupting link (must be enabled):
        disables it in the session if and only if no ToR below it falls
        under its threshold. Returns one decision as :func:`corropt_check`
        does; without ``affected`` if ``include_affected`` is False (cheaper:
        a spine link affects 48 ToRs). ``loss_rate_down``: the other
        direction's rate (penalty ``I(loss_rate) + I(loss_rate_down)``).
        Raises ``ValueError`` for an unknown or not enabled link or a loss
        rate outside [0, 1].
        """
    @overload
    def check(
        self, link: int, loss_rate: float, include_affected: Literal[False], loss_rate_down: float = 0.0
    ) -> CorrOptBriefDecision: ...
    @overload
    def check(
        self, link: int, loss_rate: float, include_affected: bool, loss_rate_down: float = 0.0
    ) -> CorrOptDecision | CorrOptBriefDecision: ...
    @overload
    def check_batch(
        self, corrupting: Sequence[CorruptingLink], include_affected: Literal[True] = True
    ) -> list[CorrOptDecision]:
        """:func:`corropt_check` on the session's state: ``(link,
        loss_rate)`` pairs or ``(link, up, down)`` triples in decreasing penalty (ties by link index), each
        disable applied before the next decision; without ``affected`` if
        ``include_affected`` is False. Invalid input (unknown, duplicate or
        not enabled link, bad loss rate) raises ``ValueError`` before
        anything changes.
        """
    @overload
    def check_batch(
        self, corrupting: Sequence[CorruptingLink], include_affected: Literal[False]
    ) -> list[CorrOptBriefDecision]: ...
    @overload
    def check_batch(
        self, corrupting: Sequence[CorruptingLink], include_affected: bool
    ) -> list[CorrOptDecision] | list[CorrOptBriefDecision]: ...
    def optimize(
        self,
        corrupting: Sequence[CorruptingLink],
        time_budget_s: float | None = None,
        apply: bool = False,
    ) -> CorrOptOptimization:
        """:func:`corropt_optimize` on the session's state. The state is
        unchanged unless ``apply``, which disables the links in ``disable``.
        """
    def restore(
        self,
        candidates: Sequence[CorruptingLink],
        footprint: Sequence[int] = (),
        mode: RestoreMode = "restore",
        time_budget_s: float | None = None,
    ) -> Restoration:
        """The capacity restoration; the session is unchanged.

        ``"restore"``: the candidates (links disabled for corruption, as for
        :meth:`check_batch`) to enable, at the least added penalty, so that
        taking ``footprint`` out of service leaves every ToR at or above the
        guard's floor (``min(required, paths now)``): the footprint and
        ``enable`` applied together pass :meth:`evaluate`. When none exists,
        ``enable`` is empty and ``unreachable`` names the ToRs no choice
        saves. ``"recover"`` (no footprint): every ToR back at its
        requirement; ToRs that even every candidate cannot bring back are in
        ``unreachable`` and ``enable`` brings back every other one (nothing is
        spent on raising those part of the way). Candidates not disabled, or
        in the footprint, are ignored. ``time_budget_s``: as
        :meth:`optimize`'s (``proven_optimal``, a lower bound). Raises
        ``ValueError`` for unknown or repeated links, a bad loss rate or mode,
        or a footprint with ``"recover"``.
        """
    def evaluate(self, changes: Sequence[tuple[int, LinkStateName]]) -> GuardVerdict:
        """The capacity guard: what setting every ``(link, state)`` at once
        would do, decided as one set; the session is unchanged. A ToR blocks
        the set when it would end under its floor (its required paths, or
        what it has if already under). Raises ``ValueError`` for an unknown
        or repeated link or an unknown state name."""
    def tor_paths(self) -> list[tuple[int, int, int, int]]:
        """``(tor, available, design, required)`` up-paths of every ToR, in
        switch order."""
    def set_link_state(self, link: int, state: LinkStateName) -> list[int]:
        """Sets one link's state unconditionally (repair, failure, operator)
        and returns the ToRs whose capacity changed."""
    def link_state(self, link: int) -> LinkStateName:
        """The link's current state."""
    def link_states(self) -> bytes:
        """Every link's state, one byte per link: ``b"e"``, ``b"d"`` or
        ``b"D"`` (accepted back as ``link_states``)."""
    def capacity_fraction(self, tor: int) -> float:
        """Current up-paths of ``tor`` over enabled links divided by its
        design up-paths (1.0 if it has none). Any switch index is accepted."""
    def worst_tor(self) -> tuple[int, float] | None:
        """``(tor, fraction)`` of the ToR with the smallest capacity fraction
        (lowest index on ties); None if the fabric has no ToRs."""
    def tors_below_threshold(self) -> list[int]:
        """ToRs now below their required up-paths, ascending."""

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
    link_states: LinkStates | None = None,
) -> SimResult:
    """Replays ``trace`` (``(time_s, link, loss_rate)`` sorted by time) from
    ``link_states`` (None: every link enabled; else names or bytes as for
    :class:`CorrOptSession`) under a policy and returns the penalty,
    corrupting and disabled link counts and worst ToR fraction over time,
    their integrals and event counts.

    Policies: ``"switch-local"`` (share ``share``, default
    ``capacity ** (1 / r)``), ``"fast-checker"`` (the fast checker on arrival
    and again after every repair), ``"corropt"`` (fast checker on arrival,
    optimizer after every repair; ``time_budget_s`` bounds each optimizer
    run). A disabled link is repaired after ``repair_delay_s`` with
    probability ``fix_probability``, else after twice that; repair coins
    follow ``seed``. A link disabled at the start awaits repair from time 0;
    a link down at the start stays down. Onsets on links already faulty (or
    not enabled) are absorbed. The window ends at ``horizon_s`` (default: the
    last onset).

    ``progress``, if given (``TypeError`` if not callable), is called with the
    simulated fraction (non-decreasing, last 1.0) at each hundredth of the
    window and at least every 1,024 event instants; the GIL is released in
    between. An exception it raises stops the run at once and is raised (how
    a cancelled job stops mid-run).

    Raises ``ValueError`` for an unknown policy or penalty, ``share`` with a
    policy other than switch-local, thresholds or probabilities outside
    [0, 1], a non-positive repair delay, or a trace onset that is unsorted,
    names an unknown link or has a loss rate outside [0, 1] (the message
    names the onset's index).
    """

@type_check_only
class PolicyComparison(TypedDict):
    """Outcome of :func:`corropt_compare`: one :class:`SimResult` per policy asked for, in that order,
    and each one's ``penalty_seconds`` divided by CorrOpt's (1.0 when both are 0, ``inf`` when only
    CorrOpt's is)."""

    results: list[SimResult]
    corropt_penalty_seconds: float
    penalty_ratio: list[float]

def corropt_compare(
    graph: FabricGraph,
    trace: Sequence[tuple[float, int, float]],
    policies: Sequence[PolicyName] = ("corropt", "fast-checker", "switch-local"),
    capacity: float = 0.75,
    overrides: Mapping[int, float] | None = None,
    penalty: PenaltyName = "linear",
    share: float | None = None,
    repair_delay_s: float = 172800.0,
    fix_probability: float = 0.8,
    seed: int = 0,
    progress: Callable[[PolicyName, float], object] | None = None,
    horizon_s: float | None = None,
    time_budget_s: float | None = None,
    link_states: LinkStates | None = None,
) -> PolicyComparison:
    """:func:`corropt_simulate` of each of ``policies`` on one trace, in one call (the GIL released
    throughout), with the penalty ratio of each to CorrOpt. If ``"corropt"`` is not among
    ``policies`` it runs once more as the reference (its result is not listed). ``share`` applies to
    switch-local, ``time_budget_s`` to CorrOpt's optimizer; the other arguments as for
    :func:`corropt_simulate`. ``progress(policy, fraction)`` reports each run in turn (the extra
    reference run as ``"corropt"``); an exception it raises stops the comparison at once.

    Raises ``ValueError`` as :func:`corropt_simulate` does, and for an empty or repeated policy list
    or a ``share`` without switch-local.
    """

@type_check_only
class FabricDocument(TypedDict):
    """What :func:`read_fabric_document` returns. Switch ``i`` is ``switches[i]`` of the document, link
    ``j`` is ``links[j]`` (then the rows of ``links_csv``)."""

    graph: FabricGraph
    name: str | None
    tiers: list[str]
    switch_names: list[str]
    switch_tiers: list[int]
    link_lower: list[int]
    link_upper: list[int]
    link_names: list[str]
    link_ids: dict[str, int]
    link_states: list[LinkStateName]
    capacity: float
    overrides: dict[int, float]

def read_fabric_document(doc: Mapping[str, object]) -> FabricDocument:
    """Reads a ``"lightpath-fabric/1"`` interchange document (a dict as ``json.load`` gives it) into the
    engine's :class:`FabricGraph` (``graph``) and what callers need around it: switch and link names
    (``a:a_port-b:b_port`` as written; ``link_ids`` maps both orders to the index), per-link states
    (``"disabled"`` if ``admin_state`` is disabled, else ``"down"`` if ``oper_state`` is down, else
    ``"enabled"``), the fabric's ``capacity_constraint`` (default 0.75) and the ToRs' own
    ``capacity_constraint`` as ``overrides`` keyed by switch index. The arrays are the ones the graph
    was built from; each link's lower end is the switch on the lower tier.

    Checks what shapes the graph, as the backend's import does: unique tier and switch names, tiers in
    range, links between known switches on adjacent tiers, each port used once, states and fractions
    from their allowed values. Other fields are not read. Raises ``ValueError`` naming the path of
    the first problem, e.g. ``links[3].a: unknown switch 'x'``.
    """

# --- Maintenance planner -----------------------------------------------------------------

@type_check_only
class PlanRestoration(TypedDict):
    """Links now disabled for corruption, enabled while a repair lasts, and their penalty per hour."""

    links: list[int]
    penalty_rate: float

@type_check_only
class PlanWorkOrder(TypedDict):
    """One open work order for :func:`maintenance_plan`."""

    id: int
    footprint: list[int]
    duration_s: int
    success_probability: float
    rack: int
    row: int
    penalty_rate: float
    restoration: NotRequired[PlanRestoration | None]

@type_check_only
class PlanVisit(TypedDict):
    technician: int
    work_order: int
    start_s: int
    end_s: int
    links_down: list[int]
    restored: list[int]

@type_check_only
class PlanLeftForLater(TypedDict):
    """Why an unscheduled order waits: ``reason`` is ``longer_than_shift``, ``never_safe``,
    ``restoration_dearer``, ``no_penalty`` or ``no_room``; ``detail`` one sentence saying it."""

    work_order: int
    reason: str
    detail: str

@type_check_only
class MaintenancePlan(TypedDict):
    """:func:`maintenance_plan`'s answer; penalty-hours are expected values."""

    visits: list[PlanVisit]
    unscheduled: list[int]
    left_for_later: list[PlanLeftForLater]
    expected_penalty_hours: float
    fifo_penalty_hours: float
    lower_bound: float
    gap: float
    proven_optimal: bool

def maintenance_row(rack: str, pod: int | None = None) -> str:
    """The row a rack stands in: ``pod N`` when its switch has a pod, else the rack name before its
    last ``-`` (``p1-rack5`` in row ``p1``), else the rack. The one row rule of the backend and the CLI."""

def maintenance_plan(
    session: CorrOptSession,
    work_orders: Sequence[PlanWorkOrder],
    technicians: int,
    shift_s: int,
    *,
    travel: tuple[int, int, int] | None = None,
    service_time_s: int | None = None,
    exact_up_to: int | None = None,
    time_budget_s: float | None = None,
    seed: int | None = None,
) -> MaintenancePlan:
    """The maintenance planner (lightpath_core::maintenance) on the session's state, which is left
    as it was: visits per technician (in time order) such that no instant puts a ToR under its floor,
    ``min(required, paths now)``, with the footprints and used restorations of the visits then in
    progress evaluated as one set, minimising expected penalty-hours (an order visited ending at ``e``
    costs ``penalty_rate * (e + (1 - p) * service time)``, one left unscheduled ``penalty_rate *
    (shift + service time)``, restorations add their rate over the visit). ``travel`` is
    ``(same_rack_s, same_row_s, elsewhere_s)`` (none by default); ``service_time_s`` defaults to two
    days, ``exact_up_to`` to 10 orders (branch and bound, ``proven_optimal``; beyond: a heuristic
    with ``lower_bound`` and ``gap``), ``time_budget_s`` to 3 s. ``fifo_penalty_hours``: first in
    first out (ascending id) on the same input. Raises ``ValueError`` naming the work order for a
    missing or mistyped field, a duplicate id, an unknown or repeated link, an empty footprint, a
    zero duration, a number out of range, a restoration link not disabled, or no technicians.
    """

# --- Telemetry derivation ---------------------------------------------------------------

# Five counter columns (in_pkts, in_fcs_errors, in_discards, out_pkts, out_discards); seven
# reading columns (see TelemetryState). Another number of columns raises ValueError.
_Counters = Sequence[Sequence[int | None]]
_Readings = Sequence[Sequence[float | None]]

@type_check_only
class Forecast(TypedDict):
    """A link's forecast: its worst lane. ``side``: the end whose reading crosses (False = A);
    ``cause_side``: the end to act on (None: the cable)."""

    link: int
    at_risk: bool
    crossing_us: int
    earliest_us: int
    latest_us: int | None
    confidence: float
    cause: Literal["decaying_transmitter", "contamination", "bent_fiber", "loose_transceiver", "unknown"]
    side: bool
    quantity: Literal["rx", "tx"]
    lane: int
    level_dbm: float
    slope_db_per_day: float
    limit_dbm: float
    cause_side: bool | None

@type_check_only
class TrendLane(TypedDict):
    """One lane's window: buckets (end µs, trimmed mean or None), slope per day with its 10th and
    90th percentile, level at the newest bucket's end, noise, newest step (end µs, size)."""

    buckets: list[tuple[int, float | None]]
    slope_per_day: float | None
    slope_low: float | None
    slope_high: float | None
    level: float | None
    noise: float | None
    step: tuple[int, float] | None
    dark: bool

@type_check_only
class EndTrendSeries(TypedDict):
    rx: list[TrendLane]
    tx: list[TrendLane]
    bias: list[TrendLane]
    temperature: list[TrendLane]

@final
class TelemetryState:
    """One fabric's telemetry derivation state: counter windows, direction health, open
    corruption episodes and newest optical readings (docs/telemetry.md, "What is derived").

    Times are microseconds since the epoch; a side is False for A and True for Z; a direction
    False for a_to_z and True for z_to_a. Counters are Counter64 values (None: not polled).
    ``readings`` are input power, its lowest lane, output power, its lowest lane, laser bias,
    temperature and supply voltage; ``no_light`` is (Rx, Tx). A gap over ``max_gap_s`` between two
    polls restarts the window. Columns of unequal length raise ``ValueError``.
    """

    def __new__(
        cls,
        window_s: float,
        max_gap_s: float,
        min_packets: int,
        action: float,
        report: float,
        *,
        dark_end_is_down: bool = True,
        flap_changes: int = 4,
        flap_window_s: float = 3600.0,
        trends: bool = True,
        trend_bucket_s: float = 21600.0,
        trend_buckets: int = 16,
    ) -> TelemetryState:
        """``dark_end_is_down``: an end dark on every lane for two polls counts as down;
        a link changing state more than ``flap_changes`` times within ``flap_window_s`` flaps.
        ``trends``: keep the optical trends (False: none at all) in buckets of
        ``trend_bucket_s`` (it must divide a day), a window of ``trend_buckets`` closed buckets
        (long enough for six pairs a whole number of days apart). Bad values raise ``ValueError``."""
    @property
    def num_ends(self) -> int: ...
    def load_ends(
        self,
        link: Sequence[int],
        side: Sequence[bool],
        last_time: Sequence[int | None],
        last: _Counters,
        start_time: Sequence[int | None],
        start: _Counters,
        optical_time: Sequence[int | None],
        readings: _Readings,
        no_light: Sequence[Sequence[bool]],
    ) -> None:
        """Load stored end states (the checkpoint)."""
    def load_directions(
        self,
        link: Sequence[int],
        direction: Sequence[bool],
        health: Sequence[str],
        health_since: Sequence[int | None],
        corruption: Sequence[tuple[float, int] | None],
        congestion: Sequence[tuple[float, int] | None],
        open: Sequence[tuple[float, int, float, float, int] | None],
    ) -> None:
        """Load stored direction states; ``open``: (rate, first_seen, last_rate, peak_rate, last_seen)."""
    def retain_links(self, links: Sequence[int]) -> int:
        """Drop the ends and directions of links not in ``links`` (deleted since); returns how many
        entries went."""
    def set_open_episodes(
        self, link: Sequence[int], direction: Sequence[bool], open: Sequence[tuple[float, int, float, float, int]]
    ) -> None:
        """Make these (rate, first_seen, last_rate, peak_rate, last_seen) the open episodes of the
        directions held, and end any other held open: the stored open events win."""
    def apply_copy(self, data: bytes) -> tuple[int, int]:
        """Apply samples given as PostgreSQL COPY text, one line per sample sorted by (batch, link,
        side, time): batch, link, side (``t`` = Z), time (µs), the five counters, the seven readings,
        Rx no light, Tx no light, oper-status (IF-MIB code 1 to 7), then the lanes of input power,
        output power and laser bias as PostgreSQL arrays (``{-2.1,NULL,-2.2}``; the three may be
        left off) (``\\N`` for none). Every sample's optical readings feed the trends in time order
        per end (a sample at or before the end's newest trend time is ignored). Returns
        (samples, completed windows). Raises
        ``ValueError`` on a malformed line or samples out of order."""
    def apply_readings(
        self,
        link: bytes,
        side: bytes,
        time: bytes,
        lanes: int,
        rx: bytes,
        tx: bytes,
        bias: bytes,
        temperature: bytes,
    ) -> int:
        """Feed only the trends (re-analysis, evaluation) with little-endian columns: ``link`` and
        ``time`` (µs) as ``numpy.astype('<i8').tobytes()``, ``side`` ``<u1`` (0 = A, 1 = Z), ``rx``,
        ``tx`` and ``bias`` ``<f8`` with ``lanes`` values per row (row-major), ``temperature``
        ``<f8``; NaN = no value. Rows in time order per end. Returns the rows applied (rows at or
        before their end's newest trend time are not). Raises ``ValueError`` naming the column
        whose length does not match."""
    def trend_changed_links(self) -> list[int]:
        """Links a trend bucket of which closed in the last ``apply_copy`` or ``apply_readings``
        (sorted)."""
    def forecasts(
        self,
        links: Sequence[int],
        limits: Sequence[tuple[float | None, float | None, float | None, float | None]],
        now_us: int,
        horizon_s: float,
        min_confidence: float,
    ) -> list[Forecast]:
        """Forecasts of ``links``; ``limits`` per link are (A Rx low, A Tx low, Z Rx low, Z Tx low)
        dBm (None: that quantity is not forecast). One dict per link with a crossing within four
        horizons or a dark or erratic lane (docs/telemetry.md, "Forecasts: optics at risk")."""
    def trend(self, link: int, side: bool) -> EndTrendSeries | None:
        """The end's trend series (side True = Z), or None when it has none."""
    def checkpoint(self) -> bytes:
        """The whole state (windows, readings, direction health, open episodes, oper-status, link
        states and trends) as compact bytes."""
    def checkpoint_split(self, stamp: int) -> tuple[bytes, list[tuple[int, bytes]]]:
        """The state as a split checkpoint: the bytes every run rewrites (everything but the
        trends' closed buckets) and the segments of closed buckets that changed since the previous
        call (or were never written), as (segment, bytes), stamped with ``stamp`` (the run's
        watermark; each run's must differ). Store both in one transaction, or drop this state:
        the changed segments are handed out once."""
    def restore(self, data: bytes, segments: Sequence[tuple[int, bytes]] = ()) -> None:
        """Replace the state by the one ``checkpoint`` or ``checkpoint_split`` wrote, keeping this
        object's settings, with the stored ``segments`` of a split one (those its bytes do not
        list are ignored). The trends are kept when this object keeps them with the checkpoint's
        bucket settings; a version 1 or 2 checkpoint has none. Raises ``ValueError`` on bytes that
        are not a checkpoint, or when a segment the bytes need is missing or from another run."""
    def oper_changes(self) -> list[tuple[int, bool]]:
        """Links whose operational state the last ``apply_copy`` decided anew (True = up), sorted
        by link: down when either end's newest oper-status is not up (or a dark end, see
        ``dark_end_is_down``), up when no end says down and one says up; ends that never reported
        say nothing. A link's first decision is listed too."""
    def flapping_changes(self) -> list[tuple[int, bool]]:
        """Links whose flapping flag the last ``apply_copy`` changed, with the new flag."""
    def link_states(self) -> list[tuple[int, bool | None, bool]]:
        """(link, decided state (True = up) or None, flapping) of every link held, by link."""
    def health_changed_links(self) -> list[int]:
        """Links whose direction health changed in the last ``apply_copy``."""
    def changed_ends_copy(self) -> str:
        """PostgreSQL COPY text of the ends the last ``apply_copy`` added or changed in what readers
        see: link, side, counter time, optical time (µs), the seven readings, Rx and Tx no light."""
    def changed_directions_copy(self) -> str:
        """PostgreSQL COPY text of the directions the last ``apply_copy`` changed."""
    def changed_episodes(self) -> list[tuple[int, bool, float, int, float, float, int, int | None]]:
        """(link, z_to_a, rate, first_seen, last_rate, peak_rate, last_seen, ended_at): episodes
        the last ``apply_copy`` ended, then the open episode of every direction it changed."""

# RAIL (issue #6): stretch costing, worst path, reliability classes, FEC.
# Up = from a link's lower to its upper switch; losses are fractions.

@type_check_only
class RailStretchReach(TypedDict):
    nrb: float
    reach_m: float

@type_check_only
class RailTechnology(TypedDict):
    """A catalog entry; ``price_usd`` None = unknown (only 10G is in the seed)."""

    name: str
    speed_gbps: int
    fiber: Literal["MMF", "SMF"]
    rated_reach_m: float
    price_usd: float | None
    stretch: list[RailStretchReach]

@type_check_only
class RailCostLine(TypedDict):
    category: Literal["transceivers", "fiber", "switch_ports", "power"]
    item: str
    unit_usd: float
    unit: Literal["part", "m", "port", "kWh"]
    quantity: float
    total_usd: float

@type_check_only
class RailCostBreakdown(TypedDict):
    lines: list[RailCostLine]
    total_usd: float
    transceiver_share: float

@type_check_only
class RailLinkChoice(TypedDict):
    link: int
    baseline: str
    plan: str
    stretched: bool
    p_good: float
    baseline_usd: float
    plan_usd: float

@type_check_only
class RailLengthBand(TypedDict):
    from_m: float
    to_m: float
    share: float
    baseline: str
    plan: str
    stretched: bool
    p_good: float

@type_check_only
class RailTorFraction(TypedDict):
    tor: int
    mean: float | None
    min: float | None
    min_dst: int | None

@type_check_only
class RailWorstPair(TypedDict):
    src: int
    dst: int
    fraction: float

@type_check_only
class RailPairFractions(TypedDict):
    """Per ordered ToR pair, the (expected) share of its ECMP paths."""

    per_tor: list[RailTorFraction]
    worst_pair: RailWorstPair | None
    mean: float | None
    quantiles: list[tuple[float, float]]
    connected_pairs: int
    disconnected_pairs: int

@type_check_only
class RailSweep(TypedDict):
    nrb: float | None
    points: list[tuple[float, float | None]]

@type_check_only
class RailPlan(TypedDict):
    nrb: float | None
    max_hops: int
    link_bound: float | None
    savings: float
    stretched_links: float
    min_p_good: float
    path_bound: float
    baseline: RailCostBreakdown
    plan: RailCostBreakdown
    links: list[RailLinkChoice]
    bands: list[RailLengthBand]
    good_paths: RailPairFractions | None
    sweeps: list[RailSweep]

@type_check_only
class RailHop(TypedDict):
    link: int
    upward: bool
    loss: float

@type_check_only
class RailPath(TypedDict):
    loss: float
    src: int
    dst: int
    top: int
    hops: list[RailHop]

@type_check_only
class RailPathCoding(TypedDict):
    target: float
    paths: float
    uncoded: float
    xor: float
    replicated: float
    unusable: float
    mean_overhead: float
    max_overhead: float

@type_check_only
class RailClass(TypedDict):
    bound: float
    links: list[int]
    removed: list[int]
    worst: RailPath | None
    kept_paths: RailPairFractions | None
    fec: RailPathCoding | None

@type_check_only
class RailClasses(TypedDict):
    repair: list[int]
    classes: list[RailClass]

@type_check_only
class RailFec(TypedDict):
    loss: float
    target: float
    scheme: Literal["none", "xor", "replicate3", "unusable"]
    n: int | None
    residual_loss: float
    overhead: float

def rail_standard_catalog() -> list[RailTechnology]:
    """The seed's technologies with Table 4.2 / Appendix D stretch reaches."""

def rail_plan(
    graph: FabricGraph,
    *,
    length_m: Sequence[float] | None = None,
    speed_gbps: int | Sequence[int] | None = None,
    uniform: tuple[float, float] | None = None,
    nrb: float | None = None,
    catalog: Sequence[Mapping[str, object]] | None = None,
    prices: Mapping[str, float] | None = None,
    costs: Mapping[str, float] | None = None,
    max_hops: int | None = None,
    sweep_max_lengths_m: Sequence[float] | None = None,
    sweep_nrbs: Sequence[float] | None = None,
    quantiles: Sequence[float] | None = None,
    pair_stats: bool = True,
) -> RailPlan:
    """Baseline (rated reach) against plan (stretched reach at ``nrb``; None =
    no stretch): per-link lengths (``length_m``) or ``uniform=(min_m, max_m)``
    in expected-value mode. ``prices`` sets catalog prices by name; ``costs``
    keys: mmf_usd_per_m, smf_usd_per_m, port_usd, switch_watts, usd_per_kwh,
    years. Raises ``ValueError`` listing every problem."""

def rail_worst_path(
    graph: FabricGraph,
    loss_up: Sequence[float],
    loss_down: Sequence[float],
    usable: Sequence[bool] | None = None,
) -> RailPath | None:
    """The worst ECMP path (highest path loss) over the usable links."""

def rail_classes(
    graph: FabricGraph,
    loss_up: Sequence[float],
    loss_down: Sequence[float],
    alive: Sequence[bool] | None = None,
    bounds: Sequence[float] | None = None,
    repair_above: float = 0.1,
    fec_target: float = 0.001,
    quantiles: Sequence[float] | None = None,
    pair_stats: bool = True,
) -> RailClasses:
    """Nested reliability classes (default bounds 4.8e-8, 1e-3, 0.1), most
    reliable first; ``kept_paths``: per ToR pair, the share of its paths in
    the class; ``fec``: how the class's paths are coded for ``fec_target``."""

def rail_fec(loss: float, target: float = 0.001) -> RailFec:
    """None below ``target``; XOR(n) with the largest n meeting it; triple
    replication up to 10 %; else unusable."""

def rail_xor_residual(n: int, p: float) -> float:
    """q(n, p) = 1 - (1-p)^(n+1) - (n+1) p (1-p)^n."""

# ShareBackup and Larry (lightpath_core::reconfig). Inputs and outputs are
# JSON-shaped; docs/reconfig.md describes every field.

def sharebackup_plan(
    k: int, pods: int, backups: int, events: Sequence[Mapping[str, Any]], reconfig_ms: float = 0.5
) -> dict[str, Any]:
    """Failover schedule of an event log (``switch_down``, ``link_down``,
    ``repair_done``, ``diagnosis_result``): counts, initial circuits, per event
    the ordered replace() calls, circuit diffs, pools, degraded groups with
    their rerouting fallback and diagnosis tests; ``violations`` lists what
    the independent verifier found (empty when sound)."""

def sharebackup_synthetic_log(k: int, pods: int, backups: int, length: int, seed: int) -> list[dict[str, Any]]:
    """A valid random event log (seeded)."""

def sharebackup_size(
    group_slots: int, groups: int, mtbf_hours: float, mttr_hours: float, target: float
) -> dict[str, Any]:
    """Smallest backups per group with P(any group out of backups) <= target,
    with the binomial risk curve up to it."""

def sharebackup_monte_carlo(
    group_slots: int, mtbf_hours: float, mttr_hours: float, backups: int, horizon_hours: float, seed: int
) -> tuple[float, float]:
    """(estimate, standard error) of P[more than ``backups`` slots down], simulated."""

def larry_check(rack_set: Mapping[str, Any], request: Sequence[int]) -> dict[str, Any]:
    """Max-flow feasibility of per-rack circuit uplinks; ``min_cut`` certifies infeasibility."""

def larry_run(
    rack_set: Mapping[str, Any],
    samples: Sequence[Mapping[str, Any]],
    threshold: float = 0.85,
    policy: str = "conservative",
) -> dict[str, Any]:
    """Controller run over cumulative counters: per step demand, uplinks and
    the changed circuits; metrics. Policies: conservative, static,
    one_big_switch, proportional."""

def reconfig_costs(
    racks: int,
    servers: int,
    static_uplinks: int,
    larry_s: int,
    larry_l: int,
    larry_r: int,
    k: int,
    pods: int,
    backups: int,
    cs_port_ratio: float = 0.3,
) -> list[dict[str, Any]]:
    """Counts and normalised cost of static, Larry and ShareBackup designs."""

# --- Circuit schedules (c-Through, issue #7) ---------------------------------

CircuitAlgorithm = Literal["exact", "greedy", "round-robin", "round_robin", "static", "random"]

class Circuit(TypedDict):
    a: int
    b: int
    count: int

class CircuitSlotChoice(TypedDict):
    circuits: list[Circuit]
    weight: int
    bound: int
    gap: float
    exact: bool
    maximal: bool

class CircuitSlot(TypedDict):
    index: int
    t0: float
    t1: float
    circuits: list[Circuit]
    changed_ports: list[int]
    weight: int
    bound: int
    offloaded_bytes: int
    algorithm: str
    exact: bool
    maximal: bool
    completed_groups: list[int]
    bonus: int

class VisitDelayBin(TypedDict):
    min_slots: int
    max_slots: int
    min_s: float
    max_s: float
    pairs: int

class CircuitMetrics(TypedDict):
    total_bytes: int
    offloaded_bytes: int
    optical_ratio: float
    uniform_ratio: float
    visit_delay_max_slots: int
    visit_delay_p95_slots: int
    visit_delay_histogram: list[VisitDelayBin]
    flap_count: int
    weight: int
    bonus: int
    groups_completed: int
    bound: int
    gap: float
    fallback_slots: int
    runtime_s: float

class CircuitSchedule(TypedDict):
    slots: list[CircuitSlot]
    metrics: CircuitMetrics

class CircuitGroupMatching(TypedDict):
    circuits: list[Circuit]
    weight: int
    completed: list[int]
    exact: bool

def max_weight_matching(num_vertices: int, edges: Sequence[tuple[int, int, int]]) -> list[int | None]:
    """Maximum-weight matching (Edmonds' blossom algorithm): each vertex's
    partner or None. Weights are non-negative integers."""

def circuit_slot(
    ports: Sequence[int],
    pairs: Sequence[tuple[int, int, int]],
    algorithm: CircuitAlgorithm = "exact",
    seed: int = 0,
    zones: Sequence[int] | None = None,
    slot_index: int = 0,
) -> CircuitSlotChoice:
    """One slot's circuits for pair weights and ports per rack, with the
    upper bound and gap."""

def circuit_plan(
    ports: Sequence[int],
    windows: Sequence[Sequence[tuple[int, int, int]]],
    *,
    zones: Sequence[int] | None = None,
    capacity_bytes_per_s: float = 1.25e9,
    period_s: float = 1.0,
    dark_time_s: float = 0.01,
    reconfig: Literal["per_port", "global"] = "per_port",
    mode: Literal["replay", "drain"] = "replay",
    algorithm: CircuitAlgorithm = "exact",
    seed: int = 0,
    min_demand_bytes: int = 1_000_000,
    burst_active: int = 1,
    burst_reset: int = 1,
    hysteresis: float = 0.0,
    time_budget_s: float | None = None,
    max_slots: int = 100_000,
    groups: Sequence[tuple[Sequence[tuple[int, int]], int]] | None = None,
    progress: Callable[[int], object] | None = None,
    progress_every: int = 100,
) -> CircuitSchedule:
    """A circuit schedule over demand windows of (src, dst, bytes).

    ``groups``: edge groups (rack pairs, bonus bytes), one port per rack and
    the exact algorithm; a slot completing a group reports ``exact: False``.
    ``progress``, if given, is called with the number of slots planned after
    every ``progress_every`` slots; an exception it raises stops the plan and
    propagates (a cancelled job)."""

def circuit_verify(
    ports: Sequence[int],
    windows: Sequence[Sequence[tuple[int, int, int]]],
    slots: Sequence[Mapping[str, object]],
    *,
    zones: Sequence[int] | None = None,
    capacity_bytes_per_s: float = 1.25e9,
    period_s: float = 1.0,
    dark_time_s: float = 0.01,
    reconfig: Literal["per_port", "global"] = "per_port",
    mode: Literal["replay", "drain"] = "replay",
    algorithm: CircuitAlgorithm = "exact",
    seed: int = 0,
    min_demand_bytes: int = 1_000_000,
    burst_active: int = 1,
    burst_reset: int = 1,
    hysteresis: float = 0.0,
    time_budget_s: float | None = None,
    max_slots: int = 100_000,
    groups: Sequence[tuple[Sequence[tuple[int, int]], int]] | None = None,
) -> list[str]:
    """Every violation of a schedule's slots against its inputs, one line
    each; empty when the schedule holds."""

def circuit_groups(
    num_racks: int,
    edges: Sequence[tuple[int, int, int]],
    groups: Sequence[tuple[Sequence[tuple[int, int]], int]],
) -> CircuitGroupMatching:
    """Best matching with edge groups (pairs earning a bonus together);
    exact up to 12 groups."""
