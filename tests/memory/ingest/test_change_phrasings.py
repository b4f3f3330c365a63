"""Offline extraction catches the ways people say that something changed.

Each row is two statements of one owner, added one after the other through the real add
pipeline with the rules (no LLM). A change must supersede the earlier memory; a retraction
must contradict it and rank above it in a search for its topic; a control (an addition, an
unrelated fact, a word that only looks like a change) must leave it alone.

The rules need not read every phrasing: the share of changes and retractions handled must
stay at 90 % or more (docs/benchmarks.md records it). Every control must hold.
"""

from __future__ import annotations

from typing import NamedTuple

import pytest

from memory.search.conductor import memory_search

pytestmark = pytest.mark.django_db

SUPERSEDES, RETRACTS, KEEPS = "supersedes", "retracts", "keeps"


class Pair(NamedTuple):
    earlier: str
    later: str
    expected: str
    topic: str = ""  # for a retraction: the search in which it must outrank the earlier memory


CHANGES = [
    # jobs, teams and clubs left and joined
    Pair("I work at Acme.", "I left Acme and joined Globex.", SUPERSEDES),
    Pair("I work for Initech as a tester.", "I quit my job at Initech, now I'm at Hooli.", SUPERSEDES),
    Pair("I'm a developer at Umbrella.", "I'm with Stark Industries now since leaving Umbrella.", SUPERSEDES),
    Pair("I'm on the payments team.", "I moved from the payments team to the search team.", SUPERSEDES),
    Pair(
        "I'm a member of the Riverside tennis club.",
        "I left the tennis club and signed up at a climbing gym.",
        SUPERSEDES,
    ),
    Pair("I sing in the church choir.", "I dropped out of the choir and joined a jazz band instead.", SUPERSEDES),
    Pair("I work at Deloitte.", "Last week I resigned from Deloitte; I start at KPMG on Monday.", SUPERSEDES),
    Pair(
        "I'm employed by the city council.",
        "I handed in my notice at the council and took a job at Fernweh.",
        SUPERSEDES,
    ),
    Pair("My employer is Siemens.", "Siemens let me go in March, and now I work for Bosch.", SUPERSEDES),
    Pair(
        "I work as a nurse at St Mary's hospital.",
        "I transferred from St Mary's to the Royal Free hospital.",
        SUPERSEDES,
    ),
    Pair("My sister Anna works at Google.", "Anna left Google for Microsoft.", SUPERSEDES),
    Pair(
        "I'm part of the marketing team.", "I switched teams: I'm in product now, no longer in marketing.", SUPERSEDES
    ),
    Pair("I go to the Thursday book club.", "I gave up the Thursday book club and joined a running club.", SUPERSEDES),
    Pair("I coach my son's football team.", "I stepped down as coach of my son's football team.", SUPERSEDES),
    Pair("I'm on the board of the housing co-op.", "I'm no longer on the co-op board.", SUPERSEDES),
    # things replaced: bought, adopted, switched
    Pair("I drive a Honda Civic.", "I sold the Civic and bought a Tesla Model 3.", SUPERSEDES),
    Pair("My car is a blue Golf.", "I traded in my Golf for a Skoda Octavia.", SUPERSEDES),
    Pair("I have an iPhone 12.", "I switched to a Pixel 8 last month.", SUPERSEDES),
    Pair("My phone is a Samsung Galaxy S21.", "I replaced my Galaxy with an iPhone 15.", SUPERSEDES),
    Pair("We have a parrot called Kiwi.", "We rehomed Kiwi and adopted a greyhound named Dash.", SUPERSEDES),
    Pair("I use Vim for everything.", "I switched from Vim to VS Code.", SUPERSEDES),
    Pair("My editor is Emacs.", "I've moved over to Neovim, Emacs is gone.", SUPERSEDES),
    Pair("I write code in Sublime Text.", "These days I write code in Zed instead of Sublime.", SUPERSEDES),
    Pair("I'm vegetarian.", "I went vegan in January.", SUPERSEDES),
    Pair("I follow a keto diet.", "I dropped keto and I'm on the Mediterranean diet now.", SUPERSEDES),
    Pair("I ride a Trek road bike.", "My Trek was stolen, so I bought a Canyon.", SUPERSEDES),
    Pair("I use a ThinkPad for work.", "My employer swapped my ThinkPad for a MacBook Pro.", SUPERSEDES),
    Pair("I bank with Barclays.", "I closed my Barclays account and opened one with Monzo.", SUPERSEDES),
    Pair("My mobile provider is Vodafone.", "I ported my number from Vodafone to O2.", SUPERSEDES),
    Pair("I smoke about ten a day.", "I don't smoke anymore.", SUPERSEDES),
    # residence
    Pair("I live in Paris.", "We relocated to Lyon in the spring.", SUPERSEDES),
    Pair("I live in a flat in Leeds.", "I bought a house in York and left Leeds.", SUPERSEDES),
    Pair("I'm based in Dublin.", "Since the move I'm living in Cork.", SUPERSEDES),
    Pair("My home is in Austin.", "I packed up and moved out of Austin; home is Denver now.", SUPERSEDES),
    Pair("I rent an apartment in Brooklyn.", "I've moved to Queens.", SUPERSEDES),
    Pair("My parents live in Madrid.", "My parents moved back to Seville.", SUPERSEDES),
    Pair("I live with my brother in Oslo.", "I now share a place with friends in Bergen.", SUPERSEDES),
    # rescheduled dates and deadlines
    Pair("The dentist appointment is on Tuesday.", "The dentist appointment moved to Friday.", SUPERSEDES),
    Pair("The launch is planned for 10 February.", "The launch is pushed back to 3 March.", SUPERSEDES),
    Pair("The report deadline is the 15th.", "The deadline for the report was extended to the 20th.", SUPERSEDES),
    Pair("My flight to Rome is on 2 June.", "I rebooked my Rome flight for 5 June.", SUPERSEDES),
    Pair("The team offsite is in April.", "The offsite has been postponed until September.", SUPERSEDES),
    Pair("Our wedding is on 14 August.", "We brought the wedding forward to 31 July.", SUPERSEDES),
    Pair(
        "The quarterly review meeting is on Monday at 10.",
        "The quarterly review got rescheduled to Wednesday at 2pm.",
        SUPERSEDES,
    ),
    Pair("The tax return is due on 31 January.", "The due date for the tax return slipped to 28 February.", SUPERSEDES),
    Pair("My haircut is booked for Saturday morning.", "I changed my haircut to Sunday.", SUPERSEDES),
    Pair("The release freeze starts on Thursday.", "The release freeze now starts next Monday instead.", SUPERSEDES),
    Pair("Sprint planning happens on Mondays.", "Sprint planning is now on Tuesdays.", SUPERSEDES),
    Pair("The exam is on 12 May.", "They delayed the exam by a week, to 19 May.", SUPERSEDES),
    Pair(
        "The contract renewal is due in March.", "The contract renewal deadline got moved up to February.", SUPERSEDES
    ),
    Pair("Mum's birthday dinner is on Sunday.", "We're doing Mum's birthday dinner on Saturday instead.", SUPERSEDES),
    # retractions: the earlier statement was never true
    Pair("I'm vegetarian.", "I'm not vegetarian after all.", RETRACTS, "vegetarian"),
    Pair("I have a dog.", "Scratch that, I don't have a dog.", RETRACTS, "dog"),
    Pair(
        "I'm flying to Berlin for a conference in May.",
        "The earlier note about the Berlin trip was wrong.",
        RETRACTS,
        "Berlin trip",
    ),
    Pair(
        "I'm allergic to peanuts.",
        "I was wrong about the peanut allergy, I'm not allergic to peanuts.",
        RETRACTS,
        "peanut allergy",
    ),
    Pair(
        "My brother lives in Toronto.",
        "Correction: my brother doesn't live in Toronto, that was my cousin.",
        RETRACTS,
        "brother Toronto",
    ),
    Pair(
        "I speak fluent Japanese.",
        "Ignore what I said about speaking Japanese, I only know a few words.",
        RETRACTS,
        "Japanese",
    ),
    Pair("The build server runs Ubuntu.", "The build server isn't on Ubuntu after all.", RETRACTS, "build server"),
    Pair("I'm married.", "Sorry, I misspoke earlier: I'm not married.", RETRACTS, "married"),
    Pair("I have two kids.", "Actually I don't have kids, I mixed that up.", RETRACTS, "kids"),
    Pair("I studied at Oxford.", "That's not right, I never studied at Oxford.", RETRACTS, "Oxford"),
    Pair(
        "I'm lactose intolerant.",
        "Forget the lactose thing, it turned out I'm not lactose intolerant.",
        RETRACTS,
        "lactose",
    ),
    Pair(
        "I own a motorbike.",
        "What I said about owning a motorbike was a mistake; I don't own one.",
        RETRACTS,
        "motorbike",
    ),
]

CONTROLS = [
    Pair("I joined the photography club.", "I also joined the chess club.", KEEPS),
    Pair("I work at Acme.", "My sister works at Globex.", KEEPS),
    Pair("I live in Paris.", "I visited Lyon last weekend.", KEEPS),
    Pair("I drive a Honda Civic.", "I bought new winter tyres for the Civic.", KEEPS),
    Pair("The dentist appointment is on Tuesday.", "The vet appointment is on Friday.", KEEPS),
    Pair("I have a cat named Tom.", "We adopted a second cat, Luna.", KEEPS),
    Pair("I use Vim for everything.", "I use tmux alongside Vim.", KEEPS),
    Pair("I'm vegetarian.", "I'm not a big fan of mushrooms.", KEEPS),
    Pair("I play in a chess club.", "I left my umbrella at the chess club.", KEEPS),
    Pair("I live in Leeds.", "I moved the photos to a new hard drive.", KEEPS),
    Pair("The launch is planned for 10 February.", "The launch party is at the Hilton.", KEEPS),
    Pair("I work at Deloitte.", "My manager at Deloitte is called Priya.", KEEPS),
]


def _handled(pair: Pair, owner: str, add, team) -> bool:
    earlier = set(add(pair.earlier, user_id=owner)["memory_ids"])
    answer = add(pair.later, user_id=owner)
    if pair.expected == SUPERSEDES:
        return bool(earlier & set(answer["superseded"]))
    if pair.expected == RETRACTS:
        return bool(earlier & set(answer["contradicted"])) and _outranks(
            answer["memory_ids"], earlier, pair, owner, team
        )
    return not (earlier & set(answer["superseded"] + answer["contradicted"]))


def _outranks(new: list[str], earlier: set[str], pair: Pair, owner: str, team) -> bool:
    results = memory_search(actor=team["writer"], query=pair.topic, user_id=owner, reinforce=False)["results"]
    ranked = [r["id"] for r in results]
    first_new = min((ranked.index(i) for i in new if i in ranked), default=len(ranked))
    first_old = min((ranked.index(i) for i in earlier if i in ranked), default=len(ranked) + 1)
    return first_new < first_old


def test_rules_catch_nine_in_ten_phrasings_of_change(add, team):
    missed = [pair for n, pair in enumerate(CHANGES) if not _handled(pair, f"owner{n}", add, team)]

    share = 1 - len(missed) / len(CHANGES)
    assert share >= 0.9, f"{len(CHANGES) - len(missed)} of {len(CHANGES)} handled; missed: " + "; ".join(
        f"{p.earlier!r} → {p.later!r}" for p in missed
    )


def test_additions_and_lookalikes_change_nothing(add, team):
    wrong = [pair for n, pair in enumerate(CONTROLS) if not _handled(pair, f"control{n}", add, team)]

    assert not wrong, "; ".join(f"{p.earlier!r} → {p.later!r}" for p in wrong)


def test_there_are_at_least_sixty_changes_in_varied_wording():
    assert len(CHANGES) >= 60
    assert len({p.later for p in CHANGES}) == len(CHANGES)
