"""GET /api/rail/fec/: the coding one path needs, for every role, with every bad parameter listed."""

import pytest

ENDPOINT = "/api/rail/fec/"


def test_the_seeds_example_needs_xor_over_14_packets(client_for):
    response = client_for("viewer").get(ENDPOINT, {"loss": 0.003, "target": 0.001})
    assert response.status_code == 200
    body = response.json()
    assert (body["scheme"], body["n"]) == ("xor", 14)
    assert body["residual_loss"] == pytest.approx(0.00092, abs=1e-5)
    assert body["overhead"] == pytest.approx(1 / 14)


@pytest.mark.parametrize(
    ("loss", "scheme", "overhead"),
    [(0.0001, "none", 0.0), (0.05, "replicate3", 2.0), (0.2, "unusable", None)],
)
def test_the_scheme_follows_the_loss_with_the_default_target(client_for, loss, scheme, overhead):
    body = client_for("technician").get(ENDPOINT, {"loss": loss}).json()
    assert (body["scheme"], body["target"]) == (scheme, 0.001)
    if overhead is not None:
        assert body["overhead"] == overhead


def test_bad_parameters_are_all_listed(client_for):
    client = client_for("viewer")
    response = client.get(ENDPOINT, {"target": "x"})
    assert response.status_code == 400
    assert set(response.json()) == {"loss", "target"}
    assert "required" in response.json()["loss"][0]
    response = client.get(ENDPOINT, {"loss": 1.5, "target": 1})
    assert response.json() == {"loss": ["must be in [0, 1], got 1.5"], "target": ["must be in (0, 1), got 1"]}
    assert client.get(ENDPOINT, {"loss": "nan"}).status_code == 400


@pytest.mark.parametrize("role", ["viewer", "technician", "planner", "operator", "admin", "collector"])
def test_every_role_may_ask(client_for, role):
    assert client_for(role).get(ENDPOINT, {"loss": 0.003}).status_code == 200


def test_anonymous_and_roleless_users_may_not(anonymous, client_for):
    assert anonymous.get(ENDPOINT, {"loss": 0.003}).status_code == 401
    assert client_for(None).get(ENDPOINT, {"loss": 0.003}).status_code == 403
    assert client_for("admin").post(ENDPOINT, {"loss": 0.003}).status_code == 405
