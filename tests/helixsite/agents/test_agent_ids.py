"""One rule for agent ids, over HTTP: every agent_id and parent_agent_id a tool takes is up to 128
letters, digits and . _ : / @ -; anything else is a 400 invalid_agent_id naming the parameter
and writes nothing. Ids stored before the rule read back as they were stored."""

from __future__ import annotations

import pytest

from helixsite.agents.agent_ids import AgentIdField
from helixsite.agents.catalogue import tool_classes
from memory.documents.models import Document
from memory.models import Memory
from rbac.models import Role, Workspace
from rbac.policy import write_domain_resolve
from rbac.presence.models import AgentInstance
from tests.factories import Caller, bearer_client, grant, make_agent_with_token, make_memory, make_workspace

pytestmark = pytest.mark.django_db

VALID = "codex:main/sub@host-1.a_b"
REFUSED = [
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "has space",
    "naïve",
    "tab\there",
    "x" * 129,
]


@pytest.fixture
def writer(db) -> Caller:
    principal, issued = make_agent_with_token("writer")
    grant(principal, make_workspace("team"), Role.WORKER)
    return Caller("writer", bearer_client(issued.raw))


def add_memory(caller: Caller, message: str = "Bob sails.", **params):
    return caller.call("add_memory", user_id="bob", group_id="team", message=message, extract=False, **params)


def add_document(caller: Caller, **params):
    return caller.call("add_document", user_id="bob", group_id="team", title="Log", text="Bob sails.", **params)


def refusal(answer) -> tuple[int, str, str]:
    error = answer.json()["error"]
    return answer.status_code, error["code"], error.get("field")


@pytest.mark.parametrize("agent_id", REFUSED)
def test_add_memory_and_add_document_refuse_an_agent_id_outside_the_rule(writer, agent_id):
    assert refusal(add_memory(writer, agent_id=agent_id)) == (400, "invalid_agent_id", "agent_id")
    assert refusal(add_document(writer, agent_id=agent_id)) == (400, "invalid_agent_id", "agent_id")
    assert not Memory.objects.exists() and not Document.objects.exists()


@pytest.mark.parametrize("agent_id", REFUSED)
def test_the_presence_tools_refuse_the_same_agent_ids(writer, agent_id):
    writer.call("agent_heartbeat", agent_id="main")

    heartbeat = writer.call("agent_heartbeat", agent_id=agent_id)
    subagent = writer.call("agent_heartbeat", agent_id="sub", parent_agent_id=agent_id)
    farewell = writer.call("agent_farewell", agent_id=agent_id)

    assert refusal(heartbeat) == (400, "invalid_agent_id", "agent_id")
    assert refusal(subagent) == (400, "invalid_agent_id", "parent_agent_id")
    assert refusal(farewell) == (400, "invalid_agent_id", "agent_id")
    assert list(AgentInstance.objects.values_list("agent_id", flat=True)) == ["main"]


def test_an_agent_id_of_every_allowed_character_is_accepted_by_every_tool(writer):
    memory = add_memory(writer, agent_id=VALID)
    document = add_document(writer, agent_id=VALID)
    root = writer.call("agent_heartbeat", agent_id=VALID)
    subagent = writer.call("agent_heartbeat", agent_id=f"{VALID}/2", parent_agent_id=VALID)
    farewell = writer.call("agent_farewell", agent_id=VALID)

    assert [a.status_code for a in (memory, document, root, subagent, farewell)] == [200] * 5
    got = writer.call("get_memory", "get", memory_id=memory.json()["memory_ids"][0]).json()["memory"]
    assert got["agent_id"] == VALID
    assert Document.objects.get().agent_id == VALID
    assert subagent.json()["parent_agent_id"] == VALID
    assert farewell.json()["subagents_ended"] == [f"{VALID}/2"]


def test_the_longest_agent_id_fits_and_an_empty_one_stays_optional_where_it_was(writer):
    longest = "a" * 128

    assert add_memory(writer, agent_id=longest).status_code == 200
    assert add_memory(writer, agent_id="", message="Bob rows.").status_code == 200
    assert add_document(writer, agent_id="").status_code == 200
    assert writer.call("agent_heartbeat", agent_id=longest).status_code == 200
    assert refusal(writer.call("agent_heartbeat", agent_id=""))[::2] == (400, "agent_id")
    assert sorted(Memory.objects.values_list("agent_id", flat=True)) == ["", longest]


def test_an_agent_id_stored_before_the_rule_reads_back_as_stored(writer):
    author = make_agent_with_token("author")[0]
    grant(author, Workspace.objects.get(slug="team"), Role.WORKER)
    domain = write_domain_resolve(actor=author.user, group_id="team")
    memory = make_memory(author=author, domain=domain, user_id="bob", content="Bob rows.", agent_id="<b>old</b>")

    got = writer.call("get_memory", "get", memory_id=str(memory.id))
    listed = writer.call("list_memories", "get", user_id="bob")

    assert got.json()["memory"]["agent_id"] == "<b>old</b>"
    assert [m["agent_id"] for m in listed.json()["memories"]] == ["<b>old</b>"]


def test_every_agent_id_a_tool_takes_follows_the_rule():
    fields = {
        (tool.tool, name): type(field)
        for tool in tool_classes()
        for name, field in tool.InputSerializer().fields.items()
        if name in ("agent_id", "parent_agent_id")
    }

    assert set(fields) >= {("add_memory", "agent_id"), ("add_document", "agent_id"), ("agent_heartbeat", "agent_id")}
    assert {key: kind for key, kind in fields.items() if kind is not AgentIdField} == {}
