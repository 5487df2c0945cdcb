"""The players' offline web app as the server serves it: the worker at /sw.js (versioned,
scoped to the whole site, carrying push), the manifest, and which pages mark themselves
as player pages the worker may keep (directors' pages stay online-only)."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from games import score_links
from games.pages import offline_app

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_worker_is_served_at_the_root_with_its_release(settings):
    settings.BOXCARS_RELEASE = "2026.11.1"
    answer = Client().get("/sw.js")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("application/javascript")
    assert answer["Cache-Control"] == "no-cache"  # an update is seen at the next visit
    assert answer["Service-Worker-Allowed"] == "/"
    body = answer.content.decode()
    assert body.startswith('self.BOXCARS_RELEASE = "2026.11.1";')
    assert '"/static/js/push-sw.js"' in body  # push notifications stay with one worker
    assert "/static/js/offline.js" in body  # the shell it stores on install
    assert 'const SHELL_CACHE = PREFIX + "shell-" + RELEASE;' in body


def test_without_a_configured_release_the_shell_files_name_it(settings):
    settings.BOXCARS_RELEASE = ""
    first = offline_app.release()
    assert len(first) == 12 and first == offline_app.release()
    settings.BOXCARS_RELEASE = "r7"
    assert offline_app.release() == "r7"


def test_the_manifest_makes_the_site_installable():
    answer = Client().get("/manifest.webmanifest")
    assert answer["Content-Type"] == "application/manifest+json"
    manifest = json.loads(answer.content)
    assert manifest["scope"] == "/" and manifest["start_url"].startswith("/")
    assert manifest["display"] == "standalone"
    assert [i["sizes"] for i in manifest["icons"]] == ["192x192", "512x512"]


def test_player_pages_may_be_kept_offline_and_directors_pages_not(
    match, alice, alice_user, director, settings
):
    settings.BOXCARS_RELEASE = "r1"
    player = signed_in(alice_user).get(f"/matches/{match.pk}/enter/").content.decode()
    assert "<body" in player and " data-offline-page" in player
    assert 'data-release="r1"' in player and 'rel="manifest"' in player
    assert f'id="offline-entry" data-match="{match.pk}" data-version="{match.version}"' in player
    assert 'data-side="0"' in player
    link = Client().get(f"/score/{score_links.make_token(match, alice)}/").content.decode()
    assert " data-offline-page" in link
    directing = signed_in(director).get(f"/matches/{match.pk}/enter/").content.decode()
    assert " data-offline-page" not in directing and "data-side" not in directing
    assert " data-offline-page" not in signed_in(director).get("/").content.decode()
    assert " data-offline-page" in signed_in(alice_user).get("/").content.decode()
