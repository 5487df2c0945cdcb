"""Rate limit on the sign-in page: too many failed passwords and the form rests a while.

The API's token endpoint has DRF's ``token`` throttle; the page login needs its own.
Failures are counted in Django's cache (Redis in production, so every worker shares
the count) per client address and per username: guessing one account's password from
many addresses, or many accounts' from one address, both run into the limit. A
successful sign-in clears the address's count. The limit and the window come from
settings ``LOGIN_FAILURE_LIMIT`` (default 10) and ``LOGIN_FAILURE_WINDOW`` (seconds,
default 900), read at request time.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from rest_framework.throttling import SimpleRateThrottle

DEFAULT_LIMIT = 10
DEFAULT_WINDOW = 15 * 60


def _limit() -> int:
    return int(getattr(settings, "LOGIN_FAILURE_LIMIT", DEFAULT_LIMIT))


def _window() -> int:
    return int(getattr(settings, "LOGIN_FAILURE_WINDOW", DEFAULT_WINDOW))


def _keys(request: HttpRequest) -> list[str]:
    """Cache keys of the counters a sign-in attempt counts against (hashed: no
    usernames or addresses in the cache's key space)."""
    address = request.META.get("REMOTE_ADDR", "")
    username = (request.POST.get("username") or "").strip().casefold()
    keys = [f"login-fail:ip:{address}"]
    if username:
        keys.append(f"login-fail:user:{hashlib.sha256(username.encode()).hexdigest()[:32]}")
    return keys


def _blocked(request: HttpRequest) -> bool:
    counts = cache.get_many(_keys(request))
    return any(int(count) >= _limit() for count in counts.values())


def _count_failure(request: HttpRequest) -> None:
    for key in _keys(request):
        if cache.add(key, 1, _window()):
            continue
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, _window())


class ThrottledLoginView(auth_views.LoginView):
    """Django's sign-in page, answering 429 once the failures reach the limit."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if _blocked(request):
            return render(
                request,
                "registration/login_throttled.html",
                {"minutes": max(1, _window() // 60)},
                status=429,
            )
        response = super().post(request, *args, **kwargs)
        if request.user.is_authenticated:
            cache.delete(_keys(request)[0])
        else:
            _count_failure(request)
        return response


class PasswordGuessThrottle(SimpleRateThrottle):
    """Counts every request to an endpoint that takes a password, per client address,
    before the password is checked (DRF authenticates before it throttles, so a scoped
    throttle would never see a wrong password). Uses the ``token`` rate."""

    scope = "token"

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
