"""Standing instructions and preferences: what the owner asks of the assistant for every later piece
of work ("From now on, keep cover letters under 250 words", "Whenever you write SQL, uppercase the
keywords", "Never give me bare docker run commands") and how they like things done ("I'd rather read
plain matplotlib than seaborn", "I can't stand pie charts"). A later request rarely shares a word
with them ("Draft what goes alongside my Ostrander application"), so search keeps them apart
(memory.search.standing) and the facet ``standing`` marks them at ingestion.

Said as a rule ("whenever you…", "a standing request: any time you…"), as a directive for every case
("use British spelling in anything I'll send out"), as wanting every case so ("I want a Makefile in
every repo") or as a liking ("I'm a Makefile person", "bullet lists work better for me"); a question
("Can you give me the node group change?") or words in quotation marks set no rule.

Read in one pass over the words of the first sentences, outside code: no pattern whose cost grows
faster than the text.
"""

from __future__ import annotations

from memory.ingest.english.sentences import lower_words
from memory.ingest.english.values import statements_of

_SENTENCES = 12  # a rule is said early in a turn, as the turn's point or its aside
_SENTENCE_CHARS = 400

# Said anywhere in a sentence: the sentence is a rule for what the assistant does from then on.
_RULE_PHRASES = (
    "from now on",
    "from here on",
    "going forward",
    "in future",
    "in the future",
    "whenever you",
    "every time you",
    "each time you",
    "when you give me",
    "when you write",
    "when you suggest",
    "when you quote",
    "when you estimate",
    "when you change",
    "when you answer",
    "when we talk",
    "when we practise",
    "when we practice",
    "if i ever",
    "anything you",
    "everything you",
    "you give me",
    "you write me",
    "you write for",
    "you hand me",
    "you show me",
    "you send me",
    "any time you",
    "anytime you",
    "ground rule",
    "house rule",
    "one rule",
    "another rule",
    "next rule",
    "general rule",
    "golden rule",
    "standing rule",
    "standing request",
    "standing instruction",
    "rule for",
    "a rule",
)
# Said anywhere in a sentence of the owner's: how they like things done.
_PREFERENCE_PHRASES = (
    "i prefer",
    "i like",
    "i love",
    "i don't want",
    "i do not want",
    "i'd prefer",
    "i would prefer",
    "i'd rather",
    "i'd much rather",
    "i would rather",
    "i hate",
    "i can't stand",
    "i cannot stand",
    "i don't like",
    "i do not like",
    "i dislike",
    "i don't use",
    "i do not use",
    "i never use",
    "for everything",
    "everything in",
    "anything i",
    "i'm not a",
    "i'm allergic to",
    "i am allergic to",
    "i'm vegetarian",
    "i am vegetarian",
    "i'm vegan",
    "i am vegan",
    "better for me",
    "best for me",
    "has to be",
    "have to be",
)
# Wanting something of every case ("I want a Makefile in every repo", "I'd like times in UTC
# throughout") is a rule as much as one phrased as such.
_WANTING = (("i", "want"), ("i'd", "like"), ("i", "would", "like"), ("i", "need"))
_EVERY = frozenset({"every", "always", "never", "throughout"})
# …but "every week", "every Monday" say how often a thing is done, not that every case is so.
_PERIODS = frozenset(
    {"minute", "hour", "day", "night", "morning", "evening", "week", "weekend", "month", "quarter", "year", "time"}
    | {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "sprint", "release", "run"}
)
# A directive ("Use …", "please") for every case ("in anything I'll send out", "throughout"): "Use
# British spelling in anything I'll send out", "British spelling throughout, please".
_DIRECTIVES = frozenset(
    {"use", "write", "keep", "give", "put", "make", "add", "avoid", "include", "leave", "spell", "format", "show"}
)
# "I'm a Makefile person", "I'm not a notebooks person": how the owner likes to work, in a word or two.
_PERSON_WORDS = 3
# How a sentence that is itself the rule opens ("Always set seeds…", "Never aim anything at prod"),
# after a word that only leads in ("Please", "And", "Also").
_RULE_OPENINGS = ("don't", "do not", "no", "avoid", "stop", "skip", "make sure", "be sure")
_LEAD_INS = frozenset({"please", "and", "also", "oh", "btw", "so", "but", "just", "ok", "okay", "one", "more", "thing"})
# …provided it speaks of the work for the owner or of every case; "always" and "never" before a
# verb say so themselves ("Always set seeds", "never invent citations"), not before what they
# only qualify ("Always good to see you", "Never mind").
_ADDRESSED = frozenset({"you", "your", "me", "my", "anything", "everything", "every", "any", "ever", "all"})
_ALWAYS = frozenset({"always", "never"})
_NOT_A_VERB = frozenset(
    {"mind", "good", "nice", "great", "fun", "a", "an", "the", "so", "been", "again", "before", "thought", "knew"}
)


def _sentences(text: str) -> list[str]:
    """The first sentences of ``text`` outside code (``statements_of``), a clause after a colon or a
    semicolon read as a sentence of its own ("One thing before we start: always write …"), each cut
    at ``_SENTENCE_CHARS``."""
    found: list[str] = []
    for statement in statements_of(text):
        for part in statement.replace("; ", ": ").split(": "):
            if part.strip():
                found.append(part[:_SENTENCE_CHARS])
            if len(found) >= _SENTENCES:
                return found
    return found


def _phrases_by_first_word(phrases: tuple[str, ...]) -> dict[str, list[list[str]]]:
    found: dict[str, list[list[str]]] = {}
    for phrase in phrases:
        words = phrase.split()
        found.setdefault(words[0], []).append(words)
    return found


_PHRASES = _phrases_by_first_word(_RULE_PHRASES + _PREFERENCE_PHRASES)


def _says_a_phrase(words: list[str]) -> bool:
    """A rule's or a preference's phrase is among ``words``: each word read once, against the
    phrases that begin with it."""
    return any(words[i : i + len(p)] == p for i, word in enumerate(words) for p in _PHRASES.get(word, ()))


def _wants_every_case(words: list[str]) -> bool:
    wants = any(words[i : i + len(w)] == list(w) for i in range(len(words)) for w in _WANTING if words[i] == w[0])
    return wants and _every_case(words)


def _every_case(words: list[str]) -> bool:
    """A word saying every case: "always", "never", "throughout", "every" (not "every week": how
    often), "in anything", "for everything" (not "before we tune anything": one thing)."""
    for i, word in enumerate(words):
        if word in _EVERY and (word != "every" or i + 1 == len(words) or words[i + 1] not in _PERIODS):
            return True
        if word in ("anything", "everything") and i > 0 and words[i - 1] in ("in", "for", "to", "on", "with"):
            return True
    return False


def _directs_every_case(words: list[str], opening: str | None) -> bool:
    return (opening in _DIRECTIVES or "please" in words) and _every_case(words)


def _a_kind_of_person(words: list[str]) -> bool:
    """ "I'm a Makefile person": "person" within a few words after "I'm a"."""
    for i in range(len(words) - 2):
        if words[i] == "i'm" and words[i + 1] in ("a", "an") and "person" in words[i + 2 : i + 2 + _PERSON_WORDS]:
            return True
    return False


_QUOTES = frozenset('"\u201c\u201d')


def _said_or_asked_of_another(sentence: str) -> bool:
    """A question asks for something once ("Can you give me the node group change?"), and words in
    quotation marks are someone else's ("'No phone in bed' is at day 9"): neither sets a rule."""
    stripped = sentence.strip()
    return stripped.endswith("?") or stripped[:1] in _QUOTES or stripped[-1:] in _QUOTES


def is_standing(text: str) -> bool:
    """``text`` (the owner's words: a turn of the assistant's is never read as one) says a rule
    for the assistant's later work or how the owner likes things done."""
    for sentence in _sentences(text):
        if _said_or_asked_of_another(sentence):
            continue
        words = lower_words(sentence)
        if _says_a_phrase(words) or _wants_every_case(words) or _a_kind_of_person(words):
            return True
        lead = 0
        while lead < len(words) and words[lead] in _LEAD_INS:
            lead += 1
        opening = words[lead : lead + 2]
        if _directs_every_case(words, opening[0] if opening else None):
            return True
        if opening[:1] and opening[0] in _ALWAYS:
            if len(opening) == 2 and opening[1] not in _NOT_A_VERB:
                return True
            continue
        opens = any(opening[: len(o.split())] == o.split() for o in _RULE_OPENINGS)
        if opens and _ADDRESSED.intersection(words):
            return True
    return False
