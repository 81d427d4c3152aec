"""links disable|enable, switches drain|undrain and fabric constraints against recorded answers of the
capacity guard's API contract (docs/capacity-guard.md), served by a stand-in server (fake_api.py).

What the user sees is asserted: exit codes, the exact stderr line of a refusal, the JSON keys, and
what the CLI sent. test_cli_capacity_guard_server.py runs the same commands against the real server.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from typing import Any

import pytest
from cli_testing import JOB_KEYS, Cli, cells
from fake_api import FakeApi, serve
from typer.testing import Result

LINK_KEYS = [
    "id",
    "fabric",
    "a_switch",
    "a_switch_name",
    "a_port",
    "z_switch",
    "z_switch_name",
    "z_port",
    "length_m",
    "fiber",
    "speed_gbps",
    "admin_state",
    "admin_reason",
    "oper_state",
    "health",
    "rx_low",
]
TOR_KEYS = ["switch", "name", "paths_before", "paths_after", "required_paths", "design_paths", "constraint"]
FABRIC = {"id": 7, "name": "pod1", "tiers": ["tor", "fabric", "spine"], "capacity_constraint": 0.75}
TOR5 = {"id": 3, "fabric": 7, "name": "p1-tor5", "tier": 0}
FAB1 = {"id": 9, "fabric": 7, "name": "p1-fab1", "tier": 1}
LINK = {
    "id": 12,
    "url": "http://x/api/links/12/",
    "fabric": 7,
    "a_switch": 3,
    "a_switch_name": "p1-tor5",
    "a_port": "eth1",
    "z_switch": 9,
    "z_switch_name": "p1-fab1",
    "z_port": "eth5",
    "length_m": 30.0,
    "fiber": "smf",
    "speed_gbps": 100,
    "admin_state": "enabled",
    "admin_reason": "",
    "admin_changed_by": None,
    "admin_changed_at": None,
    "oper_state": "up",
    "health": "clean",
    "rx_low": False,
}


def tor(
    name: str, switch: int, before: int, after: int, required: int = 12, constraint: float = 0.75
) -> dict[str, Any]:
    return {
        "switch": switch,
        "name": name,
        "paths_before": before,
        "paths_after": after,
        "required_paths": required,
        "design_paths": 16,
        "constraint": constraint,
    }


SAFE = {
    "verdict": "safe",
    "detail": "No ToR falls under its constraint.",
    "links": [12],
    "affected_tors": [tor("p1-tor5", 3, 16, 12)],
    "blocking_tors": [],
}
UNSAFE = {
    "verdict": "unsafe",
    "detail": "p1-tor5 would fall to 8 of 16 up-paths, under the 12 its constraint (0.75) requires.",
    "links": [12],
    "affected_tors": [tor("p1-tor6", 4, 16, 15), tor("p1-tor5", 3, 12, 8)],
    "blocking_tors": [tor("p1-tor5", 3, 12, 8)],
}
REFUSED_ONE = {
    "detail": "Refused: p1-tor5 would fall to 8 of 16 up-paths, under the 12 its constraint (0.75) requires.",
    "blocking_tors": [tor("p1-tor5", 3, 12, 8)],
    "links": [12],
}
REFUSAL_LINE = "error: refused: p1-tor5 would fall to 8 of 16 up-paths, under the 12 its constraint (0.75) requires\n"


@pytest.fixture
def api() -> Iterator[FakeApi]:
    """The stand-in server with pod1, its switches p1-tor5 and p1-fab1, and link 12 between them."""
    for fake in serve():
        fake.page("/api/fabrics/", [FABRIC])
        fake.route("GET", "/api/fabrics/7/", (200, FABRIC))

        def switches(request: Any) -> tuple[int, Any]:
            rows = [s for s in (TOR5, FAB1) if s["name"] in request.query.get("name", [s["name"]])]
            return 200, {"count": len(rows), "next": None, "previous": None, "results": rows}

        fake.route("GET", "/api/switches/", switches)
        fake.route("GET", "/api/switches/9/", (200, FAB1))
        fake.page("/api/links/", [LINK])
        fake.route("GET", "/api/links/12/", (200, LINK))
        yield fake


@pytest.fixture
def run(cli: Cli, api: FakeApi) -> Any:
    def invoke(*args: str) -> Result:
        return cli("--server", api.url, *args, env={"LIGHTPATH_TOKEN": "t0ken"})

    return invoke


def patch_answers(api: FakeApi, path: str, dry: Any, real: tuple[int, Any]) -> None:
    """PATCH/POST on `path` answers `dry` (200) with ?dry_run=1, else `real`."""

    def answer(request: Any) -> tuple[int, Any]:
        return (200, dry) if request.query.get("dry_run") == ["1"] else real

    api.route("PATCH", path, answer)
    api.route("POST", path, answer)


# ----------------------------------------------------------------------------------------------
# links disable|enable


def test_safe_disable_sends_the_state_and_reason_and_prints_the_link(run: Any, api: FakeApi) -> None:
    disabled = {**LINK, "admin_state": "disabled", "admin_reason": "optics swap"}
    patch_answers(api, "/api/links/12/", SAFE, (200, disabled))

    result = run("links", "disable", "p1-tor5:eth1", "--fabric", "pod1", "--reason", "optics swap")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "link 12 (p1-tor5:eth1-p1-fab1:eth5) is disabled (optics swap)\n"
    assert result.stderr == ""
    (patch,) = api.sent()
    assert (patch.method, patch.path, patch.query) == ("PATCH", "/api/links/12/", {})
    assert patch.body == {"admin_state": "disabled", "admin_reason": "optics swap"}
    assert patch.headers["authorization"] == "Token t0ken"

    as_json = run("links", "disable", "12", "--fabric", "7", "--output", "json")
    assert as_json.exit_code == 0, as_json.stderr
    shown = json.loads(as_json.stdout)
    assert list(shown) == LINK_KEYS and (shown["id"], shown["admin_state"]) == (12, "disabled")
    # Without --reason the CLI sends no admin_reason (the server clears it on a state change).
    assert api.sent()[-1].body == {"admin_state": "disabled"}

    as_csv = run("links", "disable", "12", "--fabric", "pod1", "--output", "csv")
    (row,) = csv.DictReader(io.StringIO(as_csv.stdout))
    assert list(row) == LINK_KEYS and row["admin_state"] == "disabled"


def test_dry_run_prints_the_verdict_and_each_affected_tor(run: Any, api: FakeApi) -> None:
    patch_answers(api, "/api/links/12/", SAFE, (500, {}))
    safe = run("links", "disable", "p1-tor5:eth1-p1-fab1:eth5", "--fabric", "pod1", "--dry-run")
    assert safe.exit_code == 0, safe.stderr
    lines = safe.stdout.splitlines()
    assert lines[0] == "dry run: disable link 12 (p1-tor5:eth1-p1-fab1:eth5): SAFE"
    assert lines[1:3] == ["No ToR falls under its constraint.", "1 link would change: 12"]
    row = next(cells(line) for line in lines if "->" in line)
    assert row == ["p1-tor5", "16", "->", "12", "16", "12", "0.75", "ok"]
    assert lines[-1] == "Nothing changed (dry run)."
    (patch,) = api.sent()
    assert patch.query == {"dry_run": ["1"]} and patch.body == {"admin_state": "disabled"}

    patch_answers(api, "/api/links/12/", UNSAFE, (500, {}))
    unsafe = run("links", "disable", "12", "--fabric", "pod1", "--dry-run")
    # An unsafe verdict is an answer, not an error: exit 0, UNSAFE in the first line.
    assert unsafe.exit_code == 0, unsafe.stderr
    lines = unsafe.stdout.splitlines()
    assert lines[0] == "dry run: disable link 12 (p1-tor5:eth1-p1-fab1:eth5): UNSAFE"
    rows = [cells(line) for line in lines if "->" in line]
    # The blocking ToR first, flagged.
    assert rows == [
        ["p1-tor5", "12", "->", "8", "16", "12", "0.75", "UNDER"],
        ["p1-tor6", "16", "->", "15", "16", "12", "0.75", "ok"],
    ]
    assert lines[-1] == "Nothing changed. Without --dry-run the server refuses this change."


def test_dry_run_json_and_csv_carry_the_verdict(run: Any, api: FakeApi) -> None:
    patch_answers(api, "/api/links/12/", {**UNSAFE, "extra": 1}, (500, {}))
    result = run("links", "disable", "12", "--fabric", "pod1", "--dry-run", "--output", "json")
    assert result.exit_code == 0, result.stderr
    answer = json.loads(result.stdout)
    assert list(answer) == ["verdict", "detail", "links", "affected_tors", "blocking_tors"]
    assert answer["verdict"] == "unsafe" and answer["links"] == [12]
    assert [list(row) for row in answer["affected_tors"] + answer["blocking_tors"]] == [TOR_KEYS] * 3
    assert answer["blocking_tors"][0] == tor("p1-tor5", 3, 12, 8)

    as_csv = run("--output", "csv", "links", "disable", "12", "--fabric", "pod1", "--dry-run")
    rows = list(csv.DictReader(io.StringIO(as_csv.stdout)))
    assert list(rows[0]) == ["verdict", *TOR_KEYS, "blocking"]
    assert [(r["verdict"], r["name"], r["paths_after"], r["blocking"]) for r in rows] == [
        ("unsafe", "p1-tor5", "8", "true"),
        ("unsafe", "p1-tor6", "15", "false"),
    ]


def test_dry_run_answered_without_a_verdict_is_an_error(run: Any, api: FakeApi) -> None:
    """A server without the guard ignores ?dry_run=1 and answers the changed link: say so, exit 1."""
    patch_answers(api, "/api/links/12/", {**LINK, "admin_state": "disabled"}, (500, {}))
    result = run("links", "disable", "12", "--fabric", "pod1", "--dry-run", "--output", "json")
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr == (
        "error: the server answered the dry run of disable link 12 (p1-tor5:eth1-p1-fab1:eth5) without a verdict: "
        "it may not know dry runs and may have applied the change\n"
    )


def test_refusal_is_one_line_naming_the_blocking_tor_and_exit_3(run: Any, api: FakeApi) -> None:
    patch_answers(api, "/api/links/12/", UNSAFE, (409, REFUSED_ONE))
    result = run("links", "disable", "12", "--fabric", "pod1", "--reason", "x")
    assert result.exit_code == 3
    assert result.stderr == REFUSAL_LINE
    assert result.stdout == ""

    several = {**REFUSED_ONE, "blocking_tors": [tor("p1-tor5", 3, 12, 8), tor("p1-tor6", 4, 12, 10), tor("t", 5, 9, 8)]}
    patch_answers(api, "/api/links/12/", UNSAFE, (409, several))
    result = run("links", "disable", "12", "--fabric", "pod1", "--output", "json")
    assert result.exit_code == 3 and result.stdout == ""
    assert result.stderr == REFUSAL_LINE.replace("requires\n", "requires (+2 more ToRs)\n")

    # A 409 without ToRs: the server's sentence, still one line and exit 3.
    patch_answers(api, "/api/links/12/", UNSAFE, (409, {"detail": "Refused: the fabric is being rebuilt."}))
    bare = run("links", "disable", "12", "--fabric", "pod1")
    assert (bare.exit_code, bare.stderr) == (3, "error: refused: the fabric is being rebuilt\n")


def test_force_needs_a_reason_and_sends_the_override(run: Any, api: FakeApi) -> None:
    disabled = {**LINK, "admin_state": "disabled", "admin_reason": "fibre cut, accepted"}
    patch_answers(api, "/api/links/12/", UNSAFE, (200, disabled))
    missing = run("links", "disable", "12", "--fabric", "pod1", "--force")
    assert missing.exit_code == 2
    assert missing.stderr == "error: --force needs --reason: an override of the capacity guard must say why\n"
    blank = run("links", "disable", "12", "--fabric", "pod1", "--force", "--reason", "  ")
    assert blank.exit_code == 2
    assert api.requests == []  # refused before asking the server anything

    forced = run("links", "disable", "12", "--fabric", "pod1", "--force", "--reason", "fibre cut, accepted")
    assert forced.exit_code == 0, forced.stderr
    assert forced.stdout == "link 12 (p1-tor5:eth1-p1-fab1:eth5) is disabled (fibre cut, accepted)\n"
    assert forced.stderr == "note: sent as an override of the capacity guard (--force), applied even if unsafe\n"
    assert api.sent()[-1].body == {
        "admin_state": "disabled",
        "admin_reason": "fibre cut, accepted",
        "override_capacity": True,
    }


def test_override_denied_or_rejected_is_one_line(run: Any, api: FakeApi) -> None:
    detail = "Only admins may override the capacity guard."
    patch_answers(api, "/api/links/12/", UNSAFE, (403, {"detail": detail}))
    denied = run("links", "disable", "12", "--fabric", "pod1", "--force", "--reason", "r")
    assert denied.exit_code == 1 and denied.stderr == f"error: permission denied: {detail}\n"

    patch_answers(api, "/api/links/12/", UNSAFE, (400, {"admin_reason": ["An override needs a reason."]}))
    rejected = run("links", "disable", "12", "--fabric", "pod1", "--force", "--reason", "r")
    assert rejected.exit_code == 1
    assert rejected.stderr == (
        "error: cannot disable link 12 (p1-tor5:eth1-p1-fab1:eth5): admin_reason: An override needs a reason.\n"
    )


def test_enable(run: Any, api: FakeApi) -> None:
    patch_answers(api, "/api/links/12/", SAFE, (200, {**LINK, "admin_state": "enabled"}))
    result = run("links", "enable", "p1-fab1:eth5", "--fabric", "pod1")
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "link 12 (p1-tor5:eth1-p1-fab1:eth5) is enabled\n"
    assert api.sent()[-1].body == {"admin_state": "enabled"}
    assert run("links", "enable", "12", "--fabric", "pod1", "--force").exit_code == 2  # no such option

    with_reason = run("links", "enable", "12", "--fabric", "pod1", "--reason", "fixed", "--output", "json")
    assert with_reason.exit_code == 0 and list(json.loads(with_reason.stdout)) == LINK_KEYS
    assert api.sent()[-1].body == {"admin_state": "enabled", "admin_reason": "fixed"}


def test_link_in_another_fabric_or_unknown(run: Any, api: FakeApi) -> None:
    api.page("/api/fabrics/", [FABRIC, {"id": 8, "name": "pod2"}])
    api.route("GET", "/api/fabrics/8/", (200, {"id": 8, "name": "pod2"}))
    other = run("links", "disable", "12", "--fabric", "8")
    assert other.exit_code == 1 and other.stderr == "error: link 12 is not in fabric 'pod2'\n"
    unknown = run("links", "disable", "p1-tor5:eth9", "--fabric", "pod1")
    assert unknown.exit_code == 1 and unknown.stderr == "error: link 'p1-tor5:eth9' not found in fabric 'pod1'\n"
    no_fabric = run("links", "disable", "12")
    assert no_fabric.exit_code == 2 and "--fabric" in no_fabric.stderr
    assert api.sent() == []


# ----------------------------------------------------------------------------------------------
# switches drain|undrain


def test_drain_and_undrain(run: Any, api: FakeApi) -> None:
    drained = {"switch": 9, "links": [12, 13], "affected_tors": [tor("p1-tor5", 3, 16, 14)], "extra": True}
    patch_answers(api, "/api/switches/9/drain/", SAFE, (200, drained))
    result = run("switches", "drain", "p1-fab1", "--fabric", "pod1", "--reason", "PSU swap")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "drained switch p1-fab1: 2 links disabled for maintenance"
    assert cells(next(line for line in lines if "->" in line)) == [
        "p1-tor5",
        "16",
        "->",
        "14",
        "16",
        "12",
        "0.75",
        "ok",
    ]
    lookup = next(r for r in api.requests if r.path == "/api/switches/")
    assert (lookup.query["fabric"], lookup.query["name"]) == (["7"], ["p1-fab1"])
    (post,) = api.sent()
    assert (post.method, post.path, post.query, post.body) == (
        "POST",
        "/api/switches/9/drain/",
        {},
        {"admin_reason": "PSU swap"},
    )

    as_json = run("switches", "drain", "p1-fab1", "--fabric", "pod1", "--output", "json")
    assert json.loads(as_json.stdout) == {"switch": 9, "links": [12, 13], "affected_tors": [tor("p1-tor5", 3, 16, 14)]}
    assert api.sent()[-1].body is None  # no reason, no body

    undrained = {"switch": 9, "links": [12, 13], "affected_tors": [tor("p1-tor5", 3, 14, 16)]}
    patch_answers(api, "/api/switches/9/undrain/", SAFE, (200, undrained))
    back = run("switches", "undrain", "p1-fab1", "--fabric", "pod1")
    assert back.exit_code == 0, back.stderr
    assert back.stdout.splitlines()[0] == "undrained switch p1-fab1: 2 links enabled again"
    assert (api.sent()[-1].path, api.sent()[-1].body) == ("/api/switches/9/undrain/", None)
    as_csv = run("switches", "undrain", "9", "--fabric", "pod1", "--output", "csv")
    (row,) = csv.DictReader(io.StringIO(as_csv.stdout))
    assert list(row) == TOR_KEYS and (row["paths_before"], row["paths_after"]) == ("14", "16")


def test_drain_dry_run_refusal_and_unknown_switch(run: Any, api: FakeApi) -> None:
    refused = {**REFUSED_ONE, "links": [12, 13]}
    patch_answers(api, "/api/switches/9/drain/", {**UNSAFE, "links": [12, 13]}, (409, refused))
    dry = run("switches", "drain", "p1-fab1", "--fabric", "pod1", "--dry-run")
    assert dry.exit_code == 0, dry.stderr
    assert dry.stdout.splitlines()[:3] == [
        "dry run: drain switch p1-fab1: UNSAFE",
        "p1-tor5 would fall to 8 of 16 up-paths, under the 12 its constraint (0.75) requires.",
        "2 links would change: 12, 13",
    ]
    assert api.sent()[-1].query == {"dry_run": ["1"]}
    verdict = run("switches", "drain", "p1-fab1", "--fabric", "pod1", "--dry-run", "--output", "json")
    assert json.loads(verdict.stdout)["verdict"] == "unsafe"

    result = run("switches", "drain", "p1-fab1", "--fabric", "pod1")
    assert (result.exit_code, result.stderr, result.stdout) == (3, REFUSAL_LINE, "")
    forced = run("switches", "drain", "p1-fab1", "--fabric", "pod1", "--force")
    assert forced.exit_code == 2 and forced.stderr.startswith("error: --force needs --reason")

    missing = run("switches", "drain", "p9-fab9", "--fabric", "pod1")
    assert missing.exit_code == 1 and missing.stderr == "error: no switch named 'p9-fab9' in fabric 'pod1'\n"


# ----------------------------------------------------------------------------------------------
# fabric constraints

CONSTRAINTS = {"fabric": 7, "default": 0.75, "overrides": {"p1-tor5": 0.5}, "tors": 48}
JOB = {
    "id": 31,
    "kind": "corruption.optimize",
    "state": "queued",
    "progress": 0.0,
    "message": "",
    "result": None,
    "error": "",
    "fabric": 7,
    "created_by": "op",
    "created": "2026-01-01T00:00:00Z",
    "started": None,
    "finished": None,
    "url": "x",
}


def test_constraints_show(run: Any, api: FakeApi) -> None:
    api.route("GET", "/api/fabrics/7/constraints/", (200, CONSTRAINTS))
    table = run("fabric", "constraints", "pod1")
    assert table.exit_code == 0, table.stderr
    lines = table.stdout.splitlines()
    assert lines[0] == "Fabric pod1: default constraint 0.750 (48 ToRs, 1 with their own)"
    assert cells(lines[-1]) == ["p1-tor5", "0.500"]
    assert api.sent() == []

    assert json.loads(run("fabric", "constraints", "pod1", "--output", "json").stdout) == CONSTRAINTS
    as_csv = run("fabric", "constraints", "7", "--output", "csv")
    assert as_csv.stdout == "tor,constraint\n,0.75\np1-tor5,0.5\n"


def test_constraints_set_and_clear(run: Any, api: FakeApi) -> None:
    changed = {
        "fabric": 7,
        "default": 0.5,
        "overrides": {"p1-tor6": 0.9},
        "tors": 48,
        "changes": [
            {"switch": None, "before": 0.75, "after": 0.5},
            {"switch": "p1-tor5", "before": 0.5, "after": None},
            {"switch": "p1-tor6", "before": None, "after": 0.9},
        ],
        "optimizer_job": JOB,
    }
    api.route("PATCH", "/api/fabrics/7/constraints/", (200, changed))
    result = run("fabric", "constraints", "pod1", "--default", "0.5", "--tor", "p1-tor6=0.9", "--clear-tor", "p1-tor5")
    assert result.exit_code == 0, result.stderr
    (patch,) = api.sent()
    assert patch.body == {"default": 0.5, "overrides": {"p1-tor6": 0.9, "p1-tor5": None}}
    lines = result.stdout.splitlines()
    assert lines[0] == "Fabric pod1: default constraint 0.500 (48 ToRs, 1 with their own)"
    assert lines[-4:] == [
        "changed default: 0.750 -> 0.500",
        "changed p1-tor5: 0.500 -> none",
        "changed p1-tor6: none -> 0.900",
        "CorrOpt's optimizer re-runs as job 31 (queued): `lightpath jobs watch 31`",
    ]

    as_json = json.loads(run("fabric", "constraints", "pod1", "--clear-tor", "p1-tor5", "--output", "json").stdout)
    assert list(as_json) == ["fabric", "default", "overrides", "tors", "changes", "optimizer_job"]
    assert list(as_json["optimizer_job"]) == JOB_KEYS and as_json["optimizer_job"]["id"] == 31
    assert as_json["changes"][1] == {"switch": "p1-tor5", "before": 0.5, "after": None}
    assert api.sent()[-1].body == {"overrides": {"p1-tor5": None}}


def test_constraints_bad_values_are_refused(run: Any, api: FakeApi) -> None:
    for args, line in (
        (("--default", "75"), "error: --default: 75 is not a fraction between 0 and 1\n"),
        (("--tor", "p1-tor5"), "error: --tor 'p1-tor5': expected NAME=FRACTION, e.g. --tor p1-tor5=0.5\n"),
        (("--tor", "p1-tor5=high"), "error: --tor p1-tor5: 'high' is not a number\n"),
        (("--tor", "p1-tor5=0.5", "--clear-tor", "p1-tor5"), "error: p1-tor5: both --tor and --clear-tor\n"),
    ):
        result = run("fabric", "constraints", "pod1", *args)
        assert (result.exit_code, result.stderr) == (2, line), args
    assert api.requests == []

    errors = {"overrides": {"p9-tor1": ["no switch named 'p9-tor1' in fabric 'pod1'"]}}
    api.route("PATCH", "/api/fabrics/7/constraints/", (400, errors))
    result = run("fabric", "constraints", "pod1", "--tor", "p9-tor1=0.5")
    assert result.exit_code == 1
    assert result.stderr == (
        "error: cannot change the constraints of fabric 'pod1': overrides.p9-tor1: no switch named 'p9-tor1' in fabric 'pod1'\n"
    )
