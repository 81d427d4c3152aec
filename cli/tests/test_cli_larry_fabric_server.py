"""`lightpath larry check|run --server --fabric FABRIC [--circuit-switch NAME]`: the rack set built on the
server from a stored fabric's circuit switches, cables out of service excluded with their reasons."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from cli_testing import Cli, import_file

if not os.environ.get("DJANGO_SETTINGS_MODULE"):
    pytest.skip("needs the backend's Django settings: run pytest from the repository root", allow_module_level=True)

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True, databases="__all__")]


@pytest.fixture
def racks(planner: Cli, tmp_path: Path) -> dict[str, Any]:
    """Four racks r0..r3 on circuit switch ocs0 (one port each, carried by the rack's `oc` link)."""
    from fabric.models import Fabric
    from reconfig.tests.test_larry_fabric import DOCUMENT, circuit_switch

    path = tmp_path / "larry-racks.json"
    path.write_text(json.dumps(DOCUMENT))
    fabric = import_file(planner, path)
    circuit_switch(Fabric.objects.get(pk=fabric["id"]))
    return fabric


def disable_by_corropt(tor: str) -> None:
    from fabric.models import Link
    from fabric.services import link_state

    link = Link.objects.get(a_switch__name=tor, a_port="oc")
    link_state.set_admin_state(link, "disabled", "corruption", None, override=True)  # set up, not the guard under test


def test_check_on_a_fabric_excludes_what_corropt_disabled(planner: Cli, racks: dict[str, Any]) -> None:
    ok = planner("--output", "json", "larry", "check", "--uplinks", "1,1,0,0", "--server", "--fabric", "larry-racks")
    assert ok.exit_code == 0, ok.stderr
    assert json.loads(ok.stdout)["inputs"]["rack_set"]["racks"] == ["r0", "r1", "r2", "r3"]

    disable_by_corropt("r0")
    args = ("larry", "check", "--uplinks", "1,1,0,0", "--server", "--fabric", str(racks["id"]))
    bad = planner(*args, "--circuit-switch", "ocs0")
    assert bad.exit_code == 1
    assert "excluded: r0 to ocs0" in bad.stdout and "disabled by CorrOpt" in bad.stdout
    # r0's cable is out: the whole request gets 1 of 2, the bottleneck is r0 alone (1 asked, 0 reachable)
    assert "Whole request: 1 of 2 circuit uplinks reachable (max flow)" in bad.stdout
    assert "Bottleneck: r0 requests 1 but its cables reach at most 0" in bad.stdout
    assert "infeasible" in bad.stderr
    unknown = planner(*args, "--circuit-switch", "ocs9")
    assert unknown.exit_code == 1 and "fabric" in unknown.stderr and "no circuit switch ocs9" in unknown.stderr
    offline = planner("larry", "check", "--uplinks", "1,1,0,0", "--fabric", "larry-racks")
    assert offline.exit_code != 0 and "needs --server" in offline.stderr


def test_run_on_a_fabric_rack_set_follows_the_job(
    planner: Cli, worker: Any, racks: dict[str, Any], tmp_path: Path
) -> None:
    from reconfig.tests.test_larry_fabric import counters_csv

    disable_by_corropt("r2")
    counters = tmp_path / "counters.csv"
    counters.write_text(counters_csv(4))
    served = planner(
        "--output", "json", "larry", "run", "--counters", str(counters), "--server", "--fabric", "larry-racks"
    )  # fmt: skip
    assert served.exit_code == 0, served.stderr
    result = json.loads(served.stdout)
    assert result["inputs"]["rack_set"]["excluded"] == [[2, 0]]
    assert [c["rack"] for c in result["inputs"]["rack_set_source"]["excluded_cables"]] == ["r2"]
