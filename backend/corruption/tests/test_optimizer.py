"""The optimizer on live fabrics (corruption.optimizer) on the small fabric (backend/conftest.py).

Every ToR has 2 fabric uplinks and every fabric switch 2 spine uplinks: 4 up-paths per ToR. At
c = 0.75 a ToR keeps 3, so pod 0 may lose one of its four spine uplinks; at 0.5 it keeps 2, so
two spine uplinks of one fabric switch, or one of each, may go.
"""

import pytest

from audit.models import AuditEvent
from corruption import optimizer, services, tickets
from corruption.models import Decision, Ticket
from fabric import services as fabric_services
from fabric.models import Switch
from jobs import services as jobs
from jobs.models import Job
from jobs.services import JobCancelled

from .test_services import link, open_event

pytestmark = pytest.mark.django_db


def pod0_floor(fabric, constraint: float) -> None:
    Switch.objects.filter(fabric=fabric, name__in=["t0", "t1"]).update(capacity_constraint=constraint)


def states(fabric, *names: tuple[str, str]) -> list[str]:
    return [link(fabric, switch, port).admin_state for switch, port in names]


class TestOptimize:
    def test_a_repair_lets_the_link_kept_for_capacity_go_with_a_decision_and_a_ticket(
        self, small_fabric, make_user, django_capture_on_commit_callbacks
    ):
        first = services.decide_event(open_event(link(small_fabric, "f0", "u0"), rate=1e-6).pk).decision
        second = services.decide_event(open_event(link(small_fabric, "f1", "u0"), rate=1e-3).pk).decision
        assert (first.action, second.action) == ("disabled", "kept")  # arrival order, not penalty

        tech = make_user("technician")
        ticket = Ticket.objects.get(link=first.link)
        tickets.start(ticket, tech)
        with django_capture_on_commit_callbacks() as callbacks:
            tickets.record_action(ticket, tech, "clean_fiber")
        # Once the repair commits, one optimizer job is queued for the fabric, saying why.
        for callback in callbacks:
            callback()
        job = Job.objects.get(kind="corruption.optimize", fabric=small_fabric)
        assert job.state == "queued" and job.params["reasons"] == [
            f"link {first.link_id} enabled after repair (clean_fiber)"
        ]

        summary = optimizer.optimize_fabric(small_fabric.pk, job=job)

        assert [row["link"] for row in summary["disabled"]] == [second.link_id]
        assert summary["candidates"] == 1 and summary["remaining_penalty"] == 0
        assert summary["proven_optimal"] and summary["tors_below_threshold"] == []
        decision = Decision.objects.get(job=job)
        assert (decision.kind, decision.action, decision.event_id) == ("optimizer", "disabled", second.event_id)
        rows = {row["name"]: row for row in decision.affected}
        assert rows["t0"]["fraction_before"] == 1.0 and rows["t0"]["fraction_after"] == 0.75
        assert states(small_fabric, ("f0", "u0"), ("f1", "u0")) == ["enabled", "disabled"]
        assert link(small_fabric, "f1", "u0").admin_reason == "corruption"
        opened = Ticket.objects.get(link=second.link)
        assert opened.decision == decision and opened.state == "open" and opened.steps.count() == 1
        assert not services.kept_for_capacity().exists()
        assert fabric_services.fabric_capacity(small_fabric)["summary"]["below_constraint"] == 0

    def test_relaxing_the_tors_constraints_lets_the_kept_link_go(
        self, small_fabric, client_for, django_capture_on_commit_callbacks
    ):
        services.decide_event(open_event(link(small_fabric, "f0", "u0"), rate=1e-3).pk)
        kept = services.decide_event(open_event(link(small_fabric, "f1", "u1"), rate=1e-4).pk).decision
        assert kept.action == "kept" and kept.blocking_tor.name == "t0"

        with django_capture_on_commit_callbacks() as callbacks:
            response = client_for("operator").patch(
                f"/api/fabrics/{small_fabric.pk}/constraints/", {"overrides": {"t0": 0.5, "t1": 0.5}}, format="json"
            )
        assert response.status_code == 200, response.content
        for callback in callbacks:
            callback()
        job = Job.objects.get(kind="corruption.optimize", fabric=small_fabric)
        summary = optimizer.optimize_fabric(small_fabric.pk, job=job)

        assert [row["link"] for row in summary["disabled"]] == [kept.link_id]
        assert states(small_fabric, ("f0", "u0"), ("f1", "u1")) == ["disabled", "disabled"]
        rows = {row["name"]: row for row in Decision.objects.get(job=job).affected}
        assert (rows["t0"]["fraction_after"], rows["t0"]["threshold"]) == (0.5, 0.5)
        assert Ticket.objects.filter(link=kept.link, state="open").exists()

    def test_it_disables_the_best_set_not_the_largest_first(self, small_fabric):
        # At 0.5 a ToR keeps 2 of its 4 paths. Largest penalty first (the fast checker's way),
        # t1's uplink to f1 goes and then f0's spine uplinks must stay for t1: 7e-4 left. The
        # optimum keeps that uplink and takes t0's uplink to f0 and both of f0's spine uplinks
        # (f0 then carries nothing, each ToR keeps 2 paths through f1): 5e-4 left.
        small_fabric.capacity_constraint = 0.5
        small_fabric.save()
        corrupting = {("t0", "up0"): 2e-4, ("t1", "up1"): 5e-4, ("f0", "u1"): 5e-4, ("f0", "u0"): 2e-4}
        for (switch, port), rate in corrupting.items():
            open_event(link(small_fabric, switch, port), rate=rate)

        summary = optimizer.optimize_fabric(small_fabric.pk)

        assert states(small_fabric, *corrupting) == ["disabled", "enabled", "disabled", "disabled"]
        assert summary["remaining_penalty"] == pytest.approx(5e-4) and summary["proven_optimal"]
        (kept,) = summary["kept"]
        assert kept["link"] == link(small_fabric, "t1", "up1").pk and kept["blocking_tor_name"] == "t1"
        assert Ticket.objects.filter(state="open").count() == 3
        kept_decision = services.kept_for_capacity().get()
        assert kept_decision.kind == "optimizer" and kept_decision.blocking_tor_fraction == 0.5
        assert fabric_services.fabric_capacity(small_fabric)["summary"]["below_constraint"] == 0

    def test_a_link_still_kept_by_the_same_tor_gets_no_new_decision(self, small_fabric):
        services.decide_event(open_event(link(small_fabric, "f0", "u0"), rate=1e-3).pk)
        kept = services.decide_event(open_event(link(small_fabric, "f1", "u1"), rate=1e-4).pk).decision
        assert kept.action == "kept"

        summary = optimizer.optimize_fabric(small_fabric.pk)

        assert summary["disabled"] == [] and summary["kept"] == [] and summary["still_kept"] == 1
        assert list(Decision.objects.filter(kind="optimizer")) == []
        assert list(services.kept_for_capacity()) == [kept]

    def test_rerunning_a_committed_job_decides_nothing_again(self, small_fabric):
        pod0_floor(small_fabric, 0.5)
        open_event(link(small_fabric, "f0", "u0"), rate=1e-4)
        open_event(link(small_fabric, "f1", "u1"), rate=1e-4)
        open_event(link(small_fabric, "t1", "up0"), rate=1e-5)
        job = Job.objects.create(kind="corruption.optimize", fabric=small_fabric)

        first = optimizer.optimize_fabric(small_fabric.pk, job=job)
        counts = (Decision.objects.count(), Ticket.objects.count(), AuditEvent.objects.count())
        again = optimizer.optimize_fabric(small_fabric.pk, job=job)

        assert again["resumed"] and again["disabled"] == first["disabled"] and again["kept"] == first["kept"]
        assert (Decision.objects.count(), Ticket.objects.count(), AuditEvent.objects.count()) == counts
        # A new job finds nothing left to do.
        later = optimizer.optimize_fabric(small_fabric.pk, job=Job.objects.create(kind="corruption.optimize"))
        assert later["disabled"] == [] and later["kept"] == []
        assert Decision.objects.count() == counts[0]

    def test_cancelling_through_progress_rolls_everything_back(self, small_fabric):
        open_event(link(small_fabric, "f0", "u0"), rate=1e-4)
        open_event(link(small_fabric, "f2", "u0"), rate=1e-4)

        def cancel_while_applying(fraction: float, message: str) -> None:
            if message == "applying 2/2":
                raise JobCancelled()

        with pytest.raises(JobCancelled):
            optimizer.optimize_fabric(small_fabric.pk, progress=cancel_while_applying)
        assert not Decision.objects.exists() and not Ticket.objects.exists()
        assert states(small_fabric, ("f0", "u0"), ("f2", "u0")) == ["enabled", "enabled"]

    def test_disabled_and_down_links_are_left_alone(self, small_fabric):
        from fabric.models import Link

        for port in ("u0", "u1"):
            Link.objects.filter(pk=link(small_fabric, "f0", port).pk).update(admin_state="disabled")
        open_event(link(small_fabric, "f0", "u0"), rate=1e-3)
        open_event(link(small_fabric, "f1", "u0"), rate=1e-4)  # t0 and t1 are at 2/4 already
        summary = optimizer.optimize_fabric(small_fabric.pk)
        assert summary["candidates"] == 1 and summary["disabled"] == []
        assert states(small_fabric, ("f0", "u0"), ("f1", "u0")) == ["disabled", "enabled"]


class TestTriggers:
    def test_a_burst_of_triggers_queues_one_job_per_fabric(self, small_fabric, make_user):
        user = make_user("operator")
        first = optimizer.submit_coalesced(small_fabric.pk, "constraint t0", user)
        for reason in ("constraint t1", "link 3 enabled"):
            assert optimizer.submit_coalesced(small_fabric.pk, reason, user) == first
        first.refresh_from_db()
        assert first.params["reasons"] == ["constraint t0", "constraint t1", "link 3 enabled"]
        assert first.created_by == user
        # Once it runs, the next trigger queues a new job (the running one may have read the fabric).
        Job.objects.filter(pk=first.pk).update(state="running")
        second = optimizer.submit_coalesced(small_fabric.pk, "constraint t2")
        assert second is not None and second.pk != first.pk
        assert optimizer.pending_job(small_fabric) == second

    @pytest.mark.django_db(transaction=True, databases=["default", "progress"])
    def test_the_job_kind_runs_the_optimizer_and_refuses_a_bad_budget(self, small_fabric):
        open_event(link(small_fabric, "f2", "u1"), rate=1e-4)
        job = Job.objects.create(kind="corruption.optimize", fabric=small_fabric, params={"time_budget_s": 5})
        assert jobs.run(job.pk) == "succeeded"
        job.refresh_from_db()
        assert [row["link_name"] for row in job.result["disabled"]] == [str(link(small_fabric, "f2", "u1"))]
        assert job.result["time_budget_s"] == 5
        # What the Jobs list says of the run, not just "done"; the penalty as the UI writes it, no exponent.
        assert job.message == (
            "1 corrupting link: 1 disabled, 0 kept for capacity; penalty 1.0 \N{MULTIPLICATION SIGN} 10⁻⁴ → 0 "
            "(proven optimal)"
        )

        bad = Job.objects.create(kind="corruption.optimize", fabric=small_fabric, params={"time_budget_s": "soon"})
        assert jobs.run(bad.pk) == "failed"
        bad.refresh_from_db()
        assert "time_budget_s must be a number of seconds above 0" in bad.error

        orphan = Job.objects.create(kind="corruption.optimize", fabric=small_fabric)
        fabric_services.delete_fabric(small_fabric)
        assert jobs.run(orphan.pk) == "failed"
        orphan.refresh_from_db()
        assert orphan.error == "the fabric was deleted before the optimizer ran"


class TestJobsAPI:
    def test_operators_start_it_with_a_checked_budget(self, client_for, small_fabric):
        body = {"kind": "corruption.optimize", "fabric": small_fabric.pk, "params": {"time_budget_s": 2}}
        for role in ("viewer", "technician", "planner"):
            assert client_for(role).post("/api/jobs/", body, format="json").status_code == 403, role
        response = client_for("operator").post("/api/jobs/", body, format="json")
        assert response.status_code == 202, response.content
        job = Job.objects.get(pk=response.json()["id"])
        assert job.params == {"reasons": ["started by hand"], "time_budget_s": 2}

        bad = {**body, "params": {"time_budget_s": 0, "apply": False}}
        response = client_for("admin").post("/api/jobs/", bad, format="json")
        assert response.status_code == 400
        assert response.json()["errors"] == [
            {"section": "params", "field": "apply", "message": "unknown parameter; the only one is time_budget_s"},
            {
                "section": "params",
                "field": "time_budget_s",
                "message": "time_budget_s must be above 0 and at most 3600 seconds, got 0",
            },
        ]

    def test_the_decision_log_names_the_job(self, client_for, small_fabric):
        open_event(link(small_fabric, "f2", "u1"), rate=1e-4)
        services.decide_event(open_event(link(small_fabric, "f0", "u0"), rate=1e-4).pk)
        job = Job.objects.create(kind="corruption.optimize", fabric=small_fabric)
        optimizer.optimize_fabric(small_fabric.pk, job=job)
        rows = client_for("viewer").get("/api/decisions/", {"job": job.pk}).json()["results"]
        assert [(row["kind"], row["action"], row["job"]) for row in rows] == [("optimizer", "disabled", job.pk)]
        assert rows[0]["link"] == link(small_fabric, "f2", "u1").pk
