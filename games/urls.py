"""Pages of the games app."""

from django.urls import path

from .pages import (
    accounts,
    clocks,
    club_settings,
    clubs,
    match_corrections,
    match_entry,
    matches,
    offline_app,
    players,
    ratings,
    score_links,
    transcripts,
)

urlpatterns = [
    path("", clubs.home, name="home"),
    path("sw.js", offline_app.service_worker, name="service-worker"),
    path("manifest.webmanifest", offline_app.manifest, name="web-manifest"),
    path("clubs/new/", accounts.new_club, name="club-new"),
    path("clubs/<slug:slug>/", clubs.club_detail, name="club-detail"),
    path("clubs/<slug:slug>/people/", accounts.club_people, name="club-people"),
    path("accounts/code/", accounts.sign_in_code, name="sign-in-code"),
    path("accounts/invitations/", accounts.my_invitations, name="my-invitations"),
    path("accounts/address/", accounts.my_address, name="my-address"),
    path("accounts/address/confirm/<str:token>/", accounts.address_confirm, name="address-confirm"),
    path(
        "addresses/confirm/<str:token>/",
        accounts.club_address_confirm,
        name="club-address-confirm",
    ),
    path(
        "accounts/set-password/<uidb64>/<token>/",
        accounts.SetPasswordView.as_view(),
        name="password-set",
    ),
    path("clubs/<slug:slug>/players/add/", players.add_player, name="club-add-player"),
    path("clubs/<slug:slug>/settings/", club_settings.club_settings, name="club-settings"),
    path("players/<slug:slug>/", clubs.player_detail, name="player-detail"),
    path("players/<slug:slug>/edit/", players.edit_player, name="player-edit"),
    path("clubs/<slug:slug>/import/", transcripts.import_transcript, name="club-import"),
    path("clubs/<slug:slug>/ratings/", ratings.club_ratings, name="club-ratings"),
    path("players/<slug:slug>/ratings/", ratings.player_ratings, name="player-ratings"),
    path("matches/<int:pk>/", matches.match_detail, name="match-detail"),
    path("matches/<int:pk>/enter/", match_entry.match_entry, name="match-entry"),
    path("matches/<int:pk>/live/", matches.match_live, name="match-live"),
    path("matches/<int:pk>/dispute/", matches.match_dispute, name="match-dispute"),
    path("matches/<int:pk>/resolve/", matches.match_resolve, name="match-resolve"),
    path("matches/<int:pk>/card/", matches.match_card, name="match-card"),
    path("matches/<int:pk>/links/", score_links.match_links, name="match-links"),
    path("matches/<int:pk>/correct/", match_corrections.match_correct, name="match-correct"),
    path("matches/<int:pk>/clock/", clocks.match_clock, name="match-clock"),
    path("score/<str:token>/", match_entry.score_link_entry, name="score-link"),
    path("score/<str:token>/clock/", clocks.score_link_clock, name="score-link-clock"),
]
