"""Routes of the games API under /api/v1/."""

from django.urls import path
from rest_framework.routers import DefaultRouter

from .clocks import (
    clock_flag_view,
    clock_pause_view,
    clock_resume_view,
    clock_turns_view,
    clock_view,
)
from .clubs import ClubViewSet, PlayerViewSet
from .game_corrections import GameCorrectionView
from .match_views import MatchViewSet
from .ratings import (
    ClubRatingsRecomputeView,
    ClubRatingsView,
    ClubResultsImportView,
    PlayerRatingsView,
    RatingPreviewView,
)
from .transcripts import MatchAttachTranscriptView, MatchImportView, MatchTranscriptView
from .variants import VariantListView, VariantPlaysView

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
        "matches/<int:pk>/transcript/",
        MatchAttachTranscriptView.as_view(),
        name="match-attach-transcript",
    ),
    path(
        "matches/<int:match_pk>/games/<int:number>/",
        game_correction,
        name="match-game-correction",
    ),
    path("matches/<int:pk>/clock/", clock_view, name="match-clock"),
    path("matches/<int:pk>/clock/turns/", clock_turns_view, name="match-clock-turns"),
    path("matches/<int:pk>/clock/pause/", clock_pause_view, name="match-clock-pause"),
    path("matches/<int:pk>/clock/resume/", clock_resume_view, name="match-clock-resume"),
    path("matches/<int:pk>/clock/flag/", clock_flag_view, name="match-clock-flag"),
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
    path("variants/", VariantListView.as_view(), name="variant-list"),
    path("variants/<slug:key>/plays/", VariantPlaysView.as_view(), name="variant-plays"),
    *router.urls,
]
