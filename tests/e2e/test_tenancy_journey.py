"""Tenancy in the browser: a player of one club joins another club herself from its
page (her consent), and her own club's director finds her name and address read-only
on her edit page once she has signed in (docs/reliability.md, "Tenancy")."""

from __future__ import annotations

import pytest

from games.services import clubs as club_services

from .conftest import LAPTOP_1366, PHONE_360

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_player_joins_another_club_herself(page_for, login, alice, make_user):
    other = club_services.create_club(
        created_by=make_user("stranger"), name="Harbour Club", slug="harbour"
    )
    phone = page_for(PHONE_360, name="tenancy-join-club-360")
    login(phone, "alice")
    phone.goto(f"/clubs/{other.slug}/")
    assert phone.locator(".columns").count() == 0  # nobody in it yet
    phone.get_by_role("button", name="Join the club").click()
    phone.wait_for_url(f"**/clubs/{other.slug}/")
    assert "You are a member of Harbour Club." in phone.content()
    assert "Alice" in phone.locator(".columns").inner_text()
    assert phone.get_by_role("button", name="Join the club").count() == 0  # once is enough
    assert alice.clubs.filter(pk=other.pk).exists()


def test_the_directors_edit_page_shows_the_persons_fields_read_only(
    page_for, login, alice, director
):
    login(page_for(PHONE_360, name="tenancy-alice-signs-in"), "alice")  # her account is hers
    laptop = page_for(LAPTOP_1366, name="tenancy-player-edit-1366")
    login(laptop, "director")
    laptop.goto(f"/players/{alice.slug}/edit/")
    name = laptop.get_by_label("Name")
    assert name.is_disabled()
    assert laptop.get_by_text("The player's own: only they change it, signed in.").count() == 2
    laptop.get_by_role("button", name="Save").click()
    laptop.wait_for_url(f"**/players/{alice.slug}/")
    alice.refresh_from_db()
    assert alice.display_name == "Alice"
