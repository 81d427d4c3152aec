"""`lightpath rail plan|classes|fec`: offline on files, the engine called directly (no server)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from cli_testing import Cli

from lightpath_fixtures.generators import fat_tree


def run_json(cli: Cli, *args: str) -> dict[str, Any]:
    result = cli("rail", *args, "--output", "json")
    assert result.exit_code == 0, result.output
    report: dict[str, Any] = json.loads(result.stdout)
    return report


def fails(cli: Cli, *args: str, exit_code: int = 1) -> str:
    result = cli("rail", *args)
    assert result.exit_code == exit_code
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


@pytest.fixture
def k4(tmp_path: Path) -> Path:
    """A 10G k = 4 fat tree: ToR uplinks 100 m (SR), aggregation-core links 400 m (LR unless stretched)."""
    doc = fat_tree(4, speed_gbps=10)
    for link in doc["links"]:
        link["length_m"] = 100.0 if link["a"].startswith("p") and "tor" in link["a"] else 400.0
    path = tmp_path / "k4.json"
    path.write_text(json.dumps(doc))
    return path


def link_name(doc_path: Path, index: int) -> str:
    link = json.loads(doc_path.read_text())["links"][index]
    return f"{link['a']}:{link['a_port']}-{link['b']}:{link['b_port']}"


def test_plan_reproduces_table_4_1_for_the_k32_fat_tree(cli: Cli) -> None:
    report = run_json(cli, "plan", "--fat-tree", "32", "--max-length", "500", "--no-stretch")
    lines = {line["item"]: line for line in report["baseline"]["lines"]}
    assert lines["10GBASE-SR"]["quantity"] == 19_660
    assert lines["10GBASE-LR"]["quantity"] == 13_108
    assert round(lines["MMF"]["quantity"] / 1000) == 1_475
    assert round(lines["SMF"]["quantity"] / 1000) == 2_621
    assert lines["ports"]["quantity"] == 32_768
    assert report["baseline"]["total_usd"] == pytest.approx(8_573_467.6)
    # The savings curves peak where the seed's Figure 4.13a does.
    peaks = {c["nrb"]: max(c["points"], key=lambda p: p[1])[0] for c in report["sweeps"] if c["nrb"]}
    assert peaks == {0.99: 480, 0.95: 580}
    text = cli("rail", "plan", "--fat-tree", "32", "--nrb", "0.95").stdout
    assert "$8.573M" in text and "$7.801M" in text and "savings 9.01%" in text
    assert "NRB 0.95: peak 9.60% at max length 580 m" in text


def test_plan_on_a_document_stretches_the_400_m_links_and_reports_the_good_paths(cli: Cli, k4: Path) -> None:
    report = run_json(cli, "plan", "--fabric", str(k4), "--nrb", "0.99", "--links")
    stretched = [link for link in report["links"] if link["stretched"]]
    assert len(stretched) == 16  # the aggregation-core links
    assert {(link["baseline"], link["plan"]) for link in stretched} == {("10GBASE-LR", "10GBASE-SR")}
    assert stretched[0]["name"] == link_name(k4, stretched[0]["link"])
    assert stretched[0]["p_good"] == pytest.approx(0.99**0.25)
    assert report["plan"]["total_usd"] < report["baseline"]["total_usd"]
    good = report["good_paths"]
    # Pod-mates never cross a stretched link; other pairs cross two of the four hops.
    assert good["worst_pair"]["fraction"] == pytest.approx(0.99**0.5)
    assert good["worst_pair"]["src_name"] == "p0-tor0"
    assert good["worst_pair"]["fraction"] >= 0.99
    no_stretch = run_json(cli, "plan", "--fabric", str(k4), "--no-stretch", "--no-pair-stats")
    assert no_stretch["savings"] == 0 and no_stretch["stretched_links"] == 0
    assert no_stretch["good_paths"] is None


def test_plan_errors_are_one_line(cli: Cli, k4: Path, tmp_path: Path) -> None:
    doc = fat_tree(4)  # 100G: prices unknown
    path = tmp_path / "100g.json"
    path.write_text(json.dumps(doc))
    message = fails(cli, "plan", "--fabric", str(path))
    assert "100G-SR4: price unknown" in message and "--price NAME=USD" in message
    priced = run_json(
        cli, "plan", "--fabric", str(path), "--price", "100G-SR4=99", "--price", "100G-PSM4=250",
        "--price", "100G-LR4=700",
    )  # fmt: skip
    assert priced["plan"]["total_usd"] <= priced["baseline"]["total_usd"]
    doc = json.loads(k4.read_text())
    del doc["links"][3]["length_m"]
    doc["links"][5]["length_m"] = "far"
    path.write_text(json.dumps(doc))
    message = fails(cli, "plan", "--fabric", str(path))
    assert "links[3]" in message and "links[5]" in message and "no length_m" in message
    # The command line's own mistakes are usage errors (exit 2); the engine's refusals exit 1.
    assert "give either --fabric" in fails(cli, "plan", exit_code=2)
    assert "--price: expected NAME=USD" in fails(cli, "plan", "--fat-tree", "4", "--price", "oops", exit_code=2)
    assert "nrb: 1.5 is not a fraction" in fails(cli, "plan", "--fat-tree", "4", "--nrb", "1.5")


def loss_csv(tmp_path: Path, rows: list[tuple[str, float, float]]) -> Path:
    path = tmp_path / "loss.csv"
    path.write_text("link,loss_rate,loss_rate_down\n" + "".join(f"{n},{u},{d}\n" for n, u, d in rows))
    return path


def test_classes_exclude_the_gray_link_from_class_1_and_send_the_worst_to_repair(
    cli: Cli, k4: Path, tmp_path: Path
) -> None:
    gray, bad = link_name(k4, 0), link_name(k4, 20)
    losses = loss_csv(tmp_path, [(gray, 1e-5, 1e-8), (bad, 0.3, 0.0)])
    report = run_json(cli, "classes", "--fabric", str(k4), "--loss-rates", str(losses))
    assert [r["name"] for r in report["repair"]] == [bad]
    first, second, third = report["classes"]
    assert gray not in first["link_names"] and gray in second["link_names"]
    assert bad not in third["link_names"]
    assert [r["name"] for r in first["removed"]] == [gray]
    assert second["worst"]["loss"] == pytest.approx(1e-5)  # up the gray link; its 1e-8 is the other way
    assert gray in [hop["name"] for hop in second["worst"]["hops"]]
    assert second["worst"]["src_name"] == "p0-tor0"
    # Without the gray link, p0-tor0 keeps half its paths in class 1.
    assert first["kept_paths"]["worst_pair"]["fraction"] == pytest.approx(0.5)
    assert second["fec"]["xor"] == 0 and second["fec"]["mean_overhead"] == 0
    exported = list(
        csv.DictReader(
            io.StringIO(
                cli("rail", "classes", "--fabric", str(k4), "--loss-rates", str(losses), "--output", "csv").stdout
            )
        )
    )
    assert {row["class"] for row in exported} == {"1", "2", "3"}
    assert sum(row["class"] == "1" for row in exported) == len(first["links"])
    table = cli("rail", "classes", "--fabric", str(k4), "--loss-rates", str(losses)).stdout
    assert "1 to repair" in table


def test_classes_errors_are_one_line(cli: Cli, k4: Path, tmp_path: Path) -> None:
    losses = loss_csv(tmp_path, [(link_name(k4, 0), 1e-5, 0.0)])
    assert "bounds[1]: 0.0001 is not above the previous bound 0.001" in fails(
        cli, "classes", "--fabric", str(k4), "--loss-rates", str(losses), "--bounds", "1e-3,1e-4"
    )
    losses.write_text("link,loss_rate\nnope,0.1\n")
    assert "unknown link 'nope'" in fails(cli, "classes", "--fabric", str(k4), "--loss-rates", str(losses))


def test_fec(cli: Cli) -> None:
    assert run_json(cli, "fec", "--loss", "0.003", "--target", "0.001") == {
        "loss": 0.003,
        "target": 0.001,
        "scheme": "xor",
        "n": 14,
        "residual_loss": pytest.approx(9.2076e-4, rel=1e-4),
        "overhead": pytest.approx(1 / 14),
    }
    assert run_json(cli, "fec", "--loss", "0.05")["scheme"] == "replicate3"
    assert cli("rail", "fec", "--loss", "0.003").stdout == (
        "XOR, one parity packet per 14 data packets: residual loss 0.0921% (target 0.1%), overhead 7.14%\n"
    )
    # n = 1 reads as English, not "per 1 data packets" (issue #20).
    assert cli("rail", "fec", "--loss", "0.02").stdout.startswith("XOR, one parity packet per data packet:")
    # No scheme helps: the answer is printed, and the exit code says it is not a usable one.
    unusable = cli("rail", "fec", "--loss", "0.3")
    assert unusable.exit_code == 1
    assert unusable.stdout.startswith("no scheme meets the target: repair the path's links: residual loss 30%")
    unusable_json = cli("rail", "fec", "--loss", "0.3", "--output", "json")
    assert (unusable_json.exit_code, json.loads(unusable_json.stdout)["scheme"]) == (1, "unusable")
    assert fails(cli, "fec", "--loss", "3") == "error: loss: 3 is not a fraction in [0, 1]"
