"""Setting up from the pages: a new club, its co-directors, its players' accounts.

Thin doors over ``games.services.clubs.create_club`` and ``games.services.invitations``:
each form reads the text, calls one service, and says the result in words; a refusal
comes back next to its field with nothing written.
"""

from __future__ import annotations

from typing import Any

from axes.handlers.proxy import AxesProxyHandler
from django import forms
from django.contrib import messages
from django.contrib.auth import login, user_login_failed
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.forms import Form
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext, gettext_lazy

from core import access
from core.validators import single_line
from games.forms import show_error
from games.models import Club
from games.rules import limits
from games.rules.errors import BoxcarsError
from games.services import addresses, invitations
from games.services import clubs as club_services
from games.services.actors import actor_for_user
from games.sign_in_lockout import lockout_response

BACKEND = "django.contrib.auth.backends.ModelBackend"


class NewClubForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Club name"), max_length=limits.MAX_CLUB_NAME, validators=[single_line]
    )


class EmailForm(forms.Form):
    """An address, checked by the service (games.rules.addresses says why, in words)."""

    email = forms.CharField(label=gettext_lazy("E-mail address"), max_length=limits.MAX_EMAIL)


class PlayerForm(forms.Form):
    player = forms.TypedChoiceField(label=gettext_lazy("Player"), coerce=int, choices=())

    def __init__(
        self, *args: Any, choices: list[tuple[int, str]], label: str, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [("", "—"), *choices]  # type: ignore[attr-defined]
        self.fields["player"].label = label


class CodeForm(forms.Form):
    username = forms.CharField(label=gettext_lazy("User name (on your slip)"), max_length=150)
    code = forms.CharField(label=gettext_lazy("Sign-in code (on your slip)"), max_length=40)
    password1 = forms.CharField(
        label=gettext_lazy("New password"), widget=forms.PasswordInput, max_length=128
    )
    password2 = forms.CharField(
        label=gettext_lazy("New password again"), widget=forms.PasswordInput, max_length=128
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        assert data is not None  # Form.clean returns cleaned_data
        first, second = data.get("password1"), data.get("password2")
        if first and second and first != second:
            self.add_error("password2", gettext("The two passwords differ: type it again."))
        elif first:
            try:
                validate_password(first)
            except ValidationError as error:
                self.add_error("password1", error)
        return data


def _site(request: HttpRequest) -> str:
    return request.build_absolute_uri("/")


@login_required
def new_club(request: HttpRequest) -> HttpResponse:
    """Any signed-in user may start a club; they become its first director."""
    form = NewClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            assert isinstance(request.user, User)  # login_required
            club = club_services.create_club(
                created_by=request.user, name=form.cleaned_data["name"]
            )
        except BoxcarsError as error:
            show_error(form, error)
        else:
            messages.success(
                request,
                gettext("%(club)s is created and you are its director.") % {"club": club.name},
            )
            return redirect("club-people", slug=club.slug)
    status = 400 if form.errors else 200
    return render(request, "games/club_new.html", {"form": form}, status=status)


def _people_forms(club: Club, data: Any, which: str) -> dict[str, Form]:
    players = club.players.order_by("display_name")
    without = players.filter(user__isnull=True)
    with_email = [(p.pk, f"{p.display_name} ({p.email})") for p in without.exclude(email="")]
    # a code can be printed again (a lost or lapsed slip) until the player has signed in
    never_signed_in = Q(user__isnull=True) | Q(user__last_login__isnull=True)
    no_email = [(p.pk, p.display_name) for p in players.filter(never_signed_in, email="")]
    return {
        "director_form": EmailForm(data if which == "director" else None, prefix="director"),
        "invite_form": PlayerForm(
            data if which == "invite" else None,
            prefix="invite",
            choices=with_email,
            label=gettext("Player with an e-mail address"),
        ),
        "code_form": PlayerForm(
            data if which == "code" else None,
            prefix="code",
            choices=no_email,
            label=gettext("Player without e-mail"),
        ),
    }


@login_required
def club_people(request: HttpRequest, slug: str) -> HttpResponse:
    """Invite a co-director; give a player an account (an email, or a printed code)."""
    club = get_object_or_404(Club, slug=slug)
    if not access.is_director(request.user, club):
        raise Http404
    which = request.POST.get("action", "")
    forms_ = _people_forms(club, request.POST, which)
    actor = actor_for_user(request.user)
    if request.method == "POST" and which in ("director", "invite", "code"):
        form = forms_[f"{which}_form"]
        if form.is_valid():
            try:
                if which == "director":
                    sent = invitations.invite_director(
                        actor=actor,
                        club=club,
                        email=form.cleaned_data["email"],
                        site=_site(request),
                    )
                    done = (
                        gettext(
                            "%(email)s has an account: they are asked to accept or decline, "
                            "signed in; until they accept, they are not a director."
                        )
                        if sent.pending
                        else gettext(
                            "%(email)s is a director of %(club)s: an email with a link to set "
                            "a password went to %(email)s."
                        )
                    ) % {"email": sent.email, "club": club.name}
                elif which == "invite":
                    sent = invitations.invite_player(
                        actor=actor,
                        club=club,
                        player_id=form.cleaned_data["player"],
                        site=_site(request),
                    )
                    if sent.pending is not None and sent.pending.player is not None:
                        done = gettext(
                            "%(email)s is the address of an account: its owner is asked to "
                            "accept or decline being %(name)s, signed in."
                        ) % {"email": sent.email, "name": sent.pending.player.display_name}
                    else:
                        done = gettext(
                            "%(name)s has an account (user name %(user)s): an email with a "
                            "link to set a password went to %(email)s."
                        ) % {
                            "name": sent.user.player.display_name,
                            "user": sent.user.username,
                            "email": sent.email,
                        }
                else:
                    slip = invitations.issue_sign_in_code(
                        actor=actor, club=club, player_id=form.cleaned_data["player"]
                    )
                    return render(
                        request,
                        "games/sign_in_slip.html",
                        {"club": club, "slip": slip, "site": _site(request).rstrip("/")},
                    )
            except BoxcarsError as error:
                show_error(form, error)
            else:
                messages.success(request, done)
                return redirect("club-people", slug=club.slug)
    status = 400 if any(f.errors for f in forms_.values()) else 200
    context = {
        "club": club,
        "directors": club.directors.order_by("username"),
        "pending": invitations.club_pending(club),
        **forms_,
    }
    return render(request, "games/club_people.html", context, status=status)


@login_required
def my_invitations(request: HttpRequest) -> HttpResponse:
    """The roles clubs offered the signed-in person: each accepted or declined here."""
    assert isinstance(request.user, User)  # login_required
    error = ""
    if request.method == "POST" and request.POST.get("action") in ("accept", "decline"):
        answer = (
            invitations.accept_invitation
            if request.POST["action"] == "accept"
            else invitations.decline_invitation
        )
        try:
            done = answer(user=request.user, invitation_id=_int(request.POST.get("invitation")))
        except BoxcarsError as refused:
            error = str(refused.message)
        else:
            words = (
                gettext("You accepted: you are %(role)s of %(club)s.")
                if request.POST["action"] == "accept"
                else gettext("You declined: nothing changed for you at %(club)s.")
            )
            messages.success(
                request, words % {"role": done.get_role_display(), "club": done.club.name}
            )
            return redirect("my-invitations")
    context = {"invitations": invitations.pending_invitations(request.user), "error": error}
    return render(request, "games/my_invitations.html", context, status=400 if error else 200)


def _int(text: str | None) -> int:
    return int(text) if text and text.isascii() and text.isdigit() and len(text) < 12 else 0


@login_required
def my_address(request: HttpRequest) -> HttpResponse:
    """The signed-in person's address: confirm it, or change it by confirming the new one."""
    assert isinstance(request.user, User)  # login_required
    form = EmailForm(request.POST if request.method == "POST" else None, prefix="address")
    if request.method == "POST":
        confirm_current = request.POST.get("action") == "confirm"
        if confirm_current or form.is_valid():
            email = request.user.email if confirm_current else form.cleaned_data["email"]
            try:
                addresses.send_account_link(user=request.user, email=email, site=_site(request))
            except BoxcarsError as error:
                show_error(form, error)
            else:
                messages.success(
                    request,
                    gettext(
                        "A link went to %(email)s: follow it, signed in, to confirm it. Until "
                        "then your address stays %(old)s."
                    )
                    % {"email": email.strip(), "old": request.user.email or "—"},
                )
                return redirect("my-address")
    context = {"form": form, "confirmed": addresses.account_confirmed(request.user)}
    return render(request, "games/my_address.html", context, status=400 if form.errors else 200)


@login_required
def address_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """A link of the address page: a button (a mail scanner's GET changes nothing)."""
    assert isinstance(request.user, User)  # login_required
    error = ""
    if request.method == "POST":
        try:
            done = addresses.confirm_account_link(user=request.user, token=token)
        except BoxcarsError as refused:
            error = str(refused.message)
        else:
            messages.success(
                request,
                gettext("%(email)s is confirmed as your address.") % {"email": done.email},
            )
            return redirect("my-address")
    return render(
        request, "games/address_confirm.html", {"error": error}, status=400 if error else 200
    )


def club_address_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """The owner of an address a club set agrees that the club may mail it."""
    try:
        link = addresses.read_club_link(token=token)
        if request.method == "POST":
            addresses.confirm_club_link(token=token)
    except BoxcarsError as refused:
        return render(
            request, "games/club_address_confirm.html", {"error": refused.message}, status=400
        )
    context = {"link": link, "done": request.method == "POST"}
    return render(request, "games/club_address_confirm.html", context)


def sign_in_code(request: HttpRequest) -> HttpResponse:
    """A player enters the code a director printed, once, and chooses a password."""
    form = CodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        # A code is a password: its guesses count as failed sign-ins (django-axes, per
        # address and per user name), so the code page is no way round the lockout.
        credentials = {"username": data["username"]}
        if not AxesProxyHandler.is_allowed(request, credentials):
            return lockout_response(request, None, credentials)
        try:
            user = invitations.redeem_sign_in_code(
                username=data["username"], code=data["code"], password=data["password1"]
            )
        except BoxcarsError as error:
            if error.code == "sign_in_code_wrong":
                user_login_failed.send(__name__, credentials=credentials, request=request)
            show_error(form, error)
        else:
            login(request, user, backend=BACKEND)
            messages.success(
                request,
                gettext("Your password is set and you are signed in as %(user)s.")
                % {"user": user.username},
            )
            return redirect("home")
    status = 400 if form.errors else 200
    return render(request, "games/sign_in_code.html", {"form": form}, status=status)


class SetPasswordView(auth_views.PasswordResetConfirmView):
    """The invitation's link: Django's reset page, signing the person in after."""

    template_name = "registration/set_password.html"
    post_reset_login = True
    post_reset_login_backend = BACKEND
    success_url = "/"

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        addresses.confirm_by_password_link(form.user)  # the link reached its owner
        messages.success(
            self.request,
            gettext("Your password is set and you are signed in as %(user)s.")
            % {"user": form.user.username},
        )
        return response
