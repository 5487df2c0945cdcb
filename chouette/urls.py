"""Pages of the chouette app, mounted at /chouette/."""

from django.urls import path

from . import pages

app_name = "chouette"

urlpatterns = [
    path("", pages.session_list, name="sessions"),
    path("sessions/<int:pk>/", pages.session_detail, name="session"),
    path("sessions/<int:pk>/record/", pages.record_game, name="record"),
    path("sessions/<int:pk>/join/", pages.join, name="join"),
    path("sessions/<int:pk>/leave/", pages.leave, name="leave"),
    path("sessions/<int:pk>/undo/", pages.undo, name="undo"),
    path("sessions/<int:pk>/close/", pages.close, name="close"),
    path("sessions/<int:pk>/settlement/", pages.settlement, name="settlement"),
    path("sessions/<int:pk>/print/", pages.print_sheet, name="print"),
    path("clubs/<slug:club_slug>/open/", pages.open_session, name="open"),
]
