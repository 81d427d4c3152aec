"""Security headers and the login throttle on a real gunicorn started as run-stack.sh starts it
(with backend/gunicorn.conf.py): no `Server: gunicorn`, a Content-Security-Policy without inline
script on the UI, the API and Swagger UI, and failed logins counted across worker processes."""

import re
import uuid

import httpx
import pytest

from .servers import web_server

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "pw-for-tests-only"


@pytest.fixture(scope="module")
def web(django_db_setup, tmp_path_factory):
    log = tmp_path_factory.mktemp("web") / "web.log"
    # Login counts of this run only.
    with web_server(log, env={"LIGHTPATH_CACHE_PREFIX": f"test-web-{uuid.uuid4().hex}"}) as server:
        yield server.base


@pytest.fixture
def viewer(django_user_model):
    """Authorization headers of a viewer (Swagger UI and the schema need a role)."""
    from django.contrib.auth.models import Group
    from rest_framework.authtoken.models import Token

    user = django_user_model.objects.create_user("vera", password=PASSWORD)
    user.groups.add(Group.objects.get_or_create(name="viewer")[0])
    return {"Authorization": f"Token {Token.objects.create(user=user).key}"}


def directives(response: httpx.Response) -> dict[str, str]:
    policy = response.headers["Content-Security-Policy"]
    return dict(part.strip().split(" ", 1) for part in policy.split(";"))


def test_no_server_software_is_named(web):
    for path in ("/api/health/", "/api/auth/me/", "/", "/api/docs/", "/admin/login/"):
        response = httpx.get(f"{web}{path}")
        assert response.headers.get_list("Server") == ["lightpath"], path
        assert "gunicorn" not in str(response.headers).lower(), path
        assert response.headers["X-Content-Type-Options"] == "nosniff", path


def test_every_page_has_a_policy_without_inline_script(web, viewer):
    for path in ("/api/health/", "/", "/fabrics", "/api/docs/", "/admin/login/", "/api/schema/"):
        response = httpx.get(f"{web}{path}", headers=viewer)
        assert response.status_code == 200, path
        policy = directives(response)
        assert policy["script-src"] == "'self'" and policy["default-src"] == "'self'", path
        assert policy["object-src"] == "'none'" and policy["frame-ancestors"] == "'none'", path
        if "text/html" in response.headers.get("Content-Type", ""):
            # Every <script> of the page has a src: nothing the policy would block.
            for tag in re.findall(r"<script\b[^>]*>", response.text):
                assert " src=" in tag, (path, tag)
    assert directives(httpx.get(f"{web}/"))["style-src"] == "'self'"  # the UI: no inline style either
    assert directives(httpx.get(f"{web}/api/docs/", headers=viewer))["style-src"] == "'self' 'unsafe-inline'"


def test_swagger_ui_loads_its_script_from_lightpath(web, viewer):
    page = httpx.get(f"{web}/api/docs/", headers=viewer)
    sources = re.findall(r'<script\b[^>]*\bsrc="([^"]+)"', page.text)
    assert len(sources) == 3
    for source in sources:
        script = httpx.get(httpx.URL(f"{web}/api/docs/").join(source.replace("&amp;", "&")), headers=viewer)
        assert script.status_code == 200 and "javascript" in script.headers["Content-Type"], source
    assert "SwaggerUIBundle(" in script.text  # the split view's own script, as a file


def test_failed_logins_are_counted_across_worker_processes(web, django_user_model):
    django_user_model.objects.create_user("ada", password=PASSWORD)
    answers = []
    with httpx.Client(base_url=web) as first, httpx.Client(base_url=web) as second:
        # Two connections: gunicorn's two worker processes share the failures in Redis.
        for number in range(10):
            client = first if number % 2 else second
            answers.append(client.post("/api/auth/token/", json={"username": "ada", "password": "guess"}).status_code)
        locked = first.post("/api/auth/token/", json={"username": "ada", "password": PASSWORD})
    assert answers == [400] * 10
    assert locked.status_code == 429 and 0 < int(locked.headers["Retry-After"]) <= 60


def test_a_url_longer_than_the_request_line_limit_is_414_as_documented(web, viewer):
    """gunicorn refuses it before Django (an HTML page); the OpenAPI document says so (schema.py)."""
    response = httpx.get(f"{web}/api/fabrics/", params={"name": "x" * 5000}, headers=viewer)
    assert response.status_code == 414 and response.headers["content-type"].startswith("text/html")
