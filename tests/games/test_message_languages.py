"""Which language an email is in: the recipient's, else the club's (docs/languages.md)."""

from __future__ import annotations

import pytest

from games.languages import message_language
from games.services import clubs as club_services

pytestmark = pytest.mark.django_db


def test_the_players_language_wins_then_the_clubs_then_the_sites(club, alice, settings):
    assert message_language(alice, club) == "en"  # a new club speaks LANGUAGE_CODE
    club = club_services.update_club(club=club, language="fr")
    assert message_language(alice, club) == "fr"
    alice.language = "da"
    assert message_language(alice, club) == "da"
    alice.language = "nl"  # a language no longer offered falls through to the club's
    assert message_language(alice, club) == "fr"
    assert message_language(None, None) == settings.LANGUAGE_CODE


def test_a_new_club_takes_the_language_it_is_given_and_refuses_an_unknown_one(director):
    nord = club_services.create_club(created_by=director, name="Nord", language="da")
    assert nord.language == "da"
    with pytest.raises(club_services.RuleViolation) as refused:
        club_services.create_club(created_by=director, name="Syd", language="xx")
    assert refused.value.code == "invalid_language" and refused.value.field == "language"
