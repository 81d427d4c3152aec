"""The footprint of a repair: the links out of service while it is done, its duration and chance
of success (issue #18, "Physical components and footprints"; settings MAINTENANCE).

    clean_fiber                          that link
    reseat / replace a transceiver       every link through it: one, or on a breakout transceiver
    (near end, or replace the far one)   the breakout group on that side
    replace_cable                        every link on the cable, breakout siblings included
    replace_shared_component             every link on it: the breakout group when the rule blamed
                                         the breakout, else the line card where the links corrupt

"Near" is the end that sees the corruption (recommend.py: for a_to_z the local end is Z).

Where the work is (`Repair.side`, an end of the ticket's link): a transceiver's end (the far end
for replace_far_transceiver), a line card's switch; a cable or a fiber has both ends worked on
(`both_ends`), located at the end whose switch holds the shared part (a breakout cable's breakout
side), else the near end.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from corruption.recommend import Action
from fabric.services import components

# Broadest first: when repairs share links, the visit does the broadest one (a new cable makes a
# fiber cleaning of the same links moot, not the other way round).
BREADTH = [
    Action.REPLACE_SHARED_COMPONENT,
    Action.REPLACE_CABLE,
    Action.REPLACE_TRANSCEIVER,
    Action.REPLACE_FAR_TRANSCEIVER,
    Action.RESEAT_TRANSCEIVER,
    Action.CLEAN_FIBER,
]
TRANSCEIVER_ACTIONS = {Action.RESEAT_TRANSCEIVER, Action.REPLACE_TRANSCEIVER, Action.REPLACE_FAR_TRANSCEIVER}


@dataclass(frozen=True)
class Repair:
    """One ticket's recommended repair, as a visit sees it."""

    ticket: int
    link: int
    action: Action
    component: str  # key, unique in the fabric
    component_name: str
    footprint: frozenset[int]
    side: str  # the end of `link` where the work is (module docstring)
    both_ends: bool = False  # a cable or fiber: its other end is worked on too

    @property
    def duration_s(self) -> int:
        return duration_s(self.action)


@dataclass(frozen=True)
class StepAdvice:
    """What footprints read of a ticket's newest step."""

    ticket: int
    link: int
    direction: str
    action: str
    rule: str
    evidence: dict[str, Any]


def config() -> dict[str, Any]:
    return settings.MAINTENANCE


def duration_s(action: str) -> int:
    return int(config()["duration_s"][str(action)])


def success_chance(followed: bool = True) -> float:
    """The seed's measured accuracy: 80% when the recommendation is followed, 50% otherwise."""
    return float(config()["success_followed" if followed else "success_not_followed"])


def _local(direction: str) -> str:
    return "z" if direction == "a_to_z" else "a"


def _cluster_side(advice: StepAdvice) -> str:
    """The end whose switch holds the links that corrupt together (the rule's evidence), else
    the near end."""
    best, side = 0, _local(advice.direction)
    for entry in advice.evidence.get("neighbours", []):
        close = sum(1 for n in entry.get("links", []) if n.get("onset_within_window") and n.get("rate_within_ratio"))
        if close > best and entry.get("end") in components.SIDES:
            best, side = close, entry["end"]
    return side


def needs_line_cards(advice: StepAdvice) -> bool:
    return advice.action == Action.REPLACE_SHARED_COMPONENT and not _breakout_rule(advice)


def _breakout_rule(advice: StepAdvice) -> bool:
    return advice.rule == "shared_component.breakout"


def repair_of(advice: StepAdvice, found: components.Components) -> Repair:
    """The repair `advice` asks for, with its footprint from `found` (resolved for its link, with
    line cards when `needs_line_cards`)."""
    link = found.of(advice.link)
    name = found.name(advice.link)
    action = Action(advice.action)

    near = _local(advice.direction)

    def repair(key: str, component_name: str, links: Iterable[int], side: str, both_ends: bool = False) -> Repair:
        footprint = frozenset(links) | {advice.link}
        return Repair(advice.ticket, advice.link, action, key, component_name, footprint, side, both_ends)

    if action in TRANSCEIVER_ACTIONS:
        side = near
        if action == Action.REPLACE_FAR_TRANSCEIVER:
            side = "a" if side == "z" else "z"
        key = link.transceivers[side]
        end = name.split(" - ")[0 if side == "a" else 1]
        shared = link.breakout_side == side
        label = f"breakout transceiver {link.breakout_label}" if shared else f"transceiver at {end}"
        return repair(key, label, found.sharing(key), side)
    if action == Action.REPLACE_CABLE or (action == Action.REPLACE_SHARED_COMPONENT and _breakout_rule(advice)):
        on_cable = set(found.sharing(link.cable)) | set(found.sharing(link.breakout))
        if link.cable_id:
            label = f"cable {link.cable_id}"
        elif link.breakout:
            label = f"breakout cable {link.breakout_label}"
        else:
            label = f"cable of {name}"
        return repair(link.cable, label, on_cable, link.breakout_side or near, both_ends=True)
    if action == Action.REPLACE_SHARED_COMPONENT:
        side = _cluster_side(advice)
        card_key = link.line_card_keys[side]
        if card_key is None:  # a port without a card (no '/', none named): nothing known shares it
            return repair(f"link:{advice.link}", f"switch end of {name}", [advice.link], side)
        end = name.split(" - ")[0 if side == "a" else 1]
        switch = end.rsplit(":", 1)[0]
        return repair(card_key, f"line card {switch} {link.line_cards[side]}", found.sharing(card_key), side)
    return repair(f"fiber@{advice.link}", f"fiber of {name}", [advice.link], near, both_ends=True)


def repairs(advices: list[StepAdvice]) -> list[Repair]:
    """Each advice's repair, resolved set-based: one resolution for all their links (and one
    with line cards for those that need them)."""
    plain = [advice for advice in advices if not needs_line_cards(advice)]
    carded = [advice for advice in advices if needs_line_cards(advice)]
    found: list[Repair] = []
    for group, line_cards in ((plain, False), (carded, True)):
        if group:
            resolved = components.resolve([advice.link for advice in group], line_cards=line_cards)
            found += [repair_of(advice, resolved) for advice in group]
    return sorted(found, key=lambda repair: repair.ticket)
