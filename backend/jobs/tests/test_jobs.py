"""Jobs: the API, the runner's state machine, cancellation and idempotency."""

import pytest

from fabric.models import Fabric
from jobs import services

DBS = ["default", "progress"]


@pytest.mark.django_db
def test_kinds_and_submission(client_for, small_fabric):
    client = client_for("viewer")
    kinds = {k["name"]: k for k in client.get("/api/jobs/kinds/").json()}
    assert {"fabric.import", "fabric.capacity_report"} <= set(kinds)
    assert "viewer" not in kinds["fabric.import"]["roles"]
    response = client.post("/api/jobs/", {"kind": "fabric.capacity_report", "fabric": small_fabric.pk}, format="json")
    assert response.status_code == 202
    job = response.json()
    assert (job["state"], job["progress"], job["created_by"]) == ("queued", 0.0, job["created_by"])
    assert job["created_by"].startswith("viewer")
    assert "params" not in job  # input only: import documents are too big to echo on every poll


@pytest.mark.django_db
def test_submission_errors(client_for, small_fabric):
    client = client_for("planner")
    assert client.post("/api/jobs/", {"kind": "nope"}, format="json").status_code == 400
    missing = client.post("/api/jobs/", {"kind": "fabric.capacity_report"}, format="json")
    assert missing.status_code == 400 and "fabric" in missing.json()
    assert (
        client.post("/api/jobs/", {"kind": "fabric.capacity_report", "fabric": 999999}, format="json").status_code
        == 400
    )
    # a viewer may not start an import job
    assert (
        client_for("viewer").post("/api/jobs/", {"kind": "fabric.import", "params": {}}, format="json").status_code
        == 403
    )


@pytest.mark.django_db
def test_cancel_rules(client_for, make_user, small_fabric):
    planner = make_user("planner")
    job = services.submit("fabric.capacity_report", user=planner, fabric=small_fabric)
    assert client_for("technician").post(f"/api/jobs/{job.pk}/cancel/").status_code == 403
    response = client_for("operator").post(f"/api/jobs/{job.pk}/cancel/")
    assert response.status_code == 200
    assert response.json()["state"] == "cancelled"
    assert services.run(job.pk) == "cancelled"  # a cancelled job never starts


@pytest.mark.django_db(transaction=True, databases=DBS)
def test_the_list_leaves_results_to_the_detail(client_for, small_fabric):
    job = services.submit("fabric.capacity_report", fabric=small_fabric)
    assert services.run(job.pk) == "succeeded"
    client = client_for("viewer")
    (listed,) = client.get("/api/jobs/").json()["results"]
    assert listed["state"] == "succeeded" and "result" not in listed
    assert client.get(f"/api/jobs/{job.pk}/").json()["result"]["summary"]["tors"] == 3


def test_reads_leave_params_in_the_database(client_for, small_fabric):
    """A job's params can be a tens-of-MB upload; polling the list or a job must not read them."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    job = services.submit("fabric.capacity_report", fabric=small_fabric)
    client = client_for("viewer")
    for url in ("/api/jobs/", f"/api/jobs/{job.pk}/"):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        job_reads = [q["sql"] for q in queries.captured_queries if 'FROM "jobs_job"' in q["sql"]]
        assert job_reads and not any('"jobs_job"."params"' in sql for sql in job_reads), job_reads
        if url == "/api/jobs/":
            assert not any('"jobs_job"."result"' in sql for sql in job_reads)


@pytest.mark.django_db(transaction=True, databases=DBS)
def test_capacity_report_runs_and_is_idempotent(small_fabric):
    job = services.submit("fabric.capacity_report", fabric=small_fabric)
    assert services.run(job.pk) == "succeeded"
    job.refresh_from_db()
    assert (job.progress, job.attempts, job.error) == (1.0, 1, "")
    assert job.result["summary"] == {"tors": 3, "below_constraint": 0, "min_fraction": 1.0}
    assert [p["pod"] for p in job.result["pods"]] == [0, 1]
    assert job.message == "3 ToRs, 0 below the capacity constraint"  # what it found, not "done"
    # a redelivered task finds the job finished and does nothing
    assert services.run(job.pk) == "succeeded"
    job.refresh_from_db()
    assert job.attempts == 1


@pytest.mark.django_db(transaction=True, databases=DBS)
def test_import_job_success_and_failure(small_document):
    ok = services.submit("fabric.import", params={"document": small_document})
    assert services.run(ok.pk) == "succeeded"
    ok.refresh_from_db()
    assert ok.fabric == Fabric.objects.get(name="small")
    assert ok.params == {"document_name": "small"}  # the (possibly huge) document is not kept
    bad = services.submit("fabric.import", params={"document": {**small_document, "name": "other", "tiers": ["x"]}})
    assert services.run(bad.pk) == "failed"
    bad.refresh_from_db()
    assert "problem" in bad.error
    assert any(e["field"] == "tiers" for e in bad.result["errors"])
    assert not Fabric.objects.filter(name="other").exists()


@pytest.mark.django_db
def test_background_import_validates_first(client_for, small_document):
    client = client_for("planner")
    bad = client.post("/api/fabrics/import/?background=1", {**small_document, "tiers": []}, format="json")
    assert bad.status_code == 400 and bad.json()["errors"]
    response = client.post("/api/fabrics/import/?background=1", small_document, format="json")
    assert response.status_code == 202
    assert response.json()["kind"] == "fabric.import" and response.json()["state"] == "queued"
