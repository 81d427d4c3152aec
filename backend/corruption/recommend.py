"""Repair recommendations for one corrupting direction of a link (corropt.md §4, defaults §6.10-13).

`recommend(link, direction)` runs the seed's Algorithm 1 on what telemetry stored for the link
(EndState readings, effective power limits, DirectionHealth, open CorruptionEvents) and on its
neighbours, and returns a Recommendation: the action, a stable rule id, one sentence for the
technician, and the evidence (JSON). It reads the database and writes nothing; the repair history
comes in as an argument (HistoryStep list), so a ticket can pass its steps.

"Local end" is the receiver that sees the CRC errors: for a_to_z the local end is Z, the far end A.

Rules, first match wins (rule ids in brackets):
1. Neighbour corruption -> REPLACE_SHARED_COMPONENT. Checked at both ends' switches:
   [shared_component.breakout] another link in the same breakout group (the same port prefix and
   (n - 1) // group_size, e.g. eth1/1-eth1/4) has an open corruption event; or
   [shared_component.cluster] at least `cluster_min_links` other links on the same switch (a line
   card is a subset of it) have open events that started within `cluster_onset_window_s` of this
   one's, at rates within `cluster_rate_ratio`x of it. A single unrelated port never triggers it.
2. [opposite_direction] the other direction corrupts too -> REPLACE_CABLE.
3. [far_tx_low] far Tx (lowest lane) <= its lower limit, or tx_class low -> REPLACE_FAR_TRANSCEIVER.
4. [both_rx_low] local and far Rx below their lower limits -> REPLACE_CABLE.
5. [local_rx_low] local Rx below its lower limit -> CLEAN_FIBER.
6. [reseat] -> RESEAT_TRANSCEIVER (local end), unless [reseated_recently]: a reseat was logged
   in the current fault episode (since the open event's first_seen) or within `reseat_recent_days`,
   from the history or Transceiver.last_reseated_at -> REPLACE_TRANSCEIVER.
Limits: manual, then device, then catalog (telemetry.services.thresholds); an Rx limit missing
from all three falls back to `global_rx_threshold_dbm` (provenance "global"). Tx uses <=, Rx <.
Without any optical reading (rules 3-5 cannot be judged) the generic sequence applies instead of
3-6 [no_optical_data]: CLEAN_FIBER -> RESEAT_TRANSCEIVER -> REPLACE_TRANSCEIVER, the first one the
history has not already tried and failed (a recent reseat skips to the replacement).

History escalation [escalation]: an action that was taken and after which corruption returned
(outcome "recurred") is not recommended again in the episode; the rule's action is replaced by
its successor, repeatedly, until one has not failed:

    failed action              next action
    CLEAN_FIBER                REPLACE_CABLE if both Rx are low, else RESEAT_TRANSCEIVER
    RESEAT_TRANSCEIVER         REPLACE_TRANSCEIVER
    REPLACE_TRANSCEIVER        REPLACE_CABLE if the local Rx is low, else REPLACE_FAR_TRANSCEIVER
    REPLACE_FAR_TRANSCEIVER    REPLACE_CABLE
    REPLACE_CABLE              RESEAT_TRANSCEIVER (REPLACE_TRANSCEIVER if reseated recently)
    REPLACE_SHARED_COMPONENT   the per-link rules 2-6 for this link alone

When every successor has failed too, [escalation.exhausted] recommends REPLACE_SHARED_COMPONENT
(rewire to free ports or replace the switch), the last resort of Table 3.2.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings as django_settings
from django.db.models import Q
from django.utils import timezone

from corruption.models import RepairAction
from fabric.models import Link, Transceiver
from fabric.services.components import breakout_group, line_card
from lightpath.numbers import dbm_text, loss_rate_text
from telemetry.models import CorruptionEvent, Direction, DirectionHealth, EndState, PowerClass
from telemetry.services.thresholds import Resolved, effective_limits

# The repair actions, with their words (corruption.models keeps the one table).
Action = RepairAction


@dataclass(frozen=True)
class HistoryStep:
    """One earlier step of the repair: what was recommended, what was done, when, and whether
    corruption came back ("recurred"), stayed away ("fixed") or is not known yet ("pending")."""

    action_recommended: str
    action_taken: str | None
    time: dt.datetime
    outcome: str = "pending"

    @classmethod
    def of(cls, step: HistoryStep | Mapping[str, Any]) -> HistoryStep:
        if isinstance(step, HistoryStep):
            return step
        return cls(
            action_recommended=step["action_recommended"],
            action_taken=step.get("action_taken"),
            time=step["time"],
            outcome=step.get("outcome", "pending"),
        )

    @property
    def failed(self) -> bool:
        return bool(self.action_taken) and self.outcome == "recurred"

    def as_dict(self) -> dict[str, Any]:
        return {
            "action_recommended": self.action_recommended,
            "action_taken": self.action_taken,
            "time": self.time.isoformat(),
            "outcome": self.outcome,
        }


@dataclass
class Recommendation:
    action: Action
    rule: str
    explanation: str
    evidence: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "action": str(self.action),
            "rule": self.rule,
            "explanation": self.explanation,
            "evidence": self.evidence,
        }


def _other(side: str) -> str:
    return "a" if side == "z" else "z"


def _fmt_rate(rate: float | None) -> str:
    # As the UI writes rates (a power of ten with a superscript exponent), never 1.0e-06.
    return loss_rate_text(rate)


def _fmt_dbm(value: float | None) -> str:
    # As the UI writes powers (formatDbm), with the true minus sign the evidence beside it uses.
    return dbm_text(value)


class _Context:
    """What the rules read, loaded once; `evidence` is built from it."""

    def __init__(self, link: Link, direction: str, now: dt.datetime, config: Mapping[str, Any]) -> None:
        self.link = link
        self.direction = direction
        self.now = now
        self.config = config
        self.local = "z" if direction == Direction.A_TO_Z else "a"
        self.far = _other(self.local)
        self.opposite = Direction.Z_TO_A if direction == Direction.A_TO_Z else Direction.A_TO_Z
        self.ends = {state.side: state for state in EndState.objects.filter(link=link)}
        self.limits = effective_limits([link.pk])
        self.transceivers = {t.side: t for t in Transceiver.objects.filter(link=link).select_related("model")}
        self.health = {h.direction: h for h in DirectionHealth.objects.filter(link=link)}
        self.events = {e.direction: e for e in CorruptionEvent.objects.filter(link=link, ended_at__isnull=True)}

    # Names and places -------------------------------------------------------------------------

    def switch_of(self, side: str) -> Any:
        return self.link.a_switch if side == "a" else self.link.z_switch

    def port_of(self, side: str) -> str:
        return self.link.a_port if side == "a" else self.link.z_port

    def end_name(self, side: str) -> str:
        return f"{self.switch_of(side).name}:{self.port_of(side)}"

    def model_name(self, side: str) -> str | None:
        transceiver = self.transceivers.get(side)
        return transceiver.model.name if transceiver else None

    # Rates ------------------------------------------------------------------------------------

    def rate(self, direction: str) -> float | None:
        event = self.events.get(direction)
        if event is not None:
            return event.last_rate
        health = self.health.get(direction)
        return health.corruption_rate if health else None

    def corrupting(self, direction: str) -> bool:
        health = self.health.get(direction)
        return direction in self.events or (health is not None and health.health == Link.Health.CORRUPTING)

    def onset(self) -> dt.datetime | None:
        event = self.events.get(self.direction)
        return event.first_seen if event else None

    # Optics -----------------------------------------------------------------------------------

    def limit(self, side: str, name: str) -> Resolved:
        resolved = self.limits.get((self.link.pk, side), {}).get(name, Resolved(None, None))
        if resolved.value is None and name == "input_power_lower_dbm":
            return Resolved(self.config["global_rx_threshold_dbm"], "global")
        return resolved

    def rx(self, side: str) -> float | None:
        """Lowest Rx lane (the average when no lanes were reported)."""
        state = self.ends.get(side)
        if state is None or state.optical_time is None:
            return None
        return (
            state.input_power_min_channel_dbm
            if state.input_power_min_channel_dbm is not None
            else state.input_power_dbm
        )

    def tx(self, side: str) -> float | None:
        state = self.ends.get(side)
        if state is None or state.optical_time is None:
            return None
        return (
            state.output_power_min_channel_dbm
            if state.output_power_min_channel_dbm is not None
            else state.output_power_dbm
        )

    def rx_low(self, side: str) -> bool:
        state = self.ends.get(side)
        if state is None or state.optical_time is None:
            return False
        if state.rx_no_light or state.rx_class == PowerClass.LOW:
            return True
        value, limit = self.rx(side), self.limit(side, "input_power_lower_dbm").value
        return value is not None and limit is not None and value < limit

    def tx_low(self, side: str) -> bool:
        state = self.ends.get(side)
        if state is None or state.optical_time is None:
            return False
        if state.tx_no_light or state.tx_class == PowerClass.LOW:
            return True
        value, limit = self.tx(side), self.limit(side, "output_power_lower_dbm").value
        return value is not None and limit is not None and value <= limit

    def has_optics(self) -> bool:
        return any(v is not None for v in (self.rx(self.local), self.rx(self.far), self.tx(self.far))) or any(
            self.ends.get(s) is not None and self.ends[s].rx_no_light for s in "az"
        )

    def optics_evidence(self, side: str) -> dict[str, Any]:
        state = self.ends.get(side)
        readings: dict[str, Any] = {"optical_time": None}
        if state is not None:
            readings = {
                "optical_time": state.optical_time.isoformat() if state.optical_time else None,
                "rx_dbm": state.input_power_dbm,
                "rx_min_lane_dbm": state.input_power_min_channel_dbm,
                "tx_dbm": state.output_power_dbm,
                "tx_min_lane_dbm": state.output_power_min_channel_dbm,
                "rx_class": state.rx_class,
                "tx_class": state.tx_class,
                "rx_no_light": state.rx_no_light,
                "tx_no_light": state.tx_no_light,
            }
        return {
            "end": self.end_name(side),
            "transceiver_model": self.model_name(side),
            **readings,
            "rx_low": self.rx_low(side),
            "tx_low": self.tx_low(side),
            "thresholds": {
                name: self.limit(side, name).as_dict()
                for name in ("input_power_lower_dbm", "input_power_upper_dbm", "output_power_lower_dbm")
            },
        }

    def limit_phrase(self, side: str, name: str) -> str:
        limit = self.limit(side, name)
        model = self.model_name(side)
        owner = f"the {model} minimum" if model and limit.provenance == "catalog" else "the minimum"
        return f"{owner} of {_fmt_dbm(limit.value)} ({limit.provenance})"


@dataclass
class _Neighbour:
    link_id: int
    name: str
    switch: str
    port: str
    direction: str
    rate: float
    first_seen: dt.datetime
    same_breakout_group: bool
    same_line_card: bool
    onset_close: bool | None
    rate_close: bool | None

    def as_dict(self) -> dict[str, Any]:
        return {
            "link": self.link_id,
            "name": self.name,
            "switch": self.switch,
            "port": self.port,
            "direction": self.direction,
            "rate": self.rate,
            "first_seen": self.first_seen.isoformat(),
            "same_breakout_group": self.same_breakout_group,
            "same_line_card": self.same_line_card,
            "onset_within_window": self.onset_close,
            "rate_within_ratio": self.rate_close,
        }


def _neighbours(ctx: _Context, side: str) -> list[_Neighbour]:
    """Links of `side`'s switch (other than this one) with an open corruption event; a link with
    both directions open appears once, with the direction closer to this one's onset."""
    switch = ctx.switch_of(side)
    port = ctx.port_of(side)
    size = int(ctx.config["breakout_group_size"])
    group, card = breakout_group(port, size), line_card(port)
    # Compared like with like: this link's opening rate against each neighbour's opening rate.
    own = ctx.events.get(ctx.direction)
    onset, rate = ctx.onset(), own.rate if own is not None else ctx.rate(ctx.direction)
    window = dt.timedelta(seconds=float(ctx.config["cluster_onset_window_s"]))
    ratio = float(ctx.config["cluster_rate_ratio"])
    events = (
        CorruptionEvent.objects.filter(ended_at__isnull=True)
        .filter(Q(link__a_switch=switch) | Q(link__z_switch=switch))
        .exclude(link=ctx.link)
        .select_related("link__a_switch", "link__z_switch")
        .order_by("link_id", "first_seen")
    )
    found: dict[int, _Neighbour] = {}
    for event in events:
        other = event.link
        other_port = other.a_port if other.a_switch_id == switch.pk else other.z_port
        onset_close = None if onset is None else abs(event.first_seen - onset) <= window
        rate_close = None
        if rate and event.rate:
            rate_close = max(rate, event.rate) / min(rate, event.rate) <= ratio
        neighbour = _Neighbour(
            link_id=other.pk,
            name=str(other),
            switch=switch.name,
            port=other_port,
            direction=event.direction,
            rate=event.rate,
            first_seen=event.first_seen,
            same_breakout_group=group is not None and breakout_group(other_port, size) == group,
            same_line_card=card is not None and line_card(other_port) == card,
            onset_close=onset_close,
            rate_close=rate_close,
        )
        if other.pk not in found or (onset_close and rate_close):
            found[other.pk] = neighbour
    return list(found.values())


def _config(overrides: Mapping[str, Any] | None) -> dict[str, Any]:
    breakout = {"breakout_group_size": django_settings.PHYSICAL_COMPONENTS["breakout_group_size"]}
    return {**breakout, **django_settings.CORRUPTION_RECOMMENDATION, **(overrides or {})}


def _reseat_evidence(ctx: _Context, steps: list[HistoryStep]) -> dict[str, Any]:
    """When the local transceiver was last reseated, and whether that counts as recent."""
    onset = ctx.onset()
    since = ctx.now - dt.timedelta(days=float(ctx.config["reseat_recent_days"]))
    times: list[tuple[dt.datetime, str]] = [
        (step.time, "history") for step in steps if step.action_taken == Action.RESEAT_TRANSCEIVER
    ]
    transceiver = ctx.transceivers.get(ctx.local)
    if transceiver is not None and transceiver.last_reseated_at is not None:
        times.append((transceiver.last_reseated_at, "transceiver"))
    last = max(times, default=None)
    recent = last is not None and (last[0] >= since or (onset is not None and last[0] >= onset))
    return {
        "last_reseated_at": last[0].isoformat() if last else None,
        "source": last[1] if last else None,
        "recent": recent,
        "episode_start": onset.isoformat() if onset else None,
        "window_days": ctx.config["reseat_recent_days"],
    }


def recommend(
    link: Link,
    direction: str,
    *,
    history: Iterable[HistoryStep | Mapping[str, Any]] = (),
    now: dt.datetime | None = None,
    settings: Mapping[str, Any] | None = None,
) -> Recommendation:
    """The repair for `direction` of `link` (see the module docstring for the rules)."""
    if direction not in Direction.values:
        raise ValueError(f"direction must be one of {', '.join(Direction.values)}, got {direction!r}")
    link = Link.objects.select_related("a_switch", "z_switch").get(pk=link.pk)
    ctx = _Context(link, direction, now or timezone.now(), _config(settings))
    steps = sorted((HistoryStep.of(step) for step in history), key=lambda step: step.time)
    failed = {step.action_taken for step in steps if step.failed}
    reseat = _reseat_evidence(ctx, steps)
    neighbours = {side: _neighbours(ctx, side) for side in (ctx.local, ctx.far)}
    onset = ctx.onset()

    evidence: dict[str, Any] = {
        "link": {"id": link.pk, "name": str(link), "fabric": link.fabric_id},
        "direction": direction,
        "local_end": ctx.local,
        "far_end": ctx.far,
        "rates": {
            "this": ctx.rate(direction),
            "opposite": ctx.rate(ctx.opposite),
            "opposite_corrupting": ctx.corrupting(ctx.opposite),
            "onset": onset.isoformat() if onset else None,
        },
        "optics": {"local": ctx.optics_evidence(ctx.local), "far": ctx.optics_evidence(ctx.far)},
        "has_optical_data": ctx.has_optics(),
        "neighbours": [
            {
                "end": side,
                "switch": ctx.switch_of(side).name,
                "port": ctx.port_of(side),
                "links": [n.as_dict() for n in neighbours[side]],
            }
            for side in (ctx.local, ctx.far)
        ],
        "reseat": reseat,
        "history": [step.as_dict() for step in steps],
        "failed_actions": sorted(str(action) for action in failed if action),
        "settings": dict(ctx.config),
    }

    action, rule, explanation = _algorithm(ctx, neighbours, reseat["recent"], failed, skip_shared=False)
    if action in failed:
        action, rule, explanation = _escalate(ctx, action, neighbours, reseat["recent"], failed)
    return Recommendation(action, rule, explanation, evidence)


def _algorithm(
    ctx: _Context,
    neighbours: dict[str, list[_Neighbour]],
    reseated_recently: bool,
    failed: set[str | None],
    *,
    skip_shared: bool,
) -> tuple[Action, str, str]:
    """Algorithm 1 as written; returns (action, rule id, explanation)."""
    if not skip_shared:
        shared = _shared_component(ctx, neighbours)
        if shared is not None:
            return shared
    if ctx.corrupting(ctx.opposite):
        return (
            Action.REPLACE_CABLE,
            "opposite_direction",
            f"Both directions corrupt ({ctx.direction} {_fmt_rate(ctx.rate(ctx.direction))}, "
            f"{ctx.opposite} {_fmt_rate(ctx.rate(ctx.opposite))}): replace the cable.",
        )
    if not ctx.has_optics():
        return _generic_sequence(ctx, reseated_recently, failed)
    local, far = ctx.local.upper(), ctx.far.upper()
    if ctx.tx_low(ctx.far):
        return (
            Action.REPLACE_FAR_TRANSCEIVER,
            "far_tx_low",
            f"Tx at {far} is {_fmt_dbm(ctx.tx(ctx.far))}, at or below "
            f"{ctx.limit_phrase(ctx.far, 'output_power_lower_dbm')}: "
            f"replace the transceiver at {far} ({ctx.end_name(ctx.far)}).",
        )
    if ctx.rx_low(ctx.local) and ctx.rx_low(ctx.far):
        return (
            Action.REPLACE_CABLE,
            "both_rx_low",
            f"Rx is low at both ends ({local} {_fmt_dbm(ctx.rx(ctx.local))}, {far} {_fmt_dbm(ctx.rx(ctx.far))}, "
            f"below {ctx.limit_phrase(ctx.local, 'input_power_lower_dbm')}): replace the cable.",
        )
    if ctx.rx_low(ctx.local):
        return (
            Action.CLEAN_FIBER,
            "local_rx_low",
            f"Rx at {local} is {_fmt_dbm(ctx.rx(ctx.local))}, below "
            f"{ctx.limit_phrase(ctx.local, 'input_power_lower_dbm')}: clean both ends of the fiber.",
        )
    return _reseat_or_replace(ctx, reseated_recently, "Optical powers are within their limits")


def _reseat_or_replace(ctx: _Context, reseated_recently: bool, why: str) -> tuple[Action, str, str]:
    where = f"the transceiver at {ctx.local.upper()} ({ctx.end_name(ctx.local)})"
    if reseated_recently:
        return (
            Action.REPLACE_TRANSCEIVER,
            "reseated_recently",
            f"{why} and {where} was reseated recently: replace it.",
        )
    return Action.RESEAT_TRANSCEIVER, "reseat", f"{why} and {where} was not reseated recently: reseat it."


def _generic_sequence(ctx: _Context, reseated_recently: bool, failed: set[str | None]) -> tuple[Action, str, str]:
    """Clean, then reseat, then replace, when no optical reading tells them apart (§6.13)."""
    why = "No optical readings for this link"
    if Action.CLEAN_FIBER not in failed:
        return (
            Action.CLEAN_FIBER,
            "no_optical_data",
            f"{why}: start the generic sequence, clean both ends of the fiber.",
        )
    action, _, explanation = _reseat_or_replace(ctx, reseated_recently or Action.RESEAT_TRANSCEIVER in failed, why)
    return action, "no_optical_data", explanation


def _shared_component(ctx: _Context, neighbours: dict[str, list[_Neighbour]]) -> tuple[Action, str, str] | None:
    for side in (ctx.local, ctx.far):
        mates = [n for n in neighbours[side] if n.same_breakout_group]
        if mates:
            ports = ", ".join(sorted(n.port for n in mates))
            return (
                Action.REPLACE_SHARED_COMPONENT,
                "shared_component.breakout",
                f"{ctx.switch_of(side).name} {ports} in the breakout group of {ctx.port_of(side)} also corrupt: "
                "replace the breakout cable or move the links to free ports.",
            )
    for side in (ctx.local, ctx.far):
        cluster = [n for n in neighbours[side] if n.onset_close and n.rate_close]
        if len(cluster) >= int(ctx.config["cluster_min_links"]):
            window_min = float(ctx.config["cluster_onset_window_s"]) / 60
            return (
                Action.REPLACE_SHARED_COMPONENT,
                "shared_component.cluster",
                f"{len(cluster)} other links on {ctx.switch_of(side).name} started corrupting within "
                f"{window_min:g} min of this one at rates within {ctx.config['cluster_rate_ratio']:g}x: "
                "replace the shared component (line card or switch).",
            )
    return None


def _escalate(
    ctx: _Context,
    action: Action,
    neighbours: dict[str, list[_Neighbour]],
    reseated_recently: bool,
    failed: set[str | None],
) -> tuple[Action, str, str]:
    """Walk the escalation table from a failed `action` to one not yet tried and failed."""
    seen = {action}
    while True:
        if action == Action.REPLACE_SHARED_COMPONENT:
            nxt, _, why = _algorithm(ctx, neighbours, reseated_recently, failed, skip_shared=True)
        else:
            nxt = _next_action(ctx, action, reseated_recently)
            why = ""
        if nxt in seen:
            return (
                Action.REPLACE_SHARED_COMPONENT,
                "escalation.exhausted",
                f"Every repair tried so far ({', '.join(sorted(str(a) for a in failed if a))}) failed: "
                "rewire the link to free ports or replace the switch.",
            )
        seen.add(nxt)
        if nxt not in failed:
            explanation = (
                f"{_LABELS[action]} was done and corruption returned: {_LABELS[nxt].lower()} next "
                f"({_target(ctx, nxt)})."
            )
            if why:
                explanation = f"{_LABELS[action]} was done and corruption returned; {why[0].lower()}{why[1:]}"
            return nxt, f"escalation.{action}", explanation
        action = nxt


def _next_action(ctx: _Context, failed_action: Action, reseated_recently: bool) -> Action:
    if failed_action == Action.CLEAN_FIBER:
        both_low = ctx.rx_low(ctx.local) and ctx.rx_low(ctx.far)
        return Action.REPLACE_CABLE if both_low else Action.RESEAT_TRANSCEIVER
    if failed_action == Action.RESEAT_TRANSCEIVER:
        return Action.REPLACE_TRANSCEIVER
    if failed_action == Action.REPLACE_TRANSCEIVER:
        return Action.REPLACE_CABLE if ctx.rx_low(ctx.local) else Action.REPLACE_FAR_TRANSCEIVER
    if failed_action == Action.REPLACE_FAR_TRANSCEIVER:
        return Action.REPLACE_CABLE
    # REPLACE_CABLE: back to the transceiver, reseat first unless that was just done.
    return Action.REPLACE_TRANSCEIVER if reseated_recently else Action.RESEAT_TRANSCEIVER


def _target(ctx: _Context, action: Action) -> str:
    if action == Action.REPLACE_FAR_TRANSCEIVER:
        return f"{ctx.far.upper()}, {ctx.end_name(ctx.far)}"
    if action in (Action.RESEAT_TRANSCEIVER, Action.REPLACE_TRANSCEIVER, Action.CLEAN_FIBER):
        return f"{ctx.local.upper()}, {ctx.end_name(ctx.local)}"
    return str(ctx.link)


_LABELS = {
    Action.REPLACE_SHARED_COMPONENT: "Replacing the shared component",
    Action.REPLACE_CABLE: "Replacing the cable",
    Action.REPLACE_FAR_TRANSCEIVER: "Replacing the far transceiver",
    Action.CLEAN_FIBER: "Cleaning the fiber",
    Action.RESEAT_TRANSCEIVER: "Reseating the transceiver",
    Action.REPLACE_TRANSCEIVER: "Replacing the transceiver",
}
