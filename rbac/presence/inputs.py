"""Parsing and bounds of what agents send to presence: agent ids, statuses, windows."""

from __future__ import annotations

import re
from typing import Any

from helixsite.errors import InvalidInput
from rbac.presence.models import AGENT_ID_MAX, STATUS_MAX

AGENT_ID_PATTERN = re.compile(rf"[A-Za-z0-9._:/@-]{{1,{AGENT_ID_MAX}}}")
WINDOW_MIN_SECS = 1
WINDOW_MAX_SECS = 7 * 24 * 3600

# fmt: off
# A status whose leading clause says only that the instance is over is a farewell in
# disguise: it would leave a "done" instance counted as present until it expired.
_TERMINAL_WORDS = frozenset({
    "done", "finished", "finish", "complete", "completed", "exit", "exited", "exiting", "terminate", "terminated",
    "terminating", "stop", "stopped", "stopping", "halted", "dead", "died", "killed", "end", "ended", "ending",
    "shutdown", "shut", "shutting", "quit", "quitting", "gone", "offline", "closed", "aborted", "crashed",
    "cancelled", "canceled", "succeeded", "bye", "goodbye", "farewell", "retired", "over",
})
# Words that may accompany a terminal word without making the clause a progress report
# ("all done", "task completed successfully", "failed and exited with code 1").
_FILLER_WORDS = frozenset({
    "a", "agent", "all", "and", "already", "am", "are", "been", "code", "down", "error", "errors", "everything",
    "failed", "for", "fully", "good", "has", "have", "here", "i", "im", "is", "it", "job", "just", "m", "now",
    "off", "ok", "okay", "re", "run", "s", "session", "signed", "signing", "state", "status", "success",
    "successfully", "task", "the", "was", "we", "with", "work",
})
# fmt: on
_CLAUSE_END = re.compile(r"[:;,(\[]| - | — ")


def agent_id_parse(value: Any, *, field: str = "agent_id") -> str:
    if not isinstance(value, str) or not AGENT_ID_PATTERN.fullmatch(value):
        raise InvalidInput(
            f"{field} must be 1–{AGENT_ID_MAX} characters of letters, digits and . _ : - / @.", field=field
        )
    return value


def status_parse(value: Any) -> str:
    text = value.strip() if isinstance(value, str) else None
    if not text or len(text) > STATUS_MAX or not text.isprintable():
        raise InvalidInput(f"status must be 1–{STATUS_MAX} printable characters on one line.", field="status")
    if status_is_terminal(text):
        raise InvalidInput(
            f"status {text!r} says the instance has ended; heartbeats carry only live states. "
            "Call agent_farewell to end an instance.",
            code="terminal_status",
            field="status",
        )
    return text


def status_is_terminal(text: str) -> bool:
    """True when the leading clause is made of terminal words (and filler) only."""
    clause = _CLAUSE_END.split(text.lower(), maxsplit=1)[0]
    words = re.sub(r"[^\w]+|_", " ", clause).split()
    meaningful = [w for w in words if not w.isdigit()]
    return any(w in _TERMINAL_WORDS for w in meaningful) and all(
        w in _TERMINAL_WORDS or w in _FILLER_WORDS for w in meaningful
    )


def window_parse(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int | str):
        value = None
    try:
        seconds = int(value) if value is not None else None
    except ValueError:
        seconds = None
    if seconds is None or not WINDOW_MIN_SECS <= seconds <= WINDOW_MAX_SECS:
        raise InvalidInput(
            f"active_window_secs must be a whole number of seconds from {WINDOW_MIN_SECS} to {WINDOW_MAX_SECS}.",
            field="active_window_secs",
        )
    return seconds
