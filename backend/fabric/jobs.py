"""Background job kinds of the fabric domain."""

from accounts.roles import OPERATOR, PLANNER, ROLES
from jobs.registry import job_kind
from jobs.services import JobFailed

from . import services
from .models import Fabric


@job_kind(
    "fabric.import",
    title="Fabric import",
    summary=lambda result: f"fabric '{result['name']}' imported",
    roles={PLANNER, OPERATOR},
    description="Import a fabric interchange document (atomic; large fabrics report progress).",
    needs_fabric=False,
)
def import_fabric(job, context) -> dict:
    if "document" not in job.params:
        raise JobFailed("the job holds no document (it was dropped after an earlier run)")
    document = job.params["document"]
    if isinstance(document, dict):
        switches, links = (len(document.get(key) or ()) for key in ("switches", "links"))
        context.info(f"document '{document.get('name')}': {switches} switches, {links} links")
    try:
        with context.step("validating and writing the fabric"):
            fabric = services.import_document(document, user=job.created_by, progress=context.progress)
    except services.InterchangeError as exc:
        _drop_document(job)
        raise JobFailed(f"the document has {len(exc.errors)} problem(s)", {"errors": exc.errors}) from exc
    _drop_document(job, fabric=fabric)
    context.info(f"fabric '{fabric.name}' written (id {fabric.pk})")
    return {"fabric": fabric.pk, "name": fabric.name}


def _drop_document(job, **changes) -> None:
    """The document can be tens of megabytes; once imported (or refused) it is not kept."""
    type(job).objects.filter(pk=job.pk).update(params={"document_name": job.params["document"].get("name")}, **changes)


@job_kind(
    "fabric.capacity_report",
    title="Fabric capacity report",
    summary=lambda result: (
        f"{result['summary']['tors']} ToRs, {result['summary']['below_constraint']} below the capacity constraint"
    ),
    roles=set(ROLES),
    description="Per-ToR up-path capacity against the constraints, with a per-pod summary.",
)
def capacity_report(job, context) -> dict:
    fabric = Fabric.objects.get(pk=job.fabric_id)
    context.progress(0.1, "counting up-paths")
    with context.step(f"counting the up-paths of fabric '{fabric.name}'"):
        capacity = services.fabric_capacity(fabric)
    below = capacity["summary"]["below_constraint"]
    context.info(f"{len(capacity['tors'])} ToRs, {below} below the capacity constraint")
    context.progress(0.8, "summarising pods")
    pods: dict = {}
    for tor in capacity["tors"]:
        pod = pods.setdefault(tor["pod"], {"pod": tor["pod"], "tors": 0, "below_constraint": 0, "min_fraction": 1.0})
        pod["tors"] += 1
        pod["below_constraint"] += tor["below_constraint"]
        pod["min_fraction"] = min(pod["min_fraction"], tor["fraction"])
    return {
        "summary": capacity["summary"],
        "pods": sorted(pods.values(), key=lambda p: (p["pod"] is None, p["pod"])),
        "below_constraint": [tor for tor in capacity["tors"] if tor["below_constraint"]],
    }
