"""Background job kinds of CorrOpt decisions."""

import math

from accounts.roles import OPERATOR
from jobs.registry import job_kind
from jobs.services import JobFailed

from . import optimizer


@job_kind(
    optimizer.JOB_KIND,
    roles={OPERATOR},
    description="CorrOpt optimizer: disable the best set of the fabric's enabled corrupting links that every "
    "ToR's capacity constraint allows; each gets a decision and a ticket. Params: time_budget_s (optional).",
)
def optimize(job, context) -> dict:
    budget = job.params.get("time_budget_s")
    if budget is not None and (
        isinstance(budget, bool) or not isinstance(budget, int | float) or not math.isfinite(budget) or budget <= 0
    ):
        raise JobFailed(f"time_budget_s must be a number of seconds above 0, got {budget!r}")
    return optimizer.optimize_fabric(job.fabric_id, job=job, progress=context.progress, time_budget_s=budget)
