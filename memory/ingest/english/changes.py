"""Change: what a statement says about an earlier one. It ``ends`` or ``reschedules`` a thing,
``retracts`` it or ``adds`` to it (see ``Change``), and a change cue ("no longer", "now",
"moved to") marks a statement that may replace another.

A small grammar, read from the words as said (before attribution). It names the thing that
changed; the decision stage looks for the stored memory that says that thing, of the same
person, itself or by its kind ("I quit coffee" ends "I drink three espressos a day": the kinds
are data, ``lists/kinds.txt``).

Two more readings serve the decision, on stored and new statements alike: the ``amounts`` a
statement gives ("I now run 10 km" changes "I run 5 km" when it says the number changed), and
the ``stance`` it takes on a thing ("I can't stand jazz anymore" reverses "I love jazz"; the
words of each side are data, ``lists/stances.txt``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from memory.ingest.atoms import Change
from memory.ingest.english.entities import NOT_NAMES
from memory.ingest.english.negation import NEGATION, is_negated
from memory.ingest.english.topics import topic_words
from memory.ingest.english.wordlists import word_list

_CHANGE_CUES = re.compile(
    r"\b(?:moved to|no longer|now prefers?|switched (?:to|from)|instead|anymore|any more|changed (?:to|my)|"
    r"these days|nowadays|not anymore|stopped|quit|used to|relocated|now|new|gone off|went off|lost interest|"
    r"come round|came round|come around|grown to)\b",
    re.IGNORECASE,
)


def change_cue(sentence: str) -> str | None:
    """The first words that say the statement may replace an earlier one ("no longer", "now")."""
    match = _CHANGE_CUES.search(sentence)
    return match.group(0).lower() if match else None


_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?"
    r"|nov(?:ember)?|dec(?:ember)?)\b\.?"
)
_WEEKDAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?"
_DATE = (
    r"(?:(?:next|this|last|the following)\s+)?(?:"
    + _WEEKDAY
    + r"|week(?:end)?|month|year|season|quarter|term|semester|spring|summer|autumn|fall|winter)"
    r"|\d{1,2}(?:st|nd|rd|th)?(?:\s+of)?\s+" + _MONTH + r"|" + _MONTH + r"(?:\s+\d{1,2}(?:st|nd|rd|th)?)?"
    r"|the\s+\d{1,2}(?:st|nd|rd|th)|\d{4}-\d{2}-\d{2}|\d{1,2}[/.]\d{1,2}(?:[/.]\d{2,4})?|\d{1,2}(?::\d{2})?\s*[ap]m"
    r"|tomorrow|tonight|noon|midnight|q[1-4]|later|earlier"
)
# A run of spaces is matched from its first one only (``(?<!\s)\s+``): tried from each of its
# positions, a pattern cost the square or the cube of the run's length in hostile text.
# Where a named thing ends: before a linking word, a date or the end of the clause.
_THING = (
    r"(?P<topic>[^,.;:!?]+?)(?=\s+(?:and|for|to|with|so|because|since|but|after|before|when|then|now|instead|last|this|next"
    # "I quit coffee completely": how wholly it ends is no part of the thing.
    r"|completely|altogether|entirely|for good|once and for all|cold turkey|forever)\b"
    r"|\s+(?:at|in|on|by|from|until)\s+(?:the\s+(?:end|start|beginning|middle)\s+of\b|(?:" + _DATE + r")\b)"
    r"|\s*[,.;:!?]|\s*$)"
)
_ENDING = [
    re.compile(
        r"\b(?:left|leave|leaving|quit|quitting|resigned from|resign from|dropped out of|dropped|gave up|given up|"
        r"giving up|stepped down (?:from|as)|sold|selling|traded in|traded|replaced|swapped|rehomed|closed|"
        r"cancell?ed|ditched|got rid of|moved out of|moved away from|retired from|broke up with|"
        r"handed in (?:my|his|her|their|our) notice at|(?:was|got) laid off (?:from|by)|instead of|"
        # A habit given up: "I've cut out gaming", "no more wine for me" ("stopped": below).
        r"cut out|cutting out|sworn off|swore off|swear off|kicked the habit of|"
        r"broke the habit of|(?:am|is|are|'m|'s)\s+(?:done|finished|through) with|no more(?!\s+than\b)|"
        r"gone off|went off|lost interest in|called off(?!\s+(?:the|their|our|his|her|my)\s+engagement)|"
        # "my son is off energy drinks for good" (and not "I'm off to Spain for good").
        r"(?:am|is|are|'m|'s)\s+off(?!\s+to\b)(?=\s+[^,.;:!?]{1,40}?\s+for good\b)|"
        r"(?:moved|switched|transferred|ported|changed)(?:\s+[\w']+){0,3}?\s+from)\s+"
        # "I stopped by the shop", "we stopped at a café": a visit, not a thing given up.
        r"(?!(?:by|at|in|for|off|over|to|on|with|the way)\b)" + _THING,
        re.IGNORECASE,
    ),
    re.compile(
        r"(?:^|[,;]\s*|\band\s+)(?P<topic>[\w'\- ]+?)(?<!\s)\s+(?:is|was|are|were|has been|got)\s+(?:gone|stolen|sold|history|over)\b"
        r"|(?:^|[,;]\s*)(?P<topic3>[\w'\- ]+?)(?<!\s)\s+(?:died|passed away|ran away|broke down|was put down"
        # A couple parted: "Tom and I broke up", "my sister and Leo called off their engagement".
        r"|(?:have\s+|has\s+)?(?:broke up|broken up|split up|separated|got divorced|divorced|called it quits"
        r"|(?:are|were)\s+no longer together|(?:called|broke)\s+off\s+(?:the|their|our|his|her|my)\s+engagement))\b"
        r"|(?<![\w&'\-])(?P<topic2>[A-Z][\w&'\-]*(?:\s+[A-Z][\w&'\-]*)*)\s+(?:let|laid)\s+(?:me|him|her|us|them)\s+(?:go|off)\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"\bno longer\s+(?:(?:in|at|on|with|part of|a member of|working (?:at|for))\s+)?" + _THING, re.IGNORECASE
    ),
    # A habit stopped is a doing, and where it went is part of it: "I stopped going to the gym",
    # "I stopped driving to work". A thing stopped is no habit ended ("I stopped the worker").
    re.compile(
        r"\b(?:stopped|stopping)\s+(?=[a-z]+ing\b)" + _THING.replace("|to|", "|").replace("<topic>", "<habit>"),
        re.IGNORECASE,
    ),
]
_RESCHEDULED = (
    r"(?:moved|pushed|postponed|delayed|extended|rescheduled|brought|rebooked|changed|slipped|bumped|shifted|"
    r"deferred|put off|put|pulled|switched|swapped)(?:\s+(?:back|forward|up|out|ahead|off|over))?"
)
_TO_DATE = (
    r"(?:(?<!\s)\s+by\s+(?:a|an|one|two|three|a few|\d+)\s+\w+,?)?(?<!\s)\s+(?:to|until|till|for|into|on)\s+(?:"
    + _DATE
    + r")\b"
)
_RESCHEDULE = [
    # "They delayed the exam by a week, to 19 May": the verb, the thing, the new date.
    re.compile(
        r"\b"
        + _RESCHEDULED
        + r"\s+(?!(?:to|until|till|for|by|back|forward|up|out|ahead|off|over)\b)(?P<topic>[^,.;:!?]+?)(?:(?<!\s)\s+(?:back|forward|up|out|ahead|off|over))?,?"
        + _TO_DATE,
        re.IGNORECASE,
    ),
    # "The launch is pushed back to 3 March": the thing, the verb, the new date.
    re.compile(
        r"^(?P<topic>.+?)(?<!\s)\s+(?:(?:is|are|was|were|has been|have been|had been|got|gets|will be|'s been|'s)\s+)?"
        + _RESCHEDULED
        + _TO_DATE,
        re.IGNORECASE,
    ),
]
_NOW_OR_INSTEAD = re.compile(r"\b(?:now|instead)\b", re.IGNORECASE)
_RETRACTION = re.compile(
    r"\b(?:after all|scratch that|I was wrong|I'm wrong|(?:was|is|were) (?:wrong|a mistake|not true|incorrect)|misspoke|"
    r"mixed (?:that|it|them|things) up|I was mistaken|I misremembered|^\s*correction\b|correction:|"
    r"ignore what I said|forget (?:what I said|the [\w\- ]+ thing)|"
    r"that's not (?:right|true|correct)|that is not (?:right|true|correct)|never mind|my mistake|I got (?:that|it) wrong)\b",
    re.IGNORECASE,
)
_RETRACTED_TOPIC = re.compile(
    r"\babout\s+(?P<topic>[^,.;:!?]+?)(?=\s+(?:was|is|were)\b|\s*[,.;:!?]|\s*$)|\bthe\s+(?P<topic2>[\w\- ]+?)\s+thing\b",
    re.IGNORECASE,
)
_ADDITION = re.compile(r"\b(?:also|too|as well|another|second|third|in addition|alongside|besides)\b", re.IGNORECASE)
_ENDED = re.compile(r"\b(?:no longer|anymore|any more)\b", re.IGNORECASE)


def find_change(sentence: str) -> Change | None:
    """What the statement says about an earlier one, if anything: see ``Change``. Not what it asks
    ("Is there any risk in leaving the NUC on 24/7?" ends nothing)."""
    sentence = _stated(sentence)
    if _RETRACTION.search(sentence):
        return Change("retracts", _retracted_topic(sentence))
    for pattern in _RESCHEDULE:
        match = pattern.search(sentence)
        if match:
            return Change("reschedules", _plain(match.group("topic")))
    for pattern in _ENDING:
        match = pattern.search(sentence)
        if match:
            return Change("ends", _plain(next(thing for thing in match.groups() if thing)))
    if _NOW_OR_INSTEAD.search(sentence) and re.search(r"\b(?:" + _DATE + r")\b", sentence, re.IGNORECASE):
        # "Sprint planning is now on Tuesdays": what is left without the date and the cue.
        undated = re.sub(r"\b(?:on|at|in|for|from)?\s*(?:" + _DATE + r")\b", " ", sentence, flags=re.IGNORECASE)
        return Change("reschedules", _plain(undated))
    if _ENDED.search(sentence) and is_negated(sentence):
        return Change("ends", _plain(sentence))  # "I don't smoke anymore"
    if _ADDITION.search(sentence):
        return Change("adds")
    return None


# After what closes a sentence: a text split there keeps every character, its questions apart.
_AFTER_CLOSE = re.compile(r"(?<=[.!?\n])")


def _stated(text: str) -> str:
    """``text`` without its questions (read once, whatever its length)."""
    if "?" not in text:
        return text
    return "".join(part for part in _AFTER_CLOSE.split(text) if not part.rstrip().endswith("?"))


def _retracted_topic(sentence: str) -> str:
    """'The earlier note about the Berlin trip was wrong' → 'Berlin trip'; otherwise what the
    sentence says once the retraction's own words are gone ('I'm not vegetarian after all')."""
    match = _RETRACTED_TOPIC.search(sentence)
    if match:
        return _plain(match.group("topic") or match.group("topic2"))
    return _plain(_RETRACTION.sub(" ", sentence))


def _plain(phrase: str) -> str:
    return " ".join(sorted(topic_words(phrase)))


def _kinds() -> dict[str, frozenset[str]]:
    kinds: dict[str, set[str]] = {}
    for line in word_list("change_kinds"):
        kind, _, members = line.partition(":")
        for member in members.split():
            for stem in topic_words(member):
                kinds.setdefault(stem, set()).update(topic_words(kind))
    return {stem: frozenset(of) for stem, of in kinds.items()}


_KINDS = _kinds()


# Verbs of a habit, as rough stems: "stopped eating meat" names meat, however the habit was said
# ("has bacon for breakfast"). Alone they are the thing ("I stopped drinking").
_HABIT_VERBS = frozenset({"eat", "drink", "hav", "tak", "us", "smok", "go", "goe", "going"})


def names_all(topic: set[str], text: str) -> bool:
    """Whether a text names every word of a topic, itself or by its kind: "alice drinks three
    espressos a day" names "coffee" (an espresso is coffee), so that "I quit coffee" ends it."""
    words = topic_words(text)
    named = words.union(*(_KINDS.get(word, frozenset()) for word in words))
    wanted = topic - _HABIT_VERBS or topic
    return {_loose(word) for word in wanted} <= {_loose(word) for word in named}


def replaced_kind(new: str, stored: str) -> str | None:
    """The kind of thing of which the new statement names one the stored one does not, where
    the stored one names another or the kind itself: "alice switched to a Pixel 8" and "alice
    has an iPhone 12" (phone), "alice has got a Kia now" and "alice's car is a Ford" (car)."""
    new_words, old_words = topic_words(new), topic_words(stored)
    old_kinds = old_words | _kinds_of(old_words - new_words)
    return next((kind for kind in sorted(_kinds_of(new_words - old_words)) if kind in old_kinds), None)


def _kinds_of(words: set[str]) -> set[str]:
    return set().union(*(_KINDS.get(word, frozenset()) for word in words))


def _loose(stem: str) -> str:
    """A topic stem without a last "e", as rough stems of one word differ there ("goes" → "goe",
    "go" → "go")."""
    return stem[:-1] if stem.endswith("e") and len(stem) > 2 else stem


# --- amounts ----------------------------------------------------------------------------------

# A number said in figures ("10 km", "58k", "1,350") or in words ("two cups", "twenty books").
_AMOUNT = re.compile(
    r"(?<![\w.])\d[\d,.]*(?:k|m|km|kg|mg|h)?(?![\w])|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|"
    r"twelve|fifteen|twenty|thirty|forty|fifty|sixty|hundred|a couple|a dozen|half)\b",
    re.IGNORECASE,
)
# Words that say an amount is not what it was: "I'm down to one cup", "my rent went up to 1350".
_AMOUNT_CHANGE = re.compile(
    r"\b(?:now|these days|nowadays|anymore|any more|down to|up to|back to|went up|gone up|went down|gone down|"
    r"rose|fell|dropped to|increased|decreased|raised|cut (?:down )?to|turned)\b",
    re.IGNORECASE,
)


# "One" standing for a thing, not counting it: "Now the big one: tracking-api.", "this one", "no one".
_PRONOUN_ONE = re.compile(
    r"\b(?:the|this|that|which|each|every|no|any|another)\s+one\b|\bone(?=[ \t]*(?:[:.;!?)]|$))", re.IGNORECASE
)


def amounts(text: str) -> set[str]:
    """The numbers a statement gives, as said ("10", "ten", "58k"); not a "one" that stands for a
    thing ("the big one:", "this one")."""
    return {match.lower().rstrip(".,") for match in _AMOUNT.findall(_PRONOUN_ONE.sub(" ", text))}


# A day or a month by its name ("on Tuesdays", "by April"); "May" is left out, a modal more often than not.
_CALENDAR = re.compile(
    r"\b(?:" + _WEEKDAY + r"|january|february|march|april|june|july|august|september|october|november|december)\b",
    re.IGNORECASE,
)
_FIGURE = re.compile(r"\d")


# Words saying that a statement changes what was so ("the demo is on the 24th now", "I moved the
# timer to 04:30", "base up to £61.5k"), whatever thing it names: read where a whole statement is
# compared in meaning with an earlier one (memory.ingest.updates, memory.search.restatements).
UPDATE_WORDS = re.compile(
    r"\b(?:now|anymore|no longer|changed|changes|switched|moved|updated?|instead|renamed|extended|postponed"
    r"|down to|up to|upped)\b",
    re.IGNORECASE,
)
# "now" after how long something has gone on ("I've been playing for about four months now", "it's been
# down for two days now") tells how long, and "for now" for the time being: neither says anything changed.
_LASTED = re.compile(
    r"\bfor (?:(?:[a-z]+ ){0,3}(?:minute|hour|day|week|month|year|decade|while)s? )?now\b", re.IGNORECASE
)


def says_a_change(text: str) -> bool:
    """``text`` has a word saying something changed (``UPDATE_WORDS``), other than the "now" of how
    long something has lasted or of "for now", or corrects a value (``corrects_a_value``)."""
    return UPDATE_WORDS.search(_LASTED.sub(" ", text)) is not None or corrects_a_value(text)


# A value set right against another it is not: "the trial is 14 days, not 7", "I'm starting the
# rollout at 20%, not 5%", "peak is 1,200 requests per second, not 300", "on Thursday — not Tuesday".
# The right value stands at most this many words before the "not"; a value that follows a "not"
# with no comma or dash before it is a plain denial ("not 5 but 6" is read nowhere).
_CORRECTION_REACH = 6
_DASHES = frozenset("-\u2013\u2014")


def corrects_a_value(text: str) -> bool:
    """``text`` gives a value and, after a comma or a dash, "not" another: a correction of a value
    said before, with no word of change ("the trial is 14 days, not 7")."""
    return bool(corrected_values(text))


def corrected_values(text: str) -> frozenset[str]:
    """The values ``text`` says are wrong, each as its figure or word (``value_key``): "7" of "the
    trial is 14 days, not 7", "5" of "at 20%, not 5%", "tuesday" of "on Thursday — not Tuesday"."""
    words = text.split()
    found = set()
    for index, word in enumerate(words):
        if index == 0 or word.lower() != "not":
            continue
        before = words[index - 1]
        if not (before.endswith(",") or before in _DASHES):
            continue
        after = [w for w in words[index + 1 : index + 3] if w.lower() not in ("a", "an", "the")][:1]
        if after and _a_value(after[0]) and any(_a_value(w) for w in words[max(0, index - _CORRECTION_REACH) : index]):
            found.add(value_key(after[0]))
    return frozenset(found)


_NUMBER = re.compile(r"[0-9][0-9,.:]*")


def value_key(value: str) -> str:
    """What two sayings of one value share: a figure's first number without its separators or
    unit ("7-day", "7" and "7." are "7"; "1,200" is "1200"; "5%" is "5"; "06:30" stays), a word's
    lower case ("Tuesday" is "tuesday")."""
    bare = bare_value(value)
    number = _NUMBER.search(bare)
    return number.group().rstrip(",.:").replace(",", "") if number else bare


def _a_value(word: str) -> bool:
    """A word that gives a value: a figure, a number in words, a day or a month by its name."""
    bare = word.strip(".,;:!?()\"'")
    return _FIGURE.search(bare) is not None or any(p.fullmatch(bare) is not None for p in (_AMOUNT, _CALENDAR))


# A capitalised word inside a sentence names someone or something ("on who can deploy: Kofi
# approves every deploy", "I'm primary, Marek is backup"), unless it opens a sentence, an item or a
# quotation, or stands just before a comma or a sentence's end, where a speaker calls the one they
# talk to by name ("Thanks, Nate!", "Wow John, that's intense").
_NAME_WORD = re.compile(r"\b[A-Z][a-z]+\b")
_OPENERS = frozenset(".!?\n\"'([-*#>|\u2013\u2014")
_CALLING = frozenset(",!.?")


def holds_value(text: str) -> bool:
    """``text`` gives a value a later statement could give otherwise: a figure of any kind (a
    number, a version, a time: "Postgres 16", "/api/v2", "04:30"), a number in words, or a day or
    month by its name ("about eleven minutes", "we ship on Tuesdays"); not a "one" that stands for
    a thing ("Now the big one: tracking-api.")."""
    if _FIGURE.search(text) is not None or _CALENDAR.search(text) is not None:
        return True
    return _AMOUNT.search(text) is not None and bool(amounts(text))


def names_one(text: str) -> bool:
    """``text`` names someone or something inside a sentence, other than one it calls by name: a
    value too, of who or what ("Kofi approves every production deploy", later "Ines approves them
    now"). Read where a question asks who or which (memory.search.restatements), not at ingestion:
    a name is said in passing far more often than a figure ("Back from Easter, and the plan changed")."""
    return next(_names(text), None) is not None


def values(text: str, *, names: bool = False) -> frozenset[str]:
    """The values ``text`` gives, as said, lower-cased: each word holding a figure ("4.5.4",
    "$14,500", "04:30"), a number in words, a day or month by its name, and with ``names`` each name
    (``names_one``): "we're on clap 4.5.4 now" gives "4.5.4", "since Monday my manager is Dev Raman"
    gives "monday", "dev" and "raman"."""
    found = {bare_value(word) for word in text.split() if _FIGURE.search(word) is not None}
    found |= {amount for amount in amounts(text) if _FIGURE.search(amount) is None}  # in words
    found |= {match.lower() for match in _CALENDAR.findall(text)}
    if names:
        found |= {name.lower() for name in _names(text)}
    return frozenset(found)


# A quantity as a value gives it: its figures first, after a sign, a currency or "about" marks ("24",
# "$14,500", "~99%", "3.4s", "61k"). A name holding digits ("pg-prod-02", "replica_slot_1") counts nothing.
_QUANTITY = re.compile(r"[~<>±+\-]?[$€£]?\d")


def is_amount(value: str) -> bool:
    """``value`` (one of ``values``) says how many or how much: a quantity or a number in words, not a
    name holding digits, nor a day's or a month's name."""
    return _QUANTITY.match(value) is not None or _AMOUNT.fullmatch(value) is not None


def bare_value(word: str) -> str:
    """A word as ``values`` gives it: without the marks around it, lower-cased."""
    return word.strip(".,;:!?()[]{}\"'`*").lower()


def _names(text: str) -> Iterator[str]:
    for match in _NAME_WORD.finditer(text):
        before = match.start() - 1
        while before >= 0 and text[before] in " \t":  # each run of spaces is read for one word at most
            before -= 1
        if before < 0 or text[before] in _OPENERS or text[match.end() : match.end() + 1] in _CALLING:
            continue
        if match.group(0) not in NOT_NAMES:
            yield match.group(0)


def says_amount_changed(text: str) -> bool:
    return bool(_AMOUNT_CHANGE.search(text))


def without_amounts(text: str) -> set[str]:
    """The topic words of a statement once its numbers and its words of change are taken out:
    what "alice now runs 10 km" and "alice runs 5 km" both say."""
    return topic_words(_AMOUNT_CHANGE.sub(" ", _AMOUNT.sub(" ", text)))


# --- stances ----------------------------------------------------------------------------------

_SIDES = {line[2:].strip().lower(): 1 if line.startswith("+") else -1 for line in word_list("stances")}
_STANCE = re.compile(
    r"\b(?:" + "|".join(re.escape(words) for words in sorted(_SIDES, key=len, reverse=True)) + r")\b", re.IGNORECASE
)
_STANCE_CUES = re.compile(r"\b(?:these days|nowadays|anymore|any more|actually|again|now)\b", re.IGNORECASE)


def stance(text: str) -> tuple[int, frozenset[str]] | None:
    """Which side a statement takes on what, if it takes one: "alice loves jazz" → (1, {alice,
    jazz}), "alice cannot stand jazz anymore" → (-1, {alice, jazz}). A statement on both sides
    ("loves jazz but hates opera") takes none; a denied one takes the other ("is not into camping")."""
    sides = {_SIDES[words.lower()] for words in _STANCE.findall(text)}
    if len(sides) != 1:
        return None
    side = sides.pop()
    rest = _STANCE_CUES.sub(" ", _STANCE.sub(" ", text))
    if is_negated(rest):
        side = -side
    return side, frozenset(topic_words(NEGATION.sub(" ", rest)))
