"""The club settings page: the language of the club's emails, beside its time zone."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Club

pytestmark = pytest.mark.django_db


def test_a_director_sets_the_language_on_the_club_settings_page(club, director):
    page = Client()
    page.force_login(director)
    form = page.get(f"/clubs/{club.slug}/settings/").content.decode()
    assert 'name="language"' in form and '<option value="en" selected>' in form
    # the help says what the setting does not do: it leaves the pages' language alone
    help_text = form[form.index('id="id_language"') :]
    assert "It leaves the pages alone" in help_text[: help_text.index("</p>")]
    saved = page.post(
        f"/clubs/{club.slug}/settings/", {"time_zone": "Europe/Copenhagen", "language": "da"}
    )
    assert saved.status_code == 302
    club.refresh_from_db()
    assert (club.language, club.time_zone) == ("da", "Europe/Copenhagen")
    shown = page.get(f"/clubs/{club.slug}/settings/").content.decode()
    assert '<option value="da" selected>' in shown


def test_an_unknown_language_is_refused_next_to_its_field(club, director):
    page = Client()
    page.force_login(director)
    wrong = page.post(f"/clubs/{club.slug}/settings/", {"time_zone": "UTC", "language": "xx"})
    assert wrong.status_code == 400
    html = wrong.content.decode()
    # the message sits in the language field's own error line, right after its select
    after_field = html[html.index('name="language"') :]
    error = after_field[after_field.index('id="id_language-error"') :]
    assert "xx is not one of the available choices" in error[: error.index("</p>")]
    assert Club.objects.get(pk=club.pk).language == "en"  # nothing written


def test_the_api_sets_and_validates_the_language(client_for, director, club):
    api = client_for(director)
    changed = api.patch(f"/api/v1/clubs/{club.slug}/", {"language": "de"}, format="json")
    assert changed.status_code == 200, changed.content
    assert changed.json()["language"] == "de"
    wrong = api.patch(f"/api/v1/clubs/{club.slug}/", {"language": "xx"}, format="json")
    assert wrong.status_code == 400
    assert wrong.json()["code"] == "invalid_language" and wrong.json()["field"] == "language"
    assert Club.objects.get(pk=club.pk).language == "de"
