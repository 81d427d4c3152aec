"""The CLI's config file and how server, token and output format are resolved.

Server: --server, then LIGHTPATH_SERVER, then the config file, then http://127.0.0.1:8000.
Token:  LIGHTPATH_TOKEN, then the config file's token, but only when the config file was written
        for the same server (a token is never sent to a server it was not issued by).
File:   $LIGHTPATH_CONFIG, else $XDG_CONFIG_HOME/lightpath/config.toml (~/.config/... by default),
        written atomically with mode 0600 because it holds a token.
"""

from __future__ import annotations

import os
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from .errors import CliError, UsageError

DEFAULT_SERVER = "http://127.0.0.1:8000"
CONFIG_ENV = "LIGHTPATH_CONFIG"
TOKEN_ENV = "LIGHTPATH_TOKEN"  # noqa: S105 - the variable's name, not a secret
SERVER_ENV = "LIGHTPATH_SERVER"
OUTPUT_ENV = "LIGHTPATH_OUTPUT"


def config_path() -> Path:
    explicit = os.environ.get(CONFIG_ENV)
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "lightpath" / "config.toml"


def normalize_server(url: str) -> str:
    """'host:8000' -> 'http://host:8000'; trailing slashes dropped; only http(s) accepted."""
    url = url.strip()
    if "://" not in url:
        url = f"http://{url}"
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise UsageError(f"invalid server URL {url!r}: expected http(s)://host[:port]")
    return url.rstrip("/")


@dataclass
class StoredConfig:
    server: str | None = None
    username: str | None = None
    token: str | None = None


def load_config(path: Path) -> StoredConfig:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return StoredConfig()
    except tomllib.TOMLDecodeError as exc:
        raise CliError(f"config file {path} is not valid TOML: {exc}") from exc
    except OSError as exc:
        raise CliError(f"cannot read config file {path}: {exc.strerror}") from exc

    def text(key: str) -> str | None:
        value = data.get(key)
        return value if isinstance(value, str) and value else None

    return StoredConfig(server=text("server"), username=text("username"), token=text("token"))


def _toml_string(value: str) -> str:
    escaped = []
    for char in value:
        if char in ('"', "\\"):
            escaped.append("\\" + char)
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            escaped.append(f"\\u{ord(char):04x}")
        else:
            escaped.append(char)
    return '"' + "".join(escaped) + '"'


def save_config(path: Path, config: StoredConfig) -> None:
    lines = ["# Written by `lightpath login`. It holds an API token: keep it private (mode 0600)."]
    for key in ("server", "username", "token"):
        value = getattr(config, key)
        if value:
            lines.append(f"{key} = {_toml_string(value)}")
    text = "\n".join(lines) + "\n"
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        # mkstemp creates the file 0600, so the token is never readable by others, even briefly.
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".config-", suffix=".toml")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
            os.chmod(temporary, 0o600)
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise CliError(f"cannot write config file {path}: {exc.strerror}") from exc
