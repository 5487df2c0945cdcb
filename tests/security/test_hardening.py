"""Hardening: deploy checks, CSRF on every form, rate limits, tokens at rest, upload
limits, security headers, and no secrets in the repository or the logs."""

from __future__ import annotations

import base64
import io
import logging
import os
import re
import secrets
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from axes.models import AccessAttempt
from django.core.cache import cache as default_cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client, override_settings
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle, SimpleRateThrottle

from games.api.transcripts import MAX_UPLOAD_BYTES

from .cells import _body
from .test_permission_matrix import EXPECTATIONS
from .world import build_world, path_params

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _own_cache(own_cache):
    """Rate-limit counters in a private cache: never the shared Redis of a CI run."""


@pytest.fixture
def world(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return build_world()


def _production_env(**extra: str) -> dict[str, str]:
    # A deployment's environment: nothing a test run set for itself (the browser tests
    # set DJANGO_ALLOW_ASYNC_UNSAFE, which the deploy checks rightly refuse).
    dropped = {"DEBUG", "DJANGO_ENV", "DJANGO_ALLOW_ASYNC_UNSAFE", "DJANGO_SETTINGS_MODULE"}
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    env.update(
        DJANGO_ENV="production",
        SECRET_KEY=secrets.token_urlsafe(60),
        ALLOWED_HOSTS="example.org",
        **extra,
    )
    return env


# --- production settings ------------------------------------------------------------------


def test_production_settings_pass_the_deploy_checks():
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=_production_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key():
    env = _production_env()
    env["SECRET_KEY"] = "short"
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_production_rate_limits_live_in_redis():
    """DRF throttles count in Django's default cache; with REDIS_URL that is Redis, so
    every gunicorn worker shares one count."""
    code = (
        "import django; django.setup();"
        "from django.conf import settings;"
        "print(settings.CACHES['default']['BACKEND']);"
        "print(settings.CACHES['default']['LOCATION'])"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={
            **_production_env(REDIS_URL="redis://127.0.0.1:6379/5"),
            "DJANGO_SETTINGS_MODULE": "config.settings",
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    backend, location = result.stdout.split()
    assert "Redis" in backend
    assert location == "redis://127.0.0.1:6379/5"
    assert ScopedRateThrottle.cache is default_cache  # the throttle uses that cache


# --- CSRF on every form ---------------------------------------------------------------------


def _page_forms() -> list[tuple[str, str]]:
    return sorted(
        (method, template)
        for method, template in EXPECTATIONS
        if method == "POST" and not template.startswith("/api/")
    )


def test_every_page_form_refuses_a_post_without_its_csrf_token(world):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(world.users["director"])
    forms = _page_forms()
    assert len(forms) >= 10
    for method, template in forms:
        path = template.format(**path_params(template, world))
        body, _, _ = _body(method, template, world)
        response = browser.post(path, body or {})
        assert response.status_code == 403, (template, response.status_code)


def test_the_api_refuses_a_session_write_without_csrf(world):
    """Session-authenticated API writes need the CSRF token too (token clients don't)."""
    browser = APIClient(enforce_csrf_checks=True)
    browser.force_login(world.users["director"])
    response = browser.post(f"/api/v1/matches/{world.match.pk}/void/")
    assert response.status_code == 403
    assert response.json()["code"] == "permission_denied"
    assert "CSRF" in response.json()["detail"]


# --- rate limits ----------------------------------------------------------------------------


@pytest.fixture
def low_rates(monkeypatch):
    """DRF binds the rates at import; the test lowers them where the throttles read."""
    monkeypatch.setattr(
        SimpleRateThrottle,
        "THROTTLE_RATES",
        {"login": "3/min", "token": "3/min", "score": "3/min", "import": "2/min"},
    )


def _basic(username: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{username}:{password}".encode()).decode()


def test_token_creation_is_rate_limited(world, low_rates):
    api = APIClient()
    statuses = [
        api.post(
            "/api/v1/auth/token/", HTTP_AUTHORIZATION=_basic("director", "pw-for-tests-1")
        ).status_code
        for _ in range(5)
    ]
    assert statuses[:3] == [200, 200, 200]
    assert statuses[3:] == [429, 429]
    refused = api.post("/api/v1/auth/token/", HTTP_AUTHORIZATION=_basic("director", "x"))
    assert refused.status_code == 429  # wrong passwords are counted too: no guessing


def test_score_entry_is_rate_limited(world, low_rates):
    api = APIClient()
    api.force_authenticate(world.users["player"])
    url = f"/api/v1/matches/{world.match.pk}/games/"
    statuses = [
        api.post(url, {"winner": world.alice.pk}, format="json").status_code for _ in range(4)
    ]
    assert statuses[:3] != [429, 429, 429] and statuses[3] == 429
    body = api.post(url, {"winner": world.alice.pk}, format="json").json()
    assert body["code"] == "throttled" and "field" in body


def test_imports_are_rate_limited(world, low_rates):
    api = APIClient()
    api.force_authenticate(world.users["director"])
    results = f"/api/v1/clubs/{world.club.slug}/results/import/"
    first = [
        api.post(results, {"text": "date,winner,loser,length\n"}, format="json").status_code
        for _ in range(3)
    ]
    assert first == [400, 400, 429]
    transcripts = "/api/v1/matches/import/"
    upload = SimpleUploadedFile("a.mat", b"nothing", content_type="text/plain")
    # the transcript import shares the "import" scope with the results import
    response = api.post(transcripts, {"club": world.club.slug, "files": [upload]})
    assert response.status_code == 429


def _sign_in(browser: Client, username: str, password: str = "wrong") -> int:
    return browser.post(
        "/accounts/login/", {"username": username, "password": password}
    ).status_code


@pytest.fixture
def lockout_at_3(settings):
    """django-axes (enabled, as in production) with a limit of three failed passwords."""
    assert settings.AXES_ENABLED
    settings.AXES_FAILURE_LIMIT = 3


def test_the_login_page_rests_after_repeated_failures(world, lockout_at_3):
    browser = Client()
    assert [_sign_in(browser, "director") for _ in range(2)] == [200, 200]
    blocked = browser.post("/accounts/login/", {"username": "director", "password": "wrong"})
    assert blocked.status_code == 429  # the failure that reaches the limit
    assert b"Too many" in blocked.content and b"15 minutes" in blocked.content
    assert blocked["Retry-After"] == "900"
    assert AccessAttempt.objects.filter(username="director").exists()  # the admin's record
    # even the right password waits: the count is per address and per account
    assert _sign_in(browser, "director", "pw-for-tests-1") == 429
    other = Client(REMOTE_ADDR="10.0.0.9")
    assert _sign_in(other, "director", "pw-for-tests-1") == 429  # same account, elsewhere
    assert _sign_in(other, "carol", "pw-for-tests-1") == 302  # not a global lock


def test_one_address_guessing_many_accounts_is_locked_out(world, lockout_at_3):
    guesser = Client(REMOTE_ADDR="10.0.0.5")
    statuses = [_sign_in(guesser, name) for name in ("bob", "carol", "player")]
    assert statuses == [200, 200, 429]
    assert _sign_in(guesser, "alice", "pw-for-tests-1") == 429
    assert _sign_in(Client(REMOTE_ADDR="10.0.0.6"), "alice", "pw-for-tests-1") == 302


def test_guessing_a_printed_sign_in_code_is_locked_out_like_a_password(world, lockout_at_3):
    """A printed code is a password for an account never signed in to: its guesses
    count with the sign-in page's, per address and per user name."""
    from games.services import invitations
    from games.services.actors import actor_for_user

    player = world.club.players.filter(user__isnull=True).first()
    slip = invitations.issue_sign_in_code(
        actor=actor_for_user(world.users["director"]), club=world.club, player_id=player.pk
    )
    fields = {"username": slip.username, "password1": "Fresh-pw-123", "password2": ""}
    fields["password2"] = fields["password1"]
    guesser = Client(REMOTE_ADDR="10.0.0.7")
    statuses = [
        guesser.post("/accounts/code/", {**fields, "code": f"WRONG{n}"}).status_code
        for n in range(3)
    ]
    assert statuses == [400, 400, 429]
    assert AccessAttempt.objects.filter(username=slip.username).exists()
    # the right code waits too, from anywhere: the count is also per user name
    right = Client(REMOTE_ADDR="10.0.0.8").post("/accounts/code/", {**fields, "code": slip.code})
    assert right.status_code == 429 and b"Too many" in right.content
    player.refresh_from_db()
    assert not player.user.check_password("Fresh-pw-123")  # nothing was set
    # and the sign-in page agrees: the same account is resting there as well
    assert _sign_in(Client(REMOTE_ADDR="10.0.0.9"), slip.username, slip.code) == 429


def test_a_successful_login_clears_the_address_count(world, lockout_at_3):
    browser = Client()
    assert [_sign_in(browser, "bob") for _ in range(2)] == [200, 200]
    assert _sign_in(browser, "alice", "pw-for-tests-1") == 302
    # without the reset this would be the address's third failure, and refused
    assert _sign_in(Client(), "carol") == 200


def test_the_lockout_ends_after_the_cool_off(world, lockout_at_3):
    browser = Client()
    assert [_sign_in(browser, "director") for _ in range(3)][-1] == 429
    assert _sign_in(browser, "director", "pw-for-tests-1") == 429
    # the failures are 16 minutes old: past the 15-minute window
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))
    assert _sign_in(browser, "director", "pw-for-tests-1") == 302


def test_an_operator_can_lift_a_lockout_with_the_axes_command(world, lockout_at_3):
    browser = Client()
    assert [_sign_in(browser, "director") for _ in range(3)][-1] == 429
    call_command("axes_reset_username", "director", stdout=io.StringIO())
    call_command("axes_reset_ip", "127.0.0.1", stdout=io.StringIO())
    assert _sign_in(browser, "director", "pw-for-tests-1") == 302


def test_the_admin_sign_in_is_locked_out_too(world, lockout_at_3):
    browser = Client()
    statuses = [
        browser.post("/admin/login/", {"username": "admin", "password": "wrong"}).status_code
        for _ in range(3)
    ]
    assert statuses == [200, 200, 429]


def test_the_token_endpoint_locks_out_after_repeated_wrong_passwords(world, lockout_at_3):
    """The token endpoint's HTTP Basic goes through the same lockout as the sign-in
    page, and answers it in the API's error shape."""
    api = APIClient()
    statuses = [
        api.post("/api/v1/auth/token/", HTTP_AUTHORIZATION=_basic("director", "wrong")).status_code
        for _ in range(3)
    ]
    assert statuses == [401, 401, 429]
    refused = api.post(
        "/api/v1/auth/token/", HTTP_AUTHORIZATION=_basic("director", "pw-for-tests-1")
    )
    assert refused.status_code == 429  # the right password waits too
    assert refused.json() == {
        "code": "locked_out",
        "detail": "Too many failed sign-ins from this address or for this account; "
        "try again in 15 minutes.",
        "field": None,
    }
    assert refused["Retry-After"] == "900"
    assert not AuthToken.objects.filter(user=world.users["director"]).exists()
    # one count for every door: the sign-in page refuses the account as well
    assert _sign_in(Client(REMOTE_ADDR="10.0.0.7"), "director", "pw-for-tests-1") == 429


# --- tokens, uploads, headers ---------------------------------------------------------------


def test_api_tokens_are_hashed_at_rest(world):
    api = APIClient()
    response = api.post(
        "/api/v1/auth/token/", HTTP_AUTHORIZATION=_basic("director", "pw-for-tests-1")
    )
    token = response.json()["token"]
    stored = AuthToken.objects.get(user=world.users["director"], token_key=token[:15])
    columns = [str(getattr(stored, f.attname)) for f in AuthToken._meta.concrete_fields]
    assert not any(token in value for value in columns)
    assert stored.digest != token and len(stored.digest) == 128  # SHA-512 hex
    assert APIClient().get("/api/v1/jobs/1/", HTTP_AUTHORIZATION=f"Token {token}").status_code in (
        200,
        403,
        404,
    )


def test_results_upload_over_the_limit_is_refused_with_413(world):
    api = APIClient()
    api.force_authenticate(world.users["director"])
    big = SimpleUploadedFile("big.csv", b"x" * (MAX_UPLOAD_BYTES + 1), content_type="text/csv")
    response = api.post(f"/api/v1/clubs/{world.club.slug}/results/import/", {"file": big})
    assert response.status_code == 413
    assert response.json()["code"] == "upload_too_large"
    assert response.json()["field"] == "file"


def test_transcript_upload_over_the_limit_is_refused_with_413(world):
    api = APIClient()
    api.force_authenticate(world.users["director"])
    big = SimpleUploadedFile("big.mat", b"x" * (MAX_UPLOAD_BYTES + 1), content_type="text/plain")
    response = api.post("/api/v1/matches/import/", {"club": world.club.slug, "files": [big]})
    assert response.status_code == 413
    assert response.json()["field"] == "files"


def test_security_headers_on_pages_and_api():
    for path in ("/", "/api/v1/clubs/"):
        response = Client().get(path)
        assert response["X-Content-Type-Options"] == "nosniff"
        assert response["Referrer-Policy"] == "same-origin"
        assert response["X-Frame-Options"] == "DENY"


@override_settings(SECURE_HSTS_SECONDS=31536000, SECURE_HSTS_INCLUDE_SUBDOMAINS=True)
def test_hsts_is_sent_over_https():
    response = Client().get("/", secure=True)
    assert response["Strict-Transport-Security"].startswith("max-age=31536000")


def test_production_sets_the_secure_cookie_and_header_settings():
    code = (
        "import django; django.setup(); from django.conf import settings as s;"
        "print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_SSL_REDIRECT,"
        " s.SECURE_HSTS_SECONDS, s.X_FRAME_OPTIONS, s.SECURE_REFERRER_POLICY, s.DEBUG)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**_production_env(), "DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.stdout.split() == [
        "True",
        "True",
        "True",
        "31536000",
        "DENY",
        "same-origin",
        "False",
    ], result.stderr


# --- no secrets in the repository or the logs -----------------------------------------------

SECRET_PATTERNS = {
    "private key": re.compile(r"-----BEGIN (?:RSA |EC |OPENSSH |DSA )?PRIVATE KEY-----"),
    "AWS key": re.compile(r"AKIA[0-9A-Z]{16}"),
    "GitHub token": re.compile(r"gh[pousr]_[A-Za-z0-9]{36}"),
    "Slack token": re.compile(r"xox[baprs]-[A-Za-z0-9-]{10,}"),
    "Stripe key": re.compile(r"sk_live_[A-Za-z0-9]{16,}"),
    "password in a URL": re.compile(r"\b[a-z+]+://[^\s:/@'\"]+:[^\s@'\"{}$]+@[\w.-]+"),
    "assigned secret": re.compile(
        r"(?i)\b(?:secret_key|api_key|password|token)\s*=\s*['\"][A-Za-z0-9+/_\-]{24,}['\"]"
    ),
}
ALLOWED_SECRETS = {
    # the documented development key (config/settings.py), refused in production
    "dev-insecure-boxcars-key-only-for-local-use-0123456789abcdefghijklmnop",
    # placeholders of the documented example environment (.env.example)
    ":change-me@",
}


def test_no_secrets_in_the_tracked_files():
    files = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.split(b"\0")
    found = []
    for name in filter(None, files):
        path = ROOT / name.decode()
        if not path.is_file() or path.stat().st_size > 2_000_000:
            continue
        text = path.read_text(encoding="utf-8", errors="ignore")
        for label, pattern in SECRET_PATTERNS.items():
            for match in pattern.finditer(text):
                if not any(allowed in match.group(0) for allowed in ALLOWED_SECRETS):
                    found.append(f"{name.decode()}: {label}: {match.group(0)[:60]}")
    assert not found, "\n".join(found)


def test_the_secret_scan_would_catch_a_leak():
    leak = 'STRIPE = "sk_live_' + "a1B2c3D4e5F6g7H8i9J0" + '"'
    assert SECRET_PATTERNS["Stripe key"].search(leak)
    url = "postgres://boxcars:" + "hunter2hunter2" + "@db.example.org/boxcars"
    assert SECRET_PATTERNS["password in a URL"].search(url)
    assert not SECRET_PATTERNS["password in a URL"].search("postgres://postgres@127.0.0.1/x")


def test_passwords_tokens_and_score_links_stay_out_of_the_logs(world, caplog):
    caplog.set_level(logging.DEBUG)
    api = APIClient()
    token = api.post(
        "/api/v1/auth/token/", HTTP_AUTHORIZATION=_basic("director", "pw-for-tests-1")
    ).json()["token"]
    api.post("/api/v1/auth/token/", HTTP_AUTHORIZATION=_basic("director", "wrong-pass-123"))
    APIClient().post(
        f"/api/v1/matches/{world.match.pk}/void/", HTTP_AUTHORIZATION=f"Token {token}x"
    )
    APIClient().post(
        f"/api/v1/matches/{world.match.pk}/games/",
        {"winner": world.alice.pk},
        format="json",
        HTTP_X_SCORE_LINK=world.other_link,
    )
    Client().post("/accounts/login/", {"username": "director", "password": "wrong-pass-123"})
    logged = "\n".join(
        record.getMessage() + " " + " ".join(map(str, record.__dict__.values()))
        for record in caplog.records
    )
    assert caplog.records  # the refusals were logged...
    for secret in (token, "pw-for-tests-1", "wrong-pass-123", world.other_link):
        assert secret not in logged  # ...without what the client sent
