"""read_fabric_document: the interchange document ("lightpath-fabric/1") to the engine's graph, names,
link states and thresholds, checked against a plain-Python reading of the fixtures; and its errors, which
name the document path of the bad value."""

import copy
import json
import re
from pathlib import Path

import pytest

from lightpath_engine import FabricGraph, read_fabric_document

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "data"


def reference(doc: dict) -> dict:
    """The mapping written out in Python: switch index = position, lower tier first, names a:a_port-b:b_port."""
    index = {s["name"]: i for i, s in enumerate(doc["switches"])}
    tier = [s["tier"] for s in doc["switches"]]
    lower, upper, names, states = [], [], [], []
    for link in doc["links"]:
        a, b = index[link["a"]], index[link["b"]]
        lo, hi = (a, b) if tier[a] < tier[b] else (b, a)
        lower.append(lo)
        upper.append(hi)
        names.append(f"{link['a']}:{link['a_port']}-{link['b']}:{link['b_port']}")
        admin, oper = link.get("admin_state") or "enabled", link.get("oper_state") or "up"
        states.append("disabled" if admin == "disabled" else "down" if oper == "down" else "enabled")
    overrides = {
        i: s["capacity_constraint"]
        for i, s in enumerate(doc["switches"])
        if s["tier"] == 0 and s.get("capacity_constraint") is not None
    }
    capacity = doc.get("capacity_constraint")
    return {
        "name": doc.get("name"),
        "tiers": doc["tiers"],
        "switch_names": [s["name"] for s in doc["switches"]],
        "switch_tiers": tier,
        "link_lower": lower,
        "link_upper": upper,
        "link_names": names,
        "link_states": states,
        "capacity": 0.75 if capacity is None else capacity,
        "overrides": overrides,
    }


@pytest.mark.parametrize("fixture", ["demo-fb", "fat-tree-k4", "leaf-spine-4x2"])
def test_fixtures_read_as_the_reference_does(fixture):
    doc = json.loads((FIXTURES / f"{fixture}.json").read_text())
    read = read_fabric_document(doc)
    expected = reference(doc)
    assert {key: read[key] for key in expected} == expected
    graph = read["graph"]
    assert isinstance(graph, FabricGraph)
    same = FabricGraph(len(doc["tiers"]), read["switch_tiers"], read["link_lower"], read["link_upper"])
    assert graph.up_paths() == same.up_paths()
    for i, link in enumerate(doc["links"]):
        assert read["link_ids"][read["link_names"][i]] == i
        assert read["link_ids"][f"{link['b']}:{link['b_port']}-{link['a']}:{link['a_port']}"] == i
    assert len(read["link_ids"]) == 2 * len(doc["links"])


def small() -> dict:
    return {
        "format": "lightpath-fabric/1",
        "name": "small",
        "tiers": ["tor", "spine"],
        "capacity_constraint": 0.5,
        "switches": [
            {"name": "t0", "tier": 0, "capacity_constraint": 1.0},
            {"name": "t1", "tier": 0},
            {"name": "s", "tier": 1, "capacity_constraint": 0.2},
        ],
        "links": [
            {"a": "t0", "a_port": "up", "b": "s", "b_port": "d0", "oper_state": "down"},
            {"a": "s", "a_port": "d1", "b": "t1", "b_port": "up", "admin_state": "disabled"},
        ],
    }


def test_small_document_and_links_csv():
    doc = small()
    read = read_fabric_document(doc)
    assert read["link_lower"] == [0, 1] and read["link_upper"] == [2, 2]
    assert read["link_states"] == ["down", "disabled"]
    assert read["overrides"] == {0: 1.0}  # only ToRs' constraints are thresholds
    assert read["link_ids"] == {"t0:up-s:d0": 0, "s:d0-t0:up": 0, "s:d1-t1:up": 1, "t1:up-s:d1": 1}
    # links_csv rows follow the links, as the backend's import reads them.
    doc["switches"].append({"name": "t2", "tier": 0})
    doc["links_csv"] = "a,a_port,b,b_port,length_m\nt2,up,s,d2,\n"
    read = read_fabric_document(doc)
    assert read["link_names"][2] == "t2:up-s:d2" and read["link_states"][2] == "enabled"
    doc.pop("capacity_constraint")
    doc.pop("name")
    read = read_fabric_document(doc)
    assert read["capacity"] == 0.75 and read["name"] is None


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="other/2"), "format: unsupported format 'other/2'; expected 'lightpath-fabric/1'"),
        (lambda d: d.update(tiers="tor,spine"), "tiers: expected a list of at least 2 tier names"),
        (lambda d: d.update(tiers=["tor", 3]), "tiers: expected a list of at least 2 tier names"),
        (lambda d: d.update(tiers=["tor", "tor"]), "tiers[1]: duplicate tier name 'tor'"),
        (lambda d: d.update(capacity_constraint="high"), "capacity_constraint: 'high' is not a fraction in [0, 1]"),
        (lambda d: d.update(capacity_constraint=True), "capacity_constraint: True is not a fraction in [0, 1]"),
        (lambda d: d.update(capacity_constraint=1.5), "capacity_constraint: 1.5 is not a fraction in [0, 1]"),
        (lambda d: d.update(switches={}), "switches: expected a list"),
        (lambda d: d["switches"].append(3), "switches[3]: expected an object"),
        (lambda d: d["switches"][1].update(name=7), "switches[1].name: expected a non-empty string"),
        (lambda d: d["switches"][1].update(tier="0"), "switches[1].tier: '0' is not a tier index in 0..1"),
        (lambda d: d["switches"][1].pop("tier"), "switches[1].tier: None is not a tier index in 0..1"),
        (lambda d: d["switches"][1].update(tier=2), "switches[1].tier: 2 is not a tier index in 0..1"),
        (lambda d: d["switches"][2].update(name="t0"), "switches[2].name: duplicate switch name 't0'"),
        (lambda d: d["switches"][2].update(capacity_constraint=2), "switches[2].capacity_constraint: 2 is not a"),
        (lambda d: d.update(links=None, links_csv=5), "links_csv: expected CSV text"),
        (lambda d: d["links"].append("t0-s"), "links[2]: expected an object"),
        (lambda d: d["links"][1].update(b="x"), "links[1].b: unknown switch 'x'"),
        (lambda d: d["links"][1].update(a=None), "links[1].a: unknown switch ''"),
        (lambda d: d["links"][1].update(a=4), "links[1].a: unknown switch 4"),
        (lambda d: d["links"][0].update(a_port=""), "links[0].a_port: expected a non-empty string"),
        (lambda d: d["links"][1].update(b="t0"), "links[1].b_port: port t0:up is already used by link 0"),
        (lambda d: d["links"][0].update(b="t1", b_port="x"), "links[0]: 't0' and 't1' are not on adjacent tiers"),
        (
            lambda d: d["links"][1].update(oper_state="flapping"),
            "links[1].oper_state: 'flapping' is not 'up' or 'down'",
        ),
        (lambda d: d["links"][1].update(oper_state=1), "links[1].oper_state: 1 is not 'up' or 'down'"),
        (lambda d: d["links"][0].update(admin_state="off"), "links[0].admin_state: 'off' is not 'enabled' or"),
        (lambda d: d.update(links_csv="a,a_port,b,b_port\nt1,up2,zz,p\n"), "links[2].b: unknown switch 'zz'"),
    ],
)
def test_errors_name_the_path(change, message):
    doc = copy.deepcopy(small())
    change(doc)
    with pytest.raises(ValueError, match="^" + re.escape(message)):
        read_fabric_document(doc)


def test_a_document_must_be_an_object():
    with pytest.raises(ValueError, match=re.escape("document: expected a JSON object")):
        read_fabric_document([small()])


def test_tiers_follow_from_the_switches_and_ports_are_optional():
    """Offline CorrOpt needs neither: a newcomer's document with switch tiers and links by switch name
    reads (issue #20: it failed on `tiers`, then on `links[0].a_port`)."""
    doc = small()
    doc.pop("tiers")
    for link in doc["links"]:
        link.pop("a_port")
        link.pop("b_port")
    read = read_fabric_document(doc)
    assert read["tiers"] == ["tier0", "tier1"]
    assert read["link_names"] == ["t0-s", "s-t1"]
    assert read["link_ids"]["t1-s"] == 1
    assert read["link_lower"] == [0, 1] and read["link_upper"] == [2, 2]


def test_every_problem_is_listed_at_once_in_document_order():
    doc = small()
    doc["capacity_constraint"] = "high"
    doc["switches"][1]["tier"] = "0"  # wrong type: its link is not also reported
    doc["switches"][2]["capacity_constraint"] = 3
    doc["links"][0]["b"] = "nowhere"
    doc["links"][1]["a_port"] = 5
    doc["links"].append({"a": "t0", "a_port": "x", "b": "s", "b_port": "y", "oper_state": "sideways"})
    with pytest.raises(ValueError) as caught:
        read_fabric_document(doc)
    assert str(caught.value).split("; ") == [
        "capacity_constraint: 'high' is not a fraction in [0, 1]",
        "switches[1].tier: '0' is not a tier index in 0..1",
        "switches[2].capacity_constraint: 3 is not a fraction in [0, 1]",
        "links[0].b: unknown switch 'nowhere'",
        "links[1].a_port: expected a non-empty string",
        "links[2].oper_state: 'sideways' is not 'up' or 'down'",
    ]
