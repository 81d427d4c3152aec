"""Import, export and their errors, through the API as scripts and the CLI use them."""

import json

import pytest

from audit.models import AuditEvent
from fabric.models import Fabric, Link, Switch, Transceiver, TransceiverModel
from lightpath.settings import REPO_ROOT
from lightpath_fixtures import fat_tree, fb_fabric, leaf_spine

pytestmark = pytest.mark.django_db
FIXTURES = REPO_ROOT / "fixtures" / "data"


def test_import_creates_everything_and_one_audit_row(client_for, small_document):
    response = client_for("planner").post("/api/fabrics/import/", small_document, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["name"], body["switch_count"], body["link_count"]) == ("small", 9, 14)
    fabric = Fabric.objects.get(name="small")
    # top-down rows are stored with the lower tier as side A
    link = Link.objects.get(fabric=fabric, z_switch__name="s0", a_switch__name="f0")
    assert (link.a_port, link.z_port) == ("u0", "p0")
    assert Transceiver.objects.filter(link__fabric=fabric).count() == 2  # both ends of the one link with a model
    event = AuditEvent.objects.get(action="import", object_id=fabric.pk)
    assert event.after["links"] == 14 and event.user.username.startswith("planner")


def test_import_reports_every_bad_row_and_writes_nothing(client_for):
    document = json.loads((FIXTURES / "bad-fabric.json").read_text())
    before = (Fabric.objects.count(), Switch.objects.count(), Link.objects.count(), TransceiverModel.objects.count())
    response = client_for("planner").post("/api/fabrics/import/", document, format="json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    messages = " | ".join(e["message"] for e in errors)
    assert "adjacent tiers" in messages
    assert "unknown switch" in messages
    assert "already used" in messages
    assert all({"section", "index", "field", "message"} <= set(e) for e in errors)
    assert all(e["index"] is not None for e in errors if e["section"] == "links")
    after = (Fabric.objects.count(), Switch.objects.count(), Link.objects.count(), TransceiverModel.objects.count())
    assert before == after


def test_bad_fabric_fixture_has_exactly_its_three_deliberate_faults():
    from fabric.services import InterchangeError, validate_document
    from lightpath_fixtures.canned import BAD_FABRIC_FAULTS

    with pytest.raises(InterchangeError) as caught:
        validate_document(json.loads((FIXTURES / "bad-fabric.json").read_text()))
    errors = caught.value.errors
    assert [(e["section"], e["index"]) for e in errors] == [("links", i) for i in sorted(BAD_FABRIC_FAULTS.values())]
    by_index = {e["index"]: e["message"] for e in errors}
    assert "adjacent tiers" in by_index[BAD_FABRIC_FAULTS["non_adjacent_tiers"]]
    assert "unknown switch 'p0-fab9'" in by_index[BAD_FABRIC_FAULTS["unknown_switch"]]
    assert "already used" in by_index[BAD_FABRIC_FAULTS["duplicate_port"]]


@pytest.mark.parametrize(
    "document",
    [fat_tree(8), fb_fabric(4, tors_per_pod=16), leaf_spine(8, 4)],
    ids=["fat_tree", "fb_fabric", "leaf_spine"],
)
def test_generated_documents_pass_the_import_rules(document):
    from fabric.services import validate_document

    plan = validate_document(document)
    assert (len(plan.switches), len(plan.links)) == (len(document["switches"]), len(document["links"]))


def test_dry_run_validates_without_writing(client_for, small_document):
    client = client_for("planner")
    # The catalog ships with the standard parts (migration fabric 0005): a lab part is new.
    small_document["transceiver_models"][0]["name"] = small_document["links"][0]["transceiver_model"] = "100G-SR4-lab"
    response = client.post("/api/fabrics/import/?dry_run=1", small_document, format="json")
    assert response.status_code == 200
    assert response.json() == {
        "valid": True,
        "switches": 9,
        "links": 14,
        "transceiver_models_created": ["100G-SR4-lab"],
        "transceiver_models_kept": [],
    }
    assert not Fabric.objects.exists()
    bad = client.post("/api/fabrics/import/?dry_run=1", {**small_document, "tiers": ["x"]}, format="json")
    assert bad.status_code == 400 and bad.json()["errors"]


def test_a_catalog_model_is_kept_and_its_differences_named(client_for, small_document):
    """The catalog is shared by every fabric: a document must not reprice another fabric's optics. The
    dry run names each field the document describes otherwise; the import keeps the catalog's entry."""
    client = client_for("planner")
    model = small_document["transceiver_models"][0]
    model.update(name="100G-SR4", price_usd=45.5, reach_m=70, tx_power_min_dbm=-6.0)
    small_document["links"][0]["transceiver_model"] = "100G-SR4"
    catalog_before = TransceiverModel.objects.filter(name="100G-SR4").values().get()

    checked = client.post("/api/fabrics/import/?dry_run=1", small_document, format="json").json()
    assert checked["transceiver_models_created"] == []
    assert checked["transceiver_models_kept"] == [
        {
            "name": "100G-SR4",
            "differences": {
                "price_usd": {"document": 45.5, "catalog": 99.0},
                "tx_power_min_dbm": {"document": -6.0, "catalog": -8.4},
            },
        }
    ]

    assert client.post("/api/fabrics/import/", small_document, format="json").status_code == 201
    assert TransceiverModel.objects.filter(name="100G-SR4").values().get() == catalog_before
    event = AuditEvent.objects.get(action="import", object_id=Fabric.objects.get(name="small").pk)
    assert event.after["transceiver_models_kept"] == checked["transceiver_models_kept"]


@pytest.mark.parametrize(
    ("change", "section", "field", "text"),
    [
        (lambda d: d.update(tiers=["only"]), "fabric", "tiers", "at least two"),
        (lambda d: d.update(capacity_constraint="high"), "fabric", "capacity_constraint", "number"),
        (lambda d: d["switches"][0].update(tier=7), "switches", "tier", "below 3"),
        (lambda d: d["switches"][1].update(name="t0"), "switches", "name", "duplicate"),
        (lambda d: d["switches"][0].update(colour="red"), "switches", "colour", "unknown field"),
        (lambda d: d["links"][0].update(length_m=-1), "links", "length_m", "at least"),
        (lambda d: d["links"][0].update(fiber="copper"), "links", "fiber", "one of"),
        (lambda d: d["links"][1].update(transceiver_model="nope"), "links", "transceiver_model", "unknown transceiver"),
        (lambda d: d["links"][2].update(speed_gbps=True), "links", "speed_gbps", "integer"),
        (lambda d: d.update(format="other/9"), "fabric", "format", "unsupported"),
        (
            lambda d: d["transceiver_models"][0].update(stretch=[{"nrb": 1.5, "reach_m": 400}]),
            "transceiver_models",
            "stretch",
            "fraction in (0, 1)",
        ),
        (lambda d: d["transceiver_models"][0].update(link_fec="yes"), "transceiver_models", "link_fec", "true or"),
        (
            lambda d: d["transceiver_models"][0].update(price_source="guess"),
            "transceiver_models",
            "price_source",
            "one",
        ),
    ],
)
def test_import_field_errors(client_for, small_document, change, section, field, text):
    change(small_document)
    response = client_for("planner").post("/api/fabrics/import/", small_document, format="json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert any(e["section"] == section and e["field"] == field and text in e["message"] for e in errors), errors
    assert not Fabric.objects.filter(name="small").exists()


def test_import_refuses_a_duplicate_name(client_for, small_document, small_fabric):
    response = client_for("planner").post("/api/fabrics/import/", small_document, format="json")
    assert response.status_code == 400
    assert "already exists" in response.json()["errors"][0]["message"]


def test_import_rejects_non_objects(client_for):
    client = client_for("planner")
    assert client.post("/api/fabrics/import/", [1, 2], format="json").status_code == 400
    response = client.post("/api/fabrics/import/", {"name": "x", "tiers": ["a", "b"], "links": "nope"}, format="json")
    assert response.status_code == 400


def test_a_body_that_is_not_a_json_object_gets_the_imports_error_rows(client_for):
    client = client_for("planner")
    for body in ("{not json", "[1, 2]", '"text"'):
        response = client.generic("POST", "/api/fabrics/import/", body, content_type="application/json")
        assert response.status_code == 400
        (row,) = response.json()["errors"]
        assert (row["section"], row["index"], row["field"]) == ("fabric", None, None)
        assert row["message"]


@pytest.mark.parametrize("background", [False, True])
def test_numbers_beyond_their_column_or_physics_are_rows_of_the_400(client_for, small_document, background):
    small_document["switches"][0]["pod"] = 2**40
    small_document["switches"][1]["tier"] = 70_000
    small_document["links"][0]["speed_gbps"] = 10**20
    small_document["links"][1]["length_m"] = 1e308
    small_document["transceiver_models"][0]["price_usd"] = 1e12
    small_document["transceiver_models"][0]["reach_m"] = 2e6
    url = "/api/fabrics/import/?background=1" if background else "/api/fabrics/import/"
    response = client_for("planner").post(url, small_document, format="json")
    assert response.status_code == 400, response.content  # never a 500 or a failed job
    rows = {(e["section"], e["index"], e["field"]): e["message"] for e in response.json()["errors"]}
    assert rows == {
        ("switches", 0, "pod"): "must be at most 2147483647",
        ("switches", 1, "tier"): "must be at most 32767",
        ("links", 0, "speed_gbps"): "must be at most 2147483647",
        ("links", 1, "length_m"): "must be at most 1000000",
        ("transceiver_models", 0, "price_usd"): "must be at most 99999999.99",
        ("transceiver_models", 0, "reach_m"): "must be at most 1000000",
    }
    assert not Fabric.objects.filter(name="small").exists()


def test_an_import_needs_a_switch_but_an_empty_fabric_can_be_created(client_for):
    client = client_for("planner")
    empty = {"name": "empty", "tiers": ["leaf", "spine"], "switches": [], "links": []}
    for document in (empty, {"name": "empty", "tiers": ["leaf", "spine"]}):
        response = client.post("/api/fabrics/import/", document, format="json")
        assert response.status_code == 400
        assert response.json()["errors"] == [
            {"section": "switches", "index": None, "field": None, "message": "an import needs at least one switch"}
        ]
    created = client.post("/api/fabrics/", {"name": "empty", "tiers": ["leaf", "spine"]}, format="json")
    assert created.status_code == 201
    assert (created.json()["switch_count"], created.json()["link_count"]) == (0, 0)


def test_links_csv_inside_the_document(client_for, small_document):
    rows = small_document.pop("links")
    header = "a,a_port,b,b_port,length_m,speed_gbps,fiber,transceiver_model"
    lines = [f"{r['a']},{r['a_port']},{r['b']},{r['b_port']},{r.get('length_m', '')},,," for r in rows]
    small_document["links_csv"] = "\n".join([header, *lines])
    response = client_for("planner").post("/api/fabrics/import/", small_document, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["link_count"] == 14


def test_export_round_trip(client_for, small_document, small_fabric):
    client = client_for("viewer")
    exported = client.get(f"/api/fabrics/{small_fabric.pk}/export/").json()
    assert exported["format"] == "lightpath-fabric/1"
    assert len(exported["switches"]) == 9 and len(exported["links"]) == 14
    # importing the export under another name gives the same fabric
    exported["name"] = "small-copy"
    assert client_for("planner").post("/api/fabrics/import/", exported, format="json").status_code == 201
    again = client.get(f"/api/fabrics/{Fabric.objects.get(name='small-copy').pk}/export/").json()
    assert again["links"] == exported["links"] and again["switches"] == exported["switches"]
    csv_text = client.get(f"/api/fabrics/{small_fabric.pk}/export/", {"format": "csv"}).content.decode()
    assert csv_text.splitlines()[0] == "a,a_port,b,b_port,length_m,speed_gbps,fiber,transceiver_model"
    assert len(csv_text.splitlines()) == 15
    assert client.get(f"/api/fabrics/{small_fabric.pk}/export/", {"format": "xml"}).status_code == 400


def test_a_new_part_keeps_its_rail_fields_through_import_and_export(client_for, small_document):
    small_document["transceiver_models"][0].update(
        name="100G-SR4-lab", stretch=[{"nrb": 0.99, "reach_m": 120.0}], link_fec=True, power_w=3.5, price_usd=99
    )
    for link in small_document["links"]:
        link["transceiver_model"] = "100G-SR4-lab"
    planner = client_for("planner")
    assert planner.post("/api/fabrics/import/", small_document, format="json").status_code == 201
    fabric = Fabric.objects.get(name="small")
    exported = planner.get(f"/api/fabrics/{fabric.pk}/export/").json()
    (part,) = exported["transceiver_models"]
    # A price without a source was entered by someone: labelled as the planner's, not the seed's.
    assert (part["stretch"], part["link_fec"], part["power_w"], part["price_source"]) == (
        [{"nrb": 0.99, "reach_m": 120.0}],
        True,
        3.5,
        "planner",
    )


def test_canned_fixtures_import(client_for):
    client = client_for("planner")
    for name in ("demo-fb.json", "fat-tree-k4.json", "leaf-spine-4x2.json"):
        document = json.loads((FIXTURES / name).read_text())
        response = client.post("/api/fabrics/import/", document, format="json")
        assert response.status_code == 201, (name, response.content[:500])
