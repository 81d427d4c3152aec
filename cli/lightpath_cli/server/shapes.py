"""The keys the CLI prints of the API's answers (JSON and CSV output), in one place.

Each tuple names the fields of one answer (or of one nested row) that `--output json|csv` carries, in
print order. cli/tests/test_cli_shapes_server.py checks every key against the answer's OpenAPI schema,
so a field renamed on the server fails there rather than printing null.
"""

from __future__ import annotations

# Jobs: GET /api/jobs/ID/ (the list leaves results out)
JOB_KEYS = (
    "id",
    "kind",
    "state",
    "progress",
    "message",
    "result",
    "error",
    "fabric",
    "created_by",
    "created",
    "started",
    "finished",
    "attempts",
    "worker",
    "heartbeat_at",
)
# The server's jobs list leaves results out (they can be large); `jobs show` has them.
JOB_LIST_KEYS = tuple(key for key in JOB_KEYS if key != "result")
# GET /api/jobs/ID/log/: a list of log entries.
JOB_LOG_KEYS = ("id", "created_at", "level", "message")

# Fabrics: GET /api/fabrics/ID/, its capacity report (tors) and its constraints
FABRIC_KEYS = (
    "id",
    "name",
    "description",
    "tiers",
    "capacity_constraint",
    "forecast_horizon_days",
    "forecast_min_confidence",
    "auto_preventive_tickets",
    "switch_count",
    "link_count",
    "created",
    "updated",
)
CAPACITY_TOR_KEYS = (
    "switch",
    "name",
    "pod",
    "available_paths",
    "total_paths",
    "fraction",
    "constraint",
    "below_constraint",
)
CONSTRAINTS_KEYS = ("fabric", "default", "overrides", "tors")
CONSTRAINTS_SET_KEYS = (*CONSTRAINTS_KEYS, "changes", "optimizer_job")
CHANGE_KEYS = ("switch", "before", "after")

# Links: GET /api/links/ and a link's open corruption events (GET /api/links/ID/telemetry/)
LINK_KEYS = (
    "id",
    "fabric",
    "a_switch",
    "a_switch_name",
    "a_port",
    "z_switch",
    "z_switch_name",
    "z_port",
    "length_m",
    "fiber",
    "speed_gbps",
    "admin_state",
    "admin_reason",
    "oper_state",
    "health",
    "rx_low",
)
CORRUPTION_EVENT_KEYS = ("id", "direction", "rate", "first_seen", "last_rate", "peak_rate", "last_seen")
# A link's forecast: GET /api/links/ID/forecast/ "forecast", and a row of GET /api/link-forecasts/
# (`links at-risk` prints the link's id and name first).
FORECAST_KEYS = (
    "crossing_at",
    "earliest_at",
    "latest_at",
    "confidence",
    "at_risk",
    "cause",
    "cause_label",
    "side",
    "end",
    "quantity",
    "lane",
    "level_dbm",
    "slope_db_per_day",
    "limit_dbm",
    "limit_provenance",
    "cause_side",
    "recommended_action",
    "recommended_action_label",
    "computed_at",
)

# Switches: POST /api/switches/ID/drain/ and undrain/
DRAIN_KEYS = ("switch", "links", "affected_tors")

# Capacity guard: dry runs and refusals of disable/drain (affected ToRs)
DRY_RUN_TOR_KEYS = ("switch", "name", "paths_before", "paths_after", "required_paths", "design_paths", "constraint")
DRY_RUN_KEYS = ("verdict", "detail", "links", "affected_tors", "blocking_tors")

# Repair tickets: GET /api/tickets/ID/ and its actions, metrics and metrics history
TICKET_KEYS = (
    "id",
    "fabric",
    "link",
    "link_name",
    "pod",
    "kind",
    "direction",
    "state",
    "assignee",
    "penalty",
    "recommended_action",
    "step_count",
    "decision",
    "validation_started_at",
    "resolved_at",
    "created",
    "updated",
)
TICKET_DETAIL_KEYS = (*TICKET_KEYS, "ends", "recommendation", "steps", "comments")
TICKET_ACT_KEYS = (*TICKET_DETAIL_KEYS, "link_enabled", "message")
TICKET_END_KEYS = (
    "side",
    "switch",
    "port",
    "rack",
    "pod",
    "transceiver_model",
    "transceiver_serial",
    "last_reseated_at",
)
TICKET_STEP_KEYS = (
    "number",
    "decision",
    "direction",
    "recommended_action",
    "rule",
    "explanation",
    "evidence",
    "action_taken",
    "followed",
    "technician",
    "notes",
    "created",
    "acted_at",
    "outcome",
)
TICKET_COMMENT_KEYS = ("id", "author", "text", "created")
TICKET_RECOMMENDATION_KEYS = ("step", "action", "rule", "explanation", "evidence")
TICKET_METRICS_KEYS = (
    "fabric",
    "first_attempt",
    "mean_time_to_repair_hours",
    "repaired_tickets",
    "preventive_first_attempt",
    "open_tickets",
    "open_tickets_by_state",
    "disabled_links",
    "disabled_links_for_corruption",
    "corrupting_links_in_service",
    "current_penalty",
    "worst_tor_fraction",
)
TICKET_HISTORY_KEYS = ("fabric", "bucket", "from", "to", "buckets")
TICKET_HISTORY_BUCKET_KEYS = (
    "start",
    "end",
    "tickets_opened",
    "tickets_resolved",
    "open_tickets",
    "first_attempt",
    "mean_time_to_repair_hours",
    "repaired_tickets",
    "links_disabled",
    "repair_actions",
    "preventive_first_attempt",
)

# Webhooks: endpoints (the secret only when added) and deliveries
ENDPOINT_KEYS = (
    "id",
    "fabric",
    "name",
    "payload_url",
    "enabled",
    "max_attempts",
    "secret_hint",
    "pending_deliveries",
    "failed_deliveries",
    "last_success_at",
    "created_by",
    "created",
    "updated",
)
ENDPOINT_ADD_KEYS = (*ENDPOINT_KEYS, "secret")
DELIVERY_KEYS = (
    "id",
    "delivery_id",
    "fabric",
    "endpoint",
    "endpoint_name",
    "event",
    "event_type",
    "link",
    "state",
    "attempts",
    "next_attempt_at",
    "last_status_code",
    "last_error",
    "redelivery_of",
    "created",
    "finished_at",
)

# Demand series: GET /api/demands/
DEMAND_KEYS = ["id", "fabric", "name", "description", "uploaded_by", "created", "window_s", "first_window_start",
               "window_count", "row_count", "rack_count", "total_bytes"]  # fmt: skip

# CorrOpt on the server: GET /api/links/ID/corropt-check/ and the corruption.optimize job
CHECK_AFFECTED_KEYS = (
    "name", "paths_before", "paths_after", "design_paths", "required_paths", "fraction_before", "fraction_after",
    "threshold",
)  # fmt: skip
# A row of the job result's `disabled` and `kept` lists; the CLI adds "action" (which list it came from).
OPTIMIZED_ROW_KEYS = ("link", "link_name", "penalty", "blocking_tor_name", "decision")
OPTIMIZED_KEYS = ("action", *OPTIMIZED_ROW_KEYS)

# Work orders: GET /api/work-orders/ (rows), GET /api/work-orders/ID/, POST .../start/?dry_run=1 and
# POST .../finish/
WORK_ORDER_KEYS = (
    "id",
    "fabric",
    "state",
    "action",
    "component_name",
    "footprint",
    "footprint_size",
    "duration_s",
    "success_chance",
    "tickets",
    "created",
    "started_at",
    "started_by",
    "finished_at",
    "outcome",
)
WORK_ORDER_DETAIL_KEYS = (*WORK_ORDER_KEYS, "tors", "restored_links")
WORK_ORDER_FINISH_KEYS = (*WORK_ORDER_DETAIL_KEYS, "detail")
WORK_ORDER_PREVIEW_KEYS = (
    "work_order",
    "verdict",
    "detail",
    "footprint",
    "affected_tors",
    "blocking_tors",
    "restoration",
    "unreachable_tors",
    "waits_for",
)
RESTORATION_LINK_KEYS = ("id", "name", "loss_rate", "penalty")
# A technician's day: GET /api/work-orders/today/ (each visit's work_order: WORK_ORDER_KEYS)
TODAY_KEYS = ("user", "plan", "visits", "detail")
TODAY_PLAN_KEYS = ("job", "fabric", "planned_at", "shift_start", "shift_end", "stale", "stale_reasons")
TODAY_VISIT_KEYS = (
    "work_order",
    "planned",
    "start_at",
    "end_at",
    "start_s",
    "end_s",
    "links_down",
    "restored",
    "done",
)
UNREACHABLE_TOR_KEYS = ("name", "paths_before", "paths_best", "floor", "required_paths", "design_paths")
WAITS_FOR_KEYS = ("work_order", "action", "component_name", "state")

# Capacity recovery: GET and POST /api/fabrics/ID/recovery/ (its links: RESTORATION_LINK_KEYS)
RECOVERY_KEYS = (
    "fabric",
    "auto_restore",
    "detail",
    "under_tors",
    "links",
    "added_penalty",
    "proven_optimal",
    "unreachable_tors",
)
RECOVERY_TOR_KEYS = ("switch", "name", "paths", "required_paths", "design_paths")
RECOVERY_UNREACHABLE_KEYS = ("switch", *UNREACHABLE_TOR_KEYS)
RECOVERY_APPLIED_KEYS = ("enabled", "added_penalty", "detail", "after")
