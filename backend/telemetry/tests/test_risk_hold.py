"""Hysteresis on "at risk" (telemetry/services/risk_hold.py): a link whose forecast hovers around
the fabric's least confidence is not flagged anew every six hours. Derivation and the evaluation
script apply this rule to the engine's forecasts."""

from telemetry.services.risk_hold import HOLD_CONFIDENCE, held

DAY_US = 86_400_000_000
NOW = 100 * DAY_US
HORIZON = 7 * DAY_US


def forecast(link: int, *, at_risk: bool, confidence: float, crossing_days: float) -> dict:
    return {
        "link": link,
        "at_risk": at_risk,
        "confidence": confidence,
        "crossing_us": NOW + int(crossing_days * DAY_US),
        "cause": "contamination",
    }


def test_a_link_at_risk_stays_at_risk_while_the_median_slope_still_crosses_within_the_horizon():
    reported = [
        forecast(1, at_risk=False, confidence=0.6, crossing_days=5),  # was at risk: held
        forecast(2, at_risk=False, confidence=0.6, crossing_days=5),  # was not: not flagged
        forecast(3, at_risk=False, confidence=HOLD_CONFIDENCE - 0.05, crossing_days=5),  # too unsure: leaves
        forecast(4, at_risk=False, confidence=0.6, crossing_days=8),  # past the horizon: leaves
        forecast(5, at_risk=True, confidence=0.9, crossing_days=2),  # the engine's own flag stands
    ]
    result = held(reported, {1, 3, 4}, NOW, HORIZON, 0.8)
    assert [item["at_risk"] for item in result] == [True, False, False, False, True]
    assert result[0] == {**reported[0], "at_risk": True}
    assert not reported[0]["at_risk"], "the engine's answer is not changed in place"
