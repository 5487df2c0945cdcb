"""The permission matrix: every endpoint and page × every role has one expected outcome.

Endpoints are read from the URL resolver and from the OpenAPI schema, so an endpoint
added anywhere fails this test until someone writes down who may call it (add a row to
``EXPECTATIONS``). Each cell is sent for real against one club world and rolled back;
a refused cell (401/403/404/405) must also have written nothing.

Roles (columns, in this order): anonymous, a player of the match/event/session,
another player of the club, the director of another club, the club's director, a site
admin, and an anonymous client holding a private score link for another match.

Cell values: a status code; for page forms that always redirect, ``W302`` (the write
happened) or ``R302`` (refused: redirected with a message and nothing written).
"""

from __future__ import annotations

import os

import pytest
from django.contrib import admin
from django.test import override_settings
from django.urls import reverse

from .cells import run_cell
from .matrix import (
    DENIED,
    WRITE_METHODS,
    Clients,
    Endpoint,
    schema_operations,
    shape,
    url_endpoints,
)
from .world import ROLES, build_world

W302 = "W302"
R302 = "R302"
Cell = int | str


def row(*cells: Cell) -> dict[str, Cell]:
    assert len(cells) == len(ROLES), cells
    return dict(zip(ROLES, cells, strict=True))


def everyone(cell: Cell) -> dict[str, Cell]:
    return row(*([cell] * len(ROLES)))


# The club's directors' rows: the most common row of the matrix, named so that a row
# which lets anyone else through (or refuses differently) stands out as a plain row().


def directors_api(cell: Cell) -> dict[str, Cell]:
    """An API endpoint for the club's directors (and a site admin) only: ``cell`` for
    them; 401 without an account or with another match's score link, 403 for any other
    account."""
    return row(401, 403, 403, 403, cell, cell, 401)


def directors_page(cell: Cell) -> dict[str, Cell]:
    """A page for the club's directors (and a site admin) only: ``cell`` for them; the
    log-in redirect (302) without an account, and no such page (404) for anyone else."""
    return row(302, 404, 404, 404, cell, cell, 302)


def directors_form(cell: Cell) -> dict[str, Cell]:
    """A page's form for the club's directors (and a site admin) only: ``cell`` for
    them; refused without an account (``R302``: to log in, nothing written), and no such
    page (404) for anyone else."""
    return row(R302, 404, 404, 404, cell, cell, R302)


# --- the expectations ---------------------------------------------------------------------

# row(anonymous, player, other_player, other_director, director, admin, other_link)
EXPECTATIONS: dict[Endpoint, dict[str, Cell]] = {
    ("GET", "/api/docs/"): everyone(200),
    ("GET", "/api/schema/"): everyone(200),
    ("GET", "/api/v1/"): everyone(200),
    ("POST", "/api/v1/auth/token/"): row(401, 200, 200, 200, 200, 200, 401),
    ("POST", "/api/v1/auth/token/revoke-all/"): row(401, 204, 204, 204, 204, 204, 401),
    ("POST", "/api/v1/auth/token/revoke/"): row(401, 204, 204, 204, 204, 204, 401),
    ("GET", "/api/v1/chouette/sessions/"): everyone(200),
    ("POST", "/api/v1/chouette/sessions/"): row(401, 201, 403, 403, 201, 201, 401),
    ("GET", "/api/v1/chouette/sessions/{pk}/"): everyone(200),
    ("GET", "/api/v1/chouette/sessions/{pk}/audit/"): row(401, 200, 403, 403, 200, 200, 401),
    ("POST", "/api/v1/chouette/sessions/{pk}/close/"): row(401, 200, 403, 403, 200, 200, 401),
    ("GET", "/api/v1/chouette/sessions/{pk}/games/"): everyone(200),
    ("POST", "/api/v1/chouette/sessions/{pk}/games/"): row(401, 201, 403, 403, 201, 201, 401),
    ("POST", "/api/v1/chouette/sessions/{pk}/join/"): row(401, 200, 200, 403, 200, 200, 401),
    ("POST", "/api/v1/chouette/sessions/{pk}/leave/"): row(401, 200, 403, 403, 200, 200, 401),
    ("GET", "/api/v1/chouette/sessions/{pk}/ledger/"): everyone(200),
    ("GET", "/api/v1/chouette/sessions/{pk}/settlement/"): everyone(200),
    ("GET", "/api/v1/chouette/sessions/{session_pk}/games/{number}/"): everyone(200),
    ("PATCH", "/api/v1/chouette/sessions/{session_pk}/games/{number}/"): row(
        401, 200, 403, 403, 200, 200, 401
    ),
    ("DELETE", "/api/v1/chouette/sessions/{session_pk}/games/{number}/"): row(
        401, 200, 403, 403, 200, 200, 401
    ),
    ("GET", "/api/v1/clubs/"): everyone(200),
    ("POST", "/api/v1/clubs/"): row(401, 201, 201, 201, 201, 201, 401),
    ("GET", "/api/v1/clubs/{slug}/"): everyone(200),
    ("PUT", "/api/v1/clubs/{slug}/"): directors_api(200),
    # the person joins a club themself (tenancy): the world's players are members already,
    # the directors and the admin have no player of their own
    ("POST", "/api/v1/clubs/{slug}/join/"): row(401, 200, 200, 403, 403, 403, 401),
    ("PATCH", "/api/v1/clubs/{slug}/"): directors_api(200),
    ("POST", "/api/v1/clubs/{slug}/players/"): directors_api(201),
    ("GET", "/api/v1/clubs/{slug}/ratings/"): everyone(200),
    ("POST", "/api/v1/clubs/{slug}/ratings/recompute/"): directors_api(202),
    ("POST", "/api/v1/clubs/{slug}/results/import/"): directors_api(201),
    ("GET", "/api/v1/jobs/{pk}/"): directors_api(200),
    ("GET", "/api/v1/matches/"): everyone(200),
    ("POST", "/api/v1/matches/"): directors_api(201),
    ("POST", "/api/v1/matches/import/"): directors_api(201),
    ("PATCH", "/api/v1/matches/{match_pk}/games/{number}/"): directors_api(200),
    ("DELETE", "/api/v1/matches/{match_pk}/games/{number}/"): directors_api(200),
    ("GET", "/api/v1/matches/{pk}/"): everyone(200),
    ("GET", "/api/v1/matches/{pk}/audit/"): row(401, 200, 403, 403, 200, 200, 403),
    ("POST", "/api/v1/matches/{pk}/confirm/"): row(401, 200, 403, 403, 200, 200, 403),
    ("POST", "/api/v1/matches/{pk}/dispute/"): row(401, 200, 403, 403, 403, 403, 403),
    ("POST", "/api/v1/matches/{pk}/forfeit/"): row(401, 403, 403, 403, 200, 200, 403),
    ("POST", "/api/v1/matches/{pk}/games/"): row(401, 201, 403, 403, 201, 201, 403),
    # The world's match is in progress: a director may reopen only a void or forfeit (409).
    ("POST", "/api/v1/matches/{pk}/reopen/"): row(401, 403, 403, 403, 409, 409, 403),
    ("POST", "/api/v1/matches/{pk}/resolve/"): row(401, 403, 403, 403, 200, 200, 403),
    ("POST", "/api/v1/matches/{pk}/result/"): row(401, 409, 403, 403, 409, 409, 403),
    ("POST", "/api/v1/matches/{pk}/score-links/"): row(401, 200, 403, 403, 200, 200, 403),
    # Tables are the director's: a player of the match does not move it.
    ("POST", "/api/v1/matches/{pk}/table/"): row(401, 403, 403, 403, 200, 200, 403),
    ("GET", "/api/v1/matches/{pk}/transcript.mat"): everyone(200),
    # The match clock: anyone reads; the match's players (account or score link) and
    # the club's directors run it. The world's match has no clock yet, so the writes
    # that need one are refused by the rules (409 clock_not_started) once permitted.
    ("GET", "/api/v1/matches/{pk}/clock/"): everyone(200),
    ("POST", "/api/v1/matches/{pk}/clock/"): row(401, 201, 403, 403, 201, 201, 403),
    ("POST", "/api/v1/matches/{pk}/clock/turns/"): row(401, 409, 403, 403, 409, 409, 403),
    ("POST", "/api/v1/matches/{pk}/clock/flag/"): row(401, 409, 403, 403, 409, 409, 403),
    ("POST", "/api/v1/matches/{pk}/clock/pause/"): row(401, 409, 403, 403, 409, 409, 403),
    ("POST", "/api/v1/matches/{pk}/clock/resume/"): row(401, 409, 403, 403, 409, 409, 403),
    ("GET", "/api/v1/matches/{pk}/analysis/"): everyone(404),
    ("POST", "/api/v1/matches/{pk}/analysis/"): directors_api(400),
    ("GET", "/api/v1/matches/{pk}/analysis/history/"): everyone(200),
    ("POST", "/api/v1/matches/{pk}/transcript/"): directors_api(400),
    ("GET", "/api/v1/clubs/{slug}/analysis-settings/"): everyone(200),
    ("PATCH", "/api/v1/clubs/{slug}/analysis-settings/"): directors_api(200),
    ("GET", "/matches/{pk}/analysis/"): everyone(200),
    ("GET", "/players/{slug}/pr/"): everyone(200),
    ("GET", "/variants/"): everyone(200),  # the variants index: public
    ("GET", "/variants/{key}/"): everyone(200),  # a variant's rules: public
    ("GET", "/clubs/{slug}/pr/"): everyone(200),
    ("POST", "/api/v1/matches/{pk}/undo/"): row(401, 403, 403, 403, 200, 200, 403),
    ("POST", "/api/v1/matches/{pk}/void/"): row(401, 403, 403, 403, 200, 200, 403),
    ("GET", "/api/v1/players/"): everyone(200),
    ("POST", "/api/v1/players/"): directors_api(201),
    ("GET", "/api/v1/players/{pk}/"): everyone(200),
    # a name is the person's (tenancy): Alice and a site admin, not her club's director
    ("PUT", "/api/v1/players/{pk}/"): row(401, 200, 403, 403, 403, 200, 401),
    ("PATCH", "/api/v1/players/{pk}/"): row(401, 200, 403, 403, 403, 200, 401),
    ("GET", "/api/v1/players/{pk}/ratings/"): everyone(200),
    ("GET", "/api/v1/ratings/preview/"): everyone(200),
    # the variants and their legal plays: public reads, no account needed (docs/api.md)
    ("GET", "/api/v1/variants/"): everyone(200),
    ("POST", "/api/v1/variants/{key}/plays/"): everyone(200),
    ("GET", "/api/v1/tournaments/"): everyone(200),
    ("POST", "/api/v1/tournaments/"): directors_api(201),
    ("GET", "/api/v1/tournaments/{slug}/"): everyone(200),
    ("PATCH", "/api/v1/tournaments/{slug}/"): directors_api(200),
    ("GET", "/api/v1/tournaments/{slug}/bracket/"): everyone(200),
    ("GET", "/api/v1/tournaments/{slug}/drop-map/"): directors_api(200),
    ("GET", "/api/v1/tournaments/{slug}/entries/"): everyone(200),
    ("POST", "/api/v1/tournaments/{slug}/entries/"): directors_api(409),
    # The world's event is running, a full bracket of four: a late entry finds no bye
    # (409, nothing written) and an entry in the draw cannot be unregistered (409).
    ("POST", "/api/v1/tournaments/{slug}/entries/bulk/"): directors_api(409),
    ("POST", "/api/v1/tournaments/{slug}/entries/walk-in/"): directors_api(409),
    ("DELETE", "/api/v1/tournaments/{slug}/entries/{entry_id}/"): directors_api(409),
    ("POST", "/api/v1/tournaments/{slug}/entries/{entry_id}/withdraw/"): directors_api(200),
    ("POST", "/api/v1/tournaments/{slug}/finish/"): directors_api(409),
    ("POST", "/api/v1/tournaments/{slug}/open-registration/"): directors_api(409),
    ("POST", "/api/v1/tournaments/{slug}/pairings/{key}/forfeit/"): directors_api(200),
    ("POST", "/api/v1/tournaments/{slug}/pairings/{key}/reissue/"): directors_api(409),
    ("POST", "/api/v1/tournaments/{slug}/redraw/"): directors_api(202),
    ("POST", "/api/v1/tournaments/{slug}/rounds/next/"): directors_api(202),
    ("POST", "/api/v1/tournaments/{slug}/seed/"): directors_api(409),
    ("GET", "/api/v1/tournaments/{slug}/standings/"): everyone(200),
    # the club's room (public to read) and an event's reserved tables: directors write
    ("GET", "/api/v1/clubs/{slug}/room/"): everyone(200),
    ("PUT", "/api/v1/clubs/{slug}/room/"): directors_api(200),
    ("PUT", "/api/v1/tournaments/{slug}/tables/"): directors_api(200),
    ("GET", "/tournaments/room/{club_slug}/"): directors_page(200),
    ("POST", "/tournaments/room/{club_slug}/"): directors_form(W302),
    ("GET", "/tournaments/{slug}/director/tables/"): directors_page(200),
    ("POST", "/tournaments/{slug}/director/tables/"): directors_form(W302),
    ("GET", "/api/v1/tournaments/{slug}/odds/"): everyone(200),
    ("POST", "/api/v1/tournaments/{slug}/start/"): directors_api(409),
    ("POST", "/api/v1/tournaments/{slug}/swap/"): directors_api(200),
    ("PATCH", "/api/v1/tournaments/{slug}/money/"): directors_api(200),
    ("GET", "/api/v1/tournaments/{slug}/money/"): everyone(200),
    ("PUT", "/api/v1/tournaments/{slug}/money/pools/{key}/"): directors_api(200),
    ("DELETE", "/api/v1/tournaments/{slug}/money/pools/{key}/"): directors_api(400),
    ("PUT", "/api/v1/tournaments/{slug}/money/pools/{key}/entrants/"): directors_api(400),
    ("PUT", "/api/v1/tournaments/{slug}/money/pools/{key}/award/"): directors_api(400),
    ("POST", "/api/v1/tournaments/{slug}/money/pools/{key}/buy-backs/"): directors_api(400),
    ("POST", "/api/v1/tournaments/{slug}/money/payments/"): directors_api(201),
    ("DELETE", "/api/v1/tournaments/{slug}/money/payments/{payment}/"): directors_api(400),
    ("PUT", "/api/v1/tournaments/{slug}/money/prize-order/"): directors_api(200),
    ("POST", "/api/v1/tournaments/{slug}/money/splits/"): directors_api(400),
    ("DELETE", "/api/v1/tournaments/{slug}/money/splits/"): directors_api(200),
    ("GET", "/api/v1/tournaments/{slug}/money/calcutta/"): everyone(200),
    ("PUT", "/api/v1/tournaments/{slug}/money/calcutta/"): directors_api(200),
    ("POST", "/api/v1/tournaments/{slug}/money/calcutta/lots/"): directors_api(400),
    ("PUT", "/api/v1/tournaments/{slug}/money/calcutta/lots/{lot}/sale/"): directors_api(400),
    ("PUT", "/api/v1/tournaments/{slug}/money/calcutta/lots/{lot}/buy-back/"): directors_api(400),
    ("PUT", "/api/v1/tournaments/{slug}/money/club/"): directors_api(200),
    ("GET", "/api/v1/tournaments/{slug}/money/ledger.csv"): directors_api(200),
    ("GET", "/api/v1/tournaments/{slug}/money/master-points/"): everyone(200),
    ("PUT", "/api/v1/tournaments/{slug}/money/master-points/"): directors_api(200),
    ("GET", "/api/v1/clubs/{slug}/master-points/"): everyone(200),
    ("GET", "/api/v1/clubs/{slug}/master-points/table/"): everyone(200),
    ("PUT", "/api/v1/clubs/{slug}/master-points/table/"): directors_api(200),
    ("PUT", "/api/v1/clubs/{slug}/master-points/season/"): directors_api(200),
    ("GET", "/"): everyone(200),
    ("GET", "/accounts/login/"): everyone(200),
    ("POST", "/accounts/login/"): row(200, R302, R302, R302, R302, R302, 200),
    ("PUT", "/accounts/login/"): everyone(200),
    ("GET", "/accounts/logout/"): everyone(405),
    ("POST", "/accounts/logout/"): everyone(R302),
    ("GET", "/chouette/"): everyone(200),
    ("GET", "/chouette/clubs/{club_slug}/open/"): row(302, 200, 200, 403, 200, 200, 302),
    ("POST", "/chouette/clubs/{club_slug}/open/"): row(R302, 200, 200, 403, 200, 200, R302),
    ("GET", "/chouette/sessions/{pk}/"): everyone(200),
    ("GET", "/chouette/sessions/{pk}/close/"): everyone(405),
    ("POST", "/chouette/sessions/{pk}/close/"): row(R302, W302, R302, R302, W302, W302, R302),
    ("GET", "/chouette/sessions/{pk}/join/"): everyone(405),
    ("POST", "/chouette/sessions/{pk}/join/"): row(R302, W302, W302, R302, W302, W302, R302),
    ("GET", "/chouette/sessions/{pk}/leave/"): everyone(405),
    ("POST", "/chouette/sessions/{pk}/leave/"): row(R302, W302, R302, R302, W302, W302, R302),
    ("GET", "/chouette/sessions/{pk}/print/"): everyone(200),
    ("GET", "/chouette/sessions/{pk}/record/"): everyone(405),
    ("POST", "/chouette/sessions/{pk}/record/"): row(400, W302, 400, 400, W302, W302, 400),
    ("GET", "/chouette/sessions/{pk}/settlement/"): everyone(200),
    ("GET", "/chouette/sessions/{pk}/undo/"): everyone(405),
    ("POST", "/chouette/sessions/{pk}/undo/"): row(R302, W302, R302, R302, W302, W302, R302),
    ("GET", "/clubs/{slug}/"): everyone(200),
    ("GET", "/clubs/{slug}/players/add/"): directors_page(200),
    ("POST", "/clubs/{slug}/players/add/"): directors_form(W302),
    ("GET", "/clubs/{slug}/ratings/"): everyone(200),
    ("GET", "/clubs/{slug}/import/"): directors_page(200),
    ("POST", "/clubs/{slug}/import/"): directors_form(W302),
    # the club's settings (its time zone): its directors only; others see no page
    # Alice has no address: a director's resend of her link is refused (400), and the
    # page's button says so and writes nothing
    ("POST", "/api/v1/clubs/{slug}/players/{player_id}/address-link/"): directors_api(400),
    ("GET", "/players/{slug}/address-link/{club_slug}/"): everyone(405),
    ("POST", "/players/{slug}/address-link/{club_slug}/"): directors_form(R302),
    ("GET", "/api/v1/clubs/{slug}/federation-addresses/"): directors_api(200),
    ("PUT", "/api/v1/clubs/{slug}/federation-addresses/"): directors_api(200),
    # the world's event is running: the exports wait for it to finish (409)
    ("GET", "/api/v1/tournaments/{slug}/federation/{export}/"): directors_api(409),
    ("GET", "/api/v1/tournaments/{slug}/federation/{export}/file/"): directors_api(409),
    ("POST", "/api/v1/tournaments/{slug}/federation/{export}/send/"): directors_api(409),
    ("GET", "/tournaments/{slug}/director/federation/"): directors_page(200),
    ("POST", "/tournaments/{slug}/director/federation/addresses/"): directors_form(W302),
    ("GET", "/tournaments/{slug}/director/federation/{export}/file/"): directors_page(302),
    ("POST", "/tournaments/{slug}/director/federation/{export}/send/"): directors_form(R302),
    ("GET", "/clubs/{slug}/settings/"): directors_page(200),
    ("POST", "/clubs/{slug}/settings/"): directors_form(W302),
    # setting up from the pages (#27): a club by anyone signed in, its co-directors and
    # players' accounts by its directors; a printed code and an invitation's link by anyone
    ("GET", "/clubs/new/"): row(302, 200, 200, 200, 200, 200, 302),
    ("POST", "/clubs/new/"): row(R302, W302, W302, W302, W302, W302, R302),
    ("GET", "/clubs/{slug}/join/"): row(302, 405, 405, 405, 405, 405, 302),
    ("POST", "/clubs/{slug}/join/"): everyone(R302),
    ("GET", "/clubs/{slug}/people/"): directors_page(200),
    ("POST", "/clubs/{slug}/people/"): directors_form(W302),
    ("GET", "/accounts/code/"): everyone(200),
    ("POST", "/accounts/code/"): everyone(400),
    ("GET", "/accounts/set-password/{uidb64}/{token}/"): everyone(200),
    ("POST", "/accounts/set-password/{uidb64}/{token}/"): everyone(200),
    ("PUT", "/accounts/set-password/{uidb64}/{token}/"): everyone(200),
    # a person's own invitations and address (#37): theirs when signed in; a link to
    # confirm an address (here a score link's token, so not a valid one) refused in words
    ("GET", "/accounts/invitations/"): row(302, 200, 200, 200, 200, 200, 302),
    ("POST", "/accounts/invitations/"): row(R302, 200, 200, 200, 200, 200, R302),
    ("GET", "/accounts/address/"): row(302, 200, 200, 200, 200, 200, 302),
    ("POST", "/accounts/address/"): row(R302, 400, 400, 400, 400, 400, R302),
    ("GET", "/accounts/address/confirm/{token}/"): row(302, 200, 200, 200, 200, 200, 302),
    ("POST", "/accounts/address/confirm/{token}/"): row(R302, 400, 400, 400, 400, 400, R302),
    ("GET", "/addresses/confirm/{token}/"): everyone(400),
    ("POST", "/addresses/confirm/{token}/"): everyone(400),
    ("GET", "/healthz"): everyone(200),
    # published events for search engines, and the public events index (#27)
    ("GET", "/sitemap.xml"): everyone(200),
    # the installable app: its manifest and service worker, the same for everyone (#29)
    ("GET", "/manifest.webmanifest"): everyone(200),
    ("GET", "/sw.js"): everyone(200),
    ("GET", "/tournaments/"): everyone(200),
    # the header's language picker: a cookie for anyone; a signed-in user linked to a
    # player also stores it on their own player (their emails' language, docs/languages.md)
    ("GET", "/i18n/setlang/"): everyone(302),
    ("POST", "/i18n/setlang/"): row(R302, W302, W302, R302, R302, R302, R302),
    # the browser scripts' translations: public, the same for everyone of a language
    ("GET", "/jsi18n/"): everyone(200),
    ("GET", "/matches/{pk}/"): everyone(200),
    ("GET", "/matches/{pk}/card/"): everyone(200),
    # the clock page: everyone watches; the script runs it for players and directors
    ("GET", "/matches/{pk}/clock/"): everyone(200),
    # "is the page behind?": public, like the match page it refreshes
    ("GET", "/matches/{pk}/live/"): everyone(200),
    # a player of the match disputes; a director of the club rules (the world's
    # disputed match); everyone else is not shown the forms
    ("GET", "/matches/{pk}/dispute/"): row(302, 405, 405, 405, 405, 405, 302),
    ("POST", "/matches/{pk}/dispute/"): row(R302, W302, 404, 404, 404, 404, R302),
    ("GET", "/matches/{pk}/resolve/"): row(302, 405, 405, 405, 405, 405, 302),
    ("POST", "/matches/{pk}/resolve/"): directors_form(W302),
    ("GET", "/matches/{pk}/enter/"): row(302, 200, 404, 404, 200, 200, 302),
    # The score-link sheets are for the club's directors; their POST only sends mail
    # (nothing stored), hence R302 for the directors too.
    ("GET", "/matches/{pk}/links/"): row(302, 403, 403, 403, 200, 200, 302),
    ("POST", "/matches/{pk}/links/"): row(R302, 403, 403, 403, R302, R302, R302),
    ("POST", "/matches/{pk}/enter/"): row(R302, W302, 404, 404, W302, W302, R302),
    # a director's corrections: only the match's club directors (and admins) get the form
    ("GET", "/matches/{pk}/correct/"): directors_page(302),
    ("POST", "/matches/{pk}/correct/"): directors_form(W302),
    ("GET", "/players/{slug}/"): everyone(200),
    # the person edits their own name and address; the director their club's membership
    # (Alice's form: no club of hers to tick, so the world's body is refused in words)
    ("GET", "/players/{slug}/edit/"): row(302, 200, 404, 404, 200, 200, 302),
    ("POST", "/players/{slug}/edit/"): row(R302, 200, 404, 404, W302, W302, R302),
    ("GET", "/players/{slug}/ratings/"): everyone(200),
    ("GET", "/score/{token}/"): everyone(200),
    ("POST", "/score/{token}/"): everyone(W302),
    ("GET", "/score/{token}/clock/"): everyone(200),
    ("GET", "/tournaments/new/{club_slug}/"): directors_page(200),
    ("POST", "/tournaments/new/{club_slug}/"): directors_form(W302),
    ("GET", "/tournaments/{slug}/"): everyone(200),
    ("GET", "/tournaments/{slug}/bracket/"): everyone(200),
    ("GET", "/tournaments/{slug}/director/"): directors_page(200),
    # the event's settings: capacity, check-in, clocks (#27)
    ("GET", "/tournaments/{slug}/settings/"): directors_page(200),
    ("POST", "/tournaments/{slug}/settings/"): directors_form(W302),
    ("POST", "/tournaments/{slug}/director/"): directors_form(200),
    ("GET", "/tournaments/{slug}/director/rounds/{round_id}/links/"): row(
        302, 403, 403, 403, 200, 200, 302
    ),
    ("POST", "/tournaments/{slug}/director/rounds/{round_id}/links/"): row(
        R302, 403, 403, 403, R302, R302, R302
    ),
    ("GET", "/tournaments/{slug}/director/{action}/"): row(302, 405, 405, 405, 405, 405, 302),
    ("POST", "/tournaments/{slug}/director/{action}/"): row(
        R302, R302, R302, R302, W302, W302, R302
    ),
    # Pages that answer a POST with a page: the walk-in finds no bye in the world's full
    # bracket (the refusal next to the field, nothing written); the bulk form previews.
    ("GET", "/tournaments/{slug}/director/walk-in/"): directors_page(200),
    ("POST", "/tournaments/{slug}/director/walk-in/"): directors_form(200),
    ("GET", "/tournaments/{slug}/director/register-players/"): directors_page(200),
    ("POST", "/tournaments/{slug}/director/register-players/"): directors_form(200),
    # Check-in and calls. The world's event is running: check-in is closed (409, or a
    # page's message), no round is called yet (a late penalty is 409 round_not_called),
    # and round 1 is ready, so the director's call writes. A check-in page takes an
    # entry's check-in link; the world's token is a score link, so 404 for everyone.
    ("POST", "/api/v1/tournaments/{slug}/entries/{entry_id}/check-in/"): row(
        401, 409, 403, 403, 409, 409, 401
    ),
    ("POST", "/api/v1/tournaments/{slug}/drop-no-shows/"): directors_api(409),
    ("POST", "/api/v1/tournaments/{slug}/rounds/{number}/call/"): directors_api(201),
    ("POST", "/api/v1/tournaments/{slug}/matches/{match_id}/late-penalty/"): directors_api(409),
    # a round's own clock policy (docs/clocks.md): the club's directors only
    ("PATCH", "/api/v1/tournaments/{slug}/rounds/{number}/"): directors_api(200),
    # any account subscribes its own devices; removing one that is not there is a no-op
    ("POST", "/api/v1/push-subscriptions/"): row(401, 201, 201, 201, 201, 201, 401),
    ("DELETE", "/api/v1/push-subscriptions/"): row(401, 204, 204, 204, 204, 204, 401),
    ("GET", "/tournaments/{slug}/check-in/"): row(302, 200, 404, 404, 404, 404, 302),
    ("POST", "/tournaments/{slug}/check-in/"): row(R302, R302, 404, 404, 404, 404, R302),
    ("GET", "/tournaments/{slug}/check-in/{token}/"): everyone(404),
    ("POST", "/tournaments/{slug}/check-in/{token}/"): everyone(404),
    ("GET", "/tournaments/{slug}/director/calls/{call_action}/"): row(
        302, 405, 405, 405, 405, 405, 302
    ),
    ("POST", "/tournaments/{slug}/director/calls/{call_action}/"): directors_form(W302),
    ("GET", "/tournaments/{slug}/rounds/{round_id}/cards/"): everyone(200),
    ("GET", "/tournaments/{slug}/screen/"): everyone(200),
    ("GET", "/tournaments/{slug}/screen/live/"): everyone(200),
    # The live stream of a club's private channel (docs/live.md); public channels are
    # everyone's (tests/integration/test_live_stream.py checks both).
    ("GET", "/live/stream/"): row(403, 403, 403, 403, 200, 200, 403),
    ("GET", "/tournaments/{slug}/standings/"): everyone(200),
    ("GET", "/tournaments/{slug}/odds/"): everyone(200),
    ("GET", "/tournaments/{slug}/odds/live/"): everyone(200),
    ("GET", "/tournaments/{slug}/money/"): everyone(200),
    ("GET", "/clubs/{slug}/master-points/"): everyone(200),
    ("GET", "/clubs/{slug}/master-points/table/"): everyone(200),
    ("POST", "/clubs/{slug}/master-points/table/"): directors_form(W302),
    ("GET", "/tournaments/{slug}/director/money/"): directors_page(200),
    ("POST", "/tournaments/{slug}/director/money/"): directors_form(200),
    ("GET", "/tournaments/{slug}/director/money/auction/"): directors_page(200),
    ("GET", "/tournaments/{slug}/director/money/award/"): directors_page(200),
    # the world has no pool: a director's decision is refused (400), nothing written
    ("POST", "/tournaments/{slug}/director/money/award/"): directors_form(400),
    ("GET", "/tournaments/{slug}/director/money/history/"): directors_page(200),
    ("GET", "/tournaments/{slug}/director/money/door/"): directors_page(200),
    ("POST", "/tournaments/{slug}/director/money/door/pay/"): directors_form(W302),
    ("POST", "/tournaments/{slug}/director/money/door/undo/"): directors_form(R302),
    ("GET", "/tournaments/{slug}/director/money/payout-sheet/"): directors_page(200),
    ("GET", "/tournaments/{slug}/director/money/ledger.csv"): directors_page(200),
    ("GET", "/tournaments/{slug}/director/money/do/{action}/"): directors_page(404),
    ("POST", "/tournaments/{slug}/director/money/do/{action}/"): directors_form(404),
    ("GET", "/tournaments/{slug}/director/money/master-points/"): directors_page(404),
    ("POST", "/tournaments/{slug}/director/money/master-points/"): directors_form(400),
    # The club's data (docs/club-archive.md): an export is its directors'; the world keeps
    # no exported file (404); an import is anyone's with an account (the world's file is
    # of an unknown version: 400, nothing written); the spreadsheets are public.
    ("POST", "/api/v1/clubs/{slug}/archive/"): directors_api(202),
    ("GET", "/api/v1/club-archives/{job_id}/"): row(401, 404, 404, 404, 404, 404, 401),
    ("POST", "/api/v1/club-archives/"): row(401, 400, 400, 400, 400, 400, 401),
    ("GET", "/api/v1/clubs/{slug}/matches.csv"): everyone(200),
    ("GET", "/api/v1/clubs/{slug}/rating-history.csv"): everyone(200),
    ("GET", "/clubs/{slug}/data/"): directors_page(200),
    ("POST", "/clubs/{slug}/data/"): directors_form(W302),
    ("GET", "/clubs/{slug}/data/exports/{job_id}/"): directors_page(404),
    ("GET", "/clubs/{slug}/matches.csv"): everyone(200),
    ("GET", "/clubs/{slug}/rating-history.csv"): everyone(200),
    ("GET", "/club-import/"): row(302, 200, 200, 200, 200, 200, 302),
    ("POST", "/club-import/"): row(R302, 400, 400, 400, 400, 400, R302),
}


READ_ONLY_WRITES: set[Endpoint] = {
    ("POST", "/api/v1/matches/{pk}/score-links/"),  # signs links, stores nothing
    ("DELETE", "/api/v1/push-subscriptions/"),  # the world's accounts have no device
    ("POST", "/api/v1/variants/{key}/plays/"),  # computes legal plays, stores nothing
    ("POST", "/api/v1/clubs/{slug}/join/"),  # the world's players are members already
}
"""API writes whose success changes no row; every other 2xx write must show in the
database fingerprint (so a cell cannot pass on a status alone)."""


# --- the tests ----------------------------------------------------------------------------


def all_endpoints() -> tuple[set[Endpoint], set[str]]:
    endpoints, function_views = url_endpoints()
    by_shape = {(m, shape(t)): (m, t) for m, t in endpoints}
    for method, path in schema_operations():
        if (method, shape(path)) not in by_shape:
            endpoints.add((method, path))  # documented but not routed: fails below
    return endpoints, function_views


@pytest.fixture
def fast_world(db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    with override_settings(
        CACHES={
            "default": {
                "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                "LOCATION": "permission-matrix",
            }
        }
    ):
        world = build_world()
        yield world, Clients(world)


def test_every_endpoint_has_an_expectation_for_every_role():
    endpoints, function_views = all_endpoints()
    missing = sorted(e for e in endpoints if e not in EXPECTATIONS)
    missing += sorted(("*", t) for t in function_views if not any(k[1] == t for k in EXPECTATIONS))
    assert not missing, (
        "These endpoints have no row in EXPECTATIONS of tests/security/test_permission_"
        "matrix.py: add one saying what each role gets:\n"
        + "\n".join(f"  {m} {t}" for m, t in missing)
    )
    known = endpoints | {(m, t) for m, t in EXPECTATIONS if t in function_views}
    stale = sorted(set(EXPECTATIONS) - known)
    assert not stale, f"Expectations for endpoints that no longer exist: {stale}"
    for key, cells in EXPECTATIONS.items():
        assert set(cells) == set(ROLES), f"{key} needs a cell for each role"


def test_documented_operations_are_all_routed():
    endpoints, _ = url_endpoints()
    routed = {(m, shape(t)) for m, t in endpoints}
    unrouted = sorted(op for op in schema_operations() if (op[0], shape(op[1])) not in routed)
    assert not unrouted, f"The schema documents operations no route serves: {unrouted}"


#: The rows are checked in this many parts (every row in exactly one), so parallel test
#: processes (pytest-xdist) share the 1,500-odd requests instead of one taking them all.
PARTS = 4


def test_the_parts_cover_every_row_once():
    rows = sorted(EXPECTATIONS)
    assert sorted(r for p in range(PARTS) for r in rows[p::PARTS]) == rows


@pytest.mark.parametrize("part", range(PARTS))
def test_every_cell_of_the_matrix(fast_world, capsys, part):
    world, clients = fast_world
    failures: list[str] = []
    checked = 0
    discover = os.environ.get("MATRIX_DISCOVER")
    targets = dict(EXPECTATIONS)
    if discover:  # print a suggested row for every endpoint, expected or not
        endpoints, function_views = all_endpoints()
        endpoints |= {(m, t) for t in function_views for m in ("GET", "POST")}
        targets = {e: targets.get(e, everyone(0)) for e in endpoints}
    for (method, template), cells in sorted(targets.items())[part::PARTS]:
        actual = {}
        for role in ROLES:
            outcome = run_cell(clients, world, role, method, template)
            checked += 1
            actual[role] = outcome
            expected = cells[role]
            if expected in (W302, R302):
                ok = outcome.status == 302 and outcome.wrote == (expected == W302)
            else:
                ok = outcome.status == expected
                if expected in DENIED or method not in WRITE_METHODS:
                    ok = ok and not outcome.wrote  # a refusal or a read writes nothing
                elif (
                    isinstance(expected, int)
                    and 200 <= expected < 300
                    and template.startswith("/api/")
                ):
                    ok = ok and outcome.wrote == ((method, template) not in READ_ONLY_WRITES)
            if not ok:
                failures.append(
                    f"{method} {template} as {role}: expected {expected}, got "
                    f"{outcome.status}{' (wrote)' if outcome.wrote else ''}"
                )
        if discover:
            with capsys.disabled():
                print(
                    f"    ({method!r}, {template!r}): row("
                    + ", ".join(
                        (
                            ("W302" if o.wrote else "R302")
                            if o.status == 302 and method in WRITE_METHODS
                            else str(o.status) + ("w" if o.wrote else "")
                        )
                        for o in actual.values()
                    )
                    + "),"
                )
    with capsys.disabled():
        print(
            f"\npermission matrix, part {part + 1} of {PARTS}: {len(EXPECTATIONS)} endpoints "
            f"x {len(ROLES)} roles, {checked} cells checked here"
        )
    assert not failures, "\n".join(failures)


def test_admin_site_is_for_staff_only(fast_world):
    """Every model page of the admin site: site admins get in, everyone else is sent to
    the admin login, whatever their role in a club."""
    _world, clients = fast_world
    for model in admin.site._registry:
        url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        for role in ROLES:
            response = clients.page(role).get(url)
            expected = 200 if role == "admin" else 302
            assert response.status_code == expected, (url, role, response.status_code)
            if expected == 302:
                assert "/admin/login/" in response["Location"]
