"""`lightpath tickets plan --fabric-file FABRIC.json --work-orders ORDERS.json`: the maintenance planner
offline, the engine called in-process on the demo fabric's document (no server)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from cli_testing import FIXTURE_DATA, Cli

DEMO = FIXTURE_DATA / "demo-fb.json"
# p0-tor2 and p0-tor3 have 16 up-paths and need 12 (0.75): one up-link down is safe, two are not.
TOR2_A = "p0-tor2:eth2/1-p0-fab0:eth1/3"
TOR2_B = ["p0-tor2", "eth2/2", "p0-fab1", "eth1/3"]
TOR3 = "p0-tor3:eth2/1-p0-fab0:eth1/4"
# The answer names links as the server does, `a:a_port - b:b_port` (either shape is accepted in ORDERS.json).
TOR2_A_NAME = "p0-tor2:eth2/1 - p0-fab0:eth1/3"
TOR2_B_NAME = "p0-tor2:eth2/2 - p0-fab1:eth1/3"
TOR3_NAME = "p0-tor3:eth2/1 - p0-fab0:eth1/4"


def orders_file(tmp_path: Path, orders: list[dict[str, Any]], **extra: Any) -> Path:
    path = tmp_path / "orders.json"
    path.write_text(json.dumps({"work_orders": orders, **extra}))
    return path


def three_orders(tmp_path: Path) -> Path:
    return orders_file(
        tmp_path,
        [
            {"id": 2, "links": [TOR2_A], "duration_s": 7200, "success_probability": 0.8, "penalty_rate": 3.0},
            {"id": 5, "links": [TOR2_B], "duration_s": 900, "success_probability": 0.5, "penalty_rate": 1.0},
            {"id": 7, "links": [TOR3], "duration_s": 1800, "success_probability": 0.8, "penalty_rate": 2.0},
        ],
        travel={"same_rack_s": 0, "same_row_s": 120, "elsewhere_s": 600},
    )


def plan_json(cli: Cli, fabric: Path, orders: Path, *args: str) -> dict[str, Any]:
    result = cli(
        "tickets", "plan", "--fabric-file", str(fabric), "--work-orders", str(orders), *args, "--output", "json"
    )
    assert result.exit_code == 0, result.output
    answer: dict[str, Any] = json.loads(result.stdout)
    return answer


def error_line(cli: Cli, *args: str, exit_code: int = 1) -> str:
    result = cli("tickets", "plan", *args)
    assert result.exit_code == exit_code, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


def test_two_repairs_on_one_tor_are_never_done_at_once(cli: Cli, tmp_path: Path) -> None:
    plan = plan_json(cli, DEMO, three_orders(tmp_path), "--technicians", "2", "--shift-hours", "8")
    assert list(plan) == [
        "visits",
        "unscheduled",
        "left_for_later",
        "expected_penalty_hours",
        "fifo_penalty_hours",
        "lower_bound",
        "gap",
        "proven_optimal",
    ]
    # The short p0-tor2 repair first, the long one after it on the same technician; p0-tor3 alongside.
    assert plan["visits"] == [
        {"technician": 0, "work_order": 7, "start_s": 0, "end_s": 1800, "links_down": [TOR3_NAME], "restored": []},
        {"technician": 1, "work_order": 5, "start_s": 0, "end_s": 900, "links_down": [TOR2_B_NAME], "restored": []},
        {
            "technician": 1,
            "work_order": 2,
            "start_s": 900,
            "end_s": 8100,
            "links_down": [TOR2_A_NAME],
            "restored": [],
        },
    ]
    assert plan["unscheduled"] == [] and plan["left_for_later"] == []
    # Each order: rate x (hours until the visit ends + failure chance x 48 h of service).
    expected = 1.0 * (0.25 + 0.5 * 48) + 3.0 * (2.25 + 0.2 * 48) + 2.0 * (0.5 + 0.2 * 48)
    assert plan["expected_penalty_hours"] == pytest.approx(expected)
    assert plan["proven_optimal"] and plan["gap"] == 0.0
    assert plan["lower_bound"] == pytest.approx(expected)
    assert plan["fifo_penalty_hours"] > expected  # id order would start the 2-hour repair first


def test_one_technician_and_a_short_shift_leave_orders_for_later(cli: Cli, tmp_path: Path) -> None:
    plan = plan_json(cli, DEMO, three_orders(tmp_path), "--technicians", "1", "--shift-hours", "1")
    # The 2-hour repair does not fit in the hour; travel between racks of row p0 is 2 minutes.
    assert [(v["work_order"], v["start_s"], v["end_s"]) for v in plan["visits"]] == [(7, 0, 1800), (5, 1920, 2820)]
    assert plan["unscheduled"] == [2]


def test_the_table_has_a_line_per_visit_with_times_from_the_shift_start(cli: Cli, tmp_path: Path) -> None:
    result = cli(
        "tickets",
        "plan",
        "--fabric",  # the hidden old spelling of --fabric-file
        str(DEMO),
        "--work-orders",
        str(three_orders(tmp_path)),
        "--technicians",
        "2",
        "--shift-hours",
        "8",
    )
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    visit_lines = [line for line in lines if TOR2_A_NAME in line or TOR3_NAME in line or TOR2_B_NAME in line]
    assert [line.split()[:4] for line in visit_lines] == [
        ["0", "│", "+0h00m", "│"],
        ["1", "│", "+0h00m", "│"],
        ["1", "│", "+0h15m", "│"],
    ]
    assert "+2h15m" in visit_lines[2]
    assert "expected penalty-hours 80 (first in first out" in result.stdout
    assert "proven optimal" in result.stdout


def test_an_unsafe_repair_is_done_with_its_restoration(cli: Cli, tmp_path: Path) -> None:
    doc = json.loads(DEMO.read_text())
    # p0-tor4 has one up-link disabled for corruption: 12 paths now, the 12 it needs.
    for link in doc["links"]:
        if link["a"] == "p0-tor4" and link["a_port"] == "eth2/4":
            link["admin_state"] = "disabled"
            disabled = f"{link['a']}:{link['a_port']}-{link['b']}:{link['b_port']}"
    fabric = tmp_path / "fabric.json"
    fabric.write_text(json.dumps(doc))
    repair = {
        "id": 1,
        "links": ["p0-tor4:eth2/1-p0-fab0:eth1/5"],
        "duration_s": 3600,
        "success_probability": 0.8,
        "penalty_rate": 4.0,
    }
    alone = plan_json(cli, fabric, orders_file(tmp_path, [repair]), "--shift-hours", "8")
    assert alone["visits"] == [] and alone["unscheduled"] == [1]
    with_restoration = {**repair, "restoration": {"links": [disabled], "penalty_rate": 0.5}}
    plan = plan_json(cli, fabric, orders_file(tmp_path, [with_restoration]), "--shift-hours", "8")
    assert plan["visits"] == [
        {
            "technician": 0,
            "work_order": 1,
            "start_s": 0,
            "end_s": 3600,
            "links_down": ["p0-tor4:eth2/1 - p0-fab0:eth1/5"],
            "restored": [disabled.replace("-p0-fab3", " - p0-fab3")],
        }
    ]
    assert plan["expected_penalty_hours"] == pytest.approx(4.0 * (1 + 0.2 * 48) + 0.5 * 1)


def test_every_problem_of_the_orders_file_is_on_one_line(cli: Cli, tmp_path: Path) -> None:
    orders = orders_file(
        tmp_path,
        [
            {"id": 1, "links": ["p0-tor2:eth9/9-p0-fab0:eth1/3"], "duration_s": 60, "penalty_rate": 1.0},
            {"id": -3, "links": [TOR3], "duration_s": "long", "success_probability": 0.8, "penalty_rate": 1.0},
        ],
        travel={"same_row_s": -1},
    )
    line = error_line(cli, "--fabric-file", str(DEMO), "--work-orders", str(orders))
    assert line == (
        f"error: {orders}: work_orders[0]: success_probability is missing; "
        "work_orders[0].links[0]: no link 'p0-tor2:eth9/9-p0-fab0:eth1/3' in "
        f"{DEMO}; work_orders[1].id: must be a non-negative integer; "
        "work_orders[1].duration_s: must be a non-negative integer; travel.same_row_s: must be a non-negative integer"
    )


def test_the_engines_refusal_names_the_order(cli: Cli, tmp_path: Path) -> None:
    twice = {"links": [TOR3], "duration_s": 60, "success_probability": 0.8, "penalty_rate": 1.0}
    orders = orders_file(tmp_path, [{"id": 4, **twice}, {"id": 4, **twice}])
    assert error_line(cli, "--fabric-file", str(DEMO), "--work-orders", str(orders)) == (
        "error: work order 4 is given twice"
    )


def test_offline_needs_both_files_and_not_a_server_fabric(cli: Cli, tmp_path: Path) -> None:
    assert "--work-orders ORDERS.json" in error_line(cli, "--fabric-file", str(DEMO), exit_code=2)
    line = error_line(cli, "demo-fb", "--fabric-file", str(DEMO), exit_code=2)
    assert "not both" in line
    line = error_line(
        cli, "--fabric-file", str(DEMO), "--work-orders", str(three_orders(tmp_path)), "--output", "csv", exit_code=2
    )
    assert "--output csv is not available here" in line


def readme_orders(tmp_path: Path) -> Path:
    """The ORDERS.json example of cli/README.md, as written there (so the two cannot drift)."""
    readme = (Path(__file__).parents[1] / "README.md").read_text()
    found = re.search(r"```json\n(.*?)```", readme[readme.index("### ORDERS.json") :], re.S)
    assert found is not None
    example = found[1]
    path = tmp_path / "ORDERS.json"
    path.write_text(example)
    return path


def test_the_readme_example_runs_on_the_demo_fabric(cli: Cli, tmp_path: Path) -> None:
    plan = plan_json(cli, DEMO, readme_orders(tmp_path))
    by_order = {visit["work_order"]: visit for visit in plan["visits"]}
    assert sorted(by_order) == [2, 3, 5] and plan["unscheduled"] == []
    # Order 2 is safe only with its restoration: p0-tor1 has 12 of 16 up-paths, the 12 it needs.
    assert by_order[2]["links_down"] == ["p0-tor1:eth2/1 - p0-fab0:eth1/2"]
    assert by_order[2]["restored"] == ["p0-tor1:eth2/3 - p0-fab2:eth1/2"]
    assert by_order[5]["links_down"] == ["p0-tor3:eth2/3 - p0-fab2:eth1/4"]  # link 14
    assert by_order[3]["links_down"] == ["p0-tor3:eth2/2 - p0-fab1:eth1/4"]
    # Orders 3 and 5 take p0-tor3 to 8 of its 12 together: never at once.
    three, five = by_order[3], by_order[5]
    assert three["end_s"] <= five["start_s"] or five["end_s"] <= three["start_s"]


def test_each_order_left_for_later_says_why(cli: Cli, tmp_path: Path) -> None:
    short = plan_json(cli, DEMO, three_orders(tmp_path), "--technicians", "1", "--shift-hours", "1")
    assert short["left_for_later"] == [
        {"work_order": 2, "reason": "longer_than_shift", "detail": "it takes 2 h, longer than the 1 h shift"}
    ]
    # Two p0-tor3 up-links in one footprint (its shape and the server's): 8 of 16 up-paths, under the 12 it needs, whatever the shift.
    unsafe = {
        "id": 9,
        "links": [TOR3, "p0-tor3:eth2/2 - p0-fab1:eth1/4"],
        "duration_s": 600,
        "success_probability": 0.8,
        "penalty_rate": 1.0,
    }
    never = plan_json(cli, DEMO, orders_file(tmp_path, [unsafe]), "--shift-hours", "200")
    assert [(left["work_order"], left["reason"]) for left in never["left_for_later"]] == [(9, "never_safe")]


def test_a_restoration_dearer_than_waiting_is_named_and_totals_are_plain_numbers(cli: Cli, tmp_path: Path) -> None:
    repair = {
        "id": 1,
        "links": ["p0-tor1:eth2/1 - p0-fab0:eth1/2"],  # p0-tor1 is at its 12 of 16: unsafe alone
        "duration_s": 3600,
        "success_probability": 0.8,
        "penalty_rate": 5.5,
        "restoration": {"links": ["p0-tor1:eth2/3-p0-fab2:eth1/2"], "penalty_rate": 5000.0},
    }
    orders = orders_file(tmp_path, [repair])
    plan = plan_json(cli, DEMO, orders, "--shift-hours", "200")
    assert plan["unscheduled"] == [1]
    assert plan["left_for_later"] == [
        {
            "work_order": 1,
            "reason": "restoration_dearer",
            "detail": "it is safe only with its restoration, which costs more than leaving it "
            "(5,058.3 against 1,364 penalty-hours)",
        }
    ]
    result = cli("tickets", "plan", "--fabric-file", str(DEMO), "--work-orders", str(orders), "--shift-hours", "200")
    assert result.exit_code == 0, result.output
    assert "expected penalty-hours 1,364 (first in first out 1,364; lower bound 1,364, proven optimal)" in result.stdout
    assert "e+" not in result.stdout
    assert "not this shift:\n  work order 1: it is safe only with its restoration" in result.stdout


def test_out_of_range_values_and_bad_restorations_are_all_on_one_line(cli: Cli, tmp_path: Path) -> None:
    orders = orders_file(
        tmp_path,
        [
            {
                "id": 1,
                "links": [3, 3],
                "duration_s": 0,
                "success_probability": 2,
                "penalty_rate": -1,
                "restoration": {"links": ["zz", TOR3]},
            },
            {"id": 2, "links": [999], "duration_s": 1.5, "success_probability": 0.5, "penalty_rate": 1},
        ],
        travel={"same_rack_s": -5},
    )
    line = error_line(cli, "--fabric-file", str(DEMO), "--work-orders", str(orders))
    assert line == (
        f"error: {orders}: work_orders[0].duration_s: must be at least 1 (seconds); "
        "work_orders[0].success_probability: must be between 0 and 1, not 2; "
        "work_orders[0].penalty_rate: must be at least 0, not -1; "
        "work_orders[0].links[1]: p0-tor0:eth2/4 - p0-fab3:eth1/1 is named twice; "
        f"work_orders[0].restoration.links[0]: no link 'zz' in {DEMO}; "
        "work_orders[0].restoration.links[0]: p0-tor3:eth2/1 - p0-fab0:eth1/4 is enabled, not disabled: "
        "a restoration enables links disabled now; "
        "work_orders[0].restoration.penalty_rate: must be a number, at least 0; "
        "work_orders[1].duration_s: must be a non-negative integer; "
        f"work_orders[1].links[0]: no link 999 in {DEMO}; "
        "travel.same_rack_s: must be a non-negative integer"
    )
    assert "Enabled" not in line


def test_the_orders_file_must_be_a_json_object_with_work_orders(cli: Cli, tmp_path: Path) -> None:
    spreadsheet = tmp_path / "orders.csv"
    spreadsheet.write_text("id,links\n1,p0-tor3:eth2/1-p0-fab0:eth1/4\n")
    line = error_line(cli, "--fabric-file", str(DEMO), "--work-orders", str(spreadsheet), exit_code=2)
    assert line == f"error: {spreadsheet}: the work orders file must be JSON (ORDERS.json, format in cli/README.md)"
    bare_list = tmp_path / "list.json"
    bare_list.write_text("[]")
    line = error_line(cli, "--fabric-file", str(DEMO), "--work-orders", str(bare_list))
    assert line == f'error: {bare_list}: expected an object with work_orders, {{"work_orders": [...]}}'
