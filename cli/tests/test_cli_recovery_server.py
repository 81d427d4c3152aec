"""fabric recovery [--apply] against the real backend (live_server, the local PostgreSQL) on the demo
fabric (fixtures/data/demo-fb.json).

Pod 1: CorrOpt disabled p1-tor0's corrupting uplink to p1-fab0 (16 -> 12 up-paths, the 12 its 0.75
requires); then its uplink to p1-fab1 goes down (telemetry): 8 of 12. Re-enabling the lossy uplink
brings it back; the demo's p1-tor3 (8 of 16) needs a repair. No worker runs here.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest
from cli_testing import Cli, disable_for_corruption, link_at

from lightpath_cli.server.shapes import RECOVERY_APPLIED_KEYS, RECOVERY_KEYS

if not os.environ.get("DJANGO_SETTINGS_MODULE"):
    pytest.skip("needs the backend's Django settings: run pytest from the repository root", allow_module_level=True)

pytestmark = pytest.mark.django_db(transaction=True, databases="__all__")


@pytest.fixture
def went_down(demo: Any) -> Any:
    """The demo with p1-tor0's lossy uplink disabled by CorrOpt and its uplink to p1-fab1 down."""
    from fabric.services import link_state

    lossy = link_at(demo, "p1-tor0", "eth2/1")
    disable_for_corruption(lossy)
    link_state.set_oper_states(demo.pk, {link_at(demo, "p1-tor0", "eth2/2").pk: "down"})
    return lossy


def test_a_viewer_reads_the_recovery_and_an_operator_applies_it(
    cli: Cli, went_down: Any, log_in: Callable[[str, str], Cli]
) -> None:
    lossy = went_down
    viewer = log_in("cli-viewer", "viewer")
    proposal = viewer.json("fabric", "recovery", "demo-fb")
    assert list(proposal) == list(RECOVERY_KEYS)
    assert [tor["name"] for tor in proposal["under_tors"]] == ["p1-tor0", "p1-tor3"]
    assert [(link["id"], link["name"]) for link in proposal["links"]] == [(lossy.pk, "p1-tor0:eth2/1 - p1-fab0:eth1/1")]
    assert [tor["name"] for tor in proposal["unreachable_tors"]] == ["p1-tor3"]
    table = viewer("fabric", "recovery", "demo-fb")
    assert table.exit_code == 0 and table.stdout.startswith("2 ToRs under their requirement, worst p1-tor0 at 8")
    assert "p1-tor0:eth2/1 - p1-fab0:eth1/1" in table.stdout
    assert "lightpath fabric recovery demo-fb --apply" in table.stdout
    csv = viewer("fabric", "recovery", "demo-fb", "--output", "csv")
    assert csv.stdout.splitlines()[0] == "id,name,loss_rate,penalty"

    refused = viewer("fabric", "recovery", "demo-fb", "--apply")
    assert refused.exit_code == 1 and refused.stderr.startswith("error: permission denied: "), refused.stderr
    lossy.refresh_from_db()
    assert lossy.admin_state == "disabled"

    operator = log_in("cli-operator", "operator")
    applied = operator.json("fabric", "recovery", "demo-fb", "--apply")
    assert list(applied) == list(RECOVERY_APPLIED_KEYS)
    assert [link["id"] for link in applied["enabled"]] == [lossy.pk]
    assert [tor["name"] for tor in applied["after"]["under_tors"]] == ["p1-tor3"]
    lossy.refresh_from_db()
    assert (lossy.admin_state, lossy.admin_reason) == ("enabled", "restoration: capacity recovery")

    again = operator("fabric", "recovery", "demo-fb", "--apply")
    assert again.exit_code == 0 and again.stderr == "nothing to apply: no lossy link brings a ToR back\n"
    assert again.stdout.startswith("1 ToR under its requirement, worst p1-tor3")
