"""Which addresses the gate may reach: the public internet only, unless the operator allows more.

A server.json is someone else's input. Its remote URLs, its registry base URLs and its URL
identifiers would otherwise let a submitted entry point the gate at the machine it runs on
(loopback), the network around it (private ranges) or a cloud's metadata service (link-local),
and read the answer back through the report. A host is refused when it is, or resolves to, any
address that is not globally routable. A name that does not resolve is left to the connection,
which fails on its own (exit 3). The check runs once, before any connection: a name whose DNS
answer changes between the check and the connection is outside what it can see.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from urllib.parse import urlsplit

ALLOW_FLAG = "--allow-private-network"


def _kind(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str | None:
    """What makes an address not public ("a loopback address", ...), or None for a public one."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if address.is_loopback:
        return "a loopback address"
    if address.is_link_local:
        return "a link-local address"
    if address.is_unspecified:
        return "the unspecified address (this machine)"
    if address.is_private:
        return "a private address"
    if address.is_multicast:
        return "a multicast address"
    if not address.is_global:
        return "an address that is not public"
    return None


def _addresses(host: str) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
    try:
        return [ipaddress.ip_address(host.split("%", 1)[0])]
    except ValueError:
        pass
    try:
        infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        return []
    found = []
    for info in infos:
        try:
            found.append(ipaddress.ip_address(str(info[4][0]).split("%", 1)[0]))
        except ValueError:
            continue
    return found


def private_target(url: str) -> str | None:
    """Why `url` reaches a host that is not public ("127.0.0.1, a loopback address"), or None."""
    try:
        host = urlsplit(url).hostname
    except ValueError:
        return None
    if not host:
        return None
    host = host.rstrip(".").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return f"{host}, a loopback name"
    for address in _addresses(host):
        kind = _kind(address)
        if kind is not None:
            shown = host if str(address) == host else f"{host} ({address})"
            return f"{shown}, {kind}"
    return None


def unclear_host(url: str) -> str | None:
    """Why the host of `url` is one that URL parsers disagree on, or None.

    The check above reads the host as Python does; npm (Node's URL parser) and other clients read
    some URLs otherwise, so a URL that looks public here can reach loopback there: Node ends the host
    at a backslash (`http://127.0.0.1:80\\@example.com` is 127.0.0.1 to it, example.com to Python)
    and decodes a percent-encoded host (`%6c%6f...` is localhost to it)."""
    before_query = re.split(r"[?#]", url, maxsplit=1)[0]
    if "\\" in before_query:
        return "a backslash before its query, where some clients end the host"
    try:
        host = urlsplit(url).netloc.rpartition("@")[2]
    except ValueError:
        return None
    if "%" in host:
        return "a percent-encoded host, which some clients decode"
    return None


def refusal(url: str) -> str | None:
    """The one-line reason the gate will not reach `url` without ALLOW_FLAG, or None."""
    reached = private_target(url)
    if reached is not None:
        return (
            f"reaches {reached}; the gate refuses private, loopback and link-local targets unless "
            f"{ALLOW_FLAG} is given"
        )
    unclear = unclear_host(url)
    if unclear is not None:
        return (
            f"has {unclear}: the gate cannot tell which host it reaches (it could be a private one); "
            f"write the host plainly, or give {ALLOW_FLAG}"
        )
    return None
