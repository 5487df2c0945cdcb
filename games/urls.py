"""Pages of the games app."""

from django.urls import path

from .pages import clubs

urlpatterns = [
    path("", clubs.home, name="home"),
    path("clubs/<slug:slug>/", clubs.club_detail, name="club-detail"),
    path("players/<slug:slug>/", clubs.player_detail, name="player-detail"),
]
