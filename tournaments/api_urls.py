"""Routes of the tournaments API under /api/v1/."""

from rest_framework.routers import DefaultRouter

from .api.views import TournamentViewSet

router = DefaultRouter()
router.register("tournaments", TournamentViewSet, basename="tournament")

urlpatterns = router.urls
