"""Usage errors: a mistake in the command line exits 2 with one `error:` line on stderr and nothing on
stdout, before anything runs (offline; the commands that talk to a server are stopped before they try
the closed port the test configuration points at)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from cli_testing import FIXTURE_DATA, Cli

FABRIC = str(FIXTURE_DATA / "fat-tree-k4.json")
SIZE = ("sharebackup", "size", "--mtbf-hours", "50000", "--mttr-hours", "24", "--target", "1e-6")


@pytest.fixture
def demand(tmp_path: Path) -> str:
    path = tmp_path / "demand.csv"
    path.write_text("src,dst,bytes,window_start\n0,1,5000000,0\n2,3,4000000,1\n")
    return str(path)


# The checks the CLI makes itself, once exit 1 (issue #17): each with the start of its one line.
CLI_CHECKS = [
    (("rail", "plan", "--k", "5"), "error: --k: k must be an even number >= 2, got 5"),
    (("rail", "plan"), "error: give either --fabric-file FABRIC.json or --k K"),
    (("rail", "plan", "--k", "4", "--price", "oops"), "error: --price: expected NAME=USD"),
    (("rail", "plan", "--k", "4", "--sweep-step", "0"), "error: --sweep-step must be positive"),
    (("rail", "classes", "--fabric-file", FABRIC, "--bounds", "x"), "error: --bounds: 'x' is not a comma-separated"),
    ((*SIZE, "--k", "5"), "error: --k must be even and at least 2, got 5"),
    ((*SIZE, "--k", "4", "--pods", "5"), "error: --pods must be between 1 and k = 4, got 5"),
    (("sharebackup", "size", "--target", "1e-6"), "error: offline sizing needs --mtbf-hours and --mttr-hours"),
    (("larry", "check", "--uplinks", "3,x"), "error: --uplinks: '3,x' is not a comma-separated list"),
    (("larry", "check", "--uplinks=-1,2"), "error: --uplinks: counts must not be negative"),
    (("larry", "check", "--uplinks", "1,1,1", "--racks", "3", "--circuit-links", "4"), "error: --circuit-links (4)"),
    (("larry", "check", "--uplinks", "1,1", "--output", "csv"), "error: --output csv is not available here"),
    (("larry", "run", "--counters", "c.json", "--policy", "x"), "error: --policy must be one of"),
    (("circuits", "plan", "--demand", "{demand}", "--racks", "4", "--period", "0"), "error: --period must be positive"),
    (("circuits", "plan", "--demand-id", "3"), "error: --demand-id need a FABRIC on the server"),
    (("circuits", "plan", "--racks", "4"), "error: offline planning needs --demand FILE and --racks N"),
    (("circuits", "plan", "--demand", "{demand}", "--racks", "4", "--dark-time", "2"), "error: --dark-time must be"),
    (("circuits", "plan", "--demand", "{demand}", "--racks", "4", "--unavailable", "9"), "error: --unavailable: racks"),
    (("circuits", "plan", "somefabric", "--demand-id", "1", "--racks", "4"), "error: --racks are offline options"),
    (("circuits", "plan", "somefabric"), "error: with FABRIC give exactly one of --demand-id N or --demand FILE"),
    (("circuits", "plan", "somefabric", "--demand-id", "1", "--zone", "0", "--circuit-switch", "x"), "error: give"),
    (("tickets", "show", "abc"), "error: 'abc' is not a ticket id (a number)"),
    (("tickets", "metrics", "--bucket", "week"), "error: --from, --to and --bucket go with --history"),
    (("webhooks", "test", "abc"), "error: 'abc' is not a webhook endpoint id (a number)"),
]


@pytest.mark.parametrize(("args", "start"), CLI_CHECKS, ids=[" ".join(args[:3]) for args, _ in CLI_CHECKS])
def test_a_mistake_in_the_command_line_exits_2_in_one_line(
    cli: Cli, demand: str, args: tuple[str, ...], start: str
) -> None:
    result = cli(*(demand if arg == "{demand}" else arg for arg in args))
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(start), result.stderr
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert result.stdout == ""


def test_what_the_engine_refuses_still_exits_1(cli: Cli) -> None:
    """The command line parsed and passed the CLI's checks; the engine's verdict is not a usage error."""
    result = cli("rail", "plan", "--k", "4", "--nrb", "1.5")
    assert result.exit_code == 1 and result.stderr.startswith("error: nrb: 1.5 is not a fraction")


# What typer finds while parsing: once click's block ("Usage: ...", "Try ... for help.", "Error: ..."), now
# one line in the CLI's own format, naming the command's help.
PARSE_ERRORS = [
    (("tickets", "show"), "error: missing argument 'ID' (see 'lightpath tickets show --help')"),
    (("fixtures", "fat-tree"), "error: missing option '--k' (see 'lightpath fixtures fat-tree --help')"),
    (
        ("fixtures", "fat-tree", "--k", "4", "--format", "yaml"),
        "error: invalid value for '--format': 'yaml' is not one of 'json', 'csv' "
        "(see 'lightpath fixtures fat-tree --help')",
    ),
    # typer's checks said in plain words, not the validator's ("Input should be greater than or equal to 1")
    (
        ("tickets", "list", "--limit", "0"),
        "error: invalid value for '--limit': must be at least 1 (see 'lightpath tickets list --help')",
    ),
    (
        ("tickets", "list", "--limit", "many"),
        "error: invalid value for '--limit': must be a whole number (see 'lightpath tickets list --help')",
    ),
    (
        ("links", "at-risk", "--fabric", "f", "--horizon-days", "soon"),
        "error: invalid value for '--horizon-days': must be a number (see 'lightpath links at-risk --help')",
    ),
    (
        ("links", "at-risk", "--fabric", "f", "--horizon-days", "400"),
        "error: invalid value for '--horizon-days': must be at most 365 (see 'lightpath links at-risk --help')",
    ),
    (("rail", "plan", "--bogus"), "error: no such option: --bogus (see 'lightpath rail plan --help')"),
    (("corropt", "nosuch"), "error: no such command 'nosuch' (see 'lightpath corropt --help')"),
    (("--bogus", "fabric", "list"), "error: no such option: --bogus (see 'lightpath --help')"),
    (
        ("rail", "plan", "--k", "4", "--fat-tree", "4"),
        "error: invalid value for '--k': give it once (--fat-tree is its old spelling) "
        "(see 'lightpath rail plan --help')",
    ),
]


@pytest.mark.parametrize(("args", "line"), PARSE_ERRORS, ids=[" ".join(args) for args, _ in PARSE_ERRORS])
def test_a_parse_error_is_one_line_with_exit_2(cli: Cli, args: tuple[str, ...], line: str) -> None:
    result = cli(*args)
    assert (result.exit_code, result.stderr, result.stdout) == (2, line + "\n", "")


def test_a_bad_global_option_from_the_environment_is_one_line(cli: Cli) -> None:
    result = cli("fabric", "list", env={"LIGHTPATH_OUTPUT": "yaml"})
    assert result.exit_code == 2
    assert result.stderr.startswith("error: invalid value for '--output' (env var: 'LIGHTPATH_OUTPUT'): ")
    assert len(result.stderr.splitlines()) == 1


def test_a_group_without_its_command_still_prints_its_help(cli: Cli) -> None:
    result = cli("rail")
    assert result.exit_code == 2
    assert "Usage: lightpath rail [OPTIONS] COMMAND [ARGS]..." in result.output and "plan" in result.output
    assert "error:" not in result.output


def test_the_installed_entry_point_prints_one_line(tmp_path: Path) -> None:
    """The same from the installed `lightpath` command (a real process and its exit status)."""
    result = subprocess.run(
        [str(Path(sys.executable).parent / "lightpath"), "corropt", "trace", "--hours", "1"],
        capture_output=True,
        text=True,
        env={"PATH": "", "LIGHTPATH_CONFIG": str(tmp_path / "config.toml")},
        timeout=60,
    )
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == "error: missing option '--mttf-hours' (see 'lightpath corropt trace --help')\n"
