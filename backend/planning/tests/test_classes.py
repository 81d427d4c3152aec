"""Reliability classes (job kind rail.classes) from loss rates ingested through the telemetry service."""

import csv
import datetime as dt
import io

import pytest
from django.utils import timezone

from fabric.models import Link
from fabric.tests.factories import FabricFactory
from jobs import services
from jobs.models import Job
from telemetry.services.ingest import ingest

from .helpers import DBS, messages, run_submitted, submit

POLLS = 3  # two 15-minute windows per receiving end
PACKETS = 1_000_000
LOSSY_UP = 50  # errors per window on t0:up0 upward: 5e-5, above class 1's 4.8e-8
BROKEN_DOWN = 150_000  # on t2:up0 downward: 13 %, above the 10 % repair threshold
UNMEASURED = ("f3", "u1")  # a spine link nobody polls


def polls(switch, port, start, errors_per_window=0):
    pkts = fcs = 0
    out = []
    for i in range(POLLS):
        out.append({"switch": switch, "port": port, "time": start + dt.timedelta(minutes=15 * i),
                    "in_pkts": pkts, "in_fcs_errors": fcs, "out_pkts": pkts, "out_discards": 0})  # fmt: skip
        pkts += PACKETS
        fcs += errors_per_window
    return out


def measure(fabric, start):
    """Counters at both ends of every link but one; the receiving end measures each direction."""
    samples = []
    for link in Link.objects.filter(fabric=fabric).select_related("a_switch", "z_switch"):
        a, z = (link.a_switch.name, link.a_port), (link.z_switch.name, link.z_port)
        if a == UNMEASURED:
            continue
        up_errors = LOSSY_UP if a == ("t0", "up0") else 0  # received at Z: the a_to_z direction
        down_errors = BROKEN_DOWN if a == ("t2", "up0") else 0  # received at A
        samples += polls(*z, start, up_errors) + polls(*a, start, down_errors)
    ingest(fabric, samples, derive=True)


def link(fabric, switch, port):
    return Link.objects.get(fabric=fabric, a_switch__name=switch, a_port=port)


@pytest.fixture
def measured_fabric(small_fabric):
    measure(small_fabric, timezone.now() - dt.timedelta(hours=2))
    return small_fabric


@pytest.mark.django_db(transaction=True, databases=DBS)
def test_classes_from_measured_loss_rates(client_for, measured_fabric):
    job = run_submitted(submit(client_for("operator"), "rail.classes", {}, measured_fabric))
    result = job.result
    lossy, broken, unmeasured = (
        link(measured_fabric, "t0", "up0"),
        link(measured_fabric, "t2", "up0"),
        link(measured_fabric, *UNMEASURED),
    )
    assert (result["links"], result["alive"], result["measured_directions"]) == (14, 14, 26)
    assert result["unmeasured"] == {"rule": "treated as clean (loss 0)", "directions": 2, "links": [unmeasured.pk]}
    assert [row["link"] for row in result["repair"]] == [broken.pk]
    assert result["repair"][0]["loss_down"] == pytest.approx(BROKEN_DOWN / (PACKETS + BROKEN_DOWN))

    first, second, third = result["classes"]
    assert [c["bound"] for c in result["classes"]] == [4.8e-8, 1e-3, 0.1]
    # Nested; the lossy link is out of the strictest class only; the broken one is in none.
    assert set(first["links"]) <= set(second["links"]) <= set(third["links"])
    assert lossy.pk not in first["links"] and lossy.pk in second["links"]
    assert [row["link"] for row in first["removed"]] == [lossy.pk] and second["removed"] == []
    assert broken.pk not in third["links"] and len(third["links"]) == 13
    # What the jobs list shows without loading the result.
    assert job.message == "3 classes keep 13 ⊇ 13 ⊇ 12 links; 1 to repair"
    assert first["worst"]["loss"] <= 4.8e-8
    worst = third["worst"]
    assert worst["loss"] == pytest.approx(LOSSY_UP / (PACKETS + LOSSY_UP))
    assert worst["switches"][:2] == ["t0", "f0"] and worst["src_name"] == "t0"
    assert worst["hops"][0] == {"link": lossy.pk, "name": "t0:up0 - f0:d0", "upward": True, "loss": worst["loss"]}
    assert len(worst["switches"]) == len(worst["hops"]) + 1 and worst["switches"][-1] == worst["dst_name"]
    # Every path of the strict class is clean; coding is needed nowhere below the 0.1 % target.
    assert first["fec"]["mean_overhead"] == 0.0 and first["kept_paths"]["worst_pair"]["src_name"].startswith("t")
    summary = {row["class"]: row for row in result["summary"]}
    assert summary[1]["links"] == len(first["links"]) and summary[3]["worst_loss"] == worst["loss"]
    assert summary[1]["kept_min"] == first["kept_paths"]["worst_pair"]["fraction"]

    viewer = client_for("viewer")
    routing = list(csv.DictReader(io.StringIO(viewer.get(f"/api/jobs/{job.pk}/result/?format=csv").text)))
    assert len(routing) == sum(len(c["links"]) for c in result["classes"])
    assert {"class": "2", "bound": "0.001", "link": str(lossy.pk), "a_switch": "t0", "a_port": "up0",
            "z_switch": "f0", "z_port": "d0"} in routing  # fmt: skip
    repair = viewer.get(f"/api/jobs/{job.pk}/result/?format=csv&table=repair").text.splitlines()
    assert repair[0] == "link,a_switch,a_port,z_switch,z_port,loss_up,loss_down" and repair[1].startswith(
        f"{broken.pk},t2,up0,f2,d0,0.0,"
    )


@pytest.mark.django_db(transaction=True, databases=DBS)
def test_rates_older_than_the_window_count_as_unmeasured(client_for, measured_fabric):
    # The newest windows ended about 90 minutes ago.
    job = run_submitted(submit(client_for("planner"), "rail.classes", {"window_hours": 1}, measured_fabric))
    result = job.result
    assert result["unmeasured"]["directions"] == 28 and len(result["unmeasured"]["links"]) == 14
    assert result["repair"] == [] and len(result["classes"][0]["links"]) == 14  # all clean by the rule
    assert result["inputs"]["window_hours"] == 1


def test_bad_params_get_a_400_listing_every_problem(client_for, small_fabric):
    response = submit(
        client_for("planner"),
        "rail.classes",
        {"bounds": [1e-3, 1e-3, 2], "window_hours": 0, "fec_target": 1, "repair_above": "x", "k": 3},
        small_fabric,
    )
    problems = messages(response)
    assert "bounds must increase" in problems["bounds[1]"]
    assert {"bounds[2]", "window_hours", "fec_target", "repair_above", "k"} <= set(problems)
    assert not Job.objects.exists()
    empty = FabricFactory()
    assert "has no links" in messages(submit(client_for("planner"), "rail.classes", {}, empty))["fabric"]
    without_fabric = submit(client_for("planner"), "rail.classes", {})
    assert without_fabric.status_code == 400 and "needs a fabric" in without_fabric.json()["fabric"][0]


@pytest.mark.parametrize(
    ("role", "status"),
    [("viewer", 403), ("technician", 403), ("collector", 403), ("planner", 202), ("operator", 202), ("admin", 202)],
)
def test_who_may_build_classes(client_for, small_fabric, role, status):
    assert submit(client_for(role), "rail.classes", {}, small_fabric).status_code == status


@pytest.mark.django_db(transaction=True, databases=DBS)
def test_a_fabric_emptied_after_submission_fails_the_job_with_its_problem(client_for, small_fabric):
    response = submit(client_for("planner"), "rail.classes", {}, small_fabric)
    Link.objects.filter(fabric=small_fabric).delete()
    job_id = response.json()["id"]
    assert services.run(job_id) == "failed"
    job = Job.objects.get(pk=job_id)
    assert job.error == "fabric: fabric small has no links" and job.result["errors"][0]["field"] == "fabric"
