"""The transceiver catalog's RAIL fields: the seeded standard parts and editing them through the API."""

import importlib

import pytest
from django.apps import apps

import lightpath_engine
from fabric.models import TransceiverModel

seeding = importlib.import_module("migrations.fabric.0005_seed_rail_catalog")
ENDPOINT = "/api/transceiver-models/"


def test_the_migration_seeds_the_engines_standard_catalog(db):
    engine = {row["name"]: row for row in lightpath_engine.rail_standard_catalog()}
    stored = {row.name: row for row in TransceiverModel.objects.filter(name__in=engine)}
    assert set(stored) == set(engine)
    for name, part in engine.items():
        row = stored[name]
        assert (row.speed_gbps, row.fiber, row.reach_m) == (part["speed_gbps"], part["fiber"], part["rated_reach_m"])
        assert row.stretch == part["stretch"]
        if part["price_usd"] is not None:  # only the seed's 10G prices
            assert (float(row.price_usd), row.price_source) == (part["price_usd"], "seed")
        else:
            assert row.price_usd is not None and row.price_source == "demo"
    assert stored["100G-SR4"].rx_power_min_dbm == -10.3


def test_seeding_fills_only_the_empty_fields_of_an_existing_part(db):
    TransceiverModel.objects.filter(name__in=["10GBASE-SR", "40GBASE-SR4"]).delete()
    TransceiverModel.objects.create(
        name="10GBASE-SR", speed_gbps=10, fiber="MMF", reach_m=300.0, price_usd=70, price_source="planner"
    )
    TransceiverModel.objects.create(
        name="40GBASE-SR4", speed_gbps=40, fiber="MMF", reach_m=100.0, stretch=[{"nrb": 0.9, "reach_m": 450.0}]
    )
    seeding.seed(apps, None)
    sr = TransceiverModel.objects.get(name="10GBASE-SR")
    assert (float(sr.price_usd), sr.price_source) == (70.0, "planner")  # kept
    assert sr.stretch == [{"nrb": 0.99, "reach_m": 480.0}, {"nrb": 0.95, "reach_m": 580.0}]  # was empty
    sr4 = TransceiverModel.objects.get(name="40GBASE-SR4")
    assert sr4.stretch == [{"nrb": 0.9, "reach_m": 450.0}]  # kept
    assert (float(sr4.price_usd), sr4.price_source) == (304.0, "demo")  # was empty
    assert TransceiverModel.objects.filter(name="10GBASE-SR").count() == 1


def test_a_planner_adds_a_part_with_stretch_and_its_price_is_labelled_as_theirs(client_for):
    response = client_for("planner").post(
        ENDPOINT,
        {
            "name": "25GBASE-SR",
            "speed_gbps": 25,
            "fiber": "MMF",
            "reach_m": 100,
            "price_usd": "45.00",
            "stretch": [{"nrb": 0.95, "reach_m": 200}, {"nrb": 0.99, "reach_m": 150}],
            "link_fec": True,
            "power_w": 1.0,
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["price_source"] == "planner"
    assert body["stretch"] == [{"nrb": 0.99, "reach_m": 150.0}, {"nrb": 0.95, "reach_m": 200.0}]  # strictest first
    assert (body["link_fec"], body["power_w"]) == (True, 1.0)


def test_changing_a_demo_price_makes_it_the_planners_and_clearing_it_drops_the_label(client_for):
    client = client_for("planner")
    part = TransceiverModel.objects.get(name="40GBASE-SR4")
    url = f"{ENDPOINT}{part.pk}/"
    assert client.patch(url, {"power_w": 1.5}, format="json").json()["price_source"] == "demo"
    assert client.patch(url, {"price_usd": "280.00"}, format="json").json()["price_source"] == "planner"
    assert client.patch(url, {"price_usd": None}, format="json").json()["price_source"] == ""
    assert client.patch(url, {"price_usd": "1.00", "price_source": "seed"}, format="json").json()["price_source"] == (
        "seed"
    )


def test_bad_catalog_input_gets_a_400_listing_every_problem(client_for):
    response = client_for("planner").post(
        ENDPOINT,
        {
            "name": "bad",
            "speed_gbps": 10,
            "fiber": "MMF",
            "reach_m": 300,
            "price_usd": "-1",
            "power_w": -2,
            "stretch": [
                {"nrb": 0.99, "reach_m": 500},
                {"nrb": 0.99, "reach_m": 600},
                {"nrb": 1.5, "reach_m": 700},
                {"nrb": 0.9, "reach_m": 250},
                {"nrb": 0.95, "reach_m": 450},
                "x",
            ],
        },
        format="json",
    )
    assert response.status_code == 400
    errors = response.json()
    stretch = " | ".join(errors["stretch"])
    assert "stretch[1].nrb: 0.99 is listed twice" in stretch
    assert "stretch[2].nrb: must be a fraction in (0, 1)" in stretch
    assert "stretch[3].reach_m: 250 is not beyond the rated reach 300" in stretch
    assert "stretch[5]: must be an object" in stretch
    assert "NRB 0.95 reaches 450 m, less than the 500 m of the stricter NRB 0.99" in stretch
    assert "price_usd" in errors and "power_w" in errors
    assert not TransceiverModel.objects.filter(name="bad").exists()


def test_a_new_rated_reach_beyond_the_stretch_is_refused(client_for):
    part = TransceiverModel.objects.get(name="10GBASE-SR")
    response = client_for("planner").patch(f"{ENDPOINT}{part.pk}/", {"reach_m": 500}, format="json")
    assert response.status_code == 400
    assert "480 is not beyond the rated reach 500" in response.json()["reach_m"][0]


@pytest.mark.parametrize(
    ("role", "create", "delete"),
    [
        ("viewer", 403, 403),
        ("technician", 403, 403),
        ("operator", 403, 403),
        ("collector", 403, 403),
        ("planner", 201, 403),
        ("admin", 201, 204),
    ],
)
def test_planners_and_admins_edit_the_catalog_and_only_admins_delete(client_for, role, create, delete):
    client = client_for(role)
    created = client.post(
        ENDPOINT,
        {"name": f"part-{role}", "speed_gbps": 10, "fiber": "SMF", "reach_m": 2000, "stretch": []},
        format="json",
    )
    assert created.status_code == create
    part = TransceiverModel.objects.get(name="100G-LR4")
    assert client.patch(f"{ENDPOINT}{part.pk}/", {"power_w": 3.5}, format="json").status_code == (
        200 if create == 201 else 403
    )
    assert client.delete(f"{ENDPOINT}{part.pk}/").status_code == delete
    assert client.get(ENDPOINT, {"speed_gbps": 100}).json()["count"] == (2 if delete == 204 else 3)
