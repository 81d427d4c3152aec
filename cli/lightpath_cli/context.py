"""Per-invocation state: global options, with the config file read only when a command needs it."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import typer

from .config import DEFAULT_SERVER, TOKEN_ENV, StoredConfig, config_path, load_config, normalize_server
from .output import OutputFormat
from .server.client import ApiClient


@dataclass
class CliContext:
    server_option: str | None = None
    output: OutputFormat = OutputFormat.table
    _config: StoredConfig | None = field(default=None, repr=False)

    @cached_property
    def config_path(self) -> Path:
        return config_path()

    @property
    def config(self) -> StoredConfig:
        if self._config is None:
            self._config = load_config(self.config_path)
        return self._config

    @cached_property
    def server(self) -> str:
        return normalize_server(self.server_option or self.config.server or DEFAULT_SERVER)

    def token(self) -> tuple[str | None, str | None]:
        """(token, where it came from) for the server in use, or (None, None)."""
        env_token = os.environ.get(TOKEN_ENV)
        if env_token:
            return env_token, TOKEN_ENV
        stored = self.config
        if stored.token and stored.server and normalize_server(stored.server) == self.server:
            return stored.token, str(self.config_path)
        return None, None

    def client(self, *, authenticated: bool = True) -> ApiClient:
        token, source = self.token() if authenticated else (None, None)
        return ApiClient(self.server, token, token_source=source)

    def output_format(self, override: OutputFormat | None) -> OutputFormat:
        """A command's own --output wins over the global one."""
        return override or self.output


def get_context(ctx: typer.Context) -> CliContext:
    obj = ctx.find_object(CliContext)
    if obj is None:  # a command invoked without the root callback (not via `lightpath`)
        obj = CliContext()
        ctx.obj = obj
    return obj
