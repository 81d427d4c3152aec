"""Cost comparison (POST /api/reconfig/costs/): static oversubscription vs Larry vs ShareBackup.

The engine counts packet ports, circuit-switch ports and cables of each design
(lightpath_engine.reconfig_costs); the price sheet here turns the counts into costs, so a user may
price cables too. Prices are in units of one packet-switch port. Each design is normalised to the
first design of its comparison: full provisioning for the rack set, the plain fat tree for ShareBackup.
"""

from __future__ import annotations

from typing import Any

import lightpath_engine
from lightpath.problems import Problems, integer, number, unknown_keys

from .params import fat_tree
from .sharebackup import MAX_BACKUPS

PRICES = {"packet_port": 1.0, "circuit_port": 0.3, "active_cable": 0.5, "passive_cable": 0.1}
DEFAULTS: dict[str, Any] = {
    "racks": 4,
    "servers": 16,
    "static_uplinks": 4,
    "larry_s": 2,
    "larry_l": 4,
    "larry_r": 2,
    "k": 16,
    "pods": None,
    "backups": 1,
    "prices": None,
}
COUNTS = {"packet_port": "packet_ports", "circuit_port": "circuit_ports", "active_cable": "active_cables",
          "passive_cable": "passive_cables"}  # fmt: skip
RACK_SET_DESIGNS = 3  # full provisioning, static u, Larry; then the fat tree and ShareBackup


def validate(params: Any) -> dict[str, Any]:
    problems = Problems()
    if params is None:
        params = {}
    if not isinstance(params, dict):
        problems.add("", "the request must be a JSON object")
        problems.raise_if_any()
    unknown_keys(problems, params, set(DEFAULTS))
    merged = {**DEFAULTS, **params}
    cleaned: dict[str, Any] = {
        "racks": integer(problems, merged["racks"], "racks", 1, 100_000),
        "servers": integer(problems, merged["servers"], "servers", 1, 1024),
        "larry_s": integer(problems, merged["larry_s"], "larry_s", 0, 1024),
        "larry_l": integer(problems, merged["larry_l"], "larry_l", 0, 1024),
        "larry_r": integer(problems, merged["larry_r"], "larry_r", 0, 1024),
        "backups": integer(problems, merged["backups"], "backups", 0, MAX_BACKUPS),
    }
    servers = cleaned["servers"] or 1024
    cleaned["static_uplinks"] = integer(problems, merged["static_uplinks"], "static_uplinks", 1, servers)
    tree = fat_tree(problems, merged)
    prices = merged["prices"] or {}
    if not isinstance(prices, dict):
        problems.add("prices", f"must be an object with some of {', '.join(PRICES)}")
        prices = {}
    unknown_keys(problems, prices, set(PRICES), "prices.")
    sheet = {}
    for key, default in PRICES.items():
        value = prices.get(key, default)
        if key == "packet_port":
            sheet[key] = number(problems, value, f"prices.{key}", 0, 1e9, low_open=True)
        else:
            sheet[key] = number(problems, value, f"prices.{key}", 0, 1e9, low_open=False)
    problems.raise_if_any()
    assert tree is not None
    cleaned["k"], cleaned["pods"] = tree
    cleaned["prices"] = sheet
    return cleaned


def compare(params: dict[str, Any]) -> dict[str, Any]:
    prices = params["prices"]
    rows = lightpath_engine.reconfig_costs(
        params["racks"],
        params["servers"],
        params["static_uplinks"],
        params["larry_s"],
        params["larry_l"],
        params["larry_r"],
        params["k"],
        params["pods"],
        params["backups"],
        prices["circuit_port"] / prices["packet_port"],
    )
    designs = []
    for i, row in enumerate(rows):
        comparison = "rack_set" if i < RACK_SET_DESIGNS else "fat_tree"
        cost = sum(row[count] * prices[price] for price, count in COUNTS.items())
        designs.append({"comparison": comparison, **row, "cost": cost})
    for comparison in ("rack_set", "fat_tree"):
        group = [d for d in designs if d["comparison"] == comparison]
        base = group[0]["cost"]
        for design in group:
            design["normalised_cost"] = design["cost"] / base if base else None
    return {"inputs": params, "designs": designs}
