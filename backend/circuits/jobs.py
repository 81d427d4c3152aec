"""Background job kinds of circuit schedules. The handler is thin: check the request again (a retried
job, or one submitted through the service), then plan it (schedule.plan_schedule)."""

from typing import Any

from accounts.roles import OPERATOR, PLANNER
from fabric.models import Fabric
from jobs.registry import job_kind
from jobs.services import JobFailed
from lightpath.problems import InvalidParams

from . import schedule


@job_kind(
    schedule.JOB_KIND,
    title="Circuit schedule",
    roles={PLANNER, OPERATOR},
    description="Circuit schedule (c-Through): circuits per period for a stored demand on a circuit switch or a zone, "
    "with metrics and an algorithm comparison. Params: demand, circuit_switch or zone, params.",
    validate=schedule.validate_request,
    csv_tables={
        "slots": lambda result: (schedule.SLOT_HEADER, schedule.slot_rows(result)),
        "metrics": lambda result: (schedule.METRIC_HEADER, schedule.metric_rows(result)),
    },
)
def run_schedule(job, context) -> dict[str, Any]:
    fabric = Fabric.objects.filter(pk=job.fabric_id).first()
    try:
        request = schedule.validate_request(job.params, fabric)
    except InvalidParams as exc:
        raise JobFailed(f"the schedule's params have {len(exc.errors)} problem(s)", {"errors": exc.errors}) from exc
    switches = len(request["circuit_switches"])
    with context.step(f"circuit schedule of demand {request['demand']} on {switches} circuit switch(es)"):
        return schedule.plan_schedule(request, context)
