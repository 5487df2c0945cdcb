"""Club pages of event money (mounted at the site root, before the games pages)."""

from .urls import club_urlpatterns as urlpatterns

__all__ = ["urlpatterns"]
