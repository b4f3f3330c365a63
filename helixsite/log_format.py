"""Log formatting: one JSON object per line, with secrets scrubbed from every record."""

from __future__ import annotations

import json
import logging
import re
from datetime import UTC, datetime

from helixsite.db.outage import is_unreachable, reason
from helixsite.queue_url import QueueUnreachable

# API tokens, OpenAI-style keys, bearer credentials and the passwords of URLs
# (postgres://user:password@host, redis://:password@host), wherever they appear in a message.
_SECRET_PATTERNS = [
    re.compile(r"(\b[a-z][a-z0-9+.\-]*://[^\s:/@]*)(:)[^\s/@]+(?=@)"),
    re.compile(r"hxt_[A-Za-z0-9_\-]{8,}"),
    re.compile(r"\bsk-[A-Za-z0-9_\-]{8,}"),
    re.compile(r"(?i)(bearer|token)\s+[A-Za-z0-9_\-\.=]{8,}"),
    re.compile(r"(?i)(password|api_key|secret)([\"']?\s*[:=]\s*[\"']?)[^\s\"',}]+"),
]


def redact(text: str) -> str:
    for pattern in _SECRET_PATTERNS:
        if pattern.groups >= 2:
            text = pattern.sub(lambda m: f"{m.group(1)}{m.group(2)}[redacted]", text)
        elif pattern.groups == 1:
            text = pattern.sub(lambda m: f"{m.group(1)} [redacted]", text)
        else:
            text = pattern.sub("[redacted]", text)
    return text


class RedactSecretsFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = redact(record.getMessage())
        record.args = None
        return True


class JsonLineFormatter(logging.Formatter):
    """Fields passed with ``extra={"fields": {...}}`` become top-level keys."""

    def format(self, record: logging.LogRecord) -> str:
        payload: dict[str, object] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "msg": record.getMessage(),
        }
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            payload.update(fields)
        if record.exc_info:
            payload["exc"] = redact(self.formatException(record.exc_info))
        return json.dumps(payload, default=str)


class ExpectedRefusalFilter(logging.Filter):
    """A refusal the server answers as designed (a Host header not in ALLOWED_HOSTS) is one
    WARNING line, not an ERROR with a traceback: anyone can send one, and each would look
    like a crash in the log."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.exc_info, record.exc_text = None, None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


class ChosenUnavailableFilter(logging.Filter):
    """Django's request logger writes an ERROR for every 5xx, with the traceback when an
    exception led to it. A 503 is an answer the server chose (the database out of reach, health
    failing), and the request log already has its WARNING line: this drops Django's."""

    def filter(self, record: logging.LogRecord) -> bool:
        return getattr(record, "status_code", None) != 503


class UnreachableDatabaseFilter(logging.Filter):
    """A worker line caused by the database or the Redis queue out of reach (a schedule not run,
    a result not saved) is a WARNING naming the cause, without a traceback: the code did nothing
    wrong, and the worker's queue reports the outage itself."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, QueueUnreachable):
            cause = str(exc)
        elif exc is not None and is_unreachable(exc):
            cause = f"the database is unreachable ({reason(exc)})"
        else:
            return True
        record.msg, record.args = f"{record.getMessage()}: {cause}", None
        record.exc_info, record.exc_text = None, None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True
