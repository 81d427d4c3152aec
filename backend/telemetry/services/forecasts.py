"""Forecasts: optics at risk (docs/telemetry.md, "Forecasts: optics at risk").

The engine keeps each link end's per-lane trends (Rx, Tx, bias, temperature) in its derivation
state and forecasts, from them and the limits, when a lane's power will reach its low limit and
why (Table 3.2). This module is the door between that answer and the database:
- `write` runs inside a derivation run, after each apply: for the links a trend bucket of which
  closed (`trend_changed_links`), it resolves their low limits as `thresholds.effective_limits`
  does (manual, device, catalog), asks the engine, keeps links that were at risk at risk while
  their forecast still says so well enough (`risk_hold`), upserts the links it reports and
  deletes the rows of those it no longer reports;
- `answer` is `GET /api/links/{id}/forecast/`: the stored row with the end, the cause's label and
  the recommended action; `listed` is a row of `GET /api/link-forecasts/` (the At risk page and
  `lightpath links at-risk`): the same, with the link and both its ends.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.db.models import JSONField, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import JSONObject

from corruption.models import Ticket
from corruption.recommend import Action
from fabric.models import Fabric, Link
from webhooks import services as webhooks
from webhooks.models import WebhookEvent

from ..models import Derivation, LinkForecast, Side
from .risk_hold import held
from .thresholds import Resolved, effective_limits

EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
DAY_S = 86_400.0
RX_LIMIT, TX_LIMIT = "input_power_lower_dbm", "output_power_lower_dbm"

INSPECT = "inspect"
# What to do about each cause: the ticket rules' actions (corruption.recommend), "inspect" when no
# pattern matched. `{end}` is the end to act on.
ACTIONS: dict[str, tuple[str, str]] = {
    LinkForecast.Cause.DECAYING_TRANSMITTER: (Action.REPLACE_TRANSCEIVER, "Replace the transceiver at {end}"),
    LinkForecast.Cause.CONTAMINATION: (Action.CLEAN_FIBER, "Clean the connectors, {end} first"),
    LinkForecast.Cause.BENT_FIBER: (Action.REPLACE_CABLE, "Replace the cable"),
    LinkForecast.Cause.LOOSE_TRANSCEIVER: (Action.RESEAT_TRANSCEIVER, "Reseat the transceiver at {end}"),
    LinkForecast.Cause.UNKNOWN: (INSPECT, "Inspect the optics and the fiber at both ends"),
}
RECOMMENDED_ACTIONS = list(dict.fromkeys(action for action, _ in ACTIONS.values()))

COLUMNS = (
    "link_id", "fabric_id", "computed_at", "crossing_at", "earliest_at", "latest_at", "confidence", "at_risk", "cause",
    "side", "quantity", "lane", "level_dbm", "slope_db_per_day", "limit_dbm", "limit_provenance", "cause_side",
)  # fmt: skip
TYPES = (
    "int8", "int8", "timestamptz", "timestamptz", "timestamptz", "timestamptz", "float8", "bool", "text", "char(1)",
    "text", "int2", "float8", "float8", "float8", "text", "char(1)",
)  # fmt: skip


# ------------------------------------------------------------------------------------------
# At risk: a forecast for a link still healthy (trial 28 item 11)
#
# A link that already failed (corrupting, in service or not, or out of service for corruption)
# belongs to its repair ticket (or to CorrOpt, which kept it for capacity), not to a forecast: its
# reading is past the limit, so "at its limit now" says nothing new, and a preventive ticket would
# duplicate the repair. The stored `at_risk` stays the engine's verdict (the hysteresis reads it,
# and a repair ticket reads the forecast its link had before it corrupted); every list, count and
# filter of links at risk reads it through `at_risk_q`, and a shown row through `at_risk_now`.
CORRUPTION_REASON = "corruption"  # corruption.services.ADMIN_REASON (importing it would be a cycle)


def failed_q(to_link: str = "") -> Q:
    """The links already failed; `to_link` is the path from the queryset's model to the link
    ("" for links, "link__" for forecasts)."""
    return Q(**{f"{to_link}health": Link.Health.CORRUPTING}) | Q(
        **{f"{to_link}admin_state": Link.AdminState.DISABLED, f"{to_link}admin_reason": CORRUPTION_REASON}
    )


def at_risk_q(to_forecast: str = "", to_link: str = "link__") -> Q:
    """Links at risk: the forecast says so and the link has not failed yet. Defaults: a
    LinkForecast queryset; for links, at_risk_q("forecast__", "")."""
    return Q(**{f"{to_forecast}at_risk": True}) & ~failed_q(to_link)


def disabled_for_corruption_sql(link: str) -> str:
    """The second half of `failed_q` in SQL, for the links table under the alias `link`."""
    return f"({link}.admin_state = '{Link.AdminState.DISABLED}' AND {link}.admin_reason = '{CORRUPTION_REASON}')"


def failed_sql(link: str) -> str:
    """`failed_q` in SQL, for the links table under the alias `link` (constants from code)."""
    return f"({link}.health = '{Link.Health.CORRUPTING}' OR {disabled_for_corruption_sql(link)})"


def link_failed(link: Link) -> bool:
    """`failed_q` for one loaded link."""
    return link.health == Link.Health.CORRUPTING or (
        link.admin_state == Link.AdminState.DISABLED and link.admin_reason == CORRUPTION_REASON
    )


def at_risk_now(forecast: LinkForecast, link: Link) -> bool:
    """`at_risk_q` for one loaded forecast and its link."""
    return forecast.at_risk and not link_failed(link)


def horizon_s(fabric: Fabric) -> float:
    return float(fabric.forecast_horizon_days) * DAY_S


def _time(us: int | None) -> dt.datetime | None:
    return None if us is None else EPOCH + dt.timedelta(microseconds=int(us))


def _us(time: dt.datetime) -> int:
    return (time - EPOCH) // dt.timedelta(microseconds=1)


def _number(value: float | None) -> float | None:
    """The engine writes NaN where a lane has no value (a dark lane's level)."""
    return None if value is None or math.isnan(value) else float(value)


def _side(value: bool | None) -> str | None:
    return None if value is None else Side.Z if value else Side.A


def engine_limits(
    link_ids: Sequence[int],
) -> tuple[list[tuple[float | None, float | None, float | None, float | None]], dict[tuple[int, str], dict]]:
    """Each link's (A Rx low, A Tx low, Z Rx low, Z Tx low) limits for the engine, and the resolved
    limits themselves (value and provenance) by (link, side)."""
    resolved = effective_limits(link_ids)
    missing = Resolved(None, None)

    def low(link: int, side: str, name: str) -> float | None:
        return resolved.get((link, side), {}).get(name, missing).value

    limits = [
        (low(link, "a", RX_LIMIT), low(link, "a", TX_LIMIT), low(link, "z", RX_LIMIT), low(link, "z", TX_LIMIT))
        for link in link_ids
    ]
    return limits, resolved


def rows_from(fabric: Fabric, reported: list[dict[str, Any]], resolved: dict, now: dt.datetime) -> list[tuple]:
    """The engine's forecasts as rows of telemetry_linkforecast (COLUMNS)."""
    rows = []
    for item in reported:
        side = _side(item["side"])
        limit = resolved.get((item["link"], side), {}).get(RX_LIMIT if item["quantity"] == "rx" else TX_LIMIT)
        limit_dbm = _number(item["limit_dbm"])
        rows.append(
            (
                item["link"], fabric.pk, now, _time(item["crossing_us"]), _time(item["earliest_us"]),
                _time(item["latest_us"]), float(item["confidence"]), bool(item["at_risk"]), item["cause"], side,
                item["quantity"], int(item["lane"]), _number(item["level_dbm"]), _number(item["slope_db_per_day"]),
                limit_dbm, limit.provenance if limit is not None and limit_dbm is not None else None,
                _side(item["cause_side"]),
            )
        )  # fmt: skip
    return rows


def write(
    cursor, fabric: Fabric, state, now: dt.datetime, links: list[int] | None = None, *, hold: bool | None = None
) -> tuple[list[int], int]:
    """The forecasts of `links` (by default those whose trends moved in the last apply of `state`,
    the engine's TelemetryState), made at `now`: reported links are upserted, the others of those
    links lose their row. Returns those links and how many the engine reported. The links whose
    trends moved keep "at risk" by the hysteresis of `risk_hold`; explicit `links` (every link,
    after the fabric's horizon or least confidence changed) are judged afresh by the new settings
    unless `hold` (the same settings, forecasts made anew at another time: `refresh`)."""
    if hold is None:
        hold = links is None
    if links is None:
        links = state.trend_changed_links()
    if not links:
        return [], 0
    limits, resolved = engine_limits(links)
    min_confidence = float(fabric.forecast_min_confidence)
    reported = state.forecasts(links, limits, _us(now), horizon_s(fabric), min_confidence)
    before = stored_risk(cursor, links)
    if hold:
        # Hysteresis (risk_hold): the stored rows say which of these links were at risk.
        at_risk_before = {link for link, stored in before.items() if stored.at_risk}
        reported = held(reported, at_risk_before, _us(now), horizon_s(fabric) * 1e6, min_confidence)
    rows = rows_from(fabric, reported, resolved, now)
    # Before the stale rows go: a link losing its row is announced from what `before` read of it.
    publish_risk_changes(fabric, links, before, rows, now)
    cursor.execute(
        "DELETE FROM telemetry_linkforecast WHERE link_id = ANY(%s) AND NOT link_id = ANY(%s)",
        [links, [row[0] for row in rows]],
    )
    if not rows:
        return links, 0
    cursor.execute("DROP TABLE IF EXISTS tmp_forecasts")
    cursor.execute(
        f"CREATE TEMP TABLE tmp_forecasts ({', '.join(f'{n} {t}' for n, t in zip(COLUMNS, TYPES, strict=True))}) "
        "ON COMMIT DROP"
    )
    with cursor.cursor.copy("COPY tmp_forecasts FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)
    updates = ", ".join(f"{name} = EXCLUDED.{name}" for name in COLUMNS[1:])
    # Joined with the links: a link deleted since its samples were read gets no row.
    cursor.execute(
        f"""
        INSERT INTO telemetry_linkforecast ({", ".join(COLUMNS)})
        SELECT {", ".join(f"t.{name}" for name in COLUMNS)} FROM tmp_forecasts t JOIN fabric_link l ON l.id = t.link_id
        ON CONFLICT (link_id) DO UPDATE SET {updates}
        """
    )
    return links, len(rows)


def refresh(fabric: Fabric, now: dt.datetime) -> tuple[list[int], int]:
    """Every link's forecast made anew at `now` from the fabric's derived state, with the
    hysteresis of a run (the demo loader: its forecasts are made when it loads, not at the last
    bucket each link closed hours before)."""
    from . import derivation  # derivation runs `write`: imported here, not at the module's top

    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [derivation.LOCK_NAMESPACE, fabric.pk])
        watermark = Derivation.objects.filter(fabric=fabric).values_list("watermark", flat=True).first() or 0
        state = derivation.restore(fabric, watermark)
        every = list(Link.objects.filter(fabric=fabric).values_list("id", flat=True))
        return write(cursor, fabric, state, now, links=every, hold=True)


@dataclass(frozen=True)
class StoredRisk:
    at_risk: bool  # the stored forecast's verdict (the hysteresis reads it); False without a row
    cause: str | None
    failed: bool  # failed_q: such a link is not at risk, whatever its forecast says

    @property
    def announced(self) -> bool:
        """At risk as every list, count and webhook says it (at_risk_q)."""
        return self.at_risk and not self.failed


def stored_risk(cursor, links: list[int]) -> dict[int, StoredRisk]:
    """The links of `links` stored at risk or failed, in one query; a link not in the answer has
    no forecast at risk and has not failed."""
    failed = failed_sql("l")
    cursor.execute(
        f"SELECT l.id, coalesce(f.at_risk, false), f.cause, {failed} FROM fabric_link l "
        f"LEFT JOIN telemetry_linkforecast f ON f.link_id = l.id WHERE l.id = ANY(%s) AND (f.at_risk OR {failed})",
        [links],
    )
    return {link: StoredRisk(at_risk, cause, failed) for link, at_risk, cause, failed in cursor.fetchall()}


NOT_AT_RISK = StoredRisk(at_risk=False, cause=None, failed=False)


def publish_risk_changes(
    fabric: Fabric, links: list[int], before: dict[int, StoredRisk], rows: list[tuple], now: dt.datetime
) -> None:
    """Before `write` stores `rows` for `links`: a webhook event, through the outbox in derivation's
    transaction, for each link whose announced at-risk state (`StoredRisk.announced`) the new
    forecasts change: `link.at_risk`, `link.risk_cleared` (reason "recovered", or "no_forecast" when
    the link loses its row), or `link.risk_changed` when it stays at risk with another cause. A
    failed link's forecast changes nothing: it was not at risk and is not (the capacity guard
    announces its failing and its return, `webhooks.link_failures_changed`)."""
    new = {row[0]: dict(zip(COLUMNS, row, strict=True)) for row in rows}
    events = []
    for link_id in links:
        stored = before.get(link_id, NOT_AT_RISK)
        row = new.get(link_id)
        if stored.failed:
            continue
        at_risk = row is not None and bool(row["at_risk"])
        forecast = None if row is None else webhooks.forecast_payload(row)
        if at_risk and not stored.announced:
            events.append(webhooks.RiskEvent(link_id, WebhookEvent.Kind.LINK_AT_RISK, webhooks.RISK_FORECAST, forecast))
        elif stored.announced and not at_risk:
            reason = webhooks.RISK_RECOVERED if row is not None else webhooks.RISK_NO_FORECAST
            events.append(webhooks.RiskEvent(link_id, WebhookEvent.Kind.LINK_RISK_CLEARED, reason, forecast))
        elif at_risk and row is not None and row["cause"] != stored.cause:
            events.append(
                webhooks.RiskEvent(
                    link_id, WebhookEvent.Kind.LINK_RISK_CHANGED, webhooks.RISK_CAUSE_CHANGED, forecast, stored.cause
                )
            )
    if events:
        webhooks.publish_risk_events(fabric.pk, events, now)


# ------------------------------------------------------------------------------------------
# The answer of GET /api/links/{id}/forecast/


def _end(link: Link, side: str | None) -> dict[str, Any] | None:
    if side is None:
        return None
    switch = link.a_switch if side == Side.A else link.z_switch
    return {"switch": switch.name, "port": link.a_port if side == Side.A else link.z_port, "rack": switch.rack or None}


def act_on_side(forecast: LinkForecast) -> str:
    """The end to act on: where the crossing reading is low when it is a transmitter's (a Tx is
    measured at its own laser: nothing at the far end lowers it, trial 28 item 11's "Tx low at A,
    clean Z"), else the cause's end, else the end whose reading crosses."""
    if forecast.quantity == "tx":
        return forecast.side
    return forecast.cause_side or forecast.side


def recommendation(forecast: LinkForecast, link: Link) -> tuple[str, str]:
    """The action the cause calls for, and a sentence naming where (`act_on_side`)."""
    action, sentence = ACTIONS[forecast.cause]
    side = act_on_side(forecast)
    end = _end(link, side) or {}
    return str(action), sentence.format(end=f"{end['switch']}:{end['port']} (end {side.upper()})")


def details(forecast: LinkForecast, link: Link) -> dict[str, Any]:
    action, label = recommendation(forecast, link)
    return {
        "computed_at": forecast.computed_at,
        "crossing_at": forecast.crossing_at,
        "earliest_at": forecast.earliest_at,
        "latest_at": forecast.latest_at,
        "confidence": forecast.confidence,
        "at_risk": forecast.at_risk,
        "cause": forecast.cause,
        "cause_label": LinkForecast.Cause(forecast.cause).label,
        "side": forecast.side,
        "end": _end(link, forecast.side),
        "quantity": forecast.quantity,
        "lane": forecast.lane,
        "level_dbm": forecast.level_dbm,
        "slope_db_per_day": forecast.slope_db_per_day,
        "limit_dbm": forecast.limit_dbm,
        "limit_provenance": forecast.limit_provenance,
        "cause_side": forecast.cause_side,
        "recommended_action": action,
        "recommended_action_label": label,
    }


def rows() -> QuerySet[LinkForecast]:
    """The forecasts as GET /api/link-forecasts/ lists them, in one query a page: the link and its
    switches joined, and the link's unresolved ticket (at most one a link: corruption's constraint)
    as `unresolved_ticket` {id, kind, state} or None, so an at-risk row already being handled says
    so instead of offering another ticket."""
    unresolved = (
        Ticket.objects.filter(link=OuterRef("link_id"))
        .exclude(state=Ticket.State.RESOLVED)
        .values(json=JSONObject(id="id", kind="kind", state="state"))[:1]
    )
    return LinkForecast.objects.select_related("link__a_switch", "link__z_switch").annotate(
        unresolved_ticket=Subquery(unresolved, output_field=JSONField())
    )


def listed(forecast: LinkForecast) -> dict[str, Any]:
    """A row of GET /api/link-forecasts/: the forecast as the forecast endpoint shows it, with the
    link's name and both ends (switch, port, rack), so a list page needs no request per row, and
    its unresolved ticket (`rows` reads both with the row)."""
    link = forecast.link
    return {
        **details(forecast, link),
        "at_risk": at_risk_now(forecast, link),
        "link": {"id": link.pk, "name": str(link), "a": _end(link, Side.A), "z": _end(link, Side.Z)},
        "ticket": getattr(forecast, "unresolved_ticket", None),
    }


def failure(link: Link) -> dict[str, Any] | None:
    """How a failed link (`link_failed`) failed: out of service for corruption ("disabled", since
    its admin state changed) or corrupting in service ("corrupting": CorrOpt keeps it for capacity;
    since its first direction started corrupting), and its unresolved ticket {id, kind, state}, which
    owns it now; None for a link that has not failed."""
    if not link_failed(link):
        return None
    disabled = link.admin_state == Link.AdminState.DISABLED and link.admin_reason == CORRUPTION_REASON
    if disabled:
        since = link.admin_changed_at
    else:
        since = min(
            (health.health_since for health in link.direction_health.all()
             if health.health == Link.Health.CORRUPTING and health.health_since is not None),
            default=None,
        )  # fmt: skip
    ticket = Ticket.objects.filter(link=link).exclude(state=Ticket.State.RESOLVED).values("id", "kind", "state").first()
    return {"state": "disabled" if disabled else "corrupting", "since": since, "ticket": ticket}


def answer(link: Link) -> dict[str, Any]:
    """A link's forecast with the fabric's settings it was judged by; `forecast` is null when the
    link's optics are not forecast to cross a limit (or have too little history yet). A failed
    link's `failed` says how and which ticket owns it: its forecast is kept (the power chart draws
    it) but is no longer at risk, and what to do is the ticket's, not the forecast's."""
    fabric = link.fabric
    try:
        forecast: LinkForecast | None = link.forecast
    except LinkForecast.DoesNotExist:
        forecast = None
    return {
        "link": link.pk,
        "horizon_days": fabric.forecast_horizon_days,
        "min_confidence": fabric.forecast_min_confidence,
        "forecast": None if forecast is None else {**details(forecast, link), "at_risk": at_risk_now(forecast, link)},
        "failed": failure(link),
    }
