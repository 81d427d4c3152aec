"""Circuit switches' port availability, demand uploads and the demand heat map (issue #7).

Schedules (the `circuits.schedule` job kind) are in schedule/, the kind declared in jobs.py.
"""

from __future__ import annotations

import json
import math
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.db.models import F, Func, IntegerField

from corruption.models import Ticket
from fabric.models import Fabric, Link, Switch
from lightpath_fixtures.demand import (
    DemandProblem,
    ParsedDemand,
    bucket_windows,
    infer_window_s,
    looks_like_json,
    parse_demand,
    parse_demand_rows,
)

from .models import CircuitAttachment, CircuitSwitch, Demand, DemandWindow

# Upload limits (docs/circuits.md "In the server"): the request body is also bounded by
# LIGHTPATH_MAX_BODY_BYTES (64 MiB by default).
MAX_DEMAND_ROWS = 2_000_000
MAX_DEMAND_WINDOWS = 100_000
MAX_DEMAND_RACKS = 4_000
MAX_LISTED_PROBLEMS = 100
MAX_MATRIX_RACKS = 400
DEFAULT_MATRIX_RACKS = 64

TOR_TIER = 0


# ---------------------------------------------------------------------------------------------
# Circuit switches


def attachment_problems(
    fabric: Fabric, port_count: int | None, attachments: Sequence[dict[str, Any]]
) -> dict[str, list[str]]:
    """Every problem of a circuit switch's attachments, by field ("attachments", "port_count").

    `attachments`: [{"tor": Switch, "optical_ports": int, "links": [Link, ...]}].
    """
    problems: dict[str, list[str]] = defaultdict(list)
    seen_tors: set[int] = set()
    seen_links: dict[int, str] = {}
    for i, attachment in enumerate(attachments):
        tor: Switch = attachment["tor"]
        at = f"attachments[{i}]"
        if tor.fabric_id != fabric.pk:
            problems["attachments"].append(f"{at}: switch {tor.name!r} is not in fabric {fabric.name!r}")
        elif tor.tier != TOR_TIER:
            problems["attachments"].append(f"{at}: switch {tor.name!r} is not a ToR (tier {tor.tier})")
        if tor.pk in seen_tors:
            problems["attachments"].append(f"{at}: ToR {tor.name!r} is attached twice")
        seen_tors.add(tor.pk)
        links: list[Link] = list(attachment.get("links") or [])
        ports = attachment.get("optical_ports", 1)
        if len(links) > ports:
            problems["attachments"].append(
                f"{at}: {len(links)} links for {ports} optical port(s) (each link carries one port)"
            )
        for link in links:
            if link.fabric_id != fabric.pk:
                problems["attachments"].append(f"{at}: link {link.pk} is not in fabric {fabric.name!r}")
            elif tor.pk not in (link.a_switch_id, link.z_switch_id):
                problems["attachments"].append(f"{at}: link {link.pk} does not end on ToR {tor.name!r}")
            if link.pk in seen_links:
                problems["attachments"].append(f"{at}: link {link.pk} already carries a port of {seen_links[link.pk]}")
            seen_links[link.pk] = tor.name
    used = sum(attachment.get("optical_ports", 1) for attachment in attachments)
    if port_count is not None and used > port_count:
        problems["port_count"].append(f"{port_count} ports are fewer than the {used} optical ports of the attachments")
    return dict(problems)


@dataclass(frozen=True)
class PortState:
    available: int
    unavailable: list[dict[str, Any]]


def port_states(attachments: Iterable[CircuitAttachment]) -> dict[int, PortState]:
    """Available ports per attachment id. A listed link that is admin-disabled, operationally down
    or has a ticket not yet resolved takes its port away (one query for the links, one for tickets)."""
    attachments = list(attachments)
    link_rows = list(
        CircuitAttachment.links.through.objects.filter(
            circuitattachment_id__in=[a.pk for a in attachments]
        ).values_list("circuitattachment_id", "link_id", "link__admin_state", "link__oper_state")
    )
    ticketed = set(
        Ticket.objects.filter(link_id__in={row[1] for row in link_rows})
        .exclude(state=Ticket.State.RESOLVED)
        .values_list("link_id", flat=True)
    )
    lost: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for attachment_id, link_id, admin_state, oper_state in sorted(link_rows, key=lambda row: row[1]):
        if admin_state == Link.AdminState.DISABLED:
            reason = "disabled"
        elif oper_state == Link.OperState.DOWN:
            reason = "down"
        elif link_id in ticketed:
            reason = "open_ticket"
        else:
            continue
        lost[attachment_id].append({"link": link_id, "reason": reason})
    return {a.pk: PortState(max(a.optical_ports - len(lost[a.pk]), 0), lost[a.pk]) for a in attachments}


@transaction.atomic
def replace_attachments(switch: CircuitSwitch, attachments: Sequence[dict[str, Any]]) -> None:
    switch.attachments.all().delete()
    created = CircuitAttachment.objects.bulk_create(
        CircuitAttachment(circuit_switch=switch, tor=a["tor"], optical_ports=a.get("optical_ports", 1))
        for a in attachments
    )
    through = CircuitAttachment.links.through
    through.objects.bulk_create(
        through(circuitattachment_id=row.pk, link_id=link.pk)
        for row, a in zip(created, attachments, strict=True)
        for link in a.get("links") or []
    )


def all_tor_attachments(fabric: Fabric) -> list[dict[str, Any]]:
    return [{"tor": tor, "optical_ports": 1, "links": []} for tor in fabric.switches.filter(tier=TOR_TIER)]


# ---------------------------------------------------------------------------------------------
# Demand uploads


class DemandInvalid(Exception):
    """Every problem of an upload, in the jobs' error shape ({"section", "field", "message", "line"?})."""

    def __init__(self, errors: list[dict[str, Any]]):
        super().__init__(f"{len(errors)} problem(s) in the demand")
        self.errors = errors


def tor_ids_by_name(fabric: Fabric) -> dict[str, int]:
    return dict(fabric.switches.filter(tier=TOR_TIER).values_list("name", "id"))


def _resolver(fabric: Fabric):
    names = tor_ids_by_name(fabric)

    def resolve(text: str) -> int:
        switch_id = names.get(text)
        if switch_id is None:
            raise ValueError(f"{text!r} is not a ToR of fabric {fabric.name!r}")
        return switch_id

    return resolve


def _error_rows(parsed: ParsedDemand[Any], field: str) -> list[dict[str, Any]]:
    def row(problem: DemandProblem) -> dict[str, Any]:
        if problem.where == "line":
            out: dict[str, Any] = {"section": "demand", "field": field, "message": problem.text()}
            if problem.number is not None:
                out["line"] = problem.number
            return out
        entry_field = f"{field}[{problem.number}]" if problem.number is not None else field
        return {"section": "demand", "field": entry_field, "message": problem.message}

    rows = [row(problem) for problem in parsed.problems[:MAX_LISTED_PROBLEMS]]
    if len(parsed.problems) > MAX_LISTED_PROBLEMS:
        more = len(parsed.problems) - MAX_LISTED_PROBLEMS
        rows.append({"section": "demand", "field": field, "message": f"and {more} more problems (not listed)"})
    return rows


def parse_upload(fabric: Fabric, *, text: str | None = None, rows: Any = None, field: str = "csv") -> ParsedDemand[int]:
    resolve = _resolver(fabric)
    if rows is not None:
        return parse_demand_rows(rows, resolve, max_rows=MAX_DEMAND_ROWS)
    return parse_demand(text or "", resolve, max_rows=MAX_DEMAND_ROWS)


@transaction.atomic
def create_demand(
    fabric: Fabric,
    name: str,
    *,
    text: str | None = None,
    rows: Any = None,
    source_field: str = "csv",
    window_s: float | None = None,
    description: str = "",
    user=None,
) -> Demand:
    """Parse and store an uploaded demand; DemandInvalid lists every problem (bad rows by line or
    entry, the limits, a name already used in the fabric)."""
    errors: list[dict[str, Any]] = []
    if not name.strip():
        errors.append({"section": "demand", "field": "name", "message": "a demand needs a name"})
    elif Demand.objects.filter(fabric=fabric, name=name).exists():
        errors.append(
            {"section": "demand", "field": "name", "message": f"fabric {fabric.name!r} already has a demand {name!r}"}
        )
    if window_s is not None and not window_in_range(window_s):
        errors.append({"section": "demand", "field": "window_s", "message": WINDOW_RANGE})
        window_s = None
    parsed = parse_upload(fabric, text=text, rows=rows, field=source_field)
    errors += _error_rows(parsed, source_field)
    if errors:
        raise DemandInvalid(errors)
    window = window_s or infer_window_s(row[3] for row in parsed.rows)
    first, windows = bucket_windows(parsed.rows, window)
    racks = {rack for row in parsed.rows for rack in row[:2]}
    if len(windows) > MAX_DEMAND_WINDOWS:
        errors.append(
            {"section": "demand", "field": "window_s",
             "message": f"{len(windows)} windows of {window:g} s, above the limit of {MAX_DEMAND_WINDOWS}"}
        )  # fmt: skip
    if len(racks) > MAX_DEMAND_RACKS:
        errors.append(
            {"section": "demand", "field": source_field,
             "message": f"{len(racks)} racks, above the limit of {MAX_DEMAND_RACKS}"}
        )  # fmt: skip
    if errors:
        raise DemandInvalid(errors)
    stored = [(index, entries) for index, entries in enumerate(windows) if entries]
    demand = Demand.objects.create(
        fabric=fabric,
        name=name,
        description=description,
        uploaded_by=user,
        window_s=window,
        first_window_start=first,
        window_count=len(windows),
        row_count=sum(len(entries) for _, entries in stored),
        rack_count=len(racks),
        total_bytes=sum(row[2] for _, entries in stored for row in entries),
    )
    _insert_windows(demand, stored)
    return demand


WINDOW_RANGE = "must be in (0, 86400] seconds"


def window_in_range(window_s: float) -> bool:
    return math.isfinite(window_s) and 0 < window_s <= 86_400


def upload_demand(data: Mapping[str, Any], file_bytes: bytes | None, user) -> Demand:
    """An upload as the API receives it: `{fabric, name, window_s?, description?}` with the rows as
    `csv` (text), `rows` (a JSON list) or a multipart file (CSV or JSON). DemandInvalid lists every
    problem of the form and of the rows at once."""
    errors: list[dict[str, Any]] = []

    def problem(field: str, message: str) -> None:
        errors.append({"section": "demand", "field": field, "message": message})

    fabric = None
    raw_fabric = data.get("fabric")
    if isinstance(raw_fabric, int | str) and str(raw_fabric).strip().isdigit():
        fabric = Fabric.objects.filter(pk=int(raw_fabric)).first()
    if fabric is None:
        problem("fabric", f"must be the id of a fabric, got {raw_fabric!r}")
    window_s: float | None = None
    raw_window = data.get("window_s")
    if raw_window not in ("", None):
        try:
            window_s = float(raw_window)
        except (TypeError, ValueError):
            problem("window_s", f"must be a number of seconds, got {raw_window!r}")
        else:
            # Said with the form's other problems, not on the next submit (trial 30).
            if not window_in_range(window_s):
                problem("window_s", WINDOW_RANGE)
    name = data.get("name")
    if not isinstance(name, str) or not 0 < len(name.strip()) <= 100:
        problem("name", "must be a name of 1 to 100 characters")
    text: str | None = None
    rows: Any = None
    field = "csv"
    if file_bytes is not None:
        field = "file"
        try:
            text = file_bytes.decode("utf-8")
        except UnicodeDecodeError:
            problem("file", "is not UTF-8 text")
    elif isinstance(data.get("rows"), list):
        rows, field = data["rows"], "rows"
    elif isinstance(data.get("csv"), str):
        text = data["csv"]
    else:
        problem("csv", "give the demand as csv (text), rows (a JSON list) or a multipart file")
    if text is not None and looks_like_json(text):
        try:
            rows, text = json.loads(text), None
        except json.JSONDecodeError as exc:
            errors.append(
                {"section": "demand", "field": field, "line": exc.lineno,
                 "message": f"line {exc.lineno}: not JSON ({exc.msg})"}
            )  # fmt: skip
    if errors or fabric is None or not isinstance(name, str):
        raise DemandInvalid(errors)
    return create_demand(
        fabric,
        name.strip(),
        text=text,
        rows=rows,
        source_field=field,
        window_s=window_s,
        description=str(data.get("description") or ""),
        user=user,
    )


def _array(values: Iterable[int]) -> str:
    return "{" + ",".join(map(str, values)) + "}"


def _insert_windows(demand: Demand, windows: list[tuple[int, list[tuple[int, int, int]]]]) -> None:
    """One INSERT per window with its arrays as PostgreSQL array literals: Django's ArrayField would
    prepare every element through the field (about 70% of an upload's time at a million rows)."""
    quote = connection.ops.quote_name
    table = quote(DemandWindow._meta.db_table)
    columns = ", ".join(quote(c) for c in ("demand_id", "index", "src", "dst", "bytes", "total_bytes"))
    sql = f"INSERT INTO {table} ({columns}) VALUES (%s, %s, %s::bigint[], %s::bigint[], %s::bigint[], %s)"  # noqa: S608  (names from the model)
    with connection.cursor() as cursor:
        cursor.executemany(
            sql,
            [
                (
                    demand.pk,
                    index,
                    _array(row[0] for row in entries),
                    _array(row[1] for row in entries),
                    _array(row[2] for row in entries),
                    sum(row[2] for row in entries),
                )
                for index, entries in windows
            ],
        )


def window_totals(demand: Demand) -> list[dict[str, Any]]:
    """Every window (empty ones included) with its start, row count and bytes."""
    stored = {
        index: (rows, total)
        for index, rows, total in demand.windows.annotate(
            rows=Func(F("src"), function="cardinality", output_field=IntegerField())
        ).values_list("index", "rows", "total_bytes")
    }
    return [
        {
            "index": index,
            "start_s": demand.first_window_start + index * demand.window_s,
            "rows": stored.get(index, (0, 0))[0],
            "total_bytes": stored.get(index, (0, 0))[1],
        }
        for index in range(demand.window_count)
    ]


# ---------------------------------------------------------------------------------------------
# Heat map


class MatrixInvalid(Exception):
    def __init__(self, problems: dict[str, list[str]]):
        super().__init__("bad matrix request")
        self.problems = problems


def _natural_key(name: str) -> list[Any]:
    """t2 before t10."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def matrix(
    demand: Demand, window: int, racks: int = DEFAULT_MATRIX_RACKS, circuit_switch: CircuitSwitch | None = None
) -> dict[str, Any]:
    """One window's directed rack x rack bytes, sparse, over at most `racks` ToRs sorted by name:
    the circuit switch's attached ToRs if given (idle ones too), else the ToRs with demand; the
    busiest when there are more."""
    problems: dict[str, list[str]] = {}
    if not 0 <= window < demand.window_count:
        problems["window"] = [f"must be in 0..{demand.window_count - 1}"]
    if not 1 <= racks <= MAX_MATRIX_RACKS:
        problems["racks"] = [f"must be in 1..{MAX_MATRIX_RACKS}"]
    if circuit_switch is not None and circuit_switch.fabric_id != demand.fabric_id:
        problems["circuit_switch"] = ["is not in the demand's fabric"]
    if problems:
        raise MatrixInvalid(problems)
    row = demand.windows.filter(index=window).values_list("src", "dst", "bytes", "total_bytes").first()
    src, dst, volumes, total = row if row is not None else ([], [], [], 0)
    volume_by_rack: dict[int, int] = defaultdict(int)
    for a, b, v in zip(src, dst, volumes, strict=True):
        volume_by_rack[a] += v
        volume_by_rack[b] += v
    if circuit_switch is not None:
        candidates = list(circuit_switch.attachments.values_list("tor_id", flat=True))
    else:
        candidates = [rack for rack, volume in volume_by_rack.items() if volume > 0]
    chosen = sorted(candidates, key=lambda rack: (-volume_by_rack.get(rack, 0), rack))[:racks]
    names = dict(Switch.objects.filter(pk__in=chosen).values_list("id", "name"))
    ordered = sorted((rack for rack in chosen if rack in names), key=lambda rack: _natural_key(names[rack]))
    position = {rack: i for i, rack in enumerate(ordered)}
    cells = [
        [position[a], position[b], v]
        for a, b, v in zip(src, dst, volumes, strict=True)
        if a in position and b in position and v > 0
    ]
    demanding = [rack for rack, volume in volume_by_rack.items() if volume > 0]
    return {
        "window": window,
        "start_s": demand.first_window_start + window * demand.window_s,
        "window_total_bytes": total,
        "shown_bytes": sum(cell[2] for cell in cells),
        "racks": [{"id": rack, "name": names[rack]} for rack in ordered],
        "cells": cells,
        "racks_with_demand": len(demanding),
        "truncated": any(rack not in position for rack in demanding),
    }
