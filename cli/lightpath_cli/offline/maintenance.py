"""`lightpath tickets plan --fabric-file`: the maintenance planner on a fabric document and ORDERS.json.

ORDERS.json (cli/README.md, "Planning maintenance offline"):
    {"work_orders": [{"id": 1, "links": ["p1-tor5:eth2/1-p1-fab0:eth1/5", 12, ["a", "a_port", "b", "b_port"]],
                      "duration_s": 7200, "success_probability": 0.8, "penalty_rate": 2.5,
                      "rack": "p1-rack5", "row": "p1",
                      "restoration": {"links": [...], "penalty_rate": 0.4}}],
     "travel": {"same_rack_s": 0, "same_row_s": 120, "elsewhere_s": 600}}
A work order's location defaults to the rack of its first link's lower switch (the switch's name when it
has no rack) and the row to that switch's pod, else the rack name before its last '-', as the server does.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import CliError
from .engine import load_engine
from .fabric import Fabric, load_fabric
from .files import read_document_file

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


def row_of(rack: str, pod: Any) -> str:
    """A rack's row: its pod's (a pod's racks stand in one row), else the rack name before its last '-'."""
    if pod is not None and pod != "":
        return f"pod {pod}"
    head, dash, _ = rack.rpartition("-")
    return head if dash and head else rack


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


class _Reader:
    """Reads ORDERS.json against the fabric, collecting every problem (reported as one line)."""

    def __init__(self, fabric: Fabric, switches: list[dict[str, Any]]) -> None:
        self.fabric = fabric
        self.switches = switches
        self.problems: list[str] = []
        self.racks: dict[str, int] = {}
        self.rows: dict[str, int] = {}

    def link(self, where: str, ref: Any) -> int | None:
        index: int | None = None
        if _whole(ref):
            index = ref if ref < len(self.fabric.link_names) else None
        elif isinstance(ref, str):
            index = self.fabric.resolve_link(ref)
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
        found = [self.link(f"{where}[{i}]", ref) for i, ref in enumerate(refs)]
        return [index for index in found if index is not None]

    def location(self, where: str, order: dict[str, Any], footprint: list[int]) -> tuple[int, int]:
        rack, row = order.get("rack"), order.get("row")
        for key, value in (("rack", rack), ("row", row)):
            if value is not None and not isinstance(value, str | int):
                self.problems.append(f"{where}.{key}: must be a name")
        if footprint and (rack is None or row is None):
            switch = self.switches[self.fabric.link_lower[footprint[0]]]
            switch_rack = str(switch.get("rack") or switch["name"])
            rack = switch_rack if rack is None else rack
            row = row_of(switch_rack, switch.get("pod")) if row is None else row
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
        for key in ("success_probability", "penalty_rate"):
            if key in order and not _number(order[key]):
                self.problems.append(f"{where}.{key}: must be a number")
        footprint = self.links(f"{where}.links", order.get("links")) if "links" in order else []
        rack, row = self.location(where, order, footprint)
        restoration = order.get("restoration")
        restored: dict[str, Any] | None = None
        if restoration is not None:
            if not isinstance(restoration, dict) or not _number(restoration.get("penalty_rate")):
                self.problems.append(f"{where}.restoration: must be {{'links': [...], 'penalty_rate': number}}")
            else:
                restored = {
                    "links": self.links(f"{where}.restoration.links", restoration.get("links")),
                    "penalty_rate": restoration["penalty_rate"],
                }
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
    fabric = load_fabric(fabric_path)
    switches = read_document_file(str(fabric_path))["switches"]
    doc = read_document_file(str(orders_path))
    reader = _Reader(fabric, switches)
    orders_doc = doc.get("work_orders")
    if not isinstance(orders_doc, list):
        raise CliError(f"{orders_path}: work_orders must be a list")
    for key in sorted(set(doc) - {"work_orders", "travel"}):
        reader.problems.append(f"unknown field {key!r}")
    orders = [reader.order(i, order) for i, order in enumerate(orders_doc)]
    travel = reader.travel(doc.get("travel"))
    if reader.problems:
        raise CliError(f"{orders_path}: " + "; ".join(reader.problems))
    return PlanInput(fabric, [order for order in orders if order is not None], travel)


def plan_offline(plan_input: PlanInput, technicians: int, shift_s: int, time_budget_s: float | None) -> dict[str, Any]:
    """The planner's answer with link names (as the document writes them) instead of indices."""
    engine = load_engine()
    fabric = plan_input.fabric
    session = engine.CorrOptSession(fabric.graph, fabric.states, capacity=fabric.capacity, overrides=fabric.overrides)
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
        raise CliError(str(exc)) from exc
    names = fabric.link_names
    for visit in result["visits"]:
        visit["links_down"] = [names[link] for link in visit["links_down"]]
        visit["restored"] = [names[link] for link in visit["restored"]]
    return result
