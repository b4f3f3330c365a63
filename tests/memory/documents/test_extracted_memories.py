"""The memories extracted from a document (extract=true) when the document stops saying them, over
HTTP: forgetting the document forgets the memories only it said (and the raw copy of its prose),
as forget_memory does; what was said elsewhere too stays. A new version keeps the memories of
the chunks whose text it still has and forgets those only its dropped chunks said."""

from __future__ import annotations

import pytest

from memory.models import HistoryAction, IngestRun, Memory, MemoryHistory
from tests.memory.documents.conftest import add_document, caller

pytestmark = pytest.mark.django_db

HOME = (
    "Ada lives in Lisbon. Ada prefers green tea over coffee. Ada keeps two cats called Figo and Nata, "
    "and she walks to work along the river every morning."
)
WORK = "Ada works at the harbour authority as a data engineer."
PROFILE = f"# About Ada\n\n{HOME}\n\n## Work\n\n{WORK}\n"
PORTO = PROFILE.replace(WORK, "Ada works at the port of Porto as a data architect.")


@pytest.fixture
def with_enrichment(django_capture_on_commit_callbacks):
    """Each call runs what it queues for after commit (enrichment keeps a long paragraph whole,
    as a raw memory its atoms are part of), as the worker would."""

    def run(call, *args, **params):
        with django_capture_on_commit_callbacks(execute=True):
            return call(*args, **params)

    return run


def contents(caller, user_id: str = "ada") -> set[str]:
    """What list_memories shows of the owner's live memories."""
    answer = caller.call("list_memories", user_id=user_id, limit=200, include_superseded=True)
    assert answer.status_code == 200, answer.json()
    return {m["content"] for m in answer.json()["memories"]}


def say(caller, message: str) -> dict:
    answer = caller.call("add_memory", user_id="ada", group_id="crew", message=message)
    assert answer.status_code == 200, answer.json()
    return answer.json()


def forget(caller, document_id: str, **params) -> dict:
    answer = caller.call("forget_document", document_id=document_id, **params)
    assert answer.status_code == 200, answer.json()
    return answer.json()


def test_forgetting_a_document_forgets_the_memories_only_it_said(crew, with_enrichment):
    document = with_enrichment(add_document, crew.writer, title="About Ada", text=PROFILE, extract=True)["document"]
    before = contents(crew.viewer)
    assert {"Ada lives in Lisbon.", WORK, HOME} <= before, "the atoms, and the paragraph kept whole"

    forgotten = forget(crew.writer, document["id"], reason="Ada asked us to")

    assert contents(crew.viewer) == set()
    assert forgotten["memories_forgotten"] == len(before)
    search = crew.viewer.call("search_memory", user_id="ada", query="where does Ada live").json()
    assert search["results"] == []
    lisbon = Memory.objects.get(content="Ada lives in Lisbon.")
    entry = lisbon.history.get()
    assert (entry.action, entry.actor.username) == (HistoryAction.FORGET, "writer")
    assert entry.reason == f"its document 'About Ada' ({document['id']}) was forgotten: Ada asked us to"
    assert entry.details["document_id"] == document["id"]


def test_a_forgotten_memory_of_the_document_can_be_restored_by_an_admin(crew, with_enrichment):
    document = with_enrichment(add_document, crew.writer, title="About Ada", text=PROFILE, extract=True)["document"]
    forget(crew.writer, document["id"])
    lisbon = Memory.objects.get(content="Ada lives in Lisbon.")
    admin, _ = caller("root", admin=True)

    restored = admin.call("restore_memory", memory_id=str(lisbon.pk), reason="still true")

    assert restored.status_code == 200, restored.json()
    assert "Ada lives in Lisbon." in contents(crew.viewer)


def test_what_a_conversation_said_before_or_after_the_document_stays(crew, with_enrichment):
    said_before = say(crew.writer, "Ada prefers green tea over coffee.")
    document = with_enrichment(add_document, crew.writer, title="About Ada", text=PROFILE, extract=True)["document"]
    said_after = say(crew.writer, "Ada lives in Lisbon.")
    assert said_after["memory_ids"] == [] and len(said_after["deduped"]) == 1, "the document's memory, confirmed"

    forgotten = forget(crew.writer, document["id"])

    assert contents(crew.viewer) == {"Ada prefers green tea over coffee.", "Ada lives in Lisbon."}
    assert said_before["memory_ids"][0] == str(Memory.objects.get(content__startswith="Ada prefers").pk)
    assert forgotten["memories_forgotten"] == 3, "the cats, the work, and the paragraph kept whole"


def test_a_memory_corrected_by_hand_stays(crew):
    document = add_document(crew.writer, title="About Ada", text=PROFILE, extract=True)["document"]
    work = Memory.objects.get(content=WORK)
    corrected = crew.writer.call(
        "update_memory", memory_id=str(work.pk), user_id="ada", new_content="Ada works at the harbour authority."
    )
    assert corrected.status_code == 200, corrected.json()

    forget(crew.writer, document["id"])

    assert "Ada works at the harbour authority." in contents(crew.viewer)


def test_a_memory_two_documents_said_goes_with_the_second(crew):
    first = add_document(crew.writer, title="About Ada", text=PROFILE, extract=True)["document"]
    second = add_document(crew.writer, title="Ada's address", text="# Address\n\nAda lives in Lisbon.\n", extract=True)
    second = second["document"]

    after_first = forget(crew.writer, first["id"])

    assert contents(crew.viewer) == {"Ada lives in Lisbon."}
    assert after_first["memories_forgotten"] == 3
    after_second = forget(crew.writer, second["id"])
    assert contents(crew.viewer) == set()
    assert after_second["memories_forgotten"] == 1


def test_forgetting_a_document_without_extraction_forgets_no_memory(crew):
    say(crew.writer, "Ada lives in Lisbon.")
    document = add_document(crew.writer, title="About Ada", text=PROFILE)["document"]

    forgotten = forget(crew.writer, document["id"])

    assert forgotten["memories_forgotten"] == 0
    assert contents(crew.viewer) == {"Ada lives in Lisbon."}


def test_who_may_not_forget_the_document_forgets_no_memory_either(crew):
    document = add_document(crew.writer, title="About Ada", text=PROFILE, extract=True)["document"]
    before = contents(crew.viewer)

    refused = crew.viewer.call("forget_document", document_id=document["id"])

    assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden"
    assert contents(crew.viewer) == before
    assert not MemoryHistory.objects.filter(action=HistoryAction.FORGET).exists()


def test_a_new_version_forgets_what_only_its_dropped_chunk_said_and_keeps_the_rest_linked(crew, with_enrichment):
    first = with_enrichment(add_document, crew.writer, title="About Ada", text=PROFILE, extract=True)["document"]
    lisbon = Memory.objects.get(content="Ada lives in Lisbon.")
    runs = IngestRun.objects.count()

    second = add_document(crew.writer, title="About Ada", text=PORTO, extract=True)

    assert (second["outcome"], second["document"]["version"]) == ("replaced", 2)
    assert second["document"]["memories_forgotten"] == 1
    now = contents(crew.viewer)
    assert WORK not in now and "Ada works at the port of Porto as a data architect." in now
    assert {"Ada lives in Lisbon.", HOME} <= now
    assert IngestRun.objects.count() == runs + 1, "only the changed chunk was read again"
    found = crew.viewer.call("search_memory", user_id="ada", query="where does Ada live", include_chunks=True).json()
    cited = next(r for r in found["results"] if r["id"] == str(lisbon.pk))
    assert (cited["citation"]["document_id"], cited["citation"]["version"]) == (first["id"], 2)
    entry = Memory.objects.get(content=WORK).history.get(action=HistoryAction.FORGET)
    assert entry.reason == f"its document 'About Ada' ({first['id']}) no longer says it from version 2"


def test_a_new_version_without_extraction_keeps_what_its_unchanged_chunks_said(crew):
    add_document(crew.writer, title="About Ada", text=PROFILE, extract=True)

    second = add_document(crew.writer, title="About Ada", text=PORTO)

    assert second["document"]["memories_forgotten"] == 1
    assert contents(crew.viewer) == {
        "Ada lives in Lisbon.",
        "Ada prefers green tea over coffee.",
        "Ada keeps two cats called Figo and Nata, and she walks to work along the river every morning.",
    }


def test_a_new_version_keeps_what_a_conversation_also_said(crew):
    add_document(crew.writer, title="About Ada", text=PROFILE, extract=True)
    say(crew.writer, WORK)

    second = add_document(crew.writer, title="About Ada", text=PORTO, extract=True)

    assert second["document"]["memories_forgotten"] == 0
    assert WORK in contents(crew.viewer)
