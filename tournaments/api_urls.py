"""Routes of the tournaments API under /api/v1/."""

from django.urls import path
from rest_framework.routers import DefaultRouter

from .api import calls, rooms, round_clocks
from .api.views import TournamentViewSet
from .federation import api as federation

router = DefaultRouter()
router.register("tournaments", TournamentViewSet, basename="tournament")

SLUG = "tournaments/<slug:slug>"

urlpatterns = [
    path(
        f"{SLUG}/entries/<int:entry_id>/check-in/",
        calls.CheckInView.as_view(),
        name="tournament-check-in-api",
    ),
    path(
        f"{SLUG}/drop-no-shows/", calls.DropNoShowsView.as_view(), name="tournament-drop-no-shows"
    ),
    path(
        f"{SLUG}/rounds/<int:number>/call/",
        calls.CallRoundView.as_view(),
        name="tournament-call-round",
    ),
    path(
        f"{SLUG}/rounds/<int:number>/",
        round_clocks.RoundClockView.as_view(),
        name="tournament-round-clock",
    ),
    path(
        f"{SLUG}/matches/<int:match_id>/late-penalty/",
        calls.LatePenaltyView.as_view(),
        name="tournament-late-penalty",
    ),
    path(
        f"{SLUG}/federation/<slug:export>/",
        federation.FederationExportView.as_view(),
        name="tournament-federation-export",
    ),
    path(
        f"{SLUG}/federation/<slug:export>/file/",
        federation.FederationFileView.as_view(),
        name="tournament-federation-file",
    ),
    path(
        f"{SLUG}/federation/<slug:export>/send/",
        federation.FederationSendView.as_view(),
        name="tournament-federation-send",
    ),
    path(
        "clubs/<slug:slug>/federation-addresses/",
        federation.FederationAddressesView.as_view(),
        name="club-federation-addresses",
    ),
    path(f"{SLUG}/tables/", rooms.TableRangeView.as_view(), name="tournament-tables"),
    path("clubs/<slug:slug>/room/", rooms.RoomView.as_view(), name="club-room"),
    path("push-subscriptions/", calls.PushSubscriptionsView.as_view(), name="push-subscriptions"),
    *router.urls,
]
