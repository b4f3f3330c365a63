"""A later statement of the same thing that says it changed answers a question about the present
before the earlier one (memory.search.restatements), when no rule at ingestion joined them. Here no
rule does: the one that joins a sentence of a long turn to what it updates by meaning is off (it is
tested in tests/memory/ingest/test_updates_in_long_turns.py), so the search's own rule is what ranks."""

from __future__ import annotations

import pytest
from django.test import override_settings

from memory.ingest.english.changes import is_amount, names_one, values
from memory.search.conductor import memory_search
from memory.search.restatements import _gives_span

pytestmark = pytest.mark.django_db

EARLIER = "user: I know a full CI run takes about 19 minutes on every push, which is killing us."
LATER = (
    "user: Good week. Tomasz moved the image jobs to the NUC, and with xdist on four workers a full CI run "
    "on a normal PR is six minutes now. The frontend job is the slowest part again."
)
DISTRACTORS = [
    "user: The frontend team wants a preview environment per PR.",
    "user: Ines wrote new calendar tests this sprint.",
    "user: Our staging database is on RDS.",
]
OFF = {"HELIX_SEARCH_RESTATEMENT_SIMILARITY": 1.0}


@pytest.fixture(autouse=True)
def _not_joined_at_ingestion(settings):
    settings.HELIX_INGEST_UPDATE_SIMILARITY = 1.0


@pytest.fixture
def history(add):
    written = {"earlier": add(EARLIER, extract=False, occurred_at="2026-01-12T09:14:00Z")}
    for n, line in enumerate(DISTRACTORS):
        add(line, extract=False, occurred_at=f"2026-01-2{n}T10:00:00Z")
    written["later"] = add(LATER, extract=False, occurred_at="2026-02-19T10:00:00Z")
    return {name: answer["memory_ids"][0] for name, answer in written.items()}


def distractors(add, month: str) -> None:
    """The distractors, said on the 10th, 11th and 12th of ``month`` ("2026-03")."""
    for n, line in enumerate(DISTRACTORS):
        add(line, extract=False, occurred_at=f"{month}-1{n}T10:00:00Z")


def said(add, line: str, when: str) -> str:
    """The id of ``line`` stored verbatim as said at ``when``."""
    return add(line, extract=False, occurred_at=when)["memory_ids"][0]


def ranked(team, query: str, speaker_line: str | None = None, **settings) -> list[dict]:
    with override_settings(**settings):
        return memory_search(actor=team["writer"], query=query, user_id="bob", limit=5)["results"]


def raised_above(team, query: str, later: str, earlier: str) -> list[dict]:
    """The results of ``query`` after asserting that ``later``, ranked below ``earlier`` with the rule
    off (the earlier shares more words), comes just above it with the rule on, labelled as updating it."""
    before = [r["id"] for r in ranked(team, query, **OFF)]
    after = ranked(team, query)

    assert before.index(earlier) < before.index(later)
    assert [r["id"] for r in after][:2] == [later, earlier]
    assert after[0]["restates"] == earlier
    return after


def test_the_later_statement_ranks_just_above_the_one_it_restates(team, history):
    after = raised_above(team, "How long does a full CI run take these days?", history["later"], history["earlier"])

    assert "restates" not in after[1]


def test_a_later_statement_already_above_the_one_it_restates_says_so_and_the_order_stands(team, history):
    query = "How long is a full CI run on a normal PR with xdist these days?"
    before = [r["id"] for r in ranked(team, query, **OFF)]
    after = ranked(team, query)

    assert before.index(history["later"]) < before.index(history["earlier"])  # found first on its own
    assert [r["id"] for r in after] == before
    assert next(r for r in after if r["id"] == history["later"])["restates"] == history["earlier"]
    assert not any("restates" in r for r in after if r["id"] != history["later"])


@pytest.mark.parametrize(
    "query", ["How long did a full CI run take at first?", "How long a full CI run took on every push?"]
)
def test_a_question_about_the_past_keeps_the_earlier_statement_first(team, history, query):
    assert [r["id"] for r in ranked(team, query)] == [r["id"] for r in ranked(team, query, **OFF)]


def test_the_assistant_saying_something_changed_restates_nothing(team, add):
    add(EARLIER, extract=False, occurred_at="2026-01-12T09:14:00Z")
    add(
        "assistant: With xdist on four workers a full CI run is usually down to six minutes now.",
        extract=False,
        occurred_at="2026-02-19T10:00:00Z",
    )
    query = "How long does a full CI run take these days?"

    assert all("restates" not in r for r in ranked(team, query))


def test_a_change_said_in_the_same_conversation_restates_nothing(team, add):
    add(EARLIER, extract=False, occurred_at="2026-01-12T09:14:00Z")
    add(LATER, extract=False, occurred_at="2026-01-12T09:20:00Z")

    assert all("restates" not in r for r in ranked(team, "How long does a full CI run take these days?"))


def test_a_later_mention_that_gives_no_value_restates_nothing(team, add):
    # A friend's later "now …" on the same subject is no new value of it: neither turn gives one.
    add(
        "Caroline: The support I got growing up made me want to work in counseling.",
        extract=False,
        occurred_at="2026-01-12T09:14:00Z",
    )
    add(
        "Caroline: Finding that support was a long road, but now I'm ready to support others in counseling.",
        extract=False,
        occurred_at="2026-02-19T10:00:00Z",
    )

    assert all("restates" not in r for r in ranked(team, "Why does Caroline want to work in counseling?"))


def test_a_value_corrected_without_a_word_of_change_restates_the_one_it_corrects(team, add):
    earlier = said(
        add, "user: 2.49 a month or 19.99 a year, and a 7-day free trial on both plans.", "2026-02-02T10:00:00Z"
    )
    distractors(add, "2026-02")
    later = said(
        add,
        "user: Agreed, manual releases for now. One correction from last week, by the way: the trial is 14 days, "
        "not 7. I misread the mockup, which had the reminder screen's number on it.",
        "2026-02-20T10:00:00Z",
    )
    raised_above(team, "How long is the free trial on each plan?", later, earlier)


def test_a_value_corrected_answers_a_question_about_the_past_too(team, add):
    # The plan said 5%; the owner corrected it: the rollout never opened at 5%, whatever the tense.
    plan = said(
        add,
        "assistant: A staged rollout offers the app to a random percentage of users. Here's what I'd suggest: "
        "Day 1: 5%. Day 3: 20% if the crash rate stays low. Day 5: 50%. Day 7: 100%.",
        "2026-02-02T10:00:00Z",
    )
    distractors(add, "2026-02")
    corrected = said(
        add,
        "user: Launch day! One change to your plan: I'm starting the production rollout at 20%, not 5%. "
        "A dozen people tell me nothing.",
        "2026-02-20T10:00:00Z",
    )
    raised_above(team, "What percentage did the staged rollout open at on day 1?", corrected, plan)


def test_a_value_corrected_in_the_same_conversation_restates_the_one_it_corrects(team, add):
    first = said(
        add,
        "user: Now the big one: tracking-api. Node.js, two VMs behind HAProxy, about 300 requests per second "
        "at peak, mostly reads of shipment events.",
        "2026-02-02T10:00:00Z",
    )
    distractors(add, "2026-02")
    corrected = said(
        add,
        "user: Correction before you go further: peak is 1,200 requests per second, not 300.",
        "2026-02-02T10:20:00Z",
    )

    results = ranked(team, "How many requests per second does tracking-api get at its peak?")

    assert [r["id"] for r in results][:2] == [corrected, first]
    assert results[0]["restates"] == first


def test_a_correction_names_the_first_statement_of_the_wrong_value_not_a_repetition(team, add):
    stated = said(
        add, "user: 2.49 a month or 19.99 a year, and a 7-day free trial on both plans.", "2026-02-02T10:00:00Z"
    )
    repeated = said(
        add,
        "user: I bought the plan with the test card, but the 7-day free trial never showed up.",
        "2026-02-09T10:00:00Z",
    )
    distractors(add, "2026-02")
    corrected = said(
        add, "user: One correction from last week: the free trial is 14 days, not 7.", "2026-02-20T10:00:00Z"
    )

    results = ranked(team, "How long is the free trial on the plans?")

    assert results[0]["id"] == corrected and results[0]["restates"] == stated
    assert {r["id"] for r in results} >= {stated, repeated}


def test_a_correction_said_again_corrects_the_value_not_the_first_correction(team, add):
    # As a message and the statement extracted from it say the same correction; the owner's own
    # statements are labelled before the assistant's, and the first correction is the owner's.
    stated = said(
        add,
        "assistant: Set up: 2.49 a month or 19.99 a year, and a 7-day free trial on both plans.",
        "2026-02-02T10:00:00Z",
    )
    distractors(add, "2026-02")
    first = said(add, "user: One correction from last week: the free trial is 14 days, not 7.", "2026-02-20T10:00:00Z")
    again = said(
        add, "user: As I said, the free trial is 14 days, not 7, so fix the paywall copy.", "2026-02-25T10:00:00Z"
    )

    labels = {r["id"]: r.get("restates") for r in ranked(team, "How long is the free trial on the plans?")}

    assert labels[first] == labels[again] == stated


def test_a_correction_by_the_assistant_restates_nothing(team, add):
    said(add, "user: 2.49 a month or 19.99 a year, and a 7-day free trial on both plans.", "2026-02-02T10:00:00Z")
    distractors(add, "2026-02")
    said(add, "assistant: Noted: the free trial is 14 days, not 7, on both plans.", "2026-02-20T10:00:00Z")

    assert all("restates" not in r for r in ranked(team, "How long is the free trial on the plans?"))


def test_a_correction_restates_no_value_said_of_something_else(team, add):
    dinner = said(add, "user: We were 7 at dinner on Saturday, and the restaurant was full.", "2026-02-03T10:00:00Z")
    distractors(add, "2026-02")
    said(add, "user: One correction from last week: the free trial is 14 days, not 7.", "2026-02-20T10:00:00Z")

    results = ranked(team, "How many of us were at dinner on Saturday?")

    assert results[0]["id"] == dinner
    assert all(r.get("restates") != dinner for r in results)


def test_a_word_of_change_in_a_sentence_giving_no_value_restates_nothing(team, add):
    # "Now the big one" opens what comes next; the value the turn gives is said elsewhere, unchanged.
    said(add, "user: The routing graph is 2.1 GB and lives on one of the old VMs in the rack.", "2026-02-02T10:00:00Z")
    distractors(add, "2026-02")
    said(
        add,
        "user: Graviton switch done, bill is looking better. Now the big one: tracking-api. It runs on two of "
        "the old VMs behind HAProxy, about 180 GB of Postgres beside it.",
        "2026-02-20T10:00:00Z",
    )
    query = "Where does the routing graph live on the old VMs?"

    assert [r["id"] for r in ranked(team, query)] == [r["id"] for r in ranked(team, query, **OFF)]


def test_a_request_for_work_is_no_question_about_the_present(team, history):
    query = "Write a summary of how long a full CI run takes now."

    assert all("restates" not in r for r in ranked(team, query))


def test_what_the_assistant_set_up_is_restated_by_the_owner_changing_it(team, add):
    add(
        "assistant: A systemd timer runs the nightly backup of the media disks at 02:00, and the journal "
        "logs every backup run.",
        extract=False,
        occurred_at="2026-02-28T10:00:00Z",
    )
    distractors(add, "2026-03")
    later = said(
        add,
        "user: The disks were busy at night, so I moved the timer to 04:30 now and it finishes by 05:15.",
        "2026-03-29T10:00:00Z",
    )

    results = ranked(team, "What time does the nightly backup of the media disks run?")

    assert results[0]["id"] == later and "restates" in results[0]


def test_of_two_restatements_of_one_statement_the_latest_comes_first(team, history, add):
    middle = said(
        add,
        "user: Update: with the split jobs a full CI run on every push is at about eleven minutes now.",
        "2026-01-30T10:00:00Z",
    )

    ids = [r["id"] for r in ranked(team, "How long does a full CI run take these days?")]

    assert ids.index(history["later"]) < ids.index(middle) < ids.index(history["earlier"])


def test_a_question_for_the_latest_value_takes_a_later_value_said_without_a_word_of_change(team, add):
    earlier = said(add, "user: First full run: best validation macro-F1 0.81 at epoch 3.", "2026-02-02T10:00:00Z")
    distractors(add, "2026-02")
    later = said(
        add,
        "user: Meeting went fine. I tried mdeberta with the same recipe: its best validation F1 came out at 84%.",
        "2026-03-02T10:00:00Z",
    )

    latest = [r["id"] for r in ranked(team, "What's our best validation macro-F1 so far?")]
    plain = [r["id"] for r in ranked(team, "What's our best validation macro-F1?")]

    assert latest.index(later) < latest.index(earlier)
    # No word of change, no question for the latest, and "84%" is not of the form of "0.81".
    assert plain.index(earlier) < plain.index(later)


def test_how_long_these_days_is_answered_by_a_later_span_not_by_a_later_figure_of_anything_else(team, add):
    """A question for the latest value takes a later value said without a word of change; asking how
    long, only a span is such a value: a later figure of something else (visitors a day, a share) near
    in meaning in a chat about one app is no update of the build's duration."""
    earlier = said(
        add,
        "user: The nightly Android build works, but it's slow: the pipeline took about 18 minutes, mostly "
        "downloading Gradle dependencies.",
        "2026-02-02T10:00:00Z",
    )
    distractors(add, "2026-02")
    visitors = said(
        add,
        "user: Store stats for the Android build pipeline week: about 500 listing visitors a day, 25% of them "
        "installing.",
        "2026-03-02T10:00:00Z",
    )
    later = said(
        add,
        "user: Timed the nightly Android pipeline today with the Gradle cache warm: 5 minutes from trigger to bundle.",
        "2026-03-09T10:00:00Z",
    )

    results = ranked(team, "How long does the nightly Android build pipeline take these days?")
    ids = [r["id"] for r in results]

    assert ids.index(later) < ids.index(earlier)
    assert "restates" not in next(r for r in results if r["id"] == visitors)


@pytest.mark.parametrize(
    ("said", "span"),
    [
        *[(text, True) for text in ("About 6 minutes now", "Two weeks?", "a 14-day trial", "takes 2h", "21,850 words")],
        *[(text, True) for text in ("three months, not one", "30s on CI", "2.5 km from the shop")],
        *[(text, False) for text in ("About 400 visitors a day", "Published. 20%.", "Tagged v0.3.0", "a day off")],
        *[(text, False) for text in ("We were 7 at dinner", "Tuesday at 09:30", "3 of 5 tests", "")],
    ],
)
def test_a_span_is_a_figure_or_number_in_words_with_a_unit_of_time_or_length(said, span):
    assert _gives_span(said) is span


def test_what_it_ended_up_as_asks_for_the_latest_whatever_the_verb(team, add):
    earlier = said(
        add, "user: Ines asked if slipcheck will be ready for the ops demo on March 3.", "2026-02-02T10:00:00Z"
    )
    later = said(
        add,
        "user: Bunch of things. First, the ops demo is on the 24th now, Ines pulled it forward because of "
        "the quarter-end freeze.",
        "2026-02-16T10:00:00Z",
    )

    ended = [r["id"] for r in ranked(team, "What date did the ops demo for slipcheck end up on?")]
    first = [r["id"] for r in ranked(team, "What date did the ops demo for slipcheck first have?")]

    assert ended.index(later) < ended.index(earlier)
    assert first.index(earlier) < first.index(later)


APPROVER = (
    "user: Also, on who can deploy: Kofi approves every production deploy at the moment, nobody else has the rights."
)
NEW_APPROVER = (
    "user: Org change, so you know the context: Ines is the one who approves production deploys now, "
    "she's the required reviewer on the production environment and Kofi's been removed."
)


def test_someone_named_is_a_value_a_later_statement_gives_otherwise(team, add):
    earlier = said(add, APPROVER, "2026-01-12T09:14:00Z")
    distractors(add, "2026-02")
    later = said(add, NEW_APPROVER, "2026-03-02T10:00:00Z")

    who = ranked(team, "Who has to sign off before something goes to production?")
    before = [r["id"] for r in ranked(team, "Who has to sign off before something goes to production?", **OFF)]

    assert before.index(earlier) < before.index(later)  # the earlier shares more words
    assert [r["id"] for r in who][:2] == [later, earlier]
    assert who[0]["restates"] == earlier


def test_a_name_is_a_value_only_of_a_question_asking_who_or_which(team, add):
    # The same two statements: a question for a day or a version is not answered by who approves.
    said(add, APPROVER, "2026-01-12T09:14:00Z")
    distractors(add, "2026-02")
    said(add, NEW_APPROVER, "2026-03-02T10:00:00Z")

    assert all("restates" not in r for r in ranked(team, "When does a production deploy get approved?"))
    assert all("restates" not in r for r in ranked(team, "Which day does a production deploy get approved?"))
    assert all("restates" not in r for r in ranked(team, "Which version of a production deploy gets approved?"))
    assert ranked(team, "Which person approves a production deploy?")[0].get("restates")


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("Also, on who can deploy: Kofi approves every production deploy.", True),
        ("On call: I'm primary, Marek is backup.", True),
        ("She's the reviewer now and Kofi's been removed.", True),
        ("We moved the whole design system to React Aria Components.", True),
        ("Thanks, Nate! The meetings went really well.", False),  # called by name, then a sentence's opener
        ("Wow John, that's intense!", False),
        ("Yep, Maria. Mainly the roadways.", False),
        ("It was awesome, Melanie! Being around people helps.", False),
        ("I love the turtles so much, and I feed them every day.", False),
        ("- Tuesday is fine.\n- Backups run nightly.", False),  # items open with a capital
    ],
)
def test_a_name_inside_a_sentence_is_read_and_a_name_called_or_an_opener_is_not(text, names):
    assert names_one(text) is names


STAGING = "user: Today: staging. Our staging database is a Postgres 13 instance on RDS, and it went down yesterday."
COMPOSE = (
    "user: Different topic: we want a local staging setup with docker compose so people stop testing against "
    "real staging. Can you write one? App, postgres, redis, a worker."
)
CI_IMAGE = "assistant: The nightly CI job now tests staging migrations against the postgres 13 image."
UPGRADE = "user: Big news: Tomasz did the staging database upgrade over the weekend. We're on Postgres 16 now."


def test_the_label_names_the_earlier_hit_that_gives_its_value_beside_the_same_word(team, add):
    """Near in meaning to the upgrade are both the compose request (whose only value is "write one")
    and the statement of the version it changes; the label names the one with a value beside
    "Postgres", the owner's own before the assistant's, and the upgrade ranks above all three."""
    staging = said(add, STAGING, "2026-01-29T16:20:00Z")
    compose = said(add, COMPOSE, "2026-01-29T16:25:00Z")
    image = said(add, CI_IMAGE, "2026-01-29T16:30:00Z")
    distractors(add, "2026-02")
    upgrade = said(add, UPGRADE, "2026-03-03T08:45:00Z")

    results = ranked(team, "Which major version of Postgres is staging running?")
    ids = [r["id"] for r in results]

    assert next(r for r in results if r["id"] == upgrade)["restates"] == staging
    assert all(ids.index(upgrade) < ids.index(earlier) for earlier in (staging, compose, image) if earlier in ids)


@pytest.mark.parametrize(
    ("text", "given"),
    [
        ("We're on clap 4.5.4 now.", {"4.5.4"}),
        ("Electricity is 38 cent a kWh here, it's brutal.", {"38"}),
        ("Tessellate quoted $18,000 a year for the support contract.", {"$18,000"}),
        ("We launch on 7 April, two weeks before Easter.", {"7", "april", "two"}),
        ("Since Monday my manager is Dev Raman.", {"monday"}),
    ],
)
def test_the_values_a_sentence_gives(text, given):
    assert values(text) == given


@pytest.mark.parametrize(
    ("value", "amount"),
    [
        *[(value, True) for value in ("61k", "$14,500", "three", "~99%", "3.4s", "24")],
        *[(value, False) for value in ("tuesday", "april", "pg-prod-02", "replica_slot_1", "v2")],
    ],
)
def test_an_amount_is_a_quantity_or_a_number_in_words_not_a_name_holding_digits_nor_a_day(value, amount):
    assert is_amount(value) is amount


def test_with_names_a_name_is_a_value_and_a_name_called_is_not():
    said = "Thanks, Nate! Since Monday my manager is Dev Raman from Sales."
    assert values(said, names=True) == {"monday", "dev", "raman"}
    assert values(said) == {"monday"}


def test_a_later_hit_already_above_is_labelled_by_the_value_beside_the_same_word_and_moves_nowhere(team, add):
    """A long turn changing one value is far in meaning from the long turn that gave it; the value
    beside "manager" in each says what it updates. Ranked above already, it is labelled and stays."""
    earlier = said(
        add,
        "user: Hi. I'm Hanna, a data analyst at Pellworth Home Goods. I have to put together the Q1 sales "
        "report for my manager, Maggie Oyelaran, and I'd like a second pair of hands on the pandas and SQL "
        "side. The data sits in a Postgres warehouse, orders and returns in two tables.",
        "2026-03-23T08:30:00Z",
    )
    distractors(add, "2026-04")
    later = said(
        add,
        "user: Hi again. Reorg news first, because it changes who I'm doing this for: since Monday my manager "
        "is Dev Raman, who came in as Head of Commercial Analytics. Maggie moved over to lead the new Lisbon "
        "office. His first ask was a one-page summary instead of the twelve slides.",
        "2026-04-22T13:00:00Z",
    )
    query = "Who is my manager?"
    before = [r["id"] for r in ranked(team, query, **OFF)]

    results = ranked(team, query)

    assert [r["id"] for r in results] == before
    assert before.index(later) < before.index(earlier)
    assert next(r for r in results if r["id"] == later)["restates"] == earlier


QUOTE = (
    "user: Comparing options for the change-capture part. Tessellate quoted $18,000 a year for the support contract."
)
SIGNED = (
    "user: Contract: signed with Tessellate at $14,500 a year for two years. Ines got her manager to move on price."
)
CALLS = "user: Contract talks: Tessellate had 3 calls a year with us before, Ines says, and they want to keep it so."


def test_an_extracted_statement_gives_no_value_by_its_owner_id_or_the_date_it_was_said_in(team, add):
    """Extraction writes the owner's id for "I" ("ops-01 is off next week") and anchors relative dates
    ("next week (week of 2026-02-02)"): neither is a value the owner gave, so a later statement giving
    a value beside "week" is labelled as updating no week someone was away, and the statement of the
    day deploys went out is."""
    owner = "ops-01"

    def extracted(line: str, when: str) -> list[str]:
        return add(line, user_id=owner, extract=True, occurred_at=when)["memory_ids"]

    away = extracted("I'm off next week, my sister is getting married in Porto.", "2026-01-29T17:00:00Z")
    for n, line in enumerate(DISTRACTORS):
        extracted(line.removeprefix("user: "), f"2026-02-0{n + 3}T10:00:00Z")
    later = extracted("Back after two weeks away: from now on we deploy on Tuesdays.", "2026-02-19T10:00:00Z")
    query = "Which day of the week do we deploy?"

    def labels() -> dict[str, str]:
        results = memory_search(actor=team["writer"], query=query, user_id=owner, limit=10)["results"]
        return {r["id"]: r["restates"] for r in results if r.get("restates")}

    assert labels() == {}
    thursdays = extracted("We deploy on Thursdays, after standup.", "2026-01-12T09:00:00Z")
    assert set(labels()) == set(later)
    assert set(labels().values()) == set(thursdays)
    assert not set(away) & set(thursdays)


HACKNEY = "user: First studio on the new booking system is Hackney, with 12 rooms."
PECKHAM = "user: Peckham is on the new booking system now as well, with 8 rooms."


@pytest.mark.parametrize(
    ("query", "labelled"),
    [
        ("Which studio is on the new booking system?", True),
        ("Which studios are on the new booking system?", False),
        ("What are the studios on the new booking system?", False),
        ("How many times has a studio moved to the new booking system?", False),
        ("Why is Hackney on the new booking system?", False),
        ("What kind of studio is on the new booking system?", False),
        ("How does the team describe the studio on the new booking system?", False),
    ],
)
def test_a_question_for_several_things_or_a_reason_ranks_the_later_first_and_labels_it_as_updating_nothing(
    team, add, query, labelled
):
    """Asked for one studio, the later statement updates the earlier; asked for several (or for how
    many times, why, what kind, a description), it adds to it: still ranked first, the latest, but
    labelled as updating nothing."""
    earlier = said(add, HACKNEY, "2026-01-12T09:14:00Z")
    distractors(add, "2026-02")
    later = said(add, PECKHAM, "2026-03-02T10:00:00Z")
    before = [r["id"] for r in ranked(team, query, **OFF)]

    results = ranked(team, query)

    assert before.index(earlier) < before.index(later)
    assert [r["id"] for r in results][:2] == [later, earlier]
    assert results[0].get("restates") == (earlier if labelled else None)


TIMER = (
    "assistant: A systemd timer rather than cron, because it logs every run to the journal. The nightly backup "
    "timer: OnCalendar=*-*-* 02:00:00 with Persistent=true, so a missed run catches up."
)
FINISHED = "user: The first full backup finished on Tuesday, six days and change like restic said."
MOVED = (
    "user: Also changed the schedule: the library scan was hammering the disks around 2am too, so I moved "
    "the nightly backup to 04:30 and now it is done by 5:15."
)


BENCH_SETUP = (
    "assistant: Before optimising anything, measure the Hallam parse with criterion. Add a bench target to "
    "Cargo.toml, then run cargo bench: it prints the time and the throughput of parse_hallam_10k."
)
BENCH_OUTPUT = (
    "user: ```\nparse/parse_hallam_10k  time:   [71.218 ms 71.602 ms 72.093 ms]\n"
    "                        thrpt:  [138.71 Kelem/s 139.66 Kelem/s 140.41 Kelem/s]\n```\n"
    "so roughly 140k rows/s on my laptop."
)
BENCH_LATER = (
    "user: Good news: the ByteRecord rewrite landed and the bench now says parse_hallam_10k takes 24 ms, "
    "so roughly 410k rows/s on the laptop."
)


@pytest.mark.parametrize(
    ("earlier", "later", "query", "named"),
    [
        # "What time …?" asks for a time of day: the move to 04:30 updates the timer set at 02:00, not the
        # owner's word that the first backup finished on a Tuesday, though a day's name stands beside
        # "backup" there too and the owner's own statement is preferred to the assistant's.
        ((TIMER, FINISHED), MOVED, "What time do the nightly backups run?", 0),
        # The benchmark's name, "parse_hallam_10k", is the Hallam parse asked about: the later figure
        # beside it updates the owner's pasted output, not the assistant's instructions to run it. The
        # output is found by meaning alone (to the full-text parser "parse/parse_hallam_10k" is one word,
        # and it was said on a day of its own), yet is named: a value beside the same word says what is
        # updated.
        ((BENCH_SETUP, BENCH_OUTPUT), BENCH_LATER, "What throughput does the Hallam parse benchmark show?", 1),
    ],
)
def test_the_label_names_the_earlier_hit_giving_a_value_of_the_kind_asked_beside_the_same_word(
    team, add, earlier, later, query, named
):
    first = said(add, earlier[0], "2026-02-05T09:00:00Z")
    second = said(add, earlier[1], "2026-02-06T09:30:00Z")
    distractors(add, "2026-02")
    latest = said(add, later, "2026-02-19T10:00:00Z")

    results = ranked(team, query)

    assert {first, second} <= {r["id"] for r in results}
    assert next(r for r in results if r["id"] == latest)["restates"] == (first, second)[named]


WORDS_EARLIER = "user: Checked the thesis word count: Overleaf says the total is 14,200 words right now."
WORDS_LATER = "user: Progress report: Overleaf's count is 21,850 words, discussion done, conclusion still to write."
SEATS_LATER = "user: Progress report: Overleaf's count shows 3 figures and 2 tables, discussion done."
ERROR_EARLIER = "user: The deploy keeps failing with error E4521 when the disk is full."
ERROR_LATER = "user: Another one today: the deploy failed with error E7310 on the new runner."
TESSELLATE = "What are we paying Tessellate per year?"
WORD_COUNT = "What's my current word count for the thesis?"


@pytest.mark.parametrize(
    ("earlier_line", "later_line", "query", "outcome"),
    [
        (QUOTE, SIGNED, TESSELLATE, "labelled where it stands"),
        (QUOTE, CALLS, TESSELLATE, "nothing"),
        (WORDS_EARLIER, WORDS_LATER, WORD_COUNT, "raised"),
        (WORDS_EARLIER, SEATS_LATER, WORD_COUNT, "nothing"),
        # A question giving a figure asks about what it names: "E7310" is another error, not E4521's update.
        (ERROR_EARLIER, ERROR_LATER, "What does error E4521 mean for the deploy?", "nothing"),
    ],
)
def test_a_figure_of_the_same_form_said_without_a_word_of_change_restates_and_a_bare_number_does_not(
    team, add, earlier_line, later_line, query, outcome
):
    """No word of change: "$14,500 a year" restates "$18,000 a year" (a sum in dollars beside
    "Tessellate" both), "21,850 words" beside "count" restates "14,200 words": the current value, raised
    just above the earlier when below it, labelled where it stands when above it already. "3 calls a
    year" and "3 figures and 2 tables" do not: a bare number is a count of anything."""
    earlier = said(add, earlier_line, "2026-01-27T10:30:00Z")
    distractors(add, "2026-02")
    later = said(add, later_line, "2026-03-03T13:10:00Z")
    before = [r["id"] for r in ranked(team, query, **OFF)]

    results = ranked(team, query)
    ids = [r["id"] for r in results]

    label = next(r for r in results if r["id"] == later).get("restates")
    if outcome == "raised":
        assert before.index(earlier) < before.index(later)
        assert (ids.index(later), label) == (ids.index(earlier) - 1, earlier)
    else:
        assert ids == before  # a label moves nothing
        assert label == (earlier if outcome == "labelled where it stands" else None)
        assert outcome == "nothing" or before.index(later) < before.index(earlier)
