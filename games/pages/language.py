"""The header's language picker: Django's ``set_language`` (the cookie), and for a
signed-in user whose account is linked to a player, the same choice stored on the
player so that emails and pushes reach them in it (docs/languages.md).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.i18n import set_language as django_set_language

from games.services import clubs as club_services


def set_language(request: HttpRequest) -> HttpResponse:
    """Set the cookie as Django does; remember a signed-in player's choice too."""
    response = django_set_language(request)
    if request.method == "POST" and request.user.is_authenticated:
        language = request.POST.get("language", "")
        club_services.remember_language(user=request.user, language=language)
    return response
