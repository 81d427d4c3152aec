"""Larry rack sets built from a stored fabric: the cables of a circuit switch's attached ToRs, with
the ones whose links are disabled (by CorrOpt or an operator), down or ticketed left out."""

import pytest

from accounts.roles import ROLES
from circuits.models import CircuitSwitch
from circuits.services import replace_attachments
from corruption.models import Decision, Ticket
from fabric import services as fabric_services
from fabric.models import Fabric, Link, Switch
from fabric.services import link_state
from jobs import services as job_services
from jobs.models import Job

from .test_larry import uploaded

# Four racks r0..r3, each with two static uplinks (up0, up1) and one link (oc) carrying its
# optical port on the circuit switch.
RACKS = ["r0", "r1", "r2", "r3"]
DOCUMENT = {
    "name": "larry-racks",
    "tiers": ["tor", "fabric"],
    "switches": [{"name": name, "tier": 0, "pod": 0} for name in RACKS]
    + [{"name": "f0", "tier": 1, "pod": 0}, {"name": "f1", "tier": 1, "pod": 0}],
    "links": [
        link
        for i, name in enumerate(RACKS)
        for link in (
            {"a": name, "a_port": "up0", "b": "f0", "b_port": f"d{i}"},
            {"a": name, "a_port": "up1", "b": "f1", "b_port": f"d{i}"},
            {"a": name, "a_port": "oc", "b": "f0", "b_port": f"o{i}"},
        )
    ],
}


def counters_csv(periods, period_s=0.5):
    """Cumulative ingress counters: r2 at 900 Gbit/s (wants circuit uplinks), the others idle."""
    lines = ["time_s,rack,ingress_bytes,egress_bytes"]
    for i in range(periods + 1):
        for rack, name in enumerate(RACKS):
            gbps = 900 if rack == 2 else 10
            lines.append(f"{i * period_s:g},{name},{int(gbps * 1e9 / 8 * period_s * i)},0")
    return "\n".join(lines) + "\n"


@pytest.fixture
def racks(db):
    return fabric_services.import_document(DOCUMENT)


def circuit_switch(fabric, name="ocs0", port_count=6, tors=RACKS, capacity_gbps=100.0):
    """A circuit switch with one optical port per listed ToR, carried by the ToR's `oc` link."""
    switch = CircuitSwitch.objects.create(fabric=fabric, name=name, port_count=port_count, capacity_gbps=capacity_gbps)
    replace_attachments(
        switch,
        [
            {
                "tor": Switch.objects.get(fabric=fabric, name=tor),
                "optical_ports": 1,
                "links": [Link.objects.get(fabric=fabric, a_switch__name=tor, a_port="oc")],
            }
            for tor in tors
        ],
    )
    return switch


def cable(fabric, tor):
    return Link.objects.get(fabric=fabric, a_switch__name=tor, a_port="oc")


def check(client, fabric, uplinks, switches=None):
    rack_set = {"fabric": fabric.pk, **({} if switches is None else {"circuit_switches": switches})}
    return client.post("/api/larry/check/", {"rack_set": rack_set, "uplinks": uplinks}, format="json")


@pytest.mark.django_db
def test_a_cable_corropt_disables_is_excluded_until_it_is_enabled_again(client_for, racks):
    switch = circuit_switch(racks)
    client = client_for("viewer")
    body = check(client, racks, [1, 1, 0, 0], [switch.pk]).json()
    assert body["feasible"] is True and body["granted"] == [1, 1, 0, 0]
    built = body["inputs"]["rack_set"]
    # 6 ports, 4 serve the racks: 2 are left for uplinks; the oc links are cables, not static uplinks
    assert built == {
        "static_uplinks": 2,
        "cables": [[1], [1], [1], [1]],
        "cs_uplinks": [2],
        "capacity_gbps": 100.0,
        "excluded": [],
        "racks": RACKS,
    }
    assert body["inputs"]["rack_set_source"]["circuit_switches"] == [{"id": switch.pk, "name": "ocs0"}]

    link_state.set_admin_state(cable(racks, "r0"), "disabled", "corruption", None, override=True)
    body = check(client, racks, [1, 1, 0, 0]).json()
    assert body["feasible"] is False
    assert body["min_cut"]["capacity"] == 1 and sum(body["granted"]) == 1
    # the cut holds r0 alone (1 asked, 0 reachable); the whole request still gets 1 of its 2
    assert body["min_cut"]["racks"] == [0]
    assert (body["min_cut"]["racks_requested"], body["min_cut"]["racks_reach"]) == (1, 0)
    assert (body["total_requested"], body["total_granted"]) == (2, 1)
    assert body["inputs"]["rack_set"]["excluded"] == [[0, 0]]
    assert body["inputs"]["rack_set_source"]["excluded_cables"] == [
        {
            "tor": 0,
            "cs": 0,
            "rack": "r0",
            "circuit_switch": "ocs0",
            "link": cable(racks, "r0").pk,
            "reason": "disabled_by_corropt",
            "explanation": "disabled by CorrOpt (corruption)",
        }
    ]
    assert check(client, racks, [0, 1, 1, 0]).json()["feasible"] is True  # the other racks still can

    link_state.set_admin_state(cable(racks, "r0"), "enabled", "", None, override=True)
    body = check(client, racks, [1, 1, 0, 0]).json()
    assert body["feasible"] is True and body["inputs"]["rack_set"]["excluded"] == []


@pytest.mark.django_db
def test_an_open_ticket_or_a_link_down_excludes_the_cable(client_for, racks):
    circuit_switch(racks)
    r1 = cable(racks, "r1")
    decision = Decision.objects.create(
        fabric=racks, link=r1, kind="fast_checker", action="disabled", penalty=1e-4, engine_ms=1.0
    )
    ticket = Ticket.objects.create(fabric=racks, link=r1, direction="a_to_z", decision=decision, state="in_progress")
    Link.objects.filter(pk=cable(racks, "r3").pk).update(oper_state="down")
    client = client_for("planner")
    body = check(client, racks, [1, 1, 0, 0]).json()
    assert body["feasible"] is False
    assert [(c["rack"], c["reason"]) for c in body["inputs"]["rack_set_source"]["excluded_cables"]] == [
        ("r1", "open_ticket"),
        ("r3", "down"),
    ]
    Ticket.objects.filter(pk=ticket.pk).update(state="resolved")
    assert check(client, racks, [1, 1, 0, 0]).json()["feasible"] is True
    assert check(client, racks, [0, 0, 1, 1]).json()["feasible"] is False  # r3 is still down


@pytest.mark.django_db
def test_static_uplinks_count_only_enabled_and_up_links_to_tier_1(client_for, racks):
    circuit_switch(racks)
    link_state.set_admin_state(Link.objects.get(a_switch__name="r2", a_port="up1"), "disabled", "", None, override=True)
    body = check(client_for("viewer"), racks, [0, 0, 0, 0]).json()
    # the engine has one S: the fewest any rack has, so no rack is credited an uplink it lacks
    assert body["inputs"]["rack_set"]["static_uplinks"] == 1
    assert body["inputs"]["rack_set_source"]["static_uplinks_per_rack"] == [2, 2, 1, 2]


@pytest.mark.django_db
def test_every_problem_of_a_fabric_rack_set_is_listed_in_one_400(client_for, racks):
    client = client_for("viewer")
    other = Fabric.objects.create(name="elsewhere", tiers=["tor", "spine"])
    foreign = CircuitSwitch.objects.create(fabric=other, name="far", port_count=4)
    bare = CircuitSwitch.objects.create(fabric=racks, name="bare", port_count=4)
    full = circuit_switch(racks, name="full", port_count=4)
    response = check(client, racks, [1, 0, 0, 0], [foreign.pk, bare.pk, full.pk, 999_999])
    assert response.status_code == 400
    assert [(e["field"], e["message"]) for e in response.json()["errors"]] == [
        ("rack_set.circuit_switches[0]", "circuit switch 'far' belongs to fabric 'elsewhere', not 'larry-racks'"),
        ("rack_set.circuit_switches[3]", "no circuit switch has id 999999"),
        ("rack_set.circuit_switches[1]", "circuit switch 'bare' has no attached ToRs"),
        (
            "rack_set.circuit_switches[2]",
            "circuit switch 'full': its 4 ports all serve attached ToRs, none is left for uplinks to aggregation (R = 0)",
        ),
        ("rack_set.circuit_switches", "Larry uses one circuit capacity C; these switches have 10, 100 Gb/s"),
    ]
    response = client.post(
        "/api/larry/check/", {"rack_set": {"fabric": 999_999, "circuit_switches": [999_998], "x": 1}}, format="json"
    )
    assert [(e["field"], e["message"]) for e in response.json()["errors"]] == [
        ("rack_set.x", "unknown parameter (known: circuit_switches, fabric)"),
        ("rack_set.fabric", "no fabric has id 999999"),
        ("rack_set.circuit_switches[0]", "no circuit switch has id 999998"),
        ("uplinks", "must be a list of circuit uplinks per rack, e.g. [3, 3, 2, 0]"),
    ]
    assert check(client, other, [1]).json()["errors"] == [
        {
            "section": "params",
            "field": "rack_set.circuit_switches",
            "message": "circuit switch 'far' has no attached ToRs",
        }
    ]
    empty = Fabric.objects.create(name="no-switches", tiers=["tor", "spine"])
    assert check(client, empty, [1]).json()["errors"][0]["message"] == "fabric 'no-switches' has no circuit switches"
    # the built rack set's racks must match the request
    pair = circuit_switch(racks, name="ocs1", tors=["r0", "r1"])
    errors = check(client, racks, [1, 1, 1], [pair.pk]).json()["errors"]
    assert errors == [{"section": "params", "field": "uplinks", "message": "has 3 entries for 2 racks"}]


@pytest.mark.django_db
@pytest.mark.parametrize("role", [*ROLES, None])
def test_every_human_role_may_check_a_fabric_rack_set(client_for, racks, role):
    circuit_switch(racks)
    response = check(client_for(role), racks, [1, 1, 0, 0])
    assert response.status_code == (200 if role not in {"collector", None} else 403), response.content[:200]


@pytest.mark.django_db(transaction=True, databases=["default", "progress"])
def test_a_run_on_a_fabric_rack_set_echoes_what_it_was_built_from(client_for, racks):
    circuit_switch(racks)
    link_state.set_admin_state(cable(racks, "r2"), "disabled", "corruption", None, override=True)
    params = {"rack_set": {"fabric": racks.pk}, "counters": uploaded(counters_csv(4))}
    response = client_for("operator").post("/api/jobs/", {"kind": "larry.run", "params": params}, format="json")
    assert response.status_code == 202, response.json()
    assert job_services.run(response.json()["id"]) == "succeeded", Job.objects.get(pk=response.json()["id"]).error
    result = Job.objects.get(pk=response.json()["id"]).result
    assert result["racks"] == RACKS
    assert result["inputs"]["rack_set"]["excluded"] == [[2, 0]]
    assert [c["reason"] for c in result["inputs"]["rack_set_source"]["excluded_cables"]] == ["disabled_by_corropt"]
    # r2 has no usable cable: it never holds a circuit uplink
    assert all(uplinks[2] == result["inputs"]["rack_set"]["static_uplinks"] for uplinks in result["series"]["uplinks"])


@pytest.mark.django_db
def test_a_run_rack_set_of_another_fabric_than_the_job_is_400(client_for, racks, small_fabric):
    circuit_switch(racks)
    params = {"rack_set": {"fabric": racks.pk}, "counters": uploaded(counters_csv(4))}
    response = client_for("planner").post(
        "/api/jobs/", {"kind": "larry.run", "fabric": small_fabric.pk, "params": params}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["errors"][0] == {
        "section": "params",
        "field": "rack_set.fabric",
        "message": f"must be the job's fabric 'small' (id {small_fabric.pk})",
    }
    response = client_for("viewer").post("/api/jobs/", {"kind": "larry.run", "params": params}, format="json")
    assert response.status_code == 403
