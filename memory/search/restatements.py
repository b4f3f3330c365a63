"""Restatements: a question about how things are now ("How long does a full CI run take us these
days?") is answered by the latest thing its asker said about it, and a later statement often says
the same thing with another value without repeating the words of the first ("a full run on a normal
PR is six minutes now" after "a full run takes about 19 minutes"). When no rule at ingestion
joined the two (memory.ingest.updates), the later one ranks below the earlier one, which shares more
of the question's words, and may fall out of the results.

So among the hits of a question that asks about the present (no past verb, no time it names, not
a request for work), a later hit that says something changed ("now", "switched", "no longer",
"moved", "up to"…, or a value corrected: "the trial is 14 days, not 7") in a sentence giving the
value it changed to, or frames the earlier one with a figure of the same form said without a word of
change (below: "we have 61k labeled reports in total" after "48k labeled so far"; not for a question
giving a figure itself, "What does error E4521 mean?", which asks about what that figure names), is
raised just above an earlier hit ranked above it when both were found by both signals (both are about the
question, in words and in meaning), they were said in different
conversations by the same speaker or the earlier one by the assistant (what it set up, the owner
later changes), the later one is not the assistant's (an assistant's answer reports no change in
the owner's world), both give a value (a figure, a number in words, a day or a month: the later
one says the value otherwise; "now I'm ready to help others" after "support made a difference" gives none
and updates nothing; when the question asks who or which, someone or something by name too: "Ines
approves production deploys now" after "Kofi approves every production deploy"), and the two are near
in meaning to each other
(``HELIX_SEARCH_RESTATEMENT_SIMILARITY``): about the same thing, not two things the question touches.
A later hit meeting all of this while already ranked above the earlier one stays where it is, and is
labelled all the same: the label says what it updates.

Of several earlier hits near a later one, the best ranked is not always the one it updates: a
whole memory near in meaning may give its value of something else ("Can you write one? App,
postgres, redis" beside "Our staging database is a Postgres 13 instance", for "We're on Postgres 16
now"; "she pays half the bill" beside "Electricity is 38 cent a kWh"). So the label names the
earlier hit the later one *frames*: a sentence of each gives a value at most ``_BESIDE`` words from
the same word of the question, and the later sentence gives one the earlier does not; the owner's
own statement before the assistant's, then the best ranked. With none framed, it names the best
ranked near one. Where the later hit is raised does not change: just above the best ranked near
one, so it ranks above the one its label names too.

A later hit already above an earlier one in the results is labelled as its update when it frames it
(and says a change), even where the two are not near as wholes or the earlier one was found by one
signal only: a label moves nothing, and a value beside the same word is evidence enough of what it
updates ("since Monday my manager is Dev Raman" in a long turn about a reorg, after "the Q1 report
for my manager, Maggie Oyelaran" in a turn introducing the project). Said with no word of change, its
new value must also be a figure of a form the earlier one gives ("signed with Tessellate at $14,500 a
year" after "Tessellate quoted $18,000 a year"; "Overleaf's count is 21,850 words" after "the total is
14,200 words"), not a bare number or a name, which a later turn gives of many things in passing.

The value framing a word is of the kind the question asks for, when it asks one: a time of day for
"what time", a figure or a number in words for "how many", "how much", "how long" (the day a backup
once finished gives no time the backups run). A question asking how long is answered by a span, a
figure with its unit of time or length ("about 6 minutes", "two weeks", "21,850 words"): a later hit
giving none is raised by no question for the latest value ("How long does a tagged release take on
CI these days?" raised "About 400 store listing visitors a day", said later and near in meaning in a
chat about one app, above the release's 14 minutes). An identifier is read as its parts ("parse_hallam_10k"
names the Hallam parse). The earlier hit a raised one frames may be any shown below where it lands,
found by one signal or far from it as a whole (a benchmark's output pasted in a turn); where it lands
is as the near ones say.

A value corrected is another thing: "the trial is 14 days, not 7" says the earlier "7-day free trial"
was wrong, not that it changed, so it holds for every question, of the present or the past ("What
percentage did the production rollout open at?": "I'm starting the production rollout at 20%, not
5%" after the assistant's plan of "Day 1: 5%"), and said in the same conversation as the value it
corrects ("Correction before you go further: peak is 1,200 requests per second, not 300"). A hit not
the assistant's that corrects a value, found by both signals (about the question, in words and in
meaning: "the free trial is 14 days, not 7" is not raised for "How many of us were at dinner?" above
"We were 7 at dinner"), is raised just above the best ranked earlier hit shown that gives the value
it names wrong (as a figure or a word: "7-day" gives "7"), said by the same speaker or the assistant
and near it in meaning as above, and not itself saying that value is wrong (a message and the statement
extracted from it say one correction); it is labelled as updating the one it frames, the owner's own first
and then the first said ("the 7-day trial never showed up for me" repeated the value the correction
names), or with none framed the best ranked.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from django.conf import settings

from helixsite.db.replicas import reader
from memory.ingest.english.changes import (
    bare_value,
    corrected_values,
    holds_value,
    is_amount,
    names_one,
    says_a_change,
    value_key,
    values,
)
from memory.ingest.english.sentences import split_sentences
from memory.ingest.english.topics import topic_words, topic_words_with_parts
from memory.ingest.extract import ASSISTANT, speaker_label
from memory.ingest.self_contained import without_anchors
from memory.search.params import SearchRequest
from memory.search.score import Hit
from memory.search.standing import is_request

# Read in the first CUE_CHARS of a memory: a turn says what changed early, and a long one costs a
# bounded read.
CUE_CHARS = 2000
_QUERY_CHARS = 1000  # of a question, read for the words naming the latest value
# A question with one of these asks about what was, not what is: "When did Maria first …?".
# So does one with a verb in the simple past whose form no present perfect shares ("What went wrong in
# the dry run?", not "made" or "found": "What have we made of it?").
_PAST = frozenset(
    {"did", "was", "were", "had", "first", "originally", "initially", "used", "ago", "previously"}
    | {"earlier", "last", "yesterday"}
    | {"went", "came", "took", "began", "gave", "saw", "ran", "wrote", "broke", "drove", "flew", "knew", "chose"}
    | {"ate", "drank", "sang", "swam", "fell", "grew", "rode", "rose", "shook", "stole", "threw", "woke", "wore"}
    | {"forgot", "hid", "spoke", "froze"}
)
_WORD = re.compile(r"[a-z]+")
# A question asking for several things ("What activities does Melanie partake in?", "Which tests have we
# had to quarantine?", "What are Rhiannon's rules for a merge?") or for how many times something happened
# is answered by all of them, one asking why by a reason, which a later reason adds to, and one asking
# for a kind or a description ("What type of diet do Nate's turtles have?", "How does Nate describe …?")
# by words, not a value a later one gives otherwise: a later statement still ranks above the earlier one
# it restates (the latest first, "Peckham is the second studio on the new system"), but it is labelled as
# updating nothing. A plural is read as a word ending in "s" but not in "is", "us" or "ss" ("analysis",
# "status", "class" are one thing).
_UPDATES_NOTHING = re.compile(
    r"\b(?:how many times|why|describe|(?:what|which) (?:kind|type|sort)s? of"
    r"|(?:what|which) (?:are|were) (?!(?:we|you|they|i|he|she|it)\b)"
    r"|(?:what|which) [a-z]*[a-hj-rtv-z]s (?:do|does|did|have|has|had|is|are|was|were|can|could|will|would)\b)",
    re.IGNORECASE,
)
# A question naming the latest value asks about the present whatever its verb ("What date did the
# demo end up on?"), and any later statement of a value answers it, with or without a word of change
# ("best validation macro-F1 so far?": "… is 0.84" after "… 0.81").
_LATEST = re.compile(
    r"\b(?:now|nowadays|these days|currently|so far|at the moment|end(?:s|ed)? up|in the end)\b",
    re.IGNORECASE,
)
# A question asking who or which is answered by someone or something by name ("Who signs off on
# deploys?": "Ines approves them now"), and there a name is a value as a figure is. Elsewhere a name
# is mostly said in passing ("Our group, 'Connected LGBTQ Activists', is made of all kinds of people").
# "Which day", "which month" ask for a time, given as a figure or a day's name, and "which version",
# "which number" for a figure, not for a name.
_NAMES_ASKED = re.compile(
    r"\b(?:who|whom|whose|which(?!\s+(?:day|date|week|month|year|time|hour|version|number)s?\b))\b", re.IGNORECASE
)
# A value frames a word of the question at most this many words from it ("Postgres 16", "29.5 cent
# per kWh", "my manager, Maggie Oyelaran"), not one further off in its sentence ("a Lighthouse score
# of 90 on mobile for launch" gives no launch date). The question's asking words and its prepositions
# frame nothing ("What growth target are we measuring Q1 against?": "against" frames any figure).
_BESIDE = 3
_NOT_FRAMING = frozenset(
    {"what", "which", "who", "whom", "whose", "how", "when", "where", "why", "much", "long", "per"}
    | {"against", "across", "after", "along", "around", "before", "behind", "below", "between", "beyond"}
    | {"during", "into", "near", "onto", "over", "since", "through", "toward", "towards", "under", "until"}
    | {"upon", "within", "without"}
)
# A question asking for a time of day or for how many, how much or how long is answered by a value of
# that kind, and only such a value frames its words: "What time do the nightly backups run?" by "04:30"
# or "2am", not by the day a backup once finished ("the first full backup finished on Tuesday"); "How
# many labeled reports …?" by a number, not by a day or a month's name; "what version" by a figure.
_DIGITS = re.compile(r"[0-9]+")
_LETTERS = re.compile(r"[a-z]+")
_ASKS_CLOCK = re.compile(r"\bwhat time\b", re.IGNORECASE)
_ASKS_FIGURE = re.compile(r"\b(?:what|which) (?:version|number)\b", re.IGNORECASE)
_ASKS_AMOUNT = re.compile(r"\bhow (?:many|much|long|far|big|large|small|old|often|fast|slow)\b", re.IGNORECASE)
_CLOCK = re.compile(r"\d{1,2}(?::\d{2}){1,2}(?:[ap]\.?m\.?)?|\d{1,2}[ap]\.?m\.?|noon|midnight")


# The kinds of value a question may ask for, the first whose words it has: each with what such a value is.
_KINDS: tuple[tuple[re.Pattern, Callable[[str], bool]], ...] = (
    (_ASKS_CLOCK, lambda value: _CLOCK.fullmatch(value) is not None),
    (_ASKS_FIGURE, lambda value: _DIGITS.search(value) is not None),
    (_ASKS_AMOUNT, is_amount),
)


# "How long" asks for a span, of time or of length: a later hit answers it with a figure and its
# unit ("about 6 minutes", "a 14-day trial", "21,850 words"), not with another figure it gives in
# passing ("400 store listing visitors a day", "20%").
_ASKS_SPAN = re.compile(r"\bhow long\b", re.IGNORECASE)
_SPAN_UNITS = frozenset(
    {"ms", "millisecond", "s", "sec", "second", "min", "minute", "h", "hr", "hour", "day", "night", "week"}
    | {"fortnight", "month", "quarter", "year", "sprint", "semester", "term"}
    | {"word", "page", "line", "character", "char", "token", "mm", "cm", "m", "km", "metre", "meter", "mile"}
    | {"foot", "feet", "ft", "inch", "inches"}
)
_SPAN_WORDS = 400  # of a hit's words, read for a span: a turn gives its value early


@dataclass(frozen=True)
class _Asked:
    """What a question asks about: its words that a value may frame, what a value of the kind it
    asks for is (``fits``; None: any value), and whether it asks for a span (``_ASKS_SPAN``)."""

    words: frozenset[str]
    fits: Callable[[str], bool] | None
    span: bool = False


@dataclass(frozen=True)
class Restatement:
    later: uuid.UUID
    updates: uuid.UUID | None  # the earlier hit it names as the one it updates; None: raised, not labelled
    # The best ranked earlier hit it restates, ``updates`` or one ranked above it; None: already above
    # what it updates, it is labelled and not raised.
    above: uuid.UUID | None


def restatements(request: SearchRequest, hits: list[Hit]) -> list[Restatement]:
    """The later hits that restate an earlier hit shown, each with the one it names as updated and
    the best ranked one it restates (raised just above it if below it). ``hits`` best first."""
    if settings.HELIX_SEARCH_RESTATEMENT_SIMILARITY >= 1:
        return []
    corrections = _corrections(request, hits)  # last: a correction's label is the one kept
    latest = _LATEST.search(request.query[:_QUERY_CHARS]) is not None
    if not _about_the_present(request, latest):
        return corrections
    both = [h for h in hits[: request.limit * 3] if h.vector_rank is not None and h.bm25_rank is not None]
    shown = {h.memory.id for h in hits[: request.limit]}  # raised above a hit not shown, it would not show
    names = _NAMES_ASKED.search(request.query[:_QUERY_CHARS]) is not None
    valued = [h for h in both if _gives_value(_said(h), names)]  # each memory read once
    asked = _asked(request.query[:_QUERY_CHARS])
    # A later hit saying no change is raised over an earlier one it frames with a figure of the same
    # form; one already above it is left to be labelled where it stands (below). Not for a question
    # that gives a figure itself ("What does error E4521 mean?", "Which ticket tracked the outage?
    # OPS-1042"): it asks about the thing that figure names, not for its latest value, and a later
    # figure of its form ("E7310") names another.
    gives_a_figure = _DIGITS.search(request.query[:_QUERY_CHARS]) is not None
    pairs = [
        (later, earlier)
        for n, later in enumerate(valued)
        if _speaker(later) != ASSISTANT
        for m, earlier in enumerate(valued)
        if m != n
        and earlier.memory.id in shown
        and _restates(later, earlier)
        and (
            _says_a_change(later, latest, names, asked)
            or (not gives_a_figure and m < n and _frames(later, earlier, asked, names, alike=True))
        )
    ]
    near = _near(pairs) if pairs else set()
    by_id = {h.memory.id: h for h in valued}
    joined: dict[uuid.UUID, list[Hit]] = {}  # each later hit's near earlier ones, best ranked first
    for later, earlier in pairs:
        if (later.memory.id, earlier.memory.id) in near:
            joined.setdefault(later.memory.id, []).append(earlier)
    if _UPDATES_NOTHING.search(request.query[:_QUERY_CHARS]):  # raised, labelled as updating nothing
        return [Restatement(later_id, None, restated[0].memory.id) for later_id, restated in joined.items()]
    found = []
    shown_hits = hits[: request.limit]
    position = {h.memory.id: n for n, h in enumerate(hits)}
    for later_id, restated in joined.items():
        later = by_id[later_id]
        # The one it updates may have been found by one signal only, or be far from it as a whole (a
        # benchmark's output pasted in a turn, later "the bench says it's down to 24 ms"): an earlier hit
        # shown below where it lands that it frames may be named; where it lands is as the near ones say.
        lands = min(position[later_id], position[restated[0].memory.id])
        candidates = [
            e for e in shown_hits[lands:] if e is not later and _restates(later, e) and _gives_value(_said(e), names)
        ]
        updates = _updated(later, candidates, asked, names) or restated[0]
        found.append(Restatement(later_id, updates.memory.id, restated[0].memory.id))
    for n, later in enumerate(shown_hits):  # labelled only: already above, it moves nowhere
        if later.memory.id in joined or _speaker(later) == ASSISTANT or not _gives_value(_said(later), names):
            continue
        below = [e for e in shown_hits[n + 1 :] if _restates(later, e) and _gives_value(_said(e), names)]
        framed = _updated(later, below, asked, names, alike=not _says_a_change(later, latest, names, asked))
        if framed is not None:
            found.append(Restatement(later.memory.id, framed.memory.id, None))
    return found + corrections


def _corrections(request: SearchRequest, hits: list[Hit]) -> list[Restatement]:
    """Each hit correcting a value (not the assistant's, found by both signals) with the best ranked
    earlier hit shown that gives the value it names wrong, near it in meaning: raised just above it,
    labelled as updating it (``_corrected``)."""
    shown = hits[: request.limit]
    pairs = []
    for later in hits[: request.limit * 3]:
        # About the question in words and in meaning, as a raised restatement is: a correction found by
        # one signal is another thing's ("the free trial is 14 days, not 7" for "How many were at dinner?").
        found_by_both = later.vector_rank is not None and later.bm25_rank is not None
        wrong = _correction(_said(later))[0] if found_by_both and _speaker(later) != ASSISTANT else frozenset()
        pairs += [
            (later, earlier)
            for earlier in shown
            if wrong
            and _said_before(earlier, later)
            and _speaker(earlier) in (_speaker(later), ASSISTANT)
            and wrong & _value_keys(_said(earlier))
            # One saying the same value is wrong says what the later one says (a message and the
            # statement extracted from it), not the value it corrects.
            and not wrong & _correction(_said(earlier))[0]
        ]
    near = _near(pairs) if pairs else set()
    corrected: dict[uuid.UUID, tuple[Hit, list[Hit]]] = {}
    for later, earlier in pairs:  # each later hit's earlier ones best ranked first
        if (later.memory.id, earlier.memory.id) in near:
            corrected.setdefault(later.memory.id, (later, []))[1].append(earlier)
    position = {h.memory.id: n for n, h in enumerate(hits)}
    found = []
    for later, giving in corrected.values():
        best = giving[0].memory.id
        above = best if position[later.memory.id] > position[best] else None
        found.append(Restatement(later.memory.id, _corrected(later, giving).memory.id, above))
    return found


def _corrected(later: Hit, earlier: list[Hit]) -> Hit:
    """Of the ``earlier`` hits (best ranked first) giving a value ``later`` names wrong, the one it
    corrects: one giving it beside a word said beside the correction's values ("About 300 requests per
    second at peak" for "peak is 1,200 requests per second, not 300"), the owner's own before the
    assistant's, the first said (those after it repeated it: "the 7-day trial never showed up for me");
    with none, the best ranked (the plan's "Day 1: 5%" for "starting the rollout at 20%, not 5%")."""
    wrong, words = _correction(_said(later))
    framed = [hit for hit in earlier if _words_beside(_said(hit), wrong) & words]
    if not framed:
        return earlier[0]
    return min(framed, key=lambda hit: (_speaker(hit) != _speaker(later), hit.event_time, hit.memory.created_at))


def _words_beside(said: str, keys: frozenset[str]) -> frozenset[str]:
    """The stems at most ``_BESIDE`` words from a value of ``said`` given as one of ``keys``."""
    return frozenset().union(
        *(
            around
            for sentence in _valued_sentences(said, False)
            for value, around in sentence
            if value_key(value) in keys
        )
    )


def _said_before(earlier: Hit, later: Hit) -> bool:
    """Said earlier, or in the same conversation before it: the turns of one conversation may carry
    its one time, and were written in the order they were said."""
    return (earlier.event_time, earlier.memory.created_at) < (later.event_time, later.memory.created_at)


@lru_cache(maxsize=1024)  # each hit is read once a search, and the same memories search after search
def _correction(said: str) -> tuple[frozenset[str], frozenset[str]]:
    """The values ``said`` names wrong (``corrected_values``), and the stems beside any value of the
    sentences naming them: what the correction is about."""
    wrong: set[str] = set()
    words: set[str] = set()
    for sentence in split_sentences(said):
        named = corrected_values(sentence)
        if named:
            wrong |= named
            words = words.union(*(around for _, around in _beside_values(sentence, False)))
    return frozenset(wrong), frozenset(words)


@lru_cache(maxsize=1024)
def _value_keys(said: str) -> frozenset[str]:
    """The values ``said`` gives, each as its figure or word (``value_key``)."""
    return frozenset(value_key(value) for value in values(said))


@lru_cache(maxsize=4096)  # the same memories are read search after search
def _gives_value(said: str, names: bool) -> bool:
    return holds_value(said) or (names and names_one(said))


def _about_the_present(request: SearchRequest, latest: bool) -> bool:
    if request.named is not None or is_request(request.query):
        return False
    return latest or not set(_WORD.findall(request.query.lower())) & _PAST


def _says_a_change(hit: Hit, latest: bool, names: bool, asked: _Asked) -> bool:
    """Not the assistant's, with a word of change in a sentence that gives a value (``_changes_a_value``)
    unless the question asks for the latest value; a span where it asks how long."""
    if _speaker(hit) == ASSISTANT or (asked.span and not _gives_span(_said(hit))):
        return False
    return latest or _changes_a_value(_said(hit), names)


@lru_cache(maxsize=1024)
def _gives_span(said: str) -> bool:
    """A figure or a number in words followed by a unit of time or length ("6 minutes", "two
    weeks", "21,850 words"), or joined to one ("14-day", "30s", "2h"), in the first ``_SPAN_WORDS``
    words of ``said``."""
    words = [bare_value(word) for word in said.split()[:_SPAN_WORDS]]
    for word, after in zip(words, [*words[1:], ""], strict=False):  # the last word has none after it
        figure = word.rstrip("abcdefghijklmnopqrstuvwxyz-")
        unit = word[len(figure) :].lstrip("-")
        if figure and is_amount(figure) and _span_unit(unit):
            return True
        if is_amount(word) and _span_unit(after):
            return True
    return False


def _span_unit(word: str) -> bool:
    return word in _SPAN_UNITS or (word.endswith("s") and word[:-1] in _SPAN_UNITS)


@lru_cache(maxsize=1024)  # each hit is read several times a search, and the same memories search after search
def _changes_a_value(said: str, names: bool) -> bool:
    """A sentence of ``said`` says something changed and gives the value it changed to: "a full run is
    six minutes now", "Ines approves them now" (a name, where the question asks who or which). A word
    of change in a sentence giving none changes no value the question may ask for: "Now the big one:
    tracking-api." opens what comes next, "it goes Ready now" tells a state."""
    return any(says_a_change(sentence) and _gives_value(sentence, names) for sentence in split_sentences(said))


def _restates(later: Hit, earlier: Hit) -> bool:
    """Said in a later conversation by the same speaker, or after the assistant said it (what the
    assistant set up, "a systemd timer at 02:00", the owner later changes: "I moved the timer to
    04:30")."""
    apart = (later.event_time - earlier.event_time).total_seconds()
    return _speaker(earlier) in (_speaker(later), ASSISTANT) and apart > settings.HELIX_CONVERSATION_GAP_SECONDS


def _said(hit: Hit) -> str:
    return _words_said(hit.memory.content[:CUE_CHARS], hit.memory.user_id)


@lru_cache(maxsize=1024)  # each hit is read several times a search, and the same memories search after search
def _words_said(content: str, owner: str) -> str:
    """The words of a memory as said: without the speaker's label before them ("April: …" names no
    month), without the anchors extraction put after relative dates ("this week (week of 2026-01-12)"
    gives no value), and with the owner's id extraction wrote for "I" and "my" read as a pronoun: it
    names who speaks, not a value ("ops-01 is off next week")."""
    said = without_anchors(speaker_label(content)[1])
    if not owner:
        return said
    return re.sub(r"(?<![\w-])" + re.escape(owner) + r"(?![\w-])", "they", said)


def value_asked(query: str) -> Callable[[str], bool] | None:
    """Whether a text gives a value of the kind ``query`` asks for (a span for "how long", a time of
    day for "what time", a figure for "which version", an amount for "how many"…); None where it
    asks for none."""
    asked = _asked(query[:_QUERY_CHARS])
    if asked.span:
        return _gives_span
    fits = asked.fits
    if fits is None:
        return None
    return lambda text: any(fits(value) for value in values(text[:CUE_CHARS]))


def _asked(query: str) -> _Asked:
    fits = next((fits for asks, fits in _KINDS if asks.search(query)), None)
    return _Asked(frozenset(topic_words(query)) - _NOT_FRAMING, fits, _ASKS_SPAN.search(query) is not None)


def _updated(later: Hit, earlier: list[Hit], asked: _Asked, names: bool, *, alike: bool = False) -> Hit | None:
    """Of ``earlier`` (best ranked first), the one ``later`` frames (``_frames``): what the owner said
    themselves before what the assistant said, then the best ranked; None if it frames none."""
    framed = [hit for hit in earlier if _frames(later, hit, asked, names, alike=alike)]
    return min(framed, key=lambda hit: _speaker(hit) != _speaker(later), default=None)


def _frames(later: Hit, earlier: Hit, asked: _Asked, names: bool, *, alike: bool = False) -> bool:
    """A sentence of ``later`` and one of ``earlier`` each give a value beside the same word of the
    question, and the later one a value the earlier does not; with ``alike``, a figure of a form the
    earlier sentence gives too (``_forms``)."""
    before = [_beside(sentence, asked) for sentence in _valued_sentences(_said(earlier), names)]
    for sentence in _valued_sentences(_said(later), names):
        words, given = _beside(sentence, asked)
        for earlier_words, earlier_given in before:
            if not words & earlier_words:
                continue
            new = given - earlier_given
            if new and (not alike or _forms(new) & _forms(earlier_given)):
                return True
    return False


def _forms(given: set[str]) -> set[str]:
    """The forms of the figures among ``given``: each run of digits and of letters one mark
    ("$14,500" and "$18,000" are "$9,9", "4.5.4" is "9.9.9"). A bare number ("9": a slide, a year,
    a count) is too common a form to tell one thing's value from another's; a name or a number in
    words has none."""
    forms = {_LETTERS.sub("a", _DIGITS.sub("9", value)) for value in given if _DIGITS.search(value)}
    return forms - {"9"}


def _beside(sentence: tuple[tuple[str, frozenset[str]], ...], asked: _Asked) -> tuple[set, set]:
    """The question's words in ``sentence`` with a value of the kind asked at most ``_BESIDE`` words
    from them, and those values."""
    words: set[str] = set()
    given: set[str] = set()
    for value, around in sentence:
        if around & asked.words and (asked.fits is None or asked.fits(value)):
            words |= around & asked.words
            given.add(value)
    return words, given


@lru_cache(maxsize=1024)  # the hits of a few searches: an entry holds the words around each value of a turn
def _valued_sentences(said: str, names: bool) -> tuple[tuple[tuple[str, frozenset[str]], ...], ...]:
    """Each sentence of ``said`` that gives a value, as its values, each with the stems (as the
    question's words are read) of the words at most ``_BESIDE`` from it."""
    return tuple(_beside_values(sentence, names) for sentence in split_sentences(said) if _gives_value(sentence, names))


def _beside_values(sentence: str, names: bool) -> tuple[tuple[str, frozenset[str]], ...]:
    """The values ``sentence`` gives, each with the stems of the words at most ``_BESIDE`` from it."""
    given, words = values(sentence, names=names), sentence.split()
    valued = [(n, bare_value(word)) for n, word in enumerate(words) if bare_value(word) in given]
    around = {n: range(max(0, n - _BESIDE), min(len(words), n + _BESIDE + 1)) for n, _ in valued}
    stems = {m: topic_words_with_parts(words[m]) for span in around.values() for m in span}  # a word read once
    return tuple((value, frozenset().union(*(stems[m] for m in around[n]))) for n, value in valued)


def _speaker(hit: Hit) -> str | None:
    return (hit.memory.facets or {}).get("speaker")


def _near(pairs: list[tuple[Hit, Hit]]) -> set[tuple[uuid.UUID, uuid.UUID]]:
    """The pairs whose two memories are at least ``HELIX_SEARCH_RESTATEMENT_SIMILARITY`` near in
    meaning (their cosine), computed in the database, where the vectors are: each memory read once,
    every later one against every earlier one (a few dozen cosines), the pairs asked for kept."""
    later = list({p[0].memory.id for p in pairs})
    earlier = list({p[1].memory.id for p in pairs})
    with reader().cursor() as cursor:
        cursor.execute(
            """WITH a AS MATERIALIZED (SELECT id, embedding FROM memory_memory WHERE id = ANY(%(later)s::uuid[])),
                    b AS MATERIALIZED (SELECT id, embedding FROM memory_memory WHERE id = ANY(%(earlier)s::uuid[]))
               SELECT a.id, b.id FROM a CROSS JOIN b WHERE 1 - (a.embedding <=> b.embedding) >= %(similarity)s""",
            {"later": later, "earlier": earlier, "similarity": settings.HELIX_SEARCH_RESTATEMENT_SIMILARITY},
        )
        near = {(row[0], row[1]) for row in cursor.fetchall()}
    return near & {(p[0].memory.id, p[1].memory.id) for p in pairs}
