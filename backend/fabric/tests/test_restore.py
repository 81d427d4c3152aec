"""The capacity restoration through the engine door (fabric.services.engine.restore) on the demo
fabric in PostgreSQL: a repair's footprint the guard refuses alone becomes safe together with the
lossy links the restoration re-enables (seed 000 section 3.7, issue #18).

Pod 1 of the demo: p1-tor0 has 4 uplinks (to p1-fab0..3), each fabric switch 4 spine uplinks, so 16
up-paths; the constraint 0.75 requires 12. With its uplink to p1-fab0 disabled for corruption it is
at 12, so a repair of its uplink to p1-fab1 (a breakout sibling) would leave it 8.
"""

import json
from pathlib import Path

import pytest
from django.conf import settings

from fabric import services as fabric_services
from fabric.models import Link
from fabric.services import engine, link_state, live

pytestmark = pytest.mark.django_db

DEMO = Path(settings.REPO_ROOT) / "fixtures" / "data" / "demo-fb.json"


@pytest.fixture
def fabric():
    live.forget()
    yield fabric_services.import_document(json.loads(DEMO.read_text()))
    live.forget()


def uplink(fabric, tor: str, fab: str) -> Link:
    return Link.objects.get(fabric=fabric, a_switch__name=tor, z_switch__name=fab)


def disable_for_corruption(link: Link) -> None:
    verdict = link_state.set_admin_state(link, Link.AdminState.DISABLED, "corruption: CorrOpt")
    assert verdict.applied


def dry_run(fabric, changes: dict[int, str]) -> link_state.Verdict:
    return link_state.change_admin_states(
        fabric.pk,
        {pk: link_state.AdminChange(state, "maintenance") for pk, state in changes.items()},
        None,
        dry_run=True,
    )


@pytest.fixture
def lossy(fabric) -> dict[str, Link]:
    """Two links disabled for corruption: p1-tor0's uplink to p1-fab0 (the one that helps), and a
    worse one in pod 3 that helps nobody in pod 1."""
    links = {"p1": uplink(fabric, "p1-tor0", "p1-fab0"), "p3": uplink(fabric, "p3-tor2", "p3-fab0")}
    for link in links.values():
        disable_for_corruption(link)
    return links


def test_an_unsafe_repair_is_made_safe_by_the_cheapest_lossy_link(fabric, lossy):
    footprint = uplink(fabric, "p1-tor0", "p1-fab1")
    alone = dry_run(fabric, {footprint.pk: "disabled"})
    assert not alone.safe
    assert [(row["name"], row["paths_before"], row["paths_after"]) for row in alone.blocking_tors] == [
        ("p1-tor0", 12, 8)
    ]

    candidates = {lossy["p1"].pk: (1e-4, 2e-5), lossy["p3"].pk: (1e-3, 0.0)}
    restoration = engine.restore(engine.engine_fabric(fabric), candidates, [footprint.pk])

    assert restoration.restores_all and restoration.proven_optimal
    assert restoration.enable == [lossy["p1"].pk]
    assert restoration.added_penalty == pytest.approx(1.2e-4)
    together = dry_run(fabric, {footprint.pk: "disabled", **dict.fromkeys(restoration.enable, "enabled")})
    assert together.safe
    # One uplink out, one back: p1-tor0 keeps its 12.
    assert "p1-tor0" not in {row["name"] for row in together.affected_tors}


def test_the_live_session_gives_the_same_answer(fabric, lossy):
    footprint = uplink(fabric, "p1-tor0", "p1-fab1")
    candidates = {lossy["p1"].pk: (1e-4, 0.0), lossy["p3"].pk: (1e-3, 0.0)}
    with live.live_fabric(fabric.pk, locked=False) as current:
        restoration = engine.restore(current.state, candidates, [footprint.pk], session=current.session)
    assert restoration.enable == [lossy["p1"].pk]


def test_a_repair_nothing_can_cover_names_the_tor_and_its_numbers(fabric, lossy):
    # Every other uplink of p1-tor0 at once (a line card): re-enabling p1-fab0's gives 4 paths of 12.
    footprint = [uplink(fabric, "p1-tor0", f"p1-fab{j}").pk for j in (1, 2, 3)]
    restoration = engine.restore(engine.engine_fabric(fabric), {lossy["p1"].pk: (1e-4, 0.0)}, footprint)
    assert not restoration.restores_all
    assert restoration.enable == []
    [tor] = restoration.unreachable
    assert (tor.name, tor.paths_before, tor.paths_best, tor.floor, tor.required_paths, tor.design_paths) == (
        "p1-tor0",
        12,
        4,
        12,
        12,
        16,
    )


def test_recover_brings_a_tor_back_after_a_link_went_down(fabric, lossy):
    # p1-tor0's uplink to p1-fab1 goes down (telemetry): 12 -> 8, under its 12.
    down = uplink(fabric, "p1-tor0", "p1-fab1")
    link_state.set_oper_states(fabric.pk, {down.pk: Link.OperState.DOWN})
    candidates = {lossy["p1"].pk: (1e-4, 0.0), lossy["p3"].pk: (1e-3, 0.0)}
    restoration = engine.restore(engine.engine_fabric(fabric), candidates, mode="recover")
    assert restoration.enable == [lossy["p1"].pk]
    # The demo's p1-tor3 (two uplinks out, 8 of 16) is under too; no candidate reaches it.
    assert [(tor.name, tor.paths_best, tor.floor) for tor in restoration.unreachable] == [("p1-tor3", 8, 12)]
    after = dry_run(fabric, dict.fromkeys(restoration.enable, "enabled"))
    [row] = [row for row in after.affected_tors if row["name"] == "p1-tor0"]
    assert (row["paths_before"], row["paths_after"]) == (8, 12)


def test_links_of_another_fabric_or_unknown_are_named(fabric, lossy):
    state = engine.engine_fabric(fabric)
    with pytest.raises(ValueError, match=r"links not in fabric \d+: 999999999"):
        engine.restore(state, {lossy["p1"].pk: (1e-4, 0.0)}, [999_999_999])
    with pytest.raises(ValueError, match="takes no footprint"):
        engine.restore(state, {lossy["p1"].pk: (1e-4, 0.0)}, [lossy["p3"].pk], mode="recover")
