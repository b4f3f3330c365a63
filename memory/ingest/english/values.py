"""Values: what a statement says a thing's value is ("our build takes about twelve minutes", "the
staging database is db-3 now", "we deploy on Thursdays now"), so that a later statement giving the
same thing another value is read as its update, however either was stored: a fact extracted from a
message, or a whole turn kept verbatim, whose statements the decision rules never see one by one.

A statement is a thing, a verb and a value. Its key is the thing as named without determiners or
possessives ("our build", "the build" and "build" are one thing) and what qualifies the value ("on
my laptop", "on CI": two keys); the verb is read as its family ("takes" and "took" are one).

Only what the owner's side states now is read: not the assistant's turns, not questions, not
hypotheticals ("if the build took four minutes"), not recollections ("it used to take twelve"),
not code. A message is read word by word, with no pattern that backtracks over its length, and
only its first ``SENTENCES`` sentences of at most ``SENTENCE_CHARS`` characters each: the value a
turn updates is said early and briefly, and hostile text costs a bounded time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memory.ingest.english.sentences import prose_lines

SENTENCES = 12
SENTENCE_CHARS = 300
READ_CHARS = 8000  # of a message, before its code is left out
THING_WORDS = 5
VALUE_WORDS = 8


def _words(text: str) -> frozenset[str]:
    """A word list written as one string, a word at each space."""
    return frozenset(_in_order(text))


def _in_order(text: str) -> list[str]:
    return text.split()


# A verb that changes a value fits a value said with any verb: "the build is down to four minutes"
# updates "the build takes twelve minutes".
CHANGED = "*"

_INLINE_CODE = re.compile(r"`[^`\n]{0,300}`")
_SENTENCE_END = re.compile(
    r"(?<!\bMr\.)(?<!\bMrs\.)(?<!\bMs\.)(?<!\bDr\.)(?<!\bSt\.)(?<!\bvs\.)(?<!\be\.g\.)(?<!\bi\.e\.)(?<=[.!?])\s+"
)
_NUMBER_AND_UNIT = re.compile(r"(\d[\d.]*)(gb|mb|kb|tb|ms|s|h|hrs?|mins?|secs?)")  # "2gb", "30s"
_MAY = re.compile(r"\bmay\b")  # the modal, not the month
_LABEL = re.compile(r"^\s*(?P<label>(?i:user|assistant|system|me|ai|bot)|[A-Z][\w'\-]*(?:\s[A-Z][\w'\-]*){0,2}):\s+")
_NOT_THE_OWNERS_SIDE = frozenset({"assistant", "system", "ai", "bot"})
_EDGE_PUNCTUATION = "\"'([{*_<>"
_ENDING_PUNCTUATION = ".,;:!?\"')]}*_<>"
_CLAUSE_PUNCTUATION = frozenset(",;:!?.)")
_ABBREVIATIONS = frozenset({"mr", "mrs", "ms", "dr", "st", "vs", "etc", "e.g", "i.e", "approx", "no"})

# The verb families a thing's value is said with, and whether the form is past.
_THING_VERBS = {
    "is": ("is", False), "are": ("is", False), "was": ("is", True), "were": ("is", True),
    "takes": ("takes", False), "take": ("takes", False), "took": ("takes", True),
    "costs": ("costs", False), "cost": ("costs", False),
    "lasts": ("lasts", False), "lasted": ("lasts", True),
    "runs": ("runs", False), "ran": ("runs", True),
    "starts": ("starts", False), "started": ("starts", True), "begins": ("starts", False), "began": ("starts", True),
    "ends": ("ends", False), "ended": ("ends", True), "finishes": ("ends", False), "finished": ("ends", True),
    "opens": ("opens", False), "opened": ("opens", True), "closes": ("closes", False), "closed": ("closes", True),
    "weighs": ("weighs", False), "weighed": ("weighs", True),
    "allows": ("allows", False), "allowed": ("allows", True),
    "expires": ("expires", False), "expired": ("expires", True),
}  # fmt: skip
# What someone (we, the team) does on a schedule or at a rate: "we deploy on Thursdays now".
_ACTION_VERBS = {
    "deploy": ("deploy", False), "deploys": ("deploy", False), "deployed": ("deploy", True),
    "release": ("release", False), "releases": ("release", False), "released": ("release", True),
    "ship": ("ship", False), "ships": ("ship", False), "shipped": ("ship", True),
    "meet": ("meet", False), "meets": ("meet", False), "met": ("meet", True),
    "pay": ("pay", False), "pays": ("pay", False), "paid": ("pay", True),
}  # fmt: skip
# Verbs whose value a thing has one of at a time (its size, duration, price): a plain later one is
# an update. A service "runs on port 9000" and on 9001 too, a team deploys on two days.
_ONE_AT_A_TIME = frozenset({"is", "takes", "costs", "lasts", "weighs"})
ACTION_FAMILIES = frozenset(family for family, _ in _ACTION_VERBS.values())
# The family of each verb's base form, as "does not run" says it: every family above, by its own form.
_BASE_FORMS = {
    "take": "takes", "cost": "costs", "last": "lasts", "run": "runs", "start": "starts", "begin": "starts",
    "end": "ends", "finish": "ends", "open": "opens", "close": "closes", "weigh": "weighs", "allow": "allows",
    "expire": "expires", "deploy": "deploy", "release": "release", "ship": "ship", "meet": "meet", "pay": "pay",
}  # fmt: skip
# "went up to", "dropped from twelve to four", "was raised to": a change, whatever the verb of the old value.
_CHANGE_HEADS = _words(
    "went goes go dropped drops rose rises fell falls grew grows climbed jumped increased decreased changed changes "
    "moved switched shrank doubled halved tripled"
)
_CHANGED_PARTICIPLES = _words(
    "raised lowered increased reduced cut bumped set changed moved dropped extended shortened upped capped "
    "switched updated pushed postponed delayed rescheduled brought"
)
_DO = frozenset({"does", "do", "did"})
_CHANGERS = _words("we i they someone he she ops devops finance")
_DETERMINERS = _words("the our my your their his her its this that these those a an")
_PRONOUNS = _words("i we you they it he she this that there here what which who everything something")
_THING_JOINS = frozenset({"of", "in", "on", "for"})
# Determiners before a thing a sentence names in passing, and words after which it has ended.
_NAMING = _words("the our my your their his her")
_NAMED_ENDS = _words("like again yet either")
_PREPOSITIONS = _words(
    "of in on at for with from by into onto about over under off through across behind near inside without around "
    "between after before during like to than"
)
_CARRIED = frozenset({"it", "they", "that", "this"})  # a thing named in the statement before
# Words that never belong to a named thing: the walk back from the verb stops at them.
_NOT_THING = _words(
    "and but or so because since though although while whereas which who when whenever after before until unless "
    "then plus as if to in on at for with from by into onto about over under than is are was were be been has have "
    "had do does did not no yes ok okay well also too now still just only actually currently usually typically "
    "normally generally finally already officially apparently really always even think guess know said says "
    "seems say tell told"
)
_BETWEEN_THING_AND_VERB = _words(
    "now currently still also usually typically normally generally actually finally only just already officially "
    "apparently really always even"
)
# Be-statements about these alone say what something is like, not a value: "the problem is that …"
# (a "daily step goal" is a thing).
_GENERIC_THINGS = _words(
    "problem issue question thing point idea reason answer trick difference catch fix solution result truth goal "
    "hope worry concern option way plan error bug news deal rule nice part best worst"
)
_BEFORE_VALUE = _words(
    "now currently still usually typically normally generally always already officially finally actually only just "
    "about around roughly approximately nearly almost like ~"
)
_NOT_A_VALUE = _words(
    "that what how why whether to being going gonna supposed sure because also not it this them me you us him her "
    "there here one something anything nothing everything so very too really wrong right true false correct "
    "incorrect fine good bad great ok okay nice awesome cool"
)
_VALUE_ENDS = _words(
    "and but or so because since though although while whereas which who when whenever after before until unless "
    "then plus as if now anymore instead again too thanks lol nowadays yesterday today tonight recently lately"
)
# After "and" or a comma these begin another clause; anything else continues a list of values.
_CLAUSE_STARTS = _DETERMINERS | _PRONOUNS | _VALUE_ENDS | _BETWEEN_THING_AND_VERB
_CLAUSE_STARTS |= _words("so yay nice great cool ok okay much way huge big which")
_ASIDES = frozenset(
    tuple(phrase.split())
    for phrase in (
        "on average", "in total", "in general", "at most", "at least", "for now", "right now", "at the moment",
        "at present", "these days", "on a good day", "for the moment", "in practice", "all in all", "or so",
    )
)  # fmt: skip
_QUALIFIERS = _words("on in at with for under during via using over when")
_DROPPED_FROM_VALUE = _words("the a an per each every about around roughly approximately nearly almost like ~")
_HEDGES = _words(
    "if would could might should will shall unless suppose supposing imagine imagined wish hope hopefully assume "
    "assuming expect expected ideally theoretically maybe perhaps probably guess think wonder gonna can cannot "
    "must"
)
_QUESTION_STARTS = _words(
    "is are was were does do did can could would will should shall what how why when where which who whom"
)
_RECOLLECTION = _words("previously formerly originally ago")
_RECOLLECTION_PAIRS = frozenset({"used to", "back then", "back when", "at first", "the past", "last time", "last year"})
_RECOLLECTION_PAIRS |= frozenset({"last month", "last week", "last night", "before that"})
_MARKERS = frozenset({"now", "nowadays", "since", "anymore", "instead"})
_MARKER_PAIRS = frozenset({"no longer", "these days", "any more", "as of"})
_ADDITIVE = frozenset({"also", "too", "another", "additionally", "plus", "both", "either"})
_ADDITIVE_PAIRS = frozenset({"as well", "in addition", "on top"})
_CONTRACTIONS = {
    "it's": ["it", "is"], "that's": ["that", "is"], "there's": ["there", "is"], "what's": ["what", "is"],
    "here's": ["here", "is"], "who's": ["who", "is"], "he's": ["he", "is"], "she's": ["she", "is"],
    "we're": ["we", "are"], "they're": ["they", "are"], "you're": ["you", "are"], "i'm": ["i", "am"],
    "isn't": ["is", "not"], "aren't": ["are", "not"], "wasn't": ["was", "not"], "weren't": ["were", "not"],
    "doesn't": ["does", "not"], "don't": ["do", "not"], "didn't": ["did", "not"], "won't": ["will", "not"],
    "can't": ["can", "not"], "we've": ["we", "have"], "i've": ["i", "have"], "hasn't": ["has", "not"],
    "i'd": ["i", "would"], "we'd": ["we", "would"], "you'd": ["you", "would"], "they'd": ["they", "would"],
    "it'd": ["it", "would"], "i'll": ["i", "will"], "we'll": ["we", "will"], "it'll": ["it", "will"],
    "they'll": ["they", "will"], "you'll": ["you", "will"],
}  # fmt: skip
_NUMBERS = {
    word: str(n)
    for n, word in enumerate(
        _in_order(
            "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
            "seventeen eighteen nineteen twenty"
        )
    )
}
_UNITS = {"min": "minute", "mins": "minute", "sec": "second", "secs": "second", "s": "second"}
_UNITS.update({"hr": "hour", "hrs": "hour", "h": "hour"})
_NUMBERS.update({"thirty": "30", "forty": "40", "fifty": "50", "sixty": "60", "ninety": "90", "hundred": "100"})


@dataclass(frozen=True)
class ValueStatement:
    """A thing's value as one statement says it."""

    thing: str  # "build", "staging database", "we"
    verb: str  # the family: "is", "takes", "deploy"; CHANGED for "went up to", "is down to"
    value: str  # "4 minute", "db-3", "on thursday"
    qualifier: str = ""  # "on laptop": the value holds there, and is another key
    marked: bool = False  # says it updates: "now", "since", "no longer", "went up to", "from X to Y"
    past: bool = False  # "took", "was": an earlier value, never an update of one
    denied: bool = False  # "is no longer db-2": the value stops holding, none is given
    additive: bool = False  # "we also deploy on Mondays": beside the other values, not instead

    @property
    def key(self) -> str:
        return f"{self.thing}|{self.qualifier}"


@dataclass(frozen=True)
class HeldValue:
    """A value a stored memory holds for a key (``ValueStatement.key``)."""

    verb: str
    value: str
    past: bool = False

    def as_list(self) -> list:
        return [self.verb, self.value, self.past]


def read_values(text: str, subject: str = "") -> list[ValueStatement]:
    """The value statements of ``text`` in the order said; ``subject``: whose "subject's build" is
    "my build" (the owner, or the speaker of a transcript's line)."""
    said = _owners_side(text)
    if said is None:
        return []
    found: list[ValueStatement] = []
    carried = _Carried()
    units: dict[str, str] = {}  # a thing's last unit, for "from twelve minutes to four"
    for sentence in statements_of(said)[:SENTENCES]:
        if len(sentence) > SENTENCE_CHARS or sentence.endswith("?") or _MAY.search(sentence):
            continue
        found.extend(_read_sentence(_tokens(sentence), subject.lower(), carried, units))
    return found


def held_values(statements: list[ValueStatement]) -> dict[str, HeldValue]:
    """What the statements leave each key holding: the last value said of it."""
    held: dict[str, HeldValue] = {}
    for statement in statements:
        if statement.denied:
            held.pop(statement.key, None)
        else:
            held[statement.key] = HeldValue(statement.verb, statement.value, statement.past)
    return held


def replaces(new: ValueStatement, old: HeldValue) -> bool:
    """Whether ``new`` updates the value ``old`` of the same key. With a marker ("now", "since",
    "no longer", "went up to"), any other value does; without one, only a present quantity or
    identifier said with the same verb, one whose value a thing has one of at a time ("my rent is
    1,200 a month" → "my rent is 1,350 a month"; not "runs on port 9000" → "runs on port 9001").
    Never an addition, a past value, or the same value."""
    if new.past or new.additive or not _same_family(new.verb, old.verb):
        return False
    if new.denied:  # "isn't db-2 anymore"; a bare "isn't db-2" may be a correction, not an update
        return new.marked and new.value == old.value
    if new.value == old.value:
        return False
    if new.marked:
        return True
    plain = new.verb in _ONE_AT_A_TIME and not old.past
    return plain and _is_quantity(new.value) and _is_quantity(old.value)


def stated(text: str) -> str:
    """What ``text`` states, on the owner's side: its sentences outside code that are no question
    (nothing for the assistant's turns). A number in code or in a question changes no value."""
    said = _owners_side(text)
    if said is None:
        return ""
    kept = []
    for sentence in statements_of(said):
        words = sentence.lower().split()
        if sentence.endswith("?") or (words and words[0] in _QUESTION_STARTS):
            continue
        kept.append(sentence)
    return " ".join(kept)


def statements_of(text: str) -> list[str]:
    """The sentences of ``text`` outside code: fenced blocks, inline code and code-like lines."""
    sentences: list[str] = []
    for line in prose_lines(text[:READ_CHARS]):
        line = _INLINE_CODE.sub(" ", line)
        sentences.extend(s.strip() for s in _SENTENCE_END.split(line.strip()) if s.strip())
    return sentences


def said_by_the_assistant(text: str) -> bool:
    """Whether ``text`` is a turn of the assistant's (or the system's): "assistant: …"."""
    label = _LABEL.match(text)
    return label is not None and label["label"].lower() in _NOT_THE_OWNERS_SIDE


def _owners_side(text: str) -> str | None:
    """The text without its speaker's label; None when the assistant (or the system) said it."""
    label = _LABEL.match(text)
    if label is None:
        return text
    return None if said_by_the_assistant(text) else text[label.end() :]


def _same_family(new: str, old: str) -> bool:
    return new == old or CHANGED in (new, old)


def _is_quantity(value: str) -> bool:
    return any(character.isdigit() for character in value)


@dataclass
class _Token:
    word: str  # lowercased, without edge punctuation
    ends_clause: bool = False  # a comma, a full stop … after it


def _tokens(sentence: str) -> list[_Token]:
    tokens: list[_Token] = []
    for raw in sentence.replace("\u2019", "'").split():
        word = raw.lstrip(_EDGE_PUNCTUATION)
        stripped = word.rstrip(_ENDING_PUNCTUATION)
        stripped = stripped.lower()
        ends = any(c in _CLAUSE_PUNCTUATION for c in word[len(stripped) :]) and stripped not in _ABBREVIATIONS
        if not stripped:
            if tokens and ends:
                tokens[-1].ends_clause = True
            continue
        parts = _CONTRACTIONS.get(stripped, [stripped])
        tokens.extend(_Token(part) for part in parts)
        tokens[-1].ends_clause = ends
    return tokens


def _read_sentence(tokens: list[_Token], subject: str, carried: _Carried, units: dict) -> list[ValueStatement]:
    words = [t.word for t in tokens]
    if not words or words[0] in _QUESTION_STARTS or _HEDGES.intersection(words):
        return []
    pairs = {f"{a} {b}" for a, b in zip(words, words[1:], strict=False)}
    marked = bool(_MARKERS.intersection(words) or _MARKER_PAIRS & pairs)
    additive = bool(_ADDITIVE.intersection(words) or _ADDITIVE_PAIRS & pairs)
    found = []
    for clause in _clauses(tokens):
        statement = _read_clause(clause, subject, carried, units)
        if statement is None:
            continue
        clause_words = [t.word for t in clause]
        clause_pairs = {f"{a} {b}" for a, b in zip(clause_words, clause_words[1:], strict=False)}
        if _RECOLLECTION.intersection(clause_words) or _RECOLLECTION_PAIRS & clause_pairs:
            continue  # "it used to take twelve minutes": named, for "it" after it, but no value now
        marked_here = marked or statement.marked
        found.append(_with(statement, marked=marked_here, additive=additive))
    if not carried.thing and (named := _named_last(words)):
        carried.thing, carried.in_passing = named, True
    return found


@dataclass
class _Carried:
    """The last thing named, for "it" and "they" in the clauses after it: a thing a value was said
    of, or else the last one a sentence named in passing ("I dug out my contract to check the
    notice period. It's three months"). A thing a value was said of keeps "it": "The build takes
    twelve minutes. I cached the images. It takes four now" (the build). Of a thing named in
    passing, "it" must give a quantity: "It's been tough" is said of no thing."""

    thing: str = ""
    in_passing: bool = False


def _named_last(words: list[str]) -> str:
    """The last thing a sentence names after a determiner; "" when it names none."""
    for start in range(len(words) - 2, -1, -1):
        if words[start] not in _NAMING or (start > 0 and words[start - 1] in _PREPOSITIONS):
            continue  # a place or a companion ("on the Pi", "with my sister") is not what "it" says
        named: list[str] = []
        for word in words[start + 1 : start + 1 + THING_WORDS]:
            if not _thing_word(word) or word in _VALUE_ENDS or word in _NAMED_ENDS or (named and word.endswith("ed")):
                break  # "our two access points used to run there": a verb's form after it ends it
            named.append(word)
        if named:
            return " ".join([*named[:-1], _singular(named[-1])])
    return ""


def _with(statement: ValueStatement, *, marked: bool, additive: bool) -> ValueStatement:
    return ValueStatement(
        thing=statement.thing,
        verb=statement.verb,
        value=statement.value,
        qualifier=statement.qualifier,
        marked=marked,
        past=statement.past,
        denied=statement.denied,
        additive=additive,
    )


def _clauses(tokens: list[_Token]) -> list[list[_Token]]:
    """Clauses end at a comma or a stop and before a linking word that begins another ("and the
    tests take two", "since we cached the images"); "from X to Y" stays whole."""
    clauses: list[list[_Token]] = [[]]
    for index, token in enumerate(tokens):
        following = tokens[index + 1].word if index + 1 < len(tokens) else ""
        starts_another = token.word in ("and", "but", "or") and following in _CLAUSE_STARTS
        if token.word in ("because", "since", "so", "but", "which", "though", "although", "while") or starts_another:
            clauses.append([])
            continue
        clauses[-1].append(token)
        if token.ends_clause and following in _CLAUSE_STARTS | {""}:
            clauses.append([])
    return [clause for clause in clauses if clause]


@dataclass(frozen=True)
class _Verb:
    at: int  # where the verb begins
    value_at: int  # where its value begins
    family: str
    past: bool = False
    denied: bool = False
    marked: bool = False
    old_value_at: int | None = None  # "from X to Y": where X begins


def _read_clause(clause: list[_Token], subject: str, carried: _Carried, units: dict) -> ValueStatement | None:
    words = [t.word for t in clause]
    changed = _changed_by_someone(words, subject)
    if changed is not None:
        carried.thing, carried.in_passing = changed[0], False
        return _statement(clause, changed[1], changed[0], units)
    for index in range(len(words)):
        verb = _verb_at(words, index)
        found = _thing_before(words, verb, subject, carried) if verb is not None else None
        if verb is None or found is None:
            continue
        named, by_pronoun = found
        statement = _statement(clause, verb, named, units)
        if by_pronoun and carried.in_passing and (statement is None or not _is_quantity(statement.value)):
            continue  # "It's nice to know, dance is still your happy place": the next verb may say one
        carried.thing, carried.in_passing = named, False
        return statement
    return None


def _verb_at(words: list[str], i: int) -> _Verb | None:
    word, following = words[i], words[i + 1 : i + 4]
    if word in ("is", "are", "was", "were") or (word in ("has", "have") and following[:1] == ["been"]):
        return _be(words, i)
    if word in _DO and following[:1] == ["not"] and len(following) > 1 and following[1] in _BASE_FORMS:
        return _Verb(i, i + 3, _BASE_FORMS[following[1]], denied=True)
    if word in _THING_VERBS or word in _ACTION_VERBS:
        family, past = _THING_VERBS.get(word) or _ACTION_VERBS[word]
        return _Verb(i, i + 1, family, past=past)
    if word in _CHANGE_HEADS:
        return _change(words, i, i + 1)
    return None


def _be(words: list[str], i: int) -> _Verb | None:
    start = i + 2 if words[i] in ("has", "have") else i + 1
    past = words[i] in ("was", "were")
    rest = words[start : start + 3]
    if rest[:2] == ["no", "longer"]:
        return _Verb(i, start + 2, "is", denied=True, marked=True)
    if rest[:1] == ["not"]:
        return _Verb(i, start + 1, "is", denied=True)
    skip = 1 if rest[:1] in (["now"], ["currently"]) else 0
    rest = rest[skip:]
    if rest[:1] in (["down"], ["up"]) and rest[1:2] == ["to"]:
        return _Verb(i, start + skip + 2, CHANGED, marked=True)
    if rest[:1] and rest[0] in _CHANGED_PARTICIPLES:
        return _change(words, i, start + skip + 1)
    return _Verb(i, start, "is", past=past)


def _change(words: list[str], i: int, after: int) -> _Verb | None:
    """A change and where its value begins: went up to 500, dropped from twelve minutes to four, was
    raised to 30 seconds."""
    rest = words[after : after + 2]
    if rest[:1] in (["up"], ["down"], ["back"], ["over"]):
        after += 1
        rest = words[after : after + 1]
    if rest[:1] == ["to"]:
        return _Verb(i, after + 1, CHANGED, marked=True)
    if rest[:1] == ["from"] and "to" in words[after + 1 :]:
        to = words.index("to", after + 1)
        return _Verb(i, to + 1, CHANGED, marked=True, old_value_at=after + 1)
    return None


def _changed_by_someone(words: list[str], subject: str) -> tuple[str, _Verb] | None:
    """ "We bumped the API limit to 500": someone changed a thing's value to another."""
    for index, word in enumerate(words[1:4], start=1):
        if word not in _CHANGED_PARTICIPLES or words[index - 1] not in _CHANGERS:
            continue
        if "to" not in words[index + 1 : index + 2 + THING_WORDS]:
            return None
        to = words.index("to", index + 1)
        named = [w for w in words[index + 1 : to] if w not in _DETERMINERS and w != f"{subject}'s"]
        if not named or any(w in _NOT_THING or w in _PRONOUNS for w in named):
            return None
        thing = " ".join([*named[:-1], _singular(named[-1])])
        return thing, _Verb(index, to + 1, CHANGED, marked=True)
    return None


def _thing_before(words: list[str], verb: _Verb, subject: str, carried: _Carried) -> tuple[str, bool] | None:
    """The thing the words before the verb name, walking back from it: "the staging database",
    "our CI build", "the size of the cache"; "we" for what we do; the last thing for "it" (and
    then True: named by a pronoun)."""
    end = verb.at
    while end > 0 and (words[end - 1] in _BETWEEN_THING_AND_VERB or words[max(end - 2, 0) : end] == ["used", "to"]):
        end -= 2 if words[end - 1] == "to" else 1
    if end == 0:
        return None
    collected: list[str] = []
    index = end - 1
    while index >= 0 and len(collected) < THING_WORDS:
        word = words[index]
        if word in _THING_JOINS and collected and index > 0 and _thing_word(words[index - 1]):
            collected.insert(0, word)  # "the python version in production"
            index -= 1
            continue
        if word in _DETERMINERS or (subject and word == f"{subject}'s"):
            if index > 1 and words[index - 1] in _THING_JOINS and _thing_word(words[index - 2]):
                collected.insert(0, words[index - 1])  # "the interest rate on my loan"
                index -= 2
                continue
            break
        if not _thing_word(word):
            break
        collected.insert(0, word)
        index -= 1
    if not collected:
        pronoun = _pronoun_thing(words[end - 1], verb, carried)
        return (pronoun, pronoun != "we") if pronoun else None
    if verb.family == "is" and len(collected) == 1 and collected[0] in _GENERIC_THINGS:
        return None
    return " ".join(_singular(w) if n == len(collected) - 1 else w for n, w in enumerate(collected)), False


def _thing_word(word: str) -> bool:
    return word not in _NOT_THING and word not in _PRONOUNS and word not in _DETERMINERS and word[:1].isalnum()


def _pronoun_thing(word: str, verb: _Verb, carried: _Carried) -> str | None:
    if word in ("we", "i") and verb.family in ACTION_FAMILIES:
        return "we"  # what the owner's side does: "I deploy" and "we deploy" alike
    if word in _CARRIED and carried.thing and verb.family not in ACTION_FAMILIES:
        return carried.thing
    return None


def _statement(clause: list[_Token], verb: _Verb, thing: str, units: dict) -> ValueStatement | None:
    words = [t.word for t in clause]
    start = verb.value_at
    while start < len(words) and words[start] in _BEFORE_VALUE:
        start += 1
    value_words = _value_words(clause, start)
    if not value_words or value_words[0] in _NOT_A_VALUE or _progressive(value_words[0]):
        return None
    head, qualifier = _split_qualifier(_without_asides(value_words))
    value = _normal_value(head)
    if verb.old_value_at is not None:
        old = _normal_value(words[verb.old_value_at : words.index("to", verb.old_value_at)])
        value = _with_unit(value, old)
    value = _with_unit(value, units.get(thing, ""))
    units[thing] = value
    if not value:
        return None
    return ValueStatement(
        thing=thing,
        verb=verb.family,
        value=value,
        qualifier=_normal_thing(qualifier),
        marked=verb.marked,
        past=verb.past,
        denied=verb.denied,
    )


def _value_words(clause: list[_Token], start: int) -> list[str]:
    """The value's words: up to the clause's end or a word that ends a value; none when it is a
    list ("on Mondays and Thursdays", "db-2, db-3"): a thing with several values is not updated."""
    collected: list[str] = []
    for index in range(start, len(clause)):
        word = clause[index].word
        if word in _VALUE_ENDS or len(collected) == VALUE_WORDS:
            following = clause[index + 1].word if index + 1 < len(clause) else ""
            if word in ("and", "or") and following and following not in _CLAUSE_STARTS:
                return []
            break
        collected.append(word)
        if clause[index].ends_clause:
            # The clause goes on after a comma only for a list of values ("db-2, db-3"), or for the
            # value it is not ("three months, not one").
            following = clause[index + 1].word if index + 1 < len(clause) else "not"
            return collected if following == "not" else []
    return collected


def _progressive(word: str) -> bool:
    """Whether a value's first word says what the thing is doing ("failing"), not a value."""
    return word.endswith("ing") and not any(c.isdigit() for c in word)


def _without_asides(words: list[str]) -> list[str]:
    """The value's words without the phrases that qualify nothing: "on average", "at the moment"."""
    kept: list[str] = []
    index = 0
    while index < len(words):
        length = next((n for n in (3, 2) if tuple(words[index : index + n]) in _ASIDES), 0)
        if length:
            index += length
            continue
        kept.append(words[index])
        index += 1
    return kept


def _split_qualifier(words: list[str]) -> tuple[list[str], list[str]]:
    """The value and what qualifies it: "four minutes on my laptop" is four minutes on my laptop;
    "on Thursdays" is a value."""
    for index in range(1, len(words)):
        at_a_time = index + 1 < len(words) and any(c.isdigit() for c in words[index + 1])
        if words[index] in _QUALIFIERS and not at_a_time:  # "next Friday at 3pm" is one value
            return words[:index], words[index:]
    return words, []


def _normal_value(words: list[str]) -> str:
    kept: list[str] = []
    for word in words:
        if word in _DROPPED_FROM_VALUE:
            continue
        joined = _NUMBER_AND_UNIT.fullmatch(word)
        if joined:
            kept.extend([joined[1], _UNITS.get(joined[2], joined[2])])
            continue
        word = _NUMBERS.get(word) or _UNITS.get(word) or word
        if word[:1] in "$€£" or word[:1].isdigit():
            word = word.replace(",", "")
        kept.append(_singular(word))
    return " ".join(kept)


def _with_unit(value: str, other: str) -> str:
    """The value with the unit said before it when it is a bare number: "four" after "twelve
    minutes" is "4 minute"."""
    parts = other.split()
    if value.isdigit() and len(parts) > 1 and parts[0].replace(".", "").isdigit():
        return f"{value} {' '.join(parts[1:])}"
    return value


def _normal_thing(words: list[str]) -> str:
    return " ".join(w for w in words if w not in _DETERMINERS)


def _singular(word: str) -> str:
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")) and word.isalpha():
        return word[:-1]
    return word
