"""The demo fabric's Larry circuit switch (circuits/demo.py): a rack set built from it on /larry answers
a request that fits with a verdict, and a larger one with a min cut, instead of "R = 0"."""

import json

import pytest
from django.conf import settings

from circuits import demo
from circuits.models import CircuitSwitch
from fabric import services as fabric_services

POD_0 = [f"p0-tor{i}" for i in range(8)]


@pytest.fixture
def demo_fabric(db):
    document = json.loads((settings.REPO_ROOT / "fixtures" / "data" / "demo-fb.json").read_text())
    fabric = fabric_services.import_document(document)
    demo.load_larry_switch(fabric)
    return fabric


def check(client, fabric, uplinks):
    switch = CircuitSwitch.objects.get(fabric=fabric, name=demo.LARRY_SWITCH_NAME)
    rack_set = {"fabric": fabric.pk, "circuit_switches": [switch.pk]}
    response = client.post("/api/larry/check/", {"rack_set": rack_set, "uplinks": uplinks}, format="json")
    assert response.status_code == 200, response.json()
    return response.json()


@pytest.mark.django_db
def test_the_demo_larry_switch_builds_pod_0s_rack_set(client_for, demo_fabric):
    body = check(client_for("viewer"), demo_fabric, [1] * 8)
    assert body["feasible"] is True and body["granted"] == [1] * 8
    built = body["inputs"]["rack_set"]
    # two cables per ToR (its uplinks to p0-fab2 and p0-fab3), 16 cable ports + 8 to aggregation,
    # the links' 100 Gb/s; the uplinks to p0-fab0 and p0-fab1 stay static
    assert built["racks"] == POD_0
    assert built["cables"] == [[2]] * 8 and built["cs_uplinks"] == [8]
    assert built["capacity_gbps"] == 100.0 and built["static_uplinks"] == 2
    # the demo document ships p0-tor1's link to p0-fab2 disabled: that cable is out
    assert [(c["rack"], c["reason"]) for c in body["inputs"]["rack_set_source"]["excluded_cables"]] == [
        ("p0-tor1", "disabled")
    ]


@pytest.mark.django_db
def test_a_larger_request_on_the_demo_switch_gets_a_labelled_min_cut(client_for, demo_fabric):
    client = client_for("viewer")
    # more than the switch's 8 uplinks to aggregation
    over = check(client, demo_fabric, [2] * 8)
    assert over["feasible"] is False and over["total_requested"] == 16 and over["total_granted"] == 8
    assert over["min_cut"]["capacity"] == 8 and over["min_cut"]["circuit_switches"] == [0]

    # p0-tor1 asks for two circuit uplinks with one cable in service: the bottleneck is that rack
    # alone (2 asked, 1 reachable), while the whole request gets 7 of its 8
    body = check(client, demo_fabric, [2, 2, 1, 1, 1, 1, 0, 0])
    assert body["feasible"] is False
    assert (body["total_requested"], body["total_granted"]) == (8, 7)
    cut = body["min_cut"]
    assert (cut["racks"], cut["racks_requested"], cut["racks_reach"], cut["capacity"]) == ([1], 2, 1, 7)


@pytest.mark.django_db
def test_loading_the_demo_twice_keeps_one_larry_switch(demo_fabric):
    demo.load_larry_switch(demo_fabric)
    switch = CircuitSwitch.objects.get(fabric=demo_fabric, name=demo.LARRY_SWITCH_NAME)
    assert switch.attachments.count() == 8 and switch.zone == ""
    assert CircuitSwitch.objects.filter(fabric=demo_fabric).count() == 1
