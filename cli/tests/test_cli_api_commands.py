"""fabric and jobs commands against a scripted API: output shapes, errors, job watching (offline)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from cli_testing import FIXTURE_DATA, Cli, FakeApi

from lightpath_cli.commands import jobs as jobs_module

SERVER = "http://lightpath.test"
FABRIC_KEYS = [
    "id",
    "name",
    "description",
    "tiers",
    "capacity_constraint",
    "switch_count",
    "link_count",
    "created",
    "updated",
]


def fabric(id: int, name: str, **extra: Any) -> dict[str, Any]:
    return {
        "id": id,
        "url": f"{SERVER}/api/fabrics/{id}/",
        "name": name,
        "description": "",
        "tiers": ["tor", "fabric", "spine"],
        "capacity_constraint": 0.75,
        "switch_count": 64,
        "link_count": 192,
        "created": "2026-11-22T15:00:00Z",
        "updated": "2026-11-22T15:05:00Z",
        **extra,
    }


def page(results: list[dict[str, Any]]) -> dict[str, Any]:
    return {"count": len(results), "next": None, "previous": None, "results": results}


@pytest.fixture
def api(fake_api: FakeApi) -> FakeApi:
    fabrics = [fabric(1, "demo-fb", extra_field="ignored"), fabric(2, "2024")]

    def list_fabrics(request: httpx.Request) -> httpx.Response:
        name = request.url.params.get("name")
        rows = [f for f in fabrics if name is None or f["name"] == name]
        return httpx.Response(200, json=page(rows))

    fake_api.route("GET", "/api/fabrics/", list_fabrics)
    for item in fabrics:
        fake_api.route("GET", f"/api/fabrics/{item['id']}/", item)
    return fake_api


@pytest.fixture
def logged_in(cli: Cli) -> Cli:
    cli.env.update({"LIGHTPATH_SERVER": SERVER, "LIGHTPATH_TOKEN": "tok"})
    return cli


@pytest.fixture
def no_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jobs_module, "_sleep", lambda seconds: None)


def test_fabric_list_json_is_the_documented_shape(logged_in: Cli, api: FakeApi) -> None:
    rows = logged_in.json("fabric", "list")
    assert [list(row) for row in rows] == [FABRIC_KEYS, FABRIC_KEYS]
    assert rows[0]["name"] == "demo-fb" and rows[0]["tiers"] == ["tor", "fabric", "spine"]


def test_fabric_list_table_and_csv(logged_in: Cli, api: FakeApi) -> None:
    table = logged_in("fabric", "list")
    assert table.exit_code == 0
    assert "demo-fb" in table.stdout and "tor / fabric / spine" in table.stdout and "0.750" in table.stdout
    as_csv = logged_in("fabric", "list", "--output", "csv")
    rows = list(csv.DictReader(io.StringIO(as_csv.stdout)))
    assert list(rows[0]) == FABRIC_KEYS
    assert rows[0]["tiers"] == "tor/fabric/spine" and rows[1]["name"] == "2024"


def test_output_env_and_command_option_precedence(logged_in: Cli, api: FakeApi) -> None:
    from_env = logged_in("fabric", "list", env={"LIGHTPATH_OUTPUT": "json"})
    assert json.loads(from_env.stdout)[0]["id"] == 1
    overridden = logged_in("--output", "json", "fabric", "list", "--output", "csv")
    assert overridden.stdout.startswith("id,name,")


def test_fabric_list_follows_pages(logged_in: Cli, fake_api: FakeApi) -> None:
    every = [fabric(i, f"f{i}") for i in range(1, 2502)]

    def paged(request: httpx.Request) -> httpx.Response:
        limit, offset = int(request.url.params["limit"]), int(request.url.params["offset"])
        return httpx.Response(200, json={"count": len(every), "results": every[offset : offset + limit]})

    fake_api.route("GET", "/api/fabrics/", paged)
    assert len(logged_in.json("fabric", "list")) == 2501
    assert len(fake_api.requests) == 3


def test_fabric_show_by_name_and_by_id(logged_in: Cli, api: FakeApi) -> None:
    assert logged_in.json("fabric", "show", "demo-fb")["id"] == 1
    assert logged_in.json("fabric", "show", "1")["name"] == "demo-fb"
    # All digits but not an id: found by name.
    assert logged_in.json("fabric", "show", "2024")["id"] == 2
    table = logged_in("fabric", "show", "demo-fb")
    assert "Switches" in table.stdout and "192" in table.stdout


def test_unknown_fabric(logged_in: Cli, api: FakeApi) -> None:
    for ref in ("nope", "999"):
        result = logged_in("fabric", "show", ref)
        assert result.exit_code == 1
        assert result.stderr == f"error: fabric '{ref}' not found\n"


def test_import_prints_the_new_fabric(logged_in: Cli, api: FakeApi) -> None:
    created = fabric(3, "fat-tree-k4", switch_count=20, link_count=32)
    api.route("POST", "/api/fabrics/import/", created, status=201)
    result = logged_in("fabric", "import", str(FIXTURE_DATA / "fat-tree-k4.json"))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "Imported fabric fat-tree-k4 (id 3): 20 switches, 32 links\n"
    sent = json.loads(api.sent("POST", "/api/fabrics/import/")[0].content)
    assert sent == json.loads((FIXTURE_DATA / "fat-tree-k4.json").read_text())


def test_import_under_another_name_as_json(logged_in: Cli, api: FakeApi) -> None:
    api.route(
        "POST", "/api/fabrics/import/", lambda r: httpx.Response(201, json=fabric(4, json.loads(r.content)["name"]))
    )
    shown = logged_in.json("fabric", "import", str(FIXTURE_DATA / "leaf-spine-4x2.json"), "--name", "copy")
    assert shown["name"] == "copy" and list(shown) == FABRIC_KEYS


def test_rejected_import_lists_every_row_on_stderr(logged_in: Cli, api: FakeApi) -> None:
    errors = [
        {"section": "links", "index": 6, "field": "b", "message": "tiers 0 and 2 are not adjacent"},
        {"section": "links", "index": 7, "field": "b", "message": "unknown switch 'p0-fab9'"},
        {"section": "links", "index": 8, "field": "a_port", "message": "port p0-tor1:eth2/1 already used"},
        {"section": "fabric", "index": None, "field": "name", "message": "required"},
    ]
    api.route("POST", "/api/fabrics/import/", {"errors": errors}, status=400)
    path = str(FIXTURE_DATA / "bad-fabric.json")
    result = logged_in("fabric", "import", path)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"error: import of {path} rejected: 4 errors",
        "  links[6].b: tiers 0 and 2 are not adjacent",
        "  links[7].b: unknown switch 'p0-fab9'",
        "  links[8].a_port: port p0-tor1:eth2/1 already used",
        "  fabric.name: required",
    ]


def test_rejected_import_with_drf_style_errors(logged_in: Cli, api: FakeApi) -> None:
    api.route("POST", "/api/fabrics/import/", {"name": ["fabric with this name already exists."]}, status=400)
    result = logged_in("fabric", "import", str(FIXTURE_DATA / "fat-tree-k4.json"))
    assert result.exit_code == 1
    assert "  name: fabric with this name already exists." in result.stderr.splitlines()


def test_forbidden_import(logged_in: Cli, api: FakeApi) -> None:
    api.route(
        "POST", "/api/fabrics/import/", {"detail": "You do not have permission to perform this action."}, status=403
    )
    result = logged_in("fabric", "import", str(FIXTURE_DATA / "fat-tree-k4.json"))
    assert result.exit_code == 1
    assert result.stderr == "error: permission denied: You do not have permission to perform this action.\n"


def job(id: int, state: str, progress: float, **extra: Any) -> dict[str, Any]:
    return {
        "id": id,
        "url": f"{SERVER}/api/jobs/{id}/",
        "kind": "fabric.import",
        "state": state,
        "progress": progress,
        "message": extra.pop("message", ""),
        "result": extra.pop("result", None),
        "error": extra.pop("error", ""),
        "fabric": extra.pop("fabric", None),
        "created_by": "planner",
        "created": "2026-11-22T15:00:00Z",
        "started": None,
        "finished": None,
    }


def script_job(api: FakeApi, job_id: int, states: list[dict[str, Any]]) -> None:
    """Answer successive GET /api/jobs/ID/ with the given job states (the last one repeats)."""
    remaining = list(states)

    def next_state(request: httpx.Request) -> httpx.Response:
        current = remaining.pop(0) if len(remaining) > 1 else remaining[0]
        return httpx.Response(200, json=current)

    api.route("GET", f"/api/jobs/{job_id}/", next_state)


def test_background_import_watches_the_job(logged_in: Cli, api: FakeApi, no_wait: None) -> None:
    api.route("POST", "/api/fabrics/import/", job(7, "queued", 0.0), status=202)
    script_job(
        api,
        7,
        [
            job(7, "queued", 0.0),
            job(7, "running", 0.5, message="links"),
            job(7, "succeeded", 1.0, fabric=1),
        ],
    )
    result = logged_in("fabric", "import", str(FIXTURE_DATA / "demo-fb.json"), "--background")
    assert result.exit_code == 0, result.stderr
    assert api.sent("POST", "/api/fabrics/import/")[0].url.params["background"] == "1"
    assert "job 7 fabric.import running 50% links" in result.stderr
    assert "job 7 fabric.import succeeded 100%" in result.stderr
    assert result.stdout == "Imported fabric demo-fb (id 1): 64 switches, 192 links\n"


def test_background_import_that_fails_prints_the_rows(logged_in: Cli, api: FakeApi, no_wait: None) -> None:
    api.route("POST", "/api/fabrics/import/", job(8, "queued", 0.0), status=202)
    rows = [{"section": "links", "index": 7, "field": "b", "message": "unknown switch 'p0-fab9'"}]
    script_job(api, 8, [job(8, "failed", 0.2, error="invalid document", result={"errors": rows})])
    result = logged_in("fabric", "import", str(FIXTURE_DATA / "bad-fabric.json"), "--background")
    assert result.exit_code == 1
    assert "error: job 8 failed: invalid document\n  links[7].b: unknown switch 'p0-fab9'\n" in result.stderr


def test_background_import_detached(logged_in: Cli, api: FakeApi) -> None:
    api.route("POST", "/api/fabrics/import/", job(9, "queued", 0.0), status=202)
    result = logged_in(
        "--output", "json", "fabric", "import", str(FIXTURE_DATA / "demo-fb.json"), "--background", "--detach"
    )
    assert result.exit_code == 0
    assert json.loads(result.stdout)["id"] == 9
    assert "lightpath jobs watch 9" in result.stderr


@pytest.mark.parametrize(("final", "code"), [("succeeded", 0), ("failed", 1), ("cancelled", 1)])
def test_jobs_watch_exit_codes(logged_in: Cli, fake_api: FakeApi, no_wait: None, final: str, code: int) -> None:
    script_job(fake_api, 5, [job(5, "running", 0.3), job(5, final, 1.0, error="boom" if final == "failed" else "")])
    result = logged_in("jobs", "watch", "5", "--output", "json")
    assert result.exit_code == code
    assert json.loads(result.stdout)["state"] == final
    if code:
        assert f"error: job 5 {final}" in result.stderr


def test_jobs_watch_unknown_job(logged_in: Cli, fake_api: FakeApi) -> None:
    result = logged_in("jobs", "watch", "404")
    assert result.exit_code == 1
    assert result.stderr == "error: job 404 not found\n"


def interrupt(seconds: float) -> None:
    raise KeyboardInterrupt


def test_ctrl_c_detaches_without_cancelling(logged_in: Cli, fake_api: FakeApi, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jobs_module, "_sleep", interrupt)
    script_job(fake_api, 6, [job(6, "running", 0.4)])
    result = logged_in("jobs", "watch", "6")
    assert result.exit_code == 130
    assert "detached from job 6; it keeps running" in result.stderr
    assert fake_api.sent("POST", "/api/jobs/6/cancel/") == []


def test_ctrl_c_with_cancel_on_interrupt(logged_in: Cli, fake_api: FakeApi, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jobs_module, "_sleep", interrupt)
    script_job(fake_api, 6, [job(6, "running", 0.4)])
    fake_api.route("POST", "/api/jobs/6/cancel/", job(6, "cancelled", 0.4))
    result = logged_in("jobs", "watch", "6", "--cancel-on-interrupt")
    assert result.exit_code == 130
    assert len(fake_api.sent("POST", "/api/jobs/6/cancel/")) == 1
    assert "asked the server to cancel job 6 (state now cancelled)" in result.stderr


def test_jobs_list_filters_and_shape(logged_in: Cli, api: FakeApi) -> None:
    api.route("GET", "/api/jobs/", page([job(1, "failed", 0.5), job(2, "failed", 1.0)]))
    rows = logged_in.json("jobs", "list", "--state", "failed", "--kind", "fabric.import", "--fabric", "demo-fb")
    params = api.sent("GET", "/api/jobs/")[0].url.params
    assert (params["state"], params["kind"], params["fabric"]) == ("failed", "fabric.import", "1")
    assert list(rows[0]) == [
        "id",
        "kind",
        "state",
        "progress",
        "message",
        "result",
        "error",
        "fabric",
        "created_by",
        "created",
        "started",
        "finished",
    ]
    table = logged_in("jobs", "list")
    assert "fabric.import" in table.stdout and "50%" in table.stdout
    assert logged_in("jobs", "list", "--state", "exploded").exit_code == 2


CAPACITY = {
    "fabric": 1,
    "capacity_constraint": 0.75,
    "summary": {"tors": 3, "below_constraint": 1, "min_fraction": 0.5},
    "tors": [
        {
            "switch": 10,
            "name": "p0-tor0",
            "pod": 0,
            "available_paths": 16,
            "total_paths": 16,
            "fraction": 1.0,
            "constraint": 0.9,
            "below_constraint": False,
        },
        {
            "switch": 11,
            "name": "p1-tor3",
            "pod": 1,
            "available_paths": 8,
            "total_paths": 16,
            "fraction": 0.5,
            "constraint": 0.75,
            "below_constraint": True,
        },
        {
            "switch": 12,
            "name": "p3-tor6",
            "pod": 3,
            "available_paths": 12,
            "total_paths": 16,
            "fraction": 0.75,
            "constraint": 0.75,
            "below_constraint": False,
        },
    ],
}


def test_capacity_table_flags_tors_below_their_constraint(logged_in: Cli, api: FakeApi) -> None:
    api.route("GET", "/api/fabrics/1/capacity/", CAPACITY)
    result = logged_in("fabric", "capacity", "demo-fb")
    assert result.exit_code == 0
    below = next(line for line in result.stdout.splitlines() if "p1-tor3" in line)
    assert "8/16" in below and "0.500" in below and "BELOW" in below
    assert "BELOW" not in next(line for line in result.stdout.splitlines() if "p3-tor6" in line)
    assert "3 ToRs, 1 below their constraint, lowest fraction 0.500" in result.stdout


def test_capacity_json_and_below_only(logged_in: Cli, api: FakeApi) -> None:
    api.route("GET", "/api/fabrics/1/capacity/", CAPACITY)
    report = logged_in.json("fabric", "capacity", "demo-fb")
    assert report["fabric"] == {"id": 1, "name": "demo-fb"}
    assert report["summary"] == CAPACITY["summary"]
    assert report["tors"] == CAPACITY["tors"]
    only = logged_in.json("fabric", "capacity", "1", "--below-only")
    assert [tor["name"] for tor in only["tors"]] == ["p1-tor3"]


def test_export_json_to_a_file_and_csv_to_stdout(logged_in: Cli, api: FakeApi, tmp_path: Path) -> None:
    document = json.loads((FIXTURE_DATA / "demo-fb.json").read_text())

    def export(request: httpx.Request) -> httpx.Response:
        if request.url.params["format"] == "csv":
            return httpx.Response(
                200,
                text="a,a_port,b,b_port,length_m,speed_gbps,fiber,transceiver_model\n",
                headers={"content-type": "text/csv"},
            )
        return httpx.Response(200, json=document)

    api.route("GET", "/api/fabrics/1/export/", export)
    target = tmp_path / "out.json"
    result = logged_in("fabric", "export", "demo-fb", "-o", str(target))
    assert result.exit_code == 0, result.stderr
    assert json.loads(target.read_text()) == document
    assert result.stdout == "" and f"exported fabric demo-fb to {target}" in result.stderr

    as_csv = logged_in("fabric", "export", "demo-fb", "--format", "csv")
    assert as_csv.stdout.startswith("a,a_port,b,b_port,")
    assert "text/csv" in api.sent("GET", "/api/fabrics/1/export/")[-1].headers["Accept"]
