"""The English lexicon's output, pinned as two fingerprints.

The rules' reading of a message becomes each memory's ``content_key`` (the dedup fingerprint
stored on every row: its type and its attributed text) and its facets (attribute, negation,
change), which the decision stage compares. A rule that reads one sentence differently
changes stored data: a repeated statement would no longer deduplicate against the memory it
made before. These fingerprints move with any such change, so that it is made on purpose:
when one moves, find out which sentence reads differently and why before updating it.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime

from memory.ingest.atoms import Atom, content_key
from memory.ingest.english.memory_types import classify
from memory.ingest.english.negation import without_negation
from memory.ingest.english.person import is_first_person, third_person
from memory.ingest.english.topics import content_words, topic_words
from memory.ingest.extract import Conversation, extract_by_rules
from memory.ingest.self_contained import resolve_short_answer

NOW = datetime(2026, 11, 29, 12, 0)
SUBJECT = "bob"

CORPUS = [
    # jobs
    "I work at Acme Corp as a backend engineer.",
    "I left Globex last month and joined Initech.",
    "My sister Anna works for Google in Zurich.",
    "I quit my job at the bank because I was burned out.",
    "I got laid off from Stripe in March.",
    "I handed in my notice at Contoso yesterday.",
    "I'm no longer working at Umbrella.",
    "My boss retired from the firm last year.",
    "I've been a nurse for ten years.",
    "I started a new role as CTO at a startup called Nimbus.",
    # moves and homes
    "I live in Paris.",
    "I moved to Berlin last week.",
    "We relocated from Osaka to Lisbon in 2024.",
    "I moved into a new flat in Madrid.",
    "I rent an apartment with my girlfriend in Brooklyn.",
    "My parents live in a small cottage.",
    "I'm based in Toronto now.",
    "I moved out of my old house in Leeds.",
    "The settings for the billing worker live in /etc/billing/worker.conf.",
    "I share a flat with two roommates in Manchester.",
    # preferences
    "I prefer dark roast coffee over tea.",
    "I now prefer tea to coffee.",
    "I love skiing and I hate running.",
    "My favourite colour is blue.",
    "I don't like sushi anymore.",
    "It looks like rain today.",
    "I enjoy reading science fiction novels.",
    "I can't stand loud music.",
    "My favorite band is Radiohead.",
    "I'd rather take the train than fly.",
    # allergies and diet
    "I'm allergic to peanuts.",
    "My son is allergic to penicillin, remember that.",
    "I'm not vegetarian after all.",
    "I became vegan two years ago.",
    "I don't eat gluten.",
    "I never drink coffee after noon.",
    "I used to smoke but I stopped.",
    "I don't smoke anymore.",
    # dates and schedules
    "The launch is pushed back to 3 March.",
    "They delayed the exam by a week, to 19 May.",
    "Sprint planning is now on Tuesdays.",
    "My dentist appointment moved to next Friday at 3pm.",
    "The meeting was rescheduled to 2026-12-04.",
    "We postponed the offsite until spring.",
    "Our wedding is on the 14th of June.",
    "I met Tom yesterday.",
    "I fly to Tokyo next April.",
    "3 days ago I visited my grandma.",
    "The deadline for the report is Q3.",
    "I'll be in London tomorrow for a conference.",
    # numbers and ages
    "I'm 34 years old.",
    "My daughter is 7 years old.",
    "I run 5 km every morning.",
    "We have 3 cats and 2 dogs.",
    "I paid 1200 euros for the bike.",
    "Our team has 12 engineers.",
    "I sleep about 6 hours a night.",
    "The server has 64 GB of RAM.",
    # names and relations
    "My brother Mark lives in Seattle.",
    "Dr. Ana Ruiz is my doctor.",
    "I had lunch with Priya and Chen on Monday.",
    "My wife Maria speaks Portuguese fluently.",
    "Alice van der Berg is my manager.",
    "I met Mr. Tanaka at the airport.",
    "Our neighbour Sam bought a Tesla.",
    "My cat Luna died last week.",
    # negations
    "I do not own a car.",
    "I didn't go to the party.",
    "I'm not going to the gym today.",
    "I have never been to Africa.",
    "I won't work on weekends.",
    "I cannot swim.",
    "I wasn't at the meeting.",
    "No meat for me, thanks.",
    # irregular verbs, in and out of the hand-kept list
    "I swam across the lake.",
    "I fought with my brother.",
    "I caught a cold.",
    "I went to Rome and I saw the Colosseum.",
    "I read the whole series.",
    "I fixed the bug and I pushed the fix.",
    "I teach piano and I watch films.",
    "I try to study every day.",
    # goals, decisions, skills, opinions
    "I want to run a marathon next year.",
    "We decided to use Postgres for the ledger.",
    "I'm planning to learn Rust.",
    "I can speak Japanese and I'm fluent in French.",
    "I think remote work is overrated.",
    "We'll go with Kubernetes for deployment.",
    "I'm saving up for a house.",
    "Maybe I'll switch to Linux.",
    "I switched from Vim to Emacs.",
    "I use Neovim with the LazyVim config.",
    # code-ish text
    "Run `make test` before pushing to main.",
    "Set HELIX_QUEUE_URL=redis://localhost:6379/0 in the .env file.",
    "The bug is tracked in JIRA-4211 and fixed by commit 3f9a2bc1.",
    "Install the package with pip install -r requirements.txt.",
    "Deploy to https://staging.example.com/api/v2 first, then to production.",
    "Email me at bob.smith+work@example.org if the build fails.",
    "The config lives in ~/.config/helix/settings.toml.",
    "Request 7c9e6679-7425-40de-944b-e07fc1f97b7c failed with a 502.",
    "To reset the cache, delete the var directory and restart the worker.",
    'I call the service "Ledger API" internally.',
    # chit-chat, questions, lists, corrections
    "Hi! ok thanks. What time is it?",
    "I love skiing. thanks!",
    "Scratch that, I live in Porto, not Lisbon.",
    "The earlier note about the Berlin trip was wrong.",
    "So I never order steak.",
    "I'm learning Go because my team uses it.",
    "I also have a bike.",
    "- I like tea\n- I own a kayak\n- My car is a Volvo",
    "I bought a new laptop; my old one broke down.",
    "Ignore what I said about the dog.",
]
SHORT_ANSWERS = [
    ("When are you going to Japan?", "next April"),
    ("Where do you live?", "Berlin"),
    ("What do you teach?", "maths"),
    ("Do you watch football?", "yes"),
    ("Do you fly often?", "no"),
    ("What did you buy?", "a bike"),
]
VERBS = ["go", "have", "be", "do", "am", "fix", "watch", "try", "play", "swam", "fought", "caught", "went", "used"]


def _keys(message: str) -> list[str]:
    """What a memory made from the message is stored under: each rule atom, and the message
    kept verbatim (whose type the rules read, as the bulk import does)."""
    extraction = extract_by_rules(message=message, subject=SUBJECT, conversation=Conversation(), now=NOW, max_atoms=15)
    kept = [content_key(scope="fingerprint", memory_type=a.memory_type, content=a.content) for a in extraction.atoms]
    verbatim = content_key(scope="fingerprint", memory_type=classify(message), content=message)
    return [*kept, verbatim]


def _reading(atom: Atom) -> list:
    entities = [[e.name, e.entity_type] for e in atom.entities]
    return [atom.content, atom.memory_type, atom.importance, atom.certainty, entities, atom.facets, atom.links]


def _readings(message: str) -> dict:
    """Everything the rules say of the message, beyond its key: what the decision stage compares."""
    extraction = extract_by_rules(message=message, subject=SUBJECT, conversation=Conversation(), now=NOW, max_atoms=15)
    return {
        "atoms": [_reading(a) for a in extraction.atoms],
        "dropped": extraction.dropped,
        "topic": sorted(topic_words(message)),
        "content": sorted(content_words(message)),
        "without_negation": sorted(without_negation(message)),
        "first_person": is_first_person(message),
    }


def _fingerprint(value: object) -> str:
    return hashlib.sha256(json.dumps(value, ensure_ascii=False).encode()).hexdigest()[:16]


def test_the_corpus_reaches_every_rule():
    atoms = [
        atom
        for message in CORPUS
        for atom in extract_by_rules(
            message=message, subject=SUBJECT, conversation=Conversation(), now=NOW, max_atoms=15
        ).atoms
    ]

    assert len(CORPUS) >= 100
    assert {a.memory_type for a in atoms} == {
        "fact",
        "preference",
        "goal",
        "decision",
        "skill",
        "opinion",
        "event",
        "procedure",
        "health",
    }
    assert {a.change.kind for a in atoms if a.change} == {"ends", "reschedules", "retracts", "adds"}
    assert {a.attribute.name for a in atoms if a.attribute} >= {"residence", "employer", "age", "prefers", "uses"}


def test_content_keys_are_unchanged():
    keys = [_keys(message) for message in CORPUS]
    answers = [resolve_short_answer(answer, question, SUBJECT) for question, answer in SHORT_ANSWERS]

    assert _fingerprint([keys, answers]) == "3d213b6bfc41849c"


def test_facets_and_topics_are_unchanged():
    readings = [_readings(message) for message in CORPUS]
    verbs = [third_person(verb) for verb in VERBS]

    # Moved last when the facets gained ``values`` (memory.ingest.english.values: the value
    # statements of fifteen sentences of the corpus) and the rules learnt the health type, diets
    # and employers in more wordings (the two allergy sentences typed health, "I became vegan" a
    # diet, "left Globex … and joined Initech" an employer); no other reading changed. Then again
    # when the rules read ``standing`` in the owner's own words as they split a message (before,
    # the caller read it in the attributed statement, where "bob prefers dark roast coffee" is no
    # longer the owner saying how they like things): ten statements of the corpus are standing, and
    # with ``standing`` left out the fingerprint is the one before.
    assert _fingerprint([readings, verbs]) == "316530d06d09cd93"
