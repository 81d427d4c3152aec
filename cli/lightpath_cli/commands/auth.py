"""login, logout, whoami: API tokens saved in the config file."""

from __future__ import annotations

import os
from typing import Annotated, Any

import typer

from ..config import TOKEN_ENV, StoredConfig, save_config
from ..context import get_context
from ..errors import CliError
from ..options import OutputOption
from ..output import Column, OutputFormat, print_record
from ..server.errors import ApiError

ACCOUNT_KEYS = ("server", "username", "roles", "is_admin")
ACCOUNT_COLUMNS = (
    Column("server", "Server"),
    Column("username", "User"),
    Column("roles", "Roles", render=lambda roles: ", ".join(roles or []) or "-"),
    Column("is_admin", "Admin", render=lambda value: "-" if value is None else ("yes" if value else "no")),
)


def _login_failure_reason(error: ApiError) -> str:
    reasons = [line.removeprefix("non_field_errors: ") for line in error.details]
    return "; ".join(reasons) or error.message


def login(
    ctx: typer.Context,
    username: Annotated[str | None, typer.Option("--username", "-u", help="Prompted for when omitted.")] = None,
    password: Annotated[
        str | None,
        typer.Option("--password", "-p", help="Prompted for (hidden) when omitted; arguments are visible in `ps`."),
    ] = None,
    output: OutputOption = None,
) -> None:
    """Log in and save an API token.

    POST /api/auth/token/; the token and the server go into the config file (mode 0600).
    """
    state = get_context(ctx)
    if not username:
        username = typer.prompt("Username")
    if password is None:
        password = typer.prompt("Password", hide_input=True)
    with state.client(authenticated=False) as client:
        try:
            answer = client.post("/api/auth/token/", {"username": username, "password": password})
        except ApiError as error:
            if error.status in (400, 401, 403):
                raise CliError(f"login to {state.server} failed: {_login_failure_reason(error)}") from error
            raise
    token = answer.get("token") if isinstance(answer, dict) else None
    if not token:
        raise CliError(f"login to {state.server} failed: the server sent no token")
    account_name = answer.get("username") or username
    save_config(state.config_path, StoredConfig(server=state.server, username=account_name, token=token))
    account: dict[str, Any] = {"server": state.server, "username": account_name, "roles": answer.get("roles") or []}

    fmt = state.output_format(output)
    if fmt is OutputFormat.table:
        roles = ", ".join(account["roles"]) or "no roles"
        typer.echo(f"Logged in to {state.server} as {account_name} ({roles}); token saved in {state.config_path}")
    else:
        print_record(fmt, account, ACCOUNT_COLUMNS, ("server", "username", "roles"))
    if os.environ.get(TOKEN_ENV):
        typer.echo(f"note: {TOKEN_ENV} is set and takes precedence over the saved token", err=True)


def logout(ctx: typer.Context, output: OutputOption = None) -> None:
    """Forget the saved token.

    The server URL stays in the config file. The token is not revoked on the server.
    """
    state = get_context(ctx)
    stored = state.config
    logged_out = bool(stored.token)
    if logged_out:
        save_config(state.config_path, StoredConfig(server=stored.server))
    fmt = state.output_format(output)
    if fmt is OutputFormat.table:
        typer.echo(f"Logged out of {stored.server}" if logged_out else "Not logged in")
    else:
        print_record(fmt, {"server": stored.server, "logged_out": logged_out}, (), ("server", "logged_out"))
    if os.environ.get(TOKEN_ENV):
        typer.echo(f"note: {TOKEN_ENV} is still set and will keep being used", err=True)


def whoami(ctx: typer.Context, output: OutputOption = None) -> None:
    """Show who the current token belongs to."""
    state = get_context(ctx)
    with state.client() as client:
        me = client.get("/api/auth/me/")
    account = {"server": state.server, **{key: me.get(key) for key in ("username", "roles", "is_admin")}}
    print_record(state.output_format(output), account, ACCOUNT_COLUMNS, ACCOUNT_KEYS)
