"""Helpers for the CLI tests: an in-process runner and a scripted API.

A uniquely named module rather than conftest.py, so tests can import it without clashing with other
conftest modules in the repository.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from typer.testing import CliRunner, Result

from lightpath_cli.app import app

REPO_ROOT = Path(__file__).resolve().parents[2]
FIXTURE_DATA = REPO_ROOT / "fixtures" / "data"

Handler = Callable[[httpx.Request], httpx.Response]


@dataclass
class FakeApi:
    """A scripted REST API: routes map (METHOD, path) to a handler, and every request is kept."""

    routes: dict[tuple[str, str], Handler] = field(default_factory=dict)
    requests: list[httpx.Request] = field(default_factory=list)

    def route(self, method: str, path: str, handler: Handler | Any, status: int = 200) -> None:
        """Register a handler, or a fixed JSON body answered with `status`."""
        if callable(handler):
            self.routes[(method, path)] = handler
        else:
            self.routes[(method, path)] = lambda request, body=handler: httpx.Response(status, json=body)

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        handler = self.routes.get((request.method, request.url.path))
        if handler is None:
            return httpx.Response(404, json={"detail": "Not found."})
        return handler(request)

    def sent(self, method: str, path: str) -> list[httpx.Request]:
        return [r for r in self.requests if r.method == method and r.url.path == path]


@dataclass
class Cli:
    """Runs `lightpath ARGS` in-process with its own config file and a clean environment."""

    config_file: Path
    env: dict[str, str | None]

    def __call__(self, *args: str, input: str | None = None, env: dict[str, str] | None = None) -> Result:
        return CliRunner().invoke(app, list(args), input=input, env={**self.env, **(env or {})})

    def json(self, *args: str) -> Any:
        result = self(*args, "--output", "json")
        assert result.exit_code == 0, result.stderr
        return json.loads(result.stdout)
