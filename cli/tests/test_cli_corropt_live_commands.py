"""`lightpath corropt check LINK` and `lightpath corropt optimize FABRIC` against the real backend
(live_server) and, for the optimizer job, the session's real Celery worker (root conftest.py).

leaf-spine-4x2: each leaf has one uplink to each of the two spines, so 2 up-paths. At the fabric's
0.75 a leaf must keep both; leaf0's override of 0.5 lets it lose one.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Callable
from typing import Any

import pytest
from cli_testing import FIXTURE_DATA, Cli, logged_in_as

if not os.environ.get("DJANGO_SETTINGS_MODULE"):
    pytest.skip("needs the backend's Django settings: run pytest from the repository root", allow_module_level=True)

pytestmark = pytest.mark.django_db(transaction=True, databases="__all__")

FABRIC = "leaf-spine-4x2"
TO_SPINE0 = "leaf0:eth2/1 - spine0:eth1/1"
TO_SPINE1 = "leaf0:eth2/2 - spine1:eth1/1"


@pytest.fixture
def fabric(cli: Cli, live_server: Any, make_role_user: Callable[..., Any]) -> Any:
    """The fabric with corruption on both of leaf0's uplinks (events only: nothing decided yet); the CLI
    is logged in as the operator `cli-op`."""
    from django.utils import timezone

    from fabric import services
    from fabric.models import Link
    from lightpath_fixtures.documents import read_document
    from telemetry.models import CorruptionEvent

    fabric = services.import_document(read_document(FIXTURE_DATA / f"{FABRIC}.json"))
    now = timezone.now()
    for port, rate in (("eth2/1", 1e-4), ("eth2/2", 1e-5)):
        link = Link.objects.get(fabric=fabric, a_switch__name="leaf0", a_port=port)
        CorruptionEvent.objects.create(
            link=link, direction="a_to_z", rate=rate, last_rate=rate, peak_rate=rate, first_seen=now, last_seen=now
        )
    make_role_user("cli-op", "operator")
    logged_in_as(cli, live_server.url, "cli-op")
    return fabric


def leaf0_override(fabric: Any, value: float | None) -> None:
    from fabric.models import Switch

    Switch.objects.filter(fabric=fabric, name="leaf0").update(capacity_constraint=value)


def admin_states(fabric: Any) -> dict[str, str]:
    from fabric.models import Link

    return {
        port: Link.objects.get(fabric=fabric, a_switch__name="leaf0", a_port=port).admin_state
        for port in ("eth2/1", "eth2/2")
    }


def test_check_link_is_a_dry_run_of_the_live_fast_checker(cli: Cli, fabric: Any) -> None:
    from corruption.models import Decision

    answer = cli.json("corropt", "check", "leaf0:eth2/1")
    assert (answer["link_name"], answer["verdict"], answer["penalty"]) == (TO_SPINE0, "keep", 1e-4)
    assert answer["blocking_tor"]["name"] == "leaf0" and answer["blocking_tor"]["required_paths"] == 2
    assert answer["reason"] == "leaf0 would fall to 1 of 2 up-paths, under the 2 its constraint (0.75) requires"

    table = cli("corropt", "check", TO_SPINE0)
    assert table.exit_code == 0, table.stderr
    assert f"{TO_SPINE0}: would be KEPT for capacity" in table.stdout
    assert "no open corruption event" not in table.stdout and "leaf0" in table.stdout

    leaf0_override(fabric, 0.5)
    what_if = cli.json("corropt", "check", "spine1:eth1/1", "--fabric", FABRIC, "--loss-rate", "3e-6")
    assert (what_if["link_name"], what_if["verdict"], what_if["loss_rate_a_to_z"]) == (TO_SPINE1, "disable", 3e-6)
    as_csv = cli("--output", "csv", "corropt", "check", str(what_if["link"]))
    assert as_csv.exit_code == 0, as_csv.stderr
    (row,) = csv.DictReader(io.StringIO(as_csv.stdout))
    assert (row["name"], row["paths_before"], row["paths_after"], row["threshold"]) == ("leaf0", "2", "1", "0.5")

    assert not Decision.objects.exists() and admin_states(fabric) == {"eth2/1": "enabled", "eth2/2": "enabled"}
    missing = cli("corropt", "check", "leaf0:eth9/9")
    assert missing.exit_code == 1 and missing.stderr.strip() == "error: link 'leaf0:eth9/9' not found"


def test_check_and_optimize_refuse_the_other_modes_options(cli: Cli, fabric: Any, tmp_path: Any) -> None:
    corrupting = tmp_path / "c.csv"
    corrupting.write_text("link,loss_rate\n0,1e-5\n")
    for args in (
        ("check", "leaf0:eth2/1", "--corrupting", str(corrupting)),
        ("optimize", FABRIC, "--capacity", "0.5"),
    ):
        result = cli("corropt", *args)
        assert result.exit_code == 2 and "applies only offline" in result.stderr, args
    offline_what_if = cli("corropt", "check", "--fabric", str(FIXTURE_DATA / f"{FABRIC}.json"), "--loss-rate", "1e-5")
    assert offline_what_if.exit_code == 2 and "applies only to LINK" in offline_what_if.stderr
    neither = cli("corropt", "optimize")
    assert neither.exit_code == 2 and "offline needs --fabric-file FABRIC.json and --corrupting" in neither.stderr
    both = cli("corropt", "optimize", FABRIC, "--fabric", "x.json")
    assert both.exit_code == 2 and "not both" in both.stderr


@pytest.mark.integration
def test_optimize_fabric_runs_the_job_and_follows_it(cli: Cli, fabric: Any, worker: Any) -> None:
    from corruption.models import Decision, Ticket
    from jobs.models import Job

    leaf0_override(fabric, 0.5)
    result = cli("--output", "json", "corropt", "optimize", FABRIC, "--time-budget", "5")
    assert result.exit_code == 0, result.stderr
    assert "optimizer running as job" in result.stderr
    document = json.loads(result.stdout)
    assert [row["link_name"] for row in document["disabled"]] == [TO_SPINE0]  # the larger rate goes
    assert [(row["link_name"], row["blocking_tor_name"]) for row in document["kept"]] == [(TO_SPINE1, "leaf0")]
    assert document["time_budget_s"] == 5 and document["proven_optimal"]
    assert admin_states(fabric) == {"eth2/1": "disabled", "eth2/2": "enabled"}
    assert Ticket.objects.filter(link__a_port="eth2/1", state="open").count() == 1

    again = cli("corropt", "optimize", str(fabric.pk))
    assert again.exit_code == 0, again.stderr
    assert f"{FABRIC}: 0 disabled, 0 newly kept, 1 still kept, of 1 corrupting links in service" in again.stdout
    assert "proven optimal" in again.stdout
    second = Job.objects.filter(kind="corruption.optimize").latest("id").pk
    assert f"job {second}; its decisions: GET /api/decisions/?job={second}" in again.stdout
    assert Decision.objects.filter(kind="optimizer").count() == 2


def test_a_viewer_may_not_run_the_optimizer(cli: Cli, fabric: Any, live_server: Any, make_role_user: Any) -> None:
    from jobs.models import Job

    make_role_user("cli-view", "viewer")
    logged_in_as(cli, live_server.url, "cli-view")
    result = cli("corropt", "optimize", FABRIC)
    assert result.exit_code == 1
    assert "permission denied: Your role may not start 'corruption.optimize' jobs." in result.stderr
    assert not Job.objects.filter(kind="corruption.optimize").exists()
    assert cli.json("corropt", "check", "leaf0:eth2/2")["verdict"] == "keep"  # reading is for everyone
