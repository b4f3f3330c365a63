"""A small typed client for the Helixsite agent API (standard library only).

    from helixsite.client import Helixsite

    memory = Helixsite("http://127.0.0.1:8000", token="hxt_…", actor_id="codex")
    memory.add_memory(user_id="alice", message="I moved to Lisbon.")
    hits = memory.search_memory(user_id="alice", query="where does alice live")

Every method is one tool: the same name and parameters as ``/api/v1/<tool>`` and the MCP
server, returning the JSON answer as a dict. A refusal raises ``HelixsiteError`` carrying the
status, the machine-readable code and the field at fault. One client holds one keep-alive
connection: use one per thread.
"""

from __future__ import annotations

import base64
import http.client
import json
import time
from typing import Any, Literal
from urllib.parse import urlsplit

Mode = Literal["recent", "contextual", "deep", "full"]
Scope = Literal["personal", "collective", "all"]
ThoughtType = Literal["reasoning", "hypothesis", "observation", "question"]
ChainMode = Literal["causal", "forward", "both", "deep"]
Resolution = Literal["confirm", "retract", "preference"]
DocumentType = Literal["application/pdf", "text/html"]
DocumentStatus = Literal["pending", "partial", "complete", "failed"]


class HelixsiteError(Exception):
    """The server refused a call: ``status`` (HTTP), ``code`` (machine-readable), ``field``."""

    def __init__(self, status: int, error: dict[str, Any]) -> None:
        super().__init__(f"{status} {error.get('code')}: {error.get('message')}")
        self.status = status
        self.code: str = error.get("code", "error")
        self.message: str = error.get("message", "")
        self.field: str | None = error.get("field")
        self.error = error


class Helixsite:
    def __init__(self, base_url: str, *, token: str, actor_id: str, timeout: float = 30.0, retries: int = 2) -> None:
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"base_url must be http(s)://host[:port], not {base_url!r}")
        self._scheme, self._host, self._port = parts.scheme, parts.hostname, parts.port
        self._prefix = parts.path.rstrip("/")
        self._token, self.actor_id, self._timeout, self._retries = token, actor_id, timeout, retries
        self._connection: http.client.HTTPConnection | None = None

    # --- transport ----------------------------------------------------------------------------

    def call(self, tool: str, **params: Any) -> dict[str, Any]:
        """Call any tool by name. ``None`` parameters are left out (the server's default applies)."""
        body = {"actor_id": self.actor_id, **{k: v for k, v in params.items() if v is not None}}
        status, answer, headers = self._post(f"{self._prefix}/api/v1/{tool}", body)
        attempt = 0
        while status == 429 and attempt < self._retries:
            attempt += 1
            time.sleep(min(float(headers.get("retry-after") or 1), 30.0))
            status, answer, headers = self._post(f"{self._prefix}/api/v1/{tool}", body)
        if status >= 400 or not answer.get("ok", False):
            raise HelixsiteError(status, answer.get("error", {"code": "error", "message": str(answer)}))
        return answer

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def __enter__(self) -> Helixsite:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _post(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any], dict[str, str]]:
        payload = json.dumps(body, default=str).encode()
        headers = {"Authorization": f"Bearer {self._token}", "Content-Type": "application/json"}
        for reconnect in (False, True):
            connection = self._open(fresh=reconnect)
            try:
                connection.request("POST", path, body=payload, headers=headers)
                response = connection.getresponse()
                raw = response.read()
            except (ConnectionError, http.client.HTTPException):
                self.close()
                if reconnect:
                    raise
                continue  # a keep-alive connection the server had closed: once more on a new one
            try:
                answer = json.loads(raw or b"{}")
            except json.JSONDecodeError:
                answer = {"ok": False, "error": {"code": "bad_response", "message": raw[:200].decode(errors="replace")}}
            return response.status, answer, {k.lower(): v for k, v in response.getheaders()}
        raise AssertionError("unreachable")

    def _open(self, *, fresh: bool) -> http.client.HTTPConnection:
        if fresh:
            self.close()
        if self._connection is None:
            kind = http.client.HTTPSConnection if self._scheme == "https" else http.client.HTTPConnection
            self._connection = kind(self._host, self._port, timeout=self._timeout)
        return self._connection

    # --- memory -----------------------------------------------------------------------------------

    def add_memory(
        self,
        *,
        user_id: str,
        message: str,
        group_id: str | None = None,
        agent_id: str | None = None,
        metadata: dict[str, Any] | None = None,
        occurred_at: str | None = None,
        extract: bool | None = None,
        context: dict[str, Any] | None = None,
        expires_at: str | None = None,
        ttl: int | None = None,
    ) -> dict[str, Any]:
        return self.call(
            "add_memory",
            user_id=user_id,
            message=message,
            group_id=group_id,
            agent_id=agent_id,
            metadata=metadata,
            occurred_at=occurred_at,
            extract=extract,
            context=context,
            expires_at=expires_at,
            ttl=ttl,
        )

    def add_conversation(
        self,
        *,
        user_id: str,
        messages: list[dict[str, Any]],
        group_id: str | None = None,
        agent_id: str | None = None,
        extract: bool | None = None,
        context: dict[str, Any] | None = None,
        expires_at: str | None = None,
        ttl: int | None = None,
    ) -> dict[str, Any]:
        """An exchange in one call: ``messages`` in order, each ``{role or speaker, content,
        occurred_at?, metadata?}``; answers ``results``, one add_memory answer per message."""
        return self.call(
            "add_conversation",
            user_id=user_id,
            messages=messages,
            group_id=group_id,
            agent_id=agent_id,
            extract=extract,
            context=context,
            expires_at=expires_at,
            ttl=ttl,
        )

    def search_memory(
        self,
        *,
        query: str,
        user_id: str | None = None,
        mode: Mode | None = None,
        limit: int | None = None,
        scope: Scope | None = None,
        temporal_days: int | None = None,
        time_from: str | None = None,
        time_to: str | None = None,
        graph_depth: int | None = None,
        category: str | None = None,
        include_chunks: bool | None = None,
        filters: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        return self.call(
            "search_memory",
            query=query,
            user_id=user_id,
            mode=mode,
            limit=limit,
            scope=scope,
            temporal_days=temporal_days,
            time_from=time_from,
            time_to=time_to,
            graph_depth=graph_depth,
            category=category,
            include_chunks=include_chunks,
            filters=filters,
        )

    def list_categories(
        self,
        *,
        user_id: str | None = None,
        parent: str | None = None,
        limit: int | None = None,
        cursor: int | None = None,
    ) -> dict[str, Any]:
        return self.call("list_categories", user_id=user_id, parent=parent, limit=limit, cursor=cursor)

    def list_memories(
        self,
        *,
        user_id: str | None = None,
        memory_type: str | None = None,
        include_superseded: bool | None = None,
        limit: int | None = None,
        cursor: int | None = None,
        filters: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        return self.call(
            "list_memories",
            user_id=user_id,
            memory_type=memory_type,
            include_superseded=include_superseded,
            limit=limit,
            cursor=cursor,
            filters=filters,
        )

    def get_memory(self, *, memory_id: str) -> dict[str, Any]:
        return self.call("get_memory", memory_id=memory_id)

    def update_memory(self, *, memory_id: str, user_id: str, new_content: str, reason: str | None = None) -> dict:
        return self.call("update_memory", memory_id=memory_id, user_id=user_id, new_content=new_content, reason=reason)

    def forget_memory(self, *, memory_id: str, reason: str | None = None) -> dict[str, Any]:
        return self.call("forget_memory", memory_id=memory_id, reason=reason)

    def restore_memory(self, *, memory_id: str, reason: str | None = None) -> dict[str, Any]:
        return self.call("restore_memory", memory_id=memory_id, reason=reason)

    def get_memory_graph(
        self, *, user_id: str, memory_id: str | None = None, depth: int | None = None, limit: int | None = None
    ) -> dict[str, Any]:
        return self.call("get_memory_graph", user_id=user_id, memory_id=memory_id, depth=depth, limit=limit)

    def search_by_concept(
        self,
        *,
        user_id: str,
        query: str,
        concept_type: str,
        tags: list[str] | None = None,
        mode: Mode | None = None,
        limit: int | None = None,
    ) -> dict[str, Any]:
        return self.call(
            "search_by_concept",
            user_id=user_id,
            query=query,
            concept_type=concept_type,
            tags=tags,
            mode=mode,
            limit=limit,
        )

    def search_reasoning_chain(
        self,
        *,
        user_id: str,
        query: str,
        chain_mode: ChainMode | None = None,
        max_depth: int | None = None,
        limit: int | None = None,
    ) -> dict[str, Any]:
        return self.call(
            "search_reasoning_chain",
            user_id=user_id,
            query=query,
            chain_mode=chain_mode,
            max_depth=max_depth,
            limit=limit,
        )

    def connect_memories(self, *, user_id: str, query_a: str, query_b: str, max_depth: int | None = None) -> dict:
        return self.call("connect_memories", user_id=user_id, query_a=query_a, query_b=query_b, max_depth=max_depth)

    def build_context(
        self,
        *,
        query: str,
        user_id: str | None = None,
        token_budget: int | None = None,
        mode: Mode | None = None,
        scope: Scope | None = None,
        include_profile: bool | None = None,
        include_chunks: bool | None = None,
    ) -> dict[str, Any]:
        return self.call(
            "build_context",
            query=query,
            user_id=user_id,
            token_budget=token_budget,
            mode=mode,
            scope=scope,
            include_profile=include_profile,
            include_chunks=include_chunks,
        )

    def get_profile(self, *, user_id: str, group_id: str | None = None) -> dict[str, Any]:
        return self.call("get_profile", user_id=user_id, group_id=group_id)

    def answer_question(
        self,
        *,
        question: str,
        user_id: str | None = None,
        token_budget: int | None = None,
        mode: Mode | None = None,
        scope: Scope | None = None,
        include_chunks: bool | None = None,
    ) -> dict[str, Any]:
        return self.call(
            "answer_question",
            question=question,
            user_id=user_id,
            token_budget=token_budget,
            mode=mode,
            scope=scope,
            include_chunks=include_chunks,
        )

    # --- documents ----------------------------------------------------------------------------

    def add_document(
        self,
        *,
        user_id: str,
        title: str,
        text: str | None = None,
        content: bytes | None = None,
        content_type: DocumentType | None = None,
        source_url: str | None = None,
        metadata: dict[str, Any] | None = None,
        group_id: str | None = None,
        document_id: str | None = None,
        agent_id: str | None = None,
        extract: bool | None = None,
    ) -> dict[str, Any]:
        """``text`` (plain or Markdown), or a file's ``content`` (PDF or HTML) with its ``content_type``."""
        return self.call(
            "add_document",
            user_id=user_id,
            title=title,
            text=text,
            content_base64=base64.b64encode(content).decode("ascii") if content is not None else None,
            content_type=content_type,
            source_url=source_url,
            metadata=metadata,
            group_id=group_id,
            document_id=document_id,
            agent_id=agent_id,
            extract=extract,
        )

    def get_document(self, *, document_id: str, limit: int | None = None, cursor: int | None = None) -> dict:
        return self.call("get_document", document_id=document_id, limit=limit, cursor=cursor)

    def list_documents(
        self,
        *,
        user_id: str | None = None,
        group_id: str | None = None,
        status: DocumentStatus | None = None,
        limit: int | None = None,
        cursor: int | None = None,
    ) -> dict[str, Any]:
        return self.call(
            "list_documents", user_id=user_id, group_id=group_id, status=status, limit=limit, cursor=cursor
        )

    def forget_document(self, *, document_id: str, reason: str | None = None) -> dict[str, Any]:
        return self.call("forget_document", document_id=document_id, reason=reason)

    def get_add_status(self, *, pending_id: str) -> dict[str, Any]:
        return self.call("get_add_status", pending_id=pending_id)

    def resolve_contradiction(self, *, from_id: str, to_id: str, resolution: Resolution) -> dict[str, Any]:
        return self.call("resolve_contradiction", from_id=from_id, to_id=to_id, resolution=resolution)

    # --- FastThink ------------------------------------------------------------------------------

    def think_start(self, *, session_id: str, initial_thought: str) -> dict[str, Any]:
        return self.call("think_start", session_id=session_id, initial_thought=initial_thought)

    def think_add(
        self, *, session_id: str, content: str, thought_type: ThoughtType | None = None, parent_idx: int | None = None
    ) -> dict[str, Any]:
        return self.call(
            "think_add", session_id=session_id, content=content, thought_type=thought_type, parent_idx=parent_idx
        )

    def think_recall(
        self, *, session_id: str, query: str, parent_idx: int, user_id: str | None = None, limit: int | None = None
    ) -> dict[str, Any]:
        return self.call(
            "think_recall", session_id=session_id, query=query, parent_idx=parent_idx, user_id=user_id, limit=limit
        )

    def think_conclude(self, *, session_id: str, conclusion: str, supporting_idx: list[int] | None = None) -> dict:
        return self.call("think_conclude", session_id=session_id, conclusion=conclusion, supporting_idx=supporting_idx)

    def think_commit(self, *, session_id: str, user_id: str, group_id: str | None = None) -> dict[str, Any]:
        return self.call("think_commit", session_id=session_id, user_id=user_id, group_id=group_id)

    def think_discard(self, *, session_id: str) -> dict[str, Any]:
        return self.call("think_discard", session_id=session_id)

    def think_status(self, *, session_id: str) -> dict[str, Any]:
        return self.call("think_status", session_id=session_id)

    def search_incomplete_thoughts(self, *, user_id: str | None = None, limit: int | None = None) -> dict[str, Any]:
        return self.call("search_incomplete_thoughts", user_id=user_id, limit=limit)

    # --- presence -------------------------------------------------------------------------------

    def agent_heartbeat(
        self, *, agent_id: str, status: str | None = None, parent_agent_id: str | None = None
    ) -> dict[str, Any]:
        return self.call("agent_heartbeat", agent_id=agent_id, status=status, parent_agent_id=parent_agent_id)

    def swarm_status(self, *, active_window_secs: int | None = None) -> dict[str, Any]:
        return self.call("swarm_status", active_window_secs=active_window_secs)

    def agent_farewell(self, *, agent_id: str) -> dict[str, Any]:
        return self.call("agent_farewell", agent_id=agent_id)

    # --- identity -----------------------------------------------------------------------------

    def list_users(self, *, limit: int | None = None, cursor: int | None = None) -> dict[str, Any]:
        return self.call("list_users", limit=limit, cursor=cursor)

    def enroll_client(self) -> dict[str, Any]:
        return self.call("enroll_client")
