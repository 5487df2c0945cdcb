"""Setting up from the pages (games.pages.accounts): a signed-in user creates a club and
directs it, invites a co-director by email (Django's reset token as the set-password
link), gives players accounts by email or a printed one-time code; every result in
words, bad input next to its field with nothing written."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.utils import timezone

from games.models import Club, Player
from games.services import clubs as club_services

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    browser = Client()
    browser.force_login(user)
    return browser


def test_a_signed_in_user_creates_a_club_and_directs_it(make_user):
    ann = make_user("ann")
    browser = signed_in(ann)
    assert 'href="/clubs/new/"' in browser.get("/").content.decode()
    answer = browser.post("/clubs/new/", {"name": "Weekend Club"}, follow=True)
    club = Club.objects.get(name="Weekend Club")
    assert list(club.directors.all()) == [ann]
    assert "Weekend Club is created and you are its director." in answer.content.decode()
    blank = browser.post("/clubs/new/", {"name": ""})
    assert blank.status_code == 400 and 'id="id_name-error"' in blank.content.decode()
    assert Club.objects.count() == 1
    assert Client().get("/clubs/new/").status_code == 302  # to the sign-in page


def test_an_invited_co_director_sets_a_password_by_the_emailed_link(club, director):
    browser = signed_in(director)
    answer = browser.post(
        f"/clubs/{club.slug}/people/",
        {"action": "director", "director-email": "bob@example.org"},
        follow=True,
    )
    assert "bob@example.org is a director of Test Club: an email with a link" in (
        answer.content.decode()
    )
    bob = User.objects.get(email="bob@example.org")
    assert club.directors.filter(pk=bob.pk).exists() and not bob.has_usable_password()
    link = re.search(r"https?://\S+/accounts/set-password/\S+/", str(mail.outbox[-1].body))[0]
    guest = Client()
    form = guest.get(link, follow=True)
    assert 'name="new_password1"' in form.content.decode()
    done = guest.post(
        form.redirect_chain[-1][0],
        {"new_password1": "a-Long-pass-4-Bob", "new_password2": "a-Long-pass-4-Bob"},
        follow=True,
    )
    assert "Your password is set and you are signed in as bob@example.org." in (
        done.content.decode()
    )
    assert guest.get(f"/clubs/{club.slug}/people/").status_code == 200  # a director now
    assert "no longer valid" in Client().get(link, follow=True).content.decode()  # once


def test_bad_invitations_come_back_next_to_the_field(club, director, make_user):
    browser = signed_in(director)
    url = f"/clubs/{club.slug}/people/"
    bad = browser.post(url, {"action": "director", "director-email": "not-an-address"})
    assert bad.status_code == 400 and 'id="id_director-email-error"' in bad.content.decode()
    again = browser.post(url, {"action": "director", "director-email": ""})
    assert again.status_code == 400
    twice = browser.post(url, {"action": "director", "director-email": "x@example.org"})
    assert twice.status_code == 302
    refused = browser.post(url, {"action": "director", "director-email": "x@example.org"})
    assert "already a director" in refused.content.decode()
    assert len(mail.outbox) == 1
    assert signed_in(make_user("stranger")).get(url).status_code == 404


def test_a_player_with_email_gets_an_invitation(club, director):
    chen = club_services.create_player(
        display_name="Chen Wei", clubs=[club], email="chen@example.org"
    )
    answer = signed_in(director).post(
        f"/clubs/{club.slug}/people/", {"action": "invite", "invite-player": chen.pk}, follow=True
    )
    chen.refresh_from_db()
    assert chen.user is not None and chen.user.username == chen.slug
    assert "Chen Wei has an account (user name chen-wei)" in answer.content.decode()
    assert mail.outbox[-1].to == ["chen@example.org"]
    assert "/accounts/set-password/" in mail.outbox[-1].body


def test_a_player_without_email_enters_a_printed_code_once(club, director):
    dana = club_services.create_player(display_name="Dana", clubs=[club])
    slip = signed_in(director).post(
        f"/clubs/{club.slug}/people/", {"action": "code", "code-player": dana.pk}
    )
    page = slip.content.decode()
    code = re.search(r'id="slip-code">(\w+)<', page)[1]
    username = re.search(r'id="slip-username">([\w-]+)<', page)[1]
    assert len(code) == 10 and username == "dana"
    player = Client()
    wrong = player.post(
        "/accounts/code/",
        {"username": "dana", "code": "WRONG", "password1": "p-Ok-12345", "password2": "p-Ok-12345"},
    )
    assert wrong.status_code == 400 and "do not match" in wrong.content.decode()
    short = player.post(
        "/accounts/code/",
        {"username": "dana", "code": code, "password1": "x", "password2": "x"},
    )
    assert short.status_code == 400 and 'id="id_password1-error"' in short.content.decode()
    fields = {"username": username, "code": code, "password1": "Dana-plays-9", "password2": ""}
    fields["password2"] = fields["password1"]
    done = player.post("/accounts/code/", fields, follow=True)
    assert "Your password is set and you are signed in as dana." in done.content.decode()
    assert Player.objects.get(pk=dana.pk).user.check_password("Dana-plays-9")
    again = Client().post("/accounts/code/", fields)  # the code worked once
    assert again.status_code == 400


def _print_code(director, club, player) -> tuple[str, str]:
    page = (
        signed_in(director)
        .post(f"/clubs/{club.slug}/people/", {"action": "code", "code-player": player.pk})
        .content.decode()
    )
    code = re.search(r'id="slip-code">(\w+)<', page)[1]
    return code, page


def test_a_printed_code_lapses_and_the_director_prints_a_new_one(club, director, settings):
    """SIGN_IN_CODE_DAYS after it was printed a code is refused in words next to the code
    field, nothing is written; the director prints a new one, which works."""
    settings.SIGN_IN_CODE_DAYS = 14
    eve = club_services.create_player(display_name="Eve", clubs=[club])
    old, slip = _print_code(director, club, eve)
    issued = Player.objects.get(pk=eve.pk).sign_in_code_issued_at
    assert issued is not None and 'id="slip-expires"' in slip  # the slip says until when
    Player.objects.filter(pk=eve.pk).update(sign_in_code_issued_at=issued - timedelta(days=15))
    fields = {"username": "eve", "code": old, "password1": "Eve-plays-99", "password2": ""}
    fields["password2"] = fields["password1"]
    expired = Client().post("/accounts/code/", fields)
    page = expired.content.decode()
    assert expired.status_code == 400 and 'id="id_code-error"' in page
    until = (issued + timedelta(days=14 - 15)).date().isoformat()
    assert f"This code has expired: it worked until {until}. Ask a director" in page
    user = User.objects.get(username="eve")
    assert user.check_password(old) and user.last_login is None  # nothing written

    new, _ = _print_code(director, club, eve)  # the director prints a new one
    assert new != old
    fields["code"] = new
    done = Client().post("/accounts/code/", fields, follow=True)
    assert "you are signed in as eve" in done.content.decode()
    eve.refresh_from_db()
    assert eve.user.check_password("Eve-plays-99") and eve.sign_in_code_issued_at is None


def _redeem_after(director, club, name: str, hours: int):
    """A code printed for a new player ``hours`` ago, entered now."""
    player = club_services.create_player(display_name=name, clubs=[club])
    code, _ = _print_code(director, club, player)
    Player.objects.filter(pk=player.pk).update(
        sign_in_code_issued_at=timezone.now() - timedelta(hours=hours)
    )
    username = name.lower()
    fields = {"username": username, "code": code, "password1": f"{name}-plays-99"}
    fields["password2"] = fields["password1"]
    return Client().post("/accounts/code/", fields)


def test_a_code_within_its_days_works_and_the_setting_is_read(club, director, settings):
    settings.SIGN_IN_CODE_DAYS = 1
    assert _redeem_after(director, club, "Fay", 23).status_code == 302  # a day: 24 hours
    refused = _redeem_after(director, club, "Gus", 25)
    assert refused.status_code == 400 and "has expired" in refused.content.decode()


@pytest.mark.parametrize(
    ("name", "look_alike"),
    [("Iris", "\u0131ris"), ("Kai", "\u212aai")],  # a dotless ı, a Kelvin sign K
    ids=["dotless-i", "kelvin-sign"],
)
def test_a_look_alike_user_name_does_not_redeem_a_code(club, director, name, look_alike):
    """The user name is compared exactly (issue #37: never by the database's case
    folding, whose UPPER takes ``ı`` for ``I`` on PostgreSQL); only ASCII letters are
    folded, in Python, so ``IRIS`` is ``iris`` but a look-alike is nobody's name."""
    player = club_services.create_player(display_name=name, clubs=[club])
    code, _page = _print_code(director, club, player)
    fields = {"code": code, "password1": "Plays-well-9", "password2": "Plays-well-9"}
    refused = Client().post("/accounts/code/", {**fields, "username": look_alike})
    assert refused.status_code == 400 and "do not match" in refused.content.decode()
    user = Player.objects.get(pk=player.pk).user
    assert not user.check_password("Plays-well-9") and user.check_password(code)
    done = Client().post("/accounts/code/", {**fields, "username": name.upper()}, follow=True)
    assert f"signed in as {name.lower()}." in done.content.decode()
