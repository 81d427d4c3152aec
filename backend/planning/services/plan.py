"""The stretch plan (job kind `rail.plan`): per-link parts without and with stretch, costs in the seed's
Table 4.1 categories, savings, expected good-path fractions and savings curves (docs/rail.md).

The fabric is a stored one (every link needs a length) or a generated k-ary fat tree, with lengths
uniform on [min, max] either in the seed's expected-value mode or drawn per link from a seed. The
catalog is the stored one (TransceiverModel), whole or a subset; the result echoes the parts used.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from django.db.models import Count, Max, Q, Value
from django.db.models.functions import Coalesce

import lightpath_engine
from fabric.models import Fabric, Link, TransceiverModel
from jobs.services import JobFailed
from lightpath.problems import Problems, integer, number, optional_bool, random_seed, section, unknown_keys

from . import fabrics

QUANTILES = [0.0001, 0.01, 0.05, 0.5]
# Per-pair statistics visit every ordered ToR pair's common ancestors (about 0.3 s for the 512 ToRs of
# a k = 32 fat tree, growing with the square of the ToRs): beyond this many ToRs they are off unless asked.
AUTO_PAIR_STATS_MAX_TORS = 2048
MAX_K = 64
MAX_LENGTH_M = 100_000.0
MAX_SWEEP_POINTS = 2001
MAX_SWEEP_NRBS = 4
MAX_NAME = 100
MAX_SPEED_GBPS = 10_000
MAX_USD = 1e9

DEFAULT_COSTS: dict[str, float] = {
    "mmf_usd_per_m": 0.44,
    "smf_usd_per_m": 0.21,
    "port_usd": 90.0,
    "switch_watts": 150.0,
    "usd_per_kwh": 0.07,
    "years": 3.0,
}
DEFAULT_SWEEP: dict[str, Any] = {"max_length_m": 1000.0, "step_m": 10.0, "nrbs": [0.99, 0.95]}
DEFAULT_GENERATE: dict[str, Any] = {
    "k": None,
    "min_length_m": 0.0,
    "max_length_m": 500.0,
    "lengths": "expected",
    "seed": 0,
    "speed_gbps": 10,
}
LENGTH_MODES = ("expected", "sampled")
KNOWN_KEYS = {
    "name",
    "generate",
    "default_speed_gbps",
    "catalog",
    "nrb",
    "max_hops",
    "costs",
    "sweep",
    "pair_stats",
}


# ---------------------------------------------------------------------------------------------
# Validation


def validate_params(params: Any, fabric: Fabric | None) -> dict[str, Any]:
    """The params checked and completed with defaults; InvalidParams lists every problem.
    Accepts its own output (a retried or re-validated job)."""
    problems = Problems()
    if not isinstance(params, dict):
        problems.add("", "params must be an object")
        problems.raise_if_any()
    unknown_keys(problems, params, KNOWN_KEYS)
    cleaned: dict[str, Any] = {}

    name = params.get("name", "")
    if not isinstance(name, str) or len(name) > MAX_NAME:
        problems.add("name", f"must be text of at most {MAX_NAME} characters")
        name = ""
    cleaned["name"] = name.strip()

    generate = params.get("generate")
    if fabric is not None and generate is not None:
        problems.add("generate", "give either a stored fabric or generate, not both")
    elif fabric is None and generate is None:
        problems.add("fabric", "a plan needs a stored fabric (the job's fabric) or params.generate (a fat tree)")
    cleaned["generate"] = None if generate is None else _generate(problems, params)

    cleaned["default_speed_gbps"] = integer(
        problems, params.get("default_speed_gbps", 10), "default_speed_gbps", 1, MAX_SPEED_GBPS
    )
    cleaned["catalog"] = _catalog_ids(problems, params.get("catalog"))
    cleaned["nrb"] = number(problems, params.get("nrb", 0.99), "nrb", 0.0, 1.0, low_open=True, nullable=True)
    cleaned["max_hops"] = integer(problems, params.get("max_hops"), "max_hops", 1, 16, nullable=True)

    costs = section(problems, params, "costs", DEFAULT_COSTS)
    cleaned["costs"] = {
        key: number(problems, costs[key], f"costs.{key}", 0.0, MAX_USD) for key in DEFAULT_COSTS if key != "years"
    }
    cleaned["costs"]["years"] = number(problems, costs["years"], "costs.years", 0.0, 50.0, low_open=True)

    sweep = section(problems, params, "sweep", DEFAULT_SWEEP)
    sweep_max = number(problems, sweep["max_length_m"], "sweep.max_length_m", 0.0, MAX_LENGTH_M, low_open=True)
    step = number(problems, sweep["step_m"], "sweep.step_m", 0.0, MAX_LENGTH_M, low_open=True)
    if sweep_max is not None and step is not None and sweep_max / step + 1 > MAX_SWEEP_POINTS:
        problems.add("sweep.step_m", f"{sweep_max:g} m in steps of {step:g} m is more than {MAX_SWEEP_POINTS} points")
    nrbs = sweep["nrbs"]
    if not isinstance(nrbs, list) or len(nrbs) > MAX_SWEEP_NRBS:
        problems.add("sweep.nrbs", f"must be a list of at most {MAX_SWEEP_NRBS} fractions in (0, 1]")
        nrbs = []
    cleaned["sweep"] = {
        "max_length_m": sweep_max,
        "step_m": step,
        "nrbs": [number(problems, v, f"sweep.nrbs[{i}]", 0.0, 1.0, low_open=True) for i, v in enumerate(nrbs)],
    }
    cleaned["pair_stats"] = optional_bool(problems, params.get("pair_stats"), "pair_stats")
    problems.raise_if_any()

    # What the catalog must cover: every speed the fabric uses up to its longest link.
    parts = catalog_parts(cleaned["catalog"])
    known_ids = {part.pk for part in parts}
    for i, model_id in enumerate(cleaned["catalog"] or []):
        if model_id not in known_ids:
            problems.add(f"catalog[{i}]", f"no transceiver model has id {model_id}")
    if fabric is not None:
        needs = _stored_needs(problems, fabric, cleaned["default_speed_gbps"])
    else:
        g = cleaned["generate"]
        needs = {g["speed_gbps"]: (g["max_length_m"], f"generated links up to {g['max_length_m']:g} m")}
    _check_catalog(problems, parts, needs)
    problems.raise_if_any()
    return cleaned


def _generate(problems: Problems, params: dict) -> dict[str, Any]:
    g = section(problems, params, "generate", DEFAULT_GENERATE)
    k = integer(problems, g["k"], "generate.k", 2, MAX_K)
    if k is not None and k % 2:
        problems.add("generate.k", f"must be even, got {k}")
    low = number(problems, g["min_length_m"], "generate.min_length_m", 0.0, MAX_LENGTH_M)
    high = number(problems, g["max_length_m"], "generate.max_length_m", 0.0, MAX_LENGTH_M)
    if low is not None and high is not None and high < low:
        problems.add("generate.max_length_m", f"must be at least min_length_m ({low:g}), got {high:g}")
    if g["lengths"] not in LENGTH_MODES:
        problems.add("generate.lengths", f"must be one of {', '.join(LENGTH_MODES)}, got {g['lengths']!r}")
    return {
        "k": k,
        "min_length_m": low,
        "max_length_m": high,
        "lengths": g["lengths"],
        "seed": random_seed(problems, g["seed"], "generate.seed"),
        "speed_gbps": integer(problems, g["speed_gbps"], "generate.speed_gbps", 1, MAX_SPEED_GBPS),
    }


def _catalog_ids(problems: Problems, value: Any) -> list[int] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not value:
        problems.add("catalog", "must be null (the whole catalog) or a non-empty list of transceiver model ids")
        return None
    ids: list[int] = []
    for i, model_id in enumerate(value):
        if not isinstance(model_id, int) or isinstance(model_id, bool):
            problems.add(f"catalog[{i}]", f"must be a transceiver model id, got {model_id!r}")
        elif model_id in ids:
            problems.add(f"catalog[{i}]", f"{model_id} is listed twice")
        else:
            ids.append(model_id)
    return ids


def _stored_needs(problems: Problems, fabric: Fabric, default_speed: int) -> dict[int, tuple[float, str]]:
    """Per speed, the longest stored link and how to name it; links without a length are problems."""
    links = Link.objects.filter(fabric=fabric)
    missing = links.filter(length_m__isnull=True)
    missing_count = missing.count()
    for link in missing.select_related("a_switch", "z_switch").order_by("id")[:20]:
        problems.add("fabric", f"link {link} (id {link.pk}) has no length_m")
    if missing_count > 20:
        problems.add("fabric", f"and {missing_count - 20} more links without length_m")
    if not links.exists():
        problems.add("fabric", f"fabric {fabric.name} has no links")
    needs: dict[int, tuple[float, str]] = {}
    per_speed = (
        links.annotate(speed=Coalesce("speed_gbps", Value(default_speed)))
        .values("speed")
        .annotate(longest=Max("length_m"), count=Count("id", filter=Q(length_m__isnull=False)))
    )
    for row in per_speed:
        if row["longest"] is None:
            continue
        longest = links.filter(length_m=row["longest"]).select_related("a_switch", "z_switch").first()
        needs[row["speed"]] = (row["longest"], f"{row['speed']} Gb/s link {longest}, {row['longest']:g} m")
    return needs


def _check_catalog(problems: Problems, parts: list[TransceiverModel], needs: dict[int, tuple[float, str]]) -> None:
    for speed, (longest, what) in sorted(needs.items()):
        at_speed = [part for part in parts if part.speed_gbps == speed]
        if not at_speed:
            problems.add("catalog", f"no {speed} Gb/s part in the catalog (needed by the {what})")
            continue
        rated = max(part.reach_m for part in at_speed)
        if rated < longest:
            problems.add(
                "catalog", f"no {speed} Gb/s part is rated to reach the longest {what} (longest rated: {rated:g} m)"
            )
        unpriced = [part.name for part in at_speed if part.price_usd is None]
        if unpriced:
            problems.add("catalog", f"{', '.join(unpriced)}: price unknown (set price_usd in the catalog)")


# ---------------------------------------------------------------------------------------------
# The run


def catalog_parts(ids: Sequence[int] | None) -> list[TransceiverModel]:
    parts = TransceiverModel.objects.order_by("speed_gbps", "reach_m", "name")
    return list(parts if ids is None else parts.filter(pk__in=ids))


def catalog_entry(part: TransceiverModel) -> dict[str, Any]:
    """A stored part as the engine's catalog entry, with its id and price source."""
    return {
        "id": part.pk,
        "name": part.name,
        "speed_gbps": part.speed_gbps,
        "fiber": part.fiber,
        "rated_reach_m": part.reach_m,
        "price_usd": None if part.price_usd is None else float(part.price_usd),
        "price_source": part.price_source,
        "stretch": part.stretch,
    }


ENGINE_CATALOG_KEYS = ("name", "speed_gbps", "fiber", "rated_reach_m", "price_usd", "stretch")


def plan(fabric: Fabric | None, params: dict[str, Any], progress: Callable[[float, str], None]) -> dict[str, Any]:
    """Run the engine's plan on validated params; the result is its output plus `inputs` and names."""
    progress(0.05, "loading the fabric")
    catalog = [catalog_entry(part) for part in catalog_parts(params["catalog"])]
    sweep = params["sweep"]
    steps = int(sweep["max_length_m"] / sweep["step_m"] + 1e-9)
    sweep_nrbs = set(sweep["nrbs"]) | ({params["nrb"]} if params["nrb"] is not None else set())
    kwargs: dict[str, Any] = {
        "nrb": params["nrb"],
        "catalog": [{key: entry[key] for key in ENGINE_CATALOG_KEYS} for entry in catalog],
        "costs": params["costs"],
        "max_hops": params["max_hops"],
        "sweep_max_lengths_m": [i * sweep["step_m"] for i in range(steps + 1)],
        "sweep_nrbs": sorted(sweep_nrbs, reverse=True),
        "quantiles": QUANTILES,
    }
    lengths: list[float] = []
    speeds: list[int] = []
    generate = params["generate"]
    if fabric is not None:
        named, rows = fabrics.stored(fabric)
        without_length = [fabrics.link_name(*row[1:5]) for row in rows if row[5] is None]
        if without_length:  # a link changed since the job was submitted
            raise JobFailed(f"{len(without_length)} links have no length_m: {', '.join(without_length[:10])}")
        lengths = [row[5] for row in rows]
        speeds = [row[6] or params["default_speed_gbps"] for row in rows]
        kwargs.update(length_m=lengths, speed_gbps=speeds)
        description = f"{fabric.name}: {len(rows)} stored links"
    else:
        named = fabrics.fat_tree(generate["k"])
        low, high = generate["min_length_m"], generate["max_length_m"]
        if generate["lengths"] == "sampled":
            rng = random.Random(generate["seed"])  # noqa: S311  (reproducible lengths, not secrets)
            lengths = [rng.uniform(low, high) for _ in named.link_ids]
            speeds = [generate["speed_gbps"]] * len(lengths)
            kwargs.update(length_m=lengths, speed_gbps=speeds)
            mode = f"sampled with seed {generate['seed']}"
        else:
            kwargs.update(uniform=(low, high), speed_gbps=generate["speed_gbps"])
            mode = "expected value"
        description = f"fat tree k={generate['k']}, lengths uniform {low:g}-{high:g} m ({mode})"
    pair_stats = params["pair_stats"]
    if pair_stats is None:
        pair_stats = named.tor_count <= AUTO_PAIR_STATS_MAX_TORS
    kwargs["pair_stats"] = pair_stats

    progress(0.2, "planning")
    try:
        # A plain dict: names and stored ids are added to the engine's rows below.
        result: dict[str, Any] = dict(lightpath_engine.rail_plan(named.graph, **kwargs))
    except (ValueError, OverflowError) as exc:
        raise JobFailed(f"the engine refused the plan: {exc}") from exc

    progress(0.9, "naming links and switches")
    for row in result["links"]:
        index = row["link"]
        row["link"] = named.link_ids[index]
        row["name"] = named.link_names[index]
        row["length_m"] = lengths[index]
        row["speed_gbps"] = speeds[index]
    named.name_fractions(result["good_paths"])
    inputs = {
        "name": params["name"],
        "source": "stored" if fabric is not None else "generated",
        "fabric": None if fabric is None else {"id": fabric.pk, "name": fabric.name},
        "generate": generate,
        "description": description,
        "links": len(named.link_ids),
        "switches": len(named.switch_names),
        "tors": named.tor_count,
        "default_speed_gbps": params["default_speed_gbps"],
        "nrb": params["nrb"],
        "max_hops": params["max_hops"],
        "costs": params["costs"],
        "sweep": {**sweep, "nrbs": kwargs["sweep_nrbs"]},
        "pair_stats": pair_stats,
        "quantiles": QUANTILES,
        "catalog": catalog,
    }
    return {"inputs": inputs, **result}


def summary_line(result: dict[str, Any]) -> str:
    """The job's final message, what lists of plans show: the plan's name, savings and stretch."""
    name = result["inputs"].get("name") or "plan"
    stretched = round(result["stretched_links"])  # an expected count in the expected-value mode
    return (
        f"{name}: saves {result['savings']:.1%} of ${result['baseline']['total_usd']:,.0f} "
        f"({stretched:,.0f} stretched link{'' if stretched == 1 else 's'})"
    )


# ---------------------------------------------------------------------------------------------
# CSV tables of a result (GET /api/jobs/{id}/result/?format=csv&table=...)

COSTS_HEADER = ("design", "category", "item", "unit_usd", "unit", "quantity", "total_usd")
LINKS_HEADER = (
    "link",
    "name",
    "length_m",
    "speed_gbps",
    "baseline",
    "plan",
    "stretched",
    "p_good",
    "baseline_usd",
    "plan_usd",
)
BANDS_HEADER = ("from_m", "to_m", "share", "baseline", "plan", "stretched", "p_good")


def costs_table(result: dict) -> tuple[Sequence[str], Iterable[Sequence[Any]]]:
    rows = (
        [design, *(line[key] for key in COSTS_HEADER[1:])]
        for design in ("baseline", "plan")
        for line in result[design]["lines"]
    )
    return COSTS_HEADER, rows


def links_table(result: dict) -> tuple[Sequence[str], Iterable[Sequence[Any]]]:
    return LINKS_HEADER, ([row[key] for key in LINKS_HEADER] for row in result["links"])


def sweeps_table(result: dict) -> tuple[Sequence[str], Iterable[Sequence[Any]]]:
    rows = (
        ["" if curve["nrb"] is None else curve["nrb"], length, "" if savings is None else savings]
        for curve in result["sweeps"]
        for length, savings in curve["points"]
    )
    return ("nrb", "max_length_m", "savings"), rows


def bands_table(result: dict) -> tuple[Sequence[str], Iterable[Sequence[Any]]]:
    return BANDS_HEADER, ([row[key] for key in BANDS_HEADER] for row in result["bands"])
