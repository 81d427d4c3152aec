"""Submitting RAIL jobs through the API and running them in the test process."""

from jobs import services
from jobs.models import Job

DBS = ["default", "progress"]


def submit(client, kind: str, params: dict, fabric=None):
    body = {"kind": kind, "params": params, "fabric": None if fabric is None else fabric.pk}
    return client.post("/api/jobs/", body, format="json")


def run_submitted(response) -> Job:
    assert response.status_code == 202, response.json()
    job_id = response.json()["id"]
    assert services.run(job_id) == "succeeded", Job.objects.get(pk=job_id).error
    return Job.objects.get(pk=job_id)


def messages(response) -> dict[str, str]:
    """field -> its messages joined, of a 400's error rows."""
    assert response.status_code == 400, response.json()
    joined: dict[str, str] = {}
    for row in response.json()["errors"]:
        joined[row["field"]] = " | ".join(filter(None, [joined.get(row["field"]), row["message"]]))
    return joined
