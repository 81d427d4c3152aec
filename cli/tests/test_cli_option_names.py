"""One option name per idea: --help shows the chosen name only; the old spelling still works (hidden).

--constraint (was --capacity, offline), --accuracy (was --fix-probability, offline), --hours (also
--duration), --rack-set (also --cables), --k (a fat tree's radix, also --fabric-k and --fat-tree). The
server API's names won: constraint, accuracies, hours, rack_set, k. An interchange document is
--fabric-file (also --fabric, where that named a document). Offline, no server needed.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from cli_testing import FIXTURE_DATA, Cli

FABRIC = FIXTURE_DATA / "fat-tree-k4.json"  # capacity_constraint 0.75; a ToR has 2 up-links and 4 paths


def help_text(cli: Cli, *command: str) -> str:
    result = cli(*command, "--help")
    assert result.exit_code == 0, result.output
    return result.stdout


def option_named(name: str, text: str) -> bool:
    """Whether `name` appears as an option (not as the start of a longer one, like --capacity-gbps)."""
    return re.search(rf"{re.escape(name)}(?![\w-])", text) is not None


@pytest.mark.parametrize(
    ("command", "chosen", "old"),
    [
        (("corropt", "check"), "--constraint", "--capacity"),
        (("corropt", "optimize"), "--constraint", "--capacity"),
        (("corropt", "switch-local"), "--constraint", "--capacity"),
        (("corropt", "simulate"), "--constraint", "--capacity"),
        (("corropt", "simulate"), "--accuracy", "--fix-probability"),
        (("corropt", "simulate"), "--hours", "--duration"),
        (("larry", "check"), "--rack-set", "--cables"),
        (("larry", "run"), "--rack-set", "--cables"),
        (("sharebackup", "plan"), "--k", "--fabric-k"),
        (("sharebackup", "size"), "--k", "--fabric-k"),
        (("larry", "cost"), "--k", "--fabric-k"),
        (("rail", "plan"), "--k", "--fat-tree"),
        (("fixtures", "fat-tree"), "--k", "--fabric-k"),
        (("larry", "run"), "--period", "--period-s"),
    ],
)
def test_help_shows_one_name(cli: Cli, command: tuple[str, ...], chosen: str, old: str) -> None:
    text = help_text(cli, *command)
    assert option_named(chosen, text)
    assert not option_named(old, text)


@pytest.fixture
def corrupting(tmp_path: Path) -> Path:
    """Both up-links of p0-tor0 corrupt: at 0.75 neither may go (2 of 4 paths left), at 0.2 one may."""
    path = tmp_path / "corrupting.csv"
    path.write_text("link,loss_rate\n0,1e-3\n1,1e-4\n")
    return path


def corropt_json(cli: Cli, *args: str) -> Any:
    result = cli("corropt", *args, "--output", "json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.parametrize("command", ["check", "optimize", "switch-local"])
def test_constraint_and_its_old_spelling_decide_alike(cli: Cli, corrupting: Path, command: str) -> None:
    files = ("--fabric", str(FABRIC), "--corrupting", str(corrupting))
    default = corropt_json(cli, command, *files)
    chosen = corropt_json(cli, command, *files, "--constraint", "0.2")
    old = corropt_json(cli, command, *files, "--capacity", "0.2")
    assert default["summary"]["capacity"] == 0.75 and chosen["summary"]["capacity"] == 0.2
    assert chosen == old
    if command != "switch-local":  # switch-local ignores the ToRs' constraints by design
        assert (default["summary"]["disabled"], chosen["summary"]["disabled"]) == (0, 1)
    both = cli("corropt", command, *files, "--constraint", "0.2", "--capacity", "0.3")
    assert both.exit_code == 2 and "give it once (--capacity is its old spelling)" in both.stderr


@pytest.fixture
def trace_file(cli: Cli, tmp_path: Path) -> Path:
    path = tmp_path / "trace.csv"
    result = cli("corropt", "trace", "--fabric", str(FABRIC), "--mttf-hours", "500", "--hours", "200", "-o", str(path))
    assert result.exit_code == 0, result.stderr
    return path


def test_offline_simulation_takes_the_server_names_once(cli: Cli, trace_file: Path) -> None:
    files = ("simulate", "--fabric", str(FABRIC), "--trace", str(trace_file), "--repair-delay-hours", "1")
    chosen = corropt_json(cli, *files, "--constraint", "0.5", "--accuracy", "0.6")
    old = corropt_json(cli, *files, "--capacity", "0.5", "--fix-probability", "0.6")
    assert chosen == old
    assert (chosen["settings"]["capacity"], chosen["settings"]["fix_probability"]) == (0.5, 0.6)
    twice = cli("corropt", *files, "--constraint", "0.5", "--constraint", "0.75")
    assert twice.exit_code == 2 and "'--constraint'" in twice.stderr and "runs once" in twice.stderr
    both = cli("corropt", *files, "--accuracy", "0.5", "--fix-probability", "0.6")
    assert both.exit_code == 2 and "--fix-probability is its old spelling" in both.stderr


def test_the_old_trace_length_spelling_is_still_a_server_option(cli: Cli, trace_file: Path) -> None:
    files = ("corropt", "simulate", "--fabric", str(FABRIC), "--trace", str(trace_file))
    for option in ("--hours", "--duration"):
        result = cli(*files, option, "100")
        assert result.exit_code == 2 and f"'{option}'" in result.stderr
        assert "applies only to a server simulation" in result.stderr
    both = cli("corropt", "simulate", "somefabric", "--hours", "100", "--duration", "100")
    assert both.exit_code == 2 and "--duration is its old spelling" in both.stderr


def test_rack_set_and_its_old_spelling_check_alike(cli: Cli, tmp_path: Path) -> None:
    rack_set = tmp_path / "rack-set.json"
    rack_set.write_text(
        json.dumps({"static_uplinks": 2, "cables": [[1], [1]], "cs_uplinks": [2], "capacity_gbps": 100.0})
    )
    answers = [
        cli("larry", "check", "--uplinks", "1,1", option, str(rack_set), "--output", "json")
        for option in ("--rack-set", "--cables")
    ]
    assert [answer.exit_code for answer in answers] == [0, 0]
    assert json.loads(answers[0].stdout) == json.loads(answers[1].stdout)
    assert json.loads(answers[0].stdout)["granted"] == [1, 1]


def json_of(cli: Cli, *args: str) -> Any:
    result = cli("--output", "json", *args)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_the_radix_and_its_old_spellings_answer_alike(cli: Cli) -> None:
    size = ("sharebackup", "size", "--mtbf-hours", "50000", "--mttr-hours", "24", "--target", "1e-6")
    sized = [json_of(cli, *size, option, "8") for option in ("--k", "--fabric-k")]
    assert sized[0] == sized[1] and sized[0]["groups"] == 20  # k = 8: 2 groups in each of 8 pods, 4 of cores
    assert json_of(cli, *size)["groups"] == 40  # the default k = 16
    costs = [json_of(cli, "larry", "cost", option, "8") for option in ("--k", "--fabric-k")]
    assert costs[0] == costs[1] != json_of(cli, "larry", "cost")
    plans = [json_of(cli, "rail", "plan", option, "4", "--no-stretch") for option in ("--k", "--fat-tree")]
    assert plans[0] == plans[1] and plans[0]["fabric"].startswith("fat tree k=4")
    both = cli("larry", "cost", "--k", "8", "--fabric-k", "8")
    assert both.exit_code == 2 and "give it once (--fabric-k is its old spelling)" in both.stderr


def test_a_sharebackup_plan_still_needs_the_radix(cli: Cli, tmp_path: Path) -> None:
    events = tmp_path / "events.json"
    events.write_text("[]")
    missing = cli("sharebackup", "plan", "--backups", "1", "--events", str(events))
    assert missing.exit_code == 2 and "'--k': missing: this option is required" in missing.stderr
    plans = [
        json_of(cli, "sharebackup", "plan", option, "4", "--backups", "1", "--events", str(events))
        for option in ("--k", "--fabric-k")
    ]
    assert plans[0] == plans[1] and plans[0]["fabric"]["k"] == 4


def test_the_control_period_is_a_server_option_by_either_name(cli: Cli, tmp_path: Path) -> None:
    counters = tmp_path / "counters.json"
    counters.write_text("[]")
    for option in ("--period", "--period-s"):
        result = cli("larry", "run", "--counters", str(counters), option, "60")
        assert result.exit_code == 2 and "'--period': applies only with --server" in result.stderr


# --fabric-file PATH: an interchange document; --fabric PATH is its hidden old spelling where it named one.


@pytest.fixture
def document_runs(tmp_path: Path, corrupting: Path, trace_file: Path) -> dict[str, tuple[list[str], list[str]]]:
    """Per document command: the words before the document option, and the ones after it."""
    from lightpath_fixtures.generators import fat_tree

    ten_g = tmp_path / "k4-10g.json"  # the seed's prices are for 10G parts
    ten_g.write_text(json.dumps(fat_tree(4, speed_gbps=10)))
    loss = tmp_path / "loss.csv"
    loss.write_text("link,loss_rate\n0,1e-5\n")
    decide = ["--corrupting", str(corrupting), "--output", "json"]
    return {
        "fixtures telemetry": (
            ["fixtures", "telemetry"],
            [str(FABRIC), "--hours", "1", "--start", "2026-11-22T10:00:00Z", "--format", "csv"],
        ),
        "rail plan": (["rail", "plan"], [str(ten_g), "--no-pair-stats", "--output", "json"]),
        "rail classes": (["rail", "classes"], [str(FABRIC), "--loss-rates", str(loss), "--output", "json"]),
        "corropt check": (["corropt", "check"], [str(FABRIC), *decide]),
        "corropt optimize": (["corropt", "optimize"], [str(FABRIC), *decide]),
        "corropt switch-local": (["corropt", "switch-local"], [str(FABRIC), *decide]),
        "corropt trace": (["corropt", "trace"], [str(FABRIC), "--mttf-hours", "500", "--hours", "200"]),
        "corropt simulate": (
            ["corropt", "simulate"],
            [str(FABRIC), "--trace", str(trace_file), "--repair-delay-hours", "1", "--output", "json"],
        ),
    }


DOCUMENT_COMMANDS = [
    "fixtures telemetry",
    "rail plan",
    "rail classes",
    "corropt check",
    "corropt optimize",
    "corropt switch-local",
    "corropt trace",
    "corropt simulate",
]


@pytest.mark.parametrize("command", DOCUMENT_COMMANDS)
def test_a_document_is_fabric_file_and_the_old_fabric_still_reads_it(
    cli: Cli, document_runs: dict[str, tuple[list[str], list[str]]], command: str
) -> None:
    words, rest = document_runs[command]
    new = cli(*words, "--fabric-file", *rest)
    old = cli(*words, "--fabric", *rest)
    assert new.exit_code == 0, new.stderr
    assert old.exit_code == 0, old.stderr
    assert new.stdout == old.stdout and new.stdout.strip()
    both = cli(*words, "--fabric-file", rest[0], "--fabric", *rest)
    assert both.exit_code == 2
    assert "'--fabric-file': give it once (--fabric is its old spelling)" in both.stderr


@pytest.mark.parametrize("command", DOCUMENT_COMMANDS)
def test_help_names_the_document_fabric_file(cli: Cli, command: str) -> None:
    text = help_text(cli, *command.split())
    assert "--fabric-file FABRIC.json" in text
    if command == "corropt check":  # --fabric NAME: the fabric of LINK on the server
        assert re.search(r"--fabric NAME\s+With LINK: the link's fabric on the server", text)
    else:
        assert not option_named("--fabric", text)
    assert not re.search(r"--fabric FABRIC\.json", text)


def test_a_document_command_without_a_document_names_fabric_file(cli: Cli, corrupting: Path) -> None:
    for words in (["corropt", "trace", "--mttf-hours", "1", "--hours", "1"], ["fixtures", "telemetry"]):
        result = cli(*words)
        assert result.exit_code == 2 and "'--fabric-file': missing: this option is required" in result.stderr
    offline = cli("corropt", "optimize", "--corrupting", str(corrupting))
    assert offline.exit_code == 2 and "offline needs --fabric-file FABRIC.json" in offline.stderr


def test_fabric_file_is_refused_beside_a_server_fabric(cli: Cli) -> None:
    for words in (
        ["corropt", "optimize", "somefabric"],
        ["corropt", "simulate", "somefabric"],
        ["rail", "plan", "somefabric"],
    ):
        result = cli(*words, "--fabric-file", str(FABRIC))
        assert result.exit_code == 2 and "--fabric-file FABRIC.json" in result.stderr and "not both" in result.stderr
    check = cli("corropt", "check", "p0-tor0:eth2/1", "--fabric-file", str(FABRIC))
    assert check.exit_code == 2 and "'--fabric-file': applies only offline" in check.stderr
