"""Health statements are typed health by the rules, whatever else they say.

An allergy, an intolerance, a condition, a diagnosis or a medicine and its dose matters for
safety: an agent asked to plan a dinner or a trip must find it as what it is, not as a
preference ("I am allergic to peanuts" was once typed like "I love peanut butter") or a plain
fact. Places and people of care ("I work at the hospital", "my doctor's office moved") say
nothing of anyone's health and keep their own type.
"""

from __future__ import annotations

from datetime import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from memory.api.read import ListMemoriesApi
from memory.ingest.english.memory_types import classify
from memory.ingest.extract import Conversation, extract_by_rules
from memory.models import Concept, Memory, MemoryType
from rbac.models import Role
from rbac.policy import write_domain_resolve
from tests.factories import grant, make_memory, make_principal, make_workspace, tool_call

HEALTH = [
    "I am allergic to peanuts.",
    "My son has asthma.",
    "I take 20 mg of lisinopril daily.",
    "I was diagnosed with type 2 diabetes.",
    "I'm lactose intolerant.",
    "I can't eat gluten, I have coeliac disease.",
    "My daughter is allergic to penicillin.",
    "My wife carries an EpiPen for her bee sting allergy.",
    "I have high blood pressure.",
    "My dad is diabetic and injects insulin before meals.",
    "I get migraines when I skip meals.",
    "My partner has epilepsy.",
    "I use an inhaler before I run.",
    "My mum was diagnosed with breast cancer last year.",
    "I'm on antidepressants.",
    "My brother has ADHD.",
    "I take metformin twice a day.",
    "My son had an anaphylactic reaction to cashews.",
    "I'm pregnant with our second child.",
    "My grandfather has dementia.",
    "I have a shellfish allergy.",
    "My doctor prescribed antibiotics for a week.",
    "I need 5 mg of warfarin every evening.",
    "My sister has a heart condition.",
    "I'm not allergic to peanuts after all.",
    "My husband has psoriasis on his elbows.",
    "I have a hearing aid in my left ear.",
    "My son's eczema flares up in winter.",
]

NOT_HEALTH = [
    ("I love peanut butter.", "preference"),
    ("I work at the hospital.", "fact"),
    ("My doctor's office moved to Elm Street.", "fact"),
    ("My sister is a pharmacist.", "fact"),
    ("I go to the gym every morning.", "fact"),
    ("I can't stand hospital food.", "preference"),
    ("My dentist appointment is on Tuesday.", "event"),
    ("Dr. Ana Ruiz is my doctor.", "fact"),
    ("I want to run a marathon next year.", "goal"),
    ("I'm a nurse at St Mary's.", "fact"),
    ("We decided to move the clinic's servers to Postgres.", "decision"),
    ("I drink three espressos a day.", "fact"),
]
NOW = datetime(2026, 12, 1, 12, 0)


@pytest.mark.parametrize("statement", HEALTH)
def test_a_health_statement_is_typed_health(statement):
    atoms = extract_by_rules(message=statement, subject="bob", conversation=Conversation(), now=NOW, max_atoms=15).atoms

    assert classify(statement) == "health"
    assert {atom.memory_type for atom in atoms} == {"health"}


@pytest.mark.parametrize(("statement", "memory_type"), NOT_HEALTH)
def test_care_places_people_and_foods_are_not_health(statement, memory_type):
    assert classify(statement) == memory_type


def test_there_are_at_least_twenty_five_health_statements_and_ten_controls():
    assert len(set(HEALTH)) >= 25
    assert len({statement for statement, _ in NOT_HEALTH}) >= 10


@pytest.mark.django_db
def test_an_added_allergy_is_stored_as_health_and_listed_by_its_type(add, team):
    answer = add("I am allergic to peanuts. I love peanut butter cookies though.")

    stored = {m.content: m for m in Memory.objects.filter(id__in=answer["memory_ids"])}
    assert stored["bob is allergic to peanuts."].memory_type == MemoryType.HEALTH
    assert "health" in {c.name for c in stored["bob is allergic to peanuts."].concepts.all()}
    listed = tool_call(ListMemoriesApi, actor=team["writer"], user_id="bob", memory_type="health")
    assert [m["content"] for m in listed["memories"]] == ["bob is allergic to peanuts."]


@pytest.mark.django_db
def test_the_health_type_comes_and_goes_with_its_migration_and_leaves_stored_rows_alone():
    """The previous release (schema 0017) writes the types it knows into the migrated schema, and
    a health row stays a readable row when the schema goes back: the type is a plain string."""
    writer = make_principal("writer")
    grant(writer, make_workspace("team"), Role.WORKER)
    domain = write_domain_resolve(actor=writer.user, group_id="team")
    executor = MigrationExecutor(connection)
    executor.migrate([("memory", "0017_event_time_whole_range")])
    try:
        assert not Concept.objects.filter(name="health").exists()
        earlier = make_memory(author=writer, domain=domain, content="bob likes tea.", memory_type="preference")
    finally:
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
    health = make_memory(author=writer, domain=domain, content="bob has asthma.", memory_type="health")

    assert Concept.objects.get(name="health").description.startswith("an allergy")
    assert Memory.objects.get(pk=earlier.pk).memory_type == "preference"
    executor.loader.build_graph()
    executor.migrate([("memory", "0017_event_time_whole_range")])
    try:
        assert Memory.objects.get(pk=health.pk).memory_type == "health"
        assert not Concept.objects.filter(name="health").exists()
    finally:
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
