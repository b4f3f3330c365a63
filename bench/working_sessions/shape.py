"""The shape a working chat is written in: sessions of user and assistant turns, and questions whose
evidence names turns by a key of the writer's choosing (a key survives inserting a turn; an index
would not).

A question's ``ability`` is the memory ability it probes:

- ``standing-instruction``: a rule the user set for the assistant ("always write dates as
  YYYY-MM-DD"), asked about by a later request that shares no word with it;
- ``preference``: what the user likes or avoids, asked about by a request it should shape;
- ``knowledge-update``: a value that changed; ``evidence`` is the turn with the current value and
  ``superseded`` the turns with the values it replaced;
- ``multi-turn``: an answer that lies in several turns (a list, an aggregate, two facts joined);
- ``single-fact``: one detail stated once, in the user's words or the assistant's;
- ``code``: a detail that lies in code the assistant wrote or the user pasted;
- ``request-context``: a request for work that builds on earlier work in the chat (code, a decision,
  a config the assistant or user wrote), asked without repeating it; ``evidence`` is the turn(s) that
  work lies in.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, field

ABILITIES = (
    "standing-instruction",
    "preference",
    "knowledge-update",
    "multi-turn",
    "single-fact",
    "code",
    "request-context",
)


@dataclass(frozen=True)
class Turn:
    speaker: str  # "user" or "assistant"
    text: str
    key: str | None = None  # named only when a question cites the turn


@dataclass(frozen=True)
class Session:
    when: str  # ISO 8601, e.g. "2026-03-02T09:05:00Z"
    turns: list[Turn]


@dataclass(frozen=True)
class Question:
    question: str
    answer: str  # held by an evidence turn as written; parts held by different turns are split by "; "
    evidence: list[str]
    ability: str
    superseded: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Chat:
    name: str
    sessions: list[Session]
    questions: list[Question]


def u(text: str, key: str | None = None) -> Turn:
    return Turn("user", text, key)


def a(text: str, key: str | None = None) -> Turn:
    return Turn("assistant", text, key)


def w(text: str) -> str:
    """``text`` as the speaker wrote it: the source's indentation dropped, prose lines wrapped for the
    source joined again, fenced blocks and list items kept line by line."""
    lines = textwrap.dedent(text).strip("\n").splitlines()
    out: list[str] = []
    fenced = False
    for line in lines:
        if line.startswith("```"):
            fenced = not fenced
            out.append(line)
            continue
        joinable = (
            not fenced
            and out
            and out[-1]
            and not out[-1].startswith("```")
            and line
            and not re.match(r"(\s|[-*>|]|\d+[.)]\s)", line)
        )
        if joinable:
            out[-1] += " " + line
        else:
            out.append(line)
    return "\n".join(out).strip()


def d(text: str) -> str:
    """``text`` without the source's indentation, kept line by line as written."""
    return textwrap.dedent(text).strip("\n")
