"""Large results go gzip-compressed to clients that accept it (GZipMiddleware), the same JSON or CSV
either way; static files and the UI stay WhiteNoise's, never compressed twice."""

import gzip
import json
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders

from .helpers import DBS, run_submitted, submit

# A generated k = 8 fat tree with sampled lengths: 256 per-link rows, a result of tens of kB.
SAMPLED_PLAN = {"generate": {"k": 8, "lengths": "sampled", "seed": 3}, "nrb": 0.95}


def body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


@pytest.fixture
def plan_job(client_for):
    return run_submitted(submit(client_for("planner"), "rail.plan", SAMPLED_PLAN))


@pytest.mark.django_db(transaction=True, databases=DBS)
@pytest.mark.parametrize(
    "path",
    ["/api/jobs/{id}/", "/api/jobs/{id}/result/", "/api/jobs/{id}/result/?format=csv&table=links"],
)
def test_a_large_result_is_gzipped_only_for_clients_that_accept_it(client_for, plan_job, path):
    viewer = client_for("viewer")
    url = path.format(id=plan_job.pk)

    plain = viewer.get(url)
    packed = viewer.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")

    assert plain.status_code == packed.status_code == 200
    assert "Content-Encoding" not in plain and packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in plain["Vary"] and "Accept-Encoding" in packed["Vary"]
    unpacked = gzip.decompress(packed.content)
    assert len(packed.content) * 3 < len(unpacked)
    assert int(packed["Content-Length"]) == len(packed.content)
    if "format=csv" in url:
        assert unpacked == plain.content and packed["Content-Type"].startswith("text/csv")
        assert packed["Content-Disposition"] == f'attachment; filename="job-{plan_job.pk}-rail-plan-links.csv"'
        assert unpacked.decode().count("\n") == 1 + 256
    else:
        assert json.loads(unpacked) == json.loads(plain.content)
    result = json.loads(unpacked)["result"] if url.endswith(f"{plan_job.pk}/") else None
    if result is not None:
        assert len(result["links"]) == 256


@pytest.mark.django_db
def test_static_files_stay_whitenoises_and_are_not_compressed_again(client):
    path = "admin/css/base.css"
    on_disk = Path(finders.find(path)).read_bytes()

    response = client.get(f"/static/{path}", HTTP_ACCEPT_ENCODING="gzip")

    assert response.status_code == 200
    served = body(response)
    if response.get("Content-Encoding") == "gzip":  # WhiteNoise's own pre-compressed copy, if built
        served = gzip.decompress(served)
    assert served == on_disk
