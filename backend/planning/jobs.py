"""RAIL job kinds: thin handlers over planning.services (docs/rail.md, "In the server")."""

from accounts.roles import OPERATOR, PLANNER
from jobs.registry import job_kind
from jobs.services import JobFailed
from lightpath.problems import InvalidParams

from .services import classes as reliability
from .services import plan as plans
from .services.csv_numbers import rounded


@job_kind(
    "rail.plan",
    title="RAIL stretch plan",
    roles={PLANNER, OPERATOR},
    description="RAIL stretch plan: transceivers without and with stretch, costs, savings, good paths",
    needs_fabric=False,
    validate=plans.validate_params,
    csv_tables={
        "costs": rounded(plans.costs_table),
        "links": rounded(plans.links_table),
        "sweeps": rounded(plans.sweeps_table),
        "bands": rounded(plans.bands_table),
    },
    summary=plans.summary_line,
)
def rail_plan(job, ctx):
    params = _revalidated(plans.validate_params, job)
    with ctx.step(f"RAIL plan of {_source(job)}"):
        result = plans.plan(job.fabric, params, ctx.progress)
    inputs = result["inputs"]
    ctx.info(f"{inputs['description']}: {inputs['links']:,} links, {inputs['switches']:,} switches planned")
    return result


@job_kind(
    "rail.classes",
    title="RAIL reliability classes",
    roles={PLANNER, OPERATOR},
    description="RAIL reliability classes from measured loss rates: nested link sets, worst paths, FEC",
    validate=reliability.validate_params,
    csv_tables={
        "class_links": rounded(reliability.class_links_table),
        "repair": rounded(reliability.repair_table),
        "summary": rounded(reliability.summary_table),
    },
    summary=reliability.summary_line,
)
def rail_classes(job, ctx):
    params = _revalidated(reliability.validate_params, job)
    with ctx.step(f"reliability classes of {_source(job)} from the last {params['window_hours']:g} h of loss rates"):
        result = reliability.classes(job.fabric, params, ctx.progress)
    ctx.info(
        f"{result['links']:,} links, {result['alive']:,} usable; {result['measured_directions']:,} directions measured"
    )
    return result


def _source(job) -> str:
    return f"fabric '{job.fabric.name}'" if job.fabric is not None else "a generated fat tree"


def _revalidated(validate, job) -> dict:
    """The params checked again at run time: a job submitted through the service (scripts, tests) gets
    its defaults too, and a fabric changed since the submission fails the job with every problem."""
    try:
        return validate(job.params, job.fabric)
    except InvalidParams as exc:
        raise JobFailed(
            "; ".join(f"{row['field']}: {row['message']}" for row in exc.errors), result={"errors": exc.errors}
        ) from exc
