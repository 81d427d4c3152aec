"""Reliability classes (job kind `rail.classes`): nested link sets whose every ECMP path stays under a
loss bound, built by the engine from each link direction's measured corruption loss rate
(docs/rail.md, "Reliability classes" and "In the server").

Loss rates come from telemetry: a direction's `DirectionHealth.corruption_rate`, the rate of its newest
complete window, if that window ended within `window_hours` of the run. A direction with no such rate
is *unmeasured*: it is treated as clean (loss 0), and the result lists its link under `unmeasured`, so
a planner sees how much of the fabric the classes rest on no data. Links that are admin-disabled or
operationally down are in no class.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from django.utils import timezone

import lightpath_engine
from fabric.models import Fabric, Link
from jobs.services import JobFailed
from lightpath.problems import InvalidParams, Problems, number, optional_bool, unknown_keys
from telemetry.models import Direction, DirectionHealth

from . import fabrics
from .plan import AUTO_PAIR_STATS_MAX_TORS, QUANTILES

DEFAULTS: dict[str, Any] = {
    "window_hours": 24.0,
    "bounds": [4.8e-8, 1e-3, 0.1],
    "repair_above": 0.1,
    "fec_target": 1e-3,
    "pair_stats": None,
}
MAX_CLASSES = 8
MAX_WINDOW_HOURS = 8760.0
UNMEASURED_RULE = "treated as clean (loss 0)"


def validate_params(params: Any, fabric: Fabric | None) -> dict[str, Any]:
    """The params checked and completed with defaults; InvalidParams lists every problem."""
    if fabric is None:
        raise InvalidParams([{"section": "params", "field": "fabric", "message": "reliability classes need a fabric"}])
    problems = Problems()
    if not isinstance(params, dict):
        problems.add("", "params must be an object")
        problems.raise_if_any()
    unknown_keys(problems, params, set(DEFAULTS))
    merged = {**DEFAULTS, **{k: v for k, v in params.items() if k in DEFAULTS}}
    cleaned: dict[str, Any] = {
        "window_hours": number(problems, merged["window_hours"], "window_hours", 0.0, MAX_WINDOW_HOURS, low_open=True),
        "repair_above": number(problems, merged["repair_above"], "repair_above", 0.0, 1.0, low_open=True),
        "fec_target": number(problems, merged["fec_target"], "fec_target", 0.0, 1.0, low_open=True, high_open=True),
        "pair_stats": optional_bool(problems, merged["pair_stats"], "pair_stats"),
    }
    bounds = merged["bounds"]
    if not isinstance(bounds, list) or not 1 <= len(bounds) <= MAX_CLASSES:
        problems.add("bounds", f"must be a list of 1 to {MAX_CLASSES} loss bounds, e.g. [4.8e-8, 0.001, 0.1]")
        bounds = []
    cleaned["bounds"] = [
        number(problems, value, f"bounds[{i}]", 0.0, 1.0, low_open=True) for i, value in enumerate(bounds)
    ]
    for i in range(1, len(cleaned["bounds"])):
        previous, value = cleaned["bounds"][i - 1], cleaned["bounds"][i]
        if previous is not None and value is not None and value <= previous:
            problems.add(f"bounds[{i}]", f"bounds must increase: {value:g} is not above {previous:g}")
    if not Link.objects.filter(fabric=fabric).exists():
        problems.add("fabric", f"fabric {fabric.name} has no links")
    problems.raise_if_any()
    return cleaned


def measured_losses(
    fabric: Fabric, link_index: dict[int, int], since: dt.datetime
) -> tuple[list[float | None], list[float | None]]:
    """Per engine link, the upward (a_to_z) and downward loss rates measured since `since` (None: not)."""
    up: list[float | None] = [None] * len(link_index)
    down: list[float | None] = [None] * len(link_index)
    rows = DirectionHealth.objects.filter(
        link__fabric=fabric, corruption_rate__isnull=False, corruption_time__gte=since
    ).values_list("link_id", "direction", "corruption_rate")
    for link_id, direction, rate in rows:
        index = link_index.get(link_id)
        if index is not None:
            (up if direction == Direction.A_TO_Z else down)[index] = rate
    return up, down


def classes(fabric: Fabric, params: dict[str, Any], progress: Callable[[float, str], None]) -> dict[str, Any]:
    progress(0.05, "loading the fabric and its loss rates")
    named, _ = fabrics.stored(fabric)
    link_index = {link_id: i for i, link_id in enumerate(named.link_ids)}
    since = timezone.now() - dt.timedelta(hours=params["window_hours"])
    measured_up, measured_down = measured_losses(fabric, link_index, since)
    up = [rate or 0.0 for rate in measured_up]
    down = [rate or 0.0 for rate in measured_down]
    alive = named.usable
    unmeasured_links = [
        named.link_ids[i]
        for i in range(len(alive))
        if alive[i] and (measured_up[i] is None or measured_down[i] is None)
    ]
    unmeasured_directions = sum(
        (measured_up[i] is None) + (measured_down[i] is None) for i in range(len(alive)) if alive[i]
    )
    pair_stats = params["pair_stats"]
    if pair_stats is None:
        pair_stats = named.tor_count <= AUTO_PAIR_STATS_MAX_TORS

    progress(0.2, "building the classes")
    try:
        built = lightpath_engine.rail_classes(
            named.graph,
            up,
            down,
            alive,
            bounds=params["bounds"],
            repair_above=params["repair_above"],
            fec_target=params["fec_target"],
            quantiles=QUANTILES,
            pair_stats=pair_stats,
        )
    except (ValueError, OverflowError) as exc:
        raise JobFailed(f"the engine refused the classes: {exc}") from exc

    progress(0.9, "naming links and switches")

    def lossy_link(index: int) -> dict[str, Any]:
        return {
            "link": named.link_ids[index],
            "name": named.link_names[index],
            "loss_up": up[index],
            "loss_down": down[index],
        }

    def path(worst: Any) -> dict[str, Any] | None:
        if worst is None:
            return None
        switches = [worst["src"]]
        hops = []
        for hop in worst["hops"]:
            index = hop["link"]
            a, z = named.link_ends[index]
            switches.append(z if hop["upward"] else a)
            hops.append({**hop, "link": named.link_ids[index], "name": named.link_names[index]})
        return {
            "loss": worst["loss"],
            "src": worst["src"],
            "src_name": named.switch_names[worst["src"]],
            "dst": worst["dst"],
            "dst_name": named.switch_names[worst["dst"]],
            "top": worst["top"],
            "top_name": named.switch_names[worst["top"]],
            "switches": [named.switch_names[s] for s in switches],
            "hops": hops,
        }

    result_classes = []
    summary = []
    for k, built_class in enumerate(built["classes"]):
        kept = named.name_fractions(dict(built_class["kept_paths"]) if built_class["kept_paths"] else None)
        quantiles = dict(kept["quantiles"]) if kept else {}
        worst = path(built_class["worst"])
        result_classes.append(
            {
                "class": k + 1,
                "bound": built_class["bound"],
                "link_count": len(built_class["links"]),
                "links": [named.link_ids[i] for i in built_class["links"]],
                "removed": [lossy_link(i) for i in built_class["removed"]],
                "worst": worst,
                "kept_paths": kept,
                "fec": built_class["fec"],
            }
        )
        summary.append(
            {
                "class": k + 1,
                "bound": built_class["bound"],
                "links": len(built_class["links"]),
                "removed": len(built_class["removed"]),
                "worst_loss": None if worst is None else worst["loss"],
                "kept_min": kept["worst_pair"]["fraction"] if kept and kept["worst_pair"] else None,
                "kept_p1": quantiles.get(0.01),
                "kept_p50": quantiles.get(0.5),
                "kept_mean": kept["mean"] if kept else None,
                "fec_mean_overhead": built_class["fec"]["mean_overhead"] if built_class["fec"] else None,
            }
        )
    return {
        "inputs": {
            "fabric": {"id": fabric.pk, "name": fabric.name},
            **params,
            "since": since.isoformat(),
            "pair_stats": pair_stats,
            "quantiles": QUANTILES,
        },
        "links": len(alive),
        "alive": sum(alive),
        "measured_directions": 2 * sum(alive) - unmeasured_directions,
        "unmeasured": {"rule": UNMEASURED_RULE, "directions": unmeasured_directions, "links": unmeasured_links},
        "repair": [lossy_link(i) for i in built["repair"]],
        "classes": result_classes,
        "summary": summary,
    }


def summary_line(result: dict[str, Any]) -> str:
    """The job's final message: how many links each class keeps, and what needs repair."""
    kept = " ⊇ ".join(f"{c['link_count']:,}" for c in reversed(result["classes"]))
    repair = len(result["repair"])
    return f"{len(result['classes'])} classes keep {kept} links; {repair} to repair"


# ---------------------------------------------------------------------------------------------
# CSV tables

ENDS = ("a_switch", "a_port", "z_switch", "z_port")
SUMMARY_HEADER = (
    "class",
    "bound",
    "links",
    "removed",
    "worst_loss",
    "kept_min",
    "kept_p1",
    "kept_p50",
    "kept_mean",
    "fec_mean_overhead",
)


def _ends(link_ids: Iterable[int]) -> dict[int, tuple[str, str, str, str]]:
    """The links' ends as they are now (a link deleted since the run is left out of the tables)."""
    rows = Link.objects.filter(pk__in=list(link_ids)).values_list(
        "id", "a_switch__name", "a_port", "z_switch__name", "z_port"
    )
    return {row[0]: row[1:] for row in rows}


def class_links_table(result: dict) -> tuple[Sequence[str], Iterable[Sequence[Any]]]:
    """One row per link of each class: what routing announces a class's prefix over."""
    ends = _ends({link for c in result["classes"] for link in c["links"]})
    rows = (
        [c["class"], c["bound"], link, *ends[link]] for c in result["classes"] for link in c["links"] if link in ends
    )
    return ("class", "bound", "link", *ENDS), rows


def repair_table(result: dict) -> tuple[Sequence[str], Iterable[Sequence[Any]]]:
    ends = _ends(row["link"] for row in result["repair"])
    rows = (
        [row["link"], *ends[row["link"]], row["loss_up"], row["loss_down"]]
        for row in result["repair"]
        if row["link"] in ends
    )
    return ("link", *ENDS, "loss_up", "loss_down"), rows


def summary_table(result: dict) -> tuple[Sequence[str], Iterable[Sequence[Any]]]:
    return SUMMARY_HEADER, (
        ["" if row[key] is None else row[key] for key in SUMMARY_HEADER] for row in result["summary"]
    )
