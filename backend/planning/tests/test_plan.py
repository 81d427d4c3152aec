"""Stretch plans (job kind rail.plan): the seed's Table 4.1 through a job, stored fabrics, validation, roles."""

import csv
import io

import pytest

from fabric.models import Link, TransceiverModel
from jobs.models import Job

from .helpers import DBS, messages, run_submitted, submit

TABLE_4_1 = {"generate": {"k": 32, "max_length_m": 500}, "nrb": None, "name": "Table 4.1"}


def quantities(breakdown):
    return {line["item"]: line["quantity"] for line in breakdown["lines"]}


@pytest.mark.django_db(transaction=True, databases=DBS)
def test_the_k32_fat_tree_reproduces_the_seeds_table_4_1(client_for):
    job = run_submitted(submit(client_for("planner"), "rail.plan", TABLE_4_1))
    # The final message is what lists of plans show without loading the result.
    assert (job.progress, job.message) == (1.0, "Table 4.1: saves 0.0% of $8,573,468 (0 stretched links)")
    result = job.result
    baseline = result["baseline"]
    assert quantities(baseline) == {
        "10GBASE-SR": 19660,
        "10GBASE-LR": 13108,
        "MMF": pytest.approx(1_474_560),
        "SMF": pytest.approx(2_621_440),
        "ports": 32768,
        "energy": pytest.approx(5_045_760),
    }
    assert baseline["total_usd"] == pytest.approx(8_573_467.6)
    assert round(baseline["transceiver_share"], 2) == 0.47  # 47.5 %; the seed rounds to 48 %
    assert result["savings"] == 0.0  # no stretch: the plan is the baseline
    inputs = result["inputs"]
    assert (inputs["name"], inputs["source"], inputs["links"], inputs["tors"]) == ("Table 4.1", "generated", 16384, 512)
    assert {part["name"]: part["price_source"] for part in inputs["catalog"]}["10GBASE-SR"] == "seed"
    assert result["links"] == [] and result["bands"][0]["to_m"] == 300.0
    # The savings curves peak where the seed's Figure 4.13 does.
    curves = {curve["nrb"]: dict(curve["points"]) for curve in result["sweeps"]}
    assert set(curves) == {None, 0.99, 0.95}
    assert max(curves[0.99].items(), key=lambda p: p[1] or 0)[0] == 480.0
    assert max(curves[0.95].items(), key=lambda p: p[1] or 0)[0] == 580.0


@pytest.mark.django_db(transaction=True, databases=DBS)
def test_high_stretch_saves_nine_percent_and_every_tor_pair_keeps_the_bound(client_for):
    job = run_submitted(submit(client_for("operator"), "rail.plan", {**TABLE_4_1, "nrb": 0.95}))
    result = job.result
    assert result["savings"] == pytest.approx(0.090, abs=0.001)
    assert result["plan"]["total_usd"] <= result["baseline"]["total_usd"]
    good = result["good_paths"]
    assert result["path_bound"] == pytest.approx(0.95)
    assert good["worst_pair"]["fraction"] >= result["path_bound"] - 1e-12
    assert good["per_tor"][0]["name"] == "tor0" and good["worst_pair"]["src_name"].startswith("tor")


@pytest.fixture
def measured_fabric(small_fabric):
    """The small fabric with every link measured: ToR links 100-400 m, spine links 450 m."""
    for i, link in enumerate(Link.objects.filter(fabric=small_fabric).order_by("id")):
        link.length_m = 450.0 if link.a_switch.tier == 1 else 100.0 + 50 * i
        link.speed_gbps = 10
        link.save()
    return small_fabric


@pytest.mark.django_db(transaction=True, databases=DBS)
def test_a_stored_fabric_is_planned_link_by_link_with_its_names_and_csv_tables(client_for, measured_fabric):
    planner = client_for("planner")
    job = run_submitted(submit(planner, "rail.plan", {"nrb": 0.99, "name": "dc low"}, measured_fabric))
    result = job.result
    links = {row["name"]: row for row in result["links"]}
    assert len(links) == 14
    spine = links["f0:u1 - s1:p0"]
    assert (spine["length_m"], spine["baseline"], spine["plan"], spine["stretched"]) == (
        450.0,
        "10GBASE-LR",
        "10GBASE-SR",
        True,
    )
    assert spine["p_good"] == pytest.approx(result["link_bound"])
    assert spine["link"] == Link.objects.get(a_switch__name="f0", a_port="u1").pk
    short = links["t0:up0 - f0:d0"]
    assert (short["baseline"], short["plan"], short["stretched"]) == ("10GBASE-SR", "10GBASE-SR", False)
    assert result["plan"]["total_usd"] < result["baseline"]["total_usd"]
    assert result["inputs"]["fabric"] == {"id": measured_fabric.pk, "name": "small"}
    assert result["good_paths"]["worst_pair"]["fraction"] >= 0.99

    viewer = client_for("viewer")
    table = viewer.get(f"/api/jobs/{job.pk}/result/?format=csv&table=links").content.decode()
    rows = list(csv.DictReader(io.StringIO(table)))
    assert len(rows) == 14 and {row["stretched"] for row in rows} == {"True", "False"}
    costs = list(csv.DictReader(io.StringIO(viewer.get(f"/api/jobs/{job.pk}/result/?format=csv").content.decode())))
    assert {row["design"] for row in costs} == {"baseline", "plan"}
    assert {row["category"] for row in costs} == {"transceivers", "fiber", "switch_ports", "power"}
    sweeps = list(csv.DictReader(io.StringIO(viewer.get(f"/api/jobs/{job.pk}/result/?format=csv&table=sweeps").text)))
    assert {row["nrb"] for row in sweeps} == {"", "0.99", "0.95"} and len(sweeps) == 3 * 101

    # Plans side by side: the jobs list filters by kind.
    run_submitted(submit(planner, "rail.plan", {"nrb": 0.95, "name": "dc high"}, measured_fabric))
    submit(planner, "fabric.capacity_report", {}, measured_fabric)
    listed = viewer.get("/api/jobs/", {"kind": "rail.plan"}).json()["results"]
    assert [job["kind"] for job in listed] == ["rail.plan", "rail.plan"]


@pytest.mark.django_db(transaction=True, databases=DBS)
def test_sampled_lengths_follow_the_seed(client_for):
    params = {"generate": {"k": 4, "max_length_m": 600, "lengths": "sampled", "seed": 7}, "nrb": 0.95}
    first = run_submitted(submit(client_for("planner"), "rail.plan", params)).result
    again = run_submitted(submit(client_for("planner"), "rail.plan", params)).result
    other = run_submitted(
        submit(client_for("planner"), "rail.plan", {**params, "generate": {**params["generate"], "seed": 8}})
    ).result
    assert [row["length_m"] for row in first["links"]] == [row["length_m"] for row in again["links"]]
    assert [row["length_m"] for row in first["links"]] != [row["length_m"] for row in other["links"]]
    assert len(first["links"]) == 32 and first["links"][0]["name"] == "tor0-agg0"
    assert all(0 <= row["length_m"] <= 600 for row in first["links"])


def test_bad_params_get_a_400_listing_every_problem(client_for):
    response = submit(
        client_for("planner"),
        "rail.plan",
        {
            "generate": {"k": 5, "max_length_m": -1, "lengths": "median"},
            "nrb": 1.5,
            "max_hops": 0,
            "costs": {"port_usd": -90, "years": 0, "carbon": 1},
            "sweep": {"max_length_m": 1000, "step_m": 0.1},
            "catalog": [999999, "x"],
            "color": "red",
        },
    )
    problems = messages(response)
    assert "must be even" in problems["generate.k"]
    assert "generate.max_length_m" in problems and "generate.lengths" in problems
    assert "must be in (0, 1]" in problems["nrb"]
    assert {"max_hops", "costs.port_usd", "costs.years", "costs.carbon", "sweep.step_m", "catalog[1]", "color"} <= set(
        problems
    )
    assert not Job.objects.exists()


def test_a_plan_needs_a_fabric_or_a_generator_but_not_both(client_for, small_fabric):
    planner = client_for("planner")
    assert "needs a stored fabric" in messages(submit(planner, "rail.plan", {}))["fabric"]
    both = submit(planner, "rail.plan", {"generate": {"k": 4}}, small_fabric)
    assert "not both" in messages(both)["generate"]


def test_stored_links_without_length_and_a_catalog_that_cannot_cover_the_fabric_are_refused(client_for, small_fabric):
    # The small fabric has lengths on two links only; one link is 20 km, beyond every 100G part.
    Link.objects.filter(fabric=small_fabric, a_port="up0", a_switch__name="t0").update(length_m=20_000)
    response = submit(client_for("planner"), "rail.plan", {"default_speed_gbps": 100}, small_fabric)
    problems = messages(response)
    assert "link t1:up0 - f0:d1" in problems["fabric"] and "has no length_m" in problems["fabric"]
    assert problems["fabric"].count("has no length_m") == 12
    assert (
        "no 100 Gb/s part is rated to reach the longest 100 Gb/s link t0:up0 - f0:d0, 20000 m" in (problems["catalog"])
    )


def test_a_catalog_subset_must_price_every_part_of_a_used_speed(client_for):
    unpriced = TransceiverModel.objects.create(name="10G-lab", speed_gbps=10, fiber="MMF", reach_m=1000)
    sr = TransceiverModel.objects.get(name="10GBASE-SR")
    response = submit(client_for("planner"), "rail.plan", {"generate": {"k": 4}, "catalog": [sr.pk, unpriced.pk]})
    assert "10G-lab: price unknown" in messages(response)["catalog"]
    only_40g = TransceiverModel.objects.get(name="40GBASE-SR4")
    response = submit(client_for("planner"), "rail.plan", {"generate": {"k": 4}, "catalog": [only_40g.pk]})
    assert "no 10 Gb/s part in the catalog" in messages(response)["catalog"]


@pytest.mark.parametrize(
    ("role", "status"),
    [("viewer", 403), ("technician", 403), ("collector", 403), ("planner", 202), ("operator", 202), ("admin", 202)],
)
def test_who_may_start_a_plan(client_for, role, status):
    assert submit(client_for(role), "rail.plan", {"generate": {"k": 4}}).status_code == status
