"""Circuit switches, demand uploads, the heat map and schedule jobs through the API (issue #7)."""

import csv
import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

import lightpath_engine
from corruption.models import Decision, Ticket
from fabric.models import Fabric, Link, Switch
from jobs import services as jobs
from jobs.models import Job
from jobs.services import JobCancelled, JobContext

from .. import jobs as schedule_kind
from ..models import CircuitSwitch
from ..schedule import engine_arguments

DBS = ["default", "progress"]
pytestmark = pytest.mark.django_db(databases=DBS)

# Six racks: t0 and t1 talk a lot, t2 and t3 too, t4 and t5 a little; the hot pairs swap in window 2.
DEMAND_CSV = """src,dst,bytes,window_start
t0,t1,900000000,0
t1,t0,100000000,0
t2,t3,800000000,0
t4,t5,50000000,0
t0,t1,900000000,1
t2,t3,800000000,1
t4,t5,60000000,1
t0,t2,700000000,2
t1,t3,700000000,2
t4,t5,70000000,2
"""


@pytest.fixture
def racks(small_fabric):
    """The small fabric's three ToRs plus three more (no uplinks needed for circuits)."""
    for i in range(3, 6):
        Switch.objects.create(fabric=small_fabric, name=f"t{i}", tier=0, pod=1)
    return small_fabric


@pytest.fixture
def ocs(racks):
    switch = CircuitSwitch.objects.create(fabric=racks, name="ocs-1", zone="z", port_count=8, capacity_gbps=10)
    from ..services import all_tor_attachments, replace_attachments

    replace_attachments(switch, all_tor_attachments(racks))
    return switch


def tor(fabric, name):
    return Switch.objects.get(fabric=fabric, name=name)


def upload(client, fabric, name="hot pairs", text=DEMAND_CSV, **extra):
    return client.post("/api/demands/", {"fabric": fabric.pk, "name": name, "csv": text, **extra}, format="json")


def run_schedule(client, demand_id, switch, **params):
    response = client.post(
        "/api/circuit-schedules/",
        {"demand": demand_id, "circuit_switch": switch.pk, "params": params},
        format="json",
    )
    assert response.status_code == 202, response.json()
    job_id = response.json()["id"]
    assert jobs.run(job_id) == "succeeded", Job.objects.get(pk=job_id).error
    return Job.objects.get(pk=job_id)


# ---------------------------------------------------------------------------------------------
# Circuit switches


def test_a_planner_creates_a_circuit_switch_and_everyone_reads_it(client_for, racks):
    body = {
        "fabric": racks.pk,
        "name": "ocs-a",
        "zone": "zone-a",
        "port_count": 8,
        "dark_time_s": 0.02,
        "capacity_gbps": 100,
        "attachments": [{"tor": tor(racks, "t0").pk, "optical_ports": 2}, {"tor": tor(racks, "t1").pk}],
    }
    created = client_for("planner").post("/api/circuit-switches/", body, format="json")
    assert created.status_code == 201, created.json()
    read = client_for("viewer").get(f"/api/circuit-switches/{created.json()['id']}/").json()
    assert [(a["tor_name"], a["optical_ports"], a["available_ports"]) for a in read["attachments"]] == [
        ("t0", 2, 2),
        ("t1", 1, 1),
    ]
    assert read["ports_attached"] == 3 and read["ports_available"] == 3
    listed = client_for("technician").get(f"/api/circuit-switches/?fabric={racks.pk}&zone=zone-a").json()
    assert [row["name"] for row in listed["results"]] == ["ocs-a"]


def test_a_circuit_capacity_past_100_tbps_is_a_400_as_the_form_says(client_for, racks):
    body = {"fabric": racks.pk, "name": "ocs-big", "port_count": 8, "capacity_gbps": 2e9}
    refused = client_for("planner").post("/api/circuit-switches/", body, format="json")
    assert refused.status_code == 400
    assert "100000" in refused.json()["capacity_gbps"][0]
    accepted = client_for("planner").post("/api/circuit-switches/", {**body, "capacity_gbps": 1e5}, format="json")
    assert accepted.status_code == 201, accepted.json()


@pytest.mark.parametrize(
    ("role", "create", "delete"),
    [
        ("planner", 201, 204),
        ("admin", 201, 204),
        ("operator", 403, 403),
        ("viewer", 403, 403),
        ("technician", 403, 403),
        ("collector", 403, 403),
    ],
)
def test_who_may_write_circuit_switches(client_for, racks, ocs, role, create, delete):
    client = client_for(role)
    body = {"fabric": racks.pk, "name": f"ocs-{role}", "port_count": 4, "attach_all_tors": False}
    assert client.post("/api/circuit-switches/", body, format="json").status_code == create
    assert client.get(f"/api/circuit-switches/{ocs.pk}/").status_code == 200
    assert client.delete(f"/api/circuit-switches/{ocs.pk}/").status_code == delete


def test_an_update_replaces_the_attachments_and_a_list_page_costs_the_same_queries(client_for, racks, ocs):
    planner = client_for("planner")
    patched = planner.patch(
        f"/api/circuit-switches/{ocs.pk}/",
        {"port_count": 4, "attachments": [{"tor": tor(racks, "t4").pk, "optical_ports": 3}]},
        format="json",
    )
    assert patched.status_code == 200, patched.json()
    assert [(a["tor_name"], a["available_ports"]) for a in patched.json()["attachments"]] == [("t4", 3)]
    assert patched.json()["ports_attached"] == 3
    too_few = planner.patch(f"/api/circuit-switches/{ocs.pk}/", {"port_count": 2}, format="json")
    assert too_few.json() == {"port_count": ["2 ports are fewer than the 3 optical ports of the attachments"]}

    def list_queries() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert planner.get(f"/api/circuit-switches/?fabric={racks.pk}").status_code == 200
        return len(queries)

    one = list_queries()
    for i in range(3):
        body = {"fabric": racks.pk, "name": f"more-{i}", "port_count": 6, "attach_all_tors": True}
        assert planner.post("/api/circuit-switches/", body, format="json").status_code == 201
    assert list_queries() == one


def test_anonymous_and_roleless_users_are_refused(anonymous, client_for, ocs):
    assert anonymous.get("/api/circuit-switches/").status_code == 401
    assert client_for(None).get("/api/demands/").status_code == 403


def test_attach_all_tors_attaches_every_tor_with_one_port(client_for, racks):
    body = {"fabric": racks.pk, "name": "all", "port_count": 6, "attach_all_tors": True}
    created = client_for("planner").post("/api/circuit-switches/", body, format="json").json()
    assert [a["tor_name"] for a in created["attachments"]] == ["t0", "t1", "t2", "t3", "t4", "t5"]


def test_every_attachment_problem_is_listed_in_one_400(client_for, racks, small_document):
    other = Fabric.objects.create(name="other", tiers=["tor", "spine"])
    foreign = Switch.objects.create(fabric=other, name="x0", tier=0)
    spine = tor(racks, "s0")
    t2_uplink = Link.objects.get(a_switch__name="t2", a_port="up0")
    body = {
        "fabric": racks.pk,
        "name": "bad",
        "port_count": 2,
        "attachments": [
            {"tor": tor(racks, "t0").pk, "optical_ports": 1, "links": [t2_uplink.pk]},
            {"tor": foreign.pk},
            {"tor": spine.pk},
            {"tor": tor(racks, "t0").pk},
        ],
    }
    response = client_for("planner").post("/api/circuit-switches/", body, format="json")
    assert response.status_code == 400
    errors = response.json()
    assert errors["attachments"] == [
        f"attachments[0]: link {t2_uplink.pk} does not end on ToR 't0'",
        "attachments[1]: switch 'x0' is not in fabric 'small'",
        "attachments[2]: switch 's0' is not a ToR (tier 2)",
        "attachments[3]: ToR 't0' is attached twice",
    ]
    assert errors["port_count"] == ["2 ports are fewer than the 4 optical ports of the attachments"]
    assert not CircuitSwitch.objects.filter(name="bad").exists()


def test_a_port_is_lost_to_a_disabled_link_and_to_an_open_ticket(client_for, racks):
    up0 = Link.objects.get(a_switch__name="t0", a_port="up0")
    up1 = Link.objects.get(a_switch__name="t0", a_port="up1")
    body = {
        "fabric": racks.pk,
        "name": "ocs-links",
        "port_count": 4,
        "attachments": [{"tor": tor(racks, "t0").pk, "optical_ports": 3, "links": [up0.pk, up1.pk]}],
    }
    switch_id = client_for("planner").post("/api/circuit-switches/", body, format="json").json()["id"]

    def t0_ports():
        return client_for("viewer").get(f"/api/circuit-switches/{switch_id}/").json()["attachments"][0]

    assert t0_ports()["available_ports"] == 3
    Link.objects.filter(pk=up0.pk).update(admin_state="disabled")
    assert t0_ports()["available_ports"] == 2
    assert t0_ports()["unavailable"] == [{"link": up0.pk, "reason": "disabled"}]
    decision = Decision.objects.create(
        fabric=racks, link=up1, kind="fast_checker", action="disabled", penalty=1e-4, engine_ms=1.0
    )
    ticket = Ticket.objects.create(fabric=racks, link=up1, direction="a_to_z", decision=decision, state="in_progress")
    assert t0_ports()["available_ports"] == 1
    assert t0_ports()["unavailable"][1] == {"link": up1.pk, "reason": "open_ticket"}
    Ticket.objects.filter(pk=ticket.pk).update(state="resolved")
    assert t0_ports()["available_ports"] == 2


# ---------------------------------------------------------------------------------------------
# Demands


def test_an_uploaded_csv_is_stored_per_window_with_totals(client_for, racks):
    response = upload(client_for("planner"), racks)
    assert response.status_code == 201, response.json()
    demand = response.json()
    assert (demand["window_s"], demand["window_count"], demand["row_count"], demand["rack_count"]) == (1.0, 3, 10, 6)
    assert demand["total_bytes"] == sum(int(line.split(",")[2]) for line in DEMAND_CSV.splitlines()[1:])
    assert [(w["index"], w["rows"], w["total_bytes"]) for w in demand["windows"]] == [
        (0, 4, 1_850_000_000),
        (1, 3, 1_760_000_000),
        (2, 3, 1_470_000_000),
    ]
    listed = client_for("viewer").get(f"/api/demands/?fabric={racks.pk}").json()["results"]
    assert [row["name"] for row in listed] == ["hot pairs"] and "windows" not in listed[0]


def test_every_bad_line_of_an_upload_is_listed_with_its_number(client_for, racks):
    text = "src,dst,bytes,window_start\nt0,t1,5,0\nt0,t9,5,0\nt1,t1,5,0\nt0,t1,-3,soon\n"
    response = upload(client_for("planner"), racks, text=text)
    assert response.status_code == 400
    assert response.json()["errors"] == [
        {"section": "demand", "field": "csv", "line": 3, "message": "line 3: dst 't9' is not a ToR of fabric 'small'"},
        {
            "section": "demand",
            "field": "csv",
            "line": 4,
            "message": "line 4: src and dst are both rack t1 (intra-rack traffic never uses a circuit)",
        },
        {
            "section": "demand",
            "field": "csv",
            "line": 5,
            "message": "line 5: bytes -3 is negative; window_start 'soon' is neither seconds nor an ISO-8601 time",
        },
    ]


def test_a_duplicate_switch_name_is_said_at_the_name_with_the_ports_problem(client_for, racks, ocs):
    # Not DRF's whole-form "The fields fabric, name must make a unique set." (trial 30).
    body = {"fabric": racks.pk, "name": ocs.name, "port_count": 1, "attach_all_tors": True}
    refused = client_for("planner").post("/api/circuit-switches/", body, format="json")
    assert refused.status_code == 400
    assert refused.json()["name"] == [f"fabric {racks.name!r} already has a circuit switch {ocs.name!r}"]
    assert set(refused.json()) == {"name", "port_count"}, refused.json()


def test_a_long_name_and_a_window_out_of_range_are_one_400(client_for, racks):
    response = upload(client_for("planner"), racks, name="n" * 120, window_s="2e9")
    assert response.status_code == 400
    assert {(e["field"], e["message"]) for e in response.json()["errors"]} == {
        ("name", "must be a name of 1 to 100 characters"),
        ("window_s", "must be in (0, 86400] seconds"),
    }


def test_the_form_and_the_rows_are_checked_together(client_for, racks):
    upload(client_for("planner"), racks)
    response = upload(client_for("planner"), racks, text="src,dst\nt0,t1\n", window_s="often")
    fields = {(e["field"], e["message"]) for e in response.json()["errors"]}
    assert response.status_code == 400
    assert ("window_s", "must be a number of seconds, got 'often'") in fields
    response = upload(client_for("planner"), racks)
    assert response.json()["errors"] == [
        {"section": "demand", "field": "name", "message": "fabric 'small' already has a demand 'hot pairs'"}
    ]


def test_json_rows_and_a_multipart_file_are_accepted(client_for, racks):
    rows = [
        {"src": "t0", "dst": "t1", "bytes": 10, "window_start": "2026-11-22T10:00:00Z"},
        {"src": "t1", "dst": "t2", "bytes": 20, "window_start": "2026-11-22T10:00:10Z"},
    ]
    planner = client_for("planner")
    as_rows = planner.post("/api/demands/", {"fabric": racks.pk, "name": "j", "rows": rows}, format="json").json()
    assert (as_rows["window_s"], as_rows["window_count"], as_rows["total_bytes"]) == (10.0, 2, 30)
    bad = planner.post(
        "/api/demands/", {"fabric": racks.pk, "name": "j2", "rows": [rows[0], {"src": "t0"}]}, format="json"
    )
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "rows[1]"
    file = io.BytesIO(DEMAND_CSV.encode())
    file.name = "demand.csv"
    multipart = planner.post(
        "/api/demands/", {"fabric": racks.pk, "name": "m", "window_s": "1", "file": file}, format="multipart"
    )
    assert multipart.status_code == 201, multipart.json()
    assert multipart.json()["row_count"] == 10


@pytest.mark.parametrize(
    ("role", "status"),
    [("planner", 201), ("operator", 201), ("admin", 201), ("viewer", 403), ("technician", 403), ("collector", 403)],
)
def test_who_may_upload_and_delete_a_demand(client_for, racks, role, status):
    response = upload(client_for(role), racks, name=f"d-{role}")
    assert response.status_code == status
    existing = upload(client_for("planner"), racks, name=f"keep-{role}").json()["id"]
    assert client_for(role).get(f"/api/demands/{existing}/").status_code == 200
    assert client_for(role).delete(f"/api/demands/{existing}/").status_code == (204 if status == 201 else 403)


def test_what_an_unfinished_schedule_uses_is_not_deleted_and_finished_ones_keep_names(client_for, racks, ocs):
    planner = client_for("planner")
    demand = upload(planner, racks).json()["id"]
    body = {"demand": demand, "circuit_switch": ocs.pk, "params": {"min_demand_bytes": 0}}
    queued = planner.post("/api/circuit-schedules/", body, format="json").json()["id"]
    for path, what in (
        (f"/api/demands/{demand}/", "demand 'hot pairs'"),
        (f"/api/circuit-switches/{ocs.pk}/", "ocs-1"),
    ):
        refused = planner.delete(path)
        assert refused.status_code == 409
        assert what in refused.json()["detail"] and f"#{queued}" in refused.json()["detail"]
        assert planner.get(path).status_code == 200
    assert jobs.run(queued) == "succeeded"
    assert planner.delete(f"/api/demands/{demand}/").status_code == 204
    assert planner.delete(f"/api/circuit-switches/{ocs.pk}/").status_code == 204
    listed = client_for("viewer").get("/api/circuit-schedules/").json()["results"][0]
    assert listed["demand"] == {"id": demand, "name": "hot pairs", "deleted": True}
    assert listed["circuit_switches"] == [{"id": ocs.pk, "name": "ocs-1", "deleted": True}]
    result = client_for("viewer").get(f"/api/jobs/{queued}/result/")
    assert result.status_code == 200 and result.json()["demand"]["name"] == "hot pairs"
    again = planner.post("/api/circuit-schedules/", body, format="json")
    assert again.status_code == 400 and again.json()["errors"][0]["message"] == f"demand {demand} does not exist"


def test_a_cancelled_schedule_does_not_hold_back_a_delete(client_for, racks, ocs):
    planner = client_for("planner")
    demand = upload(planner, racks).json()["id"]
    body = {"demand": demand, "zone": "z"}
    queued = planner.post("/api/circuit-schedules/", body, format="json").json()["id"]
    assert planner.post(f"/api/jobs/{queued}/cancel/").status_code in (200, 202)
    assert Job.objects.get(pk=queued).state == "cancelled"
    assert planner.delete(f"/api/circuit-switches/{ocs.pk}/").status_code == 204


def test_the_matrix_is_one_window_sparse_and_bounded(client_for, racks, ocs):
    demand = upload(client_for("planner"), racks).json()["id"]
    viewer = client_for("viewer")
    window0 = viewer.get(f"/api/demands/{demand}/matrix/?window=0").json()
    names = [rack["name"] for rack in window0["racks"]]
    assert names == ["t0", "t1", "t2", "t3", "t4", "t5"]
    assert sorted(tuple(cell) for cell in window0["cells"]) == [
        (0, 1, 900_000_000),
        (1, 0, 100_000_000),
        (2, 3, 800_000_000),
        (4, 5, 50_000_000),
    ]
    busiest = viewer.get(f"/api/demands/{demand}/matrix/?window=0&racks=2").json()
    assert [rack["name"] for rack in busiest["racks"]] == ["t0", "t1"] and busiest["truncated"] is True
    assert busiest["shown_bytes"] == 1_000_000_000 and busiest["window_total_bytes"] == 1_850_000_000
    bad = viewer.get(f"/api/demands/{demand}/matrix/?window=3&racks=0")
    assert bad.status_code == 400 and set(bad.json()) == {"window", "racks"}
    with_switch = viewer.get(f"/api/demands/{demand}/matrix/?window=2&circuit_switch={ocs.pk}").json()
    assert len(with_switch["racks"]) == 6


# ---------------------------------------------------------------------------------------------
# Schedules


def test_a_schedule_job_plans_named_circuits_that_verify(client_for, racks, ocs):
    planner = client_for("planner")
    demand = upload(planner, racks).json()["id"]
    job = run_schedule(planner, demand, ocs, compare=["greedy", "round_robin"], min_demand_bytes=0)
    result = job.result
    names = [rack["name"] for rack in result["racks"]]
    first = {tuple(sorted((names[c["a"]], names[c["b"]]))) for c in result["slots"][0]["circuits"]}
    # Replay: slot 0 is chosen on window 0 (t0-t1, t2-t3, t4-t5), slot 1 on window 1.
    assert first == {("t0", "t1"), ("t2", "t3"), ("t4", "t5")}
    assert len(result["slots"]) == 2
    assert [row["algorithm"] for row in result["comparison"]] == ["exact", "greedy", "round_robin"]
    inputs = result["input"]
    ports, windows, options = engine_arguments(inputs)
    assert lightpath_engine.circuit_verify(ports, windows, result["slots"], **options) == []
    assert result["params"]["dark_time_s"] == ocs.dark_time_s and inputs["capacity_bytes_per_s"] == 1.25e9
    listed = client_for("viewer").get("/api/circuit-schedules/").json()["results"][0]
    assert listed["demand"] == {"id": demand, "name": "hot pairs", "deleted": False}
    assert listed["circuit_switches"] == [{"id": ocs.pk, "name": "ocs-1", "deleted": False}]
    assert listed["summary"]["slots"] == 2 and listed["summary"]["optical_ratio"] == result["metrics"]["optical_ratio"]
    assert "result" not in listed
    detail = client_for("technician").get(f"/api/circuit-schedules/{job.pk}/").json()
    assert detail["result"]["slots"] == result["slots"] and detail["summary"] == listed["summary"]
    assert detail["algorithm"] == "exact" and detail["mode"] == "replay"


def test_each_algorithm_reports_a_bounded_histogram_of_visit_delays(client_for, racks, ocs):
    planner = client_for("planner")
    demand = upload(planner, racks).json()["id"]
    job = run_schedule(planner, demand, ocs, compare=["round_robin"], min_demand_bytes=0, period_s=1.0)
    result = job.result
    # Replay scores windows 1 and 2: t0-t1, t2-t3, t4-t5, then t0-t2, t1-t3 (t4-t5 again): 5 pairs.
    for row in result["comparison"]:
        histogram = row["visit_delay_histogram"]
        assert sum(b["pairs"] for b in histogram) == 5
        assert [(b["min_slots"], b["max_slots"]) for b in histogram][:3] == [(0, 0), (1, 1), (2, 3)][: len(histogram)]
        assert all(b["min_s"] == b["min_slots"] * 1.0 and b["max_s"] == b["max_slots"] * 1.0 for b in histogram)
        last = histogram[-1]
        assert last["pairs"] > 0 and last["min_slots"] <= row["visit_delay_max_slots"] <= last["max_slots"]
    assert result["metrics"]["visit_delay_histogram"] == result["comparison"][0]["visit_delay_histogram"]
    # The exact plan serves the hot pairs at once: most pairs never wait.
    assert result["metrics"]["visit_delay_histogram"][0]["pairs"] >= 3
    table = client_for("viewer").get(f"/api/jobs/{job.pk}/result/?format=csv&table=metrics")
    assert table.status_code == 200 and table.content.decode().splitlines()[0].endswith("fallback_slots,runtime_s")


def test_a_rack_without_an_available_port_gets_no_circuit(client_for, racks, ocs):
    up0 = Link.objects.get(a_switch__name="t0", a_port="up0")
    attachment = ocs.attachments.get(tor__name="t0")
    attachment.links.add(up0)
    Link.objects.filter(pk=up0.pk).update(admin_state="disabled")
    planner = client_for("planner")
    demand = upload(planner, racks).json()["id"]
    result = run_schedule(planner, demand, ocs, min_demand_bytes=0).result
    t0 = next(rack for rack in result["racks"] if rack["name"] == "t0")
    assert t0["available_ports"] == 0 and t0["unavailable"] == [{"link": up0.pk, "reason": "disabled"}]
    assert all(t0["index"] not in (c["a"], c["b"]) for slot in result["slots"] for c in slot["circuits"])


def test_same_input_and_seed_give_the_same_schedule(client_for, racks, ocs):
    planner = client_for("planner")
    demand = upload(planner, racks).json()["id"]
    first = run_schedule(planner, demand, ocs, algorithm="random", seed=7, min_demand_bytes=0).result
    second = run_schedule(planner, demand, ocs, algorithm="random", seed=7, min_demand_bytes=0).result
    assert first["slots"] == second["slots"]


def test_a_longer_period_merges_windows_and_drain_serves_them(client_for, racks, ocs):
    planner = client_for("planner")
    demand = upload(planner, racks).json()["id"]
    result = run_schedule(planner, demand, ocs, period_s=3.0, mode="drain", min_demand_bytes=0).result
    assert len(result["input"]["windows"]) == 1
    assert result["metrics"]["total_bytes"] == 5_080_000_000


def test_schedule_requests_list_every_problem(client_for, racks, ocs):
    planner = client_for("planner")
    demand = upload(planner, racks).json()["id"]
    response = planner.post(
        "/api/circuit-schedules/",
        {
            "demand": demand,
            "circuit_switch": ocs.pk,
            "params": {
                "algorithm": "blossom",
                "period_s": 1,
                "dark_time_s": 1.5,
                "compare": ["greedy", "greedy"],
                "surprise": 1,
                "edge_groups": [{"name": "g", "pairs": [["t0", "t9"]], "bonus_bytes": -1}],
            },
        },
        format="json",
    )
    assert response.status_code == 400
    fields = [error["field"] for error in response.json()["errors"]]
    assert fields == [
        "params.surprise",
        "params.algorithm",
        "params.dark_time_s",
        "params.compare[1]",
        "params.edge_groups[0].bonus_bytes",
        "params.edge_groups[0].pairs[0]",
    ]
    neither = planner.post("/api/circuit-schedules/", {"demand": 999999}, format="json").json()["errors"]
    assert {error["field"] for error in neither} == {"demand", "circuit_switch"}


@pytest.mark.parametrize(
    ("role", "status"),
    [("planner", 202), ("operator", 202), ("admin", 202), ("viewer", 403), ("technician", 403), ("collector", 403)],
)
def test_who_may_start_a_schedule(client_for, racks, ocs, role, status):
    demand = upload(client_for("planner"), racks).json()["id"]
    body = {"demand": demand, "zone": "z"}
    assert client_for(role).post("/api/circuit-schedules/", body, format="json").status_code == status
    assert client_for(role).get("/api/circuit-schedules/").status_code == 200


def test_results_download_as_slots_and_metrics_csv(client_for, racks, ocs):
    planner = client_for("planner")
    demand = upload(planner, racks).json()["id"]
    group = {"name": "pairs", "pairs": [["t0", "t1"], ["t2", "t3"]], "bonus_bytes": 1000}
    job = run_schedule(planner, demand, ocs, compare=["greedy"], min_demand_bytes=0, edge_groups=[group])
    assert job.result["edge_groups"][0]["completed_slots"] == 2
    assert job.result["edge_groups"][0]["bonus_earned_bytes"] == 2000
    viewer = client_for("viewer")
    slots = viewer.get(f"/api/jobs/{job.pk}/result/?format=csv&table=slots").content.decode()
    rows = list(csv.reader(io.StringIO(slots)))
    assert rows[0] == ["slot", "t0_s", "src", "dst", "count"]
    assert {(row[0], row[2], row[3]) for row in rows[1:]} >= {("0", "t0", "t1"), ("0", "t2", "t3")}
    metrics = list(
        csv.reader(io.StringIO(viewer.get(f"/api/jobs/{job.pk}/result/?format=csv&table=metrics").content.decode()))
    )
    assert [row[0] for row in metrics] == ["algorithm", "exact", "greedy"]


class RecordingContext(JobContext):
    """The real job context, remembering each report; asks to cancel the job after `cancel_after`."""

    def __init__(self, job, cancel_after: int | None = None):
        super().__init__(job)
        self.reports: list[tuple[float, str]] = []
        self.cancel_after = cancel_after

    def progress(self, fraction: float, message: str = "") -> None:
        self.reports.append((fraction, message))
        if self.cancel_after is not None and len(self.reports) > self.cancel_after:
            Job.objects.filter(pk=self.job.pk).update(cancel_requested=True)
        super().progress(fraction, message)


def long_demand(windows: int) -> str:
    lines = ["src,dst,bytes,window_start"]
    for t in range(windows):
        lines += [f"t{t % 3},t{3 + t % 3},{(t % 7 + 2) * 100_000_000},{t}", f"t1,t2,{300_000_000},{t}"]
    return "\n".join(lines) + "\n"


def test_progress_is_reported_per_slot_batch_and_a_cancel_stops_the_plan(client_for, racks, ocs):
    planner = client_for("planner")
    demand = upload(planner, racks, text=long_demand(401)).json()["id"]
    body = {"demand": demand, "circuit_switch": ocs.pk, "params": {"compare": ["greedy"]}}
    job = Job.objects.get(pk=planner.post("/api/circuit-schedules/", body, format="json").json()["id"])
    context = RecordingContext(job)
    schedule_kind.run_schedule(job, context)
    slot_reports = [(f, m) for f, m in context.reports if ": slot " in m]
    assert slot_reports[0] == (0.5 * 4 / 400, "exact: slot 4 of 400 (run 1 of 2)")
    assert len(slot_reports) == 200 and slot_reports[-1][1] == "greedy: slot 400 of 400 (run 2 of 2)"
    fractions = [f for f, _ in context.reports]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0


@pytest.mark.django_db(transaction=True, databases=DBS)
def test_a_cancel_request_stops_the_plan_at_its_next_slot_batch(client_for, racks, ocs):
    """Committed rows, so the progress connection sees the job (as a worker's does)."""
    planner = client_for("planner")
    demand = upload(planner, racks, text=long_demand(401)).json()["id"]
    body = {"demand": demand, "circuit_switch": ocs.pk, "params": {"compare": ["greedy"]}}
    job = Job.objects.get(pk=planner.post("/api/circuit-schedules/", body, format="json").json()["id"])
    stopping = RecordingContext(job, cancel_after=10)
    with pytest.raises(JobCancelled):
        schedule_kind.run_schedule(job, stopping)
    # Reports: loading, planning, slots 4, 8, ..., 32; the cancel arrives before slot 36's report.
    assert stopping.reports[-1][1] == "exact: slot 36 of 400 (run 1 of 2)"
    assert Job.objects.get(pk=job.pk).progress < 0.05


def test_a_zone_plans_each_circuit_switch_apart_and_lists_filter_by_demand(client_for, racks):
    from ..services import replace_attachments

    west = CircuitSwitch.objects.create(fabric=racks, name="west", zone="z2", port_count=3)
    east = CircuitSwitch.objects.create(fabric=racks, name="east", zone="z2", port_count=3)
    replace_attachments(west, [{"tor": tor(racks, name)} for name in ("t0", "t2", "t4")])
    replace_attachments(east, [{"tor": tor(racks, name)} for name in ("t1", "t3", "t5")])
    planner = client_for("planner")
    demand = upload(planner, racks).json()["id"]
    other = upload(planner, racks, name="other").json()["id"]
    response = planner.post(
        "/api/circuit-schedules/",
        {"demand": demand, "zone": "z2", "params": {"min_demand_bytes": 0, "mode": "drain", "max_slots": 10}},
        format="json",
    )
    assert response.status_code == 202, response.json()
    assert jobs.run(response.json()["id"]) == "succeeded"
    result = Job.objects.get(pk=response.json()["id"]).result
    switch_of = {rack["index"]: rack["circuit_switch"] for rack in result["racks"]}
    circuits = [c for slot in result["slots"] for c in slot["circuits"]]
    assert all(switch_of[c["a"]] == switch_of[c["b"]] for c in circuits)
    # Only window 2's hot pairs t0-t2 (west) and t1-t3 (east) lie inside one switch; the rest never can.
    names = [rack["name"] for rack in result["racks"]]
    chosen = {frozenset((names[c["a"]], names[c["b"]])) for c in circuits}
    assert chosen == {frozenset(("t0", "t2")), frozenset(("t1", "t3"))}
    assert [s["name"] for s in result["circuit_switches"]] == ["east", "west"]
    listed = client_for("viewer").get(f"/api/circuit-schedules/?demand={demand}").json()["results"]
    assert [row["zone"] for row in listed] == ["z2"]
    assert client_for("viewer").get(f"/api/circuit-schedules/?demand={other}").json()["count"] == 0


def test_list_filters(client_for, racks, ocs):
    planner = client_for("planner")
    upload(planner, racks)
    viewer = client_for("viewer")
    checks = {
        f"/api/circuit-switches/?name__ic=OCS&port_count__gte=8&fabric={racks.pk}": 1,
        "/api/circuit-switches/?zone=elsewhere": 0,
        "/api/demands/?name__ic=hot&window_count__gte=3": 1,
        "/api/demands/?window_count__gt=3": 0,
        f"/api/circuit-schedules/?state=queued&fabric={racks.pk}": 0,
    }
    for url, count in checks.items():
        response = viewer.get(url)
        assert response.status_code == 200, (url, response.content[:300])
        assert response.json()["count"] == count, url
    assert viewer.get("/api/circuit-schedules/?demand=x").status_code == 400


def test_edge_groups_steer_the_exact_plan(client_for, racks, ocs):
    """The reference's Lemma 1 counter-example: t0-t2 and t1-t3 weigh most, but t0-t1 and t2-t3
    each earn a bonus when scheduled, and together they beat the plain optimum."""
    planner = client_for("planner")
    rows = "".join(f"t0,t2,10000000,{t}\nt1,t3,10000000,{t}\nt0,t1,2000000,{t}\nt2,t3,2000000,{t}\n" for t in (0, 1))
    demand = upload(planner, racks, text="src,dst,bytes,window_start\n" + rows).json()["id"]
    groups = [
        {"name": "a", "pairs": [["t0", "t1"]], "bonus_bytes": 10_000_000},
        {"name": "b", "pairs": [["t3", "t2"]], "bonus_bytes": 10_000_000},
    ]
    plain = run_schedule(planner, demand, ocs).result
    grouped = run_schedule(planner, demand, ocs, edge_groups=groups, compare=["greedy"]).result

    def first_slot(result):
        names = [rack["name"] for rack in result["racks"]]
        return {frozenset((names[c["a"]], names[c["b"]])) for c in result["slots"][0]["circuits"]}

    assert first_slot(plain) == {frozenset(("t0", "t2")), frozenset(("t1", "t3"))}
    assert first_slot(grouped) == {frozenset(("t0", "t1")), frozenset(("t2", "t3"))}
    assert grouped["slots"][0]["exact"] is False
    assert [(g["name"], g["completed_slots"]) for g in grouped["edge_groups"]] == [("a", 1), ("b", 1)]
    ports, windows, options = engine_arguments(grouped["input"])
    assert lightpath_engine.circuit_verify(ports, windows, grouped["slots"], **options) == []


def test_demand_and_schedule_lists_cost_the_same_queries_for_more_rows(client_for, racks, ocs):
    planner = client_for("planner")
    viewer = client_for("viewer")

    def queries(url: str) -> int:
        with CaptureQueriesContext(connection) as captured:
            assert viewer.get(url).status_code == 200
        return len(captured)

    def add(i: int) -> None:
        demand = upload(planner, racks, name=f"d{i}").json()["id"]
        body = {"demand": demand, "circuit_switch": ocs.pk}
        assert planner.post("/api/circuit-schedules/", body, format="json").status_code == 202

    add(0)
    viewer.get("/api/demands/")  # warm up the role cache
    few = (queries("/api/demands/"), queries("/api/circuit-schedules/"))
    for i in range(1, 4):
        add(i)
    assert (queries("/api/demands/"), queries("/api/circuit-schedules/")) == few
