"""What-if simulation jobs: submission checks, the run on a stored fabric, downloads and roles."""

import csv
import io
import json

import pytest

import lightpath_engine
from corruption.simulation import MAX_POINTS, SweepProgress, downsample, run
from fabric.models import Link
from jobs import services
from jobs.models import Job

DBS = ["default", "progress"]
HOUR = 3600.0

# On the small fabric every ToR has 4 up-paths; a ToR uplink carries 2 of them. One corrupting
# uplink of t0 for ten hours: at constraint 0.5 CorrOpt may disable it (2 of 4 paths left), at 0.75
# it may not. Switch-local keeps sqrt(c) of each switch's 2 uplinks, so it never disables it.
ONE_UPLINK = "time_s,link,loss_rate\n0,t0:up0,0.001\n"


def simulation_params(**changes):
    params = {
        "constraints": [0.5, 0.75],
        "accuracies": [0.5, 0.8],
        "trace": {"source": "uploaded", "name": "one.csv", "csv": ONE_UPLINK},
        "horizon_hours": 10,
    }
    return {**params, **changes}


def submit(client, fabric, params):
    return client.post(
        "/api/jobs/", {"kind": "corruption.simulate", "fabric": fabric.pk, "params": params}, format="json"
    )


def run_submitted(response) -> Job:
    assert response.status_code == 202, response.json()
    job_id = response.json()["id"]
    assert services.run(job_id) == "succeeded", Job.objects.get(pk=job_id).error
    return Job.objects.get(pk=job_id)


def policy(run, name):
    return next(row for row in run["policies"] if row["policy"] == name)


@pytest.mark.django_db(transaction=True, databases=DBS)
def test_uploaded_trace_runs_every_constraint_and_accuracy(client_for, small_fabric):
    job = run_submitted(submit(client_for("planner"), small_fabric, simulation_params()))
    result = job.result
    assert (job.progress, job.message) == (1.0, "")  # no summary: nothing rather than "done"
    assert [(run["constraint"], run["accuracy"]) for run in result["runs"]] == [
        (0.5, 0.5),
        (0.5, 0.8),
        (0.75, 0.5),
        (0.75, 0.8),
    ]
    assert result["trace"] == {
        "source": "uploaded",
        "name": "one.csv",
        "onsets": 1,
        "links": 1,
        "horizon_s": 10 * HOUR,
    }
    loose, tight = result["runs"][0], result["runs"][2]
    # 0.5: CorrOpt disables the link on arrival; switch-local may not, and suffers the whole window.
    assert policy(loose, "corropt")["penalty_seconds"] == 0.0
    assert policy(loose, "corropt")["counts"]["disables"] == 1
    assert policy(loose, "switch-local")["penalty_seconds"] == pytest.approx(0.001 * 10 * HOUR)
    assert policy(loose, "switch-local")["penalty_ratio_vs_corropt"] is None  # infinite: CorrOpt lost nothing
    disabled_at_once = policy(loose, "corropt")["series"]
    assert (disabled_at_once["penalty"], disabled_at_once["worst_fraction"], disabled_at_once["disabled"]) == (
        [0.0],
        [0.5],
        [1],
    )
    # 0.75: nobody may disable it; every policy pays the same.
    for name in ("corropt", "fast-checker", "switch-local"):
        assert policy(tight, name)["penalty_seconds"] == pytest.approx(36.0)
        assert policy(tight, name)["penalty_ratio_vs_corropt"] == 1.0
    assert policy(tight, "corropt")["series"] == {
        "binned": False,
        "time_s": [0.0],
        "penalty": [0.001],
        "worst_fraction": [1.0],
        "disabled": [0],
        "active_corrupting": [1],
    }
    # a redelivered task finds the job finished and leaves its result alone
    assert services.run(job.pk) == "succeeded"
    job.refresh_from_db()
    assert job.attempts == 1 and job.result == result


@pytest.mark.django_db(transaction=True, databases=DBS)
def test_generated_trace_is_deterministic_and_retry_gives_the_same_result(client_for, small_fabric):
    params = {"constraints": [0.75], "accuracies": [0.8], "trace": {"source": "generated", "hours": 2000,
              "mttf_hours": 200, "seed": 7}}  # fmt: skip
    first = run_submitted(submit(client_for("operator"), small_fabric, params))
    assert first.result["trace"]["onsets"] > 50
    assert first.result["trace"]["horizon_s"] == 2000 * HOUR
    # A worker that died mid-job runs it again from the start: same params, same answer.
    Job.objects.filter(pk=first.pk).update(state=Job.State.QUEUED, result=None)
    assert services.run(first.pk) == "succeeded"
    again = Job.objects.get(pk=first.pk)
    assert again.result == first.result and again.attempts == 2
    run = first.result["runs"][0]
    # CorrOpt never does worse than the baselines on the same trace and repair coins.
    assert policy(run, "switch-local")["penalty_seconds"] >= policy(run, "corropt")["penalty_seconds"]
    assert policy(run, "corropt")["lowest_worst_fraction"] >= 0.75


@pytest.mark.django_db
def test_submission_lists_every_problem(client_for, small_fabric):
    response = submit(
        client_for("planner"),
        small_fabric,
        {
            "constraints": [0, 1.5],
            "accuracies": "high",
            "policies": ["corropt", "oracle"],
            "repair_delay_hours": -1,
            "colour": "blue",
            "trace": {"source": "generated", "hours": 0, "mttf_hours": "soon"},
        },
    )
    assert response.status_code == 400
    fields = [(row["section"], row["field"]) for row in response.json()["errors"]]
    assert fields == [
        ("params", "colour"),
        ("params", "constraints[0]"),
        ("params", "constraints[1]"),
        ("params", "accuracies"),
        ("params", "policies[1]"),
        ("params", "repair_delay_hours"),
        ("params", "trace.hours"),
        ("params", "trace.mttf_hours"),
    ]
    assert not Job.objects.exists()


@pytest.mark.django_db
def test_uploaded_csv_problems_carry_their_line_numbers(client_for, small_fabric):
    text = (
        "time_s,link,loss_rate\n"
        "10,t0:up0,1e-4\n"
        "20,t9:up0,1e-4\n"  # unknown switch
        "5,t1:up0,1e-4\n"  # before line 2
        "30,f0:u0-s0:p0,2\n"  # rate outside (0, 1]
        "40,t2:up1\n"  # a field short
        "\n"
        "50,s1:p3-f3:u1,1e-5\n"  # either order of the ends is fine
    )
    response = submit(
        client_for("operator"), small_fabric, simulation_params(trace={"source": "uploaded", "csv": text})
    )
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert [(row["field"], row["line"]) for row in errors] == [("trace.csv", n) for n in (3, 4, 5, 6)]
    assert errors[0]["message"] == "line 3: unknown link 't9:up0' in fabric 'small'"
    assert "sorted by time" in errors[1]["message"]

    header = submit(
        client_for("operator"), small_fabric, simulation_params(trace={"source": "uploaded", "csv": "t,l,r\n"})
    )
    assert header.status_code == 400
    assert header.json()["errors"][0]["message"] == "line 1: expected the header time_s,link,loss_rate, got 't,l,r'"

    empty = submit(
        client_for("operator"),
        small_fabric,
        simulation_params(trace={"source": "uploaded", "csv": "time_s,link,loss_rate\n\n"}),
    )
    assert empty.json()["errors"] == [
        {"section": "params", "field": "trace.csv", "message": "holds no onsets after its header"}
    ]


@pytest.mark.django_db
def test_a_good_csv_is_stored_as_resolved_onsets(client_for, small_fabric):
    text = "time_s,link,loss_rate\n0,t0:up0,0.001\n60,s1:p3-f3:u1,1e-5\n"
    response = submit(client_for("planner"), small_fabric, simulation_params(trace={"source": "uploaded", "csv": text}))
    assert response.status_code == 202
    job = Job.objects.get(pk=response.json()["id"])
    first = Link.objects.get(a_switch__name="t0", a_port="up0")
    second = Link.objects.get(a_switch__name="f3", a_port="u1")
    assert job.params["trace"]["onsets"] == [[0.0, first.pk, 0.001], [60.0, second.pk, 1e-5]]
    assert job.params["policies"] == ["corropt", "fast-checker", "switch-local"]  # defaults filled in


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("role", "status"),
    [("viewer", 403), ("technician", 403), ("collector", 403), ("planner", 202), ("operator", 202), ("admin", 202)],
)
def test_who_may_start_a_simulation(client_for, small_fabric, role, status):
    assert submit(client_for(role), small_fabric, simulation_params()).status_code == status


@pytest.mark.django_db(transaction=True, databases=DBS)
def test_downloads_as_json_and_csv(client_for, anonymous, small_fabric):
    job = run_submitted(submit(client_for("planner"), small_fabric, simulation_params()))
    viewer = client_for("viewer")

    as_json = viewer.get(f"/api/jobs/{job.pk}/result/")
    assert as_json.status_code == 200
    assert as_json["Content-Type"] == "application/json"
    assert as_json["Content-Disposition"] == f'attachment; filename="job-{job.pk}-corruption-simulate.json"'
    assert json.loads(as_json.content) == job.result

    summary = viewer.get(f"/api/jobs/{job.pk}/result/?format=csv")
    assert summary["Content-Type"] == "text/csv; charset=utf-8"
    assert summary["Content-Disposition"] == f'attachment; filename="job-{job.pk}-corruption-simulate-summary.csv"'
    rows = list(csv.DictReader(io.StringIO(summary.content.decode())))
    assert len(rows) == 12  # 2 constraints x 2 accuracies x 3 policies
    loose_local = next(
        r for r in rows if (r["constraint"], r["accuracy"], r["policy"]) == ("0.5", "0.8", "switch-local")
    )
    assert float(loose_local["penalty_seconds"]) == pytest.approx(36.0)
    assert loose_local["penalty_ratio_vs_corropt"] == ""  # infinite

    series = viewer.get(f"/api/jobs/{job.pk}/result/?format=csv&table=series")
    lines = series.content.decode().splitlines()
    assert lines[0] == "constraint,accuracy,policy,time_s,penalty,worst_fraction,disabled,active_corrupting"
    assert "0.5,0.5,corropt,0.0,0.0,0.5,1,0" in lines  # disabled at once: half of t0's paths left
    assert "0.5,0.5,switch-local,0.0,0.001,1.0,0,1" in lines

    assert viewer.get(f"/api/jobs/{job.pk}/result/?format=xml").status_code == 400
    assert viewer.get(f"/api/jobs/{job.pk}/result/?format=csv&table=nope").status_code == 400
    assert anonymous.get(f"/api/jobs/{job.pk}/result/").status_code == 401
    assert client_for(None).get(f"/api/jobs/{job.pk}/result/").status_code == 403


@pytest.mark.django_db
def test_no_download_before_success_nor_csv_for_kinds_without_tables(client_for, small_fabric):
    queued = submit(client_for("planner"), small_fabric, simulation_params()).json()
    assert client_for("viewer").get(f"/api/jobs/{queued['id']}/result/").status_code == 404
    report = services.submit("fabric.capacity_report", fabric=small_fabric)
    answer = client_for("viewer").get(f"/api/jobs/{report.pk}/result/?format=csv")
    assert answer.status_code == 400 and "no CSV result" in answer.json()["format"][0]


def test_downsampling_keeps_the_integral_and_the_dips():
    horizon = 1000.0
    times = [float(t) for t in range(1000)]
    series = {
        "time_s": times,
        "penalty": [float(t % 7) for t in range(1000)],
        "worst_fraction": [0.4 if t == 503 else 1.0 for t in range(1000)],
        "disabled": [t % 3 for t in range(1000)],
        "active_corrupting": [1] * 1000,
    }
    small = downsample(series, horizon)
    assert small["binned"] and len(small["time_s"]) == MAX_POINTS
    width = horizon / MAX_POINTS
    assert sum(p * width for p in small["penalty"]) == pytest.approx(sum(series["penalty"]))
    assert min(small["worst_fraction"]) == 0.4
    assert max(small["disabled"]) == 2
    short = {key: values[:5] for key, values in series.items()}
    assert downsample(short, horizon) == {"binned": False, **short}


def test_progress_runs_across_the_sweep_in_order():
    # A small Clos: 3 ToRs, 2 fabric switches, 2 spines; every link corrupts once.
    graph = lightpath_engine.FabricGraph(3, [0, 0, 0, 1, 1, 2, 2], [0, 0, 1, 1, 2, 2, 3, 3, 4, 4],
                                         [3, 4, 3, 4, 3, 4, 5, 6, 5, 6])  # fmt: skip
    trace = [(3600.0 * i, i, 1e-4) for i in range(10)]
    reports: list[tuple[float, str]] = []
    progress = SweepProgress(2 * 2, lambda fraction, message: reports.append((fraction, message)))
    for constraint in (0.5, 0.75):
        lightpath_engine.corropt_compare(
            graph, trace, ["corropt", "switch-local"], capacity=constraint,
            progress=progress.reporter(f"constraint {constraint:g}"),
        )  # fmt: skip
    fractions = [fraction for fraction, _ in reports]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    assert (0.5, "constraint 0.5: switch-local") in reports  # half the runs done after the first cell
    assert reports[-1] == (1.0, "constraint 0.75: switch-local")


def test_progress_reports_at_least_every_second_so_a_cancel_is_seen(monkeypatch):
    # A run of a large sweep may take long to add a percent to the whole; the engine keeps
    # reporting, and a report a second still looks for a cancel request.
    clock = [0.0]
    monkeypatch.setattr(run.time, "monotonic", lambda: clock[0])
    reports: list[float] = []
    engine_progress = SweepProgress(100, lambda fraction, message: reports.append(fraction)).reporter("c 0.5")
    engine_progress("corropt", 0.2)
    assert reports == []
    clock[0] = SweepProgress.REPORT_INTERVAL_S
    engine_progress("corropt", 0.2)
    assert reports == [pytest.approx(0.002)]


@pytest.mark.django_db(transaction=True, databases=DBS)
@pytest.mark.parametrize("role", ["viewer", "technician", "planner", "operator", "admin", "collector"])
def test_every_role_may_download_a_result(client_for, small_fabric, role):
    job = run_submitted(submit(client_for("planner"), small_fabric, simulation_params(accuracies=[0.8])))
    client = client_for(role)
    assert client.get(f"/api/jobs/{job.pk}/result/").status_code == 200
    assert client.get(f"/api/jobs/{job.pk}/result/?format=csv&table=series").status_code == 200
