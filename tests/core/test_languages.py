"""Pages and API errors in the visitor's language (docs/languages.md).

The language comes from the header's picker (a cookie set by ``/i18n/setlang/``), else
from the browser's ``Accept-Language``; English otherwise. Error ``code`` and ``field``
never change with the language, only the human ``detail``. Numbers and dates follow the
language's format. Needs the compiled catalogs (``make messages``; the suite's conftest
compiles them when gettext is installed).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from django.template import Context, Template
from django.test import Client
from django.utils import translation

from money.templatetags.money_tags import cents

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(
        not (Path(__file__).resolve().parents[2] / "locale/de/LC_MESSAGES/django.mo").exists(),
        reason="the German catalog is not compiled (make messages)",
    ),
]


def test_accept_language_de_gives_a_german_page(club):
    page = Client().get("/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '<html lang="de"' in page
    assert "Wähle deinen Club" in page and "Zum Inhalt springen" in page
    assert "Pick your club" not in page
    assert "0 Spieler<" in page and " players<" not in page  # the club card's count
    assert 'aria-label="Hauptmenü"' in page  # the site's menu, not a bracket's main stage
    # and the club's own page
    club_page = Client().get(f"/clubs/{club.slug}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Rating-Liste" in club_page  # the glossary: German clubs say "Rating"


def test_without_a_known_language_the_page_is_english(club):
    page = Client().get("/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert '<html lang="en"' in page and "Pick your club" in page


def test_the_chosen_language_wins_over_the_browser(club):
    browser = Client()
    chosen = browser.post("/i18n/setlang/", {"language": "de", "next": "/"})
    assert chosen.status_code == 302
    page = browser.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="de"' in page and "Wähle deinen Club" in page
    # and back: the picker's English beats a German browser
    browser.post("/i18n/setlang/", {"language": "en", "next": "/"})
    page = browser.get("/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '<html lang="en"' in page and "Pick your club" in page


def test_the_header_offers_every_language(club):
    page = Client().get("/").content.decode()
    assert 'action="/i18n/setlang/"' in page
    for code, name in (("en", "English"), ("de", "Deutsch"), ("fr", "français"), ("da", "dansk")):
        assert f'<option value="{code}" lang="{code}"' in page and name in page


def test_a_domain_error_from_the_api_is_german_with_its_code_unchanged(client_for, director, club):
    api = client_for(director)
    response = api.post(
        "/api/v1/clubs/", {"name": "Again", "slug": club.slug}, format="json",
        HTTP_ACCEPT_LANGUAGE="de",
    )  # fmt: skip
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "slug_taken" and body["field"] == "slug"
    assert body["detail"] == f"Ein Club mit dem Kürzel '{club.slug}' existiert bereits."
    english = api.post(
        "/api/v1/clubs/", {"name": "Again", "slug": club.slug}, format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )  # fmt: skip
    assert english.json()["detail"] == f"A club with the slug '{club.slug}' exists."


def test_a_validation_error_400_from_the_api_is_german(client_for, director):
    response = client_for(director).post(
        "/api/v1/clubs/", {"name": "Nord", "time_zone": "Mars/Olympus"}, format="json",
        HTTP_ACCEPT_LANGUAGE="de",
    )  # fmt: skip
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid_time_zone" and body["field"] == "time_zone"
    assert body["detail"].startswith("„Mars/Olympus“ ist keine bekannte Zeitzone")
    # DRF's own messages come translated by DRF
    drf = client_for(director).post(
        "/api/v1/clubs/", {"name": "Nord", "rating_initial": 0}, format="json",
        HTTP_ACCEPT_LANGUAGE="de",
    )  # fmt: skip
    assert drf.status_code == 400 and drf.json()["code"] == "min_value"
    assert "größer oder gleich 1" in drf.json()["detail"]


@pytest.mark.parametrize(
    ("language", "amount", "shown"),
    [("en", 123450, "1,234.50"), ("de", 123450, "1.234,50"), ("da", -1250, "-12,50"),
     ("fr", 99, "0,99")],
)  # fmt: skip
def test_money_amounts_in_the_languages_format(language, amount, shown):
    with translation.override(language):
        assert cents(amount) == shown.replace("\u202f", "\xa0")


def test_numbers_and_dates_in_the_languages_format():
    template = Template('{{ pr|floatformat:2 }} · {{ day|date:"DATE_FORMAT" }}')
    context = Context({"pr": 4.25, "day": dt.date(2026, 3, 5)})
    with translation.override("en"):
        assert template.render(context) == "4.25 · March 5, 2026"
    with translation.override("de"):
        assert template.render(context) == "4,25 · 5. März 2026"


# The browser scripts' strings (static/js) come from /jsi18n/, Django's JavaScriptCatalog.
needs_js_catalog = pytest.mark.skipif(
    not (Path(__file__).resolve().parents[2] / "locale/de/LC_MESSAGES/djangojs.mo").exists(),
    reason="the German browser catalog is not compiled (make messages)",
)


@needs_js_catalog
def test_the_javascript_catalog_is_german_for_a_german_browser():
    response = Client().get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    body = response.content.decode()
    # a string of static/js/copy-links.js and one of static/js/screen.js, with placeholders
    assert '"Copied": "Kopiert"' in body
    assert '"Seite %(page)s von %(pages)s"' in body
    assert "max-age=86400" in response["Cache-Control"] and response.has_header("Last-Modified")


@needs_js_catalog
def test_the_javascript_catalog_follows_the_chosen_language():
    browser = Client()
    browser.post("/i18n/setlang/", {"language": "fr", "next": "/"})
    body = browser.get("/jsi18n/?lang=fr", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '"Copied": "Copi\\u00e9"' in body or '"Copied": "Copié"' in body
    assert "Kopiert" not in body


def test_without_a_known_language_the_javascript_catalog_is_empty_english():
    response = Client().get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="ja")
    body = response.content.decode()
    # gettext() is still defined (the scripts then show their English source strings)
    assert response["Content-Language"] == "en" and "globals.gettext = django.gettext" in body
    assert "Copied" not in body and "Kopiert" not in body


def test_every_page_loads_the_catalog_in_its_language_before_the_scripts(club):
    page = Client().get("/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    catalog = page.index('<script src="/jsi18n/?lang=de" defer></script>')
    assert catalog < page.index("js/live.js")


def test_a_refused_form_says_nothing_was_saved_in_the_pages_language(club, director):
    """The error box's opening words were an English default in every language."""
    browser = Client()
    browser.force_login(director)
    url = f"/clubs/{club.slug}/settings/"
    refused = browser.post(url, {"time_zone": "Mars/Olympus"}, HTTP_ACCEPT_LANGUAGE="de")
    page = refused.content.decode()
    assert refused.status_code == 400 and "Nichts wurde gespeichert." in page
    assert "Nothing was saved." not in page
    english = browser.post(url, {"time_zone": "Mars/Olympus"}, HTTP_ACCEPT_LANGUAGE="en")
    assert "Nothing was saved." in english.content.decode()


def test_picking_a_language_while_signed_in_stores_it_on_the_player(alice, alice_user):
    assert alice.language == ""  # the club's, until they pick one
    browser = Client()
    browser.force_login(alice_user)
    assert browser.post("/i18n/setlang/", {"language": "da", "next": "/"}).status_code == 302
    alice.refresh_from_db()
    assert alice.language == "da"
    browser.post("/i18n/setlang/", {"language": "xx", "next": "/"})  # not a language: ignored
    alice.refresh_from_db()
    assert alice.language == "da"


def test_picking_a_language_signed_out_or_without_a_player_stores_nothing(alice, make_user):
    Client().post("/i18n/setlang/", {"language": "de", "next": "/"})
    browser = Client()
    browser.force_login(make_user("no-player"))
    assert browser.post("/i18n/setlang/", {"language": "fr", "next": "/"}).status_code == 302
    alice.refresh_from_db()
    assert alice.language == ""
