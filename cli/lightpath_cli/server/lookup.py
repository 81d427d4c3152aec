"""Finding API objects by what the user typed."""

from __future__ import annotations

from typing import Any

from ..errors import CliError
from .client import ApiClient
from .errors import ApiError


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


class _Finder:
    def __init__(self, client: ApiClient, fabric: dict[str, Any] | None) -> None:
        self.client = client
        self.fabric = fabric
        self._switches: dict[str, dict[str, Any] | None] = {}
        self.unknown_switches: list[str] = []

    def switch(self, name: str) -> dict[str, Any] | None:
        if name not in self._switches:
            params: dict[str, Any] = {"name": name}
            if self.fabric is not None:
                params["fabric"] = self.fabric["id"]
            found = [s for s in self.client.iterate("/api/switches/", params) if s.get("name") == name]
            if len(found) > 1:
                names = sorted(str(self._fabric_name(s.get("fabric"))) for s in found)
                raise CliError(f"switch {name!r} is in {len(found)} fabrics ({', '.join(names)}): choose with --fabric")
            self._switches[name] = found[0] if found else None
            if not found:
                self.unknown_switches.append(name)
        return self._switches[name]

    def _fabric_name(self, fabric_id: Any) -> Any:
        try:
            return self.client.get(f"/api/fabrics/{fabric_id}/").get("name", fabric_id)
        except ApiError:
            return fabric_id

    def end(self, reference: str) -> dict[str, Any] | None:
        """The link with the end SWITCH:PORT (split at the first colon: ports may hold colons)."""
        switch_name, _, port = reference.partition(":")
        switch = self.switch(switch_name.strip()) if switch_name.strip() and port.strip() else None
        if switch is None:
            return None
        port = port.strip()
        for link in self.client.iterate("/api/links/", {"switch": switch["id"]}):
            if (link.get("a_switch") == switch["id"] and link.get("a_port") == port) or (
                link.get("z_switch") == switch["id"] and link.get("z_port") == port
            ):
                return link
        return None

    def by_id(self, reference: str) -> dict[str, Any] | None:
        try:
            link: dict[str, Any] = self.client.get(f"/api/links/{reference}/")
        except ApiError as error:
            if error.status == 404:
                return None
            raise
        return link


def _pairs(reference: str) -> list[tuple[str, str]]:
    """Every way to read `reference` as END-END with a colon on each side (names may hold dashes)."""
    return [
        (reference[:i].strip(), reference[i + 1 :].strip())
        for i, char in enumerate(reference)
        if char == "-" and ":" in reference[:i] and ":" in reference[i + 1 :]
    ]


def _same_end(link: dict[str, Any], side: str, reference: str) -> bool:
    switch_name, _, port = reference.partition(":")
    return link.get(f"{side}_switch_name") == switch_name.strip() and link.get(f"{side}_port") == port.strip()


def resolve_link(client: ApiClient, reference: str, fabric: dict[str, Any] | None) -> dict[str, Any]:
    """The link named by an id, SWITCH:PORT of either end, or A_SWITCH:A_PORT-Z_SWITCH:Z_PORT."""
    finder = _Finder(client, fabric)
    link: dict[str, Any] | None = None
    if reference.isdigit():
        link = finder.by_id(reference)
        if link is not None and fabric is not None and link.get("fabric") != fabric["id"]:
            raise CliError(f"link {reference} is not in fabric {fabric['name']!r}")
    else:
        for first, second in _pairs(reference):
            candidate = finder.end(first)
            if candidate is not None and any(
                _same_end(candidate, a, first) and _same_end(candidate, z, second) for a, z in (("a", "z"), ("z", "a"))
            ):
                link = candidate
                break
        if link is None and ":" in reference:
            link = finder.end(reference)
    if link is not None:
        return link
    where = f" in fabric {fabric['name']!r}" if fabric is not None else ""
    if ":" not in reference and not reference.isdigit():
        raise CliError(f"{reference!r} is not a link: give an id, SWITCH:PORT or A_SWITCH:A_PORT-Z_SWITCH:Z_PORT")
    if finder.unknown_switches and not _pairs(reference):
        raise CliError(f"no switch named {finder.unknown_switches[0]!r}{where}")
    raise CliError(f"link {reference!r} not found{where}")
