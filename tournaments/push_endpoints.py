"""Which URLs the server may push to: the web-push services browsers use, and nothing else.

A subscription's endpoint is a URL the browser hands the player's page, which posts it
to the API; the worker later POSTs each round call there. Taken as given, that is a
request forgery: a user could make the worker POST to the cloud's metadata service, to
Redis or PostgreSQL on the private network. So an endpoint must be

- ``https://`` on port 443, with no user info, and a host written as plain letters,
  digits, dots and hyphens (no IP literal, no percent-escapes or backslashes that two
  URL parsers might read differently);
- on a host of a known push service, ``settings.WEB_PUSH_ALLOWED_HOSTS``: an entry
  ``fcm.googleapis.com`` matches that host only, an entry ``*.push.apple.com`` matches
  any host ending in ``.push.apple.com`` (not ``push.apple.com`` itself);
- a host whose every address is public (not private, loopback, link-local, shared,
  multicast or reserved, IPv4 embedded in IPv6 included), checked when the device
  subscribes and again before each send, since DNS may change in between.

The host list is the real fence (nobody but Google, Mozilla, Apple and Microsoft
answers for those names); the address check is the second one. The resolver is
:data:`resolver`, a module attribute the tests replace, so no test needs the network.
The sender (:func:`push_session`) never follows a redirect.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

if TYPE_CHECKING:
    import requests

#: A host as DNS writes it: labels of letters, digits and hyphens joined by dots.
_HOST = re.compile(
    r"(?i)^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$"
)

_NAT64 = ipaddress.ip_network("64:ff9b::/96")

Resolver = Callable[[str], list[str]]


def system_resolver(host: str) -> list[str]:
    """Every address ``host`` resolves to (IPv4 and IPv6), as text."""
    return [str(info[4][0]) for info in socket.getaddrinfo(host, 443, type=socket.SOCK_STREAM)]


#: The resolver the checks use; tests replace it (``monkeypatch.setattr``).
resolver: Resolver = system_resolver


def host_allowed(host: str, patterns: Iterable[str]) -> bool:
    """Whether ``host`` is one of ``patterns`` (exact, or ``*.suffix`` for its subdomains)."""
    host = host.lower()
    for pattern in patterns:
        pattern = pattern.strip().lower()
        if pattern.startswith("*."):
            suffix = pattern[1:]  # ".push.apple.com"
            if host.endswith(suffix) and len(host) > len(suffix):
                return True
        elif pattern and host == pattern:
            return True
    return False


def public_address(address: str) -> bool:
    """Whether ``address`` is a public unicast address (IPv4 inside IPv6 unwrapped)."""
    ip: ipaddress.IPv4Address | ipaddress.IPv6Address = ipaddress.ip_address(
        address.split("%", 1)[0]
    )
    if isinstance(ip, ipaddress.IPv6Address):
        embedded = ip.ipv4_mapped or ip.sixtofour or (ip.teredo[1] if ip.teredo else None)
        if embedded is None and ip in _NAT64:
            embedded = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
        if embedded is not None and not public_address(str(embedded)):
            return False
    return ip.is_global and not ip.is_multicast


def refusal(url: str, *, allowed_hosts: Iterable[str], resolve: Resolver | None = None) -> str:
    """Why the server must not push to ``url`` ('' when it may)."""
    try:
        parts = urlsplit(url)
    except ValueError:  # e.g. an unclosed "[" of an IPv6 host
        return "An endpoint must be an https:// URL."
    if parts.scheme.lower() != "https":
        return "An endpoint must be an https:// URL."
    netloc = parts.netloc
    host, _colon, port = netloc.rpartition(":") if netloc.count(":") == 1 else (netloc, "", "")
    if port not in ("", "443") or not _HOST.match(host):
        return "An endpoint's host must be a push service's name, on the https port."
    try:
        ipaddress.ip_address(host)
    except ValueError:
        pass
    else:
        return "An endpoint's host must be a name, not an IP address."
    if not host_allowed(host, allowed_hosts):
        return "An endpoint must be on a known web-push service (WEB_PUSH_ALLOWED_HOSTS)."
    try:
        addresses = (resolve or resolver)(host)
    except (OSError, ValueError):  # ValueError: UnicodeError of a name too long for IDNA
        return "An endpoint's host does not resolve."
    if not addresses or not all(public_address(a) for a in addresses):
        return "An endpoint's host must resolve to public addresses only."
    return ""


def push_session() -> requests.Session:
    """A requests session for pywebpush that never follows a redirect: a push service
    answers 201, and a 3xx is reported as a failed push rather than followed somewhere
    the checks above never saw."""
    import requests

    class NoRedirects(requests.Session):
        def request(self, method: Any, url: Any, *args: Any, **kwargs: Any) -> Any:
            kwargs["allow_redirects"] = False
            return super().request(method, url, *args, **kwargs)

    return NoRedirects()
