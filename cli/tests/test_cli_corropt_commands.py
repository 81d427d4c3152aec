"""`lightpath corropt check|optimize|switch-local`: offline on files, the engine called directly (no server)."""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path
from typing import Any

import pytest
from cli_testing import FIXTURE_DATA, Cli

SUMMARY_KEYS = [
    "command",
    "fabric",
    "capacity",
    "penalty_function",
    "share",
    "corrupting",
    "candidates",
    "disabled",
    "kept",
    "skipped",
    "total_penalty",
    "remaining_penalty",
    "remaining_penalty_lower_bound",
    "proven_optimal",
    "worst_tor",
    "tors_below_threshold",
    "tors_below_threshold_before",
]
DECISION_KEYS = [
    "link",
    "name",
    "loss_rate",
    "loss_rate_down",
    "penalty",
    "state",
    "action",
    "disabled",
    "refusal",
    "blocking_tors",
    "blocking_switch",
]


def figure_3_10_document() -> dict[str, Any]:
    """CorrOpt Figure 3.10: ToR T -> fabric switches A..E -> spines S0..S4 (T has 25 paths, c = 0.6).

    Links 0-4 are T -> A..E; link 5 + 5 * x + j is the x-th fabric switch -> spine j, written spine first
    (the lower tier is the lower end whatever the a/b order).
    """
    switches = [{"name": "T", "tier": 0, "pod": 0, "capacity_constraint": None}]
    switches += [{"name": x, "tier": 1, "pod": 0} for x in "ABCDE"]
    switches += [{"name": f"S{j}", "tier": 2} for j in range(5)]
    links = [{"a": "T", "a_port": f"up{i}", "b": x, "b_port": "down0"} for i, x in enumerate("ABCDE")]
    links += [
        {"a": f"S{j}", "a_port": f"down{i}", "b": x, "b_port": f"up{j}", "admin_state": "enabled", "oper_state": "up"}
        for i, x in enumerate("ABCDE")
        for j in range(5)
    ]
    return {
        "format": "lightpath-fabric/1",
        "name": "figure-3-10",
        "tiers": ["tor", "fabric", "spine"],
        "capacity_constraint": 0.6,
        "switches": switches,
        "links": links,
    }


# The 16 corrupting links: T->D and T->E at 2e-4; T->A, T->B, all of A's and B's up-links and two of C's
# at 1e-4. Links are named either way round and by index.
FIGURE_3_10_CORRUPTING = (
    ["link,loss_rate", "T:up3-D:down0,2e-4", "E:down0-T:up4,2e-4", "0,1e-4", "T:up1-B:down0,1e-4"]
    + [f"{x}:up{j}-S{j}:down{i},1e-4" for i, x in ((0, "A"), (1, "B")) for j in range(5)]
    + [f"S{j}:down2-C:up{j},0.0001" for j in range(2)]
)


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    fabric = tmp_path / "fabric.json"
    fabric.write_text(json.dumps(figure_3_10_document(), indent=2))
    corrupting = tmp_path / "corrupting.csv"
    corrupting.write_text("\n".join(FIGURE_3_10_CORRUPTING) + "\n")
    return {"fabric": fabric, "corrupting": corrupting, "dir": tmp_path}


def corropt(cli: Cli, command: str, files: dict[str, Path], *extra: str) -> dict[str, Any]:
    args = ["corropt", command, "--fabric", str(files["fabric"]), "--corrupting", str(files["corrupting"])]
    result = cli(*args, *extra, "--output", "json")
    assert result.exit_code == 0, result.stderr
    report: dict[str, Any] = json.loads(result.stdout)
    return report


def test_switch_local_with_share_c_leaves_the_tor_9_of_25_paths(cli: Cli, files: dict[str, Path]) -> None:
    report = corropt(cli, "switch-local", files, "--share", "0.6")
    summary = report["summary"]
    assert summary["disabled"] == 8
    assert summary["worst_tor"] == {
        "name": "T",
        "paths": 9,
        "design_paths": 25,
        "required_paths": 15,
        "fraction": pytest.approx(0.36),
    }
    assert summary["tors_below_threshold"] == ["T"]
    refused = [d for d in report["decisions"] if not d["disabled"]]
    # Each refusal names the switch whose up-link allowance is used up.
    assert {d["refusal"] for d in refused} == {"switch_allowance"}
    assert {d["blocking_switch"] for d in refused} == {"T", "A", "B"}


def test_switch_local_default_share_is_sqrt_c_and_disables_only_4(cli: Cli, files: dict[str, Path]) -> None:
    summary = corropt(cli, "switch-local", files)["summary"]
    assert summary["share"] == pytest.approx(0.6**0.5)
    assert summary["disabled"] == 4
    assert summary["tors_below_threshold"] == []


def test_optimizer_disables_12_and_meets_c(cli: Cli, files: dict[str, Path]) -> None:
    report = corropt(cli, "optimize", files)
    summary = report["summary"]
    assert summary["disabled"] == 12 and summary["kept"] == 4
    assert summary["proven_optimal"] is True
    assert summary["remaining_penalty"] == pytest.approx(6e-4)
    assert summary["remaining_penalty_lower_bound"] == summary["remaining_penalty"]
    assert summary["worst_tor"]["paths"] == 15 and summary["worst_tor"]["fraction"] >= 0.6
    assert summary["tors_below_threshold"] == []
    kept = [d for d in report["decisions"] if d["action"] == "keep"]
    assert {d["name"] for d in kept} == {"T:up3-D:down0", "T:up4-E:down0", "S0:down2-C:up0", "S1:down2-C:up1"}
    # A kept link is one the ToR could not lose on top of the optimum.
    assert all(d["blocking_tors"] == ["T"] and d["refusal"] == "tor_capacity" for d in kept)


def test_fast_checker_takes_the_worst_links_first(cli: Cli, files: dict[str, Path]) -> None:
    report = corropt(cli, "check", files)
    first = report["decisions"][:3]
    assert [(d["name"], d["disabled"]) for d in first] == [
        ("T:up3-D:down0", True),
        ("T:up4-E:down0", True),
        ("T:up0-A:down0", False),
    ]
    assert first[2]["blocking_tors"] == ["T"]
    assert report["summary"]["disabled"] == 2
    assert report["summary"]["proven_optimal"] is None


def test_json_shape_is_stable(cli: Cli, files: dict[str, Path]) -> None:
    for command in ("check", "optimize", "switch-local"):
        report = corropt(cli, command, files)
        assert list(report) == ["summary", "decisions"]
        assert list(report["summary"]) == SUMMARY_KEYS
        assert len(report["decisions"]) == 16
        for decision in report["decisions"]:
            assert list(decision) == DECISION_KEYS
            assert decision["action"] in ("disable", "keep")
            assert decision["disabled"] == (decision["action"] == "disable")
    assert report["summary"]["command"] == "switch-local"
    assert report["summary"]["fabric"] == "figure-3-10"
    assert report["summary"]["capacity"] == 0.6


def test_csv_has_one_row_per_decision(cli: Cli, files: dict[str, Path]) -> None:
    args = ["corropt", "optimize", "--fabric", str(files["fabric"]), "--corrupting", str(files["corrupting"])]
    result = cli(*args, "--output", "csv")
    assert result.exit_code == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert list(rows[0]) == DECISION_KEYS
    assert len(rows) == 16
    assert sum(row["disabled"] == "true" for row in rows) == 12
    assert {row["blocking_tors"] for row in rows if row["action"] == "keep"} == {"T"}


def test_table_output_ends_with_a_summary(cli: Cli, files: dict[str, Path]) -> None:
    args = ["corropt", "optimize", "--fabric", str(files["fabric"]), "--corrupting", str(files["corrupting"])]
    result = cli("--output", "table", *args)
    assert result.exit_code == 0, result.stderr
    assert "T:up3-D:down0" in result.stdout
    assert "12 disabled, 4 kept, 0 skipped of 16 corrupting links" in result.stdout
    assert "proven optimal" in result.stdout
    assert "worst ToR T: 15/25 paths" in result.stdout


def test_capacity_option_and_per_tor_override(cli: Cli, files: dict[str, Path]) -> None:
    # --capacity wins over the document's 0.6: with 0.2, T needs 5 of 25 paths.
    assert corropt(cli, "optimize", files, "--capacity", "0.2")["summary"]["disabled"] == 14
    doc = figure_3_10_document()
    doc["switches"][0]["capacity_constraint"] = 1.0  # T may lose nothing, whatever the default
    files["fabric"].write_text(json.dumps(doc))
    summary = corropt(cli, "optimize", files, "--capacity", "0.2")["summary"]
    assert summary["disabled"] == 0
    assert summary["worst_tor"]["required_paths"] == 25


def test_link_states_from_the_document_and_the_state_file(cli: Cli, files: dict[str, Path]) -> None:
    doc = figure_3_10_document()
    doc["links"][3]["admin_state"] = "disabled"  # T->D already disabled
    doc["links"][4]["oper_state"] = "down"  # T->E down
    files["fabric"].write_text(json.dumps(doc))
    state = files["dir"] / "state.json"
    state.write_text(json.dumps({"links": {"5": "down", "S1:down0-A:up1": "disabled", "T:up0-A:down0": "enabled"}}))
    report = corropt(cli, "check", files, "--state", str(state))
    by_name = {d["name"]: d for d in report["decisions"]}
    skipped = {name: d["state"] for name, d in by_name.items() if d["action"] == "skip"}
    assert skipped == {
        "T:up3-D:down0": "disabled",
        "T:up4-E:down0": "down",
        "S0:down0-A:up0": "down",
        "S1:down0-A:up1": "disabled",
    }
    assert report["summary"]["skipped"] == 4 and report["summary"]["candidates"] == 12
    # T has 3 * 5 = 15 paths left and needs 15 of 25: it can lose nothing more.
    assert report["summary"]["disabled"] == 0


@pytest.mark.parametrize("command", ["check", "optimize"])
def test_both_directions_cost_two_penalties_not_one_summed_rate(cli: Cli, files: dict[str, Path], command: str) -> None:
    """T keeps 15 of its 25 paths at c = 0.6: two of its five up-links may go.

    T->A corrupts at 1e-5 both ways, T->B and T->C at 1e-4 one way. With log penalties T->A costs
    2 * log10(1001) ~ 6 > 4 and goes; written as one summed rate (2e-5, log 3.3) it would stay."""
    files["corrupting"].write_text(
        "link,loss_rate,loss_rate_down\nT:up0-A:down0,1e-5,1e-5\nT:up1-B:down0,1e-4,\nT:up2-C:down0,0,1e-4\n"
    )
    report = corropt(cli, command, files, "--penalty", "log")
    pair_linear = corropt(cli, command, files)["decisions"]
    disabled = sorted(d["name"] for d in report["decisions"] if d["disabled"])
    assert disabled[0] == "T:up0-A:down0" and len(disabled) == 2
    a = next(d for d in report["decisions"] if d["name"] == "T:up0-A:down0")
    assert (a["loss_rate"], a["loss_rate_down"]) == (1e-5, 1e-5)
    assert a["penalty"] == pytest.approx(2 * math.log10(1001))
    assert report["summary"]["remaining_penalty"] == pytest.approx(4.0, rel=1e-4)

    files["corrupting"].write_text("link,loss_rate\nT:up0-A:down0,2e-5\nT:up1-B:down0,1e-4\nT:up2-C:down0,1e-4\n")
    summed = corropt(cli, command, files, "--penalty", "log")
    assert sorted(d["name"] for d in summed["decisions"] if d["disabled"]) == ["T:up1-B:down0", "T:up2-C:down0"]
    # Linear: both forms are the same (2e-5 < 1e-4): T->B and T->C go.
    linear = {d["name"]: d["disabled"] for d in pair_linear}
    assert linear == {d["name"]: d["disabled"] for d in corropt(cli, command, files)["decisions"]}
    assert linear == {"T:up0-A:down0": False, "T:up1-B:down0": True, "T:up2-C:down0": True}


def test_time_budget_gives_an_answer_with_a_bound(cli: Cli, files: dict[str, Path]) -> None:
    summary = corropt(cli, "optimize", files, "--time-budget", "0")["summary"]
    assert summary["remaining_penalty_lower_bound"] <= summary["remaining_penalty"]
    assert summary["tors_below_threshold"] == []


def run_bad(cli: Cli, files: dict[str, Path], command: str = "check", *extra: str) -> tuple[int, str]:
    args = ["corropt", command, "--fabric", str(files["fabric"]), "--corrupting", str(files["corrupting"])]
    result = cli(*args, *extra)
    assert result.stdout == ""
    return result.exit_code, result.stderr


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ([], "corrupting.csv: empty file, expected the header 'link,loss_rate' or 'link,loss_rate,loss_rate_down'"),
        (
            ["link,rate", "0,1e-4"],
            "corrupting.csv line 1: expected the header 'link,loss_rate' or 'link,loss_rate,loss_rate_down', "
            "got 'link,rate'",
        ),
        (
            ["link,loss_rate,loss_rate_down", "0,1e-4"],
            "corrupting.csv line 2: expected 3 fields (link,loss_rate,loss_rate_down), got 2",
        ),
        (
            ["link,loss_rate,loss_rate_down", "0,1e-4,much"],
            "corrupting.csv line 2: downward loss rate 'much' is not a number",
        ),
        (
            ["link,loss_rate,loss_rate_down", "0,1e-4,-1"],
            "corrupting.csv line 2: downward loss rate -1 is not a fraction in [0, 1]",
        ),
        (["link,loss_rate", "0,1e-4", "x:1-y:2,1e-6"], "corrupting.csv line 3: unknown link 'x:1-y:2'"),
        (["link,loss_rate", "0,1e-4", "", "99,1e-6"], "corrupting.csv line 4: unknown link '99'"),
        (["link,loss_rate", "0,lots"], "corrupting.csv line 2: loss rate 'lots' is not a number"),
        (["link,loss_rate", "0,1.5"], "corrupting.csv line 2: loss rate 1.5 is not a fraction in [0, 1]"),
        (["link,loss_rate", "0,nan"], "corrupting.csv line 2: loss rate nan is not a fraction in [0, 1]"),
        (["link,loss_rate", "0"], "corrupting.csv line 2: expected 2 fields (link,loss_rate), got 1"),
        (
            ["link,loss_rate", "0,1e-4", "1,1e-4", "T:up0-A:down0,1e-5"],
            "corrupting.csv line 4: link 'T:up0-A:down0' is already listed on line 2",
        ),
    ],
)
def test_bad_corrupting_file(cli: Cli, files: dict[str, Path], lines: list[str], message: str) -> None:
    files["corrupting"].write_text("\n".join(lines) + ("\n" if lines else ""))
    code, stderr = run_bad(cli, files)
    assert code == 1
    assert stderr == f"error: {files['dir'] / message}\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"links": {\n  "0": "down",\n  "x:1-y:2": "down"\n}}', "state.json line 3: unknown link 'x:1-y:2'"),
        (
            '{"links": {\n  "T:up0-A:down0": "up"\n}}',
            "state.json line 2: link 'T:up0-A:down0': state 'up' is not 'enabled', 'disabled' or 'down'",
        ),
        (
            '{"links": {\n  "0": "down",\n}}',
            "state.json line 3: not valid JSON: Expecting property name enclosed in double quotes",
        ),
        ('{"0": "down"}', 'state.json: expected {"links": {"<link>": "enabled|disabled|down"}}'),
    ],
)
def test_bad_state_file(cli: Cli, files: dict[str, Path], text: str, message: str) -> None:
    state = files["dir"] / "state.json"
    state.write_text(text)
    code, stderr = run_bad(cli, files, "check", "--state", str(state))
    assert code == 1
    assert stderr.startswith(f"error: {files['dir'] / message}")
    assert stderr.count("\n") == 1


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda doc: doc["links"][7].update(b="Z"), "links[7].b: unknown switch 'Z'"),
        (
            # Every problem is listed: S0's port down0 is link 5's too.
            lambda doc: doc["links"][0].update(b="S0"),
            "links[0]: 'T' and 'S0' are not on adjacent tiers; links[5].a_port: port S0:down0 is already used by link 0",
        ),
        (lambda doc: doc["switches"][1].update(tier=3), "switches[1].tier: 3 is not a tier index in 0..2"),
        (
            # B is renamed away, so its six links name an unknown switch too.
            lambda doc: doc["switches"][2].update(name="A"),
            "switches[2].name: duplicate switch name 'A'; "
            + "; ".join(f"links[{i}].b: unknown switch 'B'" for i in (1, 10, 11, 12, 13, 14)),
        ),
        (
            lambda doc: doc["switches"][0].update(capacity_constraint=75),
            "switches[0].capacity_constraint: 75 is not a fraction in [0, 1]",
        ),
        (
            lambda doc: doc["links"][2].update(oper_state="flapping"),
            "links[2].oper_state: 'flapping' is not 'up' or 'down'",
        ),
    ],
)
def test_bad_fabric_document(cli: Cli, files: dict[str, Path], change: Any, message: str) -> None:
    doc = figure_3_10_document()
    change(doc)
    files["fabric"].write_text(json.dumps(doc))
    code, stderr = run_bad(cli, files)
    assert code == 1
    assert stderr == f"error: {files['fabric']}: {message}\n"


def test_fabric_that_is_not_json_names_the_line(cli: Cli, files: dict[str, Path]) -> None:
    files["fabric"].write_text('{\n  "name": "x",\n  "tiers": [tor]\n}')
    code, stderr = run_bad(cli, files)
    assert code == 1
    assert stderr.startswith(f"error: {files['fabric']} is not valid JSON: Expecting value at line 3")


def test_missing_file(cli: Cli, files: dict[str, Path]) -> None:
    files["corrupting"].unlink()
    code, stderr = run_bad(cli, files)
    assert code == 1
    assert stderr == f"error: cannot read {files['corrupting']}: No such file or directory\n"


def test_engine_errors_come_back_as_one_line(cli: Cli, tmp_path: Path) -> None:
    # 65 tiers of two switches, fully meshed between neighbours: a ToR has 2**64 up-paths,
    # one more than the engine's counters hold, so the engine itself refuses.
    tiers = 65
    switches = [{"name": f"s{t}-{i}", "tier": t} for t in range(tiers) for i in range(2)]
    links = [
        {"a": f"s{t}-{i}", "a_port": f"up{j}", "b": f"s{t + 1}-{j}", "b_port": f"down{i}"}
        for t in range(tiers - 1)
        for i in range(2)
        for j in range(2)
    ]
    document = {"name": "deep", "tiers": [f"t{t}" for t in range(tiers)], "switches": switches, "links": links}
    fabric = tmp_path / "deep.json"
    fabric.write_text(json.dumps(document))
    corrupting = tmp_path / "corrupting.csv"
    corrupting.write_text("link,loss_rate\n0,1e-5\n")
    result = cli("corropt", "check", "--fabric", str(fabric), "--corrupting", str(corrupting))
    assert result.exit_code == 1
    assert result.stderr.startswith("error: ") and len(result.stderr.splitlines()) == 1
    assert result.stderr == "error: the number of up-paths of switch 0 exceeds 18446744073709551615 (64-bit overflow)\n"


@pytest.mark.parametrize(
    "extra",
    [
        ("--capacity", "1.5"),
        ("--penalty", "square"),
        ("--share", "0.5"),  # switch-local only
        ("--time-budget", "1"),  # optimize only
    ],
)
def test_usage_errors_exit_2(cli: Cli, files: dict[str, Path], extra: tuple[str, str]) -> None:
    code, _ = run_bad(cli, files, "check", *extra)
    assert code == 2


def test_negative_time_budget_is_a_usage_error(cli: Cli, files: dict[str, Path]) -> None:
    code, _ = run_bad(cli, files, "optimize", "--time-budget", "-1")
    assert code == 2


def test_a_generated_fixture_document(cli: Cli, tmp_path: Path) -> None:
    """fixtures/data/fat-tree-k4.json: each ToR has 2 x 2 = 4 paths and needs 3 at the document's 0.75.

    The CSV comes from a spreadsheet: byte-order mark and CRLF line ends."""
    corrupting = tmp_path / "corrupting.csv"
    corrupting.write_bytes(
        "\ufefflink,loss_rate\r\n"
        "p0-tor0:eth2/1-p0-agg0:eth1/1,1e-3\r\n"
        "16,1e-4\r\n"
        "core1:eth1/1-p0-agg0:eth2/2,2e-4\r\n"
        "p0-agg1:eth2/1-core2:eth1/1,1e-5\r\n".encode()
    )
    files = {"fabric": FIXTURE_DATA / "fat-tree-k4.json", "corrupting": corrupting}
    check = corropt(cli, "check", files)
    assert [(d["link"], d["disabled"], d["blocking_tors"]) for d in check["decisions"]] == [
        (0, False, ["p0-tor0"]),
        (17, True, []),
        (16, False, ["p0-tor0", "p0-tor1"]),
        (18, False, ["p0-tor0", "p0-tor1"]),
    ]
    summary = corropt(cli, "optimize", files)["summary"]
    assert summary["capacity"] == 0.75 and summary["fabric"] == "fat-tree-k4"
    assert summary["disabled"] == 1 and summary["proven_optimal"]
    assert summary["remaining_penalty"] == pytest.approx(1e-3 + 1e-4 + 1e-5)


def test_a_links_csv_is_not_a_fabric(cli: Cli, files: dict[str, Path]) -> None:
    files["fabric"] = files["corrupting"]
    code, stderr = run_bad(cli, files)
    assert code == 1
    assert stderr == (
        f"error: {files['corrupting']}: a links CSV has no switches or tiers; "
        "--fabric-file needs a JSON interchange document\n"
    )


def test_a_document_without_tiers_or_ports_reads_offline(cli: Cli, files: dict[str, Path]) -> None:
    """A newcomer's document: switches with tier indices, links by switch names. Offline CorrOpt uses
    neither tier names nor ports, so it infers the first and names links `a-b` (issue #20)."""
    doc = figure_3_10_document()
    doc.pop("tiers")
    for link in doc["links"]:
        link.pop("a_port")
        link.pop("b_port")
    files["fabric"].write_text(json.dumps(doc))
    files["corrupting"].write_text("link,loss_rate\nT-D,2e-4\nE-T,2e-4\n0,1e-4\n")
    report = corropt(cli, "optimize", files)
    # T keeps 15 of its 25 paths (c = 0.6): two of its uplinks can go, the two worst.
    assert sorted(d["name"] for d in report["decisions"] if d["disabled"]) == ["T-D", "T-E"]
    assert report["summary"]["worst_tor"]["design_paths"] == 25


def test_every_problem_of_a_document_on_one_line(cli: Cli, files: dict[str, Path]) -> None:
    doc = figure_3_10_document()
    doc["switches"][1]["tier"] = 7
    doc["links"][2]["b"] = "Z"
    doc["links"][3]["oper_state"] = "flapping"
    files["fabric"].write_text(json.dumps(doc))
    code, stderr = run_bad(cli, files)
    assert code == 1
    assert stderr == (
        f"error: {files['fabric']}: switches[1].tier: 7 is not a tier index in 0..2; "
        "links[2].b: unknown switch 'Z'; links[3].oper_state: 'flapping' is not 'up' or 'down'\n"
    )


def test_tors_already_short_before_any_decision_are_named_as_such(cli: Cli, files: dict[str, Path]) -> None:
    """Down links in the input leave T with 10 of 25 paths (needs 15) before CorrOpt decides anything:
    the summary must not read as if the decisions starved it (issue #20)."""
    state = files["dir"] / "state.json"
    state.write_text(json.dumps({"links": {"0": "down", "1": "down", "T:up2-C:down0": "down"}}))
    report = corropt(cli, "optimize", files, "--state", str(state))
    assert report["summary"]["tors_below_threshold"] == ["T"]
    assert report["summary"]["tors_below_threshold_before"] == ["T"]
    table = cli(
        "corropt",
        "optimize",
        "--fabric-file",
        str(files["fabric"]),
        "--corrupting",
        str(files["corrupting"]),
        "--state",
        str(state),
    )
    assert table.exit_code == 0, table.stderr
    assert (
        "1 ToR below threshold: T (all already below before anything was disabled: links down or disabled "
        "in the input)" in table.stdout
    )
