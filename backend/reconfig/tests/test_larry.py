"""Larry in the server: the feasibility check, the larry.run job (uploaded counters, every bad line
listed, the result's series, changes and baselines, CSV tables) and roles."""

import csv
import io
import json
import random

import pytest

import lightpath_engine
from jobs import services
from jobs.models import Job
from reconfig.services.larry import MAX_POINTS, downsample, labelled_totals

DBS = ["default", "progress"]

# The reference's degraded cabling: 4 racks, one cable per ToR-CS pair, R = 2, and the cables of
# ToR 0 and ToR 1 to CS 0 out of service.
DEGRADED = {
    "static_uplinks": 2,
    "cables": [[1, 1, 1, 1] for _ in range(4)],
    "cs_uplinks": [2, 2, 2, 2],
    "capacity_gbps": 100,
    "excluded": [[0, 0], [1, 0]],
}
# Every ToR has 2 cables to each of 4 CSs (L = 8), R = 2 per CS, S = 6: 8 uplinks each at the start.
RACKS = {
    "static_uplinks": 6,
    "cables": [[2, 2, 2, 2] for _ in range(4)],
    "cs_uplinks": [2, 2, 2, 2],
    "capacity_gbps": 100,
    "racks": ["r-a", "r-b", "r-c", "r-d"],
}
GBIT = 1e9 / 8


def counters_csv(periods, hot_gbps=900, cold_gbps=100, period_s=0.5, hot=0):
    """Rows of cumulative ingress counters: rack `hot` above its 8 uplinks' 0.85 x 800 Gbit/s."""
    lines = ["time_s,rack,ingress_bytes,egress_bytes"]
    totals = [0, 0, 0, 0]
    for i in range(periods + 1):
        for rack in range(4):
            lines.append(f"{i * period_s:g},{RACKS['racks'][rack]},{totals[rack]},0")
        for rack in range(4):
            totals[rack] += int((hot_gbps if rack == hot else cold_gbps) * GBIT * period_s)
    return "\n".join(lines) + "\n"


def check(client, uplinks, rack_set=DEGRADED):
    return client.post("/api/larry/check/", {"rack_set": rack_set, "uplinks": uplinks}, format="json")


@pytest.mark.django_db
def test_the_reference_degraded_cabling(client_for):
    client = client_for("viewer")
    infeasible = check(client, [3, 3, 2, 0])
    assert infeasible.status_code == 200
    body = infeasible.json()
    assert body["feasible"] is False
    assert body["min_cut"]["capacity"] == 7 and body["min_cut"]["racks"] == [0, 1, 2]
    assert sum(body["granted"]) == 7
    # rack 3 asks for nothing, so here the cut's racks and the whole request have the same numbers
    assert (body["total_requested"], body["total_granted"]) == (8, 7)
    assert (body["min_cut"]["racks_requested"], body["min_cut"]["racks_reach"]) == (8, 7)
    feasible = check(client, [3, 3, 1, 1]).json()
    assert feasible["feasible"] is True and feasible["min_cut"] is None
    assert feasible["granted"] == [3, 3, 1, 1]
    assert feasible["inputs"]["uplinks"] == [3, 3, 1, 1]
    # the excluded cables are never used
    assert feasible["assignment"][0][0] == 0 and feasible["assignment"][1][0] == 0


@pytest.mark.django_db
def test_check_lists_every_problem(client_for):
    bad = {
        "static_uplinks": -1,
        "cables": [[1, 1], [1, "x"], [1]],
        "cs_uplinks": [2],
        "capacity_gbps": 0,
        "excluded": [[0, 5], [2, 0], [2, 0]],
    }
    response = check(client_for("planner"), [1, -2], bad)
    assert response.status_code == 400
    fields = [e["field"] for e in response.json()["errors"]]
    assert fields == [
        "rack_set.static_uplinks",
        "rack_set.capacity_gbps",
        "rack_set.cables[1][1]",
        "rack_set.cables[2]",
        "rack_set.cs_uplinks",
        "rack_set.excluded[0]",
        "rack_set.excluded[2]",
        "uplinks[1]",
    ]
    # a vector of the wrong length on a good rack set
    response = check(client_for("planner"), [1, 1])
    assert response.json()["errors"] == [
        {"section": "params", "field": "uplinks", "message": "has 2 entries for 4 racks"}
    ]


def submit(client, params):
    return client.post("/api/jobs/", {"kind": "larry.run", "params": params}, format="json")


def run_submitted(response) -> Job:
    assert response.status_code == 202, response.json()
    job_id = response.json()["id"]
    assert services.run(job_id) == "succeeded", Job.objects.get(pk=job_id).error
    return Job.objects.get(pk=job_id)


def uploaded(text, name="counters.csv"):
    return {"source": "uploaded", "name": name, "csv": text}


@pytest.mark.django_db(transaction=True, databases=DBS)
def test_a_hot_rack_borrows_uplinks_from_idle_neighbours(client_for):
    client = client_for("operator")
    job = run_submitted(submit(client, {"rack_set": RACKS, "counters": uploaded(counters_csv(10))}))
    result = job.result
    assert result["initial_uplinks"] == [8, 8, 8, 8]
    assert result["racks"] == RACKS["racks"]
    first = result["changes"][0]
    assert first["step"] == 0 and first["diff"]
    # the hot rack gained what the donors lost, and only moved circuits are listed
    assert first["uplinks"][0] > 8 and sum(first["uplinks"]) == 32
    assert all(move["to"][0] == 0 for move in first["diff"])
    assert len(first["diff"]) == first["uplinks"][0] - 8
    # later steps change nothing: the load is steady
    assert [c["step"] for c in result["changes"]] == [0]
    assert result["metrics"]["reconfigurations"] == 1
    assert set(result["baselines"]) == {"conservative", "static", "one_big_switch", "proportional"}
    assert result["baselines"]["conservative"] == result["metrics"]
    assert result["baselines"]["static"]["reconfigurations"] == 0
    assert result["baselines"]["static"]["overload_gbit"] > 0 == result["metrics"]["overload_gbit"]
    assert result["series"]["binned"] is False and len(result["series"]["time_s"]) == 10
    assert result["inputs"]["counters"] == {
        "source": "uploaded",
        "name": "counters.csv",
        "samples": 11,
        "used_samples": 11,
    }
    assert "csv" not in job.params["counters"] and len(job.params["counters"]["samples"]) == 11

    changes = client.get(f"/api/jobs/{job.pk}/result/?format=csv&table=changes").content.decode()
    rows = list(csv.DictReader(io.StringIO(changes)))
    assert len(rows) == len(first["diff"]) and {r["to_rack"] for r in rows} == {"r-a"}
    uplinks = list(csv.DictReader(io.StringIO(client.get(f"/api/jobs/{job.pk}/result/?format=csv").content.decode())))
    assert len(uplinks) == 10 * 4
    assert uplinks[0] == {"time_s": "0.5", "rack": "r-a", "uplinks": str(first["uplinks"][0]), "demand_gbps": "900.0"}


@pytest.mark.django_db(transaction=True, databases=DBS)
def test_period_thins_the_samples_and_json_counters(client_for):
    rows = list(csv.DictReader(io.StringIO(counters_csv(8))))
    samples = [
        {
            "time_s": float(rows[i]["time_s"]),
            "ingress_bytes": [int(r["ingress_bytes"]) for r in rows[i : i + 4]],
            "egress_bytes": [0, 0, 0, 0],
        }
        for i in range(0, len(rows), 4)
    ]
    params = {
        "rack_set": RACKS,
        "period_s": 1.0,
        "policy": "proportional",
        "counters": {"source": "uploaded", "name": "c.json", "json": json.dumps({"samples": samples})},
    }
    result = run_submitted(submit(client_for("planner"), params)).result
    assert result["inputs"]["counters"]["used_samples"] == 5  # 0, 1, 2, 3, 4 s of 0..4 s by 0.5
    assert result["series"]["time_s"] == [1.0, 2.0, 3.0, 4.0]
    assert result["policy"] == "proportional"


@pytest.mark.django_db
def test_counter_files_list_every_bad_line(client_for):
    text = (
        "time_s,rack,ingress_bytes,egress_bytes\n"
        "0,r-a,0,0\n0,r-b,0,0\n0,r-c,0,0\n0,r-d,0,0\n"
        "0.5,r-a,100,0\n0.5,r-x,100,0\n0.5,r-c,-3,0\n0.5,r-d,100\n0.5,r-a,5,0\n"
    )
    response = submit(client_for("planner"), {"rack_set": RACKS, "counters": uploaded(text), "threshold": 2})
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert [(e["field"], e.get("line")) for e in errors] == [
        ("threshold", None),
        ("counters.csv", 7),  # unknown rack
        ("counters.csv", 8),  # negative counter
        ("counters.csv", 9),  # 3 fields
        ("counters.csv", 10),  # r-a twice at 0.5 s
        ("counters.csv", 6),  # time 0.5 lacks r-b and r-d
    ]
    assert errors[1]["message"].startswith("line 7: unknown rack 'r-x'")
    response = submit(client_for("planner"), {"rack_set": RACKS, "counters": uploaded("time,rack\n")})
    assert response.json()["errors"][0]["line"] == 1


@pytest.mark.django_db
def test_only_planners_operators_and_admins_start_runs(client_for, every_role):
    response = submit(client_for(every_role), {"rack_set": RACKS, "counters": uploaded(counters_csv(2))})
    expected = 202 if every_role in {"planner", "operator", "admin"} else 403
    assert response.status_code == expected, response.content


def test_downsampling_keeps_bursts_and_is_bounded():
    steps = [
        {"time_s": 0.5 * (i + 1), "uplinks": [8 + (i == 1999), 8], "demand_gbps": [1000.0 if i == 777 else 10.0, 5.0]}
        for i in range(3000)
    ]
    series = downsample(steps)
    assert series["binned"] is True and len(series["time_s"]) == MAX_POINTS
    assert max(point[0] for point in series["demand_gbps"]) == 1000.0  # one period's burst survives
    assert series["time_s"][0] == 0.5 and series["time_s"] == sorted(series["time_s"])


@pytest.mark.django_db
def test_nul_characters_in_stored_names_are_400_not_500(client_for):
    rack_set = {**RACKS, "racks": ["r-a", "r\x00b", "r-c", "r-d"]}
    response = submit(client_for("planner"), {"rack_set": rack_set, "counters": uploaded(counters_csv(2), "c\x00.csv")})
    assert response.status_code == 400
    assert {e["field"] for e in response.json()["errors"]} == {"rack_set.racks", "counters.name"}
    response = client_for("planner").post(
        "/api/jobs/",
        {
            "kind": "sharebackup.plan",
            "params": {"k": 4, "events": {"source": "uploaded", "name": "\x00", "json": "[]"}},
        },
        format="json",
    )
    assert response.status_code == 400


def test_changes_are_bounded_by_steps_and_by_moved_circuits():
    from reconfig.services import larry

    step = {"time_s": 1.0, "uplinks": [], "demand_gbps": [], "diff": [{}] * 40_000}
    assert larry.kept_changes([step] * 5) == 2  # a third would pass 100,000 moves
    small = {**step, "diff": [{}]}
    assert larry.kept_changes([small] * 2500) == larry.MAX_CHANGES
    assert larry.kept_changes([small] * 3) == 3


def test_a_min_cuts_rack_numbers_are_what_their_cables_and_switches_reach():
    """On random cabling, racks_reach is the cut's own capacity (crossing cables plus the uplinks of
    the switches inside), counted independently of the engine's whole-request capacity."""
    rng = random.Random(8)
    cuts = 0
    for _ in range(300):
        racks, switches = rng.randint(1, 5), rng.randint(1, 4)
        rack_set = {
            "static_uplinks": 1,
            "cables": [[rng.randint(0, 2) for _ in range(switches)] for _ in range(racks)],
            "cs_uplinks": [rng.randint(0, 3) for _ in range(switches)],
            "capacity_gbps": 100,
            "excluded": [],
        }
        request = [rng.randint(0, 4) for _ in range(racks)]
        answer = labelled_totals(lightpath_engine.larry_check(rack_set, request))
        assert answer["total_requested"] == sum(request)
        cut = answer["min_cut"]
        if cut is None:
            assert answer["total_granted"] == sum(request)
            continue
        cuts += 1
        crossing = sum(
            rack_set["cables"][t][c] for t in cut["racks"] for c in range(switches) if c not in cut["circuit_switches"]
        )
        inside_uplinks = sum(rack_set["cs_uplinks"][c] for c in cut["circuit_switches"])
        assert cut["racks_reach"] == crossing + inside_uplinks < cut["racks_requested"]
        assert cut["racks_requested"] == sum(request[t] for t in cut["racks"])
        assert answer["total_granted"] == cut["capacity"] < answer["total_requested"]
    assert cuts > 50
