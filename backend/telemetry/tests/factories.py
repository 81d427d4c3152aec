"""Test data for telemetry's models, as their writers make it."""

import datetime as dt

from django.utils import timezone

from telemetry.models import LinkForecast


def forecast_row(
    link, *, days: float, cause: str = "contamination", at_risk: bool = True, now: dt.datetime | None = None, **fields
) -> LinkForecast:
    """A forecast row of `link` as derivation writes one, made at `now`: its Z end's Rx of lane 2
    (from 0) at -9.1 dBm, falling 0.45 dB a day to its catalog limit -11.9 dBm in `days` (a day
    either side), confidence 0.9, the Z end to act on; `fields` change any of that."""
    now = now or timezone.now()
    crossing = now + dt.timedelta(days=days)
    values = {
        "fabric_id": link.fabric_id, "computed_at": now, "crossing_at": crossing,
        "earliest_at": crossing - dt.timedelta(days=1), "latest_at": crossing + dt.timedelta(days=2),
        "confidence": 0.9, "at_risk": at_risk, "cause": cause, "side": "z", "quantity": "rx", "lane": 2,
        "level_dbm": -9.1, "slope_db_per_day": -0.45, "limit_dbm": -11.9, "limit_provenance": "catalog",
        "cause_side": "z", **fields,
    }  # fmt: skip
    return LinkForecast.objects.create(link=link, **values)
