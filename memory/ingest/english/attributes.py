"""Attributes: where someone lives, who employs them, their job, whom they are married to, their
age, their favourite things, what they prefer or use. A single-valued one holds one value at a
time (a later value replaces the earlier), so the rules name whose attribute it is and clean the
value to compare."""

from __future__ import annotations

import re

from memory.ingest.atoms import Attribute
from memory.ingest.english.entities import NAME, NOT_NAMES
from memory.ingest.english.wordlists import word_list

# A value begins and ends at a word, so that a run of spaces is only ever read from its first one
# (read from each of its positions, the patterns cost the cube of its length in hostile text).
_VALUE = r"(?P<value>(?!\s)[^,.;!?()]+?)"
_END = r"(?<!\s)\s*(?:$|[,.;!?(])"
_VALUE_END = (
    r"(?:(?<!\s)\s+(?:last|this|next|since|for|from|in \d{4}|a few|two|three|now|already|recently|again)\b.*)?" + _END
)
_ATTRIBUTE_RULES: list[tuple[str, re.Pattern[str], bool]] = [
    (
        "residence",
        re.compile(
            r"\b(?:(?:lives?|living|resides?|is based|are based|based|moved|relocated|live)"
            # The place moved from and the people lived with are a few words: bounded, so that a
            # statement repeating the verbs is read in linear time.
            r"(?:\s+(?:now|currently|back|away|over))?(?:\s+from\s+(?!\s)[^,.;!?]{1,60}?(?=\s+(?:to|into)\s))?"
            r"(?:\s+with\s+(?!\s)[^,.;!?]{1,60}?)?"
            r"|(?:rents?|renting|bought|shares?|sharing)\s+(?:a|an|the)\s+(?:flat|apartment|house|home|place|room|condo|studio)"
            r"(?:\s+with\s+(?!\s)[^,.;!?]{1,60}?)?)\s+(?:in|to|into)\s+" + _VALUE + _VALUE_END
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
    # "works as a nurse at the clinic": the job is the nurse's, the clinic its place.
    (
        "job",
        re.compile(
            r"\b(?:works?|working|employed)\s+as\s+" + _VALUE + r"(?:\s+(?:at|for|in)\s+[^,.;!?]+)?" + _VALUE_END
        ),
        True,
    ),
    ("partner", re.compile(r"\b(?:(?:got|gets|getting)\s+)?(?:married|engaged)\s+to\s+" + _VALUE + _VALUE_END), True),
    ("age", re.compile(r"\bis\s+(?P<value>\d{1,3})\s+years?\s+old\b"), True),
    (
        "{attr}",
        re.compile(
            r"'s\s+(?P<attr>(?:favou?rite\s+)?[a-z][a-z\- ]{1,30}?)\s+(?:is|are|was)\s+(?:now\s+)?" + _VALUE + _END
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
            r"\b(?:uses|use|using|switched\s+(?:from\s+(?!\s)[^,.;!?]+?(?<!\s)\s+)?to"
            r"|moved\s+(?:from\s+(?!\s)[^,.;!?]+?(?<!\s)\s+)?to\s+using)\s+" + _VALUE + _VALUE_END
        ),
        False,
    ),
]
# Names the possessive rule reads ("zoe's husband is Tom", "zoe's occupation is nurse") for an
# attribute another rule names ("zoe is married to Tom", "zoe works as a nurse"): one attribute,
# however a statement or a question says it (attribute_kind).
_SAME_ATTRIBUTE = {
    "husband": "partner",
    "wife": "partner",
    "spouse": "partner",
    "boyfriend": "partner",
    "girlfriend": "partner",
    "fiance": "partner",
    "fiancé": "partner",
    "fiancee": "partner",
    "fiancée": "partner",
    "occupation": "job",
    "profession": "job",
}
_TRAILING = re.compile(r"(?<!\s)\s+(?:now|too|as well|again|still|currently|instead|anymore|these days)$")
# "I moved into a new flat" says where, not in which place: a dwelling is no residence of its own,
# and a later "I moved to Lisbon" must not make the move into the flat untrue.
_DWELLING = re.compile(
    r"^(?:(?:my|our|his|her|their|a|an|the)\s+)?(?:(?:new|bigger|smaller|own|first|nice|tiny|old)\s+)*"
    r"(?:flat|apartment|house|home|place|room|condo|studio|dorm|bungalow|cottage)s?(?:\s+in\s+(?P<place>.+))?$"
)


def find_attribute(attributed: str, subject: str) -> Attribute | None:
    """The first attribute an attributed sentence ("alice moved to Berlin") gives a person, if any."""
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


def attribute_kind(name: str) -> str:
    """The attribute an attribute's name (as ``find_attribute`` reads it) names: "husband" and
    "partner" are one, "occupation" and "job" are one."""
    return _SAME_ATTRIBUTE.get(name, name)


_PERSON_WORDS = frozenset(word_list("person_words"))
# Words between a subject and its verb ("alice now also works …"), dropped from the end of the
# words before the verb, a word at a time (a pattern anchored at the end was tried again from
# every word of a long run of them: quadratic in hostile text).
_SUBJECT_FILLER = frozenset(w for w in word_list("subject_filler") if " " not in w)
_SUBJECT_FILLER_PAIRS = frozenset(w for w in word_list("subject_filler") if " " in w)


def _without_trailing_filler(text: str) -> str:
    words = text.split()
    while words:
        if len(words) >= 2 and f"{words[-2]} {words[-1]}".lower() in _SUBJECT_FILLER_PAIRS:
            del words[-2:]
        elif words[-1].lower() in _SUBJECT_FILLER:
            words.pop()
        else:
            break
    return " ".join(words)


def _said_of_a_person(prefix: str, subject: str) -> bool:
    """Whether the words before the verb end with a person: the user, a name, a relation or a
    pronoun. An attribute of a thing ("the worker's config lives in …") is nobody's."""
    head = _without_trailing_filler(prefix.rstrip(" ,"))
    if not head or head.lower().endswith(subject.lower()):
        return True
    last = re.search(r"([\w\-]+)(?:'s?)?$", head)
    if last is None:
        return True
    word = last.group(1)
    if word.lower() in _PERSON_WORDS:
        return True
    return word[0].isupper() and word not in NOT_NAMES and not head[: last.start()].strip().endswith(("the", "The"))


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
    names = [n.strip() for n in NAME.findall(after_user) if n.strip() not in NOT_NAMES]
    if names:
        return names[-1].lower()
    relation = re.search(re.escape(subject) + r"'s\s+([a-z][a-z\- ]{1,30}?)\s*$", prefix.strip())
    return f"{subject}'s {relation.group(1)}" if relation else subject
