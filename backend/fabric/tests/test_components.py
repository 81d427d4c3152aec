"""What links share (fabric.services.components): the rule in settings, explicit groups, cables and
line cards; carried by the interchange document both ways and read by the engine's reader."""

import copy
import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from fabric import services
from fabric.models import Link
from fabric.services import components
from lightpath.settings import REPO_ROOT

pytestmark = pytest.mark.django_db
DEMO = json.loads((REPO_ROOT / "fixtures" / "data" / "demo-fb.json").read_text())


def link_at(fabric, switch: str, port: str) -> Link:
    return Link.objects.get(fabric=fabric, a_switch__name=switch, a_port=port)


@pytest.fixture
def demo():
    return services.import_document(copy.deepcopy(DEMO))


def test_a_tor_breakout_cable_carries_its_four_uplinks(demo):
    uplinks = [link_at(demo, "p1-tor5", f"eth2/{n}") for n in (1, 2, 3, 4)]
    found = components.resolve([uplinks[0].pk])
    mine = found.links[uplinks[0].pk]
    assert mine.breakout_label == "p1-tor5 eth2/1-4" and mine.breakout_side == "a"
    assert sorted(found.sharing(mine.breakout)) == sorted(link.pk for link in uplinks)
    # No cable_id: the breakout cable is the cable.
    assert sorted(found.sharing(mine.cable)) == sorted(link.pk for link in uplinks)
    # The transceiver on the ToR is the breakout's; the fabric switch's end is the link's own.
    assert sorted(found.sharing(mine.transceivers["a"])) == sorted(link.pk for link in uplinks)
    assert found.sharing(mine.transceivers["z"]) == [uplinks[0].pk]
    assert mine.line_cards == {"a": "eth2", "z": "eth1"}
    assert found.name(uplinks[1].pk) == "p1-tor5:eth2/2 - p1-fab1:eth1/6"


def test_ports_outside_the_breakout_rule_are_single_links(demo, settings):
    settings.PHYSICAL_COMPONENTS = {**settings.PHYSICAL_COMPONENTS, "breakout_ports": r"eth9/\d+"}
    link = link_at(demo, "p1-tor5", "eth2/1")
    found = components.resolve([link.pk])
    mine = found.links[link.pk]
    assert mine.breakout is None and found.sharing(mine.cable) == [link.pk]
    assert found.sharing(mine.transceivers["a"]) == [link.pk]


def test_explicit_labels_win_over_the_rule(demo):
    first, second = link_at(demo, "p1-tor5", "eth2/1"), link_at(demo, "p1-tor5", "eth2/2")
    across = link_at(demo, "p1-tor6", "eth2/2")  # to p1-fab1: no switch in common with eth2/1
    Link.objects.filter(pk__in=[first.pk, across.pk]).update(breakout="trunk-7", cable_id="tray-3")
    Link.objects.filter(pk=second.pk).update(a_line_card="lc-2", z_line_card="lc-9")
    found = components.resolve([first.pk, second.pk])
    mine = found.links[first.pk]
    assert (mine.breakout_label, mine.breakout_explicit) == ("trunk-7", True)
    assert sorted(found.sharing(mine.breakout)) == sorted([first.pk, across.pk])
    # Two ToRs on one label: no switch is shared, so no breakout transceiver either.
    assert mine.breakout_side is None and found.sharing(mine.transceivers["a"]) == [first.pk]
    assert sorted(found.sharing(mine.cable)) == sorted([first.pk, across.pk])
    assert found.links[second.pk].line_cards == {"a": "lc-2", "z": "lc-9"}
    # The rule's group lost the two labelled links.
    rule_group = found.links[second.pk].breakout
    assert sorted(found.sharing(rule_group)) == sorted(
        link_at(demo, "p1-tor5", port).pk for port in ("eth2/2", "eth2/3", "eth2/4")
    )


def test_a_set_of_links_resolves_in_two_queries_and_so_does_a_fabric(demo):
    ids = list(Link.objects.filter(fabric=demo).values_list("id", flat=True)[:50])
    with CaptureQueriesContext(connection) as queries:
        found = components.resolve(ids)
    assert len(queries) == 2 and set(found.links) == set(ids)
    with CaptureQueriesContext(connection) as queries:
        whole = components.resolve(fabric_id=demo.pk)
    assert len(queries) == 2 and len(whole.asked) == len(DEMO["links"])  # the links, the switches' names
    assert all(whole.of(i) == found.of(i) for i in ids)


def test_the_document_carries_components_both_ways_with_sides_swapped_like_the_ports(small_document):
    links = small_document["links"]
    links[0].update(breakout="bo-1", cable_id="trunk-A", a_line_card="lc1", b_line_card="lc7")
    links[1].update(breakout="bo-1", cable_id="trunk-A")
    links[6].update(a_line_card="spine-lc", b_line_card="fab-lc")  # written top-down: s0 -> f0
    fabric = services.import_document(small_document)
    stored = Link.objects.get(fabric=fabric, a_switch__name="t0", a_port="up0")
    assert (stored.breakout, stored.cable_id, stored.a_line_card, stored.z_line_card) == (
        "bo-1",
        "trunk-A",
        "lc1",
        "lc7",
    )
    top_down = Link.objects.get(fabric=fabric, a_switch__name="f0", a_port="u0")
    assert (top_down.a_line_card, top_down.z_line_card) == ("fab-lc", "spine-lc")
    exported = services.export_document(fabric)
    first = next(link for link in exported["links"] if (link["a"], link["a_port"]) == ("t0", "up0"))
    assert {key: first[key] for key in ("breakout", "cable_id", "a_line_card", "b_line_card")} == {
        "breakout": "bo-1",
        "cable_id": "trunk-A",
        "a_line_card": "lc1",
        "b_line_card": "lc7",
    }
    plain = next(link for link in exported["links"] if (link["a"], link["a_port"]) == ("t1", "up0"))
    assert not {"breakout", "cable_id", "a_line_card", "b_line_card"} & set(plain)
    exported["name"] = "small-again"
    again = services.export_document(services.import_document(copy.deepcopy(exported)))
    assert again["links"] == exported["links"]


def test_the_engine_reads_a_document_with_components():
    from lightpath_engine import read_fabric_document

    document = copy.deepcopy(DEMO)
    document["links"][0].update(breakout="bo-1", cable_id="trunk-A", a_line_card="lc1", b_line_card="lc7")
    assert read_fabric_document(document)["link_names"] == read_fabric_document(DEMO)["link_names"]


def test_bad_component_values_are_rows_of_the_400(client_for, small_document):
    small_document["links"][0].update(breakout=7, cable_id="x" * 65)
    response = client_for("planner").post("/api/fabrics/import/", small_document, format="json")
    assert response.status_code == 400
    rows = {(e["index"], e["field"]): e["message"] for e in response.json()["errors"]}
    assert rows == {(0, "breakout"): "must be a string", (0, "cable_id"): "must be at most 64 characters"}


def test_the_link_answers_its_components_and_takes_the_explicit_fields(client_for, demo):
    link = link_at(demo, "p1-tor5", "eth2/1")
    viewer = client_for("viewer")
    body = viewer.get(f"/api/links/{link.pk}/").json()
    siblings = ["p1-tor5:eth2/2 - p1-fab1:eth1/6", "p1-tor5:eth2/3 - p1-fab2:eth1/6", "p1-tor5:eth2/4 - p1-fab3:eth1/6"]
    assert body["components"]["breakout"] == {
        "name": "p1-tor5 eth2/1-4",
        "explicit": False,
        "side": "a",
        "siblings": [
            {"id": link_at(demo, "p1-tor5", f"eth2/{n}").pk, "name": name}
            for n, name in zip((2, 3, 4), siblings, strict=True)
        ],
    }
    assert body["components"]["cable"]["kind"] == "breakout"
    assert [s["name"] for s in body["components"]["cable"]["siblings"]] == siblings
    assert body["components"]["line_cards"] == {"a": "eth2", "z": "eth1"}
    assert (body["breakout"], body["cable_id"]) == ("", "")

    assert viewer.patch(f"/api/links/{link.pk}/", {"cable_id": "trunk-9"}, format="json").status_code == 403
    operator = client_for("operator")
    other = link_at(demo, "p1-tor6", "eth2/2")
    for target in (link, other):
        response = operator.patch(
            f"/api/links/{target.pk}/", {"cable_id": "trunk-9", "z_line_card": "lc-3"}, format="json"
        )
        assert response.status_code == 200, response.content
    cable = response.json()["components"]["cable"]
    assert (cable["kind"], cable["name"], [s["id"] for s in cable["siblings"]]) == ("cable_id", "trunk-9", [link.pk])
    assert response.json()["components"]["line_cards"] == {"a": "eth2", "z": "lc-3"}
    listed = viewer.get("/api/links/", {"fabric": demo.pk, "limit": 500}).json()["results"]
    by_id = {row["id"]: row for row in listed}
    assert [s["id"] for s in by_id[link.pk]["components"]["cable"]["siblings"]] == [other.pk]
    too_long = operator.patch(f"/api/links/{link.pk}/", {"breakout": "b" * 65}, format="json")
    assert too_long.status_code == 400 and "breakout" in too_long.json()
