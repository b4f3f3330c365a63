"""Each memory tool's documented request and answer, as an agent sees them (OpenAPI examples)."""

MEMORY_EXAMPLE = {
    "id": "3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01",
    "content": "alice lives in Lisbon",
    "memory_type": "fact",
    "user_id": "alice",
    "author": "codex",
    "agent_id": "codex-1",
    "source": "extraction",
    "certainty": 80,
    "importance": 0.6,
    "metadata": {},
    "context": "",
    "context_tags": [],
    "immutable": False,
    "created_at": "2026-10-02T09:00:00+00:00",
    "updated_at": "2026-10-02T09:00:00+00:00",
    "valid_from": "2026-10-02T09:00:00+00:00",
    "valid_to": None,
    "deleted_at": None,
    "superseded": False,
}

ADD_MEMORY = {
    "request": {
        "actor_id": "codex",
        "user_id": "alice",
        "group_id": "team-red",
        "message": "I moved to Lisbon last month and I now prefer tea over coffee.",
    },
    "response": {
        "ok": True,
        "memory_ids": ["3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01"],
        "updated": [],
        "deduped": [],
        "skipped": [],
        "superseded": ["9a7b6c5d-4e3f-4a2b-8c1d-0e9f8a7b6c5d"],
        "superseded_in_part": [],
        "contradicted": [],
        "needs_clarification": [],
        "decisions": [],
        "run_id": "5b1d2c3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e",
    },
}

ADD_CONVERSATION = {
    "request": {
        "actor_id": "codex",
        "user_id": "alice",
        "group_id": "team-red",
        "extract": False,
        "messages": [
            {
                "role": "assistant",
                "content": "How long does a full CI run take now?",
                "occurred_at": "2026-11-02T10:00:00Z",
            },
            {
                "role": "user",
                "content": "About six minutes since we cached the images.",
                "occurred_at": "2026-11-02T10:00:40Z",
            },
        ],
    },
    "response": {
        "ok": True,
        "results": [
            {
                "ok": True,
                "memory_ids": ["0d9c8b7a-6f5e-4d3c-8b2a-1f0e9d8c7b6a"],
                "updated": [],
                "deduped": [],
                "skipped": [],
                "superseded": [],
                "superseded_in_part": [],
                "contradicted": [],
                "needs_clarification": [],
                "decisions": [],
                "run_id": "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
            },
            {
                "ok": True,
                "memory_ids": ["3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01"],
                "updated": [],
                "deduped": [],
                "skipped": [],
                "superseded": ["9a7b6c5d-4e3f-4a2b-8c1d-0e9f8a7b6c5d"],
                "superseded_in_part": [],
                "contradicted": [],
                "needs_clarification": [],
                "decisions": [],
                "run_id": "5b1d2c3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e",
            },
        ],
    },
}

SEARCH_MEMORY = {
    "request": {"actor_id": "codex", "user_id": "alice", "query": "where does alice live", "mode": "contextual"},
    "response": {
        "ok": True,
        "query": "where does alice live",
        "mode": "contextual",
        "scope": "personal",
        "count": 1,
        "results": [
            {
                "id": "3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01",
                "kind": "memory",
                "content": "alice lives in Lisbon",
                "memory_type": "fact",
                "user_id": "alice",
                "score": 0.8123,
                "event_date": "2026-10-02T09:00:00+00:00",
                "created_at": "2026-10-02T09:00:00+00:00",
                "metadata": {},
                "signals": {
                    "cosine": 0.71,
                    "bm25": 6.2,
                    "bm25_rank": 1,
                    "vector_rank": 1,
                    "rrf_rank": 1,
                    "semantic": 0.83,
                    "ppr": None,
                    "freshness": 0.12,
                    "importance": 0.6,
                    "in_named_time": False,
                    "said_by_named": False,
                    "only_asks": False,
                    "attribute_match": False,
                },
                "origin": "seed",
                "superseded": False,
                "flashback": False,
            }
        ],
    },
}

LIST_MEMORIES = {
    "request": {"actor_id": "codex", "user_id": "alice", "limit": 1},
    "response": {"ok": True, "count": 1, "next_cursor": 1, "memories": [MEMORY_EXAMPLE]},
}

GET_MEMORY = {
    "request": {"actor_id": "codex", "memory_id": "3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01"},
    "response": {
        "ok": True,
        "memory": MEMORY_EXAMPLE,
        "history": [],
        "edges": [
            {
                "direction": "out",
                "type": "SUPERSEDES",
                "source": "3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01",
                "target": "9a7b6c5d-4e3f-4a2b-8c1d-0e9f8a7b6c5d",
                "confidence": 0.9,
                "created_at": "2026-10-02T09:00:00+00:00",
            }
        ],
    },
}

UPDATE_MEMORY = {
    "request": {
        "actor_id": "codex",
        "memory_id": "3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01",
        "user_id": "alice",
        "new_content": "alice lives in Lisbon, Portugal",
        "reason": "country was missing",
    },
    "response": {"ok": True, "memory": MEMORY_EXAMPLE},
}

FORGET_MEMORY = {
    "request": {
        "actor_id": "codex",
        "memory_id": "3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01",
        "reason": "recorded by mistake",
    },
    "response": {
        "ok": True,
        "memory_id": "3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01",
        "forgotten_at": "2026-11-02T10:00:00+00:00",
    },
}

RESTORE_MEMORY = {
    "request": {
        "actor_id": "admin",
        "memory_id": "3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01",
        "reason": "forgotten by mistake",
    },
    "response": {"ok": True, "memory": MEMORY_EXAMPLE},
}

GET_MEMORY_GRAPH = {
    "request": {
        "actor_id": "codex",
        "user_id": "alice",
        "memory_id": "3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01",
        "depth": 2,
    },
    "response": {
        "ok": True,
        "nodes": [
            {
                "id": "3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01",
                "content": "alice lives in Lisbon",
                "memory_type": "fact",
            },
            {
                "id": "9a7b6c5d-4e3f-4a2b-8c1d-0e9f8a7b6c5d",
                "content": "alice lives in Osaka",
                "memory_type": "fact",
            },
        ],
        "edges": [
            {
                "source": "3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01",
                "target": "9a7b6c5d-4e3f-4a2b-8c1d-0e9f8a7b6c5d",
                "type": "SUPERSEDES",
                "confidence": 0.9,
            }
        ],
    },
}

SEARCH_BY_CONCEPT = {
    "request": {"actor_id": "codex", "user_id": "alice", "query": "drinks", "concept_type": "preference"},
    "response": {
        "ok": True,
        "query": "drinks",
        "mode": "contextual",
        "scope": "personal",
        "count": 0,
        "results": [],
    },
}

SEARCH_REASONING_CHAIN = {
    "request": {
        "actor_id": "codex",
        "user_id": "alice",
        "query": "why did we pick PostgreSQL",
        "chain_mode": "causal",
    },
    "response": {
        "ok": True,
        "direction": "causal",
        "seeds": [],
        "chains": [
            {
                "steps": [
                    {
                        "source": "3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01",
                        "target": "9a7b6c5d-4e3f-4a2b-8c1d-0e9f8a7b6c5d",
                        "type": "BECAUSE",
                        "confidence": 0.8,
                    }
                ],
                "confidence": 0.8,
            }
        ],
    },
}

CONNECT_MEMORIES = {
    "request": {"actor_id": "codex", "user_id": "alice", "query_a": "Lisbon", "query_b": "Osaka"},
    "response": {
        "ok": True,
        "from": {"id": "3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01", "content": "alice lives in Lisbon"},
        "to": {"id": "9a7b6c5d-4e3f-4a2b-8c1d-0e9f8a7b6c5d", "content": "alice lives in Osaka"},
        "path": [
            {
                "source": "3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01",
                "target": "9a7b6c5d-4e3f-4a2b-8c1d-0e9f8a7b6c5d",
                "type": "SUPERSEDES",
                "confidence": 0.9,
            }
        ],
        "confidence": 0.9,
    },
}

BUILD_CONTEXT = {
    "request": {"actor_id": "codex", "user_id": "alice", "query": "plan alice's trip", "token_budget": 200},
    "response": {
        "ok": True,
        "context": "- [3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01] alice lives in Lisbon",
        "tokens": 14,
        "token_budget": 200,
        "memories": [
            {
                "id": "3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01",
                "content": "alice lives in Lisbon",
                "score": 0.81,
                "tokens": 14,
            }
        ],
    },
}


ANSWER_QUESTION = {
    "request": {"actor_id": "codex", "user_id": "alice", "question": "Where does alice live?"},
    "response": {
        "ok": True,
        "question": "Where does alice live?",
        "answer": "alice lives in Lisbon",
        "found": True,
        "method": "extractive",
        "citations": [{"id": "3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01", "content": "alice lives in Lisbon"}],
        "dropped_citations": [],
        "context": "- [3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01] alice lives in Lisbon",
        "tokens": 14,
    },
}


GET_PROFILE = {
    "request": {"actor_id": "codex", "user_id": "alice"},
    "response": {
        "ok": True,
        "profiles": [
            {
                "workspace": "team-red",
                "user_id": "alice",
                "static": [
                    {
                        "text": "alice lives in Lisbon",
                        "memory_ids": ["3f2c1e9a-8b7d-4c21-9e0f-5a6b7c8d9e01"],
                        "kind": "fact",
                    }
                ],
                "dynamic": [
                    {
                        "text": "alice is preparing the Q3 launch",
                        "memory_ids": ["7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"],
                        "kind": "goal",
                    }
                ],
                "method": "rules",
                "sources": 2,
                "stale": False,
                "refreshed_at": "2026-10-02T09:00:00+00:00",
            }
        ],
    },
}
