"""mem0's own Python client (mem0ai 2.2.1, unchanged) against Helixsite's mem0 door: every call
it offers, the ids and metadata it sends coming back, and the agent API's refusals across
workspaces through this door."""

from __future__ import annotations

import uuid
from datetime import datetime

import httpx
import pytest
from mem0.exceptions import AuthenticationError, MemoryNotFoundError, ValidationError

from helixsite.body_limit import body_limit_for

EXCHANGE = [
    {"role": "user", "content": "I moved to Lisbon last spring."},
    {"role": "assistant", "content": "Lisbon is lovely. How is the new flat?"},
    {"role": "user", "content": "The flat is near the river and I cycle to work along it."},
]


def add_exchange(mem0) -> list[dict]:
    added = mem0.add(
        EXCHANGE, user_id="alice", agent_id="coach", run_id="run-1", metadata={"topic": "home"}, infer=False
    )
    return added["results"]


def test_an_exchange_added_verbatim_comes_back_with_its_ids_and_metadata(client):
    mem0 = client("writer")

    events = add_exchange(mem0)
    stored = mem0.get(events[0]["id"])

    assert [e["event"] for e in events] == ["ADD", "ADD", "ADD"]
    assert [e["memory"] for e in events][0] == "I moved to Lisbon last spring."
    assert "Lisbon is lovely" in events[1]["memory"]
    assert stored["memory"] == "I moved to Lisbon last spring."
    assert (stored["user_id"], stored["agent_id"], stored["run_id"]) == ("alice", "coach", "run-1")
    assert stored["metadata"] == {"topic": "home"}


def test_the_same_exchange_again_is_reported_noop(client):
    mem0 = client("writer")
    first = add_exchange(mem0)

    again = add_exchange(mem0)

    assert [e["event"] for e in again] == ["NOOP", "NOOP", "NOOP"]
    assert [e["id"] for e in again] == [e["id"] for e in first]


def test_search_keeps_to_the_filters(client):
    mem0 = client("writer")
    add_exchange(mem0)
    mem0.add("Alice likes hiking in the hills on weekends.", user_id="alice", metadata={"topic": "hobby"})
    mem0.add("Bob moved to Lisbon too.", user_id="bob", run_id="run-2")

    in_the_run = mem0.search("where does she live", filters={"AND": [{"user_id": "alice"}, {"run_id": "run-1"}]})
    hobbies = mem0.search(
        "what does alice do on weekends", filters={"user_id": "alice", "metadata": {"topic": "hobby"}}
    )
    anyone = mem0.search("who moved to Lisbon", filters={"run_id": {"in": ["run-1", "run-2"]}}, top_k=10)

    assert in_the_run["results"][0]["memory"] == "I moved to Lisbon last spring."
    assert {r["run_id"] for r in in_the_run["results"]} == {"run-1"}
    assert [r["metadata"] for r in hobbies["results"]] == [{"topic": "hobby"}]
    assert "hiking" in hobbies["results"][0]["memory"]
    assert {r["user_id"] for r in anyone["results"]} == {"alice", "bob"}
    assert all(isinstance(r["score"], float) for r in anyone["results"])


def test_search_results_carry_the_writing_agent_and_the_last_change(client):
    mem0 = client("writer")
    memory_id = mem0.add("Alice likes hiking on weekends.", user_id="alice", agent_id="coach")["results"][0]["id"]
    mem0.update(memory_id, text="Alice likes climbing on weekends.")

    found = mem0.search("what does alice do on weekends", filters={"user_id": "alice"})["results"][0]
    stored = mem0.get(memory_id)

    assert (found["id"], found["agent_id"]) == (memory_id, "coach")
    assert datetime.fromisoformat(found["updated_at"]) == datetime.fromisoformat(stored["updated_at"])
    assert datetime.fromisoformat(found["updated_at"]) > datetime.fromisoformat(found["created_at"])


def test_a_bad_filter_is_a_validation_error_naming_its_part(client):
    with pytest.raises(ValidationError) as refused:
        client("writer").search("anything", filters={"AND": [{"user_id": "alice"}, {"colour": {"near": 1}}]})

    assert "filters.AND[1]" in str(refused.value.details)


def test_get_all_pages_through_one_owners_memories(client):
    mem0 = client("writer")
    add_exchange(mem0)
    mem0.add("Bob moved to Lisbon too.", user_id="bob")

    everything = mem0.get_all(filters={"user_id": "alice"})
    first = mem0.get_all(filters={"user_id": "alice"}, page=1, page_size=2)
    second = mem0.get_all(filters={"user_id": "alice"}, page=2, page_size=2)

    assert everything["count"] == 3
    assert {m["user_id"] for m in everything["results"]} == {"alice"}
    assert (len(first["results"]), len(second["results"])) == (2, 1)
    assert first["next"] and second["next"] is None and second["previous"]
    seen = {m["id"] for m in first["results"] + second["results"]}
    assert seen == {m["id"] for m in everything["results"]}


def test_update_corrects_the_text_and_history_tells_it(client):
    mem0 = client("writer")
    added = mem0.add("Alice likes hiking in the hills on weekends.", user_id="alice")
    memory_id = added["results"][0]["id"]

    updated = mem0.update(memory_id, text="Alice likes climbing on weekends.")
    history = mem0.history(memory_id)

    assert updated["memory"] == "Alice likes climbing on weekends."
    assert mem0.get(memory_id)["memory"] == "Alice likes climbing on weekends."
    assert [h["event"] for h in history] == ["ADD", "UPDATE"]
    assert history[1]["old_memory"] == history[0]["new_memory"]
    assert history[1]["new_memory"] == "Alice likes climbing on weekends."


def test_a_deleted_memorys_history_ends_in_its_delete(client):
    mem0 = client("writer")
    memory_id = mem0.add("Alice likes hiking on weekends.", user_id="alice")["results"][0]["id"]
    mem0.update(memory_id, text="Alice likes climbing on weekends.")
    mem0.delete(memory_id)

    history = mem0.history(memory_id)

    assert [h["event"] for h in history] == ["ADD", "UPDATE", "DELETE"]
    assert (history[2]["old_memory"], history[2]["new_memory"]) == ("Alice likes climbing on weekends.", None)
    with pytest.raises(MemoryNotFoundError):
        mem0.get(memory_id)
    unseen_by = (  # a viewer read it before, but a forgotten memory is for those who may change it
        lambda: client("viewer").history(memory_id),
        lambda: client("outsider").history(memory_id),
        lambda: mem0.history(str(uuid.uuid4())),
    )
    for unseen in unseen_by:
        with pytest.raises(MemoryNotFoundError):
            unseen()


def test_a_verbatim_memory_is_not_rewritten(client):
    mem0 = client("writer")
    verbatim = add_exchange(mem0)[0]["id"]

    with pytest.raises(ValidationError) as refused:
        mem0.update(verbatim, text="I moved to Porto.")
    with pytest.raises(ValidationError):
        mem0.update(verbatim, metadata={"topic": "moves"})

    assert refused.value.debug_info["status_code"] == 409
    assert mem0.get(verbatim)["memory"] == "I moved to Lisbon last spring."


def test_delete_forgets_one_and_delete_all_an_owners_every_memory(client):
    mem0 = client("writer")
    events = add_exchange(mem0)
    mem0.add("Bob moved to Lisbon too.", user_id="bob")

    deleted = mem0.delete(events[0]["id"])
    with pytest.raises(MemoryNotFoundError):
        mem0.get(events[0]["id"])
    everything = mem0.delete_all(user_id="alice")

    assert deleted == {"message": "Memory deleted successfully!"}
    assert (everything["deleted"], everything["refused"], everything["more"]) == (2, 0, False)
    assert mem0.get_all(filters={"user_id": "alice"})["count"] == 0
    assert mem0.get_all(filters={"user_id": "bob"})["count"] == 1


def test_users_lists_owners_agents_and_runs(client):
    mem0 = client("writer")
    add_exchange(mem0)
    mem0.add("Bob moved to Lisbon too.", user_id="bob")

    entities = {(e["type"], e["name"]): e["total_memories"] for e in mem0.users()["results"]}

    assert entities == {("user", "alice"): 3, ("user", "bob"): 1, ("agent", "coach"): 3, ("run", "run-1"): 3}


def test_another_workspaces_token_can_neither_read_nor_delete(client):
    writer, outsider = client("writer"), client("outsider")
    memory_id = add_exchange(writer)[0]["id"]

    for call in (
        lambda: outsider.get(memory_id),
        lambda: outsider.history(memory_id),
        lambda: outsider.update(memory_id, text="Alice moved to Porto."),
        lambda: outsider.delete(memory_id),
    ):
        with pytest.raises(MemoryNotFoundError):
            call()
    found = outsider.search("where does alice live", filters={"user_id": "alice"})
    listed = outsider.get_all(filters={"user_id": "alice"})
    swept = outsider.delete_all(user_id="alice")
    outsider.delete_users(user_id="alice")

    assert (found["results"], listed["count"], outsider.users()["results"]) == ([], 0, [])
    assert swept["deleted"] == 0
    assert writer.get(memory_id)["memory"] == "I moved to Lisbon last spring."
    assert writer.get_all(filters={"user_id": "alice"})["count"] == 3


def test_a_viewer_reads_but_cannot_write_or_delete(client):
    memory_id = add_exchange(client("writer"))[0]["id"]
    viewer = client("viewer")

    with pytest.raises(AuthenticationError):
        viewer.add("Alice moved to Porto.", user_id="alice")
    with pytest.raises(AuthenticationError):
        viewer.delete(memory_id)
    swept = viewer.delete_all(user_id="alice")

    assert (swept["deleted"], swept["refused"]) == (0, 3)
    assert viewer.get(memory_id)["memory"] == "I moved to Lisbon last spring."


def test_a_workspace_in_the_host_must_be_one_the_token_may_use(door):
    own = door.client("writer", url=f"{door.url}/w/team")
    with pytest.raises(ValueError, match="Workspace not found"):
        door.client("outsider", url=f"{door.url}/w/team")

    added = own.add("Alice keeps bees.", user_id="alice")

    assert added["results"][0]["event"] == "ADD"


def test_a_token_writing_to_several_workspaces_names_one(door):
    anywhere, into_team = door.client("both"), door.client("both", url=f"{door.url}/w/team")

    with pytest.raises(ValidationError) as refused:
        anywhere.add("Alice keeps bees.", user_id="alice")
    named = anywhere.add("Alice keeps bees.", user_id="alice", project_id="elsewhere")
    in_path = into_team.add("Alice keeps bees.", user_id="alice")

    assert (anywhere.project_id, into_team.project_id) == ("ask", "team")
    assert refused.value.details["code"] == "ambiguous_workspace"
    # The same text in two workspaces is two memories: each workspace deduplicates on its own.
    assert named["results"][0]["id"] != in_path["results"][0]["id"]
    assert door.client("outsider").get(named["results"][0]["id"])["memory"] == "Alice keeps bees."


def test_a_buffered_add_is_answered_pending(client, settings):
    settings.HELIX_ADD_BUFFERED = True

    queued = client("writer").add("Alice keeps bees.", user_id="alice")

    assert (queued["status"], queued["results"]) == ("PENDING", [])
    assert queued["event_id"]


def test_the_key_must_be_a_live_token_sent_as_mem0_sends_it(door):
    with pytest.raises(ValueError, match="Invalid or revoked token"):
        door.client("writer").__class__(api_key="hxt_not-a-token", host=door.url)
    bearer = httpx.get(f"{door.url}/v1/ping/", headers={"Authorization": f"Bearer {door.tokens['writer']}"})
    missing = httpx.get(f"{door.url}/v1/ping/")

    assert (bearer.status_code, missing.status_code) == (401, 401)
    assert missing.headers["WWW-Authenticate"] == "Token"
    assert missing.json()["detail"]


def test_an_add_naming_nobody_is_refused(client):
    with pytest.raises(ValidationError) as refused:
        client("writer").add("Something happened.")

    assert refused.value.details["field"] == "user_id"


@pytest.mark.parametrize(
    ("method", "path", "body", "field"),
    [
        ("post", "/v3/memories/add/", {"messages": "x" * 10, "user_id": "u" * 201}, "user_id"),
        ("post", "/v3/memories/add/", {"messages": [{"role": "robot", "content": "hi"}], "user_id": "a"}, "messages"),
        ("post", "/v3/memories/add/", {"messages": [{"content": 5}], "user_id": "a"}, "messages[0].content"),
        ("post", "/v3/memories/add/", {"messages": [{"content": "hi"}] * 10_000, "user_id": "a"}, "messages"),
        ("post", "/v3/memories/add/", {"messages": "hi", "user_id": "a", "agent_id": "<b>"}, "agent_id"),
        ("post", "/v3/memories/add/", {"messages": "hi", "filters": {"user_id": {"in": ["a"]}}}, "filters.user_id"),
        ("post", "/v3/memories/add/", {"messages": "hi", "user_id": "a", "custom_instructions": "x"}, None),
        ("post", "/v3/memories/search/", {"query": "q", "top_k": 1000}, "top_k"),
        ("post", "/v3/memories/search/", {"query": "q", "filters": {"AND": 5}}, "filters.AND"),
        ("post", "/v3/memories/search/", {"query": "q" * 100_000}, "query"),
        ("post", "/v3/memories/", [1, 2], None),
        ("post", "/v3/memories/?page_size=5000", {}, "page_size"),
        ("delete", "/v1/memories/", None, "user_id"),
        ("get", "/v1/memories/not-a-uuid/", None, "memory_id"),
        ("put", "/v1/memories/00000000-0000-0000-0000-000000000000/", {"text": {"a": 1}}, "text"),
        ("put", "/v1/batch/", {"memories": [{"memory_id": "x", "text": "y"}] * 10_000}, "memories"),
        ("delete", "/v1/batch/", {"memories": []}, "memories"),
        ("delete", "/v2/entities/robot/alice/", None, "entity"),
        ("delete", f"/v2/entities/user/{'a' * 300}/", None, "entity"),
        ("delete", "/v1/batch/", {"memories": [{"memory_id": 5}]}, "memories[0].memory_id"),
    ],
)
def test_hostile_input_is_refused_naming_the_field(door, method, path, body, field):
    headers = {"Authorization": f"Token {door.tokens['writer']}"}
    answer = httpx.request(method, f"{door.url}{path}", json=body, headers=headers, timeout=60)

    assert answer.status_code == (404 if "/v2/entities/" in path else 400), answer.text
    assert answer.json()["detail"]
    if field:
        assert answer.json()["field"].startswith(field), answer.json()


def test_a_named_speakers_message_is_their_turn(client):
    mem0 = client("writer")

    added = mem0.add(
        [{"role": "user", "name": "Caroline", "content": "I adopted a dog."}], user_id="alice", infer=False
    )

    assert added["results"][0]["memory"] == "Caroline: I adopted a dog."


def test_an_add_may_carry_as_much_as_add_conversation():
    conversation = body_limit_for("/api/v1/add_conversation")

    assert body_limit_for("/mem0/v3/memories/add/") == conversation
    assert body_limit_for("/mem0/w/team/v3/memories/add/") == conversation
    assert body_limit_for("/mem0/v3/memories/search/") == body_limit_for("/api/v1/search_memory")


def test_batches_update_and_delete_in_order(client):
    mem0 = client("writer")
    ids = [
        mem0.add(text, user_id="alice")["results"][0]["id"] for text in ("Alice keeps bees.", "Alice plays the cello.")
    ]

    updated = mem0.batch_update(
        [
            {"memory_id": ids[0], "text": "Alice keeps two hives of bees."},
            {"memory_id": ids[1], "text": "Alice plays the viola."},
        ]
    )
    deleted = mem0.batch_delete([{"memory_id": ids[0]}])

    assert updated == {"message": "Successfully updated 2 memories"}
    assert deleted == {"message": "Successfully deleted 1 memories"}
    assert mem0.get(ids[1])["memory"] == "Alice plays the viola."
    with pytest.raises(MemoryNotFoundError):
        mem0.get(ids[0])


def test_a_batch_stops_at_the_memory_it_may_not_change(client):
    mine = client("writer").add("Alice keeps bees.", user_id="alice")["results"][0]["id"]
    outsider = client("outsider")
    theirs = outsider.add("Bob keeps goats.", user_id="bob")["results"][0]["id"]

    with pytest.raises(MemoryNotFoundError) as refused:
        outsider.batch_delete([{"memory_id": theirs}, {"memory_id": mine}])
    with pytest.raises(ValidationError) as malformed:
        outsider.batch_update([{"memory_id": theirs, "text": "Bob keeps sheep."}, {"memory_id": mine, "colour": "red"}])

    assert (refused.value.details["field"], refused.value.details["done"]) == ("memories[1].memory_id", [theirs])
    assert malformed.value.details["field"] == "memories[1].colour"
    assert client("writer").get(mine)["memory"] == "Alice keeps bees."


def test_a_superseded_memory_is_reported_deleted(client):
    mem0 = client("writer")
    before = mem0.add("Alice lives in Lisbon.", user_id="alice")["results"][0]

    after = mem0.add("Alice lives in Porto now.", user_id="alice")["results"]

    assert [(e["event"], e["memory"]) for e in after] == [
        ("ADD", "Alice lives in Porto now."),
        ("DELETE", "Alice lives in Lisbon."),
    ]
    assert after[1]["id"] == before["id"]
    assert [h["event"] for h in mem0.history(before["id"])] == ["ADD", "DELETE"]


def test_delete_users_and_reset_forget_what_the_entities_hold(client):
    mem0 = client("writer")
    add_exchange(mem0)
    mem0.add("Bob moved to Lisbon too.", user_id="bob")

    one = mem0.delete_users(user_id="alice")
    after_one = {(e["type"], e["name"]) for e in mem0.users()["results"]}
    everything = mem0.reset()

    assert one == {"message": "Entity deleted successfully."}
    assert after_one == {("user", "bob")}
    assert "reset successful" in everything["message"]
    assert mem0.users()["results"] == []


def test_get_profile_is_the_owners_profile_in_what_the_caller_reads(door, client):
    mem0 = client("writer")
    mem0.add("I am allergic to penicillin.", user_id="alice")
    mem0.add("My goal is to finish the marathon training plan.", user_id="alice")

    found = mem0.get_profile("alice")
    in_the_host = door.client("viewer", url=f"{door.url}/w/team").get_profile("alice")

    assert (found["entity_type"], found["entity_id"], found["status"]) == ("user", "alice", "succeeded")
    assert any("penicillin" in line["text"] for line in found["profile"]["static"])
    assert any("marathon" in line["text"] for line in found["profile"]["dynamic"])
    assert {line["workspace"] for line in found["profile"]["static"]} == {"team"}
    assert found["updated_at"]
    assert in_the_host["profile"] == found["profile"]
    for unseen in (lambda: client("outsider").get_profile("alice"), lambda: mem0.get_profile("nobody")):
        with pytest.raises(MemoryNotFoundError):
            unseen()


@pytest.mark.parametrize(
    "call",
    [
        lambda mem0: mem0.get_summary(),
        lambda mem0: mem0.generate_profile("alice"),
        lambda mem0: mem0.sample_profiles(),
        lambda mem0: mem0.get_profile_job("job-1"),
        lambda mem0: mem0.get_profile_settings(),
        lambda mem0: mem0.update_profile_settings(enabled=True),
        lambda mem0: mem0.create_memory_export(schema="{}"),
        lambda mem0: mem0.get_memory_export(memory_export_id="export-1"),
        lambda mem0: mem0.get_project(),
        lambda mem0: mem0.update_project(custom_instructions="Be brief."),
        lambda mem0: mem0.get_webhooks(project_id="team"),
        lambda mem0: mem0.create_webhook(url="https://example.org/", name="hook", project_id="team", event_types=[]),
        lambda mem0: mem0.update_webhook(webhook_id=1, name="hook"),
        lambda mem0: mem0.delete_webhook(webhook_id=1),
        lambda mem0: mem0.feedback(memory_id=str(uuid.uuid4()), feedback="POSITIVE"),
    ],
)
def test_what_is_not_offered_is_a_json_not_found(client, call):
    with pytest.raises(MemoryNotFoundError) as refused:
        call(client("writer"))

    assert refused.value.details["code"] == "not_offered"
