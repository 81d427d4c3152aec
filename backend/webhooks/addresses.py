"""Where a webhook may be sent (README "Webhooks", "Security"): only to globally routable
addresses, so that an endpoint cannot turn Lightpath's workers into a probe of its own network
(the cloud's metadata service at 169.254.169.254, a database on localhost, an office's private
ranges) and read the answers in the delivery log.

Refused: loopback, unspecified, link-local, multicast, private (RFC 1918, ULA fc00::/7), reserved
and every other not globally routable address, also when embedded in an IPv6 address
(::ffff:127.0.0.1, 6to4, NAT64). Networks in settings.WEBHOOKS["allowed_networks"]
(LIGHTPATH_WEBHOOK_ALLOWED_NETWORKS) are allowed anyway: on-premises receivers.

The check runs when an endpoint is saved (literal addresses and what a host name resolves to) and
again before every attempt; the attempt then connects to the address that was checked (the URL's
host stays in the Host header and in TLS SNI and certificate checks), so a DNS answer that changes
between check and connect (DNS rebinding) cannot send it elsewhere.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from typing import cast
from urllib.parse import urlsplit

import httpx
from django.conf import settings

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
NAT64 = ipaddress.ip_network("64:ff9b::/96")
SETTING = "LIGHTPATH_WEBHOOK_ALLOWED_NETWORKS"


class AddressRefused(Exception):
    """The URL's host is (or resolves to) an address webhooks may not be sent to."""


class Unresolvable(Exception):
    """The URL's host name does not resolve (now)."""


def allowed_networks() -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    networks = cast(list[str], settings.WEBHOOKS.get("allowed_networks", []))
    return [ipaddress.ip_network(network, strict=False) for network in networks]


def _embedded_ipv4(ip: IPAddress) -> ipaddress.IPv4Address | None:
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return ip.ipv4_mapped
        if ip.sixtofour is not None:
            return ip.sixtofour
        if ip in NAT64:
            return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


def _kind(ip: IPAddress) -> str | None:
    """Why this address itself is refused, or None when it is globally routable."""
    for name, refused in (
        ("unspecified", ip.is_unspecified),
        ("loopback", ip.is_loopback),
        ("link-local", ip.is_link_local),
        ("multicast", ip.is_multicast),
        ("reserved", ip.is_reserved),
        ("private", ip.is_private),
        ("not globally routable", not ip.is_global),
    ):
        if refused:
            return name
    return None


def refusal(ip: IPAddress) -> str | None:
    """Why webhooks may not go to `ip` ("loopback", ...), or None when they may."""
    networks = allowed_networks()
    if any(ip in network for network in networks):
        return None
    embedded = _embedded_ipv4(ip)
    if embedded is not None and any(embedded in network for network in networks):
        return None
    if embedded is not None and (inner := _kind(embedded)) is not None:
        return f"{inner} {embedded}, embedded in an IPv6 address"
    return _kind(ip)


def _is_literal(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def resolve(host: str, port: int) -> list[IPAddress]:
    """The addresses a URL's host stands for: itself when it is a literal address."""
    try:
        return [ipaddress.ip_address(host)]
    except ValueError:
        pass
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        raise Unresolvable(f"the host name {host!r} does not resolve ({error})") from error
    found: list[IPAddress] = []
    for info in infos:
        ip = ipaddress.ip_address(str(info[4][0]).split("%")[0])  # drop an IPv6 zone
        if ip not in found:
            found.append(ip)
    return found


def _port(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    host = parts.hostname or ""
    return host, parts.port or (443 if parts.scheme == "https" else 80)


def checked_addresses(url: str) -> list[IPAddress]:
    """Every address the URL's host resolves to, all of them allowed; else AddressRefused
    (naming each refused address and why) or Unresolvable."""
    host, port = _port(url)
    found = resolve(host, port)
    refused = [f"{ip} ({why})" for ip in found if (why := refusal(ip)) is not None]
    if refused:
        target = "" if _is_literal(host) else f"{host} resolves to "
        raise AddressRefused(
            f"{target}{', '.join(refused)}: webhooks go only to globally routable addresses "
            f"(an administrator may allow a private network with {SETTING})"
        )
    return found


@dataclass(frozen=True)
class PinnedRequest:
    """A request to the checked address with the URL's own host for HTTP and TLS."""

    url: str
    host_header: str
    extensions: dict[str, str]


def pinned_request(url: str) -> PinnedRequest:
    """Checks the URL's host and returns how to reach its first checked address."""
    address = checked_addresses(url)[0]
    original = httpx.URL(url)
    host_header = original.netloc.decode("ascii")
    pinned = original.copy_with(host=str(address))
    # httpcore verifies the certificate against the SNI name: the URL's host, not the address.
    extensions = {"sni_hostname": original.host} if original.scheme == "https" else {}
    return PinnedRequest(str(pinned), host_header, extensions)
