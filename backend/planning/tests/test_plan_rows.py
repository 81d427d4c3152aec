"""GET /api/rail/plans/{id}/ (a plan without its per-link rows) and GET /api/rail/plans/{id}/links/
(those rows a page at a time, filtered and sorted on the server): the plan page of a 100K-link
fabric loads its summary at once instead of 20 MB."""

import pytest

from jobs import services
from jobs.models import Job

from .helpers import DBS, run_submitted, submit

# A generated k = 8 fat tree with sampled lengths: 256 per-link rows, some stretched.
SAMPLED_PLAN = {"generate": {"k": 8, "lengths": "sampled", "seed": 3}, "nrb": 0.95}


@pytest.fixture
def plan_job(client_for):
    return run_submitted(submit(client_for("planner"), "rail.plan", SAMPLED_PLAN))


def every_row(client, job_id: int, **query) -> tuple[int, list[dict]]:
    """Every matching row, fetched page by page with a small page size."""
    rows: list[dict] = []
    while True:
        page = client.get(f"/api/rail/plans/{job_id}/links/", {**query, "limit": 40, "offset": len(rows)})
        assert page.status_code == 200, page.json()
        rows += page.json()["results"]
        if not page.json()["results"]:
            return page.json()["count"], rows


@pytest.mark.django_db(transaction=True, databases=DBS)
def test_the_summary_is_the_job_without_its_link_rows(client_for, plan_job):
    viewer = client_for("viewer")
    full = viewer.get(f"/api/jobs/{plan_job.pk}/").json()

    summary = viewer.get(f"/api/rail/plans/{plan_job.pk}/").json()

    links = full["result"].pop("links")
    assert len(links) == 256
    assert summary["result"].pop("link_rows") == {
        "count": 256,
        "longest_m": max(row["length_m"] for row in links),
        "parts": sorted({row["baseline"] for row in links} | {row["plan"] for row in links}),
    }
    assert summary == full


@pytest.mark.django_db(transaction=True, databases=DBS)
def test_link_pages_filter_sort_and_add_up_to_the_whole_plan(client_for, plan_job):
    viewer = client_for("viewer")
    links = plan_job.result["links"]

    assert every_row(viewer, plan_job.pk) == (256, links)
    stretched = [row for row in links if row["stretched"]]
    assert 0 < plan_job.result["stretched_links"] == len(stretched) < 256
    assert every_row(viewer, plan_job.pk, stretched="true") == (len(stretched), stretched)
    assert every_row(viewer, plan_job.pk, stretched="false")[0] == 256 - len(stretched)
    lr = [row for row in links if "10GBASE-LR" in (row["baseline"], row["plan"])]
    assert every_row(viewer, plan_job.pk, part="10GBASE-LR") == (len(lr), lr)
    tor0 = [row for row in links if "tor0-" in row["name"]]
    assert every_row(viewer, plan_job.pk, q=" TOR0- ") == (len(tor0), tor0)
    both = [row for row in stretched if "tor0-" in row["name"]]
    assert every_row(viewer, plan_job.pk, q="tor0-", stretched="yes")[1] == both

    longest_first = viewer.get(f"/api/rail/plans/{plan_job.pk}/links/", {"ordering": "-length_m", "limit": 1000})
    lengths = [row["length_m"] for row in longest_first.json()["results"]]
    assert lengths == sorted((row["length_m"] for row in links), reverse=True)
    by_name = viewer.get(f"/api/rail/plans/{plan_job.pk}/links/", {"ordering": "name", "limit": 5}).json()
    assert [row["name"] for row in by_name["results"]] == sorted(row["name"] for row in links)[:5]

    past_the_end = viewer.get(f"/api/rail/plans/{plan_job.pk}/links/", {"offset": 300}).json()
    assert past_the_end == {"count": 256, "results": []}
    nothing = viewer.get(f"/api/rail/plans/{plan_job.pk}/links/", {"q": "no such link"}).json()
    assert nothing == {"count": 0, "results": []}


@pytest.mark.django_db(transaction=True, databases=DBS)
def test_bad_link_queries_get_a_400_listing_every_problem(client_for, plan_job):
    response = client_for("viewer").get(
        f"/api/rail/plans/{plan_job.pk}/links/",
        {"stretched": "maybe", "ordering": "colour", "limit": "0", "offset": "-1"},
    )
    assert response.status_code == 400
    assert set(response.json()) == {"stretched", "ordering", "limit", "offset"}
    assert "length_m" in response.json()["ordering"][0]


@pytest.mark.django_db(transaction=True, databases=DBS)
def test_a_nul_character_in_a_text_filter_is_a_400_not_a_500(client_for, plan_job):
    response = client_for("viewer").get(f"/api/rail/plans/{plan_job.pk}/links/", {"q": "p0\x00", "part": "\x00"})
    assert response.status_code == 400
    assert set(response.json()) == {"q", "part"}


@pytest.mark.django_db(transaction=True, databases=DBS)
def test_only_plans_are_served_and_a_plan_without_a_result_says_so(client_for, small_fabric):
    planner = client_for("planner")
    classes = Job.objects.create(kind="rail.classes", fabric=small_fabric, state=Job.State.SUCCEEDED, result={})
    assert planner.get(f"/api/rail/plans/{classes.pk}/").status_code == 404
    assert planner.get(f"/api/rail/plans/{classes.pk}/links/").status_code == 404
    assert planner.get("/api/rail/plans/999999/").status_code == 404

    queued = services.submit("rail.plan", user=None, fabric=None, params=SAMPLED_PLAN)
    summary = planner.get(f"/api/rail/plans/{queued.pk}/").json()
    assert summary["state"] == "queued" and summary["result"] is None
    assert planner.get(f"/api/rail/plans/{queued.pk}/links/").json() == {"count": 0, "results": []}


@pytest.mark.django_db(transaction=True, databases=DBS)
@pytest.mark.parametrize("role, status", [("viewer", 200), ("operator", 200), (None, 403)])
def test_who_may_read_a_plan_in_pieces(client_for, anonymous, role, status):
    job = Job.objects.create(kind="rail.plan", state=Job.State.QUEUED)
    client = client_for(role)
    assert client.get(f"/api/rail/plans/{job.pk}/").status_code == status
    assert client.get(f"/api/rail/plans/{job.pk}/links/").status_code == status
    assert anonymous.get(f"/api/rail/plans/{job.pk}/").status_code in (401, 403)
