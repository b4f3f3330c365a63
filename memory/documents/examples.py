"""Each document tool's documented request and answer, as an agent sees them (OpenAPI examples)."""

DOCUMENT_EXAMPLE = {
    "id": "7d1e2f3a-4b5c-4d6e-8f90-a1b2c3d4e5f6",
    "title": "Deploy runbook",
    "source_url": "https://wiki.example.org/runbooks/deploy",
    "content_type": "text/markdown",
    "metadata": {"team": "platform"},
    "user_id": "alice",
    "author": "codex",
    "workspace": "team-red",
    "version": 1,
    "status": "complete",
    "chunks_total": 2,
    "chunks_done": 2,
    "error": "",
    "extract": False,
    "chunks_extracted": 0,
    "memories_forgotten": 0,
    "sha256": "9f2c4a0e6b1d8c3f5a7e9b0d2c4f6a8e1b3d5f7a9c0e2b4d6f8a1c3e5b7d9f0a",
    "chars": 1520,
    "created_at": "2026-10-02T09:00:00+00:00",
    "updated_at": "2026-10-02T09:00:02+00:00",
}

ADD_DOCUMENT = {
    "request": {
        "actor_id": "codex",
        "user_id": "alice",
        "group_id": "team-red",
        "title": "Deploy runbook",
        "source_url": "https://wiki.example.org/runbooks/deploy",
        "text": "# Deploy runbook\n\n## Rollback\n\nRun `helm rollback api 0` and watch the canary for ten minutes.",
        "metadata": {"team": "platform"},
    },
    "response": {
        "ok": True,
        "outcome": "created",
        "document": {
            **DOCUMENT_EXAMPLE,
            "status": "pending",
            "chunks_done": 0,
            "updated_at": DOCUMENT_EXAMPLE["created_at"],
        },
    },
}

GET_DOCUMENT = {
    "request": {"actor_id": "codex", "document_id": DOCUMENT_EXAMPLE["id"], "limit": 1},
    "response": {
        "ok": True,
        "document": DOCUMENT_EXAMPLE,
        "chunks": [
            {
                "id": "0c9b8a7d-6e5f-4a3b-9c1d-2e3f4a5b6c7d",
                "chunk_index": 0,
                "char_start": 0,
                "char_end": 812,
                "heading": "Deploy runbook",
                "page": None,
                "text": "# Deploy runbook\n\nEvery deploy goes through the canary first…",
            }
        ],
        "next_cursor": 1,
        "history": [],
    },
}

LIST_DOCUMENTS = {
    "request": {"actor_id": "codex", "user_id": "alice", "limit": 20},
    "response": {"ok": True, "documents": [DOCUMENT_EXAMPLE], "count": 1, "next_cursor": None},
}

FORGET_DOCUMENT = {
    "request": {"actor_id": "codex", "document_id": DOCUMENT_EXAMPLE["id"], "reason": "superseded by the wiki"},
    "response": {
        "ok": True,
        "document_id": DOCUMENT_EXAMPLE["id"],
        "forgotten_at": "2026-10-03T10:00:00+00:00",
        "memories_forgotten": 3,
    },
}
