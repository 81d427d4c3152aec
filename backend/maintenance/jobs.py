"""Background job kinds of maintenance: the plan of the open work orders (tickets.plan, issue #18)."""

from typing import Any

from accounts.roles import OPERATOR, PLANNER, TECHNICIAN
from fabric.models import Fabric
from jobs.registry import job_kind
from jobs.services import JobFailed
from lightpath.problems import InvalidParams, Problems, integer, number, section, unknown_keys

from .services import plan

MAX_TECHNICIANS = 1000
MAX_SHIFT_HOURS = 24.0
MAX_TIME_BUDGET_S = 600.0
MAX_TRAVEL_S = 24 * 3600
KNOWN = ("technicians", "shift_hours", "travel", "time_budget_s")


def validate_params(params: dict, fabric: Fabric | None) -> dict[str, Any]:
    """technicians (default 1), shift_hours (default 8), travel {same_rack_s, same_row_s,
    elsewhere_s} (default settings), time_budget_s (default 3); every problem listed."""
    problems = Problems()
    unknown_keys(problems, params, KNOWN)
    technicians = integer(problems, params.get("technicians", 1), "technicians", 1, MAX_TECHNICIANS)
    shift_hours = number(problems, params.get("shift_hours", 8.0), "shift_hours", 0.0, MAX_SHIFT_HOURS, low_open=True)
    travel = section(problems, params, "travel", plan.default_travel())
    for key in plan.TRAVEL_KEYS:
        travel[key] = integer(problems, travel[key], f"travel.{key}", 0, MAX_TRAVEL_S)
    budget = number(
        problems, params.get("time_budget_s"), "time_budget_s", 0.0, MAX_TIME_BUDGET_S, low_open=True, nullable=True
    )
    problems.raise_if_any()
    return {"technicians": technicians, "shift_hours": shift_hours, "travel": travel, "time_budget_s": budget}


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
    roles={TECHNICIAN, PLANNER, OPERATOR},
    summary=summarize,
    description="Maintenance plan: per technician, the visits of the fabric's open work orders in order "
    "with start and end times, so that no instant puts a ToR under its capacity floor, with the least "
    "expected penalty-hours (and first in first out's). Params: technicians, shift_hours, travel "
    "{same_rack_s, same_row_s, elsewhere_s}, time_budget_s (all optional).",
    validate=validate_params,
)
def plan_work_orders(job, context) -> dict:
    if job.fabric is None:
        raise JobFailed("the fabric was deleted before the plan ran")
    try:  # again at run time: a job submitted through the service gets its defaults too
        params = validate_params(job.params, job.fabric)
    except InvalidParams as exc:
        raise JobFailed(f"the plan's params have {len(exc.errors)} problem(s)", {"errors": exc.errors}) from exc
    what = f"{params['technicians']} technician{'s' if params['technicians'] != 1 else ''}"
    with context.step(f"maintenance plan of fabric '{job.fabric.name}': {what}, {params['shift_hours']:g} h shift"):
        result = plan.plan_fabric(job.fabric, plan.PlanParams(**params))
    context.info(f"{len(result['work_orders'])} open work orders planned")
    return result
