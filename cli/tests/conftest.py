"""Fixtures for the CLI tests (helpers live in cli_testing.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from cli_testing import Cli, FakeApi

from lightpath_cli import client as client_module


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Cli:
    config_file = tmp_path / "lightpath" / "config.toml"
    # CliRunner applies env on top of os.environ: unset anything the developer's shell might carry.
    for name in ("LIGHTPATH_TOKEN", "LIGHTPATH_SERVER", "LIGHTPATH_OUTPUT", "LIGHTPATH_DEBUG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LIGHTPATH_CONFIG", str(config_file))
    return Cli(config_file=config_file, env={"LIGHTPATH_CONFIG": str(config_file)})


@pytest.fixture
def fake_api(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeApi]:
    api = FakeApi()
    monkeypatch.setattr(client_module, "TRANSPORT", httpx.MockTransport(api))
    yield api
