"""Filing by an OpenAI-compatible LLM, served over real HTTP by the local test server: told
the categories its write domain already has, never another domain's; the rules when it fails."""

from __future__ import annotations

import json

import pytest
from django.test import override_settings

from memory.categories.models import Category, Filing
from memory.categories.services import category_ensure, memories_file
from memory.providers import get_llm
from rbac.models import Role
from rbac.policy import write_domain_resolve
from tests.factories import grant, make_memory, make_principal, make_workspace
from tests.openai_compatible_server import chat_answer, error_answer

CHAT = "/v1/chat/completions"
pytestmark = pytest.mark.django_db


def extraction(content: str, memory_type: str = "fact") -> object:
    return chat_answer(json.dumps({"atoms": [{"content": content, "type": memory_type}], "relations": []}))


def filing(*categories: str) -> object:
    return chat_answer(json.dumps({"items": [{"index": 0, "categories": list(categories)}]}))


def test_the_llm_files_a_new_memory_and_reuses_the_domain_categories(llm_server, add, team):
    writer = team["writer"].principal
    domain = write_domain_resolve(actor=team["writer"], group_id="team")
    category_ensure(scope=domain.scope, paths=["work/infrastructure"])
    memories_file(memory_ids=[make_memory(author=writer, domain=domain, content="Bob runs the DNS servers.").id])
    elsewhere = make_workspace("elsewhere")
    category_ensure(scope=f"rbac:group:{elsewhere.id}", paths=["secret-project/launch"])
    llm_server.queue(CHAT, extraction("bob migrated the DNS zone to Route 53."), filing("Work/Infrastructure", "dns"))

    result = add("I migrated the DNS zone to Route 53.")

    (memory_id,) = result["memory_ids"]
    asked = json.loads(llm_server.requests_to(CHAT)[-1]["messages"][-1]["content"])
    assert asked["existing_categories"] == ["work/infrastructure"]
    assert asked["memories"] == [{"index": 0, "content": "bob migrated the DNS zone to Route 53.", "type": "fact"}]
    filed = Filing.objects.filter(memory_id=memory_id)
    assert sorted(f.category.path for f in filed) == ["dns", "work/infrastructure"]
    assert {f.method for f in filed} == {"llm"}


def test_the_rules_file_what_the_llm_cannot(llm_server, add):
    llm_server.queue(CHAT, extraction("bob is allergic to peanuts.", "preference"), error_answer(500))

    result = add("I am allergic to peanuts.")

    filed = Filing.objects.filter(memory_id=result["memory_ids"][0])
    assert "health/allergies" in [f.category.path for f in filed]
    assert {f.method for f in filed} == {"rules"}


def test_paths_the_llm_invents_badly_are_dropped(llm_server, db):
    writer = make_principal("writer")
    grant(writer, make_workspace("team"), Role.WORKER)
    domain = write_domain_resolve(actor=writer.user, group_id="team")
    memory = make_memory(author=writer, domain=domain, content="Bob is allergic to peanuts.")
    llm_server.queue(CHAT, filing("!!!", "a/b/c/d/e/f", "Health / Allergies"))

    methods = memories_file(memory_ids=[memory.id], llm=get_llm())

    assert methods == {str(memory.id): "llm"}
    assert list(Category.objects.filter(filings__memory=memory).values_list("path", flat=True)) == ["health/allergies"]


def test_with_the_llm_switched_off_for_categories_the_rules_file(llm_server, add):
    llm_server.queue(CHAT, extraction("bob is allergic to peanuts.", "preference"))

    with override_settings(HELIX_CATEGORIES_LLM=False):
        result = add("I am allergic to peanuts.")

    assert len(llm_server.requests_to(CHAT)) == 1
    assert Filing.objects.filter(memory_id=result["memory_ids"][0], method="rules").exists()
