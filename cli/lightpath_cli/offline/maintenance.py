"""`lightpath tickets plan --fabric-file`: the maintenance planner on a fabric document and ORDERS.json.

ORDERS.json (cli/README.md, "Planning maintenance offline"):
    {"work_orders": [{"id": 1, "links": ["p1-tor5:eth2/1 - p1-fab0:eth1/5", 12, ["a", "a_port", "b", "b_port"]],
                      "duration_s": 7200, "success_probability": 0.8, "penalty_rate": 2.5,
                      "rack": "p1-rack5", "row": "p1",
                      "restoration": {"links": [...], "penalty_rate": 0.4}}],
     "travel": {"same_rack_s": 0, "same_row_s": 120, "elsewhere_s": 600}}
A work order's location defaults to the rack of its first link's lower switch (the switch's name when it
has no rack) and the row to that switch's pod, else the rack name before its last '-', as the server does.
Links are named `a:a_port - b:b_port` in the answer, as the server names them.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import CliError, UsageError
from .engine import load_engine
from .fabric import Fabric, load_fabric
from .files import read_document_file, read_json_file

TRAVEL_KEYS = ("same_rack_s", "same_row_s", "elsewhere_s")
ORDER_KEYS = {
    "id",
    "links",
    "duration_s",
    "success_probability",
    "penalty_rate",
    "rack",
    "row",
    "restoration",
}


@dataclass
class PlanInput:
    fabric: Fabric
    orders: list[dict[str, Any]]  # the engine's work orders (link indices, rack and row numbers)
    travel: tuple[int, int, int] | None
    link_names: list[str]  # `a:a_port - b:b_port` by link index, the server's shape


def link_display_names(links: list[dict[str, Any]]) -> list[str]:
    """Each document link as the server names links (`a:a_port - b:b_port`)."""
    return [f"{link.get('a')}:{link.get('a_port')} - {link.get('b')}:{link.get('b_port')}" for link in links]


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


class _Reader:
    """Reads ORDERS.json against the fabric, collecting every problem (reported as one line)."""

    def __init__(self, fabric: Fabric, switches: list[dict[str, Any]], names: list[str]) -> None:
        self.fabric = fabric
        self.switches = switches
        self.names = names
        self.problems: list[str] = []
        self.racks: dict[str, int] = {}
        self.rows: dict[str, int] = {}

    def link(self, where: str, ref: Any) -> int | None:
        index: int | None = None
        if _whole(ref):
            index = ref if ref < len(self.fabric.link_names) else None
        elif isinstance(ref, str):  # the document's `a:port-b:port` or the server's `a:port - b:port`
            index = self.fabric.resolve_link(ref.replace(" - ", "-"))
        elif isinstance(ref, list) and len(ref) == 4 and all(isinstance(part, str) for part in ref):
            a, a_port, b, b_port = ref
            index = self.fabric.link_ids.get(f"{a}:{a_port}-{b}:{b_port}")
        else:
            self.problems.append(f"{where}: a link is a name 'a:a_port-b:b_port', an index or [a, a_port, b, b_port]")
            return None
        if index is None:
            self.problems.append(f"{where}: no link {ref!r} in {self.fabric.file}")
        return index

    def links(self, where: str, refs: Any) -> list[int]:
        if not isinstance(refs, list) or not refs:
            self.problems.append(f"{where}: must be a non-empty list of links")
            return []
        found: list[int] = []
        for i, ref in enumerate(refs):
            index = self.link(f"{where}[{i}]", ref)
            if index in found:
                self.problems.append(f"{where}[{i}]: {self.names[index]} is named twice")
            elif index is not None:
                found.append(index)
        return found

    def restoration(self, where: str, restoration: Any, footprint: list[int]) -> dict[str, Any] | None:
        if not isinstance(restoration, dict):
            self.problems.append(f"{where}: must be {{'links': [...], 'penalty_rate': number}}")
            return None
        for key in sorted(set(restoration) - {"links", "penalty_rate"}):
            self.problems.append(f"{where}: unknown field {key!r}")
        links = self.links(f"{where}.links", restoration.get("links"))
        for i, index in enumerate(links):
            if index in footprint:
                self.problems.append(f"{where}.links[{i}]: {self.names[index]} is in the footprint")
            elif self.fabric.states[index] != "disabled":
                self.problems.append(
                    f"{where}.links[{i}]: {self.names[index]} is {self.fabric.states[index]}, not disabled: "
                    "a restoration enables links disabled now"
                )
        rate: Any = restoration.get("penalty_rate")
        if not _number(rate) or rate < 0:
            self.problems.append(f"{where}.penalty_rate: must be a number, at least 0")
        return {"links": links, "penalty_rate": rate}

    def location(self, where: str, order: dict[str, Any], footprint: list[int]) -> tuple[int, int]:
        rack, row = order.get("rack"), order.get("row")
        for key, value in (("rack", rack), ("row", row)):
            if value is not None and not isinstance(value, str | int):
                self.problems.append(f"{where}.{key}: must be a name")
        if footprint and (rack is None or row is None):
            switch = self.switches[self.fabric.link_lower[footprint[0]]]
            switch_rack = str(switch.get("rack") or switch["name"])
            rack = switch_rack if rack is None else rack
            if row is None:
                # The server's one row rule, from the engine (pods are integers in the document).
                pod = switch.get("pod")
                row = load_engine().maintenance_row(switch_rack, pod if _whole(pod) else None)
        rack_id = self.racks.setdefault(str(rack), len(self.racks))
        row_id = self.rows.setdefault(str(row), len(self.rows))
        return rack_id, row_id

    def order(self, position: int, order: Any) -> dict[str, Any] | None:
        where = f"work_orders[{position}]"
        if not isinstance(order, dict):
            self.problems.append(f"{where}: must be an object")
            return None
        for key in sorted(set(order) - ORDER_KEYS):
            self.problems.append(f"{where}: unknown field {key!r}")
        for key in ("id", "links", "duration_s", "success_probability", "penalty_rate"):
            if key not in order:
                self.problems.append(f"{where}: {key} is missing")
        for key in ("id", "duration_s"):
            if key in order and not _whole(order[key]):
                self.problems.append(f"{where}.{key}: must be a non-negative integer")
        if _whole(order.get("duration_s")) and order["duration_s"] < 1:
            self.problems.append(f"{where}.duration_s: must be at least 1 (seconds)")
        for key in ("success_probability", "penalty_rate"):
            if key in order and not _number(order[key]):
                self.problems.append(f"{where}.{key}: must be a number")
        chance: Any = order.get("success_probability")
        if _number(chance) and not 0 <= chance <= 1:
            self.problems.append(f"{where}.success_probability: must be between 0 and 1, not {chance}")
        rate: Any = order.get("penalty_rate")
        if _number(rate) and rate < 0:
            self.problems.append(f"{where}.penalty_rate: must be at least 0, not {rate}")
        footprint = self.links(f"{where}.links", order.get("links")) if "links" in order else []
        rack, row = self.location(where, order, footprint)
        restoration = order.get("restoration")
        restored = None if restoration is None else self.restoration(f"{where}.restoration", restoration, footprint)
        return {
            "id": order.get("id"),
            "footprint": footprint,
            "duration_s": order.get("duration_s"),
            "success_probability": order.get("success_probability"),
            "penalty_rate": order.get("penalty_rate"),
            "rack": rack,
            "row": row,
            "restoration": restored,
        }

    def travel(self, travel: Any) -> tuple[int, int, int] | None:
        if travel is None:
            return None
        if not isinstance(travel, dict):
            self.problems.append("travel: must be an object with " + ", ".join(TRAVEL_KEYS))
            return None
        for key in sorted(set(travel) - set(TRAVEL_KEYS)):
            self.problems.append(f"travel: unknown field {key!r}")
        values = [travel.get(key, 0) for key in TRAVEL_KEYS]
        for key, value in zip(TRAVEL_KEYS, values, strict=True):
            if not _whole(value):
                self.problems.append(f"travel.{key}: must be a non-negative integer")
        return (values[0], values[1], values[2]) if all(_whole(v) for v in values) else None


def read_plan_input(fabric_path: Path, orders_path: Path) -> PlanInput:
    if orders_path.suffix.lower() != ".json" and str(orders_path) != "-":
        # A spreadsheet export would fail as JSON with a puzzling position: say what the file must be.
        raise UsageError(f"{orders_path}: the work orders file must be JSON (ORDERS.json, format in cli/README.md)")
    fabric = load_fabric(fabric_path)
    document = read_document_file(str(fabric_path))
    names = link_display_names(document["links"])
    doc = read_json_file(str(orders_path))
    if not isinstance(doc, dict) or not isinstance(doc.get("work_orders"), list):
        raise CliError(f'{orders_path}: expected an object with work_orders, {{"work_orders": [...]}}')
    reader = _Reader(fabric, document["switches"], names)
    for key in sorted(set(doc) - {"work_orders", "travel"}):
        reader.problems.append(f"unknown field {key!r}")
    orders = [reader.order(i, order) for i, order in enumerate(doc["work_orders"])]
    travel = reader.travel(doc.get("travel"))
    if reader.problems:
        raise CliError(f"{orders_path}: " + "; ".join(reader.problems))
    return PlanInput(fabric, [order for order in orders if order is not None], travel, names)


def plan_offline(plan_input: PlanInput, technicians: int, shift_s: int, time_budget_s: float | None) -> dict[str, Any]:
    """The planner's answer with link names (`a:a_port - b:b_port`) instead of indices; the engine says
    why each order left for later waits (left_for_later)."""
    engine = load_engine()
    fabric = plan_input.fabric
    session = engine.CorrOptSession(fabric.graph, fabric.states, capacity=fabric.capacity, overrides=fabric.overrides)
    names = plan_input.link_names
    try:
        result: dict[str, Any] = engine.maintenance_plan(
            session,
            plan_input.orders,
            technicians,
            shift_s,
            travel=plan_input.travel,
            time_budget_s=time_budget_s,
        )
    except ValueError as exc:
        raise CliError(_named(str(exc), names)) from exc
    for visit in result["visits"]:
        visit["links_down"] = [names[link] for link in visit["links_down"]]
        visit["restored"] = [names[link] for link in visit["restored"]]
    return result


def _named(message: str, names: list[str]) -> str:
    """An engine message with link indices as names and its state words as the product writes them
    (its checks run after ours, so this is a safety net)."""
    message = re.sub(
        r"\blink (\d+)\b", lambda m: f"link {names[int(m[1])]}" if int(m[1]) < len(names) else m[0], message
    )
    return re.sub(r"\bis (Enabled|Disabled|Down)\b", lambda m: f"is {m[1].lower()}", message)


def plain_number(value: float) -> str:
    """A total as people write it: 1,310.4, 80, 2.25, 0.00464 (no exponent)."""
    if value == 0 or not math.isfinite(value):
        return f"{value:g}"
    size = abs(value)
    decimals = 1 if size >= 100 else 2 if size >= 1 else 2 - math.floor(math.log10(size))
    text = f"{value:,.{decimals}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text
