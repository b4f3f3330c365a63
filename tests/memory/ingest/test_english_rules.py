"""The deterministic extractor's reading of English, as a table of examples."""

from __future__ import annotations

from datetime import datetime

import pytest

from memory.ingest.english.attributes import attribute_kind, find_attribute
from memory.ingest.english.changes import corrected_values, find_change, holds_value, says_a_change, value_key
from memory.ingest.english.entities import find_entities
from memory.ingest.english.sentences import prose_lines, split_clauses, split_sentences
from memory.ingest.extract import Conversation, extract_by_rules
from memory.ingest.self_contained import anchor_relative_dates, resolve_short_answer, without_anchors
from memory.models import Memory

NOW = datetime(2026, 11, 29, 12, 0)


def atoms(message: str, **conversation) -> list[tuple[str, str]]:
    extraction = extract_by_rules(
        message=message, subject="bob", conversation=Conversation(**conversation), now=NOW, max_atoms=15
    )
    return [(a.memory_type, a.content) for a in extraction.atoms]


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("I live in Paris.", [("fact", "bob lives in Paris.")]),
        ("I prefer dark roast coffee.", [("preference", "bob prefers dark roast coffee.")]),
        ("I want to run a marathon next year.", [("goal", "bob wants to run a marathon next year (2027).")]),
        ("We decided to use Postgres for the ledger.", [("decision", "We decided to use Postgres for the ledger.")]),
        ("I can speak Portuguese fluently.", [("skill", "bob can speak Portuguese fluently.")]),
        ("I think remote work is overrated.", [("opinion", "bob thinks remote work is overrated.")]),
        ("I met Tom yesterday.", [("event", "bob met Tom yesterday (2026-11-28).")]),
        ("Run make test before pushing.", [("procedure", "Run make test before pushing.")]),
        ("My email is bob@example.com.", [("fact", "bob's email is bob@example.com.")]),
        ("I live in Berlin and I work at Acme.", [("fact", "bob lives in Berlin."), ("fact", "bob works at Acme.")]),
        ("Hi! ok thanks. What time is it?", []),
        ("I love skiing. thanks!", [("preference", "bob loves skiing.")]),
    ],
)
def test_messages_become_typed_self_contained_atoms(message, expected):
    assert atoms(message) == expected


@pytest.mark.parametrize(
    ("question", "answer", "expected"),
    [
        ("When are you going to Japan?", "next April", "bob is going to Japan next April"),
        ("Where do you live?", "Berlin", "bob lives in Berlin"),
        ("What is your favourite food?", "ramen", "bob's favourite food is ramen"),
        ("Do you like sushi?", "no", "bob does not like sushi"),
        ("Are you vegetarian?", "yes", "bob is vegetarian"),
        ("How was the trip?", "long but fun", 'Asked "How was the trip?", bob answered: long but fun'),
    ],
)
def test_short_answers_are_completed_from_the_question(question, answer, expected):
    assert resolve_short_answer(answer, question, "bob") == expected


def test_relative_dates_are_anchored_to_when_it_was_said():
    text = "I moved last month, start next Monday and fly next April; 3 days ago I met Tom."

    assert anchor_relative_dates(text, NOW) == (
        "I moved last month (October 2026), start next Monday (2026-11-30) and fly next April (April 2027); "
        "3 days ago (2026-11-26) I met Tom."
    )


def test_a_relative_date_no_calendar_holds_is_kept_as_said():
    at_the_end = datetime(9999, 12, 31, 12)
    text = "I leave in 99999999999999999999 days and in 3 weeks."

    assert anchor_relative_dates("I retire tomorrow, in 3 weeks.", at_the_end) == "I retire tomorrow, in 3 weeks."
    assert anchor_relative_dates(text, NOW) == (
        "I leave in 99999999999999999999 days and in 3 weeks (week of 2026-12-14)."
    )


@pytest.mark.parametrize(
    "text",
    [
        "I moved last month, start next Monday and fly next April; 3 days ago I met Tom.",
        "Back later this week for the Docker part, and tomorrow I'm off.",
        "From next month I work four days, in 3 weeks I fly.",
    ],
)
def test_the_anchors_put_after_relative_dates_come_off_again(text):
    anchored = anchor_relative_dates(text, NOW)

    assert anchored != text
    assert without_anchors(anchored) == text


def test_a_year_a_writer_put_in_brackets_is_no_anchor():
    text = "Smith (2018) found 40% last year (in June) and Jones (2020) did next."

    assert without_anchors(text) == text


@pytest.mark.parametrize(
    ("sentence", "clauses"),
    [
        (
            "Reorg news first: since Monday my manager is Dev Raman.",
            [("Reorg news first: since Monday my manager is Dev Raman.", None)],
        ),
        ("I have lived in Porto since March.", [("I have lived in Porto since March.", None)]),
        ("I stayed home since Mark was sick.", [("I stayed home", None), ("Mark was sick.", "BECAUSE")]),
        ("I left early because Tom was tired.", [("I left early", None), ("Tom was tired.", "BECAUSE")]),
    ],
)
def test_since_before_a_day_or_a_month_begins_a_time_and_before_a_subject_a_reason(sentence, clauses):
    assert split_clauses(sentence) == clauses


@pytest.mark.parametrize(
    ("sentence", "attribute"),
    [
        ("bob moved to Berlin last month", ("bob", "residence", "berlin", True)),
        ("bob works at Acme Corp", ("bob", "employer", "acme corp", True)),
        ("bob's favourite colour is blue", ("bob", "favourite colour", "blue", True)),
        ("bob's sister Anna works at Google", ("anna", "employer", "google", True)),
        ("bob now prefers tea over coffee", ("bob", "prefers", "tea", False)),
        ("bob is 34 years old", ("bob", "age", "34", True)),
        ("bob works as a nurse at Santa Maria hospital", ("bob", "job", "nurse", True)),
        ("This year bob started working as a school principal", ("bob", "job", "school principal", True)),
        ("bob is married to Sam", ("bob", "partner", "sam", True)),
        ("bob got engaged to Priya last spring", ("bob", "partner", "priya", True)),
        ("Actually bob moved from Lisbon to Coimbra", ("bob", "residence", "coimbra", True)),
        ("bob moved from a flat in Leeds to a house in York", ("bob", "residence", "york", True)),
    ],
)
def test_single_valued_attributes_are_recognised(sentence, attribute):
    found = find_attribute(sentence, "bob")
    assert (found.subject, found.name, found.value, found.single_valued) == attribute


@pytest.mark.parametrize(
    ("sentence", "attribute"),
    [
        ("bob left Acme and joined Globex", ("bob", "employer", "globex", True)),
        ("Since the move bob is living in Cork", ("bob", "residence", "cork", True)),
        ("bob rents an apartment in Brooklyn", ("bob", "residence", "brooklyn", True)),
        ("bob's parents moved back to Seville", ("bob's parents", "residence", "seville", True)),
        ("bob moved into a flat in Porto", ("bob", "residence", "porto", True)),
    ],
)
def test_the_owner_of_an_attribute_is_the_subject_not_a_name_nearby(sentence, attribute):
    found = find_attribute(sentence, "bob")
    assert (found.subject, found.name, found.value, found.single_valued) == attribute


@pytest.mark.parametrize(
    ("sentence", "kind"),
    [
        ("bob's husband is Tom", "partner"),
        ("bob's girlfriend is Mia", "partner"),
        ("bob's occupation is pharmacist", "job"),
        ("bob's favourite colour is blue", "favourite colour"),
    ],
)
def test_an_attribute_said_under_another_name_is_the_same_attribute(sentence, kind):
    assert attribute_kind(find_attribute(sentence, "bob").name) == kind


@pytest.mark.parametrize(
    ("sentence", "change"),
    [
        ("I quit my job at Initech, now I'm at Hooli.", ("ends", "initech")),
        ("Siemens let me go in March.", ("ends", "siemen")),
        ("I'm leaving Spotify at the end of the month to join Klarna.", ("ends", "spotify")),
        ("They delayed the exam by a week, to 19 May.", ("reschedules", "exam")),
        ("The due date for the tax return slipped to 28 February.", ("reschedules", "return tax")),
        ("Sprint planning is now on Tuesdays.", ("reschedules", "plann sprint")),
        ("The earlier note about the Berlin trip was wrong.", ("retracts", "berlin trip")),
        ("I also joined the chess club.", ("adds", "")),
        ("I moved to Berlin last month.", None),
        ("I gave up the Thursday book club.", ("ends", "book club thursday")),
        # what is asked changes nothing; what is said beside it still does
        ("Fixed. Is there any risk in leaving the NUC on 24/7? It's in a locked office.", None),
        ("Is the release pushed back to April?", None),
        ("Should I quit my job at Initech?", None),
        ("Did you see it? I quit my job at Initech.", ("ends", "initech")),
    ],
)
def test_the_grammar_of_change_names_what_changed(sentence, change):
    found = find_change(sentence)
    assert (found.as_list() if found else None) == (list(change) if change else None)


def test_entities_cover_names_paths_identifiers_and_quoted_terms():
    found = find_entities(
        'The deploy of "night build" failed with E1203 in /srv/app/settings.yaml; ask Maria Lopez at ops@example.com.',
        subject="bob",
    )
    assert {(e.name, e.entity_type) for e in found} == {
        ("night build", "term"),
        ("E1203", "identifier"),
        ("/srv/app/settings.yaml", "path"),
        ("Maria Lopez", "name"),
        ("ops@example.com", "email"),
    }


@pytest.mark.parametrize(
    "sentence",
    [
        "The settings for the billing worker live in /etc/billing/svc-042.toml.",
        "The server's port is 8080.",
        "The nightly job works for the payroll team.",
    ],
)
def test_an_attribute_of_a_thing_is_nobodys_attribute(sentence):
    assert find_attribute(sentence, "bob") is None


@pytest.mark.parametrize(
    "sentence",
    ["Last Saturday bob moved into a new flat.", "bob lives in a tiny house", "bob moved into his own place"],
)
def test_a_dwelling_is_not_a_place_of_residence(sentence):
    """Moving into a flat says where, not in which place: a later move to a city must not make it untrue."""
    assert find_attribute(sentence, "bob") is None


def test_a_config_path_statement_does_not_supersede_where_the_user_lives(add):
    home = add("I live in Osaka.")["memory_ids"][0]

    config = add("The settings for the billing worker live in /etc/billing/svc-042.toml.")

    assert config["superseded"] == []
    assert Memory.objects.get(pk=home).valid_to is None


@pytest.mark.parametrize(
    ("message", "sentences"),
    [
        # Wrapped at a width (a pasted email, a terminal): the sentence is read whole.
        (
            "Comparing options. Tessellate quoted $18,000 a year for the\nsupport contract.",
            ["Comparing options.", "Tessellate quoted $18,000 a year for the support contract."],
        ),
        (
            "We moved the nightly backup to the NAS in the hall cupboard and\n"
            "it now runs at 04:30 after the scrub finishes on a Sunday night\n"
            "when nobody is using the network.",
            [
                "We moved the nightly backup to the NAS in the hall cupboard and it now runs at 04:30 after "
                "the scrub finishes on a Sunday night when nobody is using the network."
            ],
        ),
        # A list keeps its items, with a heading or without one, with or without marks.
        ("eggs\nmilk\nbread", ["eggs", "milk", "bread"]),
        (
            "Things to buy for the party this weekend at the shop\nchips\nsalsa",
            ["Things to buy for the party this weekend at the shop", "chips", "salsa"],
        ),
        (
            "What we need before the release goes out to everyone:\n- docs\n- tests",
            ["What we need before the release goes out to everyone:", "docs", "tests"],
        ),
        # A line that ends a sentence, or a next line opening with a capital, is a break.
        (
            "The build takes about twelve minutes on every single push.\nthat is too slow.",
            ["The build takes about twelve minutes on every single push.", "that is too slow."],
        ),
        (
            "Our staging database is a Postgres 13 instance on RDS today\nAnd it went down yesterday.",
            ["Our staging database is a Postgres 13 instance on RDS today", "And it went down yesterday."],
        ),
    ],
)
def test_a_sentence_wrapped_over_lines_is_one_sentence_and_a_list_keeps_its_items(message, sentences):
    assert split_sentences(message) == sentences


def test_a_wrapped_message_gives_its_value_whole():
    message = (
        "Comparing options for the change-capture part. Candidates: Debezium + a sink we write\n"
        "ourselves, or Tessellate's Bridgeway (commercial). Tessellate quoted $18,000 a year for the\n"
        "support contract."
    )
    assert ("fact", "Tessellate quoted $18,000 a year for the support contract.") in atoms(message)


@pytest.mark.parametrize(
    ("text", "change"),
    [
        ("A full CI run on a normal PR is six minutes now.", True),
        ("Kofi and Tomasz decided deploys go out on Tuesday afternoons from now on.", True),
        ("We moved the demo to Friday.", True),
        ("The runner is down to 3 jobs at once.", True),
        ("I've been playing for about four months now and it's been an amazing adventure.", False),
        ("The NUC has been down for two days now.", False),
        ("We stay on Postgres 13 for now.", False),
        ("It's been like that for a while now.", False),
        # A value corrected with no word of change.
        ("One correction from last week: the trial is 14 days, not 7.", True),
        ("I'm starting the production rollout at 20%, not 5%.", True),
        ("Peak is 1,200 requests per second, not 300.", True),
        ("The review is on Thursday \u2014 not Tuesday.", True),
        ("I have 2 cats, not a dog.", False),
        ("It took ten minutes, not hours.", False),
        ("The answer is not 5 but 6.", False),
    ],
)
def test_a_word_of_change_and_the_now_of_how_long_something_lasted(text, change):
    assert says_a_change(text) is change


@pytest.mark.parametrize(
    ("text", "wrong"),
    [
        ("One correction from last week: the trial is 14 days, not 7.", {"7"}),
        ("I'm starting the production rollout at 20%, not 5%.", {"5"}),
        ("Peak is 1,200 requests per second, not 300.", {"300"}),
        ("The review is on Thursday \u2014 not Tuesday.", {"tuesday"}),
        ("The backups run at 04:30, not 02:00, and the report at 06:00, not 05:00.", {"02:00", "05:00"}),
        ("I have 2 cats, not a dog.", set()),
        ("The answer is not 5 but 6.", set()),
        ("Not 7 days: 14.", set()),
    ],
)
def test_a_correction_names_the_value_it_says_is_wrong(text, wrong):
    assert corrected_values(text) == wrong


@pytest.mark.parametrize(
    ("said", "key"),
    [("7-day", "7"), ("7.", "7"), ("1,200", "1200"), ("5%.", "5"), ("**5%**", "5"), ("06:30,", "06:30")]
    + [("$14,500", "14500"), ("v0.3.0", "0.3.0"), ("Tuesday", "tuesday"), ("(2026-09-29):", "2026")],
)
def test_two_sayings_of_one_value_share_its_key(said, key):
    assert value_key(said) == key


@pytest.mark.parametrize(
    ("text", "valued"),
    [
        ("I drink one cup a day.", True),
        ("One of the runners is down.", True),
        ("We have three replicas.", True),
        ("Now the big one: tracking-api.", False),
        ("This one is better than the last.", False),
        ("No one approved it yet.", False),
        ("Pick one.", False),
    ],
)
def test_a_one_standing_for_a_thing_gives_no_value(text, valued):
    assert holds_value(text) is valued


@pytest.mark.parametrize(
    ("message", "contents"),
    [
        (
            "Paper target is the TextApps workshop. Deadline April 10. Nothing else yet.",
            ["Paper target is the TextApps workshop. Deadline April 10.", "Nothing else yet."],
        ),
        (
            "First full run: best validation macro-F1 0.81 at epoch 3. Accuracy 0.88.",
            ["First full run: best validation macro-F1 0.81 at epoch 3. Accuracy 0.88."],
        ),
        # Not notes: a statement of its own, a contraction, a verb's form; nothing before it to join.
        ("The demo went well. It's in July.", ["The demo went well.", "It's in July."]),
        ("The demo went well. Submitted on 3 May.", ["The demo went well.", "Submitted on 3 May."]),
        ("Deadline April 10.", ["Deadline April 10."]),
        # A question between them: the note is said of what was asked, which is not kept.
        ("The thesis is going fine. When is the viva? July 3.", ["The thesis is going fine.", "July 3."]),
    ],
)
def test_a_note_of_a_label_and_a_value_is_kept_with_the_statement_before_it(message, contents):
    """ "Deadline April 10." alone says the deadline of nothing; after "Paper target is the TextApps
    workshop." it is the workshop's, and a later "the workshop extended the deadline" updates them."""
    assert [content for _, content in atoms(message)] == contents


@pytest.mark.parametrize(
    ("text", "prose"),
    [
        ("Give me the whole file, not a fragment with 'add this under android {}'. I paste it over.", True),
        ("The config is a map like {a: 1} in the docs.", True),
        ("fn main() {", False),
        ("}", False),
        ('{"retries": 3}', False),
        ("    let x = 1;", False),
    ],
)
def test_a_brace_inside_a_line_of_prose_is_quoted_code_and_a_line_opening_or_closing_one_is_code(text, prose):
    assert (prose_lines(text) == [text]) is prose
