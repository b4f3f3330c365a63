"""Deterministic reading of English statements: sentences, first-person attribution,
memory type, entities, single-valued attributes, negation and change cues.

It is what the server uses when no LLM is configured, and what fills in facets
an LLM did not give. Rules are plain and predictable on purpose: the same message
always yields the same atoms, so a repeated call deduplicates exactly.
"""

from __future__ import annotations

import re

from memory.ingest.atoms import Attribute, Change, EntityRef

# --- sentences -------------------------------------------------------------------------

_ABBREVIATIONS = (
    r"(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\bMr\.)(?<!\bMrs\.)(?<!\bMs\.)(?<!\bDr\.)(?<!\bvs\.)(?<!\betc\.)(?<!\bSt\.)"
)
_SENTENCE_END = re.compile(
    _ABBREVIATIONS + r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9])"
    r"|(?<=[!?])\s+(?=\w)"
    r"|(?<=\.)\s+(?=(?:thanks|thank you|ok|okay|cool|great|bye|cheers|lol)\b)"
)


def split_sentences(text: str) -> list[str]:
    sentences: list[str] = []
    for block in re.split(r"\n\s*\n|\n(?=\s*(?:[-*•]|\d+[.)])\s)", text):
        block = re.sub(r"^\s*(?:[-*•]|\d+[.)])\s+", "", block.strip())
        for line in block.split("\n") if _looks_like_list(block) else [block]:
            sentences.extend(part.strip() for part in _SENTENCE_END.split(line.strip()) if part.strip())
    return sentences


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


# --- splitting incoherent sentences ----------------------------------------------------

_CLAUSE_SUBJECT = r"(?:I|I'm|I've|I'll|I'd|my|My|we|We|we're|[A-Z][a-z]+)\b"
_AND_SPLIT = re.compile(r"(?:,\s*|\s+)(?:and|but)\s+(?=" + _CLAUSE_SUBJECT + r"\s+\w)|;\s+(?=\w)")
_BECAUSE_SPLIT = re.compile(r",?\s+(?:because|since|as)\s+(?=" + _CLAUSE_SUBJECT + r")")


def split_clauses(sentence: str) -> list[tuple[str, str | None]]:
    """Split a sentence whose parts each have their own subject.

    Returns (clause, link) pairs; link is ``"BECAUSE"`` when the clause is the reason
    for the one before it.
    """
    parts: list[tuple[str, str | None]] = []
    for piece in _AND_SPLIT.split(sentence):
        reason = _BECAUSE_SPLIT.split(piece, maxsplit=1)
        parts.append((reason[0].strip(), None))
        if len(reason) == 2 and _has_subject(reason[1]):
            parts.append((reason[1].strip(), "BECAUSE"))
        elif len(reason) == 2:
            parts[-1] = (piece.strip(), None)
    return [(_tidy(clause), link) for clause, link in parts if len(clause.split()) >= 2]


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


# --- first-person attribution -----------------------------------------------------------

_MODALS = {"can", "could", "should", "must", "might", "may", "would", "will", "shall", "need", "ought"}
_ADVERBS = {
    "also",
    "always",
    "never",
    "usually",
    "often",
    "sometimes",
    "really",
    "still",
    "now",
    "just",
    "actually",
    "mostly",
    "generally",
    "rarely",
    "seldom",
    "currently",
    "definitely",
    "probably",
    "finally",
    "already",
    "honestly",
    "totally",
    "absolutely",
    "mainly",
    "only",
    "even",
    "recently",
    "no",
    "longer",
    "basically",
}
_PAST_IRREGULAR = {
    "went",
    "had",
    "was",
    "were",
    "got",
    "made",
    "took",
    "came",
    "saw",
    "said",
    "met",
    "left",
    "bought",
    "built",
    "began",
    "knew",
    "thought",
    "felt",
    "found",
    "gave",
    "told",
    "wrote",
    "ran",
    "became",
    "kept",
    "lost",
    "paid",
    "sent",
    "spent",
    "won",
    "ate",
    "drank",
    "drove",
    "flew",
    "grew",
    "spoke",
    "taught",
    "understood",
    "wore",
    "broke",
    "chose",
    "forgot",
    "heard",
    "held",
    "led",
    "meant",
    "sold",
    "sat",
    "slept",
    "stood",
    "threw",
    "woke",
    "did",
    "quit",
    "put",
    "set",
    "cut",
    "hit",
    "let",
    "shut",
    "read",
    "used",
    "moved",
    "lived",
}
_IRREGULAR_PRESENT = {"have": "has", "be": "is", "do": "does", "go": "goes", "am": "is"}


def third_person(verb: str) -> str:
    lowered = verb.lower()
    if lowered in _IRREGULAR_PRESENT:
        return _IRREGULAR_PRESENT[lowered]
    if lowered in _MODALS or lowered in _PAST_IRREGULAR or lowered.endswith("ed") or not lowered.isalpha():
        return verb
    if re.search(r"(s|sh|ch|x|z|o)$", lowered):
        return verb + "es"
    if re.search(r"[^aeiou]y$", lowered):
        return verb[:-1] + "ies"
    return verb + "s"


_CONTRACTIONS = [
    (r"\bI'm\b|\bI am\b", "{s} is"),
    (
        r"\bI've\b|\bI have\b(?=\s+(?:been|had|got|done|made|never|always|lived|worked|used|seen|a|an|the|no|two|three|\d))",
        "{s} has",
    ),
    (r"\bI'll\b|\bI will\b", "{s} will"),
    (r"\bI'd\b", "{s} would"),
    (r"\bI don't\b|\bI do not\b", "{s} does not"),
    (r"\bI didn't\b|\bI did not\b", "{s} did not"),
    (r"\bI can't\b|\bI cannot\b", "{s} cannot"),
    (r"\bI won't\b", "{s} will not"),
    (r"\bI wasn't\b|\bI was not\b", "{s} was not"),
    (r"\bI was\b", "{s} was"),
]
_I_VERB = re.compile(r"\bI((?:\s+(?:" + "|".join(sorted(_ADVERBS)) + r"))*)\s+([A-Za-z]+)")


def attribute_first_person(sentence: str, subject: str) -> str:
    """'I moved to Berlin' → 'alice moved to Berlin'; 'my sister' → "alice's sister"."""
    text = sentence
    for pattern, replacement in _CONTRACTIONS:
        text = re.sub(pattern, replacement.format(s=subject), text)
    text = _I_VERB.sub(lambda m: f"{subject}{m.group(1)} {third_person(m.group(2))}", text)
    text = re.sub(r"\b[Mm]y\b|\bmine\b", f"{subject}'s", text)
    text = re.sub(r"\bme\b|\bmyself\b", subject, text)
    text = re.sub(r"\bI\b", subject, text)
    return text


def is_first_person(sentence: str) -> bool:
    return bool(re.search(r"\b(?:I|I'm|I've|I'll|I'd|me|my|mine|myself)\b", sentence))


# --- memory type --------------------------------------------------------------------------

_IMPERATIVES = (
    "run",
    "install",
    "use",
    "click",
    "open",
    "set",
    "add",
    "remove",
    "call",
    "restart",
    "deploy",
    "create",
    "delete",
    "configure",
    "type",
    "press",
    "make sure",
    "ensure",
    "check",
    "build",
    "push",
    "pull",
    "start",
    "stop",
    "update",
    "upgrade",
    "copy",
    "move",
    "enable",
    "disable",
    "export",
    "import",
    "edit",
    "never",
    "always",
    "don't",
    "do not",
    "avoid",
    "first",
    "to ",
)
_TYPE_RULES: list[tuple[str, re.Pattern[str]]] = [
    (
        "decision",
        re.compile(
            r"\b(?:decided|decide to|we'?ll go with|we will go with|chose|chosen|settled on|agreed (?:to|on)|opted for|going with|picked)\b"
        ),
    ),
    (
        "goal",
        re.compile(
            r"\b(?:wants? to|plans? to|planning (?:to|on)|hopes? to|aims? to|goal is|intends? to|would like to|'d like to|trying to|dreams? of|going to|saving (?:up )?for)\b"
        ),
    ),
    (
        "preference",
        re.compile(
            r"\b(?:likes?|loves?|prefers?|preferred|favou?rite|enjoys?|hates?|dislikes?|can't stand|cannot stand|fan of|rather|allergic|vegetarian|vegan)\b"
        ),
    ),
    (
        "skill",
        re.compile(
            r"\b(?:can (?:speak|code|program|play|cook|drive|swim|read|write)|knows? how to|good at|skilled|proficient|fluent|experienced (?:in|with)|expert (?:in|at)|years of experience|certified|speaks)\b"
        ),
    ),
    (
        "opinion",
        re.compile(
            r"\b(?:i think|i believe|i feel|thinks|believes|in (?:my|\w+'s) opinion|i guess|seems to me|overrated|underrated|the best|the worst|should)\b"
        ),
    ),
    (
        "event",
        re.compile(
            r"\b(?:yesterday|today|tonight|tomorrow|last (?:week|month|year|night|\w+day)|next (?:week|month|year|\w+day)|ago|on (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|\d{4}-\d{2}-\d{2}|meeting|appointment|birthday|wedding|visited|attended|met with|graduated)\b"
        ),
    ),
]
_LIKE_AS_PREPOSITION = re.compile(
    r"\b(?:looks?|seems?|feels?|sounds?|something|just) like\b|\blike (?:a|an|the|this|that)\b"
)


def classify(sentence: str) -> str:
    lowered = sentence.lower().strip()
    if not is_first_person(sentence) and lowered.startswith(_IMPERATIVES) and not lowered.startswith("to be"):
        return "procedure"
    if re.search(r"\b(?:step \d|first,? .+ then|to (?:deploy|install|run|fix|build|reset)\b.+,)", lowered):
        return "procedure"
    for memory_type, pattern in _TYPE_RULES:
        if pattern.search(lowered):
            if (
                memory_type == "preference"
                and _LIKE_AS_PREPOSITION.search(lowered)
                and not re.search(r"\b(?:love|prefer|favou?rite|enjoy|hate)", lowered)
            ):
                continue
            return memory_type
    return "fact"


# --- entities -----------------------------------------------------------------------------

_ENTITY_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("url", re.compile(r"https?://[^\s)\"'>]+")),
    ("email", re.compile(r"\b[\w.+-]+@[\w-]+\.[\w.-]+\b")),
    ("identifier", re.compile(r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b")),
    ("path", re.compile(r"(?<![\w/])(?:~|\.{1,2})?/(?:[\w.\-]+/)*[\w.\-]+|\b[A-Za-z]:\\[\w\\.\-]+")),
    (
        "path",
        re.compile(
            r"\b[\w\-]+\.(?:py|js|ts|tsx|yaml|yml|json|toml|md|txt|go|rs|java|rb|sh|sql|html|css|cfg|ini|conf|log|csv|env)\b"
        ),
    ),
    (
        "identifier",
        re.compile(
            r"\b[A-Z]{2,}-\d+\b|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\b[A-Z]+\d+[A-Z0-9]*\b|\b(?=[a-f0-9]*\d)(?=[a-f0-9]*[a-f])[a-f0-9]{7,40}\b"
        ),
    ),
    ("term", re.compile(r"`([^`]{2,60})`|(?:^|(?<=\s))\"([^\"]{2,60})\"|(?:^|(?<=\s))'([^']{2,60})'(?=[\s.,;!?]|$)")),
]
_NAME = re.compile(r"\b[A-Z][\w\-]*(?:\s+(?:of|de|van|von|la|del|da)?\s*[A-Z][\w\-]*)*")
_NOT_NAMES = {
    "I",
    "The",
    "A",
    "An",
    "My",
    "We",
    "You",
    "He",
    "She",
    "They",
    "It",
    "This",
    "That",
    "These",
    "Those",
    "And",
    "But",
    "So",
    "Also",
    "Then",
    "When",
    "Where",
    "What",
    "Which",
    "Who",
    "How",
    "Why",
    "If",
    "Yes",
    "No",
    "Ok",
    "Please",
    "Thanks",
    "Today",
    "Tomorrow",
    "Yesterday",
    "Next",
    "Last",
    "Our",
    "Your",
    "Their",
    "His",
    "Her",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
    "Actually",
    "Now",
}


_COMMON_OPENERS = {"there", "here", "someone", "everyone", "nobody", "everything", "nothing", "sometimes", "usually"}


def _is_sentence_opener(match: re.Match[str], text: str) -> bool:
    """A lone capitalized first word is usually just the start of the sentence."""
    word = match.group(0).strip()
    at_start = match.start() == len(text) - len(text.lstrip())
    return at_start and " " not in word and (word.lower().startswith(_IMPERATIVES) or word.lower() in _COMMON_OPENERS)


def find_entities(sentence: str, *, subject: str | None = None) -> list[EntityRef]:
    found: dict[tuple[str, str], EntityRef] = {}
    masked = sentence
    for entity_type, pattern in _ENTITY_PATTERNS:
        for match in pattern.finditer(masked):
            name = next((g for g in match.groups() if g), None) if match.groups() else match.group(0)
            if name:
                name = name.rstrip(".,;:")
                found.setdefault((name.lower(), entity_type), EntityRef(name, entity_type))
        masked = pattern.sub(lambda m: " " * len(m.group(0)), masked)
    for match in _NAME.finditer(masked):
        if _is_sentence_opener(match, masked):
            continue
        words = [w for w in match.group(0).split() if w not in _NOT_NAMES]
        name = " ".join(words).strip("'")
        if name and name != subject and not name.lower().startswith(("i'", "it'")):
            found.setdefault((name.lower(), "name"), EntityRef(name, "name"))
    return list(found.values())


# --- attributes, negation and change cues ---------------------------------------------------

_VALUE = r"(?P<value>[^,.;!?()]+?)"
_VALUE_END = r"(?:\s+(?:last|this|next|since|for|from|in \d{4}|a few|two|three|now|already|recently|again)\b.*)?\s*(?:$|[,.;!?(])"
_ATTRIBUTE_RULES: list[tuple[str, re.Pattern[str], bool]] = [
    (
        "residence",
        re.compile(
            r"\b(?:(?:lives?|living|resides?|is based|are based|based|moved|relocated|live)"
            r"(?:\s+(?:now|currently|back|away|over))?(?:\s+with\s+[^,.;!?]+?)?"
            r"|(?:rents?|renting|bought|shares?|sharing)\s+(?:a|an|the)\s+(?:flat|apartment|house|home|place|room|condo|studio)"
            r"(?:\s+with\s+[^,.;!?]+?)?)\s+(?:in|to|into)\s+" + _VALUE + _VALUE_END
        ),
        True,
    ),
    (
        "employer",
        re.compile(
            r"\b(?:works?|working|employed)\s+(?:at|for|by)\s+"
            + _VALUE
            + _VALUE_END
            + r"|\bjoined\s+"
            + _VALUE.replace("value", "value2")
            + _VALUE_END
        ),
        True,
    ),
    ("age", re.compile(r"\bis\s+(?P<value>\d{1,3})\s+years?\s+old\b"), True),
    (
        "{attr}",
        re.compile(
            r"'s\s+(?P<attr>(?:favou?rite\s+)?[a-z][a-z\- ]{1,30}?)\s+(?:is|are|was)\s+(?:now\s+)?"
            + _VALUE
            + r"\s*(?:$|[,.;!?(])"
        ),
        True,
    ),
    (
        "prefers",
        re.compile(
            r"\b(?:prefers?|preferred)\s+" + _VALUE + r"(?:\s+(?:over|to|rather than)\s+[^,.;!?]+)?" + _VALUE_END
        ),
        False,
    ),
    (
        "uses",
        re.compile(
            r"\b(?:uses|use|using|switched\s+(?:from\s+[^,.;!?]+?\s+)?to|moved\s+(?:from\s+[^,.;!?]+?\s+)?to\s+using)\s+"
            + _VALUE
            + _VALUE_END
        ),
        False,
    ),
]
_NEGATION = re.compile(
    r"\b(?:not|no longer|never|don't|doesn't|didn't|isn't|aren't|wasn't|weren't|can't|cannot|won't|hasn't|haven't|"
    r"does not|do not|did not|is not|are not|anymore|any more)\b|\bno\s+(?!longer)",
    re.IGNORECASE,
)
_CHANGE_CUES = re.compile(
    r"\b(?:moved to|no longer|now prefers?|switched (?:to|from)|instead|anymore|any more|changed (?:to|my)|"
    r"these days|nowadays|not anymore|stopped|quit|used to|relocated|now|new)\b",
    re.IGNORECASE,
)
_TRAILING = re.compile(r"\s+(?:now|too|as well|again|still|currently|instead|anymore|these days)$")
# "I moved into a new flat" says where, not in which place: a dwelling is no residence of its own,
# and a later "I moved to Lisbon" must not make the move into the flat untrue.
_DWELLING = re.compile(
    r"^(?:(?:my|our|his|her|their|a|an|the)\s+)?(?:(?:new|bigger|smaller|own|first|nice|tiny|old)\s+)*"
    r"(?:flat|apartment|house|home|place|room|condo|studio|dorm|bungalow|cottage)s?(?:\s+in\s+(?P<place>.+))?$"
)


def find_attribute(attributed: str, subject: str) -> Attribute | None:
    for name, pattern, single_valued in _ATTRIBUTE_RULES:
        match = pattern.search(attributed)
        if match is None:
            continue
        groups = match.groupdict()
        value = groups.get("value") or groups.get("value2")
        if not value:
            continue
        attr = name.format(attr=(groups.get("attr") or "").strip()) if "{attr}" in name else name
        if not _said_of_a_person(attributed[: match.start()], subject):
            continue  # "the settings for the billing worker live in /etc/…" is no one's residence
        owner = _owner_of(attributed[: match.start()], subject)
        cleaned = _TRAILING.sub("", re.sub(r"^(?:the|a|an)\s+", "", value.strip(), flags=re.IGNORECASE))
        dwelling = _DWELLING.match(cleaned.lower()) if attr == "residence" else None
        if dwelling:
            if not dwelling["place"]:
                continue
            cleaned = dwelling["place"]
        if cleaned:
            return Attribute(subject=owner, name=attr.lower(), value=cleaned.lower(), single_valued=single_valued)
    return None


_PERSON_WORDS = {
    "he",
    "she",
    "they",
    "we",
    "who",
    "i",
    "you",
    "sister",
    "brother",
    "wife",
    "husband",
    "partner",
    "mother",
    "father",
    "mom",
    "mum",
    "dad",
    "son",
    "daughter",
    "friend",
    "boss",
    "colleague",
    "manager",
    "parents",
    "kids",
    "children",
    "cousin",
    "uncle",
    "aunt",
    "grandmother",
    "grandfather",
    "grandma",
    "grandpa",
    "girlfriend",
    "boyfriend",
    "roommate",
    "neighbor",
    "neighbour",
    "family",
    "fiancé",
    "fiancee",
    "fiance",
    "coworker",
}
_SUBJECT_FILLER = re.compile(
    r"(?:\s+(?:now|currently|also|still|recently|just|finally|already|actually|really|then|both|has|have|had|will|"
    r"would|is|are|was|were|and|who|does|do|did|not|no|longer|never|doesn't|don't|didn't|isn't|aren't|wasn't|"
    r"won't|can|cannot|can't|could|should|might|may|must|used to|going to|plans? to|wants? to|hopes? to))+$",
    re.IGNORECASE,
)


def _said_of_a_person(prefix: str, subject: str) -> bool:
    """Whether the words before the verb end with a person: the user, a name, a relation or a
    pronoun. An attribute of a thing ("the worker's config lives in …") is nobody's."""
    head = _SUBJECT_FILLER.sub("", " " + prefix.rstrip(" ,")).strip()
    if not head or head.lower().endswith(subject.lower()):
        return True
    last = re.search(r"([\w\-]+)(?:'s?)?$", head)
    if last is None:
        return True
    word = last.group(1)
    if word.lower() in _PERSON_WORDS:
        return True
    return word[0].isupper() and word not in _NOT_NAMES and not head[: last.start()].strip().endswith(("the", "The"))


_COORDINATED = re.compile(r"(?:\band|\bbut|\bthen|,)\s*$")
_FIRST_SUBJECT = re.compile(r"\s*[\w\-]+(?:'s\s+[a-z]+)?(?:\s+[A-Z][\w\-]*)?")


def _owner_of(prefix: str, subject: str) -> str:
    """Whose attribute: the last name before the verb ("alice's sister Anna" → anna), else
    a relation of the user ("alice's sister"), else the user."""
    if _COORDINATED.search(prefix):
        # "alice left Acme and joined Globex": the verb shares the sentence's subject.
        first = _FIRST_SUBJECT.match(prefix)
        prefix = first.group(0) if first else prefix
    after_user = prefix.rsplit(subject, 1)[-1]  # "Since the move alice is …": names before the user aren't owners
    names = [n.strip() for n in _NAME.findall(after_user) if n.strip() not in _NOT_NAMES]
    if names:
        return names[-1].lower()
    relation = re.search(re.escape(subject) + r"'s\s+([a-z][a-z\- ]{1,30}?)\s*$", prefix.strip())
    return f"{subject}'s {relation.group(1)}" if relation else subject


def is_negated(sentence: str) -> bool:
    return bool(_NEGATION.search(sentence))


def change_cue(sentence: str) -> str | None:
    match = _CHANGE_CUES.search(sentence)
    return match.group(0).lower() if match else None


def content_words(text: str) -> set[str]:
    """Lower-case words that carry meaning: for comparing what two statements say."""
    words = re.findall(r"[a-z0-9][a-z0-9'\-_./]*", text.lower())
    return {w.strip("'.") for w in words if w not in _STOPWORDS and len(w) > 1}


def without_negation(text: str) -> set[str]:
    return content_words(_NEGATION.sub(" ", text)) - {"does", "do", "did", "anymore", "longer"}


_STOPWORDS = {
    "a",
    "an",
    "the",
    "and",
    "or",
    "but",
    "of",
    "to",
    "in",
    "on",
    "at",
    "for",
    "with",
    "by",
    "from",
    "is",
    "are",
    "was",
    "were",
    "be",
    "been",
    "being",
    "it",
    "its",
    "this",
    "that",
    "these",
    "those",
    "as",
    "so",
    "very",
    "just",
    "also",
    "too",
    "really",
    "quite",
    "has",
    "have",
    "had",
    "will",
    "would",
    "can",
    "could",
    "there",
    "their",
    "they",
    "he",
    "she",
    "his",
    "her",
    "we",
    "our",
    "you",
    "your",
    "i",
    "me",
    "my",
    "than",
    "then",
    "about",
    "into",
    "up",
    "out",
    "some",
    "any",
    "all",
    "more",
    "most",
    "much",
    "many",
    "now",
    "s",
}


# --- change: what a statement says about an earlier one -------------------------------------
#
# A small grammar, read from the words as said (before attribution). It names the thing that
# changed; the decision stage looks for the stored memory that says that thing.

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
# Where a named thing ends: before a linking word, a date or the end of the clause.
_THING = (
    r"(?P<topic>[^,.;:!?]+?)(?=\s+(?:and|for|to|with|so|because|since|but|after|before|when|then|now|instead|last|this|next)\b"
    r"|\s+(?:at|in|on|by|from|until)\s+(?:the\s+(?:end|start|beginning|middle)\s+of\b|(?:" + _DATE + r")\b)"
    r"|\s*[,.;:!?]|\s*$)"
)
_ENDING = [
    re.compile(
        r"\b(?:left|leave|leaving|quit|quitting|resigned from|resign from|dropped out of|dropped|gave up|given up|"
        r"giving up|stepped down (?:from|as)|sold|selling|traded in|traded|replaced|swapped|rehomed|closed|"
        r"cancell?ed|ditched|got rid of|moved out of|moved away from|retired from|broke up with|"
        r"handed in (?:my|his|her|their|our) notice at|(?:was|got) laid off (?:from|by)|instead of|"
        r"(?:moved|switched|transferred|ported|changed)(?:\s+[\w']+){0,3}?\s+from)\s+" + _THING,
        re.IGNORECASE,
    ),
    re.compile(
        r"(?:^|[,;]\s*|\band\s+)(?P<topic>[\w'\- ]+?)\s+(?:is|was|are|were|has been|got)\s+(?:gone|stolen|sold|history|over)\b"
        r"|(?:^|[,;]\s*)(?P<topic3>[\w'\- ]+?)\s+(?:died|passed away|ran away|broke down|was put down)\b"
        r"|(?P<topic2>[A-Z][\w&'\-]*(?:\s+[A-Z][\w&'\-]*)*)\s+(?:let|laid)\s+(?:me|him|her|us|them)\s+(?:go|off)\b",
        re.IGNORECASE,
    ),
    re.compile(
        r"\bno longer\s+(?:(?:in|at|on|with|part of|a member of|working (?:at|for))\s+)?" + _THING, re.IGNORECASE
    ),
]
_RESCHEDULED = (
    r"(?:moved|pushed|postponed|delayed|extended|rescheduled|brought|rebooked|changed|slipped|bumped|shifted|"
    r"deferred|put off)(?:\s+(?:back|forward|up|out|ahead|off|over))?"
)
_TO_DATE = (
    r"(?:\s+by\s+(?:a|an|one|two|three|a few|\d+)\s+\w+,?)?\s+(?:to|until|till|for|into|on)\s+(?:" + _DATE + r")\b"
)
_RESCHEDULE = [
    # "They delayed the exam by a week, to 19 May": the verb, the thing, the new date.
    re.compile(
        r"\b"
        + _RESCHEDULED
        + r"\s+(?!(?:to|until|till|for|by|back|forward|up|out|ahead|off|over)\b)(?P<topic>[^,.;:!?]+?)(?:\s+(?:back|forward|up|out|ahead|off|over))?,?"
        + _TO_DATE,
        re.IGNORECASE,
    ),
    # "The launch is pushed back to 3 March": the thing, the verb, the new date.
    re.compile(
        r"^(?P<topic>.+?)\s+(?:(?:is|are|was|were|has been|have been|had been|got|gets|will be|'s been|'s)\s+)?"
        + _RESCHEDULED
        + _TO_DATE,
        re.IGNORECASE,
    ),
]
_NOW_OR_INSTEAD = re.compile(r"\b(?:now|instead)\b", re.IGNORECASE)
_RETRACTION = re.compile(
    r"\b(?:after all|scratch that|I was wrong|I'm wrong|(?:was|is|were) (?:wrong|a mistake|not true|incorrect)|misspoke|"
    r"mixed (?:that|it|them|things) up|^\s*correction\b|correction:|ignore what I said|forget (?:what I said|the [\w\- ]+ thing)|"
    r"that's not (?:right|true|correct)|that is not (?:right|true|correct)|never mind|my mistake|I got (?:that|it) wrong)\b",
    re.IGNORECASE,
)
_RETRACTED_TOPIC = re.compile(
    r"\babout\s+(?P<topic>[^,.;:!?]+?)(?=\s+(?:was|is|were)\b|\s*[,.;:!?]|\s*$)|\bthe\s+(?P<topic2>[\w\- ]+?)\s+thing\b",
    re.IGNORECASE,
)
_ADDITION = re.compile(r"\b(?:also|too|as well|another|second|third|in addition|alongside|besides)\b", re.IGNORECASE)
_ENDED = re.compile(r"\b(?:no longer|anymore|any more)\b", re.IGNORECASE)
# Words that say how, not what: they never single out the thing that changed.
_FILLER_WORDS = {
    "sorry",
    "actually",
    "earlier",
    "previous",
    "before",
    "said",
    "what",
    "note",
    "thing",
    "one",
    "that",
    "this",
    "i'm",
    "i've",
    "we're",
    "doing",
    "having",
    "holding",
    "starts",
    "start",
    "begins",
    "happens",
    "takes",
    "place",
    "falls",
    "now",
    "instead",
    "job",
    "position",
    "role",
    "account",
    "membership",
    "subscription",
    "date",
    "due",
    "deadline",
    "day",
    "time",
    "does",
    "do",
    "did",
    "not",
    "never",
    "no",
    "don't",
    "doesn't",
    "isn't",
    "aren't",
    "anymore",
    "longer",
    "after",
    "all",
    "scratch",
    "wrong",
    "mistake",
    "misspoke",
    "mixed",
    "correction",
    "ignore",
    "forget",
    "right",
    "true",
    "mind",
    "us",
    "them",
    "him",
    "her",
    "myself",
}


def find_change(sentence: str) -> Change | None:
    """What the statement says about an earlier one, if anything: see ``Change``."""
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


def _retracted_topic(sentence: str) -> str:
    """'The earlier note about the Berlin trip was wrong' → 'Berlin trip'; otherwise what the
    sentence says once the retraction's own words are gone ('I'm not vegetarian after all')."""
    match = _RETRACTED_TOPIC.search(sentence)
    if match:
        return _plain(match.group("topic") or match.group("topic2"))
    return _plain(_RETRACTION.sub(" ", sentence))


def _plain(phrase: str) -> str:
    return " ".join(sorted(topic_words(phrase)))


def topic_words(text: str) -> set[str]:
    """The words of a text that name its topic, reduced to a rough stem ('owns', 'owning' → 'own')."""
    words = {w for w in content_words(text) if w not in _FILLER_WORDS and w not in _STOPWORDS}
    return {_stem(w) for w in words if not w.startswith(("i'", "we'"))} - {"i"}


def _stem(word: str) -> str:
    word = word.removesuffix("'s").removesuffix("'")
    for suffix in ("ing", "ed", "es", "s", "e"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


# --- importance and certainty ----------------------------------------------------------------

_IMPORTANT = re.compile(
    r"\b(?:remember|important|always|never|must|don't forget|critical|allergic|deadline|password|key)\b", re.I
)
_HEDGES = re.compile(r"\b(?:maybe|perhaps|probably|might|i think|i guess|not sure|possibly|sort of|kind of)\b", re.I)


def importance(sentence: str, memory_type: str, entities: int) -> float:
    score = 0.45
    if _IMPORTANT.search(sentence):
        score += 0.25
    if memory_type in {"preference", "goal", "decision", "procedure"}:
        score += 0.1
    score += min(entities, 3) * 0.05
    if len(sentence.split()) < 4:
        score -= 0.15
    return round(min(max(score, 0.05), 1.0), 2)


def certainty(sentence: str) -> int:
    return 55 if _HEDGES.search(sentence) else 85
