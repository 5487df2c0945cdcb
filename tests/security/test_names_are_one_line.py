"""Names and titles are one line (issue 25, item 4): a CR, LF or other control character
in a player's, club's, tournament's, pool's, lot's, chouette session's or match's name is
refused with 400 ``control_characters`` naming the field (API) or shown next to the field
(pages), and nothing is written."""

from __future__ import annotations

import pytest
from django.test import Client

from chouette.models import Session
from games.models import Club, Match, Player
from games.services.addresses import confirm_by_password_link
from money.models import Lot, Pool
from tests.factories import confirm_address
from tests.tournaments import conftest as events
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db

actor, make_event = events.actor, events.make_event  # the tournaments' fixtures

EVIL = "Evil\r\nBcc: x@example.net"
BAD_NAMES = [
    EVIL,
    "Evil\nBcc",
    "Tab\there",
    "Bell\x07",  # (NUL: DRF refuses it first, with its own code)
    "Esc\x1b[31m",
    "Nel\x85x",
    "Line\u2028sep",
]


@pytest.fixture
def directed(client_for, director):
    return client_for(director)


def refused(response, field: str) -> None:
    assert response.status_code == 400, response.content
    body = response.json()
    assert (body["code"], body["field"]) == ("control_characters", field), body


@pytest.mark.parametrize("name", BAD_NAMES)
def test_a_tournament_name_with_a_control_character_is_refused(directed, club, name):
    answer = directed.post(
        "/api/v1/tournaments/",
        {"club": club.slug, "name": name, "format": "single_elimination"},
        format="json",
    )
    refused(answer, "name")
    assert not Tournament.objects.exists()


def test_renaming_a_tournament_is_checked_too(directed, make_event):
    event = make_event(4)
    answer = directed.patch(f"/api/v1/tournaments/{event.slug}/", {"name": EVIL}, format="json")
    refused(answer, "name")
    assert Tournament.objects.get(pk=event.pk).name == event.name


@pytest.mark.parametrize("name", BAD_NAMES)
def test_a_club_name_with_a_control_character_is_refused(directed, name):
    refused(directed.post("/api/v1/clubs/", {"name": name}, format="json"), "name")
    assert not Club.objects.filter(name__startswith=name[:3]).exists()


def test_renaming_a_club_is_checked_too(directed, club):
    refused(directed.put(f"/api/v1/clubs/{club.slug}/", {"name": EVIL}, format="json"), "name")
    refused(directed.patch(f"/api/v1/clubs/{club.slug}/", {"name": EVIL}, format="json"), "name")
    assert Club.objects.get(pk=club.pk).name == club.name


def test_player_names_are_checked_at_every_door(directed, club, alice, make_event):
    event = make_event(4)
    players = Player.objects.count()
    refused(
        directed.post(
            "/api/v1/players/", {"display_name": EVIL, "clubs": [club.slug]}, format="json"
        ),
        "display_name",
    )
    refused(
        directed.post(f"/api/v1/clubs/{club.slug}/players/", {"display_name": EVIL}, format="json"),
        "display_name",
    )
    refused(
        directed.post(
            f"/api/v1/tournaments/{event.slug}/entries/walk-in/",
            {"display_name": "Walk\tIn"},
            format="json",
        ),
        "display_name",
    )
    assert Player.objects.count() == players
    refused(
        directed.patch(f"/api/v1/players/{alice.pk}/", {"display_name": EVIL}, format="json"),
        "display_name",
    )
    assert Player.objects.get(pk=alice.pk).display_name == alice.display_name


def test_a_match_label_is_checked(directed, club, alice, bob):
    answer = directed.post(
        "/api/v1/matches/",
        {"club": club.slug, "player1": alice.pk, "player2": bob.pk, "length": 3, "label": EVIL},
        format="json",
    )
    refused(answer, "label")
    assert not Match.objects.exists()


def test_a_pool_name_and_a_lot_label_are_checked(directed, make_event):
    event = make_event(4)
    money = f"/api/v1/tournaments/{event.slug}/money/"
    answer = directed.put(
        money + "pools/main/",
        {"name": EVIL, "fee": "10.00", "preset": "winner_takes_all"},
        format="json",
    )
    refused(answer, "name")
    assert not Pool.objects.exists()
    entry = Entry.objects.filter(tournament=event).first()
    lot = directed.post(
        money + "calcutta/lots/", {"entries": [entry.pk], "label": EVIL}, format="json"
    )
    refused(lot, "label")
    assert not Lot.objects.exists()


def test_a_chouette_session_label_is_checked(directed, club, alice, bob, director):
    from games.services import clubs as club_services

    third = club_services.create_player(display_name="Dan", clubs=[club])
    answer = directed.post(
        "/api/v1/chouette/sessions/",
        {
            "club": club.slug,
            "stake": "1.00",
            "players": [alice.pk, bob.pk, third.pk],
            "label": EVIL,
        },
        format="json",
    )
    refused(answer, "label")
    assert not Session.objects.exists()


def test_the_pages_show_the_rule_next_to_the_field(director, club, make_event):
    browser = Client()
    browser.force_login(director)
    page = browser.post(
        f"/tournaments/new/{club.slug}/", {"name": EVIL, "format": "single_elimination"}
    )
    assert page.status_code == 400  # the form again, the rule next to the field
    assert page.context["form"].errors["name"] == [
        "A name is one line of text: no line breaks, tabs or other control characters."
    ]
    assert not Tournament.objects.exists()
    players = Player.objects.count()
    added = browser.post(f"/clubs/{club.slug}/players/add/", {"display_name": EVIL})
    assert added.status_code == 200 and "display_name" in added.context["form"].errors
    assert Player.objects.count() == players


def test_a_name_that_merely_ends_in_a_line_break_is_trimmed_not_refused(directed):
    """The API trims the ends of a text field; only a break *inside* a name is refused."""
    answer = directed.post("/api/v1/clubs/", {"name": "Tidy Club\r\n"}, format="json")
    assert answer.status_code == 201, answer.json()
    assert Club.objects.get(pk=answer.json()["id"]).name == "Tidy Club"


# Rows stored before the rule (or by a door that forgot it) never break an email.


def test_a_round_call_is_emailed_although_the_stored_names_hold_line_breaks(
    make_event, actor, django_capture_on_commit_callbacks
):
    from django.core import mail

    from tournaments.call_notices import send_call_notices
    from tournaments.models import CallNotice
    from tournaments.services import calls

    event = make_event(2)
    Tournament.objects.filter(pk=event.pk).update(name=EVIL)  # bypassing every check
    for number, entry in enumerate(Entry.objects.filter(tournament=event).select_related("player")):
        Player.objects.filter(pk=entry.player_id).update(
            display_name=f"Player\r\n{number}", email=f"p{number}@example.org"
        )
        confirm_address(event.club, f"p{number}@example.org")
    (call,) = calls.call_round(actor=actor, tournament_id=event.pk, round_number=1)

    counts = send_call_notices(call_id=call.pk)

    assert counts["sent"] == 2 and counts["failed"] == 0
    assert not CallNotice.objects.exclude(error="").exists()
    assert len(mail.outbox) == 2
    for message in mail.outbox:
        assert "\r" not in message.subject and "\n" not in message.subject
        assert message.subject.startswith("Evil Bcc: x@example.net: ")
        assert "Bcc" not in message.message().get_all("Bcc", [])  # no header was injected
        assert message.bcc == []


def test_a_dispute_is_emailed_although_the_club_name_holds_line_breaks(
    client_for,
    club,
    director,
    alice_user,
    bob_user,
    match,
    alice,
    django_capture_on_commit_callbacks,
):
    from django.core import mail

    from core.models import DomainEvent

    director.email = "director@example.org"
    director.save()
    confirm_by_password_link(director)  # only a confirmed address is mailed
    Club.objects.filter(pk=club.pk).update(name=EVIL)
    client_for(alice_user).post(
        f"/api/v1/matches/{match.pk}/games/", {"winner": alice.pk}, format="json"
    )
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(bob_user).post(
            f"/api/v1/matches/{match.pk}/dispute/", {"reason": "Not so."}, format="json"
        )
    assert response.status_code == 200, response.json()

    assert DomainEvent.objects.get(kind="match.disputed").handled_at is not None
    (message,) = mail.outbox
    assert message.subject == f"[Evil Bcc: x@example.net] Match {match.pk} is disputed"
    assert message.message().get_all("Bcc") is None


def test_the_data_migrations_clean_stored_names(club, alice):
    """The function each app's migration runs (``core.name_cleaning.clean_names``)."""
    from django.apps import apps

    from core.name_cleaning import clean_names

    Club.objects.filter(pk=club.pk).update(name="Evil\r\n\r\nBcc:\tx\u2028y")
    Player.objects.filter(pk=alice.pk).update(display_name="\x07\x1b")
    untouched = Player.objects.create(display_name="Bob  Two", slug="bob-two")

    clean_names("games", [("Club", "name", False), ("Player", "display_name", False)])(apps, None)

    assert Club.objects.get(pk=club.pk).name == "Evil Bcc: x y"
    assert Player.objects.get(pk=alice.pk).display_name == "(no name)"
    assert Player.objects.get(pk=untouched.pk).display_name == "Bob  Two"  # clean: not rewritten


def test_every_email_sender_builds_its_subject_with_the_one_helper():
    """A module that sends mail builds each subject with ``core.mail.subject``."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    senders = []
    for app in ("core", "games", "tournaments", "chouette", "money", "analysis"):
        for path in (root / app).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            if re.search(
                r"\b(send_mail|send_mass_mail|EmailMessage|EmailMultiAlternatives)\(", text
            ):
                senders.append(path.relative_to(root).as_posix())
                given = re.findall(r"\bsubject=\s*([\w.]+)", text)  # subject=... arguments
                assigned = re.findall(r"\bsubject = ([\w.]+)", text)  # subject = ... lines
                assert given, path
                assert all(v in ("mail.subject", "subject") for v in given), (path, given)
                assert all(v == "mail.subject" for v in assigned), (path, assigned)
    assert "games/dispute_notices.py" in senders and "tournaments/call_notices.py" in senders
