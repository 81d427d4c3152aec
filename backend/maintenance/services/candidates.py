"""The lossy links a capacity restoration may re-enable, with their loss rates: read once for a
visit's start (visits) and for a capacity recovery (recovery)."""

from __future__ import annotations

from collections.abc import Iterable

from corruption.services import ADMIN_REASON as CORRUPTION
from fabric.models import Link
from telemetry.models import CorruptionEvent, Direction, DirectionHealth


def lossy_links(fabric_id: int, exclude: Iterable[int]) -> dict[int, tuple[float, float]]:
    """The fabric's links disabled for corruption (`exclude`: a repair's own links and those under
    repair) with their current loss rates (engine up = a_to_z): the largest open event's rate
    per direction, or the direction's measured rate where it corrupts or is lossy."""
    ids = list(
        Link.objects.filter(
            fabric_id=fabric_id, admin_state=Link.AdminState.DISABLED, admin_reason__startswith=CORRUPTION
        )
        .exclude(pk__in=list(exclude))
        .values_list("id", flat=True)
    )
    rates = {link_id: dict.fromkeys(Direction.values, 0.0) for link_id in ids}
    measured = DirectionHealth.objects.filter(
        link_id__in=ids, health__in=[Link.Health.CORRUPTING, Link.Health.LOSSY], corruption_rate__isnull=False
    ).values_list("link_id", "direction", "corruption_rate")
    events = CorruptionEvent.objects.filter(link_id__in=ids, ended_at__isnull=True).values_list(
        "link_id", "direction", "last_rate"
    )
    for link_id, direction, rate in [*measured, *events]:
        rates[link_id][direction] = max(rates[link_id][direction], min(max(rate or 0.0, 0.0), 1.0))
    return {link_id: (r[Direction.A_TO_Z], r[Direction.Z_TO_A]) for link_id, r in rates.items()}
