"""Finding API objects by what the user typed."""

from __future__ import annotations

from typing import Any

from .client import ApiClient
from .errors import ApiError, CliError


def resolve_fabric(client: ApiClient, name_or_id: str) -> dict[str, Any]:
    """The fabric with this id (all digits) or this exact name.

    A numeric argument that is not an id is tried as a name too, so a fabric named "2024" still works.
    Names are matched exactly on the client, so this works whether or not the list honours ?name=.
    """
    if name_or_id.isdigit():
        try:
            fabric: dict[str, Any] = client.get(f"/api/fabrics/{name_or_id}/")
            return fabric
        except ApiError as error:
            if error.status != 404:
                raise
    for candidate in client.iterate("/api/fabrics/", {"name": name_or_id}):
        if candidate.get("name") == name_or_id:
            return candidate
    raise CliError(f"fabric {name_or_id!r} not found")
