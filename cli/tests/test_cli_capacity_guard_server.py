"""links disable|enable, switches drain|undrain and fabric constraints against the real backend
(live_server, the local PostgreSQL) and its capacity guard (docs/capacity-guard.md).

leaf-spine-4x2: each leaf has one uplink to each of the two spines, so 2 up-paths (its design
count). At the fabric's 0.75 a leaf must keep both (ceil(0.75 x 2) = 2): no uplink may go. With
leaf0's own 0.5 it must keep 1, so one of its two uplinks may go.

No worker runs here: the optimizer jobs the server queues (a constraint changed, a link enabled)
stay queued, and the next module's worker starts from an empty queue.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from cli_testing import FIXTURE_DATA, JOB_KEYS, Cli, cells, logged_in_as

if not os.environ.get("DJANGO_SETTINGS_MODULE"):
    pytest.skip("needs the backend's Django settings: run pytest from the repository root", allow_module_level=True)

pytestmark = pytest.mark.django_db(transaction=True, databases="__all__")

FABRIC = "leaf-spine-4x2"
TO_SPINE0 = "leaf0:eth2/1"  # leaf0:eth2/1 - spine0:eth1/1
TO_SPINE1 = "leaf0:eth2/2"  # leaf0:eth2/2 - spine1:eth1/1
TOR_KEYS = ["switch", "name", "paths_before", "paths_after", "required_paths", "design_paths", "constraint"]
VERDICT_KEYS = ["verdict", "detail", "links", "affected_tors", "blocking_tors"]


@pytest.fixture
def fabric(cli: Cli, live_server: Any, make_role_user: Callable[..., Any]) -> Any:
    """The fabric, every link enabled and up; the CLI logged in as the operator `cli-op`."""
    from fabric import services
    from lightpath_fixtures.documents import read_document

    fabric = services.import_document(read_document(FIXTURE_DATA / f"{FABRIC}.json"))
    make_role_user("cli-op", "operator")
    logged_in_as(cli, live_server.url, "cli-op")
    return fabric


@pytest.fixture
def admin(fabric: Any, live_server: Any, make_role_user: Callable[..., Any], tmp_path: Path) -> Cli:
    """A second CLI (its own config file) logged in as the admin `cli-admin`."""
    make_role_user("cli-admin", "admin")
    config_file = tmp_path / "admin" / "config.toml"
    return logged_in_as(
        Cli(config_file=config_file, env={"LIGHTPATH_CONFIG": str(config_file)}), live_server.url, "cli-admin"
    )


def link_state(fabric: Any, port: str, switch: str = "leaf0") -> tuple[str, str]:
    from fabric.models import Link

    link = Link.objects.get(fabric=fabric, a_switch__name=switch, a_port=port)
    return link.admin_state, link.admin_reason


def leaf(name: str, switch: int, before: int, after: int, required: int, constraint: float) -> dict[str, Any]:
    return {
        "switch": switch,
        "name": name,
        "paths_before": before,
        "paths_after": after,
        "required_paths": required,
        "design_paths": 2,
        "constraint": constraint,
    }


def switch_id(fabric: Any, name: str) -> int:
    from fabric.models import Switch

    return int(Switch.objects.get(fabric=fabric, name=name).pk)


def test_disable_is_refused_previewed_and_done_as_the_guard_decides(cli: Cli, fabric: Any) -> None:
    leaf0 = switch_id(fabric, "leaf0")
    refused = cli("links", "disable", TO_SPINE0, "--fabric", FABRIC, "--reason", "optics swap")
    assert refused.exit_code == 3
    assert refused.stderr == (
        "error: refused: leaf0 would fall to 1 of 2 up-paths, under the 2 its constraint (0.75) requires\n"
    )
    assert refused.stdout == "" and link_state(fabric, "eth2/1") == ("enabled", "")

    dry = cli.json("links", "disable", TO_SPINE0, "--fabric", FABRIC, "--dry-run")
    assert list(dry) == VERDICT_KEYS and dry["verdict"] == "unsafe"
    assert dry["blocking_tors"] == [leaf("leaf0", leaf0, 2, 1, 2, 0.75)]
    assert dry["affected_tors"] == [leaf("leaf0", leaf0, 2, 1, 2, 0.75)]
    table = cli("links", "disable", TO_SPINE0, "--fabric", FABRIC, "--dry-run")
    assert table.exit_code == 0, table.stderr
    link_id = dry["links"][0]
    assert table.stdout.splitlines()[0] == f"dry run: disable link {link_id} (leaf0:eth2/1-spine0:eth1/1): UNSAFE"
    assert f"1 link would change: {link_id}" in table.stdout.splitlines()
    assert cells(next(line for line in table.stdout.splitlines() if "->" in line)) == [
        "leaf0",
        "2",
        "->",
        "1",
        "2",
        "2",
        "0.75",
        "UNDER",
    ]
    assert link_state(fabric, "eth2/1") == ("enabled", "")

    # leaf0 may lose one of its two uplinks at 0.5.
    changed = cli.json("fabric", "constraints", FABRIC, "--tor", "leaf0=0.5")
    assert changed["overrides"] == {"leaf0": 0.5}
    safe = cli.json("links", "disable", TO_SPINE0, "--fabric", FABRIC, "--dry-run")
    assert (safe["verdict"], safe["blocking_tors"]) == ("safe", [])
    assert safe["affected_tors"] == [leaf("leaf0", leaf0, 2, 1, 1, 0.5)]

    done = cli("links", "disable", TO_SPINE0, "--fabric", FABRIC, "--reason", "optics swap")
    assert done.exit_code == 0, done.stderr
    assert done.stdout == f"link {link_id} (leaf0:eth2/1-spine0:eth1/1) is disabled (optics swap)\n"
    assert link_state(fabric, "eth2/1") == ("disabled", "optics swap")

    # The other uplink now would take leaf0 to 0.
    second = cli("links", "disable", TO_SPINE1, "--fabric", FABRIC, "--output", "json")
    assert second.exit_code == 3 and second.stdout == ""
    assert second.stderr == (
        "error: refused: leaf0 would fall to 0 of 2 up-paths, under the 1 its constraint (0.5) requires\n"
    )
    assert link_state(fabric, "eth2/2") == ("enabled", "")

    back = cli.json("links", "enable", TO_SPINE0, "--fabric", FABRIC, "--dry-run")
    assert (back["verdict"], back["links"]) == ("safe", [link_id])
    assert back["affected_tors"] == [leaf("leaf0", leaf0, 1, 2, 1, 0.5)]
    assert link_state(fabric, "eth2/1") == ("disabled", "optics swap")
    enabled = cli.json("links", "enable", TO_SPINE0, "--fabric", FABRIC)
    assert (enabled["admin_state"], enabled["admin_reason"], enabled["a_port"]) == ("enabled", "", "eth2/1")
    assert link_state(fabric, "eth2/1") == ("enabled", "")


def test_force_is_for_admins_with_a_reason(cli: Cli, fabric: Any, admin: Cli) -> None:
    no_reason = admin("links", "disable", TO_SPINE0, "--fabric", FABRIC, "--force")
    assert no_reason.exit_code == 2
    assert no_reason.stderr == "error: --force needs --reason: an override of the capacity guard must say why\n"

    operator = cli("links", "disable", TO_SPINE0, "--fabric", FABRIC, "--force", "--reason", "fibre cut")
    assert operator.exit_code == 1 and operator.stderr.startswith("error: permission denied: ")
    assert len(operator.stderr.splitlines()) == 1
    assert link_state(fabric, "eth2/1") == ("enabled", "")

    forced = admin("links", "disable", TO_SPINE0, "--fabric", FABRIC, "--force", "--reason", "fibre cut")
    assert forced.exit_code == 0, forced.stderr
    assert forced.stdout.endswith("(leaf0:eth2/1-spine0:eth1/1) is disabled (fibre cut)\n")
    assert forced.stderr == "note: sent as an override of the capacity guard (--force), applied even if unsafe\n"
    assert link_state(fabric, "eth2/1") == ("disabled", "fibre cut")


def test_drain_and_undrain_a_spine(cli: Cli, fabric: Any) -> None:
    from fabric.models import Link

    refused = cli("switches", "drain", "spine0", "--fabric", FABRIC, "--reason", "PSU swap")
    assert refused.exit_code == 3 and refused.stdout == ""
    assert re.fullmatch(
        r"error: refused: leaf\d would fall to 1 of 2 up-paths, under the 2 its constraint \(0\.75\) requires "
        r"\(\+3 more ToRs\)\n",
        refused.stderr,
    ), refused.stderr
    dry = cli.json("switches", "drain", "spine0", "--fabric", FABRIC, "--dry-run")
    assert dry["verdict"] == "unsafe" and len(dry["links"]) == 4
    assert sorted(tor["name"] for tor in dry["blocking_tors"]) == ["leaf0", "leaf1", "leaf2", "leaf3"]
    assert not Link.objects.filter(fabric=fabric, admin_state="disabled").exists()

    assert cli.json("fabric", "constraints", FABRIC, "--default", "0.5")["default"] == 0.5
    drained = cli.json("switches", "drain", "spine0", "--fabric", FABRIC, "--reason", "PSU swap")
    assert list(drained) == ["switch", "links", "affected_tors"]
    assert drained["switch"] == switch_id(fabric, "spine0")
    spine0_links = set(Link.objects.filter(fabric=fabric, z_switch__name="spine0").values_list("id", flat=True))
    assert set(drained["links"]) == spine0_links
    assert sorted((tor["name"], tor["paths_before"], tor["paths_after"]) for tor in drained["affected_tors"]) == [
        (f"leaf{i}", 2, 1) for i in range(4)
    ]
    assert all(list(tor) == TOR_KEYS for tor in drained["affected_tors"])
    reasons = set(Link.objects.filter(id__in=spine0_links).values_list("admin_state", "admin_reason"))
    assert reasons == {("disabled", "maintenance: PSU swap")}

    preview = cli.json("switches", "undrain", "spine0", "--fabric", FABRIC, "--dry-run")
    assert (preview["verdict"], set(preview["links"])) == ("safe", spine0_links)
    undrained = cli("switches", "undrain", "spine0", "--fabric", FABRIC)
    assert undrained.exit_code == 0, undrained.stderr
    assert undrained.stdout.splitlines()[0] == "undrained switch spine0: 4 links enabled again"
    assert set(Link.objects.filter(id__in=spine0_links).values_list("admin_state", flat=True)) == {"enabled"}

    missing = cli("switches", "drain", "spine9", "--fabric", FABRIC)
    assert missing.exit_code == 1 and missing.stderr == f"error: no switch named 'spine9' in fabric '{FABRIC}'\n"


def test_constraints_show_set_and_clear(cli: Cli, fabric: Any) -> None:
    shown = cli.json("fabric", "constraints", FABRIC)
    assert shown == {"fabric": fabric.pk, "default": 0.75, "overrides": {}, "tors": 4}

    changed = cli.json("fabric", "constraints", FABRIC, "--default", "0.6", "--tor", "leaf1=0.5", "--tor", "leaf2=1")
    assert list(changed) == ["fabric", "default", "overrides", "tors", "changes", "optimizer_job"]
    assert (changed["default"], changed["overrides"]) == (0.6, {"leaf1": 0.5, "leaf2": 1.0})
    assert changed["changes"] == [
        {"switch": None, "before": 0.75, "after": 0.6},
        {"switch": "leaf1", "before": None, "after": 0.5},
        {"switch": "leaf2", "before": None, "after": 1.0},
    ]
    job = changed["optimizer_job"]
    assert list(job) == JOB_KEYS and (job["kind"], job["state"]) == ("corruption.optimize", "queued")

    table = cli("fabric", "constraints", FABRIC, "--clear-tor", "leaf1")
    assert table.exit_code == 0, table.stderr
    lines = table.stdout.splitlines()
    assert lines[0] == f"Fabric {FABRIC}: default constraint 0.600 (4 ToRs, 1 with their own)"
    assert "changed leaf1: 0.500 -> none" in lines
    assert lines[-1] == f"CorrOpt's optimizer re-runs as job {job['id']} (queued): `lightpath jobs watch {job['id']}`"

    as_csv = cli("fabric", "constraints", str(fabric.pk), "--output", "csv")
    assert list(csv.reader(io.StringIO(as_csv.stdout))) == [["tor", "constraint"], ["", "0.6"], ["leaf2", "1.0"]]

    bad = cli("fabric", "constraints", FABRIC, "--tor", "spine0=0.5", "--tor", "leaf9=0.5")
    assert bad.exit_code == 1 and len(bad.stderr.splitlines()) == 1
    assert bad.stderr.startswith(f"error: cannot change the constraints of fabric '{FABRIC}': overrides.")
    assert "overrides.leaf9: no switch named 'leaf9'" in bad.stderr and "overrides.spine0: " in bad.stderr
    assert json.loads(cli("fabric", "constraints", FABRIC, "--output", "json").stdout)["overrides"] == {"leaf2": 1.0}
