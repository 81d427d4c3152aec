"""The CLI's HTTP client asks the server for gzip and reads it: large results (a 100K-link plan's
21 MB of JSON) cross the network as about a tenth of that (BENCHMARKS.md, "Large results over HTTP")."""

from __future__ import annotations

import os
from typing import Any

import pytest
from cli_testing import FIXTURE_DATA, Cli, import_file

from lightpath_cli.server.client import ApiClient

if not os.environ.get("DJANGO_SETTINGS_MODULE"):
    pytest.skip("needs the backend's Django settings: run pytest from the repository root", allow_module_level=True)

pytestmark = pytest.mark.django_db(transaction=True, databases="__all__")


def test_the_cli_client_asks_for_gzip_and_decodes_it(planner: Cli, live_server: Any) -> None:
    from rest_framework.authtoken.models import Token

    fabric = import_file(planner, FIXTURE_DATA / "fat-tree-k4.json")
    token = Token.objects.get(user__username="cli-planner").key

    with ApiClient(live_server.url, token) as api:
        response = api.request("GET", "/api/links/", params={"fabric": fabric["id"], "limit": 100})

    assert "gzip" in response.request.headers["Accept-Encoding"]
    assert response.headers["Content-Encoding"] == "gzip"
    assert int(response.headers["Content-Length"]) < len(response.content)  # sent packed, read unpacked
    links = response.json()
    assert links["count"] == 32
    assert [row["id"] for row in planner.json("links", "list", "--fabric", fabric["name"])] == [
        row["id"] for row in links["results"]
    ]
