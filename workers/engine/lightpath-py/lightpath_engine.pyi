"""Native engine of Lightpath: path counting and capacity on Clos fabrics."""

from collections.abc import Sequence
from typing import final

__all__ = ["FabricGraph", "__version__"]

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
