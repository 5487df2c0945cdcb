"""What a client sees once django-axes has locked its sign-ins out.

django-axes counts failed sign-ins in the database (``axes.AccessAttempt``, with an
admin view and the ``axes_reset*`` commands) per client address and per username:
guessing one account's password from many addresses, or many accounts' from one
address, both run into ``AXES_FAILURE_LIMIT`` (``LOGIN_FAILURE_LIMIT``, default 10)
and rest for ``AXES_COOLOFF_TIME`` (``LOGIN_FAILURE_WINDOW``, default 15 minutes).
Every door that checks a password goes through ``django.contrib.auth.authenticate``
with the request, so axes sees them all: the sign-in page, the admin's sign-in, and
the API's token endpoint (DRF's HTTP Basic); the printed sign-in code's page
(``/accounts/code/``) checks the lockout first and reports a wrong code as a failed
sign-in, since a code is the account's password until it is used.

The page gets ``registration/login_throttled.html`` with a 429 (``AXES_LOCKOUT_CALLABLE``
through ``AxesMiddleware``); the API gets the project's JSON error shape, raised by the
token view as :class:`SignInLockedOut` (DRF authenticates on its own request object,
which the middleware never sees).
"""

from __future__ import annotations

from typing import Any

from axes.helpers import get_cool_off
from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from rest_framework import exceptions, status


def lockout_seconds(request: HttpRequest | None = None) -> int:
    """How long a locked-out client rests, in whole seconds."""
    cool_off = get_cool_off(request)
    return int(cool_off.total_seconds()) if cool_off else 0


def _detail(seconds: int) -> str:
    minutes = max(1, round(seconds / 60))
    return (
        "Too many failed sign-ins from this address or for this account; "
        f"try again in {minutes} minutes."
    )


class SignInLockedOut(exceptions.APIException):
    """429 in the API's error shape; ``wait`` becomes the ``Retry-After`` header."""

    status_code = status.HTTP_429_TOO_MANY_REQUESTS
    default_code = "locked_out"

    def __init__(self, seconds: int) -> None:
        super().__init__(_detail(seconds), self.default_code)
        self.wait = seconds


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: Any
) -> HttpResponse:
    """``AXES_LOCKOUT_CALLABLE``: the sign-in page rests (429) with our own page; a
    request under ``/api/`` gets the JSON error shape instead."""
    seconds = lockout_seconds(request)
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse(
            {"code": SignInLockedOut.default_code, "detail": _detail(seconds), "field": None},
            status=status.HTTP_429_TOO_MANY_REQUESTS,
        )
    else:
        response = render(
            request,
            "registration/login_throttled.html",
            {"minutes": max(1, round(seconds / 60))},
            status=settings.AXES_HTTP_RESPONSE_CODE,
        )
    response["Retry-After"] = str(seconds)
    return response
