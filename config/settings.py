"""One settings module, read from the environment.

With nothing set, Boxcars runs on the embedded default: a SQLite file in the
project folder, Celery tasks run eagerly, a local-memory cache, DEBUG on and a
generated development secret. With ``DATABASE_URL`` and ``REDIS_URL`` it runs on
PostgreSQL with Redis as Celery broker and cache. ``DJANGO_ENV=production``
refuses to start without a real ``SECRET_KEY`` and ``ALLOWED_HOSTS``.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import environ
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _
from kombu import Queue

from core import queues as task_queues

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
if (BASE_DIR / ".env").is_file():
    environ.Env.read_env(BASE_DIR / ".env")

DJANGO_ENV = env.str("DJANGO_ENV", default="development")
PRODUCTION = DJANGO_ENV == "production"

DEBUG = env.bool("DEBUG", default=not PRODUCTION)

if PRODUCTION:
    SECRET_KEY = env.str("SECRET_KEY", default="")
    if not SECRET_KEY or len(SECRET_KEY) < 50:
        raise ImproperlyConfigured(
            "DJANGO_ENV=production needs SECRET_KEY (at least 50 characters) in the environment."
        )
    ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=[])
    if not ALLOWED_HOSTS:
        raise ImproperlyConfigured("DJANGO_ENV=production needs ALLOWED_HOSTS in the environment.")
else:
    SECRET_KEY = env.str(
        "SECRET_KEY",
        default="dev-insecure-boxcars-key-only-for-local-use-0123456789abcdefghijklmnop",
    )
    ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])

CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.sitemaps",
    "rest_framework",
    "knox",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "simple_history",
    "django_htmx",
    "axes",
    "core",
    "games",
    "tournaments",
    "chouette",
    "analysis",
    "money",
    "clubdata",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The page language: the picker's cookie, else the browser's Accept-Language.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # A club's pages in the club's time zone (core/club_zones.py).
    "core.club_zones.ClubTimeZoneMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    # Last, as django-axes asks: turns a sign-in lockout into the lockout page (429).
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
# Production keeps each web thread's and worker's connection for a minute: a new one per
# request (PostgreSQL forks a backend, and the score entry's prepared statements are per
# connection) made a championship round's results 3-4 times slower through `make
# serve` (p50 1.6-1.7 s against 0.37-0.49 s; docs/operations.md, "Championship load"). The
# stack's 3 x 16 web threads, workers, beat and relay hold about 55 of PostgreSQL's 100.
# In development (runserver, a thread per request) connections are closed after each.
DATABASES["default"].setdefault(
    "CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=60 if PRODUCTION else 0)
)
# A kept connection is checked before each request reuses it, so after a database
# restart every worker reconnects instead of failing one request on a dead socket.
# The connections the stack may open (docs/operations.md, "Database connections"): with
# CONN_MAX_AGE each web thread keeps one, so gunicorn's workers x threads must stay within
# WEB_DATABASE_CONNECTIONS, and everything (web, workers, beat, relay) within the
# server's max_connections less its reserved and an operator's headroom. A test reads the
# Procfile and docker-compose.yml against these; beyond them, put PgBouncer in front.
WEB_DATABASE_CONNECTIONS = env.int("WEB_DATABASE_CONNECTIONS", default=24)
DATABASE_MAX_CONNECTIONS = env.int("DATABASE_MAX_CONNECTIONS", default=100)
DATABASES["default"].setdefault("CONN_HEALTH_CHECKS", env.bool("CONN_HEALTH_CHECKS", default=True))
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env.bool(
    "DATABASE_PREPARED_STATEMENTS", default=True
):
    # Parameters bound by the server, and a statement run five times on a connection
    # prepared there (psycopg's prepare_threshold): PostgreSQL parses and plans the hot
    # statements once per connection instead of on every request. That more than halved
    # the database's CPU per score entry (bench score-entry). Off behind a PgBouncer
    # older than 1.21 in transaction mode (docs/operations.md).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"server_side_binding": True, "prepare_threshold": 5}
    )
# The hand-tuned hot path (core/fast_path.py: statements compiled once, audit rows in
# bulk, PostgreSQL's shared row locks) reaches into Django's internals for speed. Off,
# every write goes through the plain ORM. On by default on PostgreSQL, where the
# benchmarks measured it; off on SQLite, so the suite runs both ways in CI and a
# Django upgrade that breaks the fast path shows in one run and not the other.
FAST_PATH = env.bool(
    "FAST_PATH", default=DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
)
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The embedded default under concurrent writers (docs/operations.md): WAL lets
    # readers go on while one writes, the busy timeout makes a writer wait for the lock
    # instead of failing, and IMMEDIATE transactions take the write lock when they
    # begin. With DEFERRED ones (SQLite's default) a transaction that read and then
    # writes while another wrote meanwhile fails at once with "database is locked",
    # whatever the timeout: 24 requests answered 503 and 363 of 435 outbox events were
    # lost with 64 clients.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": env.float("SQLITE_BUSY_TIMEOUT", default=30.0),
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "transaction_mode": env.str("SQLITE_TRANSACTION_MODE", default="IMMEDIATE"),
        }
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env.str("REDIS_URL", default="")
# The live pages' pub/sub channel (core/live.py): Redis pub/sub ignores the database
# number, so two sites sharing one Redis server need two names.
# Live streams one client may open per LIVE_STREAM_SECONDS (core/live_stream.py, docs/live.md):
# per account, and per address for anonymous visitors (a venue's phones share one); 0: no cap.
LIVE_STREAMS_PER_USER = env.int("LIVE_STREAMS_PER_USER", default=30)
LIVE_STREAMS_PER_ADDRESS = env.int("LIVE_STREAMS_PER_ADDRESS", default=300)
LIVE_REDIS_CHANNEL = env.str("LIVE_REDIS_CHANNEL", default="boxcars:live")
# Live streams held by Pushpin (docs/live.md): the key it signs requests with (its
# sig_key; unset: every stream is held in-process) and the publish API of its handler.
LIVE_GRIP_KEY = env.str("LIVE_GRIP_KEY", default="")
LIVE_GRIP_PUBLISH_URL = env.str("LIVE_GRIP_PUBLISH_URL", default="http://127.0.0.1:5561/publish/")

# django-redis with IGNORE_EXCEPTIONS: while Redis is unreachable (or answers with an
# error) every cache call is logged and answers as an empty cache (reads miss, writes are
# dropped, ``incr``/``add`` give None), so rate limits fail open for the outage instead
# of failing score entry with a 500. The short timeouts make a dead Redis cost about a
# second at most, not a blocked worker.
CACHE_REDIS_OPTIONS = {
    "IGNORE_EXCEPTIONS": True,
    "SOCKET_CONNECT_TIMEOUT": 1,
    "SOCKET_TIMEOUT": 1,
}
DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True

if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": CACHE_REDIS_OPTIONS,
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
# The languages with a complete catalog in locale/ (docs/languages.md: how to add one).
LANGUAGES = [
    ("en", _("English")),
    ("de", _("German")),
    ("fr", _("French")),
    ("da", _("Danish")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The language picker's choice lives in this cookie for a year; LocaleMiddleware reads it
# before the browser's Accept-Language.
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
# Stored in UTC; a club's pages are shown in the club's own zone (Club.time_zone), this is
# the zone of pages outside any club and the default of a new club.
TIME_ZONE = env.str("TIME_ZONE", default="UTC")
USE_I18N = True
USE_TZ = True
# Numbers take the locale's decimal mark (4.2 / 4,2); grouping (1,234 / 1.234) only where
# a filter asks for it (money amounts), so ratings and years stay "1500" and "2026".
USE_THOUSAND_SEPARATOR = False

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
WHITENOISE_USE_FINDERS = DEBUG
if not PRODUCTION:
    # WhiteNoise warns about a missing STATIC_ROOT; in development it serves from finders.
    STATIC_ROOT.mkdir(exist_ok=True)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Sign-in lockout (django-axes, counted in the database): after LOGIN_FAILURE_LIMIT failed
# passwords from one address or for one username, every password check (sign-in page,
# admin, API token) is refused for LOGIN_FAILURE_WINDOW seconds, the right password too.
# A successful sign-in clears the address's and the account's failures. The standalone
# backend only refuses; ModelBackend checks the password. See games/sign_in_lockout.py.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=10)
AXES_COOLOFF_TIME = timedelta(seconds=env.int("LOGIN_FAILURE_WINDOW", default=15 * 60))
AXES_LOCKOUT_PARAMETERS = ["ip_address", "username"]  # either one reaching the limit
AXES_RESET_ON_SUCCESS = True
# Tries during the lockout are refused without being counted: the rest ends one window
# after the failure that reached the limit, however often the client tries meanwhile.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_HTTP_RESPONSE_CODE = 429
AXES_LOCKOUT_CALLABLE = "games.sign_in_lockout.lockout_response"

# Mail (the players' score links): EMAIL_URL as django-environ reads it, e.g.
# smtp+tls://{user}:{password}@smtp.example.org:587; the default prints messages to the
# console. SITE_URL is the address links in emails start with (a page's own links use
# the request's host instead).
vars().update(env.email_url("EMAIL_URL", default="consolemail://"))
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Boxcars <boxcars@localhost>")
SITE_URL = env.str("SITE_URL", default="http://localhost:8000").rstrip("/")
# How long a printed one-time sign-in code works (docs/directors.md, "Players' accounts").
SIGN_IN_CODE_DAYS = env.int("SIGN_IN_CODE_DAYS", default=14)
# How many clubs one account may direct and still create another (games/services/clubs.py;
# site admins are not limited; 0: no limit).
CLUBS_PER_USER = env.int("CLUBS_PER_USER", default=3)
# Mail a club and a person may have the server send (core/mail_caps.py, docs/operations.md):
# invitations, account emails, sign-in codes, federation sends, score-link sheets; per
# clock hour and per day; 0 turns a cap off.
MAIL_CAP_CLUB_PER_HOUR = env.int("MAIL_CAP_CLUB_PER_HOUR", default=10)
MAIL_CAP_CLUB_PER_DAY = env.int("MAIL_CAP_CLUB_PER_DAY", default=40)
MAIL_CAP_USER_PER_HOUR = env.int("MAIL_CAP_USER_PER_HOUR", default=20)
MAIL_CAP_USER_PER_DAY = env.int("MAIL_CAP_USER_PER_DAY", default=60)
# An API provider instead of SMTP (round calls, score links): EMAIL_BACKEND names an
# anymail backend, e.g. anymail.backends.mailgun.EmailBackend, and every ANYMAIL_*
# variable goes into ANYMAIL without its prefix (ANYMAIL_MAILGUN_API_KEY=...).
if env.str("EMAIL_BACKEND", default=""):
    EMAIL_BACKEND = env.str("EMAIL_BACKEND")
ANYMAIL = {
    key.removeprefix("ANYMAIL_"): value
    for key, value in os.environ.items()
    if key.startswith("ANYMAIL_")
}
# Web push of round calls (pywebpush): a VAPID key pair (e.g. ``vapid --gen``, the
# private key as its base64url text) and the contact address push services may use.
# Without both keys the player's page offers no notifications and calls send none.
VAPID_PUBLIC_KEY = env.str("VAPID_PUBLIC_KEY", default="")
VAPID_PRIVATE_KEY = env.str("VAPID_PRIVATE_KEY", default="")
VAPID_CLAIMS_EMAIL = env.str("VAPID_CLAIMS_EMAIL", default="boxcars@localhost")
# The hosts a push subscription's endpoint may name (https only, never an IP address or a
# host resolving to a private one: tournaments/push_endpoints.py). "*.push.apple.com"
# matches every subdomain of push.apple.com; any other entry matches that host exactly.
WEB_PUSH_ALLOWED_HOSTS = env.list(
    "WEB_PUSH_ALLOWED_HOSTS",
    default=[
        "fcm.googleapis.com",  # Chrome, Edge on Android, Opera, Samsung Internet
        "updates.push.services.mozilla.com",  # Firefox (autopush)
        "*.push.apple.com",  # Safari (Apple Web Push)
        "*.notify.windows.com",  # Edge on Windows (WNS)
    ],
)

# Uploads: transcripts and result histories are small text files.
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("DATA_UPLOAD_MAX_MEMORY_SIZE", default=5 * 1024 * 1024)
FILE_UPLOAD_MAX_MEMORY_SIZE = env.int("FILE_UPLOAD_MAX_MEMORY_SIZE", default=5 * 1024 * 1024)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "games.api.authentication.TokenAuthentication",  # knox's, in one query
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "core.api_schema.BoxcarsAutoSchema",
    "EXCEPTION_HANDLER": "core.api_errors.boxcars_exception_handler",
    # JSON bodies are bounded in size and nesting depth (a deep body is a 400, not a 500).
    "DEFAULT_PARSER_CLASSES": [
        "games.api.parsers.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # Per user (or per client address); THROTTLE_<SCOPE> overrides, e.g. for load tests.
    "DEFAULT_THROTTLE_RATES": {
        "login": env.str("THROTTLE_LOGIN", default="20/min"),
        "token": env.str("THROTTLE_TOKEN", default="20/min"),
        # score entry per score link or per account and match, never per address (a
        # venue's phones share one); failed attempts (bad links, bad tokens) per address
        "score": env.str("THROTTLE_SCORE", default="240/min"),
        "score_failed": env.str("THROTTLE_SCORE_FAILED", default="30/min"),
        "import": env.str("THROTTLE_IMPORT", default="60/hour"),
        "variants": env.str("THROTTLE_VARIANTS", default="240/min"),
        # the legal plays: each costs up to ~0.1 s of CPU (games/api/variants.py)
        "variant_plays": env.str("THROTTLE_VARIANT_PLAYS", default="30/min"),
    },
}

REST_KNOX = {
    "TOKEN_TTL": None,
    "AUTO_REFRESH": False,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Boxcars API",
    "DESCRIPTION": "Tournament, match and chouette management for backgammon clubs.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # A schema a code generator takes as it is (core/api_schema.py, docs/api.md).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "core.api_schema.defaults_that_validate",
        "core.api_schema.etags_of_versioned_objects",
    ],
    # One name per choice set shared by several fields (manage.py check --deploy is clean).
    "ENUM_NAME_OVERRIDES": {
        "MatchStatusEnum": "games.models.MatchStatus",
        "GameEndingEnum": "games.models.Game.Ending",
        "SeedingMethodEnum": "tournaments.models.SeedingMethod",
        "ChouetteSideEnum": "chouette.models.Side",
        "ChouetteEndingEnum": "chouette.models.Ending",
        "ClockPresetEnum": "games.rules.clock.Preset",
        "PayoutPresetEnum": "money.rules.PRESETS",
        "ClockFlagRuleEnum": "games.rules.clock.FlagRule",
        "ClockStatusEnum": "games.rules.clock.ClockStatus",
        "VariantThrowStageEnum": "games.api.variants.STAGE_CHOICES",
        "StageEnum": "tournaments.models.StageKind",
        "VariantEnum": "games.rules.variants.MATCH_CHOICES",
        "FederationExclusionEnum": "tournaments.federation.api_shapes.REASONS",
        "AbtDivisionEnum": "tournaments.federation.api_shapes.DIVISIONS",
        "JobStatusEnum": "core.models.JobStatus",
        "EntryStatusEnum": "tournaments.models.EntryStatus",
        "AddressLinkStateEnum": "games.api.clubs.ADDRESS_LINK_STATES",
    },
}

# Celery: eager with nothing set, Redis-backed with REDIS_URL.
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or "cache+memory://"
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not REDIS_URL)
CELERY_TASK_EAGER_PROPAGATES = True
# Nothing reads task results (jobs report through their Job row). Storing none also
# keeps ``delay()`` off the result backend: with it on and Redis down, each enqueue
# blocked ~20 s in the backend's reconnect loop, then raised "must be restarted".
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# A pool child that dies mid-task has its task requeued at once (the two lines above).
# A worker that vanishes whole (SIGKILL, power loss) leaves its task unacknowledged in
# Redis, delivered again once it is this many seconds old; keep it above the longest
# job (a task still running past it would be delivered a second time).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=3600),
    # A worker consuming several queues reads them in the order given to -Q (results
    # first, bulk last), not round-robin: see core/queues.py.
    "queue_order_strategy": "priority",
}
# Queues by kind and priority (core/queues.py routes each job and event kind). A worker
# started without -Q consumes them all (and the old default queue, drained once).
CELERY_TASK_QUEUES = [Queue(name) for name in (*task_queues.QUEUES, task_queues.LEGACY)]
CELERY_TASK_DEFAULT_QUEUE = task_queues.NOTIFY
CELERY_TASK_ROUTES = (task_queues.TASK_ROUTES, task_queues.route_app_task)
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
# A running job writes a heartbeat every JOB_HEARTBEAT_INTERVAL seconds from a daemon
# thread of its own (with its own connection, so a job inside one long transaction still
# beats). The sweep (every JOB_SWEEP_INTERVAL seconds) declares a running job whose
# heartbeat is older than JOB_HEARTBEAT_TIMEOUT seconds lost: it marks it failed and
# starts a retry, up to JOB_MAX_ATTEMPTS runs in all. A worker that vanishes whole is
# thus noticed in minutes, not after the broker's visibility timeout.
JOB_HEARTBEAT_TIMEOUT = env.float("JOB_HEARTBEAT_TIMEOUT", default=180.0)
JOB_HEARTBEAT_INTERVAL = env.float(
    "JOB_HEARTBEAT_INTERVAL", default=max(0.2, min(10.0, JOB_HEARTBEAT_TIMEOUT / 6))
)
JOB_SWEEP_INTERVAL = env.float("JOB_SWEEP_INTERVAL", default=60.0)
JOB_MAX_ATTEMPTS = env.int("JOB_MAX_ATTEMPTS", default=5)
# Giving up cleanly: a job whose handler raises (not a domain refusal) is retried after
# JOB_RETRY_BACKOFF * 2**(attempt - 1) seconds (at most FOLLOWUP_MAX_BACKOFF), up to
# JOB_MAX_ATTEMPTS runs, then ends failed with its error; an outbox event whose handler
# raises likewise, up to OUTBOX_MAX_ATTEMPTS. `manage.py retry_failed` starts them again.
JOB_RETRY_BACKOFF = env.float("JOB_RETRY_BACKOFF", default=10.0)
OUTBOX_MAX_ATTEMPTS = env.int("OUTBOX_MAX_ATTEMPTS", default=8)
OUTBOX_RETRY_BACKOFF = env.float("OUTBOX_RETRY_BACKOFF", default=5.0)
FOLLOWUP_MAX_BACKOFF = env.float("FOLLOWUP_MAX_BACKOFF", default=600.0)
# The embedded default (eager, no beat): the web process sweeps itself every
# EMBEDDED_SWEEP_INTERVAL seconds from a thread (core/embedded.py), so an outbox event
# or a job whose in-process run failed (the database busy) is retried; 0 turns it off.
EMBEDDED_SWEEP_INTERVAL = env.float("EMBEDDED_SWEEP_INTERVAL", default=0.0 if REDIS_URL else 5.0)
EMBEDDED_SWEEP_FRESH_SECONDS = env.float("EMBEDDED_SWEEP_FRESH_SECONDS", default=30.0)
# Sweeps without duplicates: a message sent for a job or an event is presumed alive
# until its due time plus this lease; after it the sweep asks the broker whether the
# message is still there (queued or held by a worker) and sends a new one only if not.
FOLLOWUP_LEASE_SECONDS = env.float("FOLLOWUP_LEASE_SECONDS", default=60.0)
# Event odds (tournaments.services.odds): simulations per computation (the standard
# error of each probability is at most 0.5 / sqrt(ODDS_SIMULATIONS)), and how long a
# result waits for the rest of its burst before the odds are computed once for all.
ODDS_SIMULATIONS = env.int("ODDS_SIMULATIONS", default=50_000)
# A bracket's simulations are capped so that simulations × matches still to play stays
# within ODDS_WORK_BUDGET (a 512-player event with consolation and last chance: about
# 9,000 from round 1, standard error ≤ 0.53 points), never below ODDS_MIN_SIMULATIONS.
ODDS_WORK_BUDGET = env.int("ODDS_WORK_BUDGET", default=10_000_000)
ODDS_MIN_SIMULATIONS = env.int("ODDS_MIN_SIMULATIONS", default=5_000)
ODDS_DEBOUNCE_SECONDS = env.float("ODDS_DEBOUNCE_SECONDS", default=2.0)
# A starting odds job waits for the event's results to pause this long, at most the
# other after its creation (tournaments.services.odds.wait_for_quiet).
ODDS_QUIET_SECONDS = env.float("ODDS_QUIET_SECONDS", default=1.5)
ODDS_MAX_WAIT_SECONDS = env.float("ODDS_MAX_WAIT_SECONDS", default=30.0)
# A result's settling of its event (tournaments.services.results.settle_event) is due
# this long after it, with a worker: the results meanwhile join it (one settling for all).
SETTLE_DELAY_SECONDS = env.float("SETTLE_DELAY_SECONDS", default=0.5)
CELERY_BEAT_SCHEDULE: dict = {
    "sweep-unhandled-events": {"task": "core.tasks.sweep_events", "schedule": 60.0},
    "sweep-queued-jobs": {"task": "core.tasks.sweep_queued_jobs", "schedule": 60.0},
    "sweep-stalled-jobs": {
        "task": "core.tasks.sweep_stalled_jobs",
        "schedule": JOB_SWEEP_INTERVAL,
    },
    "recompute-rating-lists-nightly": {
        "task": "games.rating_jobs.nightly_recompute",
        "schedule": crontab(hour=3, minute=30),
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        "celery.app.trace": {"level": env.str("CELERY_LOG_LEVEL", default="WARNING")},
    },
}

if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    X_FRAME_OPTIONS = "DENY"
