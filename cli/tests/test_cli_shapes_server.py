"""Every key the CLI prints of an API answer (lightpath_cli.server.shapes) is a field of that answer in
the live server's OpenAPI schema: a field renamed or dropped on the server fails here instead of
printing null in `--output json|csv`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import httpx

from lightpath_cli.server import shapes

# (keys, method, path, where in the 2xx answer): "[]" steps into the items of a list.
CHECKS: list[tuple[str, Sequence[str], str, str, list[str]]] = [
    ("JOB_KEYS", shapes.JOB_KEYS, "get", "/api/jobs/{id}/", []),
    ("JOB_LIST_KEYS", shapes.JOB_LIST_KEYS, "get", "/api/jobs/", ["results", "[]"]),
    ("JOB_LOG_KEYS", shapes.JOB_LOG_KEYS, "get", "/api/jobs/{id}/log/", ["[]"]),
    ("FABRIC_KEYS", shapes.FABRIC_KEYS, "get", "/api/fabrics/{id}/", []),
    ("CAPACITY_TOR_KEYS", shapes.CAPACITY_TOR_KEYS, "get", "/api/fabrics/{id}/capacity/", ["tors", "[]"]),
    ("CONSTRAINTS_KEYS", shapes.CONSTRAINTS_KEYS, "get", "/api/fabrics/{id}/constraints/", []),
    ("CONSTRAINTS_SET_KEYS", shapes.CONSTRAINTS_SET_KEYS, "patch", "/api/fabrics/{id}/constraints/", []),
    ("CHANGE_KEYS", shapes.CHANGE_KEYS, "patch", "/api/fabrics/{id}/constraints/", ["changes", "[]"]),
    ("LINK_KEYS", shapes.LINK_KEYS, "get", "/api/links/", ["results", "[]"]),
    ("CORRUPTION_EVENT_KEYS", shapes.CORRUPTION_EVENT_KEYS, "get", "/api/corruption-events/", ["results", "[]"]),
    ("FORECAST_KEYS", shapes.FORECAST_KEYS, "get", "/api/links/{id}/forecast/", ["forecast"]),
    # `links at-risk` prints them from the rows of the forecast list.
    ("FORECAST_KEYS", shapes.FORECAST_KEYS, "get", "/api/link-forecasts/", ["results", "[]"]),
    ("DRAIN_KEYS", shapes.DRAIN_KEYS, "post", "/api/switches/{id}/drain/", []),
    ("DRY_RUN_KEYS", shapes.DRY_RUN_KEYS, "patch", "/api/links/{id}/", []),
    ("DRY_RUN_TOR_KEYS", shapes.DRY_RUN_TOR_KEYS, "patch", "/api/links/{id}/", ["affected_tors", "[]"]),
    ("TICKET_KEYS", shapes.TICKET_KEYS, "get", "/api/tickets/", ["results", "[]"]),
    ("TICKET_DETAIL_KEYS", shapes.TICKET_DETAIL_KEYS, "get", "/api/tickets/{id}/", []),
    ("TICKET_ACT_KEYS", shapes.TICKET_ACT_KEYS, "post", "/api/tickets/{id}/act/", []),
    ("TICKET_END_KEYS", shapes.TICKET_END_KEYS, "get", "/api/tickets/{id}/", ["ends", "[]"]),
    ("TICKET_STEP_KEYS", shapes.TICKET_STEP_KEYS, "get", "/api/tickets/{id}/", ["steps", "[]"]),
    ("TICKET_COMMENT_KEYS", shapes.TICKET_COMMENT_KEYS, "get", "/api/tickets/{id}/", ["comments", "[]"]),
    ("TICKET_RECOMMENDATION_KEYS", shapes.TICKET_RECOMMENDATION_KEYS, "get", "/api/tickets/{id}/",
     ["recommendation"]),
    ("TICKET_METRICS_KEYS", shapes.TICKET_METRICS_KEYS, "get", "/api/tickets/metrics/", []),
    ("TICKET_HISTORY_KEYS", shapes.TICKET_HISTORY_KEYS, "get", "/api/tickets/metrics/history/", []),
    ("TICKET_HISTORY_BUCKET_KEYS", shapes.TICKET_HISTORY_BUCKET_KEYS, "get", "/api/tickets/metrics/history/",
     ["buckets", "[]"]),
    ("ENDPOINT_KEYS", shapes.ENDPOINT_KEYS, "get", "/api/webhooks/{id}/", []),
    ("ENDPOINT_ADD_KEYS", shapes.ENDPOINT_ADD_KEYS, "post", "/api/webhooks/", []),
    ("DELIVERY_KEYS", shapes.DELIVERY_KEYS, "get", "/api/webhook-deliveries/{id}/", []),
    ("DEMAND_KEYS", shapes.DEMAND_KEYS, "get", "/api/demands/", ["results", "[]"]),
    ("CHECK_AFFECTED_KEYS", shapes.CHECK_AFFECTED_KEYS, "get", "/api/links/{id}/corropt-check/", ["affected", "[]"]),
    ("OPTIMIZED_ROW_KEYS", shapes.OPTIMIZED_ROW_KEYS, "get", "/api/jobs/{id}/", ["result", "disabled", "[]"]),
    ("WORK_ORDER_KEYS", shapes.WORK_ORDER_KEYS, "get", "/api/work-orders/", ["results", "[]"]),
    ("WORK_ORDER_DETAIL_KEYS", shapes.WORK_ORDER_DETAIL_KEYS, "get", "/api/work-orders/{id}/", []),
    ("WORK_ORDER_FINISH_KEYS", shapes.WORK_ORDER_FINISH_KEYS, "post", "/api/work-orders/{id}/finish/", []),
    ("WORK_ORDER_PREVIEW_KEYS", shapes.WORK_ORDER_PREVIEW_KEYS, "post", "/api/work-orders/{id}/start/", []),
    ("RESTORATION_LINK_KEYS", shapes.RESTORATION_LINK_KEYS, "post", "/api/work-orders/{id}/start/",
     ["restoration", "links", "[]"]),
    ("UNREACHABLE_TOR_KEYS", shapes.UNREACHABLE_TOR_KEYS, "post", "/api/work-orders/{id}/start/",
     ["unreachable_tors", "[]"]),
    ("WAITS_FOR_KEYS", shapes.WAITS_FOR_KEYS, "post", "/api/work-orders/{id}/start/", ["waits_for", "[]"]),
    ("TODAY_KEYS", shapes.TODAY_KEYS, "get", "/api/work-orders/today/", []),
    ("TODAY_PLAN_KEYS", shapes.TODAY_PLAN_KEYS, "get", "/api/work-orders/today/", ["plan"]),
    ("TODAY_VISIT_KEYS", shapes.TODAY_VISIT_KEYS, "get", "/api/work-orders/today/", ["visits", "[]"]),
    ("RECOVERY_KEYS", shapes.RECOVERY_KEYS, "get", "/api/fabrics/{id}/recovery/", []),
    ("RECOVERY_TOR_KEYS", shapes.RECOVERY_TOR_KEYS, "get", "/api/fabrics/{id}/recovery/", ["under_tors", "[]"]),
    ("RECOVERY_UNREACHABLE_KEYS", shapes.RECOVERY_UNREACHABLE_KEYS, "get", "/api/fabrics/{id}/recovery/",
     ["unreachable_tors", "[]"]),
    ("RECOVERY_APPLIED_KEYS", shapes.RECOVERY_APPLIED_KEYS, "post", "/api/fabrics/{id}/recovery/", []),
]  # fmt: skip

# Answers (or parts) that are an untyped object in OpenAPI today, so their keys cannot be checked yet;
# helper "contract" (issue #17) is typing them. Only these may be untyped: once typed, they are checked.
UNTYPED_TODAY = {
    "CAPACITY_TOR_KEYS": "GET /api/fabrics/{id}/capacity/",
    "CONSTRAINTS_KEYS": "GET /api/fabrics/{id}/constraints/",
    "CONSTRAINTS_SET_KEYS": "PATCH /api/fabrics/{id}/constraints/",
    "CHANGE_KEYS": "PATCH /api/fabrics/{id}/constraints/",
    "TICKET_END_KEYS": "TicketDetail.ends",
    "TICKET_RECOMMENDATION_KEYS": "TicketDetail.recommendation",
    "TICKET_METRICS_KEYS": "GET /api/tickets/metrics/",
    "CHECK_AFFECTED_KEYS": "GET /api/links/{id}/corropt-check/",
    "OPTIMIZED_ROW_KEYS": "the corruption.optimize job's result",
}


class Untyped(Exception):
    """The schema at this point is an object without declared properties."""


def _resolve(schema: dict[str, Any], components: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = components[schema["$ref"].rsplit("/", 1)[-1]]
    return schema


def _variants(schema: dict[str, Any], components: dict[str, Any]) -> list[dict[str, Any]]:
    """The object schemas a value may be: allOf parts, oneOf/anyOf alternatives, or the schema itself."""
    schema = _resolve(schema, components)
    for combinator in ("allOf", "oneOf", "anyOf"):
        if combinator in schema:
            return [v for part in schema[combinator] for v in _variants(part, components)]
    return [schema]


def _properties(schema: dict[str, Any], components: dict[str, Any]) -> dict[str, Any]:
    """Every declared property of any variant (a oneOf answer may carry the keys of either shape); Untyped
    when a variant is an object without declared properties (it might hold any key)."""
    found: dict[str, Any] = {}
    for variant in _variants(schema, components):
        if not variant.get("properties"):
            raise Untyped
        found.update(variant["properties"])
    return found


def _at(schema: dict[str, Any], where: list[str], components: dict[str, Any]) -> dict[str, Any]:
    for step in where:
        if step == "[]":
            items = [v["items"] for v in _variants(schema, components) if "items" in v]
            if not items:
                raise Untyped
            schema = items[0]
        else:
            properties = _properties(schema, components)
            if step not in properties:
                raise KeyError(step)
            schema = properties[step]
    return schema


def _answer_schema(openapi: dict[str, Any], method: str, path: str) -> dict[str, Any]:
    responses = openapi["paths"][path][method]["responses"]
    status = min(code for code in responses if code.startswith("2"))
    schema: dict[str, Any] = responses[status]["content"]["application/json"]["schema"]
    return schema


def test_every_printed_key_is_in_the_answers_schema(planner_api: httpx.Client) -> None:
    # Generating the schema takes seconds on a busy machine: more than httpx's default 5 s.
    response = planner_api.get("/api/schema/", headers={"Accept": "application/vnd.oai.openapi+json"}, timeout=120)
    assert response.status_code == 200, response.text
    openapi = response.json()
    components = openapi["components"]["schemas"]
    missing: list[str] = []
    wrongly_untyped: list[str] = []
    for name, keys, method, path, where in CHECKS:
        try:
            properties = _properties(_at(_answer_schema(openapi, method, path), where, components), components)
        except Untyped:
            if name not in UNTYPED_TODAY:
                wrongly_untyped.append(f"{name}: {method.upper()} {path} {'.'.join(where)} is untyped")
            continue
        except KeyError as exc:
            missing.append(f"{name}: {method.upper()} {path} has no {'.'.join(where)} (no field {exc})")
            continue
        missing.extend(
            f"{name}: {method.upper()} {path} {'.'.join(where)} has no field {key!r}"
            for key in keys
            if key not in properties
        )
    assert missing == [] and wrongly_untyped == []


def test_every_shape_is_checked() -> None:
    """A key list added to shapes.py without a line in CHECKS fails here."""
    declared = {name for name in vars(shapes) if name.endswith("_KEYS")}
    # OPTIMIZED_KEYS is OPTIMIZED_ROW_KEYS plus "action", which the CLI adds (the list a row came from).
    assert declared - {"OPTIMIZED_KEYS"} == {name for name, *_ in CHECKS}
