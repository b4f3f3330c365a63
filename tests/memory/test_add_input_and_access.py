"""add_memory refusals (nothing written), provider failure, and where memories are visible."""

from __future__ import annotations

import pytest
from django.test import override_settings

from helixsite.errors import ApplicationError
from memory.api.write import AddMemoryApi
from memory.models import IngestRun, Memory
from memory.providers import reset_providers
from memory.selectors import memory_list
from memory.services.add import memory_add
from memory.services.corrections import memory_update
from rbac.models import Role
from rbac.policy import SYSTEM
from rbac.services import federation_attach, federation_create
from tests.factories import grant, make_principal, make_workspace, tool_input

pytestmark = pytest.mark.django_db


def refusal(call) -> tuple[int, str, str | None]:
    with pytest.raises(ApplicationError) as refused:
        call()
    return refused.value.status, refused.value.code, refused.value.field


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({"message": ""}, (400, "blank", "message")),
        ({"message": "   \n\t "}, (400, "empty_message", "message")),
        ({"message": "x" * 40_000}, (400, "message_too_large", "message")),
        ({"metadata": ["not", "an", "object"]}, (400, "not_a_dict", "metadata")),
        ({"metadata": {"blob": "y" * 20_000}}, (400, "metadata_too_large", "metadata")),
        ({"user_id": ""}, (400, "blank", "user_id")),
        ({"user_id": "u" * 201}, (400, "max_length", "user_id")),
        ({"occurred_at": "last tuesday"}, (400, "invalid", "occurred_at")),
        ({"group_id": "nowhere"}, (404, "not_found", "group_id")),
        ({"context": [{"role": "assistant"}]}, (400, "invalid", "context")),
    ],
)
def test_bad_input_is_refused_with_a_code_and_field_and_writes_nothing(team, options, expected):
    call = {"actor": team["writer"], "user_id": "bob", "message": "I live in Paris.", "group_id": "team", **options}

    actor = call.pop("actor")

    assert refusal(lambda: memory_add(actor=actor, **tool_input(AddMemoryApi, **call))) == expected
    assert Memory.objects.count() == 0 and IngestRun.objects.count() == 0


def test_a_viewer_may_not_write_and_an_outsider_does_not_see_the_workspace(team):
    as_viewer = refusal(
        lambda: memory_add(actor=team["viewer"], user_id="bob", message="I live in Paris.", group_id="team")
    )
    as_outsider = refusal(
        lambda: memory_add(actor=team["outsider"], user_id="bob", message="hi there", group_id="team")
    )

    assert as_viewer[:2] == (403, "forbidden")
    assert as_outsider[:2] == (404, "not_found")
    assert Memory.objects.count() == 0


def test_embedding_provider_down_writes_nothing_and_marks_the_run_failed(team):
    with override_settings(
        HELIX_EMBEDDINGS="openai", HELIX_EMBEDDING_BASE_URL="http://127.0.0.1:9/v1", HELIX_EMBEDDING_MAX_RETRIES=0
    ):
        reset_providers()
        status, code, _ = refusal(
            lambda: memory_add(actor=team["writer"], user_id="bob", message="I live in Paris.", group_id="team")
        )

    assert (status, code) == (503, "embedding_unavailable")
    assert Memory.objects.count() == 0
    run = IngestRun.objects.get()
    assert (run.status, run.error_code) == ("failed", "embedding_unavailable")
    assert [(s.name, s.status) for s in run.stages.all()] == [("extract", "succeeded"), ("embed", "failed")]


def test_the_same_fact_in_two_private_workspaces_is_stored_twice_each_visible_only_there(add, team):
    other = make_workspace("other")
    other_writer = make_principal("other-writer")
    grant(other_writer, other, Role.WORKER)

    add("I live in Paris.")
    add("I live in Paris.", actor=other_writer.user, group_id="other")

    assert Memory.objects.filter(content="bob lives in Paris.").count() == 2
    assert len(memory_list(actor=team["writer"])) == 1
    assert len(memory_list(actor=other_writer.user)) == 1
    assert memory_list(actor=team["outsider"]) == []


def test_in_a_federation_the_fact_is_stored_once_and_visible_to_all_current_members(add, team):
    other = make_workspace("other")
    other_writer = make_principal("other-writer")
    grant(other_writer, other, Role.WORKER)
    alliance = federation_create(actor=SYSTEM, name="alliance")
    federation_attach(actor=SYSTEM, federation=alliance, workspace=team["workspace"])
    federation_attach(actor=SYSTEM, federation=alliance, workspace=other)

    first = add("I live in Paris.")
    second = add("I live in Paris.", actor=other_writer.user, group_id="other")

    assert second["memory_ids"] == [] and second["deduped"] == first["memory_ids"]
    assert Memory.objects.count() == 1
    assert [m.content for m in memory_list(actor=other_writer.user)] == ["bob lives in Paris."]
    assert [m.content for m in memory_list(actor=team["viewer"])] == ["bob lives in Paris."]


def test_the_same_sentence_from_two_owners_is_kept_as_two_memories(add):
    add("I live in Paris.", user_id="bob")
    add("I live in Paris.", user_id="carol")

    assert sorted(Memory.objects.values_list("content", flat=True)) == ["bob lives in Paris.", "carol lives in Paris."]


def test_corrections_respect_authorship_roles_and_immutability(add, team):
    mine = add("The office wifi is called helix-5g.")["memory_ids"][0]
    moderator, colleague = make_principal("mod"), make_principal("colleague")
    grant(moderator, team["workspace"], Role.MODERATOR)
    grant(colleague, team["workspace"], Role.WORKER)

    assert refusal(lambda: memory_update(actor=colleague.user, memory_id=mine, content="x is y"))[:2] == (
        403,
        "forbidden",
    )
    assert refusal(lambda: memory_update(actor=team["outsider"], memory_id=mine, content="x is y"))[:2] == (
        404,
        "not_found",
    )
    corrected = memory_update(
        actor=moderator.user, memory_id=mine, content="The office wifi is called helix-6g.", reason="renamed"
    )
    assert corrected.content == "The office wifi is called helix-6g."
    assert corrected.history.get().old_content == "The office wifi is called helix-5g."

    verbatim = add("Deploys freeze on Fridays.", extract=False)["memory_ids"][0]
    assert refusal(lambda: memory_update(actor=team["writer"], memory_id=verbatim, content="no"))[:2] == (
        409,
        "immutable",
    )
    Memory.objects.filter(pk=mine).update(immutable=True)
    assert refusal(lambda: memory_update(actor=moderator.user, memory_id=mine, content="no"))[:2] == (409, "immutable")


def test_verbatim_statements_are_still_decided_on(add, team):
    add("I live in Osaka with my partner.", extract=False)

    moved = add("I moved to Lisbon last month.", extract=False)

    assert moved["decisions"][0]["op"] == "SUPERSEDE"
    assert [m.content for m in memory_list(actor=team["writer"])] == ["I moved to Lisbon last month."]
