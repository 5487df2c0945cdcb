"""Routes of the games API under /api/v1/."""

from rest_framework.routers import DefaultRouter

from .clubs import ClubViewSet, PlayerViewSet

router = DefaultRouter()
router.register("clubs", ClubViewSet, basename="club")
router.register("players", PlayerViewSet, basename="player")

urlpatterns = router.urls
