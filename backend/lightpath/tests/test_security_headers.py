"""Security headers and the login throttle on a real gunicorn started as run-stack.sh starts it
(with backend/gunicorn.conf.py): no `Server: gunicorn`, a Content-Security-Policy without inline
script on the UI, the API and Swagger UI, and failed logins counted across worker processes."""

import os
import re
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx
import pytest
from django.conf import settings
from django.db import connections

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "pw-for-tests-only"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def web(django_db_setup, django_db_blocker, tmp_path_factory):
    port = free_port()
    log = tmp_path_factory.mktemp("web") / "web.log"
    env = {
        **os.environ,
        "LIGHTPATH_DB_NAME": connections["default"].settings_dict["NAME"],
        "LIGHTPATH_CACHE_PREFIX": f"test-web-{uuid.uuid4().hex}",  # login counts of this run only
    }
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "lightpath.wsgi",
             "--config", str(settings.BACKEND_DIR / "gunicorn.conf.py"), "--chdir", str(settings.BACKEND_DIR),
             "--bind", f"127.0.0.1:{port}", "--workers", "2", "--threads", "4", "--timeout", "60"],
            env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn exited:\n{Path(log).read_text()[-3000:]}")
        try:
            if httpx.get(f"{base}/api/health/", timeout=2).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"gunicorn not healthy in time:\n{Path(log).read_text()[-3000:]}")
        time.sleep(0.2)
    yield base
    process.terminate()
    process.wait(timeout=30)


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
