"""Pages of the games app."""

from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("clubs/<slug:slug>/", views.club_detail, name="club-detail"),
    path("players/<slug:slug>/", views.player_detail, name="player-detail"),
]
