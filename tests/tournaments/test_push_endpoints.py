"""The push-endpoint checks themselves (``tournaments.push_endpoints``), without a database."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.push_endpoints import host_allowed, public_address, refusal

PATTERNS = ["fcm.googleapis.com", "*.push.apple.com"]


@pytest.mark.parametrize(
    ("host", "allowed"),
    [
        ("fcm.googleapis.com", True),
        ("FCM.googleapis.com", True),
        ("x.fcm.googleapis.com", False),  # an exact entry is that host only
        ("web.push.apple.com", True),
        ("a.b.push.apple.com", True),
        ("push.apple.com", False),
        ("evilpush.apple.com", False),
        ("web.push.apple.com.evil.example", False),
    ],
)
def test_host_matching(host, allowed):
    assert host_allowed(host, PATTERNS) is allowed


@pytest.mark.parametrize(
    ("address", "public"),
    [
        ("142.250.74.10", True),
        ("2a00:1450:4007::200a", True),
        ("10.0.0.1", False),
        ("127.0.0.1", False),
        ("169.254.169.254", False),
        ("100.64.0.1", False),  # shared (carrier-grade NAT)
        ("224.0.0.1", False),  # multicast
        ("0.0.0.0", False),
        ("::1", False),
        ("fe80::1%eth0", False),
        ("fc00::1", False),
        ("::ffff:10.0.0.1", False),  # IPv4-mapped
        ("2002:a00:1::1", False),  # 6to4 of 10.0.0.1
        ("64:ff9b::a9fe:a9fe", False),  # NAT64 of 169.254.169.254
    ],
)
def test_public_addresses(address, public):
    assert public_address(address) is public


@given(st.from_regex(r"[a-z0-9-]{1,20}(\.[a-z0-9-]{1,20}){0,3}", fullmatch=True))
def test_no_host_outside_the_list_is_ever_allowed(host):
    url = f"https://{host}/send"
    reason = refusal(url, allowed_hosts=PATTERNS, resolve=lambda h: ["142.250.74.10"])
    assert reason != "" or host == "fcm.googleapis.com" or host.endswith(".push.apple.com")


def test_a_resolver_failure_refuses():
    def down(host):
        raise OSError("no DNS")

    assert "resolve" in refusal(
        "https://fcm.googleapis.com/x", allowed_hosts=PATTERNS, resolve=down
    )


def test_malformed_urls_and_unresolvable_names_are_refused_not_raised():
    def idna_fails(host):
        raise UnicodeError("label too long")

    assert refusal("https://[::1/x", allowed_hosts=PATTERNS)
    assert refusal("https://fcm.googleapis.com/x", allowed_hosts=PATTERNS, resolve=idna_fails)
