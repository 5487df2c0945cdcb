"""Routes of the games API under /api/v1/."""

from django.urls import path
from rest_framework.routers import DefaultRouter

from .clubs import ClubViewSet, PlayerViewSet
from .matches import GameCorrectionView, MatchViewSet
from .ratings import (
    ClubRatingsRecomputeView,
    ClubRatingsView,
    ClubResultsImportView,
    PlayerRatingsView,
    RatingPreviewView,
)
from .transcripts import MatchImportView, MatchTranscriptView

app_name = "api"

router = DefaultRouter()
router.register("clubs", ClubViewSet, basename="club")
router.register("players", PlayerViewSet, basename="player")
router.register("matches", MatchViewSet, basename="match")

game_correction = GameCorrectionView.as_view({"patch": "partial_update", "delete": "destroy"})

urlpatterns = [
    path("matches/import/", MatchImportView.as_view(), name="match-import"),
    path("matches/<int:pk>/transcript.mat", MatchTranscriptView.as_view(), name="match-transcript"),
    path(
        "matches/<int:match_pk>/games/<int:number>/",
        game_correction,
        name="match-game-correction",
    ),
    path("clubs/<slug:slug>/ratings/", ClubRatingsView.as_view(), name="club-ratings"),
    path(
        "clubs/<slug:slug>/ratings/recompute/",
        ClubRatingsRecomputeView.as_view(),
        name="club-ratings-recompute",
    ),
    path(
        "clubs/<slug:slug>/results/import/",
        ClubResultsImportView.as_view(),
        name="club-results-import",
    ),
    path("players/<int:pk>/ratings/", PlayerRatingsView.as_view(), name="player-ratings"),
    path("ratings/preview/", RatingPreviewView.as_view(), name="rating-preview"),
    *router.urls,
]
