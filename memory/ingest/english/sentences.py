"""Sentences and clauses: where a message's statements begin and end, and which of them are
only chit-chat or questions."""

from __future__ import annotations

import calendar
import re
from itertools import pairwise

_ABBREVIATIONS = (
    r"(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\bMr\.)(?<!\bMrs\.)(?<!\bMs\.)(?<!\bDr\.)(?<!\bvs\.)(?<!\betc\.)(?<!\bSt\.)"
)
_SENTENCE_END = re.compile(
    _ABBREVIATIONS + r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9])"
    r"|(?<=[!?])\s+(?=\w)"
    r"|(?<=\.)\s+(?=(?:thanks|thank you|ok|okay|cool|great|bye|cheers|lol)\b)"
)


# Code is no statement: what lies between fences ("```", "~~~"), and a line that reads as code (an
# indented block, a comment or a prompt, a line opening or closing a brace, an assignment, a call).
# A brace inside a line of prose is quoted code ("not a fragment with 'add this under android {}'").
FENCE = re.compile(r"```|~~~")
CODE_LINE = re.compile(
    r"^(?:    |\t)|^\s*(?:#|//|\$\s|>>>|import\s|def\s|class\s|return\s|[{}])|[{}][\s;,)\]]*$|==|=>|\s=\s|\(\);"
)


def prose_lines(text: str) -> list[str]:
    """The lines of ``text`` outside code, in order: fenced blocks and code-like lines left out."""
    return [
        line
        for part in FENCE.split(text)[::2]  # what lies between fences is code
        for line in part.split("\n")
        if line.strip() and not CODE_LINE.search(line)
    ]


def holds_code(text: str) -> bool:
    """Whether ``text`` holds code: a fence, or lines that read as code, two or more and at least
    half of its lines. One such line among prose is prose ("He had USE_TZ = False.", a markdown
    heading over a list)."""
    if FENCE.search(text) is not None:
        return True
    lines = [line for line in text.split("\n") if line.strip()]
    code = sum(1 for line in lines if CODE_LINE.search(line))
    return code >= 2 and 2 * code >= len(lines)


def split_sentences(text: str) -> list[str]:
    sentences: list[str] = []
    for block in re.split(r"\n\s*\n|\n(?=\s*(?:[-*•]|\d+[.)])\s)", text):
        block = _unwrapped(re.sub(r"^\s*(?:[-*•]|\d+[.)])\s+", "", block.strip()))
        for line in block.split("\n") if _looks_like_list(block) else [block]:
            sentences.extend(line_sentences(line))
    return sentences


def line_sentences(line: str) -> list[str]:
    """The sentences of one line, as written."""
    return [part.strip() for part in _SENTENCE_END.split(line.strip()) if part.strip()]


# A line of at least this many words that ends without a sentence's end, followed by a line going
# on in lower case that is as long or ends the sentence, was wrapped at a width (a pasted email, a
# terminal): one sentence, not two items.
WRAPPED_WORDS = 8


def _unwrapped(block: str) -> str:
    """``block`` with the line breaks inside a sentence (hard wraps) made spaces: "Tessellate quoted
    $18,000 a year for the" and "support contract." are one sentence. A list's short items (under a
    heading or not), a line ending a sentence or opening a list (":"), a line starting with a
    capital, a digit or a mark, a line of code keep their breaks. Each line is read once."""
    lines = block.split("\n")
    out = [lines[0]]
    for before, line in pairwise(lines):  # each break, between two lines as written
        before, after = before.rstrip(), line.strip()
        wrapped = (
            after[:1].islower()
            and before[-1:] not in ".!?:;"
            and (after[-1:] in ".!?" or len(after.split(None, WRAPPED_WORDS)) >= WRAPPED_WORDS)
            and len(before.split(None, WRAPPED_WORDS)) >= WRAPPED_WORDS
            and not CODE_LINE.search(line)
        )
        if wrapped:
            out[-1] = out[-1].rstrip()
        out.append(" " if wrapped else "\n")
        out.append(after if wrapped else line)
    return "".join(out)


def _looks_like_list(block: str) -> bool:
    lines = [line for line in block.split("\n") if line.strip()]
    return len(lines) > 1 and all(len(line.split()) <= 25 for line in lines)


_CHIT_CHAT = re.compile(
    r"^(?:ok(?:ay)?|k|thanks?(?: you)?(?: so much| a lot)?|thx|ty|cool|great|nice|sure|yes|no|yep|nope|yeah|"
    r"hi|hello|hey|bye|goodbye|lol|haha|got it|sounds good|awesome|perfect|np|no problem|good (?:morning|night)|"
    r"you're welcome|welcome|hmm+|ah|oh|wow|alright|all right|fine|makes sense|i see|understood)"
    r"(?:[\s,]+(?:ok(?:ay)?|thanks?|cool|great|sure|then|man|mate|!|\.))*[\s!.?]*$",
    re.IGNORECASE,
)


def is_chit_chat(sentence: str) -> bool:
    return bool(_CHIT_CHAT.match(sentence.strip()))


def is_question(sentence: str) -> bool:
    return sentence.rstrip().endswith("?")


_CLAUSE_SUBJECT = r"(?:I|I'm|I've|I'll|I'd|my|My|we|We|we're|[A-Z][a-z]+)\b"
_AND_SPLIT = re.compile(r"(?:,\s*|(?<!\s)\s+)(?:and|but)\s+(?=" + _CLAUSE_SUBJECT + r"\s+\w)|;\s+(?=\w)")
# "since" and "as" before a day or a month begin a time, not a reason: "since Monday my manager is
# Dev Raman" is one statement, its "since" the word saying it changed.
_TIMES = "|".join([*calendar.day_name, *calendar.month_name[1:]])
_BECAUSE_SPLIT = re.compile(r",?(?<!\s)\s+(?:because|since|as)\s+(?!(?:" + _TIMES + r")\b)(?=" + _CLAUSE_SUBJECT + r")")


def split_clauses(sentence: str) -> list[tuple[str, str | None]]:
    """Split a sentence whose parts each have their own subject.

    Returns (clause, link) pairs; link is ``"BECAUSE"`` when the clause is the reason
    for the one before it.
    """
    parts: list[tuple[str, str | None]] = []
    pieces = _AND_SPLIT.split(sentence)
    if len(pieces) > 1 and _BARE_SUBJECT.match(pieces[0]) and _JOINED_BY_AND.match(sentence, len(pieces[0])):
        pieces[:2] = [sentence[: len(pieces[0])] + " and " + pieces[1]]  # "Tom and I broke up": one subject
    for piece in pieces:
        reason = _BECAUSE_SPLIT.split(piece, maxsplit=1)
        parts.append((reason[0].strip(), None))
        if len(reason) == 2 and _has_subject(reason[1]):
            parts.append((reason[1].strip(), "BECAUSE"))
        elif len(reason) == 2:
            parts[-1] = (piece.strip(), None)
    return [(_tidy(clause), link) for clause, link in parts if len(clause.split()) >= 2]


# A subject alone before "and": a name or someone's relation ("Tom and I", "my sister and Leo").
_BARE_SUBJECT = re.compile(r"^\s*(?:(?:[Mm]y|[Oo]ur|[Hh]is|[Hh]er|[Tt]heir)\s+[a-z]+|[A-Z][a-z]+)\s*$")
_JOINED_BY_AND = re.compile(r"\s+and\s")


def _has_subject(clause: str) -> bool:
    return bool(re.match(_CLAUSE_SUBJECT, clause.strip()))


def _tidy(clause: str) -> str:
    clause = clause.strip().rstrip(",;")
    return clause[0].upper() + clause[1:] if clause else clause


_SO_START = re.compile(r"^(?:so|therefore|thus|hence|that's why|which means|as a result),?\s+", re.IGNORECASE)


def strip_consequence_marker(sentence: str) -> tuple[str, bool]:
    """'So I never order steak.' → ('I never order steak.', True): it follows from the sentence before."""
    stripped = _SO_START.sub("", sentence)
    return (_tidy(stripped), True) if stripped != sentence else (sentence, False)


def lower_words(text: str) -> list[str]:
    """``text``'s words, lowercase, in one pass: letters and digits with the apostrophes (’ read as ')
    and hyphens inside them ("what's", "sci-fi"); anything else separates."""
    words: list[str] = []
    current: list[str] = []
    for ch in text.lower():
        if ch.isalnum() or (current and ch in "'’-"):
            current.append("'" if ch == "’" else ch)
        elif current:
            words.append("".join(current))
            current = []
    if current:
        words.append("".join(current))
    return words
