"""Login, the config file, server and token resolution, and one-line errors (offline)."""

from __future__ import annotations

import json
import socket
import stat

import httpx
from cli_testing import Cli, FakeApi

SERVER = "http://lightpath.test:8000"
FABRICS_PAGE = {"count": 0, "next": None, "previous": None, "results": []}


def closed_port() -> int:
    """A localhost port nothing listens on: bind to get a free one, then release it."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def answer_token(request: httpx.Request) -> httpx.Response:
    body = json.loads(request.content)
    if body == {"username": "planner", "password": "secret"}:
        return httpx.Response(200, json={"token": "tok-123", "username": "planner", "roles": ["planner"]})
    return httpx.Response(400, json={"non_field_errors": ["Unable to log in with provided credentials."]})


def test_unreachable_server_is_one_line(cli: Cli) -> None:
    port = closed_port()
    result = cli("--server", f"http://127.0.0.1:{port}", "fabric", "list")
    assert result.exit_code == 1
    assert result.stderr == f"error: cannot reach http://127.0.0.1:{port}: connection refused\n"
    assert result.stdout == ""


def test_server_from_the_environment(cli: Cli) -> None:
    port = closed_port()
    result = cli("fabric", "list", env={"LIGHTPATH_SERVER": f"127.0.0.1:{port}/"})
    assert result.stderr == f"error: cannot reach http://127.0.0.1:{port}: connection refused\n"


def test_bad_server_url_is_a_usage_error(cli: Cli) -> None:
    result = cli("--server", "ftp://files.example", "fabric", "list")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: invalid server URL")


def test_without_a_token_the_error_says_how_to_log_in(cli: Cli, fake_api: FakeApi) -> None:
    fake_api.route("GET", "/api/fabrics/", {"detail": "Authentication credentials were not provided."}, status=401)
    result = cli("--server", SERVER, "fabric", "list")
    assert result.exit_code == 1
    assert result.stderr == "error: not logged in (run `lightpath login` or set LIGHTPATH_TOKEN)\n"
    assert "Authorization" not in fake_api.requests[0].headers


def test_login_saves_server_and_token_privately(cli: Cli, fake_api: FakeApi) -> None:
    fake_api.route("POST", "/api/auth/token/", answer_token)
    result = cli("--server", SERVER, "login", "--username", "planner", "--password", "secret")
    assert result.exit_code == 0, result.stderr
    assert f"Logged in to {SERVER} as planner (planner)" in result.stdout
    assert stat.S_IMODE(cli.config_file.stat().st_mode) == 0o600
    text = cli.config_file.read_text()
    assert f'server = "{SERVER}"' in text and 'token = "tok-123"' in text

    # Later commands use the saved server and token without being told.
    fake_api.route("GET", "/api/fabrics/", FABRICS_PAGE)
    assert cli("fabric", "list").exit_code == 0
    assert fake_api.sent("GET", "/api/fabrics/")[-1].headers["Authorization"] == "Token tok-123"
    assert str(fake_api.sent("GET", "/api/fabrics/")[-1].url).startswith(SERVER)


def test_login_prompts_for_missing_credentials(cli: Cli, fake_api: FakeApi) -> None:
    fake_api.route("POST", "/api/auth/token/", answer_token)
    result = cli("--server", SERVER, "login", input="planner\nsecret\n")
    assert result.exit_code == 0, result.stderr
    assert "secret" not in result.output  # the password prompt hides what is typed


def test_failed_login_keeps_the_old_config(cli: Cli, fake_api: FakeApi) -> None:
    fake_api.route("POST", "/api/auth/token/", answer_token)
    result = cli("--server", SERVER, "login", "-u", "planner", "-p", "wrong")
    assert result.exit_code == 1
    assert result.stderr == f"error: login to {SERVER} failed: Unable to log in with provided credentials.\n"
    assert not cli.config_file.exists()


def test_login_output_as_json(cli: Cli, fake_api: FakeApi) -> None:
    fake_api.route("POST", "/api/auth/token/", answer_token)
    result = cli("--server", SERVER, "--output", "json", "login", "-u", "planner", "-p", "secret")
    assert json.loads(result.stdout) == {"server": SERVER, "username": "planner", "roles": ["planner"]}


def test_env_token_wins_and_saved_token_stays_with_its_server(cli: Cli, fake_api: FakeApi) -> None:
    fake_api.route("POST", "/api/auth/token/", answer_token)
    fake_api.route("GET", "/api/fabrics/", FABRICS_PAGE)
    cli("--server", SERVER, "login", "-u", "planner", "-p", "secret")

    cli("fabric", "list", env={"LIGHTPATH_TOKEN": "from-env"})
    assert fake_api.requests[-1].headers["Authorization"] == "Token from-env"

    # A different server never receives the token issued by the saved one.
    result = cli("--server", "http://elsewhere.test", "fabric", "list")
    assert result.exit_code == 0
    assert "Authorization" not in fake_api.requests[-1].headers


def test_rejected_token_names_its_source(cli: Cli, fake_api: FakeApi) -> None:
    fake_api.route("GET", "/api/fabrics/", {"detail": "Invalid token."}, status=401)
    result = cli("--server", SERVER, "fabric", "list", env={"LIGHTPATH_TOKEN": "stale"})
    assert result.exit_code == 1
    assert result.stderr == f"error: {SERVER} rejected the token from LIGHTPATH_TOKEN (run `lightpath login` again)\n"


def test_logout_forgets_the_token_but_not_the_server(cli: Cli, fake_api: FakeApi) -> None:
    fake_api.route("POST", "/api/auth/token/", answer_token)
    cli("--server", SERVER, "login", "-u", "planner", "-p", "secret")
    result = cli("logout")
    assert result.exit_code == 0 and f"Logged out of {SERVER}" in result.stdout
    text = cli.config_file.read_text()
    assert "token" not in text.replace("API token", "") and f'server = "{SERVER}"' in text
    assert stat.S_IMODE(cli.config_file.stat().st_mode) == 0o600
    assert cli("logout").stdout == "Not logged in\n"


def test_config_values_are_escaped(cli: Cli, fake_api: FakeApi) -> None:
    fake_api.route("POST", "/api/auth/token/", {"token": 'we"ird\\tok', "username": 'o\'brien "x"', "roles": []})
    assert cli("--server", SERVER, "login", "-u", "x", "-p", "y").exit_code == 0
    fake_api.route("GET", "/api/fabrics/", FABRICS_PAGE)
    cli("fabric", "list")
    assert fake_api.requests[-1].headers["Authorization"] == 'Token we"ird\\tok'


def test_broken_config_file_is_reported(cli: Cli) -> None:
    cli.config_file.parent.mkdir(parents=True)
    cli.config_file.write_text("server = [unterminated\n")
    result = cli("fabric", "list")
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: config file {cli.config_file} is not valid TOML")


def test_whoami(cli: Cli, fake_api: FakeApi) -> None:
    fake_api.route("GET", "/api/auth/me/", {"username": "viewer", "roles": ["viewer"], "is_admin": False})
    account = cli.json("--server", SERVER, "whoami")
    assert account == {"server": SERVER, "username": "viewer", "roles": ["viewer"], "is_admin": False}


def test_server_errors_and_unexpected_answers_are_one_line(cli: Cli, fake_api: FakeApi) -> None:
    fake_api.route("GET", "/api/fabrics/", lambda request: httpx.Response(500, text="<html>boom</html>"))
    result = cli("--server", SERVER, "fabric", "list")
    assert result.exit_code == 1
    assert result.stderr.startswith("error: server error 500 on GET /api/fabrics/")
    assert len(result.stderr.splitlines()) == 1

    fake_api.route("GET", "/api/fabrics/", lambda request: httpx.Response(200, text="not json"))
    result = cli("--server", SERVER, "fabric", "list")
    assert result.exit_code == 1
    assert result.stderr == "error: unexpected non-JSON answer from GET /api/fabrics/\n"


def test_invalid_output_format_from_the_environment(cli: Cli) -> None:
    result = cli("fabric", "list", env={"LIGHTPATH_OUTPUT": "yaml"})
    assert result.exit_code == 2
    assert "yaml" in result.stderr
