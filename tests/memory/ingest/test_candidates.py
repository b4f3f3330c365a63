"""Stage 3, the candidates of a new message's atoms: found in one statement whatever the
planner believes of the owner's memories."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from django.db import connection, transaction
from django.test import TestCase
from django.utils import timezone

from memory.ingest.atoms import content_key
from memory.ingest.candidates import _BRANCHES, _params, _statement, _statement_for, load_candidates
from memory.ingest.extract import Conversation, extract
from memory.providers import get_embedder, get_llm
from memory.providers.llm import CallBudget
from rbac.models import Role
from rbac.policy import write_domain_resolve
from tests.factories import add_memory_call, grant, make_agent_with_token, make_memory, make_workspace, unit_vector

pytestmark = pytest.mark.django_db

MEMORIES = 60


def plan_nodes(node: dict):
    yield node
    for child in node.get("Plans", []):
        yield from plan_nodes(child)


def nates_candidates(atom, vectors, domain) -> list[list]:
    found, _ = load_candidates(
        atoms=[atom],
        vectors=vectors,
        keys=["no such key"],
        scope=domain.scope,
        user_id="nate",
        readable=domain.visible_in,
    )
    return found


def test_an_owner_grown_past_the_statistics_has_its_candidates_found_in_one_pass_over_its_memories():
    """Statistics taken before the owner had memories make the planner expect a handful. The
    document frequencies of the atom's words were then counted again for every memory holding one
    of them: on the LoCoMo bench, 785 memories took 4.1 s for one atom. The work must grow with the
    owner's memories, not with their square."""
    principal, _ = make_agent_with_token("scribe")
    grant(principal, make_workspace("team"), Role.WORKER)
    domain = write_domain_resolve(actor=principal.user, group_id="team")
    for n in range(3 * MEMORIES):
        make_memory(author=principal, domain=domain, user_id="ada", content=f"Ada filed report {n}")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE memory_memory")  # Nate has no memories yet: expected to have very few
    for n in range(MEMORIES):
        make_memory(author=principal, domain=domain, user_id="nate", content=f"Nate painted picture {n} of the lake")
    atom = SimpleNamespace(content="Nate painted the lake again", attribute=None, entities=[], values=[])
    vectors = np.array([unit_vector()], dtype=np.float32)
    params = _params([atom], vectors, ["no such key"], domain.scope, "nate", domain.visible_in, [])

    with transaction.atomic(), connection.cursor() as cursor:
        # The plans a planner misled by its statistics picks: nothing but nested loops, their inner
        # side run again for each outer row rather than kept (it expects one or two). The statement
        # before this one handled 16,300 rows here (the lake's frequencies counted again for each of
        # Nate's memories); this one handles about 1,400.
        cursor.execute(
            "SET LOCAL enable_hashjoin TO off; SET LOCAL enable_mergejoin TO off;"
            " SET LOCAL enable_material TO off; SET LOCAL enable_memoize TO off"
        )
        cursor.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + _statement_for(params), params)
        (plan,) = cursor.fetchone()[0]
    found = nates_candidates(atom, vectors, domain)

    rows_handled = sum(node["Actual Rows"] * node["Actual Loops"] for node in plan_nodes(plan["Plan"]))
    assert rows_handled < 40 * MEMORIES  # repeated for each memory of the pool, it grows with their square
    assert len(found[0]) >= 5 and all("picture" in c.memory.content for c in found[0])


def test_a_large_owners_text_candidates_come_from_the_rows_holding_the_atoms_rarest_words():
    """A turn's common words are in most of an owner's memories; the memories it may repeat or
    update share its rare words. Those rows are scored, not every row holding a common one."""
    principal, _ = make_agent_with_token("scribe")
    grant(principal, make_workspace("team"), Role.WORKER)
    domain = write_domain_resolve(actor=principal.user, group_id="team")
    for n in range(300):
        make_memory(
            author=principal, domain=domain, user_id="nate", content=f"Nate walked the dog in the park, day {n}"
        )
    rare = [
        make_memory(
            author=principal, domain=domain, user_id="nate", content=f"Nate renewed the passport at the embassy {n}"
        )
        for n in range(3)
    ]
    atom = SimpleNamespace(
        content="Nate walked to the embassy in the park about the passport", attribute=None, entities=[], values=[]
    )
    vectors = np.array([unit_vector()], dtype=np.float32)
    params = _params([atom], vectors, ["no such key"], domain.scope, "nate", domain.visible_in, [])

    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + _statement_for(params), params)
        (plan,) = cursor.fetchone()[0]
    found = nates_candidates(atom, vectors, domain)

    by_text = {c.memory.id for c in found[0] if "text" in c.via}
    assert {m.id for m in rare} <= by_text
    # Each row of the pool has its words read (the unnest beside it): the rare word's three rows.
    unnests = [node for node in plan_nodes(plan["Plan"]) if "lexeme = ANY" in (node.get("Filter") or "")]
    assert unnests and all(node["Actual Loops"] <= 10 for node in unnests)


def test_the_statement_leaves_out_only_the_sources_no_atom_gives_input_to():
    """Each source of candidates (vector, text, fingerprint, attribute, values, names) is in the
    statement when an atom gives it input: what the statement finds is what the statement with
    every source finds, for atoms with and without attributes, values and names."""
    principal, _ = make_agent_with_token("scribe")
    grant(principal, make_workspace("team"), Role.WORKER)
    domain = write_domain_resolve(actor=principal.user, group_id="team")
    said = [
        "I live in Lisbon.",
        "The ops demo is on March 3.",
        "Priya Raman reviews every deploy.",
        "I like green tea in the morning.",
        "Our build takes about twelve minutes.",
    ]
    for message in said:
        with TestCase.captureOnCommitCallbacks(execute=True):
            add_memory_call(actor=principal.user, user_id="nate", group_id="team", message=message)
    now = timezone.now()
    given = [
        "I moved to Porto.",  # an attribute
        "The ops demo is on the 24th now.",  # a value
        "Priya Raman approves the releases too.",  # a name
        "I like green tea in the morning.",  # none of them
        "The build now takes four minutes.",
    ]
    every = _statement(frozenset(_BRANCHES))
    sources_used = set()
    for message in given:
        atoms = extract(
            message=message,
            subject="nate",
            conversation=Conversation(),
            now=now,
            verbatim=False,
            max_atoms=10,
            llm=get_llm(),
            budget=CallBudget(0),
            run_id=None,
        ).atoms
        vectors = get_embedder().embed([a.content for a in atoms], purpose="test")
        keys = [content_key(scope=domain.scope, memory_type=a.memory_type, content=a.content) for a in atoms]
        params = _params(atoms, vectors, keys, domain.scope, "nate", domain.visible_in, [])
        chosen = _statement_for(params)
        with connection.cursor() as cursor:
            cursor.execute(every, params)
            found_by_every = sorted(map(str, cursor.fetchall()))
            cursor.execute(chosen, params)
            found = sorted(map(str, cursor.fetchall()))
        assert found == found_by_every, message
        sources_used |= {name for name in _BRANCHES if f"'{name}'" in chosen}
        if message == "I like green tea in the morning.":
            assert {name for name in _BRANCHES if f"'{name}'" in chosen} == {"vector", "text", "key"}
    assert sources_used == set(_BRANCHES)  # each source was needed by one of them
