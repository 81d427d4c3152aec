"""The CLI against the real backend: pytest-django's live_server, a real database, real tokens.

Run from the repository root (the root pyproject.toml sets DJANGO_SETTINGS_MODULE and puts backend/
on the path) with the local PostgreSQL and Redis up, e.g. `make test-python`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from cli_testing import FIXTURE_DATA, Cli, import_file, logged_in_as

from lightpath_fixtures import read_document, tor_capacity

if not os.environ.get("DJANGO_SETTINGS_MODULE"):
    pytest.skip("needs the backend's Django settings: run pytest from the repository root", allow_module_level=True)

# live_server serves from another thread, so the data must be committed: transactional tests.
# "__all__" because the backend also reads through a second ("progress") database alias.
pytestmark = pytest.mark.django_db(transaction=True, databases="__all__")

LINK_FIELDS = ("length_m", "speed_gbps", "fiber", "transceiver_model", "admin_state", "oper_state")
SWITCH_DEFAULTS = {"pod": None, "plane": None, "rack": "", "vendor": "", "model": "", "capacity_constraint": None}


def test_import_list_show(planner: Cli) -> None:
    created = import_file(planner, FIXTURE_DATA / "fat-tree-k4.json")
    assert (created["name"], created["switch_count"], created["link_count"]) == ("fat-tree-k4", 20, 32)
    assert created["tiers"] == ["tor", "aggregation", "core"]

    listed = planner.json("fabric", "list")
    assert [row["name"] for row in listed] == ["fat-tree-k4"]
    assert planner.json("fabric", "show", "fat-tree-k4")["id"] == created["id"]
    assert planner.json("fabric", "show", str(created["id"]))["name"] == "fat-tree-k4"

    table = planner("fabric", "list")
    assert table.exit_code == 0 and "fat-tree-k4" in table.stdout


def test_export_round_trips_the_imported_document(planner: Cli, tmp_path: Path) -> None:
    original = read_document(FIXTURE_DATA / "fat-tree-k4.json")
    checked = planner.json("fabric", "validate", str(FIXTURE_DATA / "fat-tree-k4.json"))
    import_file(planner, FIXTURE_DATA / "fat-tree-k4.json")
    target = tmp_path / "export.json"
    result = planner("fabric", "export", "fat-tree-k4", "-o", str(target))
    assert result.exit_code == 0, result.stderr
    exported = read_document(target)

    for key in ("name", "description", "tiers", "capacity_constraint"):
        assert exported[key] == original[key], key
    assert exported["format"] == "lightpath-fabric/1"

    def switches(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
        return {s["name"]: {**SWITCH_DEFAULTS, **s} for s in doc["switches"]}

    assert switches(exported) == switches(original)

    def links(doc: dict[str, Any]) -> dict[tuple[str, str, str, str], tuple[Any, ...]]:
        return {
            (link["a"], link["a_port"], link["b"], link["b_port"]): tuple(link.get(field) for field in LINK_FIELDS)
            for link in doc["links"]
        }

    assert links(exported) == links(original)

    # The export carries the models its links use, with the document's values, except where the
    # shared catalog already had the model otherwise: the catalog's entry is kept, as validate said
    # beforehand (the seeded 100G-SR4 is priced 99; the document leaves its price empty).
    kept = {model["name"]: model["differences"] for model in checked["transceiver_models_kept"]}
    assert kept["100G-SR4"]["price_usd"] == {"document": None, "catalog": 99.0}
    originals = {model["name"]: model for model in original["transceiver_models"]}
    assert exported["transceiver_models"]
    for model in exported["transceiver_models"]:
        expected = {
            **originals[model["name"]],
            **{key: values["catalog"] for key, values in kept.get(model["name"], {}).items()},
        }
        assert {key: model[key] for key in originals[model["name"]]} == expected

    as_csv = planner("fabric", "export", "fat-tree-k4", "--format", "csv")
    assert as_csv.exit_code == 0, as_csv.stderr
    lines = as_csv.stdout.splitlines()
    assert lines[0] == "a,a_port,b,b_port,length_m,speed_gbps,fiber,transceiver_model"
    assert len(lines) == 1 + 32


def test_capacity_of_a_healthy_fat_tree(planner: Cli) -> None:
    import_file(planner, FIXTURE_DATA / "fat-tree-k4.json")
    report = planner.json("fabric", "capacity", "fat-tree-k4")
    assert report["summary"] == {"tors": 8, "below_constraint": 0, "min_fraction": 1.0}
    # k=4: each ToR has 2 aggregation uplinks, each aggregation switch 2 cores.
    assert {(tor["available_paths"], tor["total_paths"]) for tor in report["tors"]} == {(4, 4)}

    table = planner("fabric", "capacity", "fat-tree-k4")
    assert table.exit_code == 0 and "p0-tor0" in table.stdout and "BELOW" not in table.stdout


def test_capacity_of_the_demo_fabric_matches_the_fixture_reference(planner: Cli) -> None:
    document = read_document(FIXTURE_DATA / "demo-fb.json")
    import_file(planner, FIXTURE_DATA / "demo-fb.json", "--name", "demo-fb-cli-test")
    report = planner.json("fabric", "capacity", "demo-fb-cli-test")
    expected = {row["name"]: row for row in tor_capacity(document)}
    assert report["summary"]["tors"] == len(expected) == 32
    assert report["summary"]["below_constraint"] == 1
    for tor in report["tors"]:
        reference = expected[tor["name"]]
        assert (tor["available_paths"], tor["total_paths"]) == (reference["available_paths"], reference["total_paths"])
        assert tor["constraint"] == reference["constraint"]
        assert tor["below_constraint"] == reference["below_constraint"]

    below = planner("fabric", "capacity", "demo-fb-cli-test", "--below-only")
    assert next(line for line in below.stdout.splitlines() if "BELOW" in line).split()[0] == "p1-tor3"


def test_validate_accepts_a_good_document(planner: Cli) -> None:
    result = planner("fabric", "validate", str(FIXTURE_DATA / "fat-tree-k4.json"))
    assert result.exit_code == 0
    assert "valid (20 switches, 32 links)" in result.stdout
    # A model the catalog already has is kept as the catalog has it, and validate says where they differ.
    assert "note: transceiver model 100G-SR4 is in the catalog; its entry is kept: price_usd None (catalog 99.0)" in (
        result.stdout
    )


def test_validate_lists_every_problem_of_the_bad_document(planner: Cli) -> None:
    result = planner("fabric", "validate", str(FIXTURE_DATA / "bad-fabric.json"))
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert lines[0].startswith("error: ") and "3 problems" in lines[0]
    assert [line.strip().split(":")[0] for line in lines[1:]] == ["links[6].b", "links[7].b", "links[8].a_port"]

    as_json = planner("--output", "json", "fabric", "validate", str(FIXTURE_DATA / "bad-fabric.json"))
    assert as_json.exit_code == 1
    report = json.loads(as_json.stdout)
    assert report["valid"] is False and [e["index"] for e in report["errors"]] == [6, 7, 8]


def test_viewer_can_read(planner: Cli, live_server: Any, make_role_user: Callable[..., Any], tmp_path: Path) -> None:
    import_file(planner, FIXTURE_DATA / "leaf-spine-4x2.json")
    make_role_user("cli-reader", "viewer")
    reader = Cli(config_file=tmp_path / "reader.toml", env={"LIGHTPATH_CONFIG": str(tmp_path / "reader.toml")})
    logged_in_as(reader, live_server.url, "cli-reader")
    assert [row["name"] for row in reader.json("fabric", "list")] == ["leaf-spine-4x2"]
    assert reader.json("fabric", "capacity", "leaf-spine-4x2")["summary"]["tors"] == 4


@pytest.mark.integration
def test_background_import_follows_the_job(planner: Cli, worker: Any) -> None:
    result = planner(
        "--output", "json", "fabric", "import", str(FIXTURE_DATA / "demo-fb.json"), "--background", "--interval", "0.2"
    )
    assert result.exit_code == 0, result.stderr
    fabric = json.loads(result.stdout)
    assert (fabric["name"], fabric["link_count"]) == ("demo-fb", 192)
    assert "succeeded 100%" in result.stderr

    jobs = planner.json("jobs", "list", "--kind", "fabric.import", "--fabric", "demo-fb")
    assert [job["state"] for job in jobs] == ["succeeded"]
    watched = planner("jobs", "watch", str(jobs[0]["id"]), "--output", "json")
    assert watched.exit_code == 0 and json.loads(watched.stdout)["fabric"] == fabric["id"]
