"""The cache answers as an empty cache while Redis is unreachable, so rate limits fail
open instead of failing the request with a 500.

The backend is django-redis with the options ``config.settings`` gives it
(``CACHE_REDIS_OPTIONS``: ``IGNORE_EXCEPTIONS`` and one-second socket timeouts).
While Redis cannot be reached, every call is logged and answers as an empty cache:
reads miss (``get`` gives the default), writes are dropped, and the calls that report
a result (``add``, ``incr``, ``has_key``, ``set_many``, ...) give ``None``, which every
caller in Boxcars reads as "not there" (DRF's throttles only ``get`` and ``set``; no
code calls ``incr``).
"""

from __future__ import annotations

import logging
import subprocess
import time
from pathlib import Path

import pytest
from django.conf import settings
from django_redis.cache import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError

from .conftest import free_port

pytestmark = [pytest.mark.faults]

ROOT = Path(__file__).resolve().parents[2]


def _cache(url: str) -> RedisCache:
    """A cache configured as ``config.settings`` configures the default one."""
    return RedisCache(url, {"OPTIONS": dict(settings.CACHE_REDIS_OPTIONS)})


def _callers_outside_tests(pattern: str) -> list[str]:
    """Lines of the service's Python files (tests excluded) matching ``pattern``."""
    found = subprocess.run(
        ["git", "grep", "-nE", pattern, "--", "*.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    ).stdout.splitlines()
    return [line for line in found if not line.startswith("tests/")]


@pytest.fixture
def unreachable_cache() -> RedisCache:
    """A cache pointed at a loopback port nobody listens on."""
    return _cache(f"redis://127.0.0.1:{free_port()}/0")


def test_the_settings_ask_for_a_cache_that_fails_open():
    assert settings.CACHE_REDIS_OPTIONS["IGNORE_EXCEPTIONS"] is True
    assert settings.DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS is True
    assert settings.CACHE_REDIS_OPTIONS["SOCKET_CONNECT_TIMEOUT"] <= 2
    assert settings.CACHE_REDIS_OPTIONS["SOCKET_TIMEOUT"] <= 2


def test_reads_miss_and_writes_are_dropped_while_redis_is_down(unreachable_cache, caplog):
    cache = unreachable_cache
    caplog.set_level(logging.ERROR, logger="django_redis")
    assert cache.get("throttle_score_1", []) == []  # what a DRF throttle reads
    assert cache.get("a") is None
    assert cache.get_many(["a", "b"]) == {}
    assert not cache.has_key("a")
    assert cache.set("a", 1, 60) is None
    assert not cache.set_many({"a": 1, "b": 2})
    assert not cache.add("a", 1, 60)  # "not added": the caller must not count on it
    assert not cache.delete("a")
    assert cache.delete_many(["a"]) is None
    assert not cache.clear()
    # and each skipped call is logged, so the outage shows in the logs
    assert sum("Exception ignored" in r.getMessage() for r in caplog.records) >= 10


def test_incr_while_redis_is_down_raises_nothing(unreachable_cache):
    """Django's contract for a missing key is ``ValueError``; django-redis answers None
    for an ignored outage. The one caller of ``incr``/``decr`` in Boxcars is the mail
    caps' counter (the sign-in failure counts live in the database, with django-axes),
    which takes None as the outage (fail open) and a ``ValueError`` as a key that expired
    between its calls, so neither can 500."""
    assert unreachable_cache.incr("a-counter") is None
    assert unreachable_cache.decr("a-counter") is None
    callers = _callers_outside_tests(r"cache\.(incr|decr)\(")
    assert callers and {line.split(":")[0] for line in callers} == {"core/mail_caps.py"}
    source = (ROOT / "core" / "mail_caps.py").read_text()
    assert source.count("except ValueError") == len(callers)


def test_touch_and_expiry_calls_are_not_covered_and_boxcars_makes_none(unreachable_cache):
    """A known limit of django-redis 7: ``touch`` (and ``ttl``/``expire``/``persist``)
    skip its exception wrapping and raise while Redis is down, IGNORE_EXCEPTIONS or not.
    Nothing in Boxcars calls them (sessions live in the database, DRF throttles only
    ``get``/``set``); this test fails if django-redis starts covering them."""
    with pytest.raises(RedisConnectionError):
        unreachable_cache.touch("a")
    with pytest.raises(RedisConnectionError):
        unreachable_cache.ttl("a")
    assert _callers_outside_tests(r"cache\.(touch|ttl|pttl|expire|persist)\(") == []


def test_an_unreachable_redis_answers_quickly(unreachable_cache):
    started = time.monotonic()
    for _ in range(5):
        unreachable_cache.get("throttle_score_1", [])
        unreachable_cache.set("throttle_score_1", [1], 60)
    assert time.monotonic() - started < 5.0


def test_a_programming_error_still_raises(own_redis):
    cache = _cache(own_redis.url)
    cache.set("n", "text")
    with pytest.raises(TypeError):
        cache.incr("n")


def test_the_cache_works_when_redis_is_up(own_redis):
    cache = _cache(own_redis.url)
    cache.set("a", [1, 2], 60)
    assert cache.get("a") == [1, 2]
    assert cache.get_many(["a", "b"]) == {"a": [1, 2]}
    assert cache.has_key("a") is True
    assert cache.add("counter", 1, 60) is True
    assert cache.add("counter", 1, 60) is False
    assert cache.incr("counter") == 2
    with pytest.raises(ValueError):
        cache.incr("never-set")
    assert cache.delete("a") is True
    assert cache.get("a") is None


def test_the_cache_recovers_when_redis_comes_back(own_redis):
    cache = _cache(own_redis.url)
    cache.set("a", 1, 60)
    own_redis.stop()
    assert cache.get("a", "missed") == "missed"
    own_redis.start()
    cache.set("a", 2, 60)
    assert cache.get("a") == 2
