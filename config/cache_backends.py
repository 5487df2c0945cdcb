"""A Redis cache that degrades to a miss when Redis is unreachable.

Boxcars uses the cache for what it can lose: API rate limits (DRF throttles) and
rendered-page memos. Django's ``RedisCache`` raises ``ConnectionError`` on every call
while Redis is down, so a Redis outage would turn every throttled score entry into a
500 although PostgreSQL, which holds the result, is fine. This backend logs the
failure and answers as an empty cache instead (reads miss, writes are dropped): rate
limits fail open for the length of the outage, and score entry keeps working. Errors
that are not about reaching Redis (a wrong type, a full memory) still raise.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

UNREACHABLE = (RedisConnectionError, RedisTimeoutError)


def _tolerant(fallback: Callable[..., Any]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Run the cache call; if Redis cannot be reached, log and return ``fallback(...)``."""

    def decorate(method: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(method)
        def wrapper(self: TolerantRedisCache, *args: Any, **kwargs: Any) -> Any:
            try:
                return method(self, *args, **kwargs)
            except UNREACHABLE as exc:
                logger.warning("cache %s skipped, Redis unreachable: %s", method.__name__, exc)
                return fallback(*args, **kwargs)

        return wrapper

    return decorate


def _default(key: Any, default: Any = None, *args: Any, **kwargs: Any) -> Any:
    return default


def _nothing(*args: Any, **kwargs: Any) -> None:
    return None


def _false(*args: Any, **kwargs: Any) -> bool:
    return False


def _empty(*args: Any, **kwargs: Any) -> dict:
    return {}


def _all_failed(data: dict, *args: Any, **kwargs: Any) -> list:
    return list(data)


def _missing(key: Any, *args: Any, **kwargs: Any) -> int:
    raise ValueError(f"Key '{key}' not found (Redis unreachable).")  # as in an empty cache


class TolerantRedisCache(RedisCache):
    """``RedisCache`` whose calls behave as an empty cache while Redis is unreachable."""

    get = _tolerant(_default)(RedisCache.get)
    get_many = _tolerant(_empty)(RedisCache.get_many)
    has_key = _tolerant(_false)(RedisCache.has_key)
    add = _tolerant(_false)(RedisCache.add)
    set = _tolerant(_nothing)(RedisCache.set)
    set_many = _tolerant(_all_failed)(RedisCache.set_many)
    touch = _tolerant(_false)(RedisCache.touch)
    delete = _tolerant(_false)(RedisCache.delete)
    delete_many = _tolerant(_nothing)(RedisCache.delete_many)
    clear = _tolerant(_false)(RedisCache.clear)
    incr = _tolerant(_missing)(RedisCache.incr)
