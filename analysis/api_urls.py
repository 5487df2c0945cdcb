from django.urls import path

from .api import MatchAnalysisView

urlpatterns = [
    path("matches/<int:pk>/analysis/", MatchAnalysisView.as_view(), name="match-analysis"),
]
