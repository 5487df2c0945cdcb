"""Routes of the chouette API under /api/v1/chouette/."""

from django.urls import path
from rest_framework.routers import SimpleRouter

from .api.views import SessionGameView, SessionViewSet

router = SimpleRouter()
router.register("sessions", SessionViewSet, basename="chouette-session")

session_game = SessionGameView.as_view(
    {"get": "retrieve", "patch": "partial_update", "delete": "destroy"}
)

urlpatterns = [
    path(
        "sessions/<int:session_pk>/games/<int:number>/",
        session_game,
        name="chouette-session-game",
    ),
    *router.urls,
]
