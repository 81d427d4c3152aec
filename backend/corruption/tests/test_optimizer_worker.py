"""The optimizer job through real Celery workers: killed in the middle (issue #5, "Tests"), and
queued by a repair recorded through the API.

A real Celery worker (prefork, one pool process) runs `corruption.optimize` on a k=8 fat tree with
60 undecided corrupting links; paused_worker.py makes it pause 0.15 s after each progress report,
and the optimizer reports once per link it applies inside its one transaction, so the pool process
is SIGKILLed with the job half applied. Late acknowledgement with reject_on_worker_lost hands the
task back to the broker, a new pool process runs the job again from the start, and the database
must show exactly one run: one decision per link, one ticket per disabled link, no ToR under its
constraint, and the same answer the engine gives on the fabric as it was.

The second test runs on the session's worker (root conftest.py): a technician's action through
the API enables a link, which queues the optimizer once it commits, and the worker disables the
link the fast checker had kept for capacity.
"""

import os
import signal
import time
from collections import Counter
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import timezone

import lightpath_engine
from audit.models import AuditEvent
from corruption.models import Decision, Ticket, TicketStep
from fabric import services as fabric_services
from fabric.models import Link
from fabric.services.engine import engine_fabric
from jobs.models import Job
from lightpath.tests.workers import worker
from lightpath_fixtures.generators import fat_tree
from lightpath_worker import app as celery_app
from telemetry.models import CorruptionEvent

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True, databases=["default", "progress"])]

PAUSED_WORKER = Path(__file__).with_name("paused_worker.py")
CORRUPTING = 60


@pytest.fixture
def slow_worker(django_db_setup, tmp_path):
    """One prefork pool process on its own queue (emptied first), pausing after each job progress report."""
    queue = f"{settings.CELERY_TASK_DEFAULT_QUEUE}-optimizer-kill"
    env = {"LIGHTPATH_QUEUE": queue, "LIGHTPATH_TEST_PROGRESS_PAUSE_S": "0.15"}
    log = tmp_path / "worker.log"
    with worker([queue], log, name="corr-kill", env=env, pool="prefork", paused=True) as started:
        yield queue, log, started.pool_pids


def wait_for(job: Job, condition, what: str, log: Path | None = None, timeout: float = 180) -> Job:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if condition(job):
            return job
        assert job.state in ("queued", "running"), (job.state, job.error)
        time.sleep(0.05)
    tail = log.read_text()[-3000:] if log is not None else ""
    raise AssertionError(f"{what}: job {job.state} {job.progress:.2f} {job.message}\n{tail}")


def test_a_killed_optimizer_job_is_retried_and_leaves_one_consistent_outcome(slow_worker):
    queue, log, pool_pids = slow_worker
    fabric = fabric_services.import_document({**fat_tree(8), "capacity_constraint": 0.75})
    links = list(Link.objects.filter(fabric=fabric).order_by("id"))
    now = timezone.now()
    for n, link in enumerate(links[:: len(links) // CORRUPTING][:CORRUPTING]):
        rate = 1e-6 * (1 + n % 17)
        CorruptionEvent.objects.create(
            link=link, direction="a_to_z", rate=rate, last_rate=rate, peak_rate=rate, first_seen=now, last_seen=now
        )
    state = engine_fabric(fabric)
    corrupting = [(state.link_index[event.link_id], event.last_rate, 0.0) for event in CorruptionEvent.objects.all()]
    expected = lightpath_engine.corropt_optimize(state.graph, corrupting, state.link_states, capacity=0.75)
    assert expected["proven_optimal"] and len(expected["disable"]) > 10

    job = Job.objects.create(kind="corruption.optimize", fabric=fabric)
    celery_app.send_task("jobs.run_job", args=[job.pk], queue=queue)  # by name, as services send it
    wait_for(job, lambda j: j.message.startswith("applying") and j.progress > 0.5, "half applied", log)
    (victim,) = pool_pids()
    os.kill(victim, signal.SIGKILL)

    job = wait_for(job, lambda j: j.state == "succeeded", "retried to the end", log)
    assert job.attempts == 2, job.attempts
    assert victim not in pool_pids()
    assert "WorkerLostError" in log.read_text()

    # One run's outcome: the killed attempt left nothing behind.
    decisions = list(Decision.objects.filter(fabric=fabric))
    assert all(d.job_id == job.pk and d.kind == "optimizer" for d in decisions)
    assert set(Counter(d.link_id for d in decisions).values()) == {1}
    disabled = {d.link_id for d in decisions if d.action == "disabled"}
    assert disabled == {row["link"] for row in job.result["disabled"]}
    assert {state.link_index[link_id] for link_id in disabled} == set(expected["disable"])
    assert job.result["remaining_penalty"] == pytest.approx(expected["remaining_penalty"])
    assert set(Link.objects.filter(fabric=fabric, admin_state="disabled").values_list("id", flat=True)) == disabled
    tickets = Counter(Ticket.objects.filter(fabric=fabric).values_list("link_id", flat=True))
    assert set(tickets) == disabled and set(tickets.values()) == {1}
    assert TicketStep.objects.filter(ticket__fabric=fabric).count() == len(disabled)
    link_updates = AuditEvent.objects.filter(object_type="fabric.link", action="update")
    assert link_updates.count() == len(disabled)
    assert fabric_services.fabric_capacity(fabric)["summary"]["below_constraint"] == 0


def test_a_repair_through_the_api_queues_the_optimizer_and_the_worker_takes_the_kept_link(
    worker, client_for, small_fabric
):
    from corruption import services

    from .test_services import link, open_event

    repaired = services.decide_event(open_event(link(small_fabric, "f0", "u0"), rate=1e-6).pk).decision
    kept = services.decide_event(open_event(link(small_fabric, "f1", "u0"), rate=1e-3).pk).decision
    assert (repaired.action, kept.action) == ("disabled", "kept")
    ticket = Ticket.objects.get(link=repaired.link)
    technician = client_for("technician")
    assert technician.post(f"/api/tickets/{ticket.pk}/start/").status_code == 200
    response = technician.post(f"/api/tickets/{ticket.pk}/act/", {"action_taken": "clean_fiber"}, format="json")
    assert response.status_code == 200 and response.json()["link_enabled"]

    job = Job.objects.get(kind="corruption.optimize", fabric=small_fabric)
    job = wait_for(job, lambda j: j.state == "succeeded", "the optimizer after the repair", timeout=60)
    assert job.params["reasons"] == [f"link {repaired.link_id} enabled after repair (clean_fiber)"]
    (decision,) = Decision.objects.filter(job=job)
    assert (decision.link_id, decision.action, decision.kind) == (kept.link_id, "disabled", "optimizer")
    assert Link.objects.get(pk=kept.link_id).admin_state == "disabled"
    assert Ticket.objects.filter(link_id=kept.link_id, state="open").count() == 1
