"""Stage 3: for each atom, the stored memories it may repeat, refine or contradict.

Only the same owner's current memories in the same write domain are candidates:
another owner's facts are never merged into this owner's. Sources: vector top 5,
full-text top 5 (BM25 among the memories holding the atom's rarest words, with the statistics search
keeps for the workspaces that see the write domain), the exact fingerprint, the same single-valued attribute, the newest
memories holding a value of a thing the atom gives a value (``memory.ingest.english.values``), and
memories mentioning the same entities. One statement gathers all of them for all atoms, with
each candidate's cosine to its atom and its memory's columns, and beside them the owner's memories
nearest to each sentence of an atom that says a change (``memory.ingest.updates``): what it may
update, which the decision never sees.
"""

from __future__ import annotations

import functools
import json
import re
import uuid
from dataclasses import dataclass, field

import numpy as np

from memory.ingest.atoms import Atom, EntityRef
from memory.models import Memory
from memory.search.bm25 import essential_terms, length_norm, parameters, quoted, term_score
from memory.search.corpus import MEMORIES, statistics_of_texts
from memory.search.scope import current_memory

VECTOR_K = 5
TEXT_K = 5
ENTITY_K = 10
ATTRIBUTE_K = 5
VALUE_K = 10
# The rows a text search gathers at most: the atom's rarest words, while the rows holding them fit
# (as the statement search keeps counts them). A memory it repeats or updates shares its rare words.
TEXT_ROWS = 200

# Each candidate's memory comes with the statement, as the decision reads it: every column but the
# vector and the full-text one.
_MEMORY_COLUMNS = ", ".join(
    f'm."{f.column}"' for f in Memory._meta.concrete_fields if f.name not in ("embedding", "search_vector")
)
_CURRENT = f"m.rbac_scope = %(scope)s AND m.user_id = %(user_id)s AND {current_memory('m')}"
_TEXT_SCORE = term_score(n="%(n)s", df="h.df", tf=f"(h.tf / ({length_norm('h.len', '%(avgdl)s')}))")
_ATOMS = """
WITH atoms AS (
    SELECT a.idx, a.vec::vector AS vec, a.key, NULLIF(a.q, '')::tsquery AS q, a.attr_subject, a.attr_name,
           a.names::jsonb AS names, ARRAY(SELECT jsonb_array_elements_text(a.value_keys::jsonb)) AS value_keys,
           ARRAY(SELECT jsonb_array_elements_text(a.terms::jsonb)) AS terms
    FROM unnest(%(idx)s::int[], %(vecs)s::text[], %(keys)s::text[], %(queries)s::text[], %(attr_subjects)s::text[],
                %(attr_names)s::text[], %(names)s::text[], %(value_keys)s::text[], %(terms)s::text[])
         AS a(idx, vec, key, q, attr_subject, attr_name, names, value_keys, terms)
"""
# Each source of candidates: a branch of the statement's ``found``. A branch whose input no atom
# carries (a single-valued attribute, values, distinctive names) finds nothing, and is left out of the
# statement rather than planned for nothing.
_BRANCHES = {
    "vector": f"""
    SELECT a.idx, v.id, 'vector' AS via FROM atoms a CROSS JOIN LATERAL (
        SELECT m.id FROM memory_memory m WHERE {_CURRENT} ORDER BY m.embedding <=> a.vec LIMIT {VECTOR_K}) v
""",
    "text": f"""
    SELECT a.idx, t.id, 'text' FROM atoms a CROSS JOIN LATERAL (
        -- BM25 (memory.search.bm25's term score, with the statistics search keeps) over the owner's
        -- current memories in the write domain that hold one of the atom's rarest words (``q``); the
        -- atom's other words count in their score.
        SELECT h.id FROM (
            SELECT m.id, length(m.search_vector) AS len, cardinality(u.positions) AS tf,
                   coalesce((%(dfs)s::jsonb ->> u.lexeme)::float, 0) AS df
            FROM memory_memory m CROSS JOIN LATERAL unnest(m.search_vector) AS u(lexeme, positions, weights)
            WHERE a.q IS NOT NULL AND {_CURRENT} AND m.search_vector @@ a.q AND u.lexeme = ANY(a.terms)
        ) h
        GROUP BY h.id
        ORDER BY sum({_TEXT_SCORE}) DESC, h.id
        LIMIT {TEXT_K}) t
""",
    "key": f"""
    SELECT a.idx, m.id, 'key' FROM atoms a JOIN memory_memory m ON m.content_key = a.key AND {_CURRENT}
""",
    "attribute": f"""
    SELECT a.idx, t.id, 'attribute' FROM atoms a CROSS JOIN LATERAL (
        SELECT m.id FROM memory_memory m
        WHERE a.attr_name IS NOT NULL AND {_CURRENT} AND m.facets -> 'attribute' ->> 0 = a.attr_subject
          AND m.facets -> 'attribute' ->> 1 = a.attr_name
        ORDER BY m.created_at DESC LIMIT {ATTRIBUTE_K}) t
""",
    "value": f"""
    SELECT a.idx, t.id, 'value' FROM atoms a CROSS JOIN LATERAL (
        SELECT m.id FROM memory_memory m
        WHERE cardinality(a.value_keys) > 0 AND {_CURRENT} AND m.facets -> 'values' ?| a.value_keys
        ORDER BY m.created_at DESC LIMIT {VALUE_K}) t
""",
    "entity": f"""
    SELECT a.idx, e.id, 'entity' FROM atoms a CROSS JOIN LATERAL (
        -- Not run for an atom without names: the plan walks the owner's memories, newest first,
        -- looking for mentions (12 ms for every atom of an owner of 6,000 memories).
        SELECT DISTINCT m.id, m.created_at FROM memory_memory m
        JOIN memory_mention mn ON mn.memory_id = m.id
        JOIN memory_entity en ON en.id = mn.entity_id
        WHERE jsonb_array_length(a.names) > 0 AND {_CURRENT} AND en.rbac_scope = %(scope)s
          AND en.normalized_name IN (SELECT jsonb_array_elements_text(a.names))
        ORDER BY m.created_at DESC LIMIT {ENTITY_K}) e
""",
}
_TAIL = f"""
), candidates AS (
    SELECT idx, id, array_agg(DISTINCT via) AS via FROM found GROUP BY idx, id
)
SELECT {_MEMORY_COLUMNS}, c.idx AS candidate_of, c.via AS candidate_via, 1 - (m.embedding <=> a.vec) AS candidate_cosine
FROM candidates c JOIN atoms a ON a.idx = c.idx JOIN memory_memory m ON m.id = c.id
ORDER BY c.idx, c.id
"""


@functools.cache
def _statement(sources: frozenset[str]) -> str:
    found = "    UNION ALL\n".join(_BRANCHES[name].strip("\n") + "\n" for name in _BRANCHES if name in sources)
    return f"{_ATOMS.rstrip()}\n), found AS (\n{found}{_TAIL.lstrip(chr(10))}"


@dataclass
class Candidate:
    memory: Memory
    cosine: float
    via: set[str] = field(default_factory=set)


def load_candidates(
    *,
    atoms: list[Atom],
    vectors: np.ndarray,
    keys: list[str],
    scope: str,
    user_id: str,
    readable: list[int],
    sentences: list[np.ndarray] | None = None,
) -> tuple[list[list[Candidate]], list[list[list[Candidate]]]]:
    """Each atom's candidates, best cosine first; and for each atom, for each of its ``sentences``
    (vectors, one array an atom), the owner's ``VECTOR_K`` memories nearest to it, nearest first.
    ``readable``: the workspaces that see the write domain, whose BM25 statistics rank the text
    candidates."""
    if not atoms:
        return [], []
    sentences = sentences if sentences is not None else [np.empty((0, vectors.shape[1]))] * len(atoms)
    probes = [(at, vector) for at, found in enumerate(sentences) for vector in found]
    memories: dict[uuid.UUID, Memory] = {}
    result: list[list[Candidate]] = [[] for _ in range(len(atoms) + len(probes))]
    params = _params(atoms, vectors, keys, scope, user_id, readable, [v for _, v in probes])
    for row in Memory.objects.raw(_statement_for(params), params):
        # The statement's columns that are no field of a memory come as annotations of its row.
        index, via, cosine = row.candidate_of, row.candidate_via, row.candidate_cosine  # type: ignore[attr-defined]
        memory = memories.setdefault(row.id, row)  # one instance for a memory several atoms found
        result[index].append(Candidate(memory=memory, cosine=round(float(cosine), 4), via=set(via)))
    ranked = [sorted(found, key=lambda c: -c.cosine) for found in result]
    nearest: list[list[list[Candidate]]] = [[] for _ in atoms]
    for (at, _), found in zip(probes, ranked[len(atoms) :], strict=True):
        nearest[at].append(found)
    return ranked[: len(atoms)], nearest


def _params(
    atoms: list[Atom],
    vectors: np.ndarray,
    keys: list[str],
    scope: str,
    user_id: str,
    readable: list[int],
    probes: list[np.ndarray],
) -> dict:
    """One row an atom, then one a probe: a sentence's vector, with nothing else to match (no
    words, key, attribute, values or names), so only the vector search reads it."""
    blank = [None] * len(probes)
    lexemes, counted = statistics_of_texts(MEMORIES, readable, [_words(atom.content, user_id) for atom in atoms])
    rarest = [essential_terms(found, counted.frequencies, TEXT_ROWS) for found in lexemes]
    return {
        **parameters(),
        "scope": scope,
        "user_id": user_id,
        "n": counted.documents,
        "avgdl": counted.own_length,
        "dfs": json.dumps(counted.frequencies),
        "idx": list(range(len(atoms) + len(probes))),
        "vecs": [_vector(v) for v in vectors] + [_vector(v) for v in probes],
        "keys": keys + blank,
        "queries": [" | ".join(quoted(t) for t in found) for found in rarest] + blank,
        "terms": [json.dumps(found) for found in lexemes] + ["[]"] * len(probes),
        "attr_subjects": [atom.attribute.subject if atom.attribute else None for atom in atoms] + blank,
        "attr_names": [atom.attribute.name if atom.attribute else None for atom in atoms] + blank,
        "names": [json.dumps([e.normalized for e in atom.entities if _distinctive(e)]) for atom in atoms]
        + ["[]"] * len(probes),
        "value_keys": [json.dumps(sorted(value_keys(atom))) for atom in atoms] + ["[]"] * len(probes),
    }


def _statement_for(params: dict) -> str:
    return _statement(_sources(params))


def _sources(params: dict) -> frozenset[str]:
    """The branches the atoms give input to: the vector and the fingerprint always."""
    given = {
        "text": any(params["queries"]),
        "attribute": any(name is not None for name in params["attr_names"]),
        "value": any(keys != "[]" for keys in params["value_keys"]),
        "entity": any(names != "[]" for names in params["names"]),
    }
    return frozenset({"vector", "key"} | {name for name, present in given.items() if present})


def _vector(vector: np.ndarray) -> str:
    return "[" + ",".join(f"{x:.7g}" for x in vector) + "]"


def value_keys(atom: Atom) -> set[str]:
    """The keys of the values the atom may update: those it states now, not those it recalls."""
    return {s.key for s in atom.values if not s.past and not s.additive}


def _words(content: str, user_id: str) -> str:
    """The atom's words but the owner's name, which every candidate carries."""
    owner = user_id.lower()
    return " ".join(w for w in re.findall(r"[A-Za-z0-9]{3,}", content) if w.lower() != owner)


def _distinctive(entity: EntityRef) -> bool:
    """Identifiers, paths, addresses, quoted terms and multi-word names single out a memory;
    a one-word name (a city, a first name) is everywhere, and the vector search covers it."""
    return entity.entity_type != "name" or " " in entity.name.strip()
