"""Fabric documents as the engine's arrays, and link-state overrides (STATE.json).

Switch index = position in `switches`, link index = position in `links`; a link is named
`a:a_port-b:b_port` as written in the document (the reverse order is accepted too).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import CliError
from .engine import load_engine
from .files import read_document_file, read_text

LINK_STATES = ("enabled", "disabled", "down")


@dataclass
class Fabric:
    """An interchange document turned into the engine's arrays, with names for the output."""

    file: str
    name: str
    num_tiers: int
    capacity: float
    switch_names: list[str]
    switch_tiers: list[int]
    link_lower: list[int]
    link_upper: list[int]
    link_names: list[str]
    states: list[str]
    overrides: dict[int, float]
    link_ids: dict[str, int] = field(default_factory=dict)
    graph: Any = None  # the engine's FabricGraph, built by the reader

    def resolve_link(self, text: str) -> int | None:
        text = text.strip()
        if text.isdigit():
            index = int(text)
            return index if index < len(self.link_names) else None
        return self.link_ids.get(text)


def load_fabric(path: Path) -> Fabric:
    """Read FABRIC.json through the engine's reader (lightpath_engine.read_fabric_document), which holds
    the one document -> arrays mapping; its errors name the field (`links[3].a: unknown switch 'x'`)."""
    file = str(path)
    if file.lower().endswith(".csv"):
        raise CliError(f"{file}: a links CSV has no switches or tiers; --fabric-file needs a JSON interchange document")
    doc = read_document_file(file)
    try:
        read = load_engine().read_fabric_document(doc)
    except (ValueError, OverflowError) as exc:
        raise CliError(f"{file}: {exc}") from exc
    return Fabric(
        file=file,
        name=str(read["name"] or path.stem),
        num_tiers=len(read["tiers"]),
        capacity=float(read["capacity"]),
        switch_names=read["switch_names"],
        switch_tiers=read["switch_tiers"],
        link_lower=read["link_lower"],
        link_upper=read["link_upper"],
        link_names=read["link_names"],
        states=read["link_states"],
        overrides=read["overrides"],
        link_ids=read["link_ids"],
        graph=read["graph"],
    )


def key_line(text: str, key: str) -> int | None:
    """The line on which the JSON object key `key` first appears, if it can be found."""
    at = text.find(json.dumps(key, ensure_ascii=False) + ":")
    if at < 0:
        at = text.find(json.dumps(key, ensure_ascii=False))
    return None if at < 0 else text.count("\n", 0, at) + 1


def apply_state_file(path: Path, fabric: Fabric) -> None:
    """Override link states from STATE.json: {"links": {"<link id>": "enabled|disabled|down"}}."""
    text = read_text(path)
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CliError(f"{path} line {exc.lineno}: not valid JSON: {exc.msg} (column {exc.colno})") from exc
    if not isinstance(doc, dict) or not isinstance(doc.get("links"), dict):
        raise CliError(f'{path}: expected {{"links": {{"<link>": "enabled|disabled|down"}}}}')
    for key, state in doc["links"].items():
        line = key_line(text, key)
        where = f"{path} line {line}" if line else str(path)
        index = fabric.resolve_link(key)
        if index is None:
            raise CliError(f"{where}: unknown link {key!r}")
        if state not in LINK_STATES:
            raise CliError(f"{where}: link {key!r}: state {state!r} is not 'enabled', 'disabled' or 'down'")
        fabric.states[index] = state


def build_graph(fabric: Fabric) -> Any:
    """The graph the document reader built (or, for a Fabric made by hand, one from its arrays)."""
    if fabric.graph is not None:
        return fabric.graph
    try:
        return load_engine().FabricGraph(fabric.num_tiers, fabric.switch_tiers, fabric.link_lower, fabric.link_upper)
    except (ValueError, OverflowError) as exc:
        raise CliError(f"{fabric.file}: {exc}") from exc
