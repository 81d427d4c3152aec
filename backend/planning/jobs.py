"""RAIL job kinds: thin handlers over planning.services (docs/rail.md, "In the server")."""

from accounts.roles import OPERATOR, PLANNER
from jobs.registry import job_kind

from .services import plan as plans


@job_kind(
    "rail.plan",
    roles={PLANNER, OPERATOR},
    description="RAIL stretch plan: transceivers without and with stretch, costs, savings, good paths",
    needs_fabric=False,
    validate=plans.validate_params,
    csv_tables={
        "costs": plans.costs_table,
        "links": plans.links_table,
        "sweeps": plans.sweeps_table,
        "bands": plans.bands_table,
    },
)
def rail_plan(job, ctx):
    # Re-validated: a job submitted through the service (scripts, tests) gets its defaults too.
    params = plans.validate_params(job.params, job.fabric)
    return plans.plan(job.fabric, params, ctx.progress)
