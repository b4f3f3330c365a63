"""Making statements self-contained: short answers completed from the question they
answer, and relative dates anchored to the time the message was said."""

from __future__ import annotations

import calendar
import re
from datetime import date, datetime, timedelta

from memory.ingest.english.person import third_person

_MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
_WEEKDAYS = {name.lower(): i for i, name in enumerate(calendar.day_name)}
_PAST = {
    "go": "went",
    "move": "moved",
    "buy": "bought",
    "meet": "met",
    "get": "got",
    "start": "started",
    "leave": "left",
    "come": "came",
    "see": "saw",
    "take": "took",
    "make": "made",
    "have": "had",
}


def is_short_answer(message: str) -> bool:
    words = message.strip().rstrip(".!").split()
    return 0 < len(words) <= 6 and not re.search(r"\b(?:I|I'm|my|we|is|are|was|am)\b", message)


def resolve_short_answer(answer: str, question: str, subject: str) -> str:
    """'next April' after 'When are you going to Japan?' → 'alice is going to Japan next April'."""
    answer = answer.strip().rstrip(".!")
    q = question.strip().rstrip("?").strip()
    q = re.sub(r"^(?:and|so|ok(?:ay)?|great|nice|cool)[,!]?\s+", "", q, flags=re.IGNORECASE)
    yes = re.match(r"^(?:yes|yeah|yep|sure|of course|definitely)\b", answer, re.IGNORECASE)
    no = re.match(r"^(?:no|nope|not really|never)\b", answer, re.IGNORECASE)

    if m := re.match(r"^what(?:'s| is) your (?P<attr>.+)$", q, re.IGNORECASE):
        return f"{subject}'s {_second_to_third(m['attr'], subject)} is {answer}"
    if m := re.match(r"^(?P<wh>when|where|what time) (?:are|will) you (?P<rest>.+)$", q, re.IGNORECASE):
        verb = "is" if q.lower().split()[1] == "are" else "will"
        return f"{subject} {verb} {_second_to_third(m['rest'], subject)} {_place(m['wh'], answer)}"
    if m := re.match(
        r"^(?P<wh>when|where|how|which \w+|what \w+|what) (?P<aux>do|did) you (?P<verb>\w+)(?P<rest>.*)$",
        q,
        re.IGNORECASE,
    ):
        verb = _past(m["verb"]) if m["aux"].lower() == "did" else third_person(m["verb"])
        rest = _second_to_third(m["rest"], subject).strip()
        return " ".join(part for part in (subject, verb, rest, _place(m["wh"], answer)) if part)
    if (yes or no) and (m := re.match(r"^(?P<aux>do|are|have|did|can|will|would) you (?P<rest>.+)$", q, re.IGNORECASE)):
        return _yes_no(m["aux"].lower(), _second_to_third(m["rest"], subject), subject, negative=bool(no))
    return f'Asked "{question.strip()}", {subject} answered: {answer}'


def _yes_no(aux: str, rest: str, subject: str, *, negative: bool) -> str:
    first, _, tail = rest.partition(" ")
    if aux == "do":
        verb = f"does not {first}" if negative else third_person(first)
        return f"{subject} {verb} {tail}".strip()
    if aux == "did":
        return f"{subject} {'did not ' + first if negative else _past(first)} {tail}".strip()
    conjugated = {"are": "is", "have": "has"}.get(aux, aux)
    return f"{subject} {conjugated}{' not' if negative else ''} {rest}".strip()


def _second_to_third(text: str, subject: str) -> str:
    text = re.sub(r"\byour\b", f"{subject}'s", text, flags=re.IGNORECASE)
    text = re.sub(r"\byourself\b", subject, text, flags=re.IGNORECASE)
    return re.sub(r"\byou\b", subject, text, flags=re.IGNORECASE)


def _place(wh: str, answer: str) -> str:
    if wh.lower() == "where" and not re.match(r"^(?:in|at|to|on|near|from|with)\b", answer, re.IGNORECASE):
        return f"in {answer}"
    return answer


def _past(verb: str) -> str:
    lowered = verb.lower()
    if lowered in _PAST:
        return _PAST[lowered]
    return verb + "d" if lowered.endswith("e") else verb + "ed"


# --- relative dates -----------------------------------------------------------------------

_RELATIVE = re.compile(
    r"\b(?P<phrase>today|tonight|tomorrow|yesterday|"
    r"(?:this|next|last) (?:week|month|year)|"
    r"(?:next|last|this) (?:" + "|".join(_MONTHS) + r"|" + "|".join(_WEEKDAYS) + r")|"
    r"(?P<n>\d+|a|one|two|three|four|five|six) (?P<unit>day|week|month|year)s? ago|"
    r"in (?P<m>\d+|a|one|two|three|four|five|six) (?P<unit2>day|week|month|year)s?)\b",
    re.IGNORECASE,
)
# What ``_resolve`` anchors a relative date to: a day, a week, a month or a year.
_ANCHOR = r"\d{4}-\d{2}-\d{2}|week of \d{4}-\d{2}-\d{2}|[A-Z][a-z]+ \d{4}|\d{4}"
_NUMBERS = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


def anchor_relative_dates(text: str, now: datetime) -> str:
    """'I moved to Berlin last month' said on 2026-11-29 → '… last month (October 2026)'."""

    def anchored(match: re.Match[str]) -> str:
        try:
            label = _resolve(match, now.date())
        except OverflowError:  # a day before year 1 or after 9999 (or "in 10**20 days"): kept as said
            label = None
        return f"{match.group(0)} ({label})" if label else match.group(0)

    if re.search(r"\(\s*(?:" + _ANCHOR + r"|week of [^)]*)\)", text):
        return text  # already anchored
    return _RELATIVE.sub(anchored, text)


# A relative date with the anchor ``anchor_relative_dates`` put after it.
_ANCHORED = re.compile(_RELATIVE.pattern + r" \((?:" + _ANCHOR + r")\)", re.IGNORECASE)


def without_anchors(text: str) -> str:
    """``text`` as it was said: each relative date without the anchor put after it ("this week (week of
    2026-01-12)" is "this week"). What a statement says things' values are is read from what was said:
    an anchor is the date the statement was made in, not a value it gives."""
    return _ANCHORED.sub(lambda match: match.group("phrase"), text)


def _resolve(match: re.Match[str], today: date) -> str | None:
    phrase = match.group("phrase").lower()
    simple = {
        "today": today,
        "tonight": today,
        "tomorrow": today + timedelta(days=1),
        "yesterday": today - timedelta(days=1),
    }
    if phrase in simple:
        return simple[phrase].isoformat()
    count = match.group("n") or match.group("m")
    if count:
        n = _NUMBERS.get(count.lower()) or int(count)
        unit = (match.group("unit") or match.group("unit2")).lower()
        sign = -1 if phrase.endswith("ago") else 1
        return _shift(today, unit, sign * n)
    which, _, what = phrase.partition(" ")
    step = {"next": 1, "last": -1, "this": 0}[which]
    if what in ("week", "month", "year"):
        return _shift(today, what, step)
    if what in _MONTHS:
        month = _MONTHS[what]
        year = (
            today.year
            + (1 if step == 1 and month <= today.month else 0)
            - (1 if step == -1 and month >= today.month else 0)
        )
        return f"{calendar.month_name[month]} {year}"
    offset = (_WEEKDAYS[what] - today.weekday()) % 7
    day = (
        today + timedelta(days=offset or 7)
        if step >= 0
        else today - timedelta(days=(today.weekday() - _WEEKDAYS[what]) % 7 or 7)
    )
    return day.isoformat()


def _shift(today: date, unit: str, amount: int) -> str:
    if unit == "day":
        return (today + timedelta(days=amount)).isoformat()
    if unit == "week":
        start = today + timedelta(weeks=amount) - timedelta(days=today.weekday())
        return f"week of {start.isoformat()}"
    if unit == "month":
        month_index = today.year * 12 + today.month - 1 + amount
        return f"{calendar.month_name[month_index % 12 + 1]} {month_index // 12}"
    return str(today.year + amount)
