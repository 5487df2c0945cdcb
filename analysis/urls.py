from django.urls import path

from . import pages, variant_pages

urlpatterns = [
    path("matches/<int:pk>/analysis/", pages.match_analysis, name="match-analysis-page"),
    path("players/<slug:slug>/pr/", pages.player_pr, name="player-pr"),
    path("clubs/<slug:slug>/pr/", pages.club_pr, name="club-pr"),
    path("variants/", variant_pages.variant_index, name="variant-index"),
    path("variants/<slug:key>/", variant_pages.variant_rules, name="variant-rules"),
]
