"""Routes of the club archive and spreadsheets under /api/v1/."""

from django.urls import path

from . import api

urlpatterns = [
    path("clubs/<slug:slug>/archive/", api.ClubExportView.as_view(), name="clubdata-api-export"),
    path(
        "club-archives/<int:job_id>/",
        api.ClubExportFileView.as_view(),
        name="clubdata-api-export-file",
    ),
    path("club-archives/", api.ClubImportView.as_view(), name="clubdata-api-import"),
    path(
        "clubs/<slug:slug>/matches.csv",
        api.ClubMatchesCsvView.as_view(),
        name="clubdata-api-matches-csv",
    ),
    path(
        "clubs/<slug:slug>/rating-history.csv",
        api.ClubRatingHistoryCsvView.as_view(),
        name="clubdata-api-rating-csv",
    ),
]
