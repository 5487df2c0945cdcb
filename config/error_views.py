"""Errors raised outside the API's views still answer API clients in the API's shape.

A URL under ``/api/`` that matches no route (a malformed slug, an id that is not a
number) never reaches DRF, so Django's own 404 and 500 pages would answer it in HTML.
API clients get ``{"code", "detail", "field"}`` (the shape of every API error, see
:mod:`core.api_errors`) instead; pages
keep the plain-words templates.
"""

from __future__ import annotations

from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults

from core.api_errors import body_too_large


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _is_api(request):
        return JsonResponse(
            {"code": "not_found", "detail": "No such endpoint or object.", "field": None},
            status=404,
        )
    return defaults.page_not_found(request, exception)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """A request Django refused before any view (a body over the size limit, too many
    fields, a suspicious header): API clients get JSON, a too-large body a 413."""
    if _is_api(request):
        if isinstance(exception, RequestDataTooBig | TooManyFieldsSent):
            return JsonResponse(body_too_large(), status=413)
        return JsonResponse(
            {"code": "bad_request", "detail": "The request could not be read.", "field": None},
            status=400,
        )
    # Django passes the exception; a direct call may not, and its view does not read it
    return defaults.bad_request(request, exception)  # type: ignore[arg-type]


def server_error(request: HttpRequest) -> HttpResponse:
    if _is_api(request):
        return JsonResponse(
            {"code": "server_error", "detail": "Something went wrong on our side.", "field": None},
            status=500,
        )
    return defaults.server_error(request)
