"""`lightpath rail plan FABRIC`, `rail plan --server --fat-tree K`, `rail classes FABRIC` and `rail fec --server`:
RAIL as server jobs, against the real backend and a real Celery worker (root conftest.py)."""

from __future__ import annotations

import csv
import importlib
import io
import json
import os
from typing import Any

import pytest
from cli_testing import FIXTURE_DATA, Cli, import_file

if not os.environ.get("DJANGO_SETTINGS_MODULE"):
    pytest.skip("needs the backend's Django settings: run pytest from the repository root", allow_module_level=True)

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True, databases="__all__")]


@pytest.fixture(autouse=True)
def standard_catalog() -> None:
    """The catalog migration's standard parts (a transactional test's flush removes them)."""
    from django.apps import apps

    importlib.import_module("migrations.fabric.0005_seed_rail_catalog").seed(apps, None)


def rail_jobs(kind: str) -> int:
    from jobs.models import Job

    return Job.objects.filter(kind=kind).count()


def test_a_stored_fabric_is_planned_on_the_server(planner: Cli, worker: Any) -> None:
    fabric = import_file(planner, FIXTURE_DATA / "fat-tree-k4.json")  # 100G, lengths 8-100+ m
    result = planner("--output", "json", "rail", "plan", fabric["name"], "--nrb", "0.95", "--links", "--name", "k4")
    assert result.exit_code == 0, result.stderr
    assert "rail.plan running as job" in result.stderr and fabric["name"] in result.stderr
    report = json.loads(result.stdout)
    assert report["inputs"]["fabric"]["name"] == fabric["name"] and report["inputs"]["name"] == "k4"
    assert len(report["links"]) == 32 and all(row["name"] for row in report["links"])
    assert report["plan"]["total_usd"] <= report["baseline"]["total_usd"]
    assert {line["item"] for line in report["baseline"]["lines"]} >= {"100G-SR4", "ports", "energy"}

    table = planner("rail", "plan", fabric["name"])
    assert table.exit_code == 0, table.stderr
    assert "savings" in table.stdout and "NRB 0.99" in table.stdout
    as_csv = planner("--output", "csv", "rail", "plan", fabric["name"], "--no-stretch")
    rows = list(csv.DictReader(io.StringIO(as_csv.stdout)))
    assert {row["design"] for row in rows} == {"baseline", "plan"} and rows[0]["category"] == "transceivers"


def test_the_seeds_table_4_1_on_the_server(planner: Cli, worker: Any) -> None:
    result = planner(
        "--output", "json", "rail", "plan", "--server", "--fat-tree", "32", "--max-length", "500", "--no-stretch"
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    quantities = {line["item"]: line["quantity"] for line in report["baseline"]["lines"]}
    assert (quantities["10GBASE-SR"], quantities["10GBASE-LR"], quantities["ports"]) == (19660, 13108, 32768)
    assert report["baseline"]["total_usd"] == pytest.approx(8_573_467.6)
    assert "links" not in report  # per-link rows only with --links


def test_classes_on_the_server_say_what_was_not_measured(planner: Cli, worker: Any) -> None:
    fabric = import_file(planner, FIXTURE_DATA / "fat-tree-k4.json")
    result = planner("--output", "json", "rail", "classes", fabric["name"], "--window-hours", "6")
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["fabric"] == fabric["name"] and report["inputs"]["window_hours"] == 6
    assert report["unmeasured"]["directions"] == 64  # no telemetry yet: every direction counts as clean
    assert [c["link_count"] for c in report["classes"]] == [32, 32, 32]
    table = planner("rail", "classes", fabric["name"])
    assert table.exit_code == 0, table.stderr
    assert "64 link directions (32 links) had no loss rate in the last 24 h" in table.stderr
    assert "32 of 32 links alive, 0 to repair" in table.stdout
    routing = planner("--output", "csv", "rail", "classes", fabric["name"])
    rows = list(csv.DictReader(io.StringIO(routing.stdout)))
    assert len(rows) == 3 * 32 and set(rows[0]) == {
        "class",
        "bound",
        "link",
        "a_switch",
        "a_port",
        "z_switch",
        "z_port",
    }


def test_bad_params_are_rejected_before_any_job(planner: Cli) -> None:
    fabric = import_file(planner, FIXTURE_DATA / "fat-tree-k4.json")
    result = planner("rail", "plan", fabric["name"], "--nrb", "1.5", "--years", "0")
    assert result.exit_code == 1
    # One line naming every problem (#18: it was a count, then the problems below it).
    assert f"error: rail.plan on {fabric['name']} rejected: " in result.stderr and result.stderr.count("\n") == 1
    assert "params.nrb: must be in (0, 1], got 1.5" in result.stderr
    bounds = planner("rail", "classes", fabric["name"], "--bounds", "0.1,0.01")
    assert bounds.exit_code == 1 and "params.bounds[1]: bounds must increase" in bounds.stderr
    assert rail_jobs("rail.plan") == rail_jobs("rail.classes") == 0


def test_options_of_the_other_mode_are_refused(planner: Cli) -> None:
    price = planner("rail", "plan", "somefabric", "--price", "100G-SR4=99")
    assert price.exit_code == 2 and "set prices in the catalog" in price.stderr
    name = planner("rail", "plan", "--fat-tree", "4", "--name", "x")
    assert name.exit_code == 2 and "applies only on the server" in name.stderr
    window = planner("rail", "classes", "--fabric", "f.json", "--loss-rates", "l.csv", "--window-hours", "2")
    assert window.exit_code == 2
    both = planner("rail", "plan", "somefabric", "--fat-tree", "4")
    assert both.exit_code == 2


def test_fec_on_the_server_matches_the_engine(viewer: Cli) -> None:
    server = viewer("--output", "json", "rail", "fec", "--loss", "0.003", "--target", "0.001", "--server")
    offline = viewer("--output", "json", "rail", "fec", "--loss", "0.003", "--target", "0.001")
    assert server.exit_code == offline.exit_code == 0, server.stderr
    assert json.loads(server.stdout) == json.loads(offline.stdout)
    assert json.loads(server.stdout)["n"] == 14
    bad = viewer("rail", "fec", "--loss", "2", "--server")
    assert bad.exit_code == 1 and "loss: must be in [0, 1], got 2" in bad.stderr
