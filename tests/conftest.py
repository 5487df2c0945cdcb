"""Fixtures shared by the whole suite."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from games.services import clubs as club_services
from games.services import match_create
from games.services.actors import actor_for_user


@pytest.fixture(scope="session")
def _test_database_from_template(request, django_db_modify_db_settings_parallel_suffix) -> bool:
    """Point the test database at a copy of the migrated template (tests/database_template.py).

    True when Django should keep the database it is given (SQLite: the copy is already
    migrated) rather than make one; on PostgreSQL Django still makes it, from the
    template, so False.
    """
    from django.conf import settings

    from tests import database_template

    if not database_template.enabled() or request.config.getvalue("nomigrations"):
        return False
    database = settings.DATABASES["default"]
    test = database.setdefault("TEST", {})
    if database["ENGINE"] == "django.db.backends.sqlite3":
        worker = getattr(request.config, "workerinput", {}).get("workerid", "main")
        copy = database_template.sqlite_copy(worker)
        request.addfinalizer(lambda: database_template.remove_copy(copy))
        test["NAME"] = str(copy)
        return True
    if database["ENGINE"] == "django.db.backends.postgresql":
        test["TEMPLATE"] = database_template.postgres_template(database)
    return False


@pytest.fixture(scope="session")
def django_db_modify_db_settings(_test_database_from_template) -> None:
    """pytest-django's hook, run just before the test databases are set up."""


@pytest.fixture(scope="session")
def django_db_keepdb(request, _test_database_from_template) -> bool:
    """Keep (and reuse) the SQLite copy of the template; ``--reuse-db`` as pytest-django's."""
    return bool(request.config.getvalue("reuse_db")) or _test_database_from_template


@pytest.fixture
def own_cache():
    """A cache of the test's own (local memory, emptied): rate limits, mail caps and
    failed-attempt budgets count there, never in the shared Redis of a test run nor in
    what an earlier test spent. Files whose every test needs it use it autouse."""
    from django.core.cache import cache
    from django.test import override_settings

    private = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    with override_settings(CACHES=private):
        cache.clear()
        yield


@pytest.fixture(autouse=True)
def _push_hosts_resolve_offline(monkeypatch):
    """No test needs the network: every host a push endpoint names resolves to one public
    address. A test about DNS replaces ``tournaments.push_endpoints.resolver`` itself."""
    from tournaments import push_endpoints

    monkeypatch.setattr(push_endpoints, "resolver", lambda host: ["142.250.74.10"])


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Hash test passwords with MD5: PBKDF2's million rounds cost about half a second per
    user on this machine, several users per test, and no test is about the hash itself
    (production keeps Django's default hashers)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _site_language_at_start():
    """Each test starts in the site's language: a page fetched in German by an earlier
    test in the same process leaves German active in the thread (LocaleMiddleware
    activates, nothing deactivates), and domain messages render in the active language."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture
def make_user(db):
    User = get_user_model()
    counter = {"n": 0}

    def make(username: str | None = None, **extra):
        counter["n"] += 1
        return User.objects.create_user(
            username=username or f"user{counter['n']}", password="pw-for-tests-1", **extra
        )

    return make


@pytest.fixture
def director(make_user):
    return make_user("director")


@pytest.fixture
def admin_user(make_user):
    return make_user("root", is_superuser=True, is_staff=True)


@pytest.fixture
def club(director):
    return club_services.create_club(created_by=director, name="Test Club", slug="test-club")


@pytest.fixture
def client_for(api_client):
    """An API client authenticated as the given user (None: anonymous)."""

    def make(user):
        client = APIClient()
        if user is not None:
            client.force_authenticate(user)
        return client

    return make


@pytest.fixture(scope="session", autouse=True)
def _live_channel_per_worker(worker_id):
    """Parallel test processes share one Redis server, whose pub/sub ignores database
    numbers: each gets its own live channel, or one hears the other's notices."""
    from django.conf import settings

    if worker_id != "master":
        # Prefixed with the configured channel, so that two checkouts running their
        # suites at once on one Redis (LIVE_REDIS_CHANNEL set apart) stay apart too.
        settings.LIVE_REDIS_CHANNEL = f"{settings.LIVE_REDIS_CHANNEL}:{worker_id}"


@pytest.fixture(scope="session", autouse=True)
def _no_embedded_sweep_thread():
    """The embedded default's sweep thread (core/embedded.py) would start with the
    first test request; tests call the sweeps themselves."""
    from django.conf import settings

    settings.EMBEDDED_SWEEP_INTERVAL = 0


@pytest.fixture(autouse=True)
def _celery_eager_unless_integration(request):
    """Unit tests run tasks in-process; tests marked ``integration`` use a real worker."""
    from config.celery import app

    eager = request.node.get_closest_marker("integration") is None
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = eager
    app.conf.task_eager_propagates = True
    yield
    app.conf.task_always_eager = previous


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Skip ``postgres`` tests on SQLite: their point is real row locks and concurrency.

    The tests that start a Celery worker or break services share one Redis and one
    worker database: under pytest-xdist (``make test`` runs three processes, with
    ``--dist loadgroup``) they all go to one process, one at a time, so a plain
    ``make test`` runs the whole suite safely.

    ``tryfirst``: the group marker must be on the items before pytest-xdist's worker
    appends each item's group to its node id (its own ``pytest_collection_modifyitems``,
    which pluggy would otherwise call first: this conftest registers before xdist's
    worker plugin). Without it the integration and fault tests kept ungrouped ids, the
    check below stopped every worker right after collection, and a plain ``make test``
    ended in ``INTERNALERROR ... assert not crashitem`` with no test run (issue #41).
    """
    from django.conf import settings

    one_at_a_time = pytest.mark.xdist_group("worker-and-faults")
    for item in items:
        if item.get_closest_marker("integration") or item.get_closest_marker("faults"):
            item.add_marker(one_at_a_time)
    if not settings.REDIS_URL:
        # as the marker says: the worker and fault tests belong to the production stack's
        # run (CI's step B); on a newcomer's `make test` (SQLite, no Redis) they skip
        # instead of starting their own clusters beside the bulk of the suite
        no_stack = pytest.mark.skip(reason="needs Redis and a Celery worker (set REDIS_URL)")
        for item in items:
            if item.get_closest_marker("integration"):
                item.add_marker(no_stack)
    if "postgresql" in settings.DATABASES["default"]["ENGINE"]:
        return
    skip = pytest.mark.skip(reason="needs PostgreSQL (set DATABASE_URL)")
    for item in items:
        if item.get_closest_marker("postgres"):
            item.add_marker(skip)


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session):
    """Refuse to run when ``--dist loadgroup`` silently stopped grouping (pytest 9.2
    with pytest-xdist 3.8 did): the grouped tests share the broker, the worker and
    their databases, and would break each other now and then, far from the cause."""
    if not getattr(session.config.option, "loadgroup", False):
        return
    loose = [
        item.nodeid
        for item in session.items
        if item.get_closest_marker("xdist_group") and "@" not in item.nodeid
    ]
    if not loose:
        return
    message = (
        f"--dist loadgroup is not grouping ({len(loose)} marked tests, e.g. {loose[0]}): "
        "check the pytest and pytest-xdist versions in pyproject.toml"
    )
    if hasattr(session.config, "workerinput"):
        # In an xdist worker a UsageError ends the worker silently and the controller
        # answers with an INTERNALERROR naming some test: stopping the session instead
        # makes the controller print this message ("Interrupted: ...") and fail.
        session.shouldstop = message
        return
    raise pytest.UsageError(message)


# --- two players with accounts, and matches between them ---


@pytest.fixture
def alice_user(make_user):
    return make_user("alice")


@pytest.fixture
def bob_user(make_user):
    return make_user("bob")


@pytest.fixture
def alice(club, alice_user):
    return club_services.create_player(display_name="Alice", clubs=[club], user=alice_user)


@pytest.fixture
def bob(club, bob_user):
    return club_services.create_player(display_name="Bob", clubs=[club], user=bob_user)


@pytest.fixture
def make_match(club, director, alice, bob):
    def make(length: int = 5, **kwargs):
        return match_create.create_match(
            actor=actor_for_user(director),
            club=club,
            player1=alice,
            player2=bob,
            length=length,
            **kwargs,
        )

    return make


@pytest.fixture
def match(make_match):
    return make_match(5)


def pytest_sessionstart(session):
    """Compile the translation catalogs the suite reads (``make messages`` does the same)
    when a ``.po`` is newer than its ``.mo``: the language tests need them fresh."""
    import shutil
    import subprocess
    from pathlib import Path

    if shutil.which("msgfmt") is None:
        return
    for po in (Path(__file__).resolve().parent.parent / "locale").glob("*/LC_MESSAGES/*.po"):
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
            subprocess.run(["msgfmt", "--check", "-o", str(mo), str(po)], check=True)


@pytest.fixture
def analysis_on_request(club):
    """The club analyses on request only: for tests of the import itself, where the
    automatic analysis of each imported match (tests/analysis covers it) would cost
    seconds of GNU Backgammon per match and test nothing more."""
    from analysis.models import ClubAnalysisSettings

    ClubAnalysisSettings.objects.update_or_create(club=club, defaults={"automatic": False})


@pytest.fixture
def server_clock(monkeypatch):
    """The server's time as the match clock reads it (``games.services.clocks.server_now``),
    standing still until the test moves it with ``advance(ms)``: clock tests move time
    instead of sleeping. The live server of the browser tests runs in this process, so
    it reads the same time."""
    from datetime import timedelta

    from django.utils import timezone

    class ServerClock:
        def __init__(self) -> None:
            self.now = timezone.now()

        def __call__(self):
            return self.now

        def advance(self, ms: int) -> None:
            self.now += timedelta(milliseconds=ms)

    clock = ServerClock()
    monkeypatch.setattr("games.services.clocks.server_now", clock)
    return clock


@pytest.fixture(autouse=True)
def _failed_score_attempts_unlimited(monkeypatch):
    """The suite sends thousands of deliberately failing writes (forged links, no
    credentials) from one address, which would spend the per-address budget of failed
    attempts (``score_failed``, games.api.throttling) within a minute and turn later
    tests' 401/403 into 429. Tests of that limit set the rate themselves."""
    from rest_framework.throttling import SimpleRateThrottle

    monkeypatch.setitem(SimpleRateThrottle.THROTTLE_RATES, "score_failed", None)


@pytest.fixture(autouse=True)
def _mail_caps_off(settings):
    """The suite invites, sends and prints codes by the hundred with a handful of clubs
    and directors, which would spend the mail caps (core.mail_caps) within a test run
    and turn later tests' mail into 429. Tests of the caps set them themselves."""
    settings.MAIL_CAP_CLUB_PER_HOUR = settings.MAIL_CAP_CLUB_PER_DAY = 0
    settings.MAIL_CAP_USER_PER_HOUR = settings.MAIL_CAP_USER_PER_DAY = 0


@pytest.fixture(autouse=True)
def _clubs_per_user_unlimited(settings):
    """Many tests give one director a dozen clubs (query counts, home pages); the limit
    of clubs per account (``CLUBS_PER_USER``) is tested by setting it."""
    settings.CLUBS_PER_USER = 0


@pytest.fixture(autouse=True)
def _live_streams_uncapped(settings):
    """The suite opens live streams from one address in many tests; the cap of streams
    per client (``core.live_stream.StreamOpens``) is tested by setting it."""
    settings.LIVE_STREAMS_PER_USER = settings.LIVE_STREAMS_PER_ADDRESS = 0
