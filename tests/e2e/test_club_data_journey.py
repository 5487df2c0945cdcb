"""A director moves a club in a real browser: from the club's settings to its data,
an export (a job, its progress, then the file), and the file imported back as a new
club from the import page (first refused by its job, the slug being in use, the reason
listed, the page still answering), on a phone 360 px wide."""

from __future__ import annotations

import gzip
import json

import pytest

from games.models import Match
from games.services import clubs as club_services
from games.services import match_create, score_entry
from games.services.actors import actor_for_user

from .conftest import PHONE_360

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def import_as(page, archive, slug: str) -> None:
    """The import page: the archive under a new slug, the job started, then the new
    club's page from the job's link (the weekend-open journey imports this way too)."""
    page.get_by_label("Archive file").set_input_files(str(archive))
    page.get_by_label("Slug of the new club (optional)").fill(slug)
    page.get_by_role("button", name="Import").click()
    page.get_by_text("The import has started.").wait_for()
    page.get_by_role("link", name=slug).click()
    page.wait_for_url(f"**/clubs/{slug}/")


def test_a_director_exports_the_club_and_imports_it_as_a_new_one(
    page_for, login, director, club, tmp_path
):
    actor = actor_for_user(director)
    ann = club_services.create_player(display_name="Ann Able", clubs=[club])
    ben = club_services.create_player(display_name="Ben Baker", clubs=[club])
    match = match_create.create_match(actor=actor, club=club, player1=ann, player2=ben, length=3)
    score_entry.record_final_score(actor=actor, match_id=match.pk, score=(3, 1))

    phone = page_for(PHONE_360, name="club-data-360")
    login(phone, director.username)
    phone.goto(f"/clubs/{club.slug}/settings/")
    phone.get_by_role("link", name="Export and spreadsheets").click()
    phone.get_by_role("button", name="Export now").click()
    phone.get_by_text("The export has started.").wait_for()
    phone.get_by_text("Done").wait_for()
    _fits(phone)
    with phone.expect_download() as caught:
        phone.get_by_role("link", name="Download").click()
    saved = tmp_path / caught.value.suggested_filename
    caught.value.save_as(saved)
    assert saved.name.startswith(f"{club.slug}-") and saved.name.endswith(".json.gz")
    assert json.loads(gzip.decompress(saved.read_bytes()))["counts"]["matches"] == 1

    phone.get_by_role("link", name="Import a club from an archive").click()
    phone.get_by_label("Archive file").set_input_files(str(saved))
    phone.get_by_role("button", name="Import").click()
    phone.get_by_text("The import has started.").wait_for()  # the job reads the file:
    phone.get_by_text("Failed: A club with the slug 'test-club' exists").wait_for()  # its reason
    _fits(phone)
    import_as(phone, saved, "moved-club")
    assert Match.objects.filter(club__slug="moved-club").count() == 1
    _fits(phone)
