"""The cost comparison, and who may call each synchronous endpoint."""

import pytest

from accounts.roles import ROLES

pytestmark = pytest.mark.django_db

LARRY_CHECK = {
    "rack_set": {"static_uplinks": 2, "cables": [[1, 1], [1, 1]], "cs_uplinks": [1, 1], "capacity_gbps": 100},
    "uplinks": [1, 1],
}
SIZE = {"k": 4, "mtbf_hours": 1000, "mttr_hours": 10, "monte_carlo": None}


def test_default_comparison(client_for):
    body = client_for("viewer").post("/api/reconfig/costs/", {}, format="json").json()
    designs = {d["design"]: d for d in body["designs"]}
    larry = designs["larry S=2 L=4 R=2"]
    assert larry["comparison"] == "rack_set"
    # 40 packet ports + 24 CS ports x 0.3 + 16 active x 0.5 + 16 passive x 0.1, over full provisioning (160)
    assert larry["cost"] == pytest.approx(56.8) and larry["normalised_cost"] == pytest.approx(56.8 / 160)
    assert designs["static u=16"]["normalised_cost"] == 1.0
    assert designs["fat tree k=16 P=16"]["normalised_cost"] == 1.0
    assert designs["sharebackup n=1"]["normalised_cost"] > 1
    assert body["inputs"]["prices"]["circuit_port"] == 0.3


def test_a_price_sheet_changes_the_cost_not_the_counts(client_for):
    client = client_for("planner")
    default = client.post("/api/reconfig/costs/", {}, format="json").json()["designs"]
    free_cs = client.post("/api/reconfig/costs/", {"prices": {"circuit_port": 0}}, format="json").json()["designs"]
    for before, after in zip(default, free_cs, strict=True):
        assert before["circuit_ports"] == after["circuit_ports"]
        assert after["cost"] == pytest.approx(before["cost"] - 0.3 * before["circuit_ports"])


def test_costs_list_every_problem(client_for):
    response = client_for("planner").post(
        "/api/reconfig/costs/",
        {"racks": 0, "servers": 8, "static_uplinks": 9, "k": 7, "prices": {"packet_port": 0, "fiber": 1}},
        format="json",
    )
    assert response.status_code == 400
    assert {e["field"] for e in response.json()["errors"]} == {
        "racks",
        "static_uplinks",
        "k",
        "prices.fiber",
        "prices.packet_port",
    }


@pytest.mark.parametrize(
    ("url", "body"),
    [("/api/sharebackup/size/", SIZE), ("/api/larry/check/", LARRY_CHECK), ("/api/reconfig/costs/", {})],
)
def test_calculators_answer_every_human_role(url, body, client_for, anonymous):
    for role in ROLES:
        response = client_for(role).post(url, body, format="json")
        assert response.status_code == (403 if role == "collector" else 200), (role, response.content[:200])
    assert client_for(None).post(url, body, format="json").status_code == 403
    assert anonymous.post(url, body, format="json").status_code == 401
