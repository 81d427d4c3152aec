"""login, logout, whoami, token resolution and server errors against the real backend.

The offline half (no server, or none reachable) is in test_cli_config_and_errors.py.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from cli_testing import PASSWORD, Cli, logged_in_as

if not os.environ.get("DJANGO_SETTINGS_MODULE"):
    pytest.skip("needs the backend's Django settings: run pytest from the repository root", allow_module_level=True)

pytestmark = pytest.mark.django_db(transaction=True, databases="__all__")

NOT_LOGGED_IN = "error: not logged in (run `lightpath login` or set LIGHTPATH_TOKEN)\n"


def token_of(username: str) -> str:
    """The user's API token, as POST /api/auth/token/ would hand it out."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    key: str = Token.objects.get_or_create(user=get_user_model().objects.get(username=username))[0].key
    return key


@pytest.fixture
def planner_account(make_role_user: Callable[..., Any]) -> str:
    make_role_user("cli-planner", "planner")
    return "cli-planner"


def test_login_saves_server_and_token_privately(cli: Cli, live_server: Any, planner_account: str) -> None:
    result = cli("--server", live_server.url, "login", "--username", "cli-planner", "--password", PASSWORD)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == (
        f"Logged in to {live_server.url} as cli-planner (planner); token saved in {cli.config_file}\n"
    )
    assert stat.S_IMODE(cli.config_file.stat().st_mode) == 0o600
    text = cli.config_file.read_text()
    assert f'server = "{live_server.url}"' in text and f'token = "{token_of("cli-planner")}"' in text

    # Later commands use the saved server and token without being told.
    assert cli.json("whoami") == {
        "server": live_server.url,
        "username": "cli-planner",
        "roles": ["planner"],
        "is_admin": False,
    }
    assert cli.json("fabric", "list") == []


def test_login_prompts_for_missing_credentials(cli: Cli, live_server: Any, planner_account: str) -> None:
    result = cli("--server", live_server.url, "login", input=f"cli-planner\n{PASSWORD}\n")
    assert result.exit_code == 0, result.stderr
    assert PASSWORD not in result.output  # the password prompt hides what is typed
    assert cli.json("whoami")["username"] == "cli-planner"


def test_failed_login_keeps_the_old_config(cli: Cli, live_server: Any, planner_account: str) -> None:
    wrong = cli("--server", live_server.url, "login", "-u", "cli-planner", "-p", "not-the-password")
    assert wrong.exit_code == 1
    assert wrong.stderr == f"error: login to {live_server.url} failed: Invalid username or password.\n"
    assert not cli.config_file.exists()

    logged_in_as(cli, live_server.url, "cli-planner")
    saved = cli.config_file.read_text()
    again = cli("login", "-u", "cli-planner", "-p", "not-the-password")
    assert again.exit_code == 1
    assert cli.config_file.read_text() == saved
    assert cli.json("whoami")["username"] == "cli-planner"


def test_login_rejected_field_by_field(cli: Cli, live_server: Any) -> None:
    # The server's serializer rejects these before looking for the user: DRF's {"field": ["message"]}.
    result = cli("--server", live_server.url, "login", "-u", "x" * 151, "-p", "")
    assert result.exit_code == 1
    assert result.stderr == (
        f"error: login to {live_server.url} failed: "
        "username: Ensure this field has no more than 150 characters.; password: This field may not be blank.\n"
    )
    assert not cli.config_file.exists()


def test_login_output_as_json(cli: Cli, live_server: Any, planner_account: str) -> None:
    result = cli("--server", live_server.url, "--output", "json", "login", "-u", "cli-planner", "-p", PASSWORD)
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == {"server": live_server.url, "username": "cli-planner", "roles": ["planner"]}


def test_env_token_wins_and_saved_token_stays_with_its_server(
    cli: Cli, live_server: Any, planner_account: str, make_role_user: Callable[..., Any]
) -> None:
    make_role_user("cli-viewer", "viewer")
    logged_in_as(cli, live_server.url, "cli-planner")

    from_env = cli("--output", "json", "whoami", env={"LIGHTPATH_TOKEN": token_of("cli-viewer")})
    assert json.loads(from_env.stdout)["username"] == "cli-viewer"

    # The same server under another URL is another server to the CLI: the saved token is not sent.
    other_url = live_server.url.replace("localhost", "127.0.0.1")
    assert other_url != live_server.url
    anonymous = cli("--server", other_url, "whoami")
    assert anonymous.exit_code == 1
    assert anonymous.stderr == NOT_LOGGED_IN
    # LIGHTPATH_TOKEN goes wherever the CLI is pointed.
    with_env = cli("--server", other_url, "--output", "json", "whoami", env={"LIGHTPATH_TOKEN": token_of("cli-viewer")})
    assert json.loads(with_env.stdout) == {
        "server": other_url,
        "username": "cli-viewer",
        "roles": ["viewer"],
        "is_admin": False,
    }


def test_anonymous_is_told_to_log_in(cli: Cli, live_server: Any) -> None:
    result = cli("--server", live_server.url, "fabric", "list")
    assert result.exit_code == 1
    assert result.stderr == NOT_LOGGED_IN


def test_rejected_token_names_its_source(cli: Cli, live_server: Any, planner_account: str) -> None:
    from rest_framework.authtoken.models import Token

    stale = cli("--server", live_server.url, "fabric", "list", env={"LIGHTPATH_TOKEN": "stale"})
    assert stale.exit_code == 1
    assert stale.stderr == (
        f"error: {live_server.url} rejected the token from LIGHTPATH_TOKEN (run `lightpath login` again)\n"
    )

    # A saved token the server no longer knows.
    logged_in_as(cli, live_server.url, "cli-planner")
    Token.objects.filter(user__username="cli-planner").delete()
    revoked = cli("fabric", "list")
    assert revoked.exit_code == 1
    assert revoked.stderr == (
        f"error: {live_server.url} rejected the token from {cli.config_file} (run `lightpath login` again)\n"
    )


def test_logout_forgets_the_token_but_not_the_server(cli: Cli, live_server: Any, planner_account: str) -> None:
    logged_in_as(cli, live_server.url, "cli-planner")
    result = cli("logout")
    assert result.exit_code == 0
    assert result.stdout == f"Logged out of {live_server.url}\n"
    text = cli.config_file.read_text()
    assert "token" not in text.replace("API token", "") and f'server = "{live_server.url}"' in text
    assert stat.S_IMODE(cli.config_file.stat().st_mode) == 0o600
    assert cli("logout").stdout == "Not logged in\n"

    # The server is still the saved one; there is just no token for it any more.
    after = cli("fabric", "list")
    assert after.exit_code == 1
    assert after.stderr == NOT_LOGGED_IN


def test_config_values_are_escaped(cli: Cli, live_server: Any, make_role_user: Callable[..., Any]) -> None:
    from rest_framework.authtoken.models import Token

    # The server hands out the token a user already has; give this one an awkward key and name.
    user = make_role_user('o\'brien "x"', "viewer")
    Token.objects.create(user=user, key='we"ird\\tok')
    assert cli("--server", live_server.url, "login", "-u", 'o\'brien "x"', "-p", PASSWORD).exit_code == 0
    assert cli.json("whoami")["username"] == 'o\'brien "x"'  # the saved token read back intact


def test_whoami(cli: Cli, live_server: Any, make_role_user: Callable[..., Any]) -> None:
    make_role_user("cli-viewer", "viewer")
    logged_in_as(cli, live_server.url, "cli-viewer")
    account = cli.json("whoami")
    assert account == {"server": live_server.url, "username": "cli-viewer", "roles": ["viewer"], "is_admin": False}
    table = cli("whoami")
    assert table.exit_code == 0 and "cli-viewer" in table.stdout and "viewer" in table.stdout


def test_server_error_is_one_line(cli: Cli, live_server: Any, planner_account: str) -> None:
    from django.db import connection

    logged_in_as(cli, live_server.url, "cli-planner")
    # The server's database stops accepting connections: every request fails inside the server.
    name = connection.ops.quote_name(connection.settings_dict["NAME"])
    with connection._nodb_cursor() as cursor:
        cursor.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS false")
    try:
        result = cli("fabric", "list")
    finally:
        with connection._nodb_cursor() as cursor:
            cursor.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS true")
    # The server says its database could not answer (503, issue #16) instead of a bare 500 page.
    assert result.exit_code == 1
    assert result.stderr == (
        "error: server error 503 on GET /api/fabrics/: The database could not answer; try again in a few seconds.\n"
    )
    assert cli.json("fabric", "list") == []  # and back


def test_a_server_url_that_is_not_the_api(cli: Cli, live_server: Any, settings: Any, tmp_path: Path) -> None:
    # The web UI's URL: the server answers every path under it with the single-page app's HTML.
    (tmp_path / "index.html").write_text("<!doctype html><title>Lightpath</title><div id=root></div>\n")
    settings.FRONTEND_DIST = tmp_path
    result = cli("--server", f"{live_server.url}/ui", "fabric", "list", env={"LIGHTPATH_TOKEN": "any"})
    assert result.exit_code == 1
    assert result.stderr == "error: unexpected non-JSON answer from GET /ui/api/fabrics/\n"

    # The admin site's URL: the server redirects to its login page; the CLI does not follow.
    admin = cli("--server", f"{live_server.url}/admin", "whoami")
    assert admin.exit_code == 1
    assert admin.stderr.startswith(f"error: {live_server.url}/admin redirected GET /api/auth/me/ to /admin/login/")
    assert admin.stderr.endswith(" (check the server URL)\n") and len(admin.stderr.splitlines()) == 1
