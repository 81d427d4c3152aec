"""What links share physically: breakout groups, cables, line cards and transceivers.

A link names what it shares (`Link.breakout`, `cable_id`, `a_line_card`, `z_line_card`), or the
rule in `settings.PHYSICAL_COMPONENTS` says:

- breakout group: an explicit label groups the fabric's links that carry it. By the rule, a port
  matching `breakout_ports` belongs to the group of ports (n - 1) // `breakout_group_size` of its
  prefix on its switch (eth2/1-eth2/4); a link takes its A (lower-tier) port's group, else its Z
  port's. The side whose switch every link of the group shares holds the breakout transceiver.
- cable: an explicit `cable_id` (a cable or a patch-panel trunk) groups the links that carry it;
  otherwise a link in a breakout group rides its breakout cable, and any other link its own cable.
- line card per side: explicit, or the port prefix before the last '/' (eth2/1 -> eth2).
- transceiver per side: the link's own, or the group's breakout transceiver on the breakout side.

Each component has a key, unique within a fabric; `resolve` answers every asked link's keys and,
for each key, the links sharing it, in two queries (one for a whole fabric).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.db.models import F

from ..models import Link, Switch

PORT_NUMBER = re.compile(r"^(?P<prefix>.*?)(?P<number>\d+)$")
SIDES = ("a", "z")
_ROW = ("id", "fabric_id", "a_switch_id", "a_port", "z_switch_id", "z_port", "breakout", "cable_id",
        "a_line_card", "z_line_card", "a_switch__name", "z_switch__name")  # fmt: skip


def breakout_group(port: str, size: int) -> tuple[str, int] | None:
    """(prefix, group index) of a port, e.g. eth1/6 -> ("eth1/", 1) for size 4; None without a number."""
    match = PORT_NUMBER.match(port)
    if match is None:
        return None
    return match["prefix"], (int(match["number"]) - 1) // size


def line_card(port: str) -> str | None:
    """The port prefix before the last '/', e.g. eth1/6 -> eth1."""
    return port.rsplit("/", 1)[0] if "/" in port else None


class Rule:
    """The settings' rule, compiled once per resolution."""

    def __init__(self, size: int, ports: str) -> None:
        self.size = size
        self.ports = re.compile(ports)
        # Ports repeat across switches (eth1/1 on every one): each distinct name is parsed once.
        self.group_of = lru_cache(maxsize=65536)(self._group_of)

    @classmethod
    def from_settings(cls) -> Rule:
        config: dict[str, Any] = settings.PHYSICAL_COMPONENTS
        return cls(int(config["breakout_group_size"]), str(config["breakout_ports"]))

    def _group_of(self, port: str) -> str | None:
        """A breakout port's group as "<prefix><first>-<last>" (eth2/1-4), None for a port that is not one."""
        if self.ports.fullmatch(port) is None:
            return None
        group = breakout_group(port, self.size)
        if group is None:
            return None
        prefix, index = group
        return f"{prefix}{index * self.size + 1}-{(index + 1) * self.size}"

    def breakout_key(self, row: tuple) -> tuple[str | None, str, str | None]:
        """(key, label without the switch's name, side) of a link row (_ROW's order)."""
        _, _, a_switch, a_port, z_switch, z_port, breakout = row[:7]
        if breakout:
            return f"breakout:{breakout}", breakout, None
        group = self.group_of(a_port)
        if group is not None:
            return f"breakout@{a_switch}:{group}", group, "a"
        group = self.group_of(z_port)
        if group is not None:
            return f"breakout@{z_switch}:{group}", group, "z"
        return None, "", None


@dataclass(slots=True)
class LinkComponents:
    """One link's components: keys (unique within its fabric) and what a person reads."""

    link: int
    breakout: str | None
    breakout_label: str
    breakout_explicit: bool
    breakout_side: str | None  # the side holding the breakout transceiver
    cable: str
    cable_id: str
    line_cards: dict[str, str | None]  # side -> name
    line_card_keys: dict[str, str | None]
    transceivers: dict[str, str]  # side -> key


class Components:
    """What `resolve` found: the asked links' components, and the links sharing each breakout
    group, cable and line card of theirs (a transceiver is the link's own, or its breakout group's
    on the breakout side)."""

    def __init__(self, rows: dict[int, tuple], asked: set[int], rule: Rule, explicit_sides: dict[str, str | None],
                 members: dict[str, list[int]], switch_names: dict[int, str]) -> None:  # fmt: skip
        self._rows = rows
        self.asked = asked
        self._rule = rule
        self._explicit_sides = explicit_sides
        self.members = members
        self.switch_names = switch_names

    def name(self, link_id: int) -> str:
        """a_switch:a_port - z_switch:z_port, as Link's str()."""
        _, _, a_switch, a_port, z_switch, z_port = self._rows[link_id][:6]
        return f"{self.switch_names[a_switch]}:{a_port} - {self.switch_names[z_switch]}:{z_port}"

    def of(self, link_id: int) -> LinkComponents:
        row = self._rows[link_id]
        _, _, a_switch, a_port, z_switch, z_port, _, cable_id, a_card, z_card = row[:10]
        breakout, label, side = self._rule.breakout_key(row)
        explicit = breakout is not None and side is None
        if breakout is not None and explicit:
            side = self._explicit_sides[breakout]
        elif breakout is not None:
            label = f"{self.switch_names[a_switch if side == 'a' else z_switch]} {label}"
        cards = {"a": a_card or line_card(a_port), "z": z_card or line_card(z_port)}
        return LinkComponents(
            link=link_id,
            breakout=breakout,
            breakout_label=label,
            breakout_explicit=explicit,
            breakout_side=side,
            cable=f"cable:{cable_id}" if cable_id else (breakout or f"link:{link_id}"),
            cable_id=cable_id,
            line_cards=cards,
            line_card_keys={
                "a": f"linecard@{a_switch}:{cards['a']}" if cards["a"] else None,
                "z": f"linecard@{z_switch}:{cards['z']}" if cards["z"] else None,
            },
            transceivers={s: f"transceiver@{breakout}" if side == s else f"transceiver@{link_id}:{s}" for s in SIDES},
        )

    @property
    def links(self) -> dict[int, LinkComponents]:
        return {link_id: self.of(link_id) for link_id in sorted(self.asked)}

    def sharing(self, key: str | None) -> list[int]:
        """The links sharing a component key of an asked link (sorted by id)."""
        if not key:
            return []
        if key in self.members:
            return list(self.members[key])
        if key.startswith("link:"):
            return [int(key[5:])]
        if key.startswith("transceiver@breakout"):
            return self.sharing(key[len("transceiver@") :])
        if key.startswith("transceiver@"):
            return [int(key[len("transceiver@") :].split(":")[0])]
        return []

    def siblings(self, link_id: int, key: str | None) -> list[int]:
        """The other links sharing `key` with `link_id`."""
        return [other for other in self.sharing(key) if other != link_id]


def resolve(
    link_ids: Iterable[int] | None = None,
    *,
    fabric_id: int | None = None,
    rule: Rule | None = None,
    line_cards: bool = False,
) -> Components:
    """The components of the given links (or of every link of `fabric_id`), and for each of their
    breakout groups and cables (and line cards, when asked: a switch's every link) the links
    sharing it. One query for a fabric; two for a set of links (the links, then every link that
    could share a group or cable with them: same breakout-side switch, same labels), which also
    name the links."""
    rule = rule or Rule.from_settings()
    base = Link.objects.order_by("id")
    if link_ids is None:
        if fabric_id is None:
            raise ValueError("resolve needs link ids or a fabric")
        rows = list(base.filter(fabric_id=fabric_id).values_list(*_ROW[:10]))
        asked = {row[0] for row in rows}
        switch_names = dict(Switch.objects.filter(fabric_id=fabric_id).values_list("id", "name"))
    else:
        asked_rows = list(base.filter(pk__in=set(link_ids)).values_list(*_ROW[:10]))
        asked = {row[0] for row in asked_rows}
        rows = _candidates(base, asked_rows, rule, line_cards) if asked_rows else []
        switch_names = {row[2]: row[10] for row in rows} | {row[4]: row[11] for row in rows}
    return _resolve(rows, asked, rule, switch_names, line_cards)


def _candidates(base, asked_rows: list[tuple], rule: Rule, line_cards: bool) -> list[tuple]:
    """Every link that can share a breakout group or cable (or, asked, a line card) with one of
    `asked_rows`: the links of the switch whose port is split, or of both ends' switches for line
    cards, and those carrying the same explicit labels."""
    switches: set[int] = set()
    labels: dict[int, tuple[set[str], set[str]]] = defaultdict(lambda: (set(), set()))
    for row in asked_rows:
        breakouts, cables = labels[row[1]]
        if row[6]:
            breakouts.add(row[6])
        elif line_cards or rule.group_of(row[3]) is not None:
            switches.add(row[2])
        if line_cards or (not row[6] and rule.group_of(row[3]) is None and rule.group_of(row[5]) is not None):
            switches.add(row[4])
        if row[7]:
            cables.add(row[7])
    # A UNION, each part by its own index (an OR of them scans the table).
    parts = [base.filter(pk__in=[row[0] for row in asked_rows])]
    if switches:
        parts += [base.filter(a_switch_id__in=switches), base.filter(z_switch_id__in=switches)]
    for fabric_id, (breakouts, cables) in labels.items():
        if breakouts:
            parts.append(base.filter(fabric_id=fabric_id, breakout__in=breakouts))
        if cables:
            parts.append(base.filter(fabric_id=fabric_id, cable_id__in=cables))
    columns = [column.replace("__", "_") for column in _ROW]
    named = [
        part.order_by()
        .annotate(a_switch_name=F("a_switch__name"), z_switch_name=F("z_switch__name"))
        .values_list(*columns)
        for part in parts
    ]
    return sorted(named[0].union(*named[1:]))


def _resolve(
    rows: list[tuple], asked: set[int], rule: Rule, switch_names: dict[int, str], line_cards: bool
) -> Components:
    members: dict[str, list[int]] = defaultdict(list)
    explicit_switches: dict[str, tuple[set[int], set[int]]] = {}
    group_of = rule.group_of
    for row in rows:
        link_id, _, a_switch, a_port, z_switch, z_port, breakout, cable_id, a_card, z_card = row[:10]
        # Rule.breakout_key, inlined: this loop is the cost of resolving a 100K-link fabric.
        if breakout:
            key = f"breakout:{breakout}"
            members[key].append(link_id)
            a_switches, z_switches = explicit_switches.setdefault(key, (set(), set()))
            a_switches.add(a_switch)
            z_switches.add(z_switch)
        elif (group := group_of(a_port)) is not None:
            members[f"breakout@{a_switch}:{group}"].append(link_id)
        elif (group := group_of(z_port)) is not None:
            members[f"breakout@{z_switch}:{group}"].append(link_id)
        if cable_id:
            members[f"cable:{cable_id}"].append(link_id)
        if line_cards:
            a_card = a_card or line_card(a_port)
            z_card = z_card or line_card(z_port)
            if a_card:
                members[f"linecard@{a_switch}:{a_card}"].append(link_id)
            if z_card:
                members[f"linecard@{z_switch}:{z_card}"].append(link_id)
    # An explicit group's transceiver side is the one whose switch all its links share.
    sides = {
        key: "a" if len(a_switches) == 1 else "z" if len(z_switches) == 1 else None
        for key, (a_switches, z_switches) in explicit_switches.items()
    }
    return Components({row[0]: row for row in rows}, asked, rule, sides, dict(members), switch_names)
