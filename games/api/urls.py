"""Routes of the games API under /api/v1/."""

from django.urls import path
from rest_framework.routers import DefaultRouter

from .clubs import ClubViewSet, PlayerViewSet
from .jobs import JobViewSet
from .matches import GameCorrectionView, MatchViewSet

app_name = "api"

router = DefaultRouter()
router.register("clubs", ClubViewSet, basename="club")
router.register("players", PlayerViewSet, basename="player")
router.register("matches", MatchViewSet, basename="match")
router.register("jobs", JobViewSet, basename="job")

game_correction = GameCorrectionView.as_view({"patch": "partial_update", "delete": "destroy"})

urlpatterns = [
    path(
        "matches/<int:match_pk>/games/<int:number>/",
        game_correction,
        name="match-game-correction",
    ),
    *router.urls,
]
