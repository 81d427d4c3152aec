"""Client mistakes get clear 4xx answers, never a 500; the documentation endpoints and the UI work."""

import gzip
import json

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
        assert b"id=root" in response.content
    assert client.get("/assets/index-missing.js").status_code == 404


def test_a_routes_page_code_and_data_are_named_in_its_index_html(client, settings, tmp_path):
    # A phone fetches the ticket page's code and its ticket alongside the first download
    # (BENCHMARKS "Speed on a phone"): the build's route table says which files each route loads.
    (tmp_path / "index.html").write_text("<!doctype html><head><title>L</title></head><div id=root></div>")
    (tmp_path / "route-preloads.json").write_text(
        json.dumps(
            {
                "login": ["/assets/auth-pages-e5.js"],
                "tickets/:ticketId": ["/assets/tickets-pages-a1.js", "/assets/routes-b2.css"],
                "work-orders/:workOrderId": ["/assets/maintenance-pages-c3.js"],
                "work-orders/plan": ["/assets/maintenance-pages-c3.js", "/assets/plan-d4.js"],
            }
        )
    )
    settings.FRONTEND_DIST = tmp_path

    def head(route: str) -> str:
        response = client.get(route)
        assert response.status_code == 200
        return response.content.decode().split("</head>")[0]

    ticket = head("/tickets/12")
    assert '<link rel="modulepreload" crossorigin href="/assets/tickets-pages-a1.js">' in ticket
    assert '<link rel="preload" as="style" crossorigin href="/assets/routes-b2.css">' in ticket
    for data in ("/api/auth/me/", "/api/tickets/12/"):
        assert f'<link rel="preload" as="fetch" crossorigin="use-credentials" href="{data}">' in ticket
    assert "/assets/plan-d4.js" in head("/work-orders/plan/")  # the fixed part wins, as in the router
    assert "/assets/plan-d4.js" not in head("/work-orders/7")
    # Nobody is signed in on the login page; a ticket "id" that is not a number fetches no data.
    assert "/api/" not in head("/login")
    assert "/api/tickets/" not in head("/tickets/%3Cscript%3E")
    for unmatched in ("/tickets", "/tickets/12/extra", "/"):
        assert "preload" not in head(unmatched)


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


DATETIME_FILTERED = (
    "/api/decisions/?created__gte={}",
    "/api/jobs/?created={}",
    "/api/tickets/?created__lt={}",
    "/api/corruption-events/?first_seen__gt={}",
    "/api/circuit-schedules/?created__lte={}",
    "/api/audit/?timestamp__n={}",
    "/api/webhooks/?created={}",
)


@pytest.mark.parametrize("url", DATETIME_FILTERED)
def test_datetime_filters_beyond_what_postgresql_compares_are_400(client_for, url):
    client = client_for("admin")
    # PostgreSQL takes UTC offsets up to ±15:59; beyond, it raised DataError (a 500).
    for value in ("0679-09-19T15:35:03-22:38", "2026-01-01T00:00:00+16:00"):
        response = client.get(url.format(value.replace("+", "%2B")))
        assert response.status_code == 400, (url, value, response.content)
        assert "UTC offset" in str(response.json())
    assert client.get(url.format("2026-01-01T00:00:00%2B15:59")).status_code == 200


@pytest.mark.parametrize(
    ("method", "url", "body", "expected"),
    [
        ("post", "/api/demands/", [None, None], "a JSON object, got a list"),
        ("post", "/api/webhooks/", "AAA", "a JSON object, got a string"),
        ("post", "/api/jobs/", 5, "a JSON object, got a number"),
        ("patch", "/api/fabrics/{fabric}/", [{"name": "x"}], "a JSON object, got a list"),
        ("post", "/api/switches/{switch}/drain/", None, "a JSON object, got null"),
        ("put", "/api/fabrics/{fabric}/constraints/", [], "a JSON object, got a list"),
        ("patch", "/api/links/", "x", "a JSON object or a list of objects, got a string"),
        ("post", "/api/fabrics/", True, "a JSON object or a list of objects, got a boolean"),
    ],
)
def test_a_body_of_the_wrong_json_type_is_a_400(client_for, small_fabric, method, url, body, expected):
    switch = small_fabric.switches.order_by("id").first()
    url = url.format(fabric=small_fabric.pk, switch=switch.pk)
    response = client_for("admin").generic(method.upper(), url, json.dumps(body), content_type="application/json")
    assert response.status_code == 400, response.content
    assert response.json() == {"detail": f"Expected {expected}."}


def test_bulk_create_still_takes_a_list(client_for):
    response = client_for("planner").post(
        "/api/fabrics/", [{"name": "a", "tiers": ["t", "s"]}, {"name": "b", "tiers": ["t", "s"]}], format="json"
    )
    assert response.status_code == 201, response.content
    assert [(row["name"], row["switch_count"], row["link_count"]) for row in response.json()] == [
        ("a", 0, 0),
        ("b", 0, 0),
    ]


def test_a_write_answers_every_field_a_read_does(client_for, small_fabric):
    client = client_for("admin")
    created = client.post("/api/fabrics/", {"name": "empty", "tiers": ["tor", "spine"]}, format="json")
    assert created.status_code == 201
    assert created.json() == client.get(f"/api/fabrics/{created.json()['id']}/").json()
    assert (created.json()["switch_count"], created.json()["link_count"]) == (0, 0)
    changed = client.patch(f"/api/fabrics/{small_fabric.pk}/", {"description": "d"}, format="json")
    assert (changed.json()["switch_count"], changed.json()["link_count"]) == (9, 14)
    switch = client.patch(f"/api/switches/{small_fabric.switches.get(name='t0').pk}/", {"rack": "r1"}, format="json")
    assert switch.json()["drained"] is False


def test_integers_beyond_their_column_are_400(client_for, small_fabric):
    client = client_for("admin")
    response = client.post(
        "/api/switches/", {"fabric": small_fabric.pk, "name": "x", "tier": 70000, "pod": 2**40}, format="json"
    )
    assert response.status_code == 400
    assert {"tier", "pod"} <= set(response.json())
    link = small_fabric.links.order_by("id").first()
    response = client.patch(f"/api/links/{link.pk}/", {"speed_gbps": 10**20, "length_m": 1e308}, format="json")
    assert response.status_code == 400
    assert {"speed_gbps", "length_m"} <= set(response.json())


def test_an_api_path_no_route_matches_is_a_json_404(client_for):
    for path in ("/api/nothing-here/", "/api/fabrics/0.5/", "/api/demands/abc/matrix/"):
        response = client_for("viewer").get(path)
        assert response.status_code == 404
        assert response.json() == {"detail": "Not found."}


def test_a_csrf_refusal_is_json(make_user):
    from rest_framework.test import APIClient

    make_user("viewer", username="csrf-user")
    client = APIClient(enforce_csrf_checks=True)
    response = client.post("/api/auth/login/", {"username": "csrf-user", "password": "x"}, format="json")
    assert response.status_code == 403
    assert response.json()["detail"].startswith("CSRF Failed")


def test_the_schema_documents_errors_and_nullable_names(client_for):
    document = client_for("viewer").get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    paths, schemas = document["paths"], document["components"]["schemas"]
    assert set(paths["/api/fabrics/{id}/"]["patch"]["responses"]) == {
        "200", "400", "401", "403", "404", "413", "415"
    }  # fmt: skip
    assert set(paths["/api/fabrics/"]["get"]["responses"]) == {"200", "400", "401", "403", "414"}
    assert list(paths["/api/fabrics/"]["get"]["responses"]["414"]["content"]) == ["text/html"]  # gunicorn's page
    assert set(paths["/api/health/"]["get"]["responses"]) == {"200"}
    link_patch = paths["/api/links/{id}/"]["patch"]["responses"]
    assert link_patch["409"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/GuardRefusal"}
    assert "409" in paths["/api/tickets/{id}/act/"]["post"]["responses"]
    assert "429" in paths["/api/auth/token/"]["post"]["responses"]
    assert schemas["Error"]["required"] == ["detail"]
    nullable = {
        ("Job", "created_by"), ("Ticket", "assignee"), ("Link", "admin_changed_by"), ("Decision", "blocking_tor_name"),
        ("AuditEvent", "user"), ("Demand", "uploaded_by"), ("TicketStep", "technician"),
    }  # fmt: skip
    for component, field in nullable:
        assert schemas[component]["properties"][field].get("nullable") is True, (component, field)
    assert "nullable" not in schemas["Link"]["properties"]["a_switch_name"]


@pytest.mark.parametrize("body", ["[" * 5000 + "]" * 5000, '{"a":' * 5000 + "1" + "}" * 5000])
def test_json_nested_too_deeply_is_a_400_even_before_login(anonymous, client_for, body):
    response = anonymous.generic("POST", "/api/auth/token/", body, content_type="application/json")
    assert response.status_code == 400 and "nested too deeply" in response.json()["detail"]
    response = client_for("planner").generic("POST", "/api/demands/", body, content_type="application/json")
    assert response.status_code == 400 and "nested too deeply" in response.json()["detail"]
