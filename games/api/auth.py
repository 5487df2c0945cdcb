"""API tokens: log in with a username and password (HTTP Basic) to get a token.

Tokens come from django-rest-knox: hashed at rest, several per user, each revocable
(``logout``) or all at once (``logoutall``).
"""

from __future__ import annotations

from knox import views as knox_views
from rest_framework.authentication import BasicAuthentication
from rest_framework.permissions import IsAuthenticated
from rest_framework.throttling import ScopedRateThrottle


class TokenLoginView(knox_views.LoginView):
    """POST with HTTP Basic credentials; answers ``{"expiry": ..., "token": ...}``."""

    authentication_classes = [BasicAuthentication]
    permission_classes = [IsAuthenticated]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "token"
