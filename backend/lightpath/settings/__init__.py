"""Lightpath settings. Everything that differs between machines comes from the environment.

Required: DJANGO_SECRET_KEY, LIGHTPATH_DB_PASSWORD (with LIGHTPATH_DB_HOST/PORT/NAME/USER),
CELERY_BROKER_URL. `make` writes random values for a local checkout into .local/secrets.env.
"""

import ipaddress
import os
import sys
from pathlib import Path
from typing import Any

from django.core.exceptions import ImproperlyConfigured

BACKEND_DIR = Path(__file__).resolve().parents[2]
REPO_ROOT = BACKEND_DIR.parent
# Migrations of every app live in the top-level migrations/ package (MIGRATION_MODULES below).
if str(REPO_ROOT) not in sys.path:
    sys.path.append(str(REPO_ROOT))


def env(name: str, default: str | None = None) -> str:
    value = os.environ.get(name, default)
    if value is None:
        raise ImproperlyConfigured(f"environment variable {name} is required")
    return value


def env_bool(name: str, default: bool = False) -> bool:
    return os.environ.get(name, "1" if default else "0").lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


SECRET_KEY = env("DJANGO_SECRET_KEY")
DEBUG = env_bool("DJANGO_DEBUG")
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", "")
# Demo mode creates the demo users (one per role, printed by `make demo`); never set it in production.
LIGHTPATH_DEMO = env_bool("LIGHTPATH_DEMO")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "accounts",
    "audit",
    "fabric",
    "jobs",
    "telemetry",
    "corruption",
    "webhooks",
    "circuits",
    "planning",
    "reconfig",
    "maintenance",
]
LIGHTPATH_APPS = [
    "accounts", "audit", "fabric", "jobs", "telemetry", "corruption", "webhooks", "circuits", "maintenance",
]  # fmt: skip
MIGRATION_MODULES = {app: f"migrations.{app}" for app in LIGHTPATH_APPS}

MIDDLEWARE = [
    # Content-Security-Policy (README "Security"); first, so the UI WhiteNoise serves gets it too.
    "lightpath.security.SecurityHeadersMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Gzip for every response Django makes (a 100K-link plan's 21 MB of JSON goes as 1.9 MB;
    # BENCHMARKS.md "Large results over HTTP"). After WhiteNoise, which answers static files and the
    # built UI itself before this runs; before every middleware that reads or writes the body, so
    # compression comes last (Django's middleware ordering notes). Safe against BREACH: since Django
    # 4.2 it pads each gzip header with up to 100 random bytes (Heal The Breach), CSRF tokens are
    # masked anew per response, and API secrets (session cookie, API token) travel in headers, not in
    # the compressed bodies.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "lightpath.urls"
WSGI_APPLICATION = "lightpath.wsgi.application"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ]
        },
    }
]

_database = {
    "ENGINE": "django.db.backends.postgresql",
    "HOST": env("LIGHTPATH_DB_HOST", "127.0.0.1"),
    "PORT": env("LIGHTPATH_DB_PORT", "55432"),
    "NAME": env("LIGHTPATH_DB_NAME", "lightpath"),
    "USER": env("LIGHTPATH_DB_USER", "lightpath"),
    "PASSWORD": env("LIGHTPATH_DB_PASSWORD"),
    "CONN_MAX_AGE": 60,
    "CONN_HEALTH_CHECKS": True,
    "TEST": {"NAME": env("LIGHTPATH_TEST_DB_NAME", "test_lightpath")},
}
DATABASES = {
    "default": _database,
    # A second connection to the same database, in autocommit, so that a job running inside
    # one long transaction (an atomic import) can still publish its progress and see a
    # cancellation request.
    "progress": {**_database, "TEST": {"MIRROR": "default"}},
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
# WhiteNoise serves app static files (admin, Swagger UI's sidecar) straight from the apps;
# set LIGHTPATH_STATIC_ROOT and run collectstatic for a production image instead.
STATIC_ROOT = os.environ.get("LIGHTPATH_STATIC_ROOT") or None
WHITENOISE_USE_FINDERS = STATIC_ROOT is None
# The built React app (frontend/dist) is served at / by WhiteNoise; index.html answers
# every other non-API path so client-side routes survive a reload.
FRONTEND_DIST = Path(env("LIGHTPATH_FRONTEND_DIST", str(REPO_ROOT / "frontend" / "dist")))
# In DEBUG WhiteNoise looks each file up when asked (autorefresh), so a UI rebuilt under a running
# server is served at once, even one built after the server started; otherwise it lists the files
# once at start (fast, and what production wants), and a rebuild needs a restart.
WHITENOISE_AUTOREFRESH = DEBUG
WHITENOISE_ROOT = FRONTEND_DIST if DEBUG or FRONTEND_DIST.is_dir() else None

SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES")
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE

# The shared cache (login throttle counts, README "Security"): Redis, so that every gunicorn
# process and host counts together. Keys are prefixed with the database name: two deployments
# (or the demo and an e2e run) on one Redis keep their own counts, apart from Celery's keys.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": env("LIGHTPATH_CACHE_URL", env("CELERY_BROKER_URL")),
        "KEY_PREFIX": env("LIGHTPATH_CACHE_PREFIX", f"lightpath:{env('LIGHTPATH_DB_NAME', 'lightpath')}"),
    }
}
# Failed logins (API token, UI session, /admin/) allowed per user name and per client address
# within a fixed window ("10/min", "100/hour", DRF's rate syntax; "" switches a limit off). Once
# reached, every login for that name or from that client answers 429 with Retry-After until the
# window ends. Behind a reverse proxy set LIGHTPATH_NUM_PROXIES so the client is X-Forwarded-For's.
LOGIN_THROTTLE = {
    "per_username": env("LIGHTPATH_LOGIN_THROTTLE", "10/min") or None,
    "per_client": env("LIGHTPATH_LOGIN_THROTTLE_CLIENT", "30/min") or None,
}

# Request bodies above this size are refused with 413 (a 100K-link fabric document is ~20 MB).
LIGHTPATH_MAX_BODY_BYTES = int(env("LIGHTPATH_MAX_BODY_BYTES", str(64 * 1024 * 1024)))
DATA_UPLOAD_MAX_MEMORY_SIZE = LIGHTPATH_MAX_BODY_BYTES

REST_FRAMEWORK = {
    # Token first: its WWW-Authenticate header makes DRF answer 401 (not 403) to anonymous requests.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["accounts.permissions.RolePermission"],
    "DEFAULT_PAGINATION_CLASS": "lightpath.api.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": [
        "lightpath.api.ordering.LightpathFilterBackend",  # a bad filter and a bad ordering: one 400
        "lightpath.api.ordering.StrictOrderingFilter",  # an unknown ordering field is a 400
    ],
    "DEFAULT_PARSER_CLASSES": ["lightpath.api.parsers.BoundedJSONParser"],
    "DEFAULT_SCHEMA_CLASS": "lightpath.api.schema.LightpathAutoSchema",
    "EXCEPTION_HANDLER": "lightpath.api.exceptions.exception_handler",
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
    # `?format=` belongs to the export endpoint (json|csv), not to renderer selection.
    "URL_FORMAT_OVERRIDE": None,
    # Proxies in front of gunicorn that append to X-Forwarded-For (the login throttle's client).
    # 0, not DRF's default None: None would trust a client's own X-Forwarded-For header.
    "NUM_PROXIES": int(env("LIGHTPATH_NUM_PROXIES", "0")),
}

# A CSRF refusal outside DRF (the csrf_protect'ed session login) answers JSON under /api/.
CSRF_FAILURE_VIEW = "lightpath.api.views.csrf_failure"

SPECTACULAR_SETTINGS = {
    "TITLE": "Lightpath API",
    "DESCRIPTION": "Topology, optical telemetry, CorrOpt decisions, RAIL planning and circuit schedules.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["accounts.permissions.RolePermission"],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # One component for answers (`X`: read-only fields required, write-only ones left out) and one
    # for bodies (`XRequest`), so the UI's answer types are the generated ones as they are.
    "COMPONENT_SPLIT_REQUEST": True,
    # Models share field names ("kind", "state") with different choices: name each enum after its model.
    "ENUM_NAME_OVERRIDES": {
        "WebhookDeliveryStateEnum": "webhooks.models.WebhookDelivery.State",
        "WebhookEventKindEnum": "webhooks.models.WebhookEvent.Kind",
        "DecisionKindEnum": "corruption.models.Decision.Kind",
        "TicketStateEnum": "corruption.models.Ticket.State",
        "TicketKindEnum": "corruption.models.Ticket.Kind",
        "JobStateEnum": "jobs.models.Job.State",
        "JobKindEnum": "jobs.registry.kind_names",
        "SideEnum": "fabric.models.Transceiver.Side",
        "ActionTakenEnum": "corruption.tickets.ACTIONS",
        "DecisionActionEnum": "corruption.models.Decision.Action",
        "LarryPolicyEnum": "reconfig.api.serializers.LARRY_POLICIES",
        "SimulationPolicyEnum": "corruption.api.serializers.POLICIES",
        "PowerClassEnum": "telemetry.models.PowerClass",
        "WorkOrderStateEnum": "maintenance.models.WorkOrder.State",
        "WorkOrderOutcomeEnum": "maintenance.models.WorkOrder.Outcome",
        "LeftForLaterReasonEnum": "maintenance.api.serializers.LEFT_FOR_LATER_REASONS",
        # Named by the UI's types (features/*/api/types.ts): pinned so that a new field's choices
        # cannot rename them.
        "DirectionEnum": "telemetry.models.Direction",
        "AdminStateEnum": "fabric.models.Link.AdminState",
        "OperStateEnum": "fabric.models.Link.OperState",
        "HealthEnum": "fabric.models.Link.Health",
        "FiberEnum": "fabric.models.Fiber",
        "PriceSourceEnum": "fabric.models.TransceiverModel.PriceSource",
        "OutcomeEnum": "corruption.models.TicketStep.Outcome",
        # Optics forecasts (telemetry.LinkForecast): the limit's provenance is the thresholds' enum.
        "ProvenanceEnum": "telemetry.models.LinkForecast.Provenance",
        "ForecastCauseEnum": "telemetry.models.LinkForecast.Cause",
        "ForecastQuantityEnum": "telemetry.models.LinkForecast.Quantity",
        "RecommendedActionEnum": "telemetry.services.forecasts.RECOMMENDED_ACTIONS",
    },
    # The requests Lightpath sends to webhook endpoints (README "Webhooks"), as `x-webhooks`.
    "WEBHOOKS": [
        "webhooks.api.schema.link_admin_state_changed",
        "webhooks.api.schema.link_oper_state_changed",
        "webhooks.api.schema.link_at_risk",
        "webhooks.api.schema.link_risk_cleared",
        "webhooks.api.schema.link_risk_changed",
        "webhooks.api.schema.webhook_test",
    ],
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "webhooks.api.schema.webhooks_as_extension",
        "webhooks.api.schema.role_restricted_fields_optional",
    ],
}

CELERY_BROKER_URL = env("CELERY_BROKER_URL")
CELERY_RESULT_BACKEND = env("CELERY_RESULT_BACKEND", CELERY_BROKER_URL)
# Queues by purpose (README "Workers, queues and faults"), so that a decision never waits behind a batch:
# - decisions: telemetry derivation, CorrOpt's fast checker, the optimizer and the liveness net;
# - jobs: batch computations (RAIL plans, simulations, circuit plans, reports, imports);
# - webhooks: outgoing deliveries.
# LIGHTPATH_QUEUE is the prefix of all three (the test suite uses its own); each name can also be
# set alone, and giving all three the same name runs everything on one queue, as before.
LIGHTPATH_QUEUE_PREFIX = env("LIGHTPATH_QUEUE", "lightpath")
LIGHTPATH_QUEUES = {
    purpose: env(f"LIGHTPATH_QUEUE_{purpose.upper()}", f"{LIGHTPATH_QUEUE_PREFIX}.{purpose}")
    for purpose in ("decisions", "jobs", "webhooks")
}
# Worker processes by queue set: `manage.py worker NAME` (jobs/management/commands/worker.py) starts
# one Celery worker for the set NAME; the stack script and docker-compose run one per set.
LIGHTPATH_WORKERS: dict[str, dict[str, Any]] = {
    "decisions": {
        "purposes": env("LIGHTPATH_WORKER_DECISIONS_QUEUES", "decisions,webhooks").split(","),
        "concurrency": int(env("LIGHTPATH_WORKER_DECISIONS_CONCURRENCY", "1")),
    },
    "jobs": {
        "purposes": env("LIGHTPATH_WORKER_JOBS_QUEUES", "jobs").split(","),
        "concurrency": int(env("LIGHTPATH_WORKER_JOBS_CONCURRENCY", "2")),
    },
}
CELERY_TASK_DEFAULT_QUEUE = LIGHTPATH_QUEUES["jobs"]
CELERY_TASK_ROUTES = {
    **{
        task: {"queue": LIGHTPATH_QUEUES["decisions"]}
        for task in (
            "telemetry.derive",
            "telemetry.requeue_lost",
            "corruption.decide_event",
            "corruption.requeue_undecided",
            "corruption.validate_tickets",
            "maintenance.recover",
            "jobs.sweep",
        )
    },
    "webhooks.*": {"queue": LIGHTPATH_QUEUES["webhooks"]},
}
# A task is acknowledged only when it finished, so a worker that dies mid-job hands the job
# to another worker; job handlers are idempotent for that reason.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
# A request whose commit must be sent to a worker gives up on a broker that is down after about a
# second (the liveness net sends it later) instead of keeping the client waiting.
CELERY_BROKER_CONNECTION_TIMEOUT = 1.0
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.5}
# Celery beat (`celery -A lightpath_worker beat`, started by run-stack.sh and docker-compose).
CELERY_BEAT_SCHEDULE = {
    "telemetry-maintenance": {"task": "telemetry.maintain", "schedule": 15 * 60},
    "corruption-validate-tickets": {"task": "corruption.validate_tickets", "schedule": 15 * 60},
    "webhooks-maintain": {"task": "webhooks.maintain", "schedule": 60},
    # The liveness net: lost job runs, derivation runs and fast-checker decisions are sent again.
    **{
        name: {"task": task, "schedule": float(env("LIGHTPATH_LIVENESS_SWEEP_S", "30"))}
        for name, task in (
            ("jobs-sweep", "jobs.sweep"),
            ("telemetry-requeue-lost", "telemetry.requeue_lost"),
            ("corruption-requeue-undecided", "corruption.requeue_undecided"),
        )
    },
}
# The liveness net (jobs/liveness.py, README "Workers, queues and faults"). A running job's worker writes
# a heartbeat every heartbeat_s; a running job silent for stale_after_s, or a queued one whose
# message no broker queue holds for stale_after_s, is sent again (at most max_attempts runs, then
# it fails saying why). The same timeout re-sends lost derivation runs and fast-checker decisions.
JOB_LIVENESS = {
    "heartbeat_s": float(env("LIGHTPATH_JOB_HEARTBEAT_S", "10")),
    "stale_after_s": float(env("LIGHTPATH_JOB_STALE_AFTER_S", "60")),
    "max_attempts": int(env("LIGHTPATH_JOB_MAX_ATTEMPTS", "3")),
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env("LIGHTPATH_LOG_LEVEL", "INFO")},
}

# Telemetry (docs/telemetry.md): raw samples are kept this many days, hourly aggregates longer.
TELEMETRY_RAW_RETENTION_DAYS = int(env("LIGHTPATH_TELEMETRY_RAW_DAYS", "30"))
TELEMETRY_HOURLY_RETENTION_DAYS = int(env("LIGHTPATH_TELEMETRY_HOURLY_DAYS", "400"))
# A sample stamped further ahead than this is refused: a device clock is wrong.
TELEMETRY_MAX_CLOCK_SKEW_S = 300
# Samples in one POST /api/telemetry/ batch (the CLI sends 10,000 at a time).
TELEMETRY_MAX_BATCH_SAMPLES = 100_000
# Derivation keeps per-lane optical trends and forecasts (issue #19); off only to measure their cost
# (BENCHMARKS.md, "Derivation with forecasting"): no trend state, no forecasts.
TELEMETRY_TRENDS = env_bool("LIGHTPATH_TELEMETRY_TRENDS", True)
# A link whose operational state (from telemetry oper_status) changes more than `changes` times
# within `window_s` seconds of sample time is flapping, until it has not changed for `window_s`.
LINK_FLAPPING = {
    "changes": int(env("LIGHTPATH_LINK_FLAPPING_CHANGES", "4")),
    "window_s": int(env("LIGHTPATH_LINK_FLAPPING_WINDOW_S", "3600")),
}

# What links share physically (fabric/services/components.py, README "Physical components"),
# where a link does not name it (Link.breakout, cable_id, a_line_card, z_line_card). Repair
# recommendations read the breakout rule from here too.
PHYSICAL_COMPONENTS = {
    # Ports (n - 1) // size of one prefix share a breakout cable: eth1/1-eth1/4, eth1/5-eth1/8.
    "breakout_group_size": 4,
    # The ports that are breakout ports (a regular expression matched against the whole port name);
    # a link's breakout group is its A (lower-tier) port's, else its Z port's. Default: every port.
    "breakout_ports": env("LIGHTPATH_BREAKOUT_PORTS", ".*"),
}

# Repair recommendations (corruption/recommend.py; corropt.md §6 defaults 10-13). recommend()
# takes per-call overrides of any key (breakout_group_size: PHYSICAL_COMPONENTS's by default).
CORRUPTION_RECOMMENDATION = {
    # Other links of one switch that must corrupt together (onsets and rates close) to blame it.
    "cluster_min_links": 2,
    "cluster_onset_window_s": 3600,
    "cluster_rate_ratio": 10.0,
    # A reseat this recent (or in the current fault episode) is not repeated: replace instead.
    "reseat_recent_days": 7,
    # Rx limit when no manual, device or catalog value exists (one global value, as deployed).
    "global_rx_threshold_dbm": -10.0,
}

# Repair tickets (corruption/tickets.py): a repaired link must stay clean this long to resolve
# its ticket; corruption within reopen_days of resolution reopens it (the seed's success rule).
CORRUPTION_TICKETS = {"validation_window_hours": 24, "reopen_days": 7}

# Work orders (maintenance/services/, README "Physical components and work orders"): how long
# each repair action keeps its footprint out of service, and its chance of success (the seed
# measured 80% when the recommendation is followed, 50% otherwise).
MAINTENANCE = {
    "duration_s": {
        "clean_fiber": 900,
        "reseat_transceiver": 1800,
        "replace_transceiver": 2700,
        "replace_far_transceiver": 2700,
        "replace_cable": 7200,
        "replace_shared_component": 14400,
    },
    "success_followed": 0.8,
    "success_not_followed": 0.5,
    # The planner's walking times between visits, seconds (a tickets.plan job's `travel` overrides).
    "travel_s": {"same_rack_s": 0, "same_row_s": 120, "elsewhere_s": 600},
}

# Outgoing webhooks (webhooks/services.py, README "Webhooks"). Attempt n failing with a
# connection error, a timeout, 408, 429 or 5xx is retried after min(backoff_base_s * 2^(n-1),
# backoff_max_s), up to the endpoint's max_attempts. Pending deliveries overdue by
# stale_after_s (their task was lost) are re-enqueued by the beat task webhooks.maintain.
WEBHOOKS = {
    "queue": LIGHTPATH_QUEUES["webhooks"],
    "timeout_s": float(env("LIGHTPATH_WEBHOOK_TIMEOUT_S", "10")),
    "backoff_base_s": float(env("LIGHTPATH_WEBHOOK_BACKOFF_BASE_S", "30")),
    "backoff_max_s": float(env("LIGHTPATH_WEBHOOK_BACKOFF_MAX_S", "3600")),
    "stale_after_s": float(env("LIGHTPATH_WEBHOOK_STALE_AFTER_S", "120")),
    "retention_days": int(env("LIGHTPATH_WEBHOOK_RETENTION_DAYS", "30")),
    # Webhooks go only to globally routable addresses (webhooks/addresses.py); these networks
    # (comma-separated CIDRs, e.g. "10.20.0.0/16,fd00:1::/64") are allowed anyway: on-premises
    # receivers. Parsed here so that a typo stops the start, not a delivery.
    "allowed_networks": [
        str(ipaddress.ip_network(network, strict=False))
        for network in env_list("LIGHTPATH_WEBHOOK_ALLOWED_NETWORKS", "")
    ],
}
