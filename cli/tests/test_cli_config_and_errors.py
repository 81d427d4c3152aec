"""The config file, server resolution and one-line errors when there is no server to talk to (offline).

What needs a server (login, tokens, the server's own errors) is in test_cli_auth_commands.py.
"""

from __future__ import annotations

import socket

from cli_testing import Cli


def closed_port() -> int:
    """A localhost port nothing listens on: bind to get a free one, then release it."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


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


def test_broken_config_file_is_reported(cli: Cli) -> None:
    cli.config_file.parent.mkdir(parents=True)
    cli.config_file.write_text("server = [unterminated\n")
    result = cli("fabric", "list")
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: config file {cli.config_file} is not valid TOML")


def test_invalid_output_format_from_the_environment(cli: Cli) -> None:
    result = cli("fabric", "list", env={"LIGHTPATH_OUTPUT": "yaml"})
    assert result.exit_code == 2
    assert "yaml" in result.stderr
