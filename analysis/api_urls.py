from django.urls import path

from .api import ClubAnalysisSettingsView, EarlierAnalysesView, MatchAnalysisView

urlpatterns = [
    path("matches/<int:pk>/analysis/", MatchAnalysisView.as_view(), name="match-analysis"),
    path(
        "matches/<int:pk>/analysis/history/",
        EarlierAnalysesView.as_view(),
        name="match-analysis-history",
    ),
    path(
        "clubs/<slug:slug>/analysis-settings/",
        ClubAnalysisSettingsView.as_view(),
        name="club-analysis-settings",
    ),
]
