"""Attributes: where someone lives, who employs them, their job and team, whom they are married to
or dating, their age, diet and school, their favourite things, what they prefer or use. A single-valued one holds one value at a
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
    r"(?:(?<!\s)\s+(?:last|this|next|since|for|from|in \d{4}|a few|two|three|now|already|recently|again"
    r"|in (?:the\s+)?(?:spring|summer|autumn|fall|winter|January|February|March|April|May|June|July|August|September"
    r"|October|November|December))\b.*)?" + _END
)
# A name begins with a capital ("at Hooli", "in Porto"): a value a bare "at" or "in" introduces must
# be one, so that "I'm at the gym now" names no employer.
_NAMED = r"(?P<value>[A-Z][\w&'\-]*(?:\s+(?:of\s+)?[A-Z0-9][\w&'\-]*)*)"
_NOW = r"(?:now|these days|nowadays|currently)"
_OCCUPATION = r"(?:" + "|".join(sorted(word_list("occupations"), key=len, reverse=True)) + r")"
_DIET = r"(?:" + "|".join(sorted(word_list("diets"), key=len, reverse=True)) + r")"
_DWELLING_WORD = r"(?:flat|apartment|house|home|place|room|condo|studio)"
_ATTRIBUTE_RULES: list[tuple[str, re.Pattern[str], bool]] = [
    # Before residence and employer: "moved to the search team" and "joined the search team" name
    # a team, not a place or an employer.
    (
        "team",
        re.compile(
            r"\b(?:is|are|am|was|joined|moved to|switched to)\s+(?:now\s+)?(?:on|in|part of|with)?\s*the\s+"
            r"(?P<value>(?!\s)[\w\- ]{1,30}?)(?<!\s)\s+team\b"
        ),
        True,
    ),
    (
        "residence",
        re.compile(
            r"\b(?:(?:lives?|living|resides?|is based|are based|based|moved|relocated|live|settled)"
            # The place moved from and the people lived with are a few words: bounded, so that a
            # statement repeating the verbs is read in linear time.
            r"(?:\s+(?:now|currently|back|away|over|down))?(?:\s+from\s+(?!\s)[^,.;!?]{1,60}?(?=\s+(?:to|into)\s))?"
            r"(?:\s+with\s+(?!\s)[^,.;!?]{1,60}?)?"
            r"|(?:rents?|renting|bought|shares?|sharing|got|found)\s+(?:a|an|the|our|his|her|their|[\w\-]+'s)\s+"
            r"(?:(?:own|new)\s+)?"
            + _DWELLING_WORD
            + r"(?:\s+with\s+(?!\s)[^,.;!?]{1,60}?)?)\s+(?:in|to|into)\s+"
            + _VALUE
            + _VALUE_END
        ),
        True,
    ),
    # "Home is Glasgow these days", "alice's home is now Denver".
    ("residence", re.compile(r"(?:^|'s\s+)[Hh]ome\s+is\s+(?:now\s+)?(?:in\s+)?" + _NAMED), True),
    # "My parents are in Porto now": being somewhere is living there when the statement says it is now.
    (
        "residence",
        re.compile(
            r"\b(?:is|are)\s+(?:(?:now|currently)\s+in\s+"
            + _NAMED
            + r"|in\s+"
            + _NAMED.replace("value", "value2")
            + r"\s+"
            + _NOW
            + r"\b)"
        ),
        True,
    ),
    (
        "employer",
        re.compile(
            r"\b(?:works?|working|employed)\s+(?:(?:in|on)\s+(?!\s)[^,.;!?]{1,40}?(?<!\s)\s+)?(?:at|for|by)\s+"
            + _VALUE
            + _VALUE_END
            + r"|\bjoined\s+"
            + _VALUE.replace("value", "value2")
            + _VALUE_END
        ),
        True,
    ),
    # "got a job at Channel 4", "started a new job at Salesforce", "accepted an offer from Meta".
    (
        "employer",
        re.compile(
            r"\b(?:got|gets|took|takes|started|starts|starting|accepted|landed|found|has|have)\s+(?:a|an|the)\s+"
            r"(?:new\s+)?(?:job|role|position|post|offer)\s+(?:at|with|from)\s+" + _VALUE + _VALUE_END
        ),
        True,
    ),
    (
        "employer",
        re.compile(r"\b(?:got|was|were|been|is|are)\s+(?:hired|taken on)\s+by\s+" + _VALUE + _VALUE_END),
        True,
    ),
    # "alice is a data scientist at Initech", "alice now leads the data team at Hooli": a role at a named
    # place ("runs" is no role: "alice runs every morning at Hyde Park").
    (
        "employer",
        re.compile(
            r"\b(?:(?:is|are|was)\s+(?:now\s+)?(?:a|an|the)|leads?|heads?|manages?|teach(?:es)?|coach(?:es)?)"
            r"\s+(?!\s)[^,.;:!?]{1,40}?(?<!\s)\s+(?:at|for)\s+" + _NAMED
        ),
        True,
    ),
    # "I'm at Oakridge Academy now" (not "with": "I'm with Sarah now" names no employer).
    (
        "employer",
        re.compile(r"\b(?:is|are)\s+(?:now\s+)?at\s+" + _NAMED + r"\s+" + _NOW + r"\b"),
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
    # "my brother is a paramedic", "alice was promoted to practice director": a job by its name.
    (
        "job",
        re.compile(
            r"\b(?:(?:is|are|was|became|becomes|become)\s+(?:now\s+)?(?:a|an)|(?:promoted|retrained|qualified)\s+(?:to|as)"
            r"(?:\s+(?:a|an))?)\s+(?P<value>(?:[a-z\-]+\s+){0,2}?" + _OCCUPATION + r")\b"
        ),
        True,
    ),
    (
        "partner",
        re.compile(
            r"\b(?:(?:(?:got|gets|getting)\s+)?(?:married|engaged)\s+to|dating|going out with|in a relationship with"
            r"|seeing(?=\s+(?:[A-Z]|(?:a|an)\s+(?:girl|guy|boy|woman|man|lady)\b)))\s+" + _VALUE + _VALUE_END
        ),
        True,
    ),
    ("age", re.compile(r"\b(?:is\s+(?P<value>\d{1,3})\s+years?\s+old|turned\s+(?P<value2>\d{1,3}))\b"), True),
    (
        "diet",
        re.compile(
            r"\b(?:is|are|am|went|gone|turned|became|become|been|going)\s+(?:now\s+)?(?:a\s+)?(?P<value>"
            + _DIET
            + r")\b|\b(?:follows?|on)\s+(?:a|an|the)\s+(?P<value2>"
            + _DIET
            + r")\s+diet\b"
        ),
        True,
    ),
    (
        "school",
        re.compile(
            r"\b(?:stud(?:y|ies|ying)|enrolled|a student)\s+at\s+"
            + _NAMED
            + r"|\b(?:goes|go|going|went|transferred|moved|started)\s+(?:to|at)\s+(?P<value2>[A-Z][\w'\-]*"
            r"(?:\s+[A-Z][\w'\-]*)*\s+(?:University|College|School|Academy|Nursery|Primary)"
            r"|(?:University|College) of\s+[A-Z][\w'\-]*)\b"
        ),
        True,
    ),
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
            name = attribute_kind(attr.lower())
            return Attribute(subject=owner, name=name, value=cleaned.lower(), single_valued=single_valued)
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
    if _COORDINATED.search(prefix):
        # "alice's brother retrained and works as …": the verb shares the sentence's subject.
        first = _FIRST_SUBJECT.match(prefix)
        prefix = first.group(0) if first else prefix
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
    # "alice's best friend now lives …": the relation without the words between it and the verb.
    relation = re.search(
        re.escape(subject) + r"'s\s+([a-z][a-z\- ]{1,30}?)\s*$", _without_trailing_filler(prefix.strip())
    )
    return f"{subject}'s {relation.group(1)}" if relation else subject


# An attributed statement begins with its holder: the user's id (lower case, as attribution writes
# it), a name, a possessive ("alice's sister") or words that name no one ("The launch").
_HOLDER = re.compile(
    r"^\s*(?:(?P<owner>[\w\-]+)'s\s+(?P<relation>[a-z][a-z\-]*(?:\s+[a-z][a-z\-]*)?)|(?P<name>[\w\-]+)\b(?!'))"
)
_RELATION_ADJECTIVES = frozenset(
    {"best", "older", "younger", "little", "big", "eldest", "youngest", "step", "ex", "late", "new", "old", "former"}
)


def holder_of(content: str) -> str:
    """Whom an attributed statement is about, as its first words say: "alice's sister quit
    coffee" → "alice's sister", "Anna left Google" → "anna", "alice moved" → "alice"; "" when
    they name no one ("The launch is …", "We moved …"). A possessive of a thing ("alice's
    flight") is its owner's."""
    match = _HOLDER.match(content)
    if match is None:
        return ""
    if match["name"]:
        name = match["name"]
        return "" if name in NOT_NAMES or name.lower() in _PERSON_WORDS else name.lower()
    words = match["relation"].split()
    if words[0] in _RELATION_ADJECTIVES and len(words) == 2 and words[1] in _PERSON_WORDS:
        return f"{match['owner'].lower()}'s {words[0]} {words[1]}"
    if words[0] in _PERSON_WORDS:
        return f"{match['owner'].lower()}'s {words[0]}"
    return match["owner"].lower()


def holders_differ(new: str, stored: str) -> bool:
    """Whether two attributed statements are about different people: each names someone and
    neither names the other's ("alice's sister quit coffee" is not about "alice drinks
    espresso"; "Anna left Google" is about "alice's sister Anna works at Google")."""
    new_holder, stored_holder = holder_of(new), holder_of(stored)
    if not new_holder or not stored_holder or new_holder == stored_holder:
        return False
    return not (_names(new_holder, stored) or _names(stored_holder, new))


def _names(holder: str, text: str) -> bool:
    """Whether ``text`` names ``holder`` itself, not a possessive of it ("alice" in "alice's sister")."""
    return bool(re.search(r"(?<![\w'])" + re.escape(holder) + r"(?!\w|'s)", text.lower()))
