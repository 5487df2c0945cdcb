"""API tokens: log in with a username and password (HTTP Basic) to get a token.

Tokens come from django-rest-knox: hashed at rest, several per user, each revocable
(``logout``) or all at once (``logoutall``). Two guards sit in front of the password:
DRF's ``token`` rate (every request counts, per client address, before the password is
checked) and django-axes' sign-in lockout (failed passwords per address and per
username, shared with the sign-in page; see ``games.sign_in_lockout``). Every other
request presents its token to :class:`games.api.authentication.TokenAuthentication`.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme
from drf_spectacular.utils import extend_schema, extend_schema_view, inline_serializer
from knox import views as knox_views
from rest_framework import serializers
from rest_framework.authentication import BasicAuthentication
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView

from games.api.authentication import TokenAuthentication
from games.sign_in_lockout import SignInLockedOut, lockout_seconds


class TokenScheme(KnoxTokenScheme):
    """The OpenAPI security scheme of our knox subclass: the same ``knoxApiToken``."""

    target_class = "games.api.authentication.TokenAuthentication"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        """knox's ``apiKey`` in ``Authorization``, with the ``Token`` prefix spelled out:
        generators do not read a prefix from an ``apiKey`` scheme, and the ``http``
        scheme only knows registered ones (``bearer``, which knox refuses), so the
        description says what to send and how a generated client is told (issue #30)."""
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": (
                "Send `Authorization: Token <key>`: the word Token, a space, the token "
                "from POST /api/v1/auth/token/ (not Bearer: that is a 401). With "
                "openapi-python-client: AuthenticatedClient(base_url=..., token=key, "
                'prefix="Token").'
            ),
        }


class PasswordGuessThrottle(SimpleRateThrottle):
    """Counts every request to an endpoint that takes a password, per client address,
    before the password is checked (DRF authenticates before it throttles, so a scoped
    throttle would never see a wrong password). Uses the ``token`` rate."""

    scope = "token"

    def get_cache_key(self, request: Request, view: APIView) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


@extend_schema_view(
    post=extend_schema(
        request=None,
        responses={
            200: inline_serializer(
                "TokenLogin",
                {
                    "expiry": serializers.DateTimeField(allow_null=True),
                    "token": serializers.CharField(),
                },
            )
        },
    )
)
class TokenLoginView(knox_views.LoginView):
    """POST with HTTP Basic credentials; answers ``{"expiry": ..., "token": ...}``."""

    authentication_classes = [BasicAuthentication]
    permission_classes = [IsAuthenticated]
    throttle_classes = [PasswordGuessThrottle]

    def perform_authentication(self, request: Request) -> None:
        """Throttle before HTTP Basic checks the password: every guess counts. HTTP
        Basic calls ``authenticate(request=...)``, so django-axes counts a wrong password
        and refuses a locked-out client; axes flags DRF's request, which ``AxesMiddleware``
        never sees, so the lockout is answered here, in the API's error shape."""
        APIView.check_throttles(self, request)
        try:
            super().perform_authentication(request)
        except AuthenticationFailed:
            if getattr(request, "axes_locked_out", False):
                raise SignInLockedOut(lockout_seconds(request._request)) from None
            raise

    def check_throttles(self, request: Request) -> None:
        """Already counted, before authentication."""


@extend_schema_view(post=extend_schema(request=None, responses={204: None}))
class TokenRevokeView(knox_views.LogoutView):
    """POST with the token to revoke it (204)."""

    authentication_classes = [TokenAuthentication]


@extend_schema_view(post=extend_schema(request=None, responses={204: None}))
class TokenRevokeAllView(knox_views.LogoutAllView):
    """POST with any of the user's tokens to revoke them all (204)."""

    authentication_classes = [TokenAuthentication]
