"""tickets list|show|start|act|comment|assign|metrics against the real backend.

The ticket is opened the real way: leaf-spine-4x2 is imported, corrupting counters are ingested
(telemetry.services.ingest) and the fast checker decides the event (corruption.services.decide_event),
which disables the link and opens its ticket.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import os
from collections.abc import Callable
from typing import Any

import pytest
from cli_testing import FIXTURE_DATA, Cli, cells, logged_in_as

if not os.environ.get("DJANGO_SETTINGS_MODULE"):
    pytest.skip("needs the backend's Django settings: run pytest from the repository root", allow_module_level=True)

pytestmark = pytest.mark.django_db(transaction=True, databases="__all__")

TICKET_KEYS = [
    "id",
    "fabric",
    "link",
    "link_name",
    "pod",
    "kind",
    "direction",
    "state",
    "assignee",
    "penalty",
    "recommended_action",
    "step_count",
    "decision",
    "validation_started_at",
    "resolved_at",
    "created",
    "updated",
]
DETAIL_KEYS = [*TICKET_KEYS, "ends", "recommendation", "steps", "comments"]
END_KEYS = ["side", "switch", "port", "rack", "pod", "transceiver_model", "transceiver_serial", "last_reseated_at"]
STEP_KEYS = [
    "number",
    "decision",
    "direction",
    "recommended_action",
    "rule",
    "explanation",
    "evidence",
    "action_taken",
    "followed",
    "technician",
    "notes",
    "created",
    "acted_at",
    "outcome",
]
METRICS_KEYS = [
    "fabric",
    "first_attempt",
    "mean_time_to_repair_hours",
    "repaired_tickets",
    "preventive_first_attempt",
    "open_tickets",
    "open_tickets_by_state",
    "disabled_links",
    "disabled_links_for_corruption",
    "corrupting_links_in_service",
    "current_penalty",
    "worst_tor_fraction",
]
FABRIC = "leaf-spine-4x2"
LINK = "leaf0:eth2/1 - spine0:eth1/1"


@pytest.fixture
def ticket(cli: Cli, live_server: Any, make_role_user: Callable[..., Any]) -> dict[str, Any]:
    """A ticket on leaf0:eth2/1 - spine0:eth1/1 (spine0 receives with FCS errors, a_to_z), opened by
    the fast checker; the CLI is logged in as the technician `cli-tech`."""
    from corruption import services
    from fabric import services as fabric_services
    from fabric.models import Switch
    from lightpath_fixtures.documents import read_document
    from telemetry.models import CorruptionEvent
    from telemetry.services.ingest import ingest

    fabric = fabric_services.import_document(read_document(FIXTURE_DATA / "leaf-spine-4x2.json"))
    # A leaf has two spine uplinks: let it lose one, so the link is disabled rather than kept.
    Switch.objects.filter(fabric=fabric, tier=0).update(capacity_constraint=0.5)
    start = (dt.datetime.now(dt.UTC) - dt.timedelta(minutes=70)).replace(second=0, microsecond=0)
    samples: list[dict[str, Any]] = []
    for i in range(4):
        time = start + dt.timedelta(minutes=15 * i)
        samples += [
            {"time": time, "switch": "spine0", "port": "eth1/1", "in_pkts": 1_000_000 * i, "in_fcs_errors": 20 * i},
            {"time": time, "switch": "leaf0", "port": "eth2/1", "in_pkts": 1_000_000 * i, "in_fcs_errors": 0},
        ]
    ingest(fabric, samples, derive=True)
    (event,) = CorruptionEvent.objects.filter(link__fabric=fabric)
    outcome = services.decide_event(event.pk)
    assert outcome.decision is not None and outcome.decision.action == "disabled"

    make_role_user("cli-tech", "technician")
    make_role_user("cli-tech2", "technician")
    logged_in_as(cli, live_server.url, "cli-tech")
    (row,) = cli.json("tickets", "list")
    return dict(row)


def token_of(username: str) -> str:
    from rest_framework.authtoken.models import Token

    return str(Token.objects.get_or_create(user__username=username, defaults={"user": _user(username)})[0].key)


def _user(username: str) -> Any:
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(username=username)


def test_list_json_table_csv_and_filters(cli: Cli, ticket: dict[str, Any]) -> None:
    assert list(ticket) == TICKET_KEYS
    assert (ticket["link_name"], ticket["direction"], ticket["state"], ticket["assignee"]) == (
        LINK,
        "a_to_z",
        "open",
        None,
    )
    assert ticket["penalty"] > 0 and ticket["step_count"] == 1 and ticket["recommended_action"]

    assert [t["id"] for t in cli.json("tickets", "list", "--fabric", FABRIC, "--state", "open")] == [ticket["id"]]
    assert cli.json("tickets", "list", "--state", "resolved", "--state", "in_progress") == []
    assert cli.json("tickets", "list", "--assignee", "cli-tech") == []
    assert [t["id"] for t in cli.json("tickets", "list", "--unassigned")] == [ticket["id"]]
    both = cli("tickets", "list", "--unassigned", "--assignee", "cli-tech")
    assert both.exit_code != 0 and "exclude each other" in both.stderr
    assert len(cli.json("tickets", "list", "--sort", "penalty", "--limit", "1")) == 1
    assert [t["id"] for t in cli.json("tickets", "list", "--sort", "age")] == [ticket["id"]]
    assert [t["id"] for t in cli.json("tickets", "list", "--kind", "repair")] == [ticket["id"]]
    assert cli.json("tickets", "list", "--kind", "preventive") == []
    empty = cli("tickets", "list", "--kind", "preventive")  # a sentence, not an empty table
    assert (empty.exit_code, empty.stdout.strip(), empty.stderr) == (0, "No tickets match.", "")

    result = cli("tickets", "list")
    assert result.exit_code == 0, result.stderr
    row = next(line for line in result.stdout.splitlines() if line.strip().startswith(str(ticket["id"])))
    assert "leaf0:eth2/1 - spine0:eth1/1" in row and "A -> Z" in row
    assert cells(row)[-2] == f"{ticket['penalty']:.2e}" and cells(row)[-1].endswith("m")  # opened minutes ago
    assert ticket["recommended_action"] in row and "open" in cells(row) and cells(row)[1] == "repair"

    result = cli("tickets", "list", "--output", "csv")
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert list(rows[0]) == TICKET_KEYS and rows[0]["assignee"] == "" and rows[0]["state"] == "open"

    result = cli("tickets", "list", "--fabric", "no-such-fabric")
    assert result.exit_code == 1 and result.stderr.strip() == "error: fabric 'no-such-fabric' not found"


def test_show_json_and_table(cli: Cli, ticket: dict[str, Any]) -> None:
    detail = cli.json("tickets", "show", str(ticket["id"]))
    assert list(detail) == DETAIL_KEYS
    a, z = detail["ends"]
    assert list(a) == END_KEYS
    assert (a["side"], a["switch"], a["port"], a["rack"]) == ("a", "leaf0", "eth2/1", "rack0")
    assert (z["side"], z["switch"], z["port"]) == ("z", "spine0", "eth1/1")
    recommendation = detail["recommendation"]
    assert list(recommendation) == ["step", "action", "rule", "explanation", "evidence"]
    assert recommendation["step"] == 1 and recommendation["action"] == ticket["recommended_action"]
    assert recommendation["evidence"]["direction"] == "a_to_z"
    (step,) = detail["steps"]
    assert list(step) == STEP_KEYS and step["outcome"] == "pending" and step["action_taken"] == ""
    assert detail["comments"] == []

    result = cli("tickets", "show", str(ticket["id"]))
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "leaf0:eth2/1 (rack rack0); 100G-SR4 serial -" in out and "spine0:eth1/1 (rack -); 100G-SR4" in out
    assert "A -> Z" in out and "Penalty" in out
    assert recommendation["rule"] in out and recommendation["explanation"][:40] in out
    assert "Rate (this direction)" in out and "Steps" in out and "No comments." in out

    missing = cli("tickets", "show", "999999")
    assert (missing.exit_code, missing.stderr.strip()) == (1, "error: ticket 999999 not found")
    bad = cli("tickets", "show", "abc")
    assert bad.exit_code == 2 and bad.stderr.strip() == "error: 'abc' is not a ticket id (a number)"


def test_technician_works_the_ticket(cli: Cli, ticket: dict[str, Any]) -> None:
    from fabric.models import Link

    tid = str(ticket["id"])
    # Acting before starting: the server's 409 reason in one line.
    early = cli("tickets", "act", tid, "--action", "clean_fiber")
    assert early.exit_code == 1
    assert early.stderr.startswith(f"error: cannot act ticket {tid}: ticket {tid} is open;")
    assert len(early.stderr.strip().splitlines()) == 1

    started = cli("tickets", "start", tid)
    assert started.exit_code == 0, started.stderr
    assert started.stdout.strip() == f"ticket {tid} is in_progress"
    mine = cli.json("tickets", "list", "--assignee", "cli-tech")
    assert [(t["id"], t["state"]) for t in mine] == [(ticket["id"], "in_progress")]
    assert cli.json("tickets", "list", "--unassigned") == []

    again = cli("tickets", "start", tid)
    assert again.exit_code == 1 and again.stderr.startswith(f"error: cannot start ticket {tid}: ")

    commented = cli.json("tickets", "comment", tid, "checked the patch panel")
    assert [(c["author"], c["text"]) for c in commented["comments"]] == [("cli-tech", "checked the patch panel")]
    assert list(commented["comments"][0]) == ["id", "author", "text", "created"]

    assigned = cli("tickets", "assign", tid, "cli-tech2")
    assert assigned.exit_code == 0, assigned.stderr
    assert assigned.stdout.strip() == f"ticket {tid} is assigned to cli-tech2"
    unknown = cli("tickets", "assign", tid, "nobody")
    assert unknown.exit_code == 1
    assert unknown.stderr.strip() == f"error: cannot assign ticket {tid}: username: no user named 'nobody'"

    acted = cli.json("tickets", "act", tid, "--action", "replace_cable", "--notes", "new cable")
    assert list(acted) == [*DETAIL_KEYS, "link_enabled", "message"]
    assert (acted["state"], acted["link_enabled"]) == ("awaiting_validation", True)
    (step,) = acted["steps"]
    assert (step["action_taken"], step["technician"], step["notes"]) == ("replace_cable", "cli-tech", "new cable")
    assert step["followed"] is (ticket["recommended_action"] == "replace_cable")
    link = Link.objects.get(pk=ticket["link"])
    assert (link.admin_state, link.admin_reason) == ("enabled", "repair: replace_cable")

    twice = cli("tickets", "act", tid, "--action", "replace_cable")
    assert twice.exit_code == 1
    assert twice.stderr.strip() == (
        f"error: cannot act ticket {tid}: ticket {tid} is awaiting validation; "
        "record an action on a ticket in progress (start it first)"
    )

    bad_action = cli("tickets", "act", tid, "--action", "pray")
    assert bad_action.exit_code == 2 and "pray" in bad_action.stderr

    shown = cli("tickets", "show", tid)
    assert "replace_cable" in shown.stdout and "new cable" in shown.stdout and "checked the patch panel" in shown.stdout


def test_viewer_cannot_start(cli: Cli, ticket: dict[str, Any], make_role_user: Callable[..., Any]) -> None:
    make_role_user("cli-viewer", "viewer")
    result = cli("tickets", "start", str(ticket["id"]), env={"LIGHTPATH_TOKEN": token_of("cli-viewer")})
    assert result.exit_code == 1
    assert result.stderr.startswith("error: permission denied: ") and len(result.stderr.strip().splitlines()) == 1
    assert cli.json("tickets", "show", str(ticket["id"]))["state"] == "open"


def test_metrics(cli: Cli, ticket: dict[str, Any]) -> None:
    data = cli.json("tickets", "metrics", "--fabric", FABRIC)
    assert list(data) == METRICS_KEYS
    assert data["fabric"] == ticket["fabric"]
    assert (data["open_tickets"], data["open_tickets_by_state"]["open"]) == (1, 1)
    assert (data["disabled_links"], data["disabled_links_for_corruption"]) == (1, 1)
    assert data["first_attempt"]["all"] == {"attempts": 0, "fixed": 0, "rate": None}

    table = cli("tickets", "metrics")
    assert table.exit_code == 0, table.stderr
    lines = {cells(line)[0]: cells(line)[1:] for line in table.stdout.splitlines() if line.strip()}
    assert lines["open_tickets"] == ["1"] and lines["disabled_links_for_corruption"] == ["1"]

    as_csv = list(csv.reader(io.StringIO(cli("tickets", "metrics", "--output", "csv").stdout)))
    assert as_csv[0] == ["metric", "value"] and ["first_attempt.all.attempts", "0"] in as_csv
    assert ["open_tickets_by_state.open", "1"] in as_csv
    assert ["preventive_first_attempt.attempts", "0"] in as_csv  # preventive work apart from repairs
    assert json.loads(cli("tickets", "metrics", "--output", "json").stdout)["open_tickets"] == 1


HISTORY_BUCKET_KEYS = [
    "start",
    "end",
    "tickets_opened",
    "tickets_resolved",
    "open_tickets",
    "first_attempt",
    "mean_time_to_repair_hours",
    "repaired_tickets",
    "links_disabled",
    "repair_actions",
    "preventive_first_attempt",
]


def test_metrics_history(cli: Cli, ticket: dict[str, Any]) -> None:
    today = dt.datetime.now(dt.UTC).date()
    tomorrow = today + dt.timedelta(days=1)
    data = cli.json(
        "tickets",
        "metrics",
        "--history",
        "--fabric",
        FABRIC,
        "--from",
        str(today - dt.timedelta(days=6)),
        "--to",
        str(tomorrow),
    )
    assert list(data) == ["fabric", "bucket", "from", "to", "buckets"]
    assert (data["fabric"], data["bucket"]) == (ticket["fabric"], "day")
    days = data["buckets"]
    assert len(days) == 7 and list(days[0]) == HISTORY_BUCKET_KEYS
    assert days[-1]["start"].startswith(str(today))
    # Today the fast checker disabled the link and opened its ticket; the days before are empty.
    assert (days[-1]["tickets_opened"], days[-1]["open_tickets"], days[-1]["links_disabled"]) == (1, 1, 1)
    assert all(day["tickets_opened"] == 0 and day["open_tickets"] == 0 for day in days[:-1])
    assert days[-1]["first_attempt"]["all"] == {"attempts": 0, "fixed": 0, "rate": None}

    weekly = cli.json("tickets", "metrics", "--history", "--bucket", "week")
    assert weekly["bucket"] == "week" and weekly["fabric"] is None
    assert sum(week["tickets_opened"] for week in weekly["buckets"]) == 1

    as_csv = list(csv.DictReader(io.StringIO(cli("tickets", "metrics", "--history", "--output", "csv").stdout)))
    assert len(as_csv) == 30
    assert as_csv[-1]["tickets_opened"] == "1" and as_csv[-1]["first_attempt_all_rate"] == ""
    assert as_csv[0]["first_attempt_followed_attempts"] == "0" and as_csv[0]["preventive_first_attempt_attempts"] == "0"

    table = cli("tickets", "metrics", "--history", "--from", str(today))
    assert table.exit_code == 0, table.stderr
    rows = [cells(line) for line in table.stdout.splitlines() if line.strip().startswith(str(today))]
    assert rows and rows[0][1:4] == ["1", "0", "1"]


def test_metrics_history_bad_input_is_one_line_on_stderr(cli: Cli, ticket: dict[str, Any]) -> None:
    bad = cli("tickets", "metrics", "--history", "--from", "2026-11-05", "--to", "2026-11-02")
    assert bad.exit_code == 1 and "after from" in bad.stderr
    misplaced = cli("tickets", "metrics", "--bucket", "week")
    assert misplaced.exit_code != 0 and "go with --history" in misplaced.stderr
