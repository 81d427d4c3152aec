"""Job kinds of ShareBackup and Larry. Handlers are thin: validate again (a retried job), call the
service, return its result. Neither needs a stored fabric; larry.run reads one's telemetry when its
counters say so, and builds its rack set from one's circuit switches when the rack set names it
(see services.larry and services.rack_sets)."""

from __future__ import annotations

from typing import Any

from accounts.roles import OPERATOR, PLANNER
from jobs.registry import job_kind
from jobs.services import JobFailed
from lightpath.problems import InvalidParams
from planning.services.csv_numbers import rounded

from .services import larry, sharebackup


def _params(validate, job) -> dict[str, Any]:
    try:
        return validate(job.params, job.fabric)
    except InvalidParams as exc:
        raise JobFailed(f"the job's params have {len(exc.errors)} problem(s)", {"errors": exc.errors}) from exc


@job_kind(
    "sharebackup.plan",
    title="ShareBackup failover plan",
    roles={PLANNER, OPERATOR},
    description="ShareBackup failover plan of an event log on a k-ary fat tree (abstract, or a stored fabric of that shape "
    "with circuit switches): per event the replace() calls, "
    "pools, DEGRADED groups and fallback, diagnosis circuits, circuit-switch matchings and the verifier's verdict.",
    needs_fabric=False,
    validate=sharebackup.validate_plan_params,
    csv_tables={
        "events": rounded(lambda result: (sharebackup.EVENTS_HEADER, sharebackup.event_rows(result))),
        "replace_calls": rounded(lambda result: (sharebackup.REPLACE_HEADER, sharebackup.replace_call_rows(result))),
    },
)
def sharebackup_plan(job, context) -> dict[str, Any]:
    params = _params(sharebackup.validate_plan_params, job)
    try:
        where = f"{job.fabric.name}, " if job.fabric is not None else ""
        with context.step(
            f"ShareBackup plan: {where}k={params['k']}, {params['pods']} pods, {params['backups']} backups"
        ):
            result = sharebackup.plan(params, context.progress, job.fabric)
    except sharebackup.EventLogRejected as exc:
        raise JobFailed(str(exc), {"errors": exc.errors}) from exc
    verdict = result["verdict"]
    context.info(f"{verdict['checked_events']:,} events planned; {verdict['violations']} violations")
    return result


@job_kind(
    "larry.run",
    title="Larry rack uplinks",
    roles={PLANNER, OPERATOR},
    description="Larry rack-uplink controller over per-ToR counters: uplinks per rack over time, the circuits "
    "that moved, reconfigurations per hour, and the static, one-big-switch and proportional baselines.",
    needs_fabric=False,
    validate=larry.validate_run_params,
    csv_tables={
        "uplinks": rounded(lambda result: (larry.UPLINKS_HEADER, larry.uplink_rows(result))),
        "changes": rounded(lambda result: (larry.CHANGES_HEADER, larry.change_rows(result))),
    },
)
def larry_run(job, context) -> dict[str, Any]:
    params = _params(larry.validate_run_params, job)
    try:
        with context.step(f"Larry controller, {params['policy']} policy"):
            result = larry.run(params, context.progress, job.fabric)
        counters = result["inputs"]["counters"]
        context.info(
            f"{len(result['racks'])} racks, {counters['used_samples']:,} of {counters['samples']:,} counter samples "
            f"used; {len(result['changes'])} reconfigurations kept"
        )
        return result
    except ValueError as exc:  # the engine's message names the input it refused
        raise JobFailed(str(exc), {"errors": [{"section": "params", "field": "", "message": str(exc)}]}) from exc
