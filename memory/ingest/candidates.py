"""Stage 3: for each atom, the stored memories it may repeat, refine or contradict.

Only the same owner's current memories in the same write domain are candidates:
another owner's facts are never merged into this owner's. Sources: vector top-k,
full-text top-k, the exact fingerprint, the same single-valued attribute, and
memories mentioning the same entities.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass, field

import numpy as np
from django.contrib.postgres.search import SearchQuery, SearchRank
from django.db.models import F, Q
from pgvector.django import CosineDistance

from memory.ingest.atoms import Atom
from memory.models import Memory

VECTOR_K = 5
TEXT_K = 5
ENTITY_K = 10


@dataclass
class Candidate:
    memory: Memory
    cosine: float
    via: set[str] = field(default_factory=set)


def load_candidates(
    *, atoms: list[Atom], vectors: np.ndarray, keys: list[str], scope: str, user_id: str
) -> list[list[Candidate]]:
    base = Memory.objects.current().filter(rbac_scope=scope, user_id=user_id)
    found: list[dict[uuid.UUID, set[str]]] = [{} for _ in atoms]
    by_key: dict[str, list[uuid.UUID]] = {}
    for memory_id, key in base.filter(content_key__in=keys).values_list("id", "content_key"):
        by_key.setdefault(key, []).append(memory_id)
    for index, atom in enumerate(atoms):
        hits = found[index]
        for memory_id in by_key.get(keys[index], []):
            hits.setdefault(memory_id, set()).add("key")
        for memory_id in base.order_by(CosineDistance("embedding", vectors[index])).values_list("id", flat=True)[
            :VECTOR_K
        ]:
            hits.setdefault(memory_id, set()).add("vector")
        for memory_id in _text_matches(base, atom.content):
            hits.setdefault(memory_id, set()).add("text")
        for memory_id in _attribute_matches(base, atom):
            hits.setdefault(memory_id, set()).add("attribute")
        for memory_id in _entity_matches(base, atom, scope):
            hits.setdefault(memory_id, set()).add("entity")
    return _with_cosines(found, vectors)


def _text_matches(base, content: str) -> list[uuid.UUID]:  # noqa: ANN001 - a Memory queryset
    words = [w for w in re.findall(r"[A-Za-z0-9]{3,}", content)][:24]
    if not words:
        return []
    query = SearchQuery(" or ".join(words), search_type="websearch", config="english")
    ranked = base.filter(search_vector=query).annotate(rank=SearchRank(F("search_vector"), query, cover_density=True))
    return list(ranked.order_by("-rank").values_list("id", flat=True)[:TEXT_K])


def _attribute_matches(base, atom: Atom) -> list[uuid.UUID]:  # noqa: ANN001
    if atom.attribute is None:
        return []
    subject, name = atom.attribute.subject, atom.attribute.name
    return list(base.filter(facets__attribute__0=subject, facets__attribute__1=name).values_list("id", flat=True)[:5])


def _entity_matches(base, atom: Atom, scope: str) -> list[uuid.UUID]:  # noqa: ANN001
    names = [entity.normalized for entity in atom.entities if entity.entity_type != "name" or len(entity.name) > 2]
    if not names:
        return []
    matches = base.filter(Q(mentions__entity__normalized_name__in=names) & Q(mentions__entity__rbac_scope=scope))
    return list(matches.order_by("-created_at").values_list("id", flat=True).distinct()[:ENTITY_K])


def _with_cosines(found: list[dict[uuid.UUID, set[str]]], vectors: np.ndarray) -> list[list[Candidate]]:
    all_ids = {memory_id for hits in found for memory_id in hits}
    memories = {m.id: m for m in Memory.objects.filter(id__in=all_ids)}
    result: list[list[Candidate]] = []
    for index, hits in enumerate(found):
        candidates = []
        for memory_id, via in hits.items():
            memory = memories[memory_id]
            cosine = float(np.dot(np.asarray(memory.embedding, dtype=np.float32), vectors[index]))
            candidates.append(Candidate(memory=memory, cosine=round(cosine, 4), via=via))
        result.append(sorted(candidates, key=lambda c: -c.cosine))
    return result
