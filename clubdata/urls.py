"""The club data pages."""

from django.urls import path

from . import pages

urlpatterns = [
    path("club-import/", pages.club_import, name="clubdata-import"),
    path("clubs/<slug:slug>/data/", pages.club_data, name="clubdata-club"),
    path(
        "clubs/<slug:slug>/data/exports/<int:job_id>/",
        pages.export_download,
        name="clubdata-export-file",
    ),
    path("clubs/<slug:slug>/matches.csv", pages.matches_csv, name="clubdata-matches-csv"),
    path(
        "clubs/<slug:slug>/rating-history.csv",
        pages.rating_history_csv,
        name="clubdata-rating-csv",
    ),
]
