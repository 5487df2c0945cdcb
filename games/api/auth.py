"""API tokens: log in with a username and password (HTTP Basic) to get a token.

Tokens come from django-rest-knox: hashed at rest, several per user, each revocable
(``logout``) or all at once (``logoutall``).
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_view, inline_serializer
from knox import views as knox_views
from rest_framework import serializers
from rest_framework.authentication import BasicAuthentication
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.views import APIView

from games.login_throttle import PasswordGuessThrottle


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
        """Throttle before HTTP Basic checks the password: every guess counts."""
        APIView.check_throttles(self, request)
        super().perform_authentication(request)

    def check_throttles(self, request: Request) -> None:
        """Already counted, before authentication."""


@extend_schema_view(post=extend_schema(request=None, responses={204: None}))
class TokenRevokeView(knox_views.LogoutView):
    """POST with the token to revoke it (204)."""


@extend_schema_view(post=extend_schema(request=None, responses={204: None}))
class TokenRevokeAllView(knox_views.LogoutAllView):
    """POST with any of the user's tokens to revoke them all (204)."""
