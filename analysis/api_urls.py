from django.urls import path

from .api import ClubAnalysisSettingsView, MatchAnalysisView

urlpatterns = [
    path("matches/<int:pk>/analysis/", MatchAnalysisView.as_view(), name="match-analysis"),
    path(
        "clubs/<slug:slug>/analysis-settings/",
        ClubAnalysisSettingsView.as_view(),
        name="club-analysis-settings",
    ),
]
