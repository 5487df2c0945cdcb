"""The cache answers as an empty cache while Redis is unreachable (rate limits and
sign-in failure counts fail open instead of failing the request with a 500)."""

from __future__ import annotations

import pytest
from redis.exceptions import ResponseError

from config.cache_backends import TolerantRedisCache

from .conftest import free_port

pytestmark = [pytest.mark.faults]


@pytest.fixture
def unreachable_cache() -> TolerantRedisCache:
    """A cache pointed at a loopback port nobody listens on."""
    return TolerantRedisCache(
        f"redis://127.0.0.1:{free_port()}/0", {"OPTIONS": {"socket_connect_timeout": 1}}
    )


def test_reads_miss_and_writes_are_dropped_while_redis_is_down(unreachable_cache):
    cache = unreachable_cache
    assert cache.get("throttle_score_1", []) == []
    assert cache.get_many(["a", "b"]) == {}
    assert cache.has_key("a") is False
    assert cache.set("a", 1, 60) is None
    assert cache.set_many({"a": 1, "b": 2}) == ["a", "b"]
    assert cache.add("a", 1, 60) is False
    assert cache.touch("a") is False
    assert cache.delete("a") is False
    assert cache.delete_many(["a"]) is None
    assert cache.clear() is False


def test_incr_while_redis_is_down_behaves_as_a_missing_key(unreachable_cache):
    with pytest.raises(ValueError, match="not found"):
        unreachable_cache.incr("login-fail:ip:127.0.0.1")
    with pytest.raises(ValueError, match="not found"):
        unreachable_cache.decr("login-fail:ip:127.0.0.1")


def test_errors_other_than_reaching_redis_still_raise(own_redis):
    cache = TolerantRedisCache(own_redis.url, {})
    cache.set("n", "text")
    with pytest.raises(ResponseError, match="not an integer"):
        cache.incr("n")


def test_the_cache_works_when_redis_is_up(own_redis):
    cache = TolerantRedisCache(own_redis.url, {})
    cache.set("a", [1, 2], 60)
    assert cache.get("a") == [1, 2]
    assert cache.add("counter", 1, 60) is True
    assert cache.incr("counter") == 2
