"""fabric list|show|import|capacity|export against the real backend: output shapes, lookups, errors.

Every test runs the CLI against pytest-django's live_server on the test database (see
test_cli_live_server.py for how, and why the tests are transactional).
"""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path
from typing import Any

import httpx
import pytest
from cli_testing import FABRIC_KEYS, FIXTURE_DATA, Cli, cells, import_file

if not os.environ.get("DJANGO_SETTINGS_MODULE"):
    pytest.skip("needs the backend's Django settings: run pytest from the repository root", allow_module_level=True)

pytestmark = pytest.mark.django_db(transaction=True, databases="__all__")

TOR_KEYS = [
    "switch",
    "name",
    "pod",
    "available_paths",
    "total_paths",
    "fraction",
    "constraint",
    "below_constraint",
]
# The API's max_limit (rows per page): a list longer than this needs more than one request.
SERVER_MAX_PAGE = 1000


@pytest.fixture
def two_fabrics(planner: Cli) -> Cli:
    import_file(planner, FIXTURE_DATA / "fat-tree-k4.json")
    import_file(planner, FIXTURE_DATA / "leaf-spine-4x2.json")
    return planner


@pytest.fixture
def demo_fb(planner: Cli) -> dict[str, Any]:
    """demo-fb imported: 32 ToRs, one of them (p1-tor3) below its constraint."""
    return import_file(planner, FIXTURE_DATA / "demo-fb.json")


def test_fabric_list_json_is_the_documented_shape(two_fabrics: Cli) -> None:
    rows = two_fabrics.json("fabric", "list")
    # The server also sends `url`: the documented shape leaves it out.
    assert [list(row) for row in rows] == [FABRIC_KEYS, FABRIC_KEYS]
    assert [row["name"] for row in rows] == ["fat-tree-k4", "leaf-spine-4x2"]
    assert rows[0]["tiers"] == ["tor", "aggregation", "core"]
    assert (rows[0]["switch_count"], rows[0]["link_count"], rows[0]["capacity_constraint"]) == (20, 32, 0.75)


def test_fabric_list_table_and_csv(two_fabrics: Cli) -> None:
    table = two_fabrics("fabric", "list")
    assert table.exit_code == 0, table.stderr
    line = next(line for line in table.stdout.splitlines() if "fat-tree-k4" in line)
    assert "tor / aggregation / core" in line and "0.750" in line and "20" in line and "32" in line

    as_csv = two_fabrics("fabric", "list", "--output", "csv")
    rows = list(csv.DictReader(io.StringIO(as_csv.stdout)))
    assert list(rows[0]) == FABRIC_KEYS
    assert rows[0]["tiers"] == "tor/aggregation/core" and rows[1]["name"] == "leaf-spine-4x2"
    assert rows[1]["tiers"] == "leaf/spine" and rows[1]["link_count"] == "8"


def test_output_env_and_command_option_precedence(two_fabrics: Cli) -> None:
    from_env = two_fabrics("fabric", "list", env={"LIGHTPATH_OUTPUT": "json"})
    assert json.loads(from_env.stdout)[0]["name"] == "fat-tree-k4"
    global_over_env = two_fabrics("--output", "json", "fabric", "list", env={"LIGHTPATH_OUTPUT": "csv"})
    assert json.loads(global_over_env.stdout)[1]["name"] == "leaf-spine-4x2"
    overridden = two_fabrics("--output", "json", "fabric", "list", "--output", "csv")
    assert overridden.stdout.startswith("id,name,")


def test_fabric_list_follows_pages(planner: Cli, planner_api: httpx.Client) -> None:
    from fabric.models import Fabric

    names = [f"f{i:04d}" for i in range(2 * SERVER_MAX_PAGE + 50)]
    Fabric.objects.bulk_create(Fabric(name=name, tiers=["leaf", "spine"], capacity_constraint=0.75) for name in names)
    # One request cannot return them all: the server caps a page.
    one_page = planner_api.get("/api/fabrics/", params={"limit": 10 * len(names)}).json()
    assert (one_page["count"], len(one_page["results"])) == (len(names), SERVER_MAX_PAGE)

    listed = planner.json("fabric", "list")
    assert [row["name"] for row in listed] == names


def test_fabric_show_by_name_and_by_id(planner: Cli) -> None:
    fat_tree = import_file(planner, FIXTURE_DATA / "fat-tree-k4.json")
    # All digits but not an id (ids are small in a test database): found by name.
    dated = import_file(planner, FIXTURE_DATA / "leaf-spine-4x2.json", "--name", "20240101")
    assert dated["id"] != 20240101

    assert planner.json("fabric", "show", "fat-tree-k4")["id"] == fat_tree["id"]
    assert planner.json("fabric", "show", str(fat_tree["id"]))["name"] == "fat-tree-k4"
    by_digits = planner.json("fabric", "show", "20240101")
    assert (by_digits["id"], list(by_digits)) == (dated["id"], FABRIC_KEYS)
    # An all-digits argument that is an id finds that fabric, even though it is a name too.
    assert planner.json("fabric", "show", str(dated["id"]))["name"] == "20240101"

    table = planner("fabric", "show", "fat-tree-k4")
    assert table.exit_code == 0, table.stderr
    lines = table.stdout.splitlines()
    assert cells(next(line for line in lines if line.startswith("Switches"))) == ["Switches", "20"]
    assert cells(next(line for line in lines if line.startswith("Links"))) == ["Links", "32"]


def test_unknown_fabric(two_fabrics: Cli) -> None:
    for ref in ("nope", "999999999"):
        result = two_fabrics("fabric", "show", ref)
        assert result.exit_code == 1
        assert result.stderr == f"error: fabric '{ref}' not found\n"
        assert result.stdout == ""


def test_import_prints_the_new_fabric(planner: Cli) -> None:
    from fabric.models import Fabric

    result = planner("fabric", "import", str(FIXTURE_DATA / "fat-tree-k4.json"))
    assert result.exit_code == 0, result.stderr
    stored = Fabric.objects.get(name="fat-tree-k4")
    assert result.stdout == f"Imported fabric fat-tree-k4 (id {stored.pk}): 20 switches, 32 links\n"
    assert (stored.switches.count(), stored.links.count()) == (20, 32)


def test_import_under_another_name_as_json(planner: Cli) -> None:
    shown = import_file(planner, FIXTURE_DATA / "leaf-spine-4x2.json", "--name", "copy")
    assert list(shown) == FABRIC_KEYS
    assert (shown["name"], shown["switch_count"], shown["link_count"]) == ("copy", 6, 8)
    assert [row["name"] for row in planner.json("fabric", "list")] == ["copy"]

    # "-" reads the document from stdin.
    from_stdin = planner(
        "--output", "json", "fabric", "import", "-", "--name", "from-stdin",
        input=(FIXTURE_DATA / "leaf-spine-4x2.json").read_text(),
    )  # fmt: skip
    assert from_stdin.exit_code == 0, from_stdin.stderr
    assert json.loads(from_stdin.stdout)["name"] == "from-stdin"


def test_rejected_import_lists_every_row_on_stderr(planner: Cli) -> None:
    import_file(planner, FIXTURE_DATA / "fat-tree-k4.json")
    path = str(FIXTURE_DATA / "bad-fabric.json")
    # Under a taken name: one more error, on the fabric itself.
    result = planner("fabric", "import", path, "--name", "fat-tree-k4")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"error: import of {path} rejected: 4 errors",
        "  fabric.name: a fabric named 'fat-tree-k4' already exists",
        "  links[6].b: links must join adjacent tiers; these ends are on tiers 0 and 2",
        "  links[7].b: unknown switch 'p0-fab9'",
        "  links[8].a_port: port p0-tor1:eth2/1 is already used by link 2",
    ]
    # Atomic: nothing else was created.
    assert [row["name"] for row in planner.json("fabric", "list")] == ["fat-tree-k4"]


def test_forbidden_import(viewer: Cli) -> None:
    result = viewer("fabric", "import", str(FIXTURE_DATA / "fat-tree-k4.json"))
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == "error: permission denied: Your role does not allow this action.\n"
    assert viewer.json("fabric", "list") == []


def test_capacity_table_flags_tors_below_their_constraint(planner: Cli, demo_fb: dict[str, Any]) -> None:
    result = planner("fabric", "capacity", "demo-fb")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    below = [line for line in lines if "BELOW" in line]
    assert [cells(line) for line in below] == [["p1-tor3", "1", "8/16", "0.500", "0.750", "BELOW"]]
    # p0-tor1 sits exactly on its constraint: not below it.
    assert cells(next(line for line in lines if "p0-tor1" in line)) == ["p0-tor1", "0", "12/16", "0.750", "0.750"]
    assert sum(1 for line in lines if "-tor" in line) == 32
    assert lines[-1] == "32 ToRs, 1 below their constraint, lowest fraction 0.500 (fabric constraint 0.750)"


def test_capacity_json_and_below_only(planner: Cli, demo_fb: dict[str, Any]) -> None:
    report = planner.json("fabric", "capacity", "demo-fb")
    assert list(report) == ["fabric", "capacity_constraint", "summary", "tors"]
    assert report["fabric"] == {"id": demo_fb["id"], "name": "demo-fb"}
    assert report["capacity_constraint"] == 0.75
    assert report["summary"] == {"tors": 32, "below_constraint": 1, "min_fraction": 0.5}
    # The server adds more per ToR (e.g. headroom_paths): the documented keys only.
    assert {tuple(tor) for tor in report["tors"]} == {tuple(TOR_KEYS)}
    p1_tor3 = next(tor for tor in report["tors"] if tor["name"] == "p1-tor3")
    assert (p1_tor3["available_paths"], p1_tor3["total_paths"], p1_tor3["fraction"]) == (8, 16, 0.5)
    assert (p1_tor3["constraint"], p1_tor3["below_constraint"], p1_tor3["pod"]) == (0.75, True, 1)

    only = planner.json("fabric", "capacity", str(demo_fb["id"]), "--below-only")
    assert [tor["name"] for tor in only["tors"]] == ["p1-tor3"]
    assert only["summary"] == report["summary"]  # the summary is still the whole fabric's

    as_csv = planner("fabric", "capacity", "demo-fb", "--below-only", "--output", "csv")
    assert as_csv.stdout.splitlines() == [",".join(TOR_KEYS), f"{p1_tor3['switch']},p1-tor3,1,8,16,0.5,0.75,true"]


def test_export_json_to_a_file_and_csv_to_stdout(
    planner: Cli, planner_api: httpx.Client, demo_fb: dict[str, Any], tmp_path: Path
) -> None:
    target = tmp_path / "out.json"
    result = planner("fabric", "export", "demo-fb", "-o", str(target))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    assert result.stderr == f"exported fabric demo-fb to {target}\n"
    exported = json.loads(target.read_text())
    assert exported == planner_api.get(f"/api/fabrics/{demo_fb['id']}/export/").json()
    assert (exported["format"], exported["name"]) == ("lightpath-fabric/1", "demo-fb")
    assert (len(exported["switches"]), len(exported["links"])) == (64, 192)

    as_csv = planner("fabric", "export", "demo-fb", "--format", "csv")
    assert as_csv.exit_code == 0, as_csv.stderr
    rows = list(csv.reader(io.StringIO(as_csv.stdout)))
    assert rows[0] == ["a", "a_port", "b", "b_port", "length_m", "speed_gbps", "fiber", "transceiver_model"]
    assert len(rows) == 1 + 192
    assert {(row[0], row[1]) for row in rows[1:]} == {(link["a"], link["a_port"]) for link in exported["links"]}
