"""``answer_question``: recall ends in an answer, not a list.

The question is recalled and packed as ``build_context`` packs it (diversified, within a token
budget, each memory with its id). Then:

- **with an LLM**, one call answers from that context only and names the memory ids it used;
  ids that were not in the context are dropped from the citations and reported;
- **without one** (or when the call fails), the answer is extractive: the sentence of the packed
  memories that best supports the question (closest in meaning to it, with shared words as extra
  evidence), and a second one from another memory when it is as good, each cited. A question
  asking for someone's attribute ("Where does Zoe live now?") is answered by the memory the
  search found holding its current value (``attribute_match``), alone.

"Not in memory" is an answer: ``found`` is false when nothing packed supports the question.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
from django.conf import settings
from pydantic import BaseModel, Field

from memory.documents.chunks import chunk_prose
from memory.ingest.english.topics import topic_words
from memory.models import Memory
from memory.profiles import profiles_get
from memory.providers import ProviderError, get_embedder, get_llm
from memory.search.conductor import chunk_context_line, estimate_tokens, memory_build_context, memory_context_line
from rbac.actors import Actor

NOT_IN_MEMORY = "Not in memory."
MAX_SENTENCES = 60  # of the packed memories, weighed for an extractive answer
SHARED_WORDS_WEIGHT = 0.15  # the share of the question's words a sentence holds, added to its similarity
SECOND_MARGIN = 0.05  # a second sentence (of another memory) joins the answer when this close to the best

SYSTEM = (
    "You answer a question about what an assistant remembers, from the memories given and nothing else. "
    "Each memory is a line '- [id] text'. Answer briefly and cite the ids of every memory your answer rests on. "
    f"If the memories do not answer the question, set found to false and answer '{NOT_IN_MEMORY}'"
)

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'])")
# With include_chunks: document passages are numbered lines, cited by their number.
CHUNKS_NOTE = " Document passages are lines '[n] title: text'; cite a passage by its number n."


class LlmAnswer(BaseModel):
    answer: str = Field(max_length=4000)
    citations: list[str] = Field(default_factory=list, max_length=50)
    found: bool = True


def memory_context(
    *,
    actor: Actor,
    query: str,
    user_id: str | None = None,
    token_budget: int | None = None,
    include_profile: bool = False,
    **params,
) -> dict[str, Any]:
    """``build_context``: with ``include_profile`` and an owner, the owner's profile lines come
    first (each citing its memories), then the best memories for the query in what is left of
    the budget; a memory a profile line already cites is not packed twice."""
    budget = settings.HELIX_CONTEXT_DEFAULT_TOKENS if token_budget is None else token_budget
    profile, lines, used = [], [], 0
    if include_profile and user_id:
        for found in profiles_get(actor=actor, user_id=user_id):
            for part in ("static", "dynamic"):
                for line in getattr(found, part):
                    text = f"- [{', '.join(line['memory_ids'])}] {line['text']}"
                    cost = estimate_tokens(text)
                    if used + cost <= budget:
                        profile.append({**line, "part": part, "workspace": found.workspace.slug})
                        lines.append(text)
                        used += cost
    packed = memory_build_context(actor=actor, query=query, user_id=user_id, token_budget=budget - used, **params)
    if not profile:
        return {**packed, "token_budget": budget}
    cited = {i for line in profile for i in line["memory_ids"]}
    # The memory holding the value an attribute question asks for stays, marked, even when a
    # profile line cites it: the answer is that memory.
    memories = [m for m in packed["memories"] if m["id"] not in cited or m.get("attribute_match")]
    memory_lines = [memory_context_line(m) for m in memories]
    chunk_lines = [chunk_context_line(c) for c in packed.get("chunks", [])]
    context = "\n".join(
        [
            "Profile:",
            *lines,
            *(["Memories:", *memory_lines] if memory_lines else []),
            *(["Documents:", *chunk_lines] if chunk_lines else []),
        ]
    )
    answer = {
        "ok": True,
        "context": context,
        "profile": profile,
        "memories": memories,
        "tokens": used + sum(m["tokens"] for m in [*memories, *packed.get("chunks", [])]),
        "token_budget": budget,
    }
    if "citations" in packed:
        answer.update(chunks=packed["chunks"], citations=packed["citations"])
    return answer


def memory_answer(
    *, actor: Actor, question: str, user_id: str | None = None, token_budget: int | None = None, **params
) -> dict[str, Any]:
    packed = memory_context(
        actor=actor, query=question, user_id=user_id, token_budget=token_budget, include_profile=True, **params
    )
    memories = {m["id"]: m["content"] for m in packed["memories"]}
    if packed.get("profile"):
        cited = {i for line in packed["profile"] for i in line["memory_ids"]}
        memories.update(Memory.objects.filter(id__in=cited - set(memories)).values_list("id", "content"))
        memories = {str(k): v for k, v in memories.items()}
    chunks = {str(c["n"]): c for c in packed.get("chunks", [])}
    answer: dict[str, Any] | None = None
    llm_error = None
    if (memories or chunks) and get_llm().enabled:
        try:
            answer = _llm_answer(question, packed["context"], memories, chunks)
        except ProviderError as exc:  # the rules answer instead, as extraction and decisions fall back
            llm_error = exc.code
    if answer is None:
        held = next((m["id"] for m in packed["memories"] if m.get("attribute_match")), None)
        answer = _extractive_answer(
            question, {**memories, **{n: chunk_prose(c["content"]) for n, c in chunks.items()}}, held=held
        )
    answer["citations"] = [_chunk_citation(chunks[c["id"]]) if c["id"] in chunks else c for c in answer["citations"]]
    return {
        "ok": True,
        "question": question,
        **answer,
        **({"llm_error": llm_error} if llm_error else {}),
        "context": packed["context"],
        "tokens": packed["tokens"],
    }


def _llm_answer(question: str, context: str, memories: dict[str, str], chunks: dict[str, dict]) -> dict[str, Any]:
    reply = get_llm().complete_json(
        purpose="answer",
        system=SYSTEM + (CHUNKS_NOTE if chunks else ""),
        prompt=f"Memories:\n{context}\n\nQuestion: {question}",
        schema=LlmAnswer,
    )
    cited = list(dict.fromkeys(_cited_key(c, chunks) for c in reply.citations))
    memories = {**memories, **{n: c["content"] for n, c in chunks.items()}}
    kept = [c for c in cited if c in memories]
    found = reply.found and bool(reply.answer.strip()) and reply.answer.strip() != NOT_IN_MEMORY
    return {
        "answer": reply.answer.strip() if found else NOT_IN_MEMORY,
        "found": found,
        "method": "llm",
        "citations": [{"id": c, "content": memories[c]} for c in kept] if found else [],
        "dropped_citations": [c for c in cited if c not in memories],
    }


def _extractive_answer(question: str, memories: dict[str, str], *, held: str | None = None) -> dict[str, Any]:
    """``held``: the memory holding the value an attribute question asks for; its best sentence
    is the answer, alone (another memory's sentence may be closer in meaning, as a sister's city
    is to "Where does Zoe live?", and it is still not the value asked for)."""
    if held is not None and held in memories:
        memories = {held: memories[held]}
    sentences = [(memory_id, s) for memory_id, content in memories.items() for s in _sentences(content)]
    sentences = sentences[:MAX_SENTENCES]
    not_found = {"answer": NOT_IN_MEMORY, "found": False, "method": "extractive", "citations": []}
    if not sentences:
        return {**not_found, "dropped_citations": []}
    vectors = get_embedder().embed([question, *(s for _, s in sentences)], purpose="answer")
    similarity = vectors[1:] @ vectors[0]
    asked = topic_words(question)
    shared = np.array([len(asked & topic_words(s)) / len(asked) if asked else 0.0 for _, s in sentences])
    support = similarity + SHARED_WORDS_WEIGHT * shared
    order = [int(i) for i in np.argsort(-support)]
    best = order[0]
    if held is None and similarity[best] < settings.HELIX_ANSWER_MIN_SIMILARITY and shared[best] < 0.5:
        return {**not_found, "dropped_citations": []}
    chosen = [best]
    second = next((i for i in order[1:] if sentences[i][0] != sentences[best][0]), None)
    if second is not None and support[second] >= support[best] - SECOND_MARGIN:
        chosen.append(second)
    return {
        "answer": " ".join(sentences[i][1] for i in chosen),
        "found": True,
        "method": "extractive",
        "citations": [{"id": sentences[i][0], "content": memories[sentences[i][0]]} for i in chosen],
        "dropped_citations": [],
    }


def _sentences(content: str) -> list[str]:
    return [s.strip() for part in content.split("\n\n") for s in _SENTENCE_END.split(part) if s.strip()]


def _cited_key(cited: str, chunks: dict[str, dict]) -> str:
    """A passage may come back cited as "2" or "[2]"."""
    number = cited.strip().strip("[]").strip()
    return number if number in chunks else cited.strip()


def _chunk_citation(chunk: dict[str, Any]) -> dict[str, Any]:
    return {"id": chunk["id"], "content": chunk["content"], "kind": "chunk", "citation": chunk["citation"]}
