"""What each cell of the permission matrix sends: the body, content type and headers of a
request for an endpoint, the extras a role needs (a score link's session), and one cell
sent for real (``run_cell``). The expectations and the tests are in
``test_permission_matrix.py``."""

from __future__ import annotations

import base64
from typing import Any

from django.core.files.uploadedfile import SimpleUploadedFile

from .matrix import PASSWORD, Clients, Endpoint, Outcome, send
from .world import World, path_params


def _mat_file() -> SimpleUploadedFile:
    text = (
        " 1 point match\n\n Game 1\n Alice : 0                  Bob : 0\n"
        "  1) 31: 8/5 6/5              \n      Wins 1 point\n"
    )
    return SimpleUploadedFile("night.mat", text.encode(), content_type="text/plain")


def _old_archive() -> SimpleUploadedFile:
    """A file that is no club archive (its JSON opens no object): refused at once (400),
    nothing written. (An archive of another version is read by the job, not the request:
    ``docs/club-archive.md``.)"""
    return SimpleUploadedFile("club.json", b'["boxcars-club-archive", 0]')


def _chouette_form_body(w: World) -> dict[str, Any]:
    """The record form as the page draws it (its initial values): the box wins game 2."""
    from chouette.forms import GameForm
    from chouette.selectors import session_sheet

    form = GameForm(session_sheet(w.session_id))
    body = {}
    for name in form.fields:
        value = form[name].value()
        if value is None or value is False:
            continue
        body[name] = "on" if value is True else value
    return {**body, "winner": "box", "number": 2}


def _body(method: str, template: str, w: World) -> tuple[Any, str | None, dict[str, str]]:
    """(body, format, extra headers) for one endpoint: a request the permitted roles
    would make, so a permitted cell shows the real outcome, not a validation error."""
    a, b, d = w.alice.pk, w.bob.pk, w.dave.pk
    bodies: dict[Endpoint, Any] = {
        ("POST", "/api/v1/clubs/"): {"name": "New Club", "slug": "new-club"},
        ("PUT", "/api/v1/clubs/{slug}/"): {"name": "Renamed Club"},
        ("PATCH", "/api/v1/clubs/{slug}/"): {"description": "Thursdays."},
        ("PATCH", "/api/v1/clubs/{slug}/analysis-settings/"): {"depth": 0},
        ("POST", "/api/v1/players/"): {"display_name": "Newcomer", "clubs": ["test-club"]},
        ("PUT", "/api/v1/players/{pk}/"): {"display_name": "Alice A."},
        ("PATCH", "/api/v1/players/{pk}/"): {"display_name": "Alice B."},
        ("POST", "/api/v1/matches/"): {
            "club": "test-club",
            "player1": a,
            "player2": w.carol.pk,
            "length": 3,
        },
        ("POST", "/api/v1/matches/{pk}/games/"): {"winner": a, "number": 2},
        ("POST", "/api/v1/matches/{pk}/result/"): {"score": [5, 1]},
        ("POST", "/api/v1/matches/{pk}/dispute/"): {"reason": "I won game 1."},
        ("POST", "/api/v1/matches/{pk}/resolve/"): {"resolution": "Checked the sheet."},
        ("POST", "/api/v1/matches/{pk}/forfeit/"): {"winner": a},
        ("POST", "/api/v1/matches/{pk}/reopen/"): {"reason": "Voided by mistake."},
        ("POST", "/api/v1/matches/{pk}/table/"): {"table": 5},
        ("POST", "/api/v1/matches/{pk}/clock/"): {"preset": "usbgf"},
        ("POST", "/api/v1/matches/{pk}/clock/turns/"): {"seq": 1, "side": 2, "used_ms": 0},
        ("POST", "/api/v1/matches/{pk}/clock/flag/"): {"seq": 1, "side": 1, "used_ms": 0},
        ("PATCH", "/api/v1/matches/{match_pk}/games/{number}/"): {"level": "gammon"},
        ("GET", "/api/v1/ratings/preview/"): {"player_a": a, "player_b": b, "length": 5},
        ("POST", "/api/v1/variants/{key}/plays/"): {"dice": [3, 1]},
        # the club's private live channel (a public one is everyone(200)): directors only
        ("GET", "/live/stream/"): {"channel": f"club:{w.club.pk}"},
        ("POST", "/api/v1/clubs/{slug}/results/import/"): {
            "text": "date,winner,loser,length\n2024-01-05,Alice,Bob,5\n"
        },
        ("POST", "/api/v1/tournaments/"): {
            "club": "test-club",
            "name": "Spring Open",
            "format": "single_elimination",
        },
        ("PATCH", "/api/v1/tournaments/{slug}/"): {"name": "Club Night II"},
        ("POST", "/api/v1/tournaments/{slug}/entries/"): {"player": w.carol.pk},
        ("POST", "/api/v1/tournaments/{slug}/seed/"): {"method": "manual"},
        ("POST", "/api/v1/tournaments/{slug}/swap/"): {
            "entry_a": w.entry.pk,
            "entry_b": w.pairing.entry2_id
            if w.pairing.entry1_id == w.entry.pk
            else w.pairing.entry1_id,
        },
        ("POST", "/api/v1/tournaments/{slug}/pairings/{key}/forfeit/"): {"winner": w.entry.pk},
        ("POST", "/api/v1/chouette/sessions/"): {
            "club": "test-club",
            "stake": "1.00",
            "players": [a, b, d],
        },
        ("POST", "/api/v1/chouette/sessions/{pk}/games/"): {
            "winner": "box",
            "members": [{"player": d}, {"player": b}],
        },
        ("PATCH", "/api/v1/chouette/sessions/{session_pk}/games/{number}/"): {"level": "gammon"},
        ("POST", "/api/v1/chouette/sessions/{pk}/join/"): {"player": w.carol.pk},
        ("POST", "/api/v1/chouette/sessions/{pk}/leave/"): {"player": d},
        ("POST", "/matches/{pk}/enter/"): {
            "action": "game",
            "number": 2,
            "winner": a,
            "level": "single",
            "cube": 1,
            "cube_owner": "centre",
            "ending": "played",
        },
        ("POST", "/matches/{pk}/dispute/"): {"reason": "I won game 1."},
        ("POST", "/matches/{pk}/resolve/"): {"decision": "keep", "note": "Checked the sheet."},
        ("POST", "/matches/{pk}/correct/"): {"action": "void", "confirm": "1"},
        ("POST", "/chouette/sessions/{pk}/record/"): _chouette_form_body(w),
        ("POST", "/chouette/clubs/{club_slug}/open/"): {"preset": "modern"},
        ("POST", "/chouette/sessions/{pk}/join/"): {"player": w.carol.pk},
        ("POST", "/chouette/sessions/{pk}/leave/"): {"player": d},
        ("POST", "/chouette/sessions/{pk}/undo/"): {"number": 1},
        ("POST", "/score/{token}/"): {"action": "confirm"},
        ("POST", "/tournaments/new/{club_slug}/"): {
            "name": "Page Open",
            "format": "single_elimination",
        },
        ("POST", "/tournaments/{slug}/director/{action}/"): {
            "pairing": w.pairing.key,
            "winner": w.entry.pk,
            "confirm": "1",
        },
        ("POST", "/api/v1/clubs/{slug}/players/"): {"display_name": "Walk In"},
        ("POST", "/api/v1/tournaments/{slug}/entries/bulk/"): {"names": ["Walk In", "Alice"]},
        ("POST", "/api/v1/tournaments/{slug}/entries/walk-in/"): {"display_name": "Walk In"},
        ("POST", "/clubs/{slug}/players/add/"): {"display_name": "Walk In"},
        ("POST", "/players/{slug}/edit/"): {
            "display_name": "Alice E.",
            "email": "alice@example.org",
            "clubs": [w.club.pk],
        },
        ("POST", "/tournaments/{slug}/director/walk-in/"): {"walkin-display_name": "Walk In"},
        ("POST", "/api/v1/tournaments/{slug}/matches/{match_id}/late-penalty/"): {
            "late_entry": w.entry.pk
        },
        ("POST", "/api/v1/push-subscriptions/"): {
            "endpoint": "https://fcm.googleapis.com/fcm/send/matrix",
            "keys": {"p256dh": "BPk", "auth": "xyz"},
        },
        ("DELETE", "/api/v1/push-subscriptions/"): {
            "endpoint": "https://fcm.googleapis.com/fcm/send/matrix"
        },
        ("POST", "/tournaments/{slug}/director/calls/{call_action}/"): {
            "round": w.pairing.round_id,
            "confirm": "1",
        },
        ("POST", "/tournaments/{slug}/director/register-players/"): {"names": "Walk In\nAlice"},
        ("PATCH", "/api/v1/tournaments/{slug}/rounds/{number}/"): {"clock_policy": "required"},
        ("PUT", "/api/v1/clubs/{slug}/room/"): {"name": "Hall", "tables": 40},
        ("PUT", "/api/v1/tournaments/{slug}/tables/"): {"table_first": 1, "table_last": 4},
        ("POST", "/tournaments/room/{club_slug}/"): {"name": "Hall", "tables": "40"},
        ("POST", "/tournaments/{slug}/director/tables/"): {"table_first": "1", "table_last": "4"},
        ("PATCH", "/api/v1/tournaments/{slug}/money/"): {"registration_fee": "5.00"},
        ("PUT", "/api/v1/tournaments/{slug}/money/pools/{key}/"): {
            "name": "Main",
            "fee": "10.00",
            "preset": "winner_takes_all",
        },
        ("PUT", "/api/v1/tournaments/{slug}/money/pools/{key}/entrants/"): {"entries": []},
        ("PUT", "/api/v1/tournaments/{slug}/money/pools/{key}/award/"): {"groups": None},
        ("POST", "/api/v1/tournaments/{slug}/money/pools/{key}/buy-backs/"): {"entry": w.entry.pk},
        ("POST", "/api/v1/tournaments/{slug}/money/payments/"): {
            "player": a,
            "amount": "10.00",
            "method": "cash",
        },
        ("PUT", "/api/v1/tournaments/{slug}/money/prize-order/"): {"prize_order": []},
        ("POST", "/tournaments/{slug}/director/money/door/pay/"): {
            "player": a,
            "amount": "10.00",
            "method": "cash",
        },
        ("POST", "/api/v1/tournaments/{slug}/money/splits/"): {"entries": [w.entry.pk]},
        ("PUT", "/api/v1/tournaments/{slug}/money/calcutta/"): {"preset": "winner_takes_all"},
        ("POST", "/api/v1/tournaments/{slug}/money/calcutta/lots/"): {"entries": [w.entry.pk]},
        ("PUT", "/api/v1/tournaments/{slug}/money/calcutta/lots/{lot}/sale/"): {
            "price": "10.00",
            "buyers": [{"player": a, "percent": "100"}],
        },
        ("PUT", "/api/v1/tournaments/{slug}/money/calcutta/lots/{lot}/buy-back/"): {
            "entry": w.entry.pk,
            "percent": "10",
        },
        ("PUT", "/api/v1/tournaments/{slug}/money/club/"): {
            "currency": "EUR",
            "payout_unit": "1.00",
            "publish_payouts": True,
            "publish_calcutta": True,
        },
        ("PUT", "/api/v1/tournaments/{slug}/money/master-points/"): {
            "formula": "usbgf-2019",
            "event_weight": "1",
        },
        ("PUT", "/api/v1/clubs/{slug}/master-points/table/"): {
            "per_match_won": "1",
            "brackets": [{"min_players": 2, "points": ["3", "1"]}],
        },
        ("PUT", "/api/v1/clubs/{slug}/master-points/season/"): {"month": 9, "day": 1},
        ("POST", "/clubs/{slug}/master-points/table/"): {
            "form": "table",
            "per_match_won": "1",
            "min_players": "2",
            "max_players": "",
            "points": "3/1",
        },
        ("POST", "/accounts/login/"): {"username": "nobody", "password": "wrong"},
        ("POST", "/i18n/setlang/"): {"language": "de", "next": "/"},
        ("POST", "/clubs/{slug}/settings/"): {"time_zone": "Europe/Copenhagen"},
        ("PUT", "/api/v1/clubs/{slug}/federation-addresses/"): {"wbgf": "r@wbgf.example"},
        ("POST", "/tournaments/{slug}/director/federation/addresses/"): {"ukbgf": "r@uk.example"},
        ("POST", "/clubs/new/"): {"name": "Matrix Club"},
        ("POST", "/clubs/{slug}/people/"): {
            "action": "director",
            "director-email": "new-director@example.org",
        },
        ("POST", "/accounts/code/"): {
            "username": "nobody",
            "code": "WRONG",
            "password1": "Long-enough-9",
            "password2": "Long-enough-9",
        },
        ("POST", "/tournaments/{slug}/settings/"): {"clock_policy": "required"},
    }
    key = (method, template)
    if key == ("POST", "/api/v1/matches/import/"):
        return {"club": "test-club", "files": [_mat_file()]}, "multipart", {}
    if key == ("POST", "/clubs/{slug}/import/"):
        return {"file": _mat_file()}, "multipart", {}
    if key in (("POST", "/api/v1/club-archives/"), ("POST", "/club-import/")):
        return {"file": _old_archive()}, "multipart", {}
    return bodies.get(key), "json", {}


def _role_extras(role: str, method: str, template: str, w: World) -> dict[str, Any]:
    """Credentials some endpoints take in their own way (HTTP Basic, a login form)."""
    user = w.users[role]
    if user is None:
        return {}
    if template == "/api/v1/auth/token/":
        raw = base64.b64encode(f"{user.username}:{PASSWORD}".encode()).decode()
        return {"headers": {"HTTP_AUTHORIZATION": f"Basic {raw}"}}
    if (method, template) == ("POST", "/accounts/login/"):
        return {"body": {"username": user.username, "password": PASSWORD}}
    return {}


def run_cell(clients: Clients, w: World, role: str, method: str, template: str) -> Outcome:
    path = template.format(**path_params(template, w))
    body, fmt, headers = _body(method, template, w)
    if fmt == "multipart":  # a fresh upload for every cell (a file is read once)
        body = _body(method, template, w)[0]
    extras = _role_extras(role, method, template, w)
    body = extras.get("body", body)
    headers = {**headers, **extras.get("headers", {})}
    if template == "/api/v1/auth/token/" and "HTTP_AUTHORIZATION" in headers:
        # HTTP Basic replaces the role's token: a token login is a password login.
        outcome_client = clients
        return send(outcome_client, "anonymous", method, path, body, fmt, headers)
    return send(clients, role, method, path, body, fmt, headers)
