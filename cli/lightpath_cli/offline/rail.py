"""RAIL on files: stretch plans of a fabric document or a generated fat tree, and reliability classes
from per-link loss rates. The engine computes; this module reads the files and names the results.

Link index = position in the document's `links` (then `links_csv` rows); a link is named `a:a_port-b:b_port`.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import typer

from ..errors import CliError, UsageError
from .corrupting import read_corrupting
from .engine import load_engine
from .fabric import Fabric, load_fabric
from .files import read_document_file

QUANTILES = [0.0001, 0.01, 0.05, 0.5]
# Per-pair statistics visit every ordered ToR pair's common ancestors (about 0.3 s for the 512 ToRs of a
# k = 32 fat tree, growing with the square of the ToRs): beyond this many ToRs they are off by default.
AUTO_PAIR_STATS_MAX_TORS = 2048


def pair_stats_for(wanted: bool | None, tors: int) -> bool:
    if wanted is not None:
        return wanted
    if tors > AUTO_PAIR_STATS_MAX_TORS:
        typer.echo(f"note: {tors} ToRs: per-pair statistics skipped (--pair-stats computes them, slowly)", err=True)
        return False
    return True


def fat_tree_graph(k: int) -> Any:
    """The engine's graph of a k-ary fat tree: ToRs, aggregation switches pod by pod, then cores."""
    if k < 2 or k % 2:
        raise UsageError(f"--k: k must be an even number >= 2, got {k}")
    half = k // 2
    tors, aggs, cores = k * half, k * half, half * half
    lower, upper = [], []
    for pod in range(k):
        for i in range(half):
            for j in range(half):
                lower.append(pod * half + i)
                upper.append(tors + pod * half + j)
    for pod in range(k):
        for j in range(half):
            for c in range(half):
                lower.append(tors + pod * half + j)
                upper.append(tors + aggs + j * half + c)
    return load_engine().FabricGraph(3, [0] * tors + [1] * aggs + [2] * cores, lower, upper)


def _document_links(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """The document's links then its links_csv rows, in the engine's link order."""
    links = list(doc.get("links") or [])
    text = doc.get("links_csv")
    if isinstance(text, str):
        links.extend(
            {k: v for k, v in row.items() if k is not None and v not in (None, "")}
            for row in csv.DictReader(io.StringIO(text))
        )
    return links


def _link_lengths(path: Path, fabric: Fabric, speed: int) -> tuple[list[float], list[int]]:
    """Per link `length_m` and `speed_gbps` (default `speed`); every missing or bad value listed."""
    links = _document_links(read_document_file(str(path)))
    lengths: list[float] = []
    speeds: list[int] = []
    problems: list[str] = []
    for i, link in enumerate(links):
        raw = link.get("length_m") if isinstance(link, dict) else None
        try:
            length = float(raw) if raw is not None else None
        except (TypeError, ValueError):
            length = None
        if length is None:
            problems.append(f"links[{i}] ({fabric.link_names[i]}): no length_m")
        lengths.append(length if length is not None else 0.0)
        raw_speed = link.get("speed_gbps", speed) if isinstance(link, dict) else speed
        try:
            speeds.append(int(raw_speed if raw_speed is not None else speed))
        except (TypeError, ValueError):
            problems.append(f"links[{i}] ({fabric.link_names[i]}): speed_gbps {raw_speed!r} is not a number")
            speeds.append(speed)
    if problems:
        shown = problems[:10]
        if len(problems) > 10:
            shown.append(f"and {len(problems) - 10} more")
        raise CliError(f"{path}: {'; '.join(shown)}")
    return lengths, speeds


def plan_offline(
    fabric_path: Path | None,
    fat_tree: int | None,
    *,
    speed: int,
    lengths: tuple[float, float],
    pair_stats: bool | None,
    **options: Any,
) -> tuple[str, dict[str, Any]]:
    """The engine's rail_plan of a document (per-link length_m, speed_gbps defaulting to `speed`) or of
    a k-ary fat tree with lengths uniform on `lengths`; `options` go to the engine as they are. Returns
    the fabric's description and the result with ToR and link names."""
    kwargs: dict[str, Any] = {**options, "quantiles": QUANTILES}
    names: list[str] | None = None
    source: str
    if fabric_path is not None:
        fabric = load_fabric(fabric_path)
        length_m, speeds = _link_lengths(fabric_path, fabric, speed)
        graph = fabric.graph
        names = fabric.switch_names
        link_names = fabric.link_names
        source = fabric.name
        kwargs.update(length_m=length_m, speed_gbps=speeds)
    else:
        assert fat_tree is not None
        graph = fat_tree_graph(fat_tree)
        link_names = []
        source = f"fat tree k={fat_tree}, lengths uniform {lengths[0]:g}-{lengths[1]:g} m (expected value)"
        kwargs.update(uniform=lengths, speed_gbps=speed)
    tors = sum(1 for tor in graph.tor_capacity())
    kwargs["pair_stats"] = pair_stats_for(pair_stats, tors)
    try:
        result = load_engine().rail_plan(graph, **kwargs)
    except (ValueError, OverflowError) as exc:
        where = f"{fabric_path}: " if fabric_path is not None else ""
        hint = " (set it with --price NAME=USD)" if "price unknown" in str(exc) else ""
        raise CliError(f"{where}{exc}{hint}") from exc
    good = result["good_paths"]
    if good is not None:
        tor_name = (lambda s: names[s]) if names else (lambda s: f"tor{s}")
        for row in good["per_tor"]:
            row["name"] = tor_name(row["tor"])
        if good["worst_pair"] is not None:
            good["worst_pair"]["src_name"] = tor_name(good["worst_pair"]["src"])
            good["worst_pair"]["dst_name"] = tor_name(good["worst_pair"]["dst"])
    for row in result["links"]:
        row["name"] = link_names[row["link"]]
    return source, result


def classes_offline(
    fabric_path: Path,
    loss_rates: Path,
    *,
    bounds: list[float],
    repair_above: float,
    fec_target: float,
    pair_stats: bool | None,
) -> dict[str, Any]:
    """Nested reliability classes of a document from LOSS.csv (links not listed lose nothing)."""
    fabric = load_fabric(fabric_path)
    n = len(fabric.link_names)
    up, down = [0.0] * n, [0.0] * n
    for row in read_corrupting(loss_rates, fabric):
        up[row.link], down[row.link] = row.loss_rate, row.loss_rate_down
    alive = [state == "enabled" for state in fabric.states]
    try:
        result = load_engine().rail_classes(
            fabric.graph,
            up,
            down,
            alive,
            bounds=bounds,
            repair_above=repair_above,
            fec_target=fec_target,
            quantiles=QUANTILES,
            pair_stats=pair_stats_for(pair_stats, fabric.switch_tiers.count(0)),
        )
    except (ValueError, OverflowError) as exc:
        raise CliError(str(exc)) from exc
    names, switches = fabric.link_names, fabric.switch_names

    def path(worst: dict[str, Any] | None) -> dict[str, Any] | None:
        if worst is None:
            return None
        return {
            **worst,
            "src_name": switches[worst["src"]],
            "dst_name": switches[worst["dst"]],
            "top_name": switches[worst["top"]],
            "hops": [{**hop, "name": names[hop["link"]]} for hop in worst["hops"]],
        }

    return {
        "fabric": fabric.name,
        "links": n,
        "alive": sum(alive),
        "repair": [
            {"link": link, "name": names[link], "loss_rate": up[link], "loss_rate_down": down[link]}
            for link in result["repair"]
        ],
        "classes": [
            {
                "class": k + 1,
                "bound": c["bound"],
                "links": c["links"],
                "link_names": [names[link] for link in c["links"]],
                "removed": [{"link": link, "name": names[link]} for link in c["removed"]],
                "worst": path(c["worst"]),
                "kept_paths": c["kept_paths"],
                "fec": c["fec"],
            }
            for k, c in enumerate(result["classes"])
        ],
    }
