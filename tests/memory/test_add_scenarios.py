"""add_memory, scenario by scenario: conversation so far → new message → decisions → what is stored.

Offline (no LLM, local embeddings), exactly as a fresh installation runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

import pytest

from memory.models import Edge, Memory, MemoryHistory, MemorySource
from memory.selectors import memory_detail, memory_list

pytestmark = pytest.mark.django_db


@dataclass
class Scenario:
    name: str
    before: list[str]
    message: str
    ops: list[str]
    current: set[str] = field(default_factory=set)  # contents visible as current afterwards (subset check)
    not_current: set[str] = field(default_factory=set)
    edge: str | None = None  # an edge type the new memory has to an earlier one
    options: dict = field(default_factory=dict)


SCENARIOS = [
    Scenario("exact repeat", ["I live in Paris."], "I live in Paris.", ["NOOP"], current={"bob lives in Paris."}),
    Scenario(
        "paraphrase",
        ["The deploy pipeline runs every night at 2am."],
        "Every night at 2am the deploy pipeline runs.",
        ["LINK_EXISTING"],
        current={"The deploy pipeline runs every night at 2am."},
        not_current={"Every night at 2am the deploy pipeline runs."},
    ),
    Scenario(
        "preference change",
        ["I prefer tea."],
        "I now prefer coffee.",
        ["SUPERSEDE"],
        current={"bob now prefers coffee."},
        not_current={"bob prefers tea."},
        edge="SUPERSEDES",
    ),
    Scenario(
        "a relative's attribute restates nothing of the owner's",
        ["I live in Karachi."],
        "My husband lives in Karachi with me.",
        ["ADD"],
        current={"bob lives in Karachi.", "bob's husband lives in Karachi with bob."},
    ),
    Scenario(
        "moved city",
        ["I live in Paris."],
        "I moved to Berlin last month.",
        ["SUPERSEDE"],
        current={"bob moved to Berlin last month (October 2026)."},
        not_current={"bob lives in Paris."},
        edge="SUPERSEDES",
        options={"occurred_at": "2026-11-29T10:00:00Z"},
    ),
    Scenario(
        "negation",
        ["I like sushi."],
        "I don't like sushi.",
        ["CONTRADICT"],
        current={"bob likes sushi.", "bob does not like sushi."},
        edge="CONTRADICTS",
    ),
    Scenario(
        "more detail",
        ["Our team uses Postgres."],
        "Our team uses Postgres 16 with pgvector.",
        ["UPDATE"],
        current={"Our team uses Postgres 16 with pgvector."},
        not_current={"Our team uses Postgres."},
    ),
    Scenario(
        "related fact",
        ["The staging database is db-7."],
        "The production database is db-3.",
        ["ADD"],
        current={"The staging database is db-7.", "The production database is db-3."},
        edge="RELATES_TO",
    ),
    Scenario(
        "multi-fact message",
        [],
        "I live in Lisbon. I work as a nurse at Santa Maria hospital. I have two cats named Miso and Tofu.",
        ["ADD", "ADD", "ADD"],
        current={
            "bob lives in Lisbon.",
            "bob works as a nurse at Santa Maria hospital.",
            "bob has two cats named Miso and Tofu.",
        },
    ),
    Scenario(
        "short answer resolved with context",
        [],
        "next April",
        ["ADD"],
        current={"bob is going to Japan next April (April 2027)."},
        options={
            "context": {"previous_assistant": "Sounds great! When are you going to Japan?"},
            "occurred_at": "2026-11-29",
        },
    ),
    Scenario(
        "protected types never auto-merged",
        ["I love hiking in the Alps."],
        "I really love hiking in the Alps!",
        ["ADD"],
        current={"bob loves hiking in the Alps.", "bob really loves hiking in the Alps!"},
        edge="RELATES_TO",
    ),
    Scenario(
        "numbers tell facts apart",
        ["Service A listens on port 8001."],
        "Service A listens on port 8002.",
        ["ADD"],
        current={"Service A listens on port 8001.", "Service A listens on port 8002."},
    ),
    Scenario("chit-chat only", [], "ok thanks!", [], current=set()),
    Scenario(
        "extract=False stores the message verbatim",
        [],
        "ok thanks! Remember: deploys freeze on Fridays.",
        ["ADD"],
        current={"ok thanks! Remember: deploys freeze on Fridays."},
        options={"extract": False},
    ),
]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.name for s in SCENARIOS])
def test_scenario(scenario, add, team):
    for earlier in scenario.before:
        add(earlier)
    before_ids = set(Memory.objects.values_list("id", flat=True))

    result = add(scenario.message, **scenario.options)

    assert [d["op"] for d in result["decisions"]] == scenario.ops, result["decisions"]
    current = {m.content for m in memory_list(actor=team["writer"], user_id="bob")}
    assert scenario.current <= current, current
    assert not (scenario.not_current & current), current
    if scenario.edge:
        new = set(Memory.objects.values_list("id", flat=True)) - before_ids
        assert Edge.objects.filter(source__in=new, target__in=before_ids, edge_type=scenario.edge).exists()


def test_a_repeated_identical_call_creates_nothing_new(add):
    message = "I live in Lisbon. I work as a nurse. My sister Ana lives in Porto and she is a teacher at a school."
    first = add(message)
    count = Memory.objects.count()

    second = add(message)

    assert Memory.objects.count() == count
    assert second["memory_ids"] == [] and second["updated"] == []
    assert set(second["deduped"]) == set(first["memory_ids"])


def test_a_superseded_memory_stays_reachable_and_marked(add, team):
    old_id = add("I prefer tea.")["memory_ids"][0]
    new_id = add("I now prefer coffee.")["memory_ids"][0]

    old = memory_detail(actor=team["writer"], memory_id=old_id)
    assert old.memory.valid_to is not None
    assert [(str(e.source_id), e.edge_type) for e in old.edges_in] == [(new_id, "SUPERSEDES")]
    assert [h.action for h in old.history] == ["SUPERSEDE"]
    everything = {m.content for m in memory_list(actor=team["writer"], include_superseded=True)}
    assert {"bob prefers tea.", "bob now prefers coffee."} <= everything


def test_an_update_keeps_history_and_changes_the_vector(add):
    first = add("Our team uses Postgres.")["memory_ids"][0]
    before = list(Memory.objects.get(pk=first).embedding)

    add("Our team uses Postgres 16 with pgvector.")

    memory = Memory.objects.get(pk=first)
    assert memory.content == "Our team uses Postgres 16 with pgvector."
    assert list(memory.embedding) != before
    history = MemoryHistory.objects.get(memory=memory)
    assert (history.action, history.old_content) == ("UPDATE", "Our team uses Postgres.")


def test_metadata_and_event_time_round_trip(add, team):
    result = add("I adopted a dog named Pixel.", metadata={"source": "chat", "turn": 3}, occurred_at="2024-06-01")

    memory = Memory.objects.get(pk=result["memory_ids"][0])
    assert memory.metadata == {"source": "chat", "turn": 3}
    assert memory.valid_from == datetime(2024, 6, 1, tzinfo=UTC)


def test_long_multi_fact_messages_keep_their_raw_source(add):
    message = "I live in Lisbon near the river. I work as a nurse at Santa Maria hospital. I have two cats named Miso and Tofu."
    result = add(message)

    raw = Memory.objects.get(source=MemorySource.RAW_INPUT)
    assert raw.content == message and raw.immutable
    part_of = Edge.objects.filter(edge_type="PART_OF", target=raw).values_list("source_id", flat=True)
    assert {str(i) for i in part_of} == set(result["memory_ids"])


def test_because_and_so_become_reasoning_edges(add):
    result = add("I never eat steak because I am vegetarian. So I cook a lot of lentils at home.")

    steak, vegetarian, lentils = (Memory.objects.get(pk=i) for i in result["memory_ids"])
    assert Edge.objects.filter(source=steak, target=vegetarian, edge_type="BECAUSE").exists()
    assert Edge.objects.filter(source=vegetarian, target=lentils, edge_type="IMPLIES").exists()
    assert steak.concepts.filter(name="fact").exists()


def test_entities_are_upserted_once_per_domain(add):
    add("The deploy failed with error E1203 in /srv/app/config/settings.yaml.")
    add("Error E1203 means the settings file is missing a key.")

    memories = Memory.objects.filter(entities__normalized_name="e1203")
    assert memories.count() == 2
    assert memories.first().entities.get(normalized_name="e1203").entity_type == "identifier"


def test_a_raw_source_is_matched_with_what_was_said_before_it_as_its_atoms_are(add):
    add("Where did you two end up living after the wedding, and what do you both do now?")
    message = "I live in Lisbon near the river. I work as a nurse at Santa Maria hospital. I have two cats named Miso and Tofu."
    result = add(message)

    raw = Memory.objects.get(source=MemorySource.RAW_INPUT, content=message)
    atoms = Memory.objects.filter(pk__in=result["memory_ids"])
    assert raw.context.startswith("Where did you two end up living")
    assert {atom.context for atom in atoms} == {raw.context}


def test_a_message_partly_known_already_keeps_its_raw_source(add):
    """One sentence repeats a memory held already (deduplicated into it), one is new: no single
    memory says the whole message, so its raw source is kept, the new atom PART_OF it."""
    add("The kids loved it and it was a nice way to relax after the road trip.")
    message = "We went hiking in the hills yesterday with the whole family! The kids loved it and it was a nice way to relax after the road trip."
    result = add(message)

    assert len(result["memory_ids"]) == 1 and len(result["deduped"]) == 1
    raw = Memory.objects.get(source=MemorySource.RAW_INPUT, content=message)
    part_of = Edge.objects.filter(edge_type="PART_OF", target=raw).values_list("source_id", flat=True)
    assert {str(i) for i in part_of} == set(result["memory_ids"])


def test_a_message_wholly_known_already_keeps_no_raw_source(add):
    first = "I live in Lisbon near the river. I work as a nurse at Santa Maria hospital. I have two cats named Miso and Tofu."
    add(first)
    again = add(
        "I work as a nurse at Santa Maria hospital. I have two cats named Miso and Tofu. I live in Lisbon near the river."
    )

    assert again["memory_ids"] == []
    assert Memory.objects.filter(source=MemorySource.RAW_INPUT).count() == 1


def test_a_message_its_statements_leave_mostly_unsaid_keeps_its_raw_source(add):
    """The rules keep statements: a question asked beside one short remark leaves only the remark.
    The message is kept whole too, however short, so what was asked is still held."""
    message = "How do we stop preview environments piling up if a PR just sits open for weeks? Some of ours do."
    result = add(message, extract=True)

    assert [m.content for m in Memory.objects.filter(pk__in=result["memory_ids"])] == ["Some of ours do."]
    raw = Memory.objects.get(source=MemorySource.RAW_INPUT, content=message)
    part_of = Edge.objects.filter(edge_type="PART_OF", target=raw).values_list("source_id", flat=True)
    assert {str(i) for i in part_of} == set(result["memory_ids"])


@pytest.mark.parametrize(
    "message",
    [
        "I adopted a dog named Pixel.",
        "Oh, by the way, I adopted a dog named Pixel last week!",
        # Another speaker's question in a transcript is kept as its statements are.
        "John: Wow, great view! Have you visited any other places along the coast since spring?",
    ],
)
def test_a_message_its_statement_says_keeps_no_raw_source(add, message):
    result = add(message, extract=True)

    assert len(result["memory_ids"]) == 1
    assert not Memory.objects.filter(source=MemorySource.RAW_INPUT).exists()


def test_a_raw_line_of_a_transcript_is_said_by_its_speaker(add):
    message = "Caroline: I went to the LGBTQ support group yesterday and it was powerful. I also started painting again with my new easel."
    add(message)

    raw = Memory.objects.get(source=MemorySource.RAW_INPUT, content=message)
    assert raw.facets == {"speaker": "Caroline"}


def test_an_assistants_turn_is_one_memory_whose_i_is_not_the_owner(add):
    turn = (
        "assistant: I'd start with the profile. Paste your current CV and I will rewrite the summary; "
        "you critique my version. Keep it to four lines."
    )

    answer = add(turn, extract=True)

    assert [m.content for m in Memory.objects.filter(id__in=answer["memory_ids"])] == [turn]
    assert not Memory.objects.filter(content__contains="bob will rewrite").exists()
    assert Memory.objects.get(id=answer["memory_ids"][0]).facets["speaker"] == "assistant"


def test_a_message_holding_code_is_one_memory_with_its_code(add):
    message = (
        "Here's our Dockerfile, the image build takes eight minutes:\n\n"
        "```dockerfile\nFROM python:3.12-slim\nRUN pip install -r requirements.txt\nCOPY . /app\n```"
    )

    answer = add(message, extract=True)

    stored = [m.content for m in Memory.objects.filter(id__in=answer["memory_ids"])]
    assert stored == [message]
    assert not Memory.objects.filter(content__istartswith="run pip install").exists()


def test_a_message_of_prose_is_still_split_into_its_statements(add):
    answer = add("I moved to Porto in March. My sister Ana lives in Lisbon.", extract=True)

    assert sorted(m.content for m in Memory.objects.filter(id__in=answer["memory_ids"])) == [
        "bob moved to Porto in March.",
        "bob's sister Ana lives in Lisbon.",
    ]


@pytest.mark.parametrize(
    "message",
    [
        "# Notes\n- I moved to Porto in March.\n- My sister Ana lives in Lisbon.",  # a heading, not a comment
        "I moved to Porto in March. My sister Ana lives in Lisbon, ratio = 1.",  # one code-like line of prose
    ],
)
def test_prose_with_a_line_that_looks_like_code_is_still_split(add, message):
    answer = add(message, extract=True)

    stored = [m.content for m in Memory.objects.filter(id__in=answer["memory_ids"])]
    assert "bob moved to Porto in March." in stored
    assert message not in stored
