"""Hysteresis on "at risk" (docs/telemetry.md, "Forecasts: optics at risk").

The engine judges each forecast afresh when a link's trend bucket closes: a link whose confidence
hovers around the fabric's least confidence would go in and out of "at risk" every six hours,
and each return would look like a new alarm. So a link that was at risk stays at risk while its
new forecast still crosses within the horizon and the median slope still says so (confidence at
least `HOLD_CONFIDENCE`, or the fabric's least confidence when that is lower); it leaves when
either fails, or when it is no longer forecast at all.

Pure (no Django): derivation (`forecasts.write`, with the stored rows' at-risk flags) and the
evaluation script (`backend/scripts/eval_forecast.py`, with its own) apply the same rule.
"""

from __future__ import annotations

from collections.abc import Container, Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lightpath_engine import Forecast

HOLD_CONFIDENCE = 0.5


def held(
    reported: Iterable[Forecast],
    at_risk_before: Container[int],
    now_us: int,
    horizon_us: float,
    min_confidence: float,
) -> list[Forecast]:
    """The engine's forecasts (`TelemetryState.forecasts` items), with `at_risk` set on those of
    links in `at_risk_before` that still cross within the horizon with enough confidence."""
    hold = min(HOLD_CONFIDENCE, min_confidence)
    result = []
    for item in reported:
        if (
            not item["at_risk"]
            and item["link"] in at_risk_before
            and item["crossing_us"] <= now_us + horizon_us
            and item["confidence"] >= hold
        ):
            item = item.copy()
            item["at_risk"] = True
        result.append(item)
    return result
