"""One option name per idea: --help shows the chosen name only; the old spelling still works (hidden).

--constraint (was --capacity, offline), --accuracy (was --fix-probability, offline), --hours (also
--duration), --rack-set (also --cables). The server API's names won: constraint, accuracies, hours,
rack_set. Offline, no server needed.
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
