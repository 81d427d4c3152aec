"""Background job kinds of maintenance: the plan of the open work orders (tickets.plan, issue #18)."""

import datetime as dt
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from accounts.roles import ADMIN, OPERATOR, PLANNER, ROLES, TECHNICIAN
from fabric.models import Fabric
from jobs.registry import job_kind
from jobs.services import JobFailed
from lightpath.problems import InvalidParams, Problems, integer, number, section, unknown_keys

from .services import plan

MAX_TECHNICIANS = 1000
MAX_SHIFT_HOURS = 24.0
MAX_TIME_BUDGET_S = 600.0
MAX_TRAVEL_S = 24 * 3600
KNOWN = ("technicians", "assignees", "shift_start", "shift_hours", "travel", "time_budget_s")
# Who may go on the floor: technicians, and operators and admins (superusers hold every role).
ASSIGNABLE_ROLES = (TECHNICIAN, OPERATOR, ADMIN)


def _assignees(problems: Problems, value: Any) -> list[str] | None:
    """Usernames of active users with an assignable role, each once; None when not given."""
    if value is None:
        return None
    if not isinstance(value, list) or not value or len(value) > MAX_TECHNICIANS:
        problems.add("assignees", f"must be a list of 1 to {MAX_TECHNICIANS} usernames")
        return None
    names = [name for name in value if isinstance(name, str)]
    users = {
        user.username: user
        for user in get_user_model().objects.filter(username__in=names, is_active=True).prefetch_related("groups")
    }
    cleaned: list[str] = []
    for i, name in enumerate(value):
        field = f"assignees[{i}]"
        if not isinstance(name, str):
            problems.add(field, f"must be a username, got {name!r}")
        elif name in cleaned:
            problems.add(field, f"{name} is listed twice")
        elif name not in users:
            problems.add(field, f"no active user is named {name!r}")
        else:
            user = users[name]
            roles = set(ROLES) if user.is_superuser else {group.name for group in user.groups.all()}
            if roles.isdisjoint(ASSIGNABLE_ROLES):
                held = ", ".join(sorted(roles & set(ROLES))) or "no role"
                problems.add(field, f"{name} holds {held}: a visit goes to a {', '.join(ASSIGNABLE_ROLES)}")
            cleaned.append(name)
    return cleaned


def _shift_start(problems: Problems, value: Any) -> dt.datetime | None:
    """An ISO 8601 datetime with its time zone; None when not given (the job's start then)."""
    if value is None:
        return None
    try:
        parsed = dt.datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        parsed = None
    if parsed is None:
        problems.add("shift_start", f"must be an ISO 8601 datetime such as 2026-11-27T08:00:00+00:00, got {value!r}")
        return None
    if parsed.tzinfo is None or parsed.utcoffset() is None:
        problems.add("shift_start", f"must name its time zone (Z or +hh:mm), got {value!r}")
        return None
    return parsed


def validate_params(params: dict, fabric: Fabric | None) -> dict[str, Any]:
    """technicians (default 1, or len(assignees)), assignees (usernames, technician i of the plan
    is assignees[i]), shift_start (ISO with time zone; default: when the job runs, to the minute),
    shift_hours (default 8), travel {same_rack_s, same_row_s, elsewhere_s} (default settings),
    time_budget_s (default 3); every problem listed."""
    problems = Problems()
    unknown_keys(problems, params, KNOWN)
    assignees = _assignees(problems, params.get("assignees"))
    named = len(params["assignees"]) if assignees is not None else None  # as given, a wrong name included
    given = params.get("technicians")
    default = 1 if named is None else named
    technicians = integer(problems, default if given is None else given, "technicians", 1, MAX_TECHNICIANS)
    if named is not None and technicians is not None and technicians != named:
        are = "assignee is" if named == 1 else "assignees are"
        problems.add("technicians", f"is {technicians} but {named} {are} named: give one or make them agree")
    shift_start = _shift_start(problems, params.get("shift_start"))
    shift_hours = number(problems, params.get("shift_hours", 8.0), "shift_hours", 0.0, MAX_SHIFT_HOURS, low_open=True)
    travel = section(problems, params, "travel", plan.default_travel())
    for key in plan.TRAVEL_KEYS:
        travel[key] = integer(problems, travel[key], f"travel.{key}", 0, MAX_TRAVEL_S)
    budget = number(
        problems, params.get("time_budget_s"), "time_budget_s", 0.0, MAX_TIME_BUDGET_S, low_open=True, nullable=True
    )
    problems.raise_if_any()
    return {
        "technicians": technicians,
        "assignees": assignees,
        "shift_start": None if shift_start is None else shift_start.isoformat(),
        "shift_hours": shift_hours,
        "travel": travel,
        "time_budget_s": budget,
    }


def _plain(value: float) -> str:
    """1,310.4 rather than 1.31e+03; small values keep three significant digits (0.00464)."""
    return f"{value:,.1f}" if abs(value) >= 100 else f"{value:.3g}"


def summarize(result: dict) -> str:
    visits, waiting = len(result["visits"]), len(result["unscheduled"])
    proof = "proven optimal" if result["proven_optimal"] else f"gap {result['gap']:.1%}"
    return (
        f"{visits} visit{'s' if visits != 1 else ''}, {waiting} order{'s' if waiting != 1 else ''} left for later; "
        f"expected penalty-hours {_plain(result['expected_penalty_hours'])} "
        f"(first in first out {_plain(result['fifo_penalty_hours'])}, {proof})"
    )


@job_kind(
    "tickets.plan",
    title="Work-order plan",
    roles={TECHNICIAN, PLANNER, OPERATOR},
    summary=summarize,
    description="Maintenance plan: per technician, the visits of the fabric's open work orders in order "
    "with start and end times, so that no instant puts a ToR under its capacity floor, with the least "
    "expected penalty-hours (and first in first out's). Params: technicians, shift_hours, travel "
    "{same_rack_s, same_row_s, elsewhere_s}, time_budget_s, assignees (usernames: technician i is "
    "assignees[i]), shift_start (ISO 8601 with time zone; default: when the job runs) (all optional).",
    validate=validate_params,
)
def plan_work_orders(job, context) -> dict:
    if job.fabric is None:
        raise JobFailed("the fabric was deleted before the plan ran")
    try:  # again at run time: a job submitted through the service gets its defaults too
        params = validate_params(job.params, job.fabric)
    except InvalidParams as exc:
        raise JobFailed(f"the plan's params have {len(exc.errors)} problem(s)", {"errors": exc.errors}) from exc
    given = params["shift_start"]
    shift_start = dt.datetime.fromisoformat(given) if given else timezone.now().replace(second=0, microsecond=0)
    who = ", ".join(params["assignees"] or []) or (
        f"{params['technicians']} technician{'s' if params['technicians'] != 1 else ''}"
    )
    with context.step(
        f"maintenance plan of fabric '{job.fabric.name}': {who}, {params['shift_hours']:g} h shift "
        f"from {shift_start.isoformat()}"
    ):
        result = plan.plan_fabric(job.fabric, plan.PlanParams(**{**params, "shift_start": shift_start}))
    context.info(f"{len(result['work_orders'])} open work orders planned")
    return result
