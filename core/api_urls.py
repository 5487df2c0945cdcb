"""Routes of the shared API under /api/v1/: the long jobs every app starts."""

from rest_framework.routers import SimpleRouter

from .api_jobs import JobViewSet

router = SimpleRouter()
router.register("jobs", JobViewSet, basename="job")

urlpatterns = router.urls
