"""The fabric interchange document ("lightpath-fabric/1"): validation, atomic import, export.

Validation runs over the whole document before anything is written and reports every bad
row (section, index, field, message). Cost is O(switches + links) in Python; the import
then writes in one transaction (links and transceivers with COPY), so an error or a
cancellation leaves the database as it was.
"""

import contextlib
import csv
import io
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, connection, transaction

from audit import services as audit
from lightpath.bounds import model_bounds
from lightpath.db import copy_rows

from ..models import Fabric, Fiber, Link, Switch, Transceiver, TransceiverModel
from .catalog import clean_stretch
from .topology import check_link_ends

FORMAT = "lightpath-fabric/1"
LINK_CSV_COLUMNS = ["a", "a_port", "b", "b_port", "length_m", "speed_gbps", "fiber", "transceiver_model"]
FABRIC_KEYS = {
    "format",
    "name",
    "description",
    "tiers",
    "capacity_constraint",
    "switches",
    "links",
    "links_csv",
    "transceiver_models",
}
SWITCH_KEYS = {"name", "tier", "pod", "plane", "rack", "vendor", "model", "capacity_constraint"}
# What a link shares (fabric.services.components); optional, blank = by the rule in settings.
# The document names the sides a and b; side b is stored as Z.
COMPONENT_KEYS = ("breakout", "cable_id", "a_line_card", "b_line_card")
LINK_KEYS = {*LINK_CSV_COLUMNS, "admin_state", "oper_state", *COMPONENT_KEYS}
MODEL_KEYS = {
    "name", "speed_gbps", "fiber", "reach_m", "price_usd", "price_source", "stretch", "link_fec", "power_w",
    "rx_power_min_dbm", "rx_power_max_dbm", "tx_power_min_dbm", "tx_power_max_dbm",
}  # fmt: skip
WRITE_BATCH = 5000
# Choice lists read once: Django's Choices.values builds a new list on every access.
FIBERS = tuple(Fiber.values)
ADMIN_STATES = tuple(Link.AdminState.values)
OPER_STATES = tuple(Link.OperState.values)
PRICE_SOURCES = tuple(TransceiverModel.PriceSource.values)

Progress = Callable[[float, str], None]


def document_error(message: str) -> dict:
    """An error row about the document as a whole (not JSON, not an object)."""
    return {"section": "fabric", "index": None, "field": None, "message": message}


class InterchangeError(Exception):
    """The document is invalid; `errors` lists every problem found."""

    def __init__(self, errors: list[dict]):
        super().__init__(f"{len(errors)} problem(s) in the fabric document")
        self.errors = errors


@dataclass
class ValidatedDocument:
    fabric: dict
    switches: list[dict]
    links: list[dict]
    new_models: list[dict]
    model_names: set[str] = field(default_factory=set)
    # Catalog entries the document describes otherwise, kept as the catalog has them.
    kept_models: list[dict] = field(default_factory=list)


class _Checker:
    """Collects errors while reading typed values out of untrusted rows."""

    def __init__(self) -> None:
        self.errors: list[dict] = []

    def error(self, section: str, index: int | None, field_name: str | None, message: str) -> None:
        self.errors.append({"section": section, "index": index, "field": field_name, "message": message})

    def unknown_keys(self, row: dict, allowed: set[str], section: str, index: int | None) -> None:
        for key in sorted(set(row) - allowed):
            self.error(section, index, key, f"unknown field '{key}'")

    def string(self, row, key, section, index, *, required=False, max_length=100) -> str:
        value = row.get(key)
        if value is None or value == "":
            if required:
                self.error(section, index, key, "is required")
            return ""
        if not isinstance(value, str):
            self.error(section, index, key, "must be a string")
            return ""
        if len(value) > max_length:
            self.error(section, index, key, f"must be at most {max_length} characters")
        if "\x00" in value:
            self.error(section, index, key, "must not contain NUL characters")
            return ""
        return value

    def integer(self, row, key, section, index, *, required=False, minimum=None, maximum=None) -> int | None:
        value = row.get(key)
        if value is None or value == "":
            if required:
                self.error(section, index, key, "is required")
            return None
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            self.error(section, index, key, "must be an integer")
            return None
        if not self._within(value, minimum, maximum, section, index, key):
            return None
        return value

    def number(self, row, key, section, index, *, required=False, minimum=None, maximum=None) -> float | None:
        value = row.get(key)
        if value is None or value == "":
            if required:
                self.error(section, index, key, "is required")
            return None
        if isinstance(value, str):
            with contextlib.suppress(ValueError):  # a non-numeric string is reported just below
                value = float(value)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            self.error(section, index, key, "must be a number")
            return None
        if not self._within(value, minimum, maximum, section, index, key):
            return None
        return float(value)

    def _within(self, value, minimum, maximum, section, index, key) -> bool:
        if minimum is not None and value < minimum:
            self.error(section, index, key, f"must be at least {_number(minimum)}")
            return False
        if maximum is not None and value > maximum:
            self.error(section, index, key, f"must be at most {_number(maximum)}")
            return False
        return True

    def boolean(self, row, key, section, index, *, default: bool = False) -> bool:
        value = row.get(key)
        if value is None:
            return default
        if not isinstance(value, bool):
            self.error(section, index, key, "must be true or false")
            return default
        return value

    def choice(self, row, key, section, index, choices, default: str = "") -> str:
        value = row.get(key)
        if value is None or value == "":
            return default
        if value not in choices:
            self.error(section, index, key, f"must be one of {', '.join(choices)}")
            return default
        return value

    def rows(self, doc: dict, key: str) -> list:
        value = doc.get(key, [])
        if not isinstance(value, list):
            self.error("fabric", None, key, "must be a list")
            return []
        return value


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _limits(model, name: str, minimum: float | None = None) -> dict[str, Any]:
    """The column's range (lightpath.bounds), narrowed by a domain minimum (a speed is at least 1)."""
    lowest, highest = model_bounds(model, name)
    if minimum is not None:
        lowest = minimum if lowest is None else max(lowest, minimum)
    return {"minimum": lowest, "maximum": highest}


def parse_links_csv(text: str) -> list[dict]:
    """Rows of a links CSV (header: a,a_port,b,b_port,length_m,speed_gbps,fiber,transceiver_model).
    Values stay strings; validation converts and reports them."""
    reader = csv.DictReader(io.StringIO(text))
    rows = []
    for row in reader:
        rows.append({key: value for key, value in row.items() if key is not None and value not in (None, "")})
    return rows


def validate_document(doc: Any) -> ValidatedDocument:
    check = _Checker()
    if not isinstance(doc, dict):
        raise InterchangeError([document_error("the document must be a JSON object")])
    check.unknown_keys(doc, FABRIC_KEYS, "fabric", None)
    fmt = doc.get("format", FORMAT)
    if fmt != FORMAT:
        check.error("fabric", None, "format", f"unsupported format '{fmt}'; expected '{FORMAT}'")

    name = check.string(doc, "name", "fabric", None, required=True)
    if name and Fabric.objects.filter(name=name).exists():
        check.error("fabric", None, "name", f"a fabric named '{name}' already exists")
    tiers = doc.get("tiers")
    if (
        not isinstance(tiers, list)
        or len(tiers) < 2
        or not all(isinstance(t, str) and t and len(t) <= 32 for t in tiers)
    ):
        check.error(
            "fabric", None, "tiers", "must be a list of at least two tier names (bottom-up, at most 32 characters each)"
        )
        tiers = []
    elif len(set(tiers)) != len(tiers):
        check.error("fabric", None, "tiers", "tier names must be unique")
    constraint = check.number(doc, "capacity_constraint", "fabric", None, minimum=0.0, maximum=1.0)
    fabric = {
        "name": name,
        "description": check.string(doc, "description", "fabric", None, max_length=10_000),
        "tiers": tiers,
        "capacity_constraint": 0.75 if constraint is None else constraint,
    }

    # Transceiver catalog: entries already in the catalog are reused as they are. The catalog is
    # shared by every fabric and edited on its own (RAIL's prices, the forecasts' limits), so a
    # document must not reprice or re-limit the optics of other fabrics; where its entry differs,
    # the dry run and the audit record name each difference (`kept_models`).
    catalog_fields = sorted(MODEL_KEYS - {"name"})
    existing_models = {row["name"]: row for row in TransceiverModel.objects.values("name", *catalog_fields)}
    kept_models: list[dict[str, Any]] = []
    new_models, model_names = [], set(existing_models)
    for index, row in enumerate(check.rows(doc, "transceiver_models")):
        if not isinstance(row, dict):
            check.error("transceiver_models", index, None, "must be an object")
            continue
        check.unknown_keys(row, MODEL_KEYS, "transceiver_models", index)
        model_name = check.string(row, "name", "transceiver_models", index, required=True, max_length=64)
        if not model_name:
            continue
        if model_name in model_names and model_name not in existing_models:
            check.error("transceiver_models", index, "name", f"duplicate transceiver model '{model_name}'")
            continue
        model: dict[str, Any] = {
            "name": model_name,
            "speed_gbps": check.integer(
                row,
                "speed_gbps",
                "transceiver_models",
                index,
                required=True,
                **_limits(TransceiverModel, "speed_gbps", 1),
            ),
            "fiber": check.choice(row, "fiber", "transceiver_models", index, FIBERS),
            "reach_m": check.number(
                row, "reach_m", "transceiver_models", index, required=True, **_limits(TransceiverModel, "reach_m")
            ),
            "price_usd": check.number(
                row, "price_usd", "transceiver_models", index, **_limits(TransceiverModel, "price_usd", 0.0)
            ),
        }
        for key in ("rx_power_min_dbm", "rx_power_max_dbm", "tx_power_min_dbm", "tx_power_max_dbm"):
            model[key] = check.number(row, key, "transceiver_models", index)
        # RAIL fields (docs/rail.md); a price without a source was entered by someone, as in the API.
        default_source = TransceiverModel.PriceSource.PLANNER if model["price_usd"] is not None else ""
        model["price_source"] = check.choice(
            row, "price_source", "transceiver_models", index, PRICE_SOURCES, default_source
        )
        model["link_fec"] = check.boolean(row, "link_fec", "transceiver_models", index)
        model["power_w"] = check.number(
            row, "power_w", "transceiver_models", index, **_limits(TransceiverModel, "power_w")
        )
        model["stretch"], stretch_problems = clean_stretch(row.get("stretch", []), model["reach_m"])
        for message in stretch_problems:
            check.error("transceiver_models", index, "stretch", message)
        if not model["fiber"]:
            check.error("transceiver_models", index, "fiber", "is required")
        model_names.add(model_name)
        if model_name not in existing_models:
            new_models.append(model)
        else:
            catalog = {
                key: float(value) if isinstance(value, Decimal) else value
                for key, value in existing_models[model_name].items()
            }
            differences = {
                key: {"document": model[key], "catalog": catalog[key]}
                for key in catalog_fields
                if key in row and model[key] != catalog[key]
            }
            if differences:
                kept_models.append({"name": model_name, "differences": differences})

    switches, tier_of = [], {}
    switch_rows = check.rows(doc, "switches")
    if not switch_rows and isinstance(doc.get("switches", []), list):
        # An import describes a fabric that exists: an empty one is made with POST /api/fabrics/.
        check.error("switches", None, None, "an import needs at least one switch")
    for index, row in enumerate(switch_rows):
        if not isinstance(row, dict):
            check.error("switches", index, None, "must be an object")
            continue
        check.unknown_keys(row, SWITCH_KEYS, "switches", index)
        switch_name = check.string(row, "name", "switches", index, required=True)
        tier = check.integer(row, "tier", "switches", index, required=True, **_limits(Switch, "tier"))
        if tier is not None and tiers and tier >= len(tiers):
            check.error("switches", index, "tier", f"must be below {len(tiers)} (the fabric has {len(tiers)} tiers)")
            tier = None
        if switch_name in tier_of:
            check.error("switches", index, "name", f"duplicate switch name '{switch_name}'")
            continue
        switch = {
            "name": switch_name,
            "tier": tier,
            "pod": check.integer(row, "pod", "switches", index, **_limits(Switch, "pod")),
            "plane": check.integer(row, "plane", "switches", index, **_limits(Switch, "plane")),
            "rack": check.string(row, "rack", "switches", index),
            "vendor": check.string(row, "vendor", "switches", index),
            "model": check.string(row, "model", "switches", index),
            "capacity_constraint": check.number(
                row, "capacity_constraint", "switches", index, minimum=0.0, maximum=1.0
            ),
        }
        if switch_name:
            tier_of[switch_name] = tier
            switches.append(switch)

    link_rows = check.rows(doc, "links")
    if "links_csv" in doc:
        if not isinstance(doc["links_csv"], str):
            check.error("fabric", None, "links_csv", "must be CSV text")
        else:
            link_rows = link_rows + parse_links_csv(doc["links_csv"])
    links: list[dict] = []
    used_ports: dict[tuple[str, str], int] = {}
    for index, row in enumerate(link_rows):
        if not isinstance(row, dict):
            check.error("links", index, None, "must be an object")
            continue
        check.unknown_keys(row, LINK_KEYS, "links", index)
        ends = []
        for switch_key, port_key in (("a", "a_port"), ("b", "b_port")):
            switch_name = check.string(row, switch_key, "links", index, required=True)
            port = check.string(row, port_key, "links", index, required=True, max_length=64)
            if switch_name and switch_name not in tier_of:
                check.error("links", index, switch_key, f"unknown switch '{switch_name}'")
            elif switch_name and port:
                previous = used_ports.setdefault((switch_name, port), index)
                if previous != index:
                    check.error(
                        "links", index, port_key, f"port {switch_name}:{port} is already used by link {previous}"
                    )
            ends.append((switch_name, port))
        link_model = row.get("transceiver_model") or None
        if link_model is not None and link_model not in model_names:
            check.error("links", index, "transceiver_model", f"unknown transceiver model '{link_model}'")
        link = {
            "length_m": check.number(row, "length_m", "links", index, **_limits(Link, "length_m")),
            "speed_gbps": check.integer(row, "speed_gbps", "links", index, **_limits(Link, "speed_gbps", 1)),
            "fiber": check.choice(row, "fiber", "links", index, FIBERS),
            "admin_state": check.choice(row, "admin_state", "links", index, ADMIN_STATES, Link.AdminState.ENABLED),
            "oper_state": check.choice(row, "oper_state", "links", index, OPER_STATES, Link.OperState.UP),
            "transceiver_model": link_model,
            **{key: check.string(row, key, "links", index, max_length=64) for key in COMPONENT_KEYS},
        }
        (a_name, a_port), (b_name, b_port) = ends
        a_tier, b_tier = tier_of.get(a_name), tier_of.get(b_name)
        if a_tier is None or b_tier is None:
            continue
        problem = check_link_ends(a_tier, b_tier)
        if problem:
            check.error("links", index, "b", problem)
            continue
        a_card, b_card = link.pop("a_line_card"), link.pop("b_line_card")
        if a_tier > b_tier:  # side A is stored as the lower tier
            (a_name, a_port), (b_name, b_port) = (b_name, b_port), (a_name, a_port)
            a_card, b_card = b_card, a_card
        links.append(
            {**link, "a": a_name, "a_port": a_port, "z": b_name, "z_port": b_port, "a_line_card": a_card,
             "z_line_card": b_card}
        )  # fmt: skip

    if check.errors:
        raise InterchangeError(check.errors)
    return ValidatedDocument(
        fabric=fabric,
        switches=switches,
        links=links,
        new_models=new_models,
        model_names=model_names,
        kept_models=kept_models,
    )


def import_document(doc: Any, user=None, progress: Progress | None = None) -> Fabric:
    """Validate, then write the whole fabric in one transaction (all or nothing)."""
    plan = validate_document(doc)
    report = progress or (lambda fraction, message: None)
    report(0.05, f"validated {len(plan.switches)} switches and {len(plan.links)} links")
    try:
        with transaction.atomic():
            fabric = Fabric.objects.create(**plan.fabric)
            TransceiverModel.objects.bulk_create(TransceiverModel(**model) for model in plan.new_models)
            model_ids = dict(TransceiverModel.objects.filter(name__in=plan.model_names).values_list("name", "id"))
            switch_objects = Switch.objects.bulk_create(
                (Switch(fabric=fabric, **switch) for switch in plan.switches), batch_size=WRITE_BATCH
            )
            switch_ids = {switch.name: switch.pk for switch in switch_objects}
            report(0.1, f"wrote {len(switch_objects)} switches")
            _write_links(fabric, plan.links, switch_ids, model_ids, report)
            audit.record(
                user,
                audit.IMPORT,
                fabric,
                after={
                    **audit.snapshot(fabric),
                    "switches": len(plan.switches),
                    "links": len(plan.links),
                    "transceiver_models_created": [model["name"] for model in plan.new_models],
                    "transceiver_models_kept": plan.kept_models,
                },
            )
    except IntegrityError as exc:  # e.g. a fabric of the same name committed meanwhile
        raise InterchangeError(
            [{"section": "fabric", "index": None, "field": None, "message": f"conflicts with existing data: {exc}"}]
        ) from exc
    # A large import changes the tables' shape at once; without fresh statistics the planner
    # keeps its empty-table plans until autovacuum comes round (a CorrOpt run took 74 s, not 15).
    with connection.cursor() as cursor:
        for model in (Switch, Link, Transceiver):
            cursor.execute(f"ANALYZE {connection.ops.quote_name(model._meta.db_table)}")
    # No progress report after the commit: it could raise a late cancellation for a fabric
    # that is already written. The job runner marks the job done.
    return fabric


def _write_links(fabric: Fabric, links: list[dict], switch_ids: dict, model_ids: dict, report: Progress) -> None:
    """Links, then the transceivers at both ends of each, with COPY (see lightpath.db)."""
    total = max(len(links), 1)

    def link_rows():
        for index, row in enumerate(links, start=1):
            yield (fabric.pk, switch_ids[row["a"]], row["a_port"], switch_ids[row["z"]], row["z_port"],
                   row["length_m"], row["speed_gbps"], row["fiber"], row["admin_state"], "", row["oper_state"],
                   row["breakout"], row["cable_id"], row["a_line_card"], row["z_line_card"])  # fmt: skip
            if index % WRITE_BATCH == 0:
                report(0.1 + 0.6 * index / total, f"wrote {index} of {len(links)} links")

    copy_rows(
        Link,
        ["fabric", "a_switch", "a_port", "z_switch", "z_port", "length_m", "speed_gbps", "fiber",
         "admin_state", "admin_reason", "oper_state", "breakout", "cable_id", "a_line_card", "z_line_card"],
        link_rows(),
    )  # fmt: skip
    report(0.7, f"wrote {len(links)} links; writing transceivers")
    link_ids = {
        (a_switch, a_port): link_id
        for link_id, a_switch, a_port in Link.objects.filter(fabric=fabric).values_list("id", "a_switch_id", "a_port")
    }

    def transceiver_rows():
        for index, row in enumerate(links, start=1):
            if row["transceiver_model"]:
                link_id = link_ids[(switch_ids[row["a"]], row["a_port"])]
                model_id = model_ids[row["transceiver_model"]]
                yield (link_id, Transceiver.Side.A.value, model_id, "")
                yield (link_id, Transceiver.Side.Z.value, model_id, "")
            if index % WRITE_BATCH == 0:
                report(0.7 + 0.25 * index / total, f"wrote transceivers of {index} of {len(links)} links")

    copy_rows(Transceiver, ["link", "side", "model", "serial"], transceiver_rows())


def export_document(fabric: Fabric) -> dict:
    switch_names: dict[int, str] = {}
    switches = []
    for row in (
        Switch.objects.filter(fabric=fabric)
        .order_by("tier", "pod", "plane", "name")
        .values("id", "name", "tier", "pod", "plane", "rack", "vendor", "model", "capacity_constraint")
    ):
        switch_names[row["id"]] = row["name"]
        switches.append({key: value for key, value in row.items() if key != "id"})
    model_of_link = dict(
        Transceiver.objects.filter(link__fabric=fabric, side=Transceiver.Side.A).values_list("link_id", "model__name")
    )
    links = [
        {
            "a": switch_names[row["a_switch_id"]],
            "a_port": row["a_port"],
            "b": switch_names[row["z_switch_id"]],
            "b_port": row["z_port"],
            "length_m": row["length_m"],
            "speed_gbps": row["speed_gbps"],
            "fiber": row["fiber"] or None,
            "transceiver_model": model_of_link.get(row["id"]),
            "admin_state": row["admin_state"],
            "oper_state": row["oper_state"],
            # Only what a link names itself: the rule's answer is not written back as if named.
            **{key: value for key, value in _components(row).items() if value},
        }
        for row in Link.objects.filter(fabric=fabric)
        .order_by("id")
        .values(
            "id",
            "a_switch_id",
            "a_port",
            "z_switch_id",
            "z_port",
            "length_m",
            "speed_gbps",
            "fiber",
            "admin_state",
            "oper_state",
            "breakout",
            "cable_id",
            "a_line_card",
            "z_line_card",
        )
    ]
    used_models = set(model_of_link.values())
    models = [
        {**row, "price_usd": float(row["price_usd"]) if row["price_usd"] is not None else None}
        for row in TransceiverModel.objects.filter(name__in=used_models).values(*sorted(MODEL_KEYS))
    ]
    return {
        "format": FORMAT,
        "name": fabric.name,
        "description": fabric.description,
        "tiers": list(fabric.tiers),
        "capacity_constraint": fabric.capacity_constraint,
        "switches": switches,
        "links": links,
        "transceiver_models": models,
    }


def _components(row: Mapping[str, Any]) -> dict[str, str]:
    return {
        "breakout": row["breakout"],
        "cable_id": row["cable_id"],
        "a_line_card": row["a_line_card"],
        "b_line_card": row["z_line_card"],
    }


def export_links_csv(fabric: Fabric) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=LINK_CSV_COLUMNS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for link in export_document(fabric)["links"]:
        writer.writerow({key: "" if value is None else value for key, value in link.items()})
    return out.getvalue()
