"""Fixtures for the CLI tests (helpers live in cli_testing.py).

The fixtures that need a server run the real backend through pytest-django's `live_server`; Django
is imported inside them, so the offline tests run without it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from cli_testing import FIXTURE_DATA, PASSWORD, Cli, logged_in_as

# Logins hash the password on the live server: the fast hasher keeps each test's setup short.
FAST_PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Cli:
    config_file = tmp_path / "lightpath" / "config.toml"
    # CliRunner applies env on top of os.environ: unset anything the developer's shell might carry.
    for name in ("LIGHTPATH_TOKEN", "LIGHTPATH_SERVER", "LIGHTPATH_OUTPUT", "LIGHTPATH_DEBUG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LIGHTPATH_CONFIG", str(config_file))
    return Cli(config_file=config_file, env={"LIGHTPATH_CONFIG": str(config_file)})


@pytest.fixture
def make_role_user(django_user_model: Any, settings: Any) -> Callable[..., Any]:
    """A user in the Django group named after `role` (the group is created if missing)."""
    from django.contrib.auth.models import Group

    settings.PASSWORD_HASHERS = FAST_PASSWORD_HASHERS

    def make(username: str, role: str | None, password: str = PASSWORD) -> Any:
        user = django_user_model.objects.create_user(username=username, password=password)
        if role:
            user.groups.add(Group.objects.get_or_create(name=role)[0])
        return user

    return make


@pytest.fixture
def planner(cli: Cli, live_server: Any, make_role_user: Callable[..., Any]) -> Cli:
    """The CLI logged in to the live server as a planner (may import fabrics and start jobs)."""
    make_role_user("cli-planner", "planner")
    return logged_in_as(cli, live_server.url, "cli-planner")


@pytest.fixture
def viewer(cli: Cli, live_server: Any, make_role_user: Callable[..., Any]) -> Cli:
    """The CLI logged in to the live server as a viewer (read-only)."""
    make_role_user("cli-viewer", "viewer")
    return logged_in_as(cli, live_server.url, "cli-viewer")


@pytest.fixture
def planner_api(planner: Cli, live_server: Any) -> Iterator[httpx.Client]:
    """The REST API as the planner, for requests no CLI command makes (e.g. POST /api/jobs/)."""
    from rest_framework.authtoken.models import Token

    token = Token.objects.get(user__username="cli-planner").key
    with httpx.Client(base_url=live_server.url, headers={"Authorization": f"Token {token}"}) as client:
        yield client


@pytest.fixture
def log_in(live_server: Any, make_role_user: Callable[..., Any], tmp_path: Path) -> Callable[[str, str], Cli]:
    """log_in(username, role): a new user with that role and the CLI logged in as them, with its own
    config file (several users in one test)."""

    def log_in_as(username: str, role: str) -> Cli:
        make_role_user(username, role)
        config_file = tmp_path / username / "config.toml"
        return logged_in_as(
            Cli(config_file=config_file, env={"LIGHTPATH_CONFIG": str(config_file)}), live_server.url, username
        )

    return log_in_as


@pytest.fixture
def demo() -> Iterator[Any]:
    """The demo fabric (fixtures/data/demo-fb.json) imported on the server, its live state fresh."""
    from fabric import services
    from fabric.services import live

    live.forget()
    yield services.import_document(json.loads((FIXTURE_DATA / "demo-fb.json").read_text()))
    live.forget()


@pytest.fixture
def demo_at_half(demo: Any) -> Any:
    """The demo with the fabric's constraint at 0.5 (8 of a pod's 16 up-paths): the plan tests' story."""
    from fabric.models import Fabric

    Fabric.objects.filter(pk=demo.pk).update(capacity_constraint=0.5)
    return demo
