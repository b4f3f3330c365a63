"""What presence checks of agents' input beyond the tools' serializers (lengths and ranges are
checked there, once): a status that is one printable line and not a farewell in disguise.
Agent ids follow the rule every tool shares (``helixsite.agents.agent_ids``)."""

from __future__ import annotations

import re

from helixsite.errors import InvalidInput

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


def status_parse(value: str) -> str:
    text = value.strip()
    if not text or not text.isprintable():
        raise InvalidInput("status must be printable characters on one line.", field="status")
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
