from django.urls import path

from . import pages

urlpatterns = [
    path("matches/<int:pk>/analysis/", pages.match_analysis, name="match-analysis-page"),
    path("players/<slug:slug>/pr/", pages.player_pr, name="player-pr"),
    path("clubs/<slug:slug>/pr/", pages.club_pr, name="club-pr"),
]
