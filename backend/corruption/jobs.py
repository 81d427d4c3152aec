"""Background job kinds of CorrOpt decisions."""

from typing import Any

from accounts.roles import OPERATOR, PLANNER
from fabric.models import Fabric
from jobs.registry import job_kind
from jobs.services import JobFailed
from lightpath.numbers import loss_rate_text
from lightpath.problems import InvalidParams, Problems, is_number

from . import optimizer, simulation

MAX_TIME_BUDGET_S = 3600.0


def _budget_problem(budget: Any) -> str | None:
    if budget is None:
        return None
    if not is_number(budget):
        return f"time_budget_s must be a number of seconds above 0, got {budget!r}"
    if not 0 < budget <= MAX_TIME_BUDGET_S:
        return f"time_budget_s must be above 0 and at most {MAX_TIME_BUDGET_S:g} seconds, got {budget!r}"
    return None


def validate_optimize_params(params: dict, fabric) -> dict:
    """An API caller may give `time_budget_s`; `reasons` is written by the triggers only."""
    problems = Problems()
    for key in params:
        if key != "time_budget_s":
            problems.add(key, "unknown parameter; the only one is time_budget_s")
    if (message := _budget_problem(params.get("time_budget_s"))) is not None:
        problems.add("time_budget_s", message)
    problems.raise_if_any()
    return {"reasons": ["started by hand"], **params}


def summarize_optimize(result: dict) -> str:
    """The run's final message, as Jobs lists show it."""
    disabled, kept = len(result.get("disabled", [])), len(result.get("kept", [])) + result.get("still_kept", 0)
    if result.get("resumed"):
        return f"{disabled} link{'s' if disabled != 1 else ''} disabled (resumed after a lost worker)"
    # As the UI writes penalties (a power of ten with a superscript exponent), never 5.6e-4.
    before, after = loss_rate_text(result["penalty_before"]), loss_rate_text(result["remaining_penalty"])
    penalty = f"penalty {before} → {after}"
    proof = "proven optimal" if result.get("proven_optimal") else "best found in the time budget"
    return (
        f"{result.get('candidates', 0)} corrupting link{'s' if result.get('candidates') != 1 else ''}: "
        f"{disabled} disabled, {kept} kept for capacity; {penalty} ({proof})"
    )


@job_kind(
    optimizer.JOB_KIND,
    title="CorrOpt optimization",
    roles={OPERATOR},
    summary=summarize_optimize,
    purpose="decisions",
    description="CorrOpt optimizer: disable the best set of the fabric's enabled corrupting links that every "
    "ToR's capacity constraint allows; each gets a decision and a ticket. Params: time_budget_s (optional).",
    validate=validate_optimize_params,
)
def optimize(job, context) -> dict:
    if job.fabric_id is None:
        raise JobFailed("the fabric was deleted before the optimizer ran")
    budget = job.params.get("time_budget_s")
    if (message := _budget_problem(budget)) is not None:
        raise JobFailed(message)
    with context.step(f"CorrOpt optimizer, time budget {'default' if budget is None else f'{budget} s'}"):
        return optimizer.optimize_fabric(job.fabric_id, job=job, progress=context.progress, time_budget_s=budget)


@job_kind(
    "corruption.simulate",
    title="CorrOpt what-if simulation",
    roles={PLANNER, OPERATOR},
    description="What-if: replay a corruption trace under switch-local, fast-checker and CorrOpt for several "
    "capacity constraints and repair accuracies.",
    validate=simulation.validate_params,
    csv_tables={
        "summary": lambda result: (simulation.SUMMARY_HEADER, simulation.summary_rows(result)),
        "series": lambda result: (simulation.SERIES_HEADER, simulation.series_rows(result)),
    },
)
def simulate(job, context) -> dict:
    fabric = Fabric.objects.get(pk=job.fabric_id)
    try:  # again at run time: a job submitted through the service (scripts, tests) gets its defaults too
        params = simulation.validate_params(job.params, fabric)
    except InvalidParams as exc:
        raise JobFailed(f"the simulation's params have {len(exc.errors)} problem(s)", {"errors": exc.errors}) from exc
    with context.step(f"what-if simulation on fabric '{fabric.name}'"):
        result = simulation.simulate(fabric, params, context)
    context.info(f"{len(result['runs'])} runs simulated")
    return result
