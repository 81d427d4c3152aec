"""Client mistakes get clear 4xx answers, never a 500; the documentation endpoints and the UI work."""

import gzip

import pytest
from django.test import override_settings

pytestmark = pytest.mark.django_db


def test_malformed_json_is_a_400(client_for):
    response = client_for("planner").generic("POST", "/api/fabrics/", "{not json", content_type="application/json")
    assert response.status_code == 400
    assert "JSON parse error" in response.json()["detail"]


def test_wrong_types_list_every_field(client_for):
    response = client_for("planner").post(
        "/api/fabrics/", {"name": 5.5, "tiers": "tor", "capacity_constraint": "x"}, format="json"
    )
    assert response.status_code == 400
    assert {"tiers", "capacity_constraint"} <= set(response.json())


def test_unknown_foreign_keys_are_400(client_for):
    response = client_for("planner").post(
        "/api/links/", {"fabric": 999, "a_switch": 998, "a_port": "x", "z_switch": 997, "z_port": "y"}, format="json"
    )
    assert response.status_code == 400
    assert {"fabric", "a_switch", "z_switch"} <= set(response.json())


def test_nul_characters_are_400_not_500(client_for, small_fabric, small_document):
    client = client_for("planner")
    assert client.get("/api/fabrics/", {"name": "a\x00b"}).status_code == 400
    assert client.get("/api/switches/", {"rack": "r\x00"}).status_code == 400
    assert client.get("/api/switches/", {"name__ic": "t\x00"}).status_code == 400
    small_document["name"] = "nul\x00name"
    small_document["links"][0]["a_port"] = "eth\x00"
    response = client.post("/api/fabrics/import/", small_document, format="json")
    assert response.status_code == 400
    assert {(e["section"], e["field"]) for e in response.json()["errors"]} == {("fabric", "name"), ("links", "a_port")}
    assert client.post("/api/fabrics/", {"name": "x\x00", "tiers": ["a", "b"]}, format="json").status_code == 400


def test_unsupported_media_type(client_for):
    response = client_for("planner").generic(
        "POST", "/api/fabrics/", "name=x", content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 415


@override_settings(LIGHTPATH_MAX_BODY_BYTES=1000)
def test_oversized_body_is_413(client_for, small_document):
    response = client_for("planner").post("/api/fabrics/import/", small_document, format="json")
    assert response.status_code == 413
    assert "exceeds" in response.json()["detail"]


def test_health(anonymous):
    body = anonymous.get("/api/health/").json()
    assert body["status"] == "ok" and body["database"] == "ok" and body["broker"] == "ok"
    assert body["engine"]


def test_schema_and_swagger_ui_work_offline(client_for):
    client = client_for("viewer")
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    assert {"/api/fabrics/", "/api/fabrics/import/", "/api/fabrics/{id}/capacity/", "/api/jobs/{id}/cancel/"} <= set(
        paths
    )
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    assert b"/static/drf_spectacular_sidecar/" in docs.content  # served locally, no CDN


def test_schema_is_valid_openapi_without_warnings(tmp_path):
    """Generated clients get stable names (JobKindEnum, TicketStateEnum, ...), not hashed ones, and
    every filter's type is known."""
    from django.core.management import call_command

    schema = tmp_path / "schema.yml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(schema))
    text = schema.read_text()
    assert "JobKindEnum:" in text and "TicketStateEnum:" in text and "DecisionKindEnum:" in text


def test_unknown_api_path_is_json_404_not_the_app(client_for):
    response = client_for("viewer").get("/api/nothing-here/")
    assert response.status_code == 404


def test_client_routes_get_the_app_and_missing_assets_stay_404(client, settings, tmp_path):
    (tmp_path / "index.html").write_text("<!doctype html><div id=root></div>")
    settings.FRONTEND_DIST = tmp_path
    for route in ("/", "/fabrics/3", "/jobs"):
        response = client.get(route)
        assert response.status_code == 200
        assert b"id=root" in b"".join(response.streaming_content)
    assert client.get("/assets/index-missing.js").status_code == 404


def test_the_built_ui_goes_compressed_to_browsers_that_accept_it(client, settings):
    # `make frontend` writes a .gz beside each built file; WhiteNoise serves it (JS about 3x smaller).
    scripts = sorted((settings.FRONTEND_DIST / "assets").glob("*.js"))
    if not scripts:
        pytest.skip("the UI is not built (make frontend)")
    url = f"/assets/{scripts[0].name}"
    packed = client.get(url, HTTP_ACCEPT_ENCODING="gzip, br;q=0")
    plain = client.get(url)
    assert packed["Content-Encoding"] == "gzip"
    assert "Content-Encoding" not in plain
    packed_body, plain_body = (b"".join(r.streaming_content) for r in (packed, plain))
    assert gzip.decompress(packed_body) == plain_body == scripts[0].read_bytes()
    assert len(packed_body) < len(plain_body) / 2
