"""Pages of the tournaments app (mounted at /tournaments/)."""

from django.urls import path

from . import (
    call_pages,
    link_pages,
    pages,
    public_pages,
    registration_pages,
    settings_pages,
    table_pages,
)
from .federation import pages as federation_pages

urlpatterns = [
    path("", public_pages.tournament_index, name="tournament-index"),
    path("new/<slug:club_slug>/", pages.new_tournament, name="tournament-new"),
    path("room/<slug:club_slug>/", table_pages.room_page, name="tournament-room"),
    path("<slug:slug>/", pages.tournament_detail, name="tournament-detail"),
    path("<slug:slug>/bracket/", pages.bracket_page, name="tournament-bracket"),
    path("<slug:slug>/standings/", pages.standings_page, name="tournament-standings"),
    path("<slug:slug>/odds/", pages.odds_page, name="tournament-odds"),
    path("<slug:slug>/odds/live/", pages.odds_live, name="tournament-odds-live"),
    path("<slug:slug>/screen/", pages.screen_page, name="tournament-screen"),
    path("<slug:slug>/screen/live/", pages.screen_live, name="tournament-screen-live"),
    path(
        "<slug:slug>/rounds/<int:round_id>/cards/",
        pages.round_cards_page,
        name="tournament-round-cards",
    ),
    path("<slug:slug>/director/", pages.director_page, name="tournament-director"),
    path("<slug:slug>/settings/", settings_pages.event_settings, name="tournament-settings"),
    path("<slug:slug>/check-in/", call_pages.check_in_signed_in, name="tournament-check-in"),
    path(
        "<slug:slug>/check-in/<str:token>/",
        call_pages.check_in_by_link,
        name="tournament-check-in-link",
    ),
    path(
        "<slug:slug>/director/calls/<slug:call_action>/",
        call_pages.director_calls_action,
        name="tournament-calls-action",
    ),
    path(
        "<slug:slug>/director/walk-in/",
        registration_pages.walk_in,
        name="tournament-walk-in",
    ),
    path(
        "<slug:slug>/director/register-players/",
        registration_pages.register_players,
        name="tournament-register-players",
    ),
    path(
        "<slug:slug>/director/rounds/<int:round_id>/links/",
        link_pages.round_links,
        name="tournament-round-links",
    ),
    path(
        "<slug:slug>/director/federation/",
        federation_pages.federation_page,
        name="tournament-federation",
    ),
    path(
        "<slug:slug>/director/federation/addresses/",
        federation_pages.federation_addresses,
        name="tournament-federation-addresses",
    ),
    path(
        "<slug:slug>/director/federation/<slug:export>/file/",
        federation_pages.federation_file,
        name="tournament-federation-download",
    ),
    path(
        "<slug:slug>/director/federation/<slug:export>/send/",
        federation_pages.federation_send,
        name="tournament-federation-send-page",
    ),
    path(
        "<slug:slug>/director/tables/",
        table_pages.reserved_tables,
        name="tournament-reserved-tables",
    ),
    path(
        "<slug:slug>/director/<slug:action>/",
        pages.director_action,
        name="tournament-director-action",
    ),
]
