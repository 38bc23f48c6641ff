"""Settings, from environment variables only.

DATABASE_URL   default: a SQLite file beside manage.py
PG_PREPARE     "off": PostgreSQL statements bound client-side, none prepared (behind a
               transaction-pooling PgBouncer); by default they are prepared per connection
REDIS_URL      set: the channels-redis pub/sub layer; unset: an in-process layer (one process),
               or the hub of `serve --workers N` (BOARDGAMES_HUB, set by serve)
SECRET_KEY     required when DEBUG is off
DEBUG          "1"/"true" for development (the default for `make run`)
ALLOWED_HOSTS  comma-separated
CSRF_TRUSTED_ORIGINS  comma-separated origins (https://games.example.org) when DEBUG is off
HTTPS          "1" in production behind a TLS proxy: secure cookies, HSTS, SSL redirect, X-Forwarded-Proto
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = env_flag("DEBUG", True)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "dev-only-insecure-key"  # noqa: S105 - only ever used with DEBUG on

ALLOWED_HOSTS = [
    h.strip() for h in os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost").split(",") if h.strip()
]
# A refused CSRF check answers in the API's error shape under /api/ (frontend.views).
CSRF_FAILURE_VIEW = "frontend.views.csrf_failure"
CSRF_TRUSTED_ORIGINS = [
    o.strip() for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
]

# Served over HTTPS (HTTPS=1, for production behind a TLS-terminating proxy
# that sets X-Forwarded-Proto): cookies only over HTTPS, plain HTTP redirected,
# browsers told to stay on HTTPS (HSTS). `make run` serves plain HTTP.
HTTPS = env_flag("HTTPS", False)
if HTTPS:
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(365 * 24 * 3600)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_flag("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_flag("SECURE_HSTS_PRELOAD", True)
    # /healthz answers the proxy's and the orchestrator's plain-HTTP checks.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "channels",
    "core",
    "accounts",
    "games",
    "games.sokoban",
    "ratings",
    "matchmaking",
    "frontend",
]

MIDDLEWARE = [
    # First: its id is on every answer, and in the log beside any failure (core/middleware.py).
    "core.middleware.RequestId",
    "django.middleware.security.SecurityMiddleware",
    # Serves /static/ from the app server too (runserver is not what `make run` uses).
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "games.middleware.RejectNulMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language: the django_language cookie (/i18n/setlang/), then Accept-Language.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # A logged-in player's own choice of language wins over the browser's.
    "accounts.middleware.PreferredLanguage",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "core.context_processors.nav_links",
            ],
        },
    },
]

# Games beyond the built-in five, as "module.path:EngineClass" (comma-separated).
EXTRA_GAMES = [path.strip() for path in os.environ.get("EXTRA_GAMES", "").split(",") if path.strip()]

# A push made inside a transaction raises instead of being logged (the tests
# set it, so every path that pushes is held to pushing after commit).
STRICT_PUSHES = env_flag("STRICT_PUSHES", False)

# HTTP requests run on a fixed pool of threads (config/asgi.py); each keeps
# its database connection from one request to the next.
HTTP_THREADS = int(os.environ.get("HTTP_THREADS", "12"))

# Each server process keeps its threads on one core (core/workers.py:
# pin_to_one_core); its children use them all.
PIN_CORES = env_flag("PIN_CORES", True)

# WebSocket frames compressed (permessage-deflate) for clients that offer it.
WS_COMPRESSION = env_flag("WS_COMPRESSION", True)

# Searches a Sokoban solve runs at once, one a core (games.engines.sokoban.solver:
# threads). One by default: on a small machine a second would take the core the
# players' requests run on; raise it where the solver has cores of its own.
SOKOBAN_SOLVER_THREADS = int(os.environ.get("SOKOBAN_SOLVER_THREADS", "1"))

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        # Persistent connections (None: never closed for age). PostgreSQL
        # below uses a pool instead, which Django requires to be 0 here.
        conn_max_age=None,
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # IMMEDIATE takes SQLite's write lock when a transaction begins, so two
    # concurrent moves queue behind each other instead of one failing with
    # "database is locked" when it upgrades a read lock; WAL lets readers
    # (pages, sockets) go on while a move is written.
    # Our wrapper of Django's SQLite backend queues a process's writers on a
    # lock of its own before BEGIN (core/db/sqlite/base.py says why).
    DATABASES["default"]["ENGINE"] = "core.db.sqlite"
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    # Tests use a real file: an in-memory database shared across threads
    # fails with "table is locked" instead of waiting, which would make the
    # concurrency tests test SQLite's shared cache rather than our locking.
    # One file per test process, so two test runs on one machine never share it.
    DATABASES["default"]["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"boardgames-test-{os.getpid()}.sqlite3")
    }

elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A connection pool per process, shared by the HTTP threads, the socket
    # thread and the scheduler: a thread holds a PostgreSQL backend only while
    # it works, so a busy process needs fewer backends than it has threads.
    # Our backend checks a pooled connection before use only once it has
    # rested a second (core/db/postgresql); Django's checks it at every
    # request, one more round trip to PostgreSQL each.
    DATABASES["default"]["ENGINE"] = "core.db.postgresql"
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 2,
        "max_size": int(os.environ.get("DATABASE_POOL_SIZE", "20")),
        "timeout": 10,
    }
    # Statements go with their parameters apart (server-side binding), and a
    # statement run a few times on a connection is prepared there once
    # (psycopg's prepare_threshold; Django turns it off by default for the
    # sake of external poolers such as PgBouncer, and this pool is psycopg's
    # own, in the process). A move's handful of statements are then parsed
    # and planned once per connection instead of every time: PostgreSQL's
    # CPU per move 1.3-1.5 -> 0.7-0.8 ms, per socket connect 2.3-2.5 -> 1.1 ms
    # (bench/server_cost.py; docs/benchmarks.md). PG_PREPARE=off goes back
    # to Django's default (client-side binding, nothing prepared), for a
    # deployment behind a transaction-pooling PgBouncer.
    if env_flag("PG_PREPARE", True):
        DATABASES["default"]["OPTIONS"]["server_side_binding"] = True
        DATABASES["default"]["OPTIONS"]["prepare_threshold"] = 5

REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # Redis pub/sub: a push is one PUBLISH per group, delivered to the
            # processes that have sockets in it. The list-based layer
            # (channels_redis.core) took a blocking pop, a backup write and a
            # clean-up script per message, one message at a time per process,
            # and dropped group messages silently once the process's queue
            # held 100: at 100 games on one server a third of them waited
            # forever for a push, and the rest saw p99 1.3 s (bench/load.py).
            # channels-redis's, with pushes not queued behind one lock and no
            # subscription per socket (core/layers.py says why).
            "BACKEND": "core.layers.RedisChannelLayer",
            # redis-py reads with a 5 s socket timeout by default; reads here
            # may wait longer, connecting still fails fast.
            "CONFIG": {"hosts": [{"address": REDIS_URL, "socket_timeout": 30, "socket_connect_timeout": 5}]},
        }
    }
elif os.environ.get("BOARDGAMES_HUB"):
    # One of several server processes on this machine without Redis
    # (`serve --workers N`): pushes cross processes through the hub that
    # `serve` runs in the processes' parent (core/hub.py).
    CHANNEL_LAYERS = {"default": {"BACKEND": "core.layers.HubChannelLayer"}}
else:
    # In-process (core/layers.py: channels' in-memory layer, swept once a second).
    CHANNEL_LAYERS = {"default": {"BACKEND": "core.layers.InProcessChannelLayer"}}

# The cache holds the throttles' counters (core/throttle.py): shared by every
# server process through Redis when there is one, else through the hub of
# `serve --workers N`, else this one process's memory.
CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL,
         "OPTIONS": {"socket_timeout": 2, "socket_connect_timeout": 2}}
        if REDIS_URL
        else {"BACKEND": "core.hub.HubCache", "LOCATION": os.environ["BOARDGAMES_HUB"]}
        if os.environ.get("BOARDGAMES_HUB")
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}

# How often one user (or, before a login, one address) may do each thing:
# (count, seconds). Far above what a person does; THROTTLE_<SCOPE>=count/seconds
# overrides one, THROTTLE=off all (core/throttle.py).
THROTTLE_ENABLED = env_flag("THROTTLE", True)
THROTTLE_RATES: dict[str, tuple[int, int]] = {
    "login": (20, 60),  # per address, and per username tried
    "register": (10, 3600),  # per address
    "chat": (20, 30),  # per user
    "move": (240, 60),  # per user: four a second at most, sustained for a minute
    "room": (30, 60),  # rooms created, rematches offered, seeks made, per user
    "upload": (20, 600),  # Sokoban level uploads, per user
    "solve": (30, 600),  # solver runs asked for, per user
    "socket": (60, 30),  # messages a socket sends (the server only listens for refresh)
}
for _scope in list(THROTTLE_RATES):
    _value = os.environ.get(f"THROTTLE_{_scope.upper()}")
    if _value:
        _count, _seconds = _value.split("/")
        THROTTLE_RATES[_scope] = (int(_count), int(_seconds))

AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
     "OPTIONS": {"min_length": 6}},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

# English is the source language; Korean is translated in each app's locale/
# (the players of the original programs are Korean).
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("ko", "한국어")]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# Sokoban collections are uploaded as JSON text of up to 5 million characters.
DATA_UPLOAD_MAX_MEMORY_SIZE = 6 * 1024 * 1024

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# Straight from the apps' folders: no collectstatic needed for tests, and an
# edited board script shows on reload.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # The player's own API tokens, several each (accounts.models.ApiToken).
        "accounts.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 20,
    "EXCEPTION_HANDLER": "core.api.exception_handler",
    # JSON that refuses lone surrogates and deep nesting (core/parsers.py); forms and uploads as DRF's.
    "DEFAULT_PARSER_CLASSES": [
        "core.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Board games API",
    "DESCRIPTION": "Rooms, matches, moves and chat for Connect Four, Quoridor, Eskimo, "
    "Manhattan and Sokoban. Errors are always {\"code\": ..., \"detail\": ...}.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Several endpoints have a field named status, each with its own values:
    # each set gets its own name in the schema.
    "ENUM_NAME_OVERRIDES": {
        "RoomStatusEnum": ["open", "playing", "closed"],
        "MatchStatusEnum": ["active", "finished", "aborted"],
        "AnalysisStatusEnum": ["queued", "running", "done", "failed"],
        "SolveStatusEnum": ["queued", "running", "done", "cancelled", "failed"],
        "SeekStatusEnum": ["waiting", "paired", "cancelled"],
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
