"""`lightpath circuits plan FABRIC` and `circuits demands`: schedules as server jobs, against the real
backend and the session's real Celery worker (root conftest.py); the result verifies offline."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import httpx
import pytest
from cli_testing import FIXTURE_DATA, Cli, import_file

if not os.environ.get("DJANGO_SETTINGS_MODULE"):
    pytest.skip("needs the backend's Django settings: run pytest from the repository root", allow_module_level=True)

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True, databases="__all__")]

# Racks of fat-tree-k4: p0-tor0 and p1-tor0 talk, p2-tor0 and p3-tor0 too; the pairs swap in window 2.
DEMAND = """src,dst,bytes,window_start
p0-tor0,p1-tor0,900000000,0
p2-tor0,p3-tor0,800000000,0
p0-tor0,p1-tor0,900000000,1
p2-tor0,p3-tor0,800000000,1
p0-tor0,p2-tor0,900000000,2
p1-tor0,p3-tor0,800000000,2
"""


@pytest.fixture
def fabric_with_ocs(planner: Cli, planner_api: httpx.Client) -> dict[str, Any]:
    fabric = import_file(planner, FIXTURE_DATA / "fat-tree-k4.json")
    body = {"fabric": fabric["id"], "name": "ocs-1", "port_count": 8, "attach_all_tors": True}
    response = planner_api.post("/api/circuit-switches/", json=body)
    assert response.status_code == 201, response.text
    return fabric


def test_upload_then_plan_a_stored_demand_and_verify_the_result(
    planner: Cli, worker: Any, fabric_with_ocs: dict[str, Any], tmp_path: Path
) -> None:
    demand_file = tmp_path / "hot.csv"
    demand_file.write_text(DEMAND)
    uploaded = planner(
        "--output", "json", "circuits", "demands", "upload", "fat-tree-k4", str(demand_file), "--name", "hot"
    )
    assert uploaded.exit_code == 0, uploaded.stderr
    demand = json.loads(uploaded.stdout)
    assert (demand["name"], demand["window_count"], demand["row_count"]) == ("hot", 3, 6)
    listed = planner("circuits", "demands", "list", "fat-tree-k4")
    assert "hot" in listed.stdout
    groups = tmp_path / "groups.json"
    groups.write_text(json.dumps([{"name": "pair", "pairs": [["p0-tor0", "p1-tor0"]], "bonus_bytes": 1000}]))
    planned = planner(
        "--output", "json", "circuits", "plan", "fat-tree-k4", "--demand-id", str(demand["id"]),
        "--compare", "greedy", "--compare", "round-robin", "--edge-groups", str(groups),
    )  # fmt: skip
    assert planned.exit_code == 0, planned.stderr
    assert "schedule running as job" in planned.stderr
    result = json.loads(planned.stdout)
    names = [rack["name"] for rack in result["racks"]]
    first = {frozenset((names[c["a"]], names[c["b"]])) for c in result["slots"][0]["circuits"]}
    assert first == {frozenset(("p0-tor0", "p1-tor0")), frozenset(("p2-tor0", "p3-tor0"))}
    assert [row["algorithm"] for row in result["comparison"]] == ["exact", "greedy", "round_robin"]
    assert result["edge_groups"][0]["completed_slots"] == 2
    saved = tmp_path / "result.json"
    saved.write_text(planned.stdout)
    verified = planner("circuits", "verify", str(saved))
    assert verified.exit_code == 0, verified.stdout + verified.stderr
    assert "ok: 2 slots hold every invariant" in verified.stdout
    result["slots"][0]["circuits"].append({"a": 0, "b": 0, "count": 1})
    saved.write_text(json.dumps(result))
    assert planner("circuits", "verify", str(saved)).exit_code == 1


def test_plan_uploads_a_file_and_prints_racks_by_name(
    planner: Cli, worker: Any, fabric_with_ocs: dict[str, Any], tmp_path: Path
) -> None:
    demand_file = tmp_path / "hot.csv"
    demand_file.write_text(DEMAND)
    table = planner("circuits", "plan", "fat-tree-k4", "--demand", str(demand_file), "--min-demand", "0")
    assert table.exit_code == 0, table.stderr
    assert "uploaded hot.csv as demand" in table.stderr
    assert "p0-tor0-p1-tor0" in table.stdout and "optical ratio" in table.stdout


def test_bad_rows_and_bad_params_are_listed_before_any_job(
    planner: Cli, fabric_with_ocs: dict[str, Any], tmp_path: Path
) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("src,dst,bytes,window_start\np0-tor0,nowhere,5,0\np0-tor0,p0-tor0,-1,0\n")
    result = planner("circuits", "plan", "fat-tree-k4", "--demand", str(bad))
    assert result.exit_code == 1
    # One line naming every problem (#18: it was a count, then the problems below it).
    assert "bad.csv rejected: " in result.stderr and result.stderr.count("\n") == 1
    assert "line 2: dst 'nowhere' is not a ToR of fabric 'fat-tree-k4'" in result.stderr
    assert "line 3: bytes -1 is negative; src and dst are both rack p0-tor0" in result.stderr
    good = tmp_path / "good.csv"
    good.write_text(DEMAND)
    rejected = planner("circuits", "plan", "fat-tree-k4", "--demand", str(good), "--dark-time", "5")
    assert rejected.exit_code == 1 and "params.dark_time_s" in rejected.stderr
    mixed = planner("circuits", "plan", "fat-tree-k4", "--demand-id", "1", "--racks", "4")
    assert mixed.exit_code == 2 and "--racks are offline options" in mixed.stderr
