"""mem0's endpoints, each a translation onto one agent tool (``memory.api``), called as the MCP
transport calls it (``ToolApi.call``: the actor check, the tool's own bounds, its service): the
same access check, write path and search as ``/api/v1/<tool>``. Errors are the agent API's, in
the body mem0's client reads: ``{"detail": message, "code", "field"?}`` with the same status
(400 → its ValidationError, 401/403 → AuthenticationError, 404 → MemoryNotFoundError, 409 →
ValidationError, 413 → MemoryQuotaExceededError, 429 → RateLimitError)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from django.contrib.auth.models import User
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from helixsite.agents.throttle import TokenRateThrottle
from helixsite.agents.tool import ToolInput
from helixsite.errors import ApplicationError, Forbidden, NotFound, api_exception_handler
from helixsite.mem0 import shapes
from helixsite.mem0.authentication import Mem0TokenAuthentication
from memory.api.read import GetMemoryApi, GetProfileApi, ListMemoriesApi, SearchMemoryApi
from memory.api.write import AddConversationApi, ForgetMemoryApi, UpdateMemoryApi
from memory.search.filters import memory_filter_parse
from memory.selectors import memory_count, memory_entities, memory_list
from rbac.policy import Action, workspace_get, workspaces_for

# One delete_all call forgets at most this many memories; the answer says when more are left.
MAX_DELETE_ALL = 10_000
ORG_ID = "helixsite"  # mem0's organisation: the installation


def mem0_exception_handler(exc: Exception, context: dict) -> Response:
    """The agent API's answer to ``exc`` (status, headers), its error as mem0's ``detail``."""
    response = api_exception_handler(exc, context)
    error = response.data.get("error", {}) if isinstance(response.data, dict) else {}
    response.data = {"detail": error.get("message", "Request failed."), **error}
    return response


class Mem0Api(APIView):
    """One mem0 endpoint: the client's ``Token`` credentials, the token's budget, mem0's errors."""

    authentication_classes = [Mem0TokenAuthentication]
    permission_classes = [IsAuthenticated]
    throttle_classes = [TokenRateThrottle]
    schema = None  # mem0's API, documented by mem0; not part of the agent API's schema
    reads: ClassVar[bool] = False  # served while a restore runs (stewardship.vault.middleware)

    def get_exception_handler(self) -> Any:
        return mem0_exception_handler

    @staticmethod
    def checked(shape: type[ToolInput], data: Any, workspace: str | None = None) -> dict[str, Any]:
        """``data`` through ``shape``; a workspace in the path is the call's project."""
        params = shape(data=data)
        params.is_valid(raise_exception=True)
        checked = dict(params.validated_data)
        if workspace and checked.get("workspace") not in (None, workspace):
            raise serializers.ValidationError({"project_id": ["The path already names a workspace."]})
        checked["workspace"] = workspace or checked.get("workspace")
        return checked

    @staticmethod
    def readable(actor: User, workspace: str | None) -> None:
        """A workspace a read names must be one the caller may read (404 otherwise, as for a
        workspace that does not exist); the read sees what the agent API's reads see."""
        if workspace:
            workspace_get(actor=actor, ref=workspace, action=Action.READ)


def caller(request: Request) -> User:
    """The token's user (IsAuthenticated has let no one else through)."""
    assert isinstance(request.user, User)
    return request.user


def _with_query(request: Request) -> dict[str, Any]:
    """The JSON body's fields and the query string's (where the client puts paging): a body that
    is not an object is refused, as every tool refuses it."""
    if not isinstance(request.data, Mapping):
        raise serializers.ValidationError({"non_field_errors": ["The body must be a JSON object."]})
    return {**request.data, **request.query_params.dict()}


def _tool(tool: Any, actor: User, **arguments: Any) -> dict[str, Any]:
    return tool.call(actor=actor, arguments={"actor_id": actor.get_username(), **arguments})


class NotOfferedApi(Mem0Api):
    """Any other path under ``/mem0/``: mem0's, but not offered here (docs/agents.md). A JSON
    404 the client reads as its MemoryNotFoundError, rather than a page."""

    reads = True

    def _refuse(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        raise NotFound(f"{request.path} is not offered by Helixsite's mem0 door.", code="not_offered")

    get = post = put = patch = delete = _refuse


class PingApi(Mem0Api):
    """``GET /v1/ping/``: the client checks its key here when it starts, and will not start
    without an org and a project: ``helixsite``, and the workspace its adds write to (the one in
    the path, else the only one the token may write to, else ``ask`` — each add must then name one
    with ``project_id``)."""

    reads = True

    def get(self, request: Request, workspace: str | None = None) -> Response:
        actor = caller(request)
        self.readable(actor, workspace)
        writable = list(workspaces_for(actor, Action.WRITE).values_list("slug", flat=True)[:2])
        project = workspace or (writable[0] if len(writable) == 1 else "ask")
        email = actor.email or None
        return Response({"status": "ok", "user_email": email, "org_id": ORG_ID, "project_id": project})


class AddApi(Mem0Api):
    """``POST /v3/memories/add/`` → add_conversation."""

    def post(self, request: Request, workspace: str | None = None) -> Response:
        actor = caller(request)
        params = self.checked(shapes.AddInput, request.data, workspace)
        answer = _tool(AddConversationApi, actor, **shapes.conversation_arguments(params))
        if answer.get("status") == "accepted":  # HELIX_ADD_BUFFERED: the worker writes it
            queued = {"message": "Memory processing has been queued.", "status": "PENDING"}
            return Response({**queued, "event_id": answer["pending_id"], "results": []})
        answers = answer.get("results", [])
        # What a SUPERSEDE replaced (rare: one read each, through the same gate).
        replaced = {
            target: _tool(GetMemoryApi, actor, memory_id=target)["memory"]["content"]
            for target in shapes.superseded_ids(answers)
        }
        return Response({"results": shapes.added_events(answers, replaced)})


class SearchApi(Mem0Api):
    """``POST /v3/memories/search/`` → search_memory: personal when the filters hold to one
    ``user_id``, across the owners the caller may see otherwise; ``threshold`` drops results
    scoring below it (our score, not mem0's), ``rerank`` changes nothing."""

    reads = True

    def post(self, request: Request, workspace: str | None = None) -> Response:
        actor = caller(request)
        params = self.checked(shapes.SearchInput, request.data, workspace)
        self.readable(actor, params["workspace"])
        owner = shapes.owner_named(params.get("filters"))
        arguments: dict[str, Any] = {"query": params["query"], "scope": "personal" if owner else "all"}
        arguments |= {"user_id": owner} if owner else {}
        arguments |= {"filters": params["filters"]} if params.get("filters") else {}
        arguments |= {"limit": params["top_k"]} if params.get("top_k") else {}
        found = _tool(SearchMemoryApi, actor, **arguments)["results"]
        threshold = params.get("threshold")
        kept = [r for r in found if threshold is None or r["score"] >= threshold]
        return Response({"results": [shapes.result_as_mem0(r) for r in kept]})


class MemoriesApi(Mem0Api):
    """``POST /v3/memories/`` → list_memories, paged as mem0 pages (``page``, ``page_size``)."""

    reads = True

    def post(self, request: Request, workspace: str | None = None) -> Response:
        actor = caller(request)
        params = self.checked(shapes.ListInput, _with_query(request), workspace)
        self.readable(actor, params["workspace"])
        page, size, filters = params["page"], params["page_size"], params.get("filters")
        arguments: dict[str, Any] = {"limit": size, "cursor": (page - 1) * size}
        arguments |= {"filters": filters} if filters else {}
        listed = _tool(ListMemoriesApi, actor, **arguments)
        total = memory_count(actor=actor, filters=memory_filter_parse(filters))
        link = request.build_absolute_uri(request.path)
        return Response(
            {
                "count": total,
                "next": f"{link}?page={page + 1}&page_size={size}" if listed["next_cursor"] is not None else None,
                "previous": f"{link}?page={page - 1}&page_size={size}" if page > 1 else None,
                "results": [shapes.memory_as_mem0(m) for m in listed["memories"]],
            }
        )


class DeleteAllApi(Mem0Api):
    """``DELETE /v1/memories/?user_id=…`` → forget_memory for each memory of that owner, agent,
    run or app that the caller may forget; those it may not are left (``refused``)."""

    def delete(self, request: Request, workspace: str | None = None) -> Response:
        actor = caller(request)
        params = self.checked(shapes.DeleteAllInput, request.query_params.dict(), workspace)
        self.readable(actor, params["workspace"])
        swept = _forget_all(actor, {key: params[key] for key in shapes.IDS if params.get(key)})
        more = "Some memories deleted; call again for more."
        return Response({"message": more if swept["more"] else "Memories deleted successfully!", **swept})


class EntityApi(Mem0Api):
    """``DELETE /v2/entities/<type>/<name>/`` (the client's ``delete_users`` and ``reset``), and
    ``/v1/entities/<type>/<name>/`` (the npm client's deprecated ``deleteUser``): as delete_all
    for that user, agent, app or run."""

    def delete(self, request: Request, kind: str, name: str, workspace: str | None = None) -> Response:
        actor = caller(request)
        params = self.checked(shapes.WorkspaceInput, request.query_params.dict(), workspace)
        self.readable(actor, params["workspace"])
        key = shapes.ENTITY_TYPES.get(kind)
        if key is None or len(name) > shapes.ID_CHARS:
            raise NotFound("No such entity.", field="entity")
        swept = _forget_all(actor, {key: name})
        more = "Some memories deleted; call again for more."
        return Response({"message": more if swept["more"] else "Entity deleted successfully.", **swept})


def _forget_all(actor: User, ids: dict[str, str]) -> dict[str, Any]:
    """forget_memory for each memory these ids name that ``actor`` may forget, at most
    MAX_DELETE_ALL, superseded ones too."""
    filters = memory_filter_parse(ids)
    deleted = refused = 0
    while deleted + refused < MAX_DELETE_ALL:
        page = memory_list(actor=actor, include_superseded=True, filters=filters, limit=200, offset=refused)
        if not page:
            break
        for memory in page:
            try:
                _tool(ForgetMemoryApi, actor, memory_id=str(memory.id), reason="mem0 delete_all")
                deleted += 1
            except Forbidden:
                refused += 1
            except NotFound:
                pass  # forgotten meanwhile by someone else
    more = bool(memory_list(actor=actor, include_superseded=True, filters=filters, limit=1, offset=refused))
    return {"deleted": deleted, "refused": refused, "more": more}


class MemoryApi(Mem0Api):
    """``/v1/memories/<id>/``: GET → get_memory, PUT → update_memory, DELETE → forget_memory."""

    def get(self, request: Request, memory_id: str, workspace: str | None = None) -> Response:
        actor = caller(request)
        params = self.checked(shapes.MemoryRefInput, request.query_params.dict(), workspace)
        self.readable(actor, params["workspace"])
        detail = _tool(GetMemoryApi, actor, memory_id=memory_id)
        return Response(shapes.memory_as_mem0(detail["memory"]))

    def put(self, request: Request, memory_id: str, workspace: str | None = None) -> Response:
        actor = caller(request)
        params = self.checked(shapes.UpdateInput, _with_query(request), workspace)
        self.readable(actor, params["workspace"])
        owner = _tool(GetMemoryApi, actor, memory_id=memory_id)["memory"]["user_id"]
        arguments = {"memory_id": memory_id, "user_id": owner, "new_content": params["text"], "reason": "mem0 update"}
        return Response(shapes.memory_as_mem0(_tool(UpdateMemoryApi, actor, **arguments)["memory"]))

    def delete(self, request: Request, memory_id: str, workspace: str | None = None) -> Response:
        actor = caller(request)
        params = self.checked(shapes.MemoryRefInput, request.query_params.dict(), workspace)
        self.readable(actor, params["workspace"])
        _tool(ForgetMemoryApi, actor, memory_id=memory_id, reason="mem0 delete")
        return Response({"message": "Memory deleted successfully!"})


class HistoryApi(Mem0Api):
    """``GET /v1/memories/<id>/history/`` → get_memory's history, as mem0's events; a deleted
    (forgotten) memory the caller may see still answers it, ending in its DELETE, as mem0's does."""

    reads = True

    def get(self, request: Request, memory_id: str, workspace: str | None = None) -> Response:
        actor = caller(request)
        params = self.checked(shapes.MemoryRefInput, request.query_params.dict(), workspace)
        self.readable(actor, params["workspace"])
        detail = _tool(GetMemoryApi, actor, memory_id=memory_id, include_forgotten=True)
        return Response(shapes.history_as_mem0(detail["memory"], detail["history"]))


class ProfileApi(Mem0Api):
    """``GET /v2/entities/user/<id>/profile/`` → get_profile: the owner's profile in each workspace
    the caller reads (or the one the call names) as mem0's one profile; no memories of that owner
    the caller may read is a 404, as mem0 answers a user it does not know."""

    reads = True

    def get(self, request: Request, user_id: str, workspace: str | None = None) -> Response:
        actor = caller(request)
        params = self.checked(shapes.WorkspaceInput, request.query_params.dict(), workspace)
        arguments = {"user_id": user_id} | ({"group_id": params["workspace"]} if params["workspace"] else {})
        profiles = _tool(GetProfileApi, actor, **arguments)["profiles"]
        if not profiles:
            raise NotFound("No memories of this user that you can read.", field="entity_id")
        return Response(shapes.profile_as_mem0(user_id, profiles))


class EntitiesApi(Mem0Api):
    """``GET /v1/entities/``: the owners (user), agents, runs and apps of the memories the
    caller may see, with how many each holds."""

    reads = True

    def get(self, request: Request, workspace: str | None = None) -> Response:
        actor = caller(request)
        params = self.checked(shapes.WorkspaceInput, request.query_params.dict(), workspace)
        self.readable(actor, params["workspace"])
        found = memory_entities(actor=actor)
        results: list[dict[str, Any]] = [
            {
                "id": f"{e.kind}:{e.name}",
                "name": e.name,
                "type": e.kind,
                "total_memories": e.total,
                "created_at": e.first_at.isoformat(),
                "updated_at": e.last_at.isoformat(),
                "owner": actor.get_username(),
                "organization": None,
                "metadata": {},
            }
            for e in found
        ]
        return Response({"count": len(results), "next": None, "previous": None, "results": results})


class BatchApi(Mem0Api):
    """``/v1/batch/``: PUT → update_memory, DELETE → forget_memory, for each memory in order.
    Every item is checked before the first is changed; one that fails stops the batch, the ones
    before it stay changed, and the error names it (``memories[i]``) with their ids (``done``)."""

    def put(self, request: Request, workspace: str | None = None) -> Response:
        actor = caller(request)
        params = self.checked(shapes.BatchInput, request.data, workspace)
        self.readable(actor, params["workspace"])
        items = shapes.batch_items(params["memories"], text=True)
        done = _each(items, lambda item: _updated(actor, item["memory_id"], item["text"]))
        return Response({"message": f"Successfully updated {len(done)} memories"})

    def delete(self, request: Request, workspace: str | None = None) -> Response:
        actor = caller(request)
        params = self.checked(shapes.BatchInput, request.data, workspace)
        self.readable(actor, params["workspace"])
        items = shapes.batch_items(params["memories"], text=False)
        forget = ForgetMemoryApi
        done = _each(items, lambda item: _tool(forget, actor, memory_id=item["memory_id"], reason="mem0 batch_delete"))
        return Response({"message": f"Successfully deleted {len(done)} memories"})


def _updated(actor: User, memory_id: str, text: str) -> dict[str, Any]:
    owner = _tool(GetMemoryApi, actor, memory_id=memory_id)["memory"]["user_id"]
    arguments = {"memory_id": memory_id, "user_id": owner, "new_content": text, "reason": "mem0 update"}
    return _tool(UpdateMemoryApi, actor, **arguments)


def _each(items: list[dict[str, str]], change: Callable[[dict[str, str]], Any]) -> list[str]:
    """``change`` each item in order; the first failure is raised naming its item, with the ids done."""
    done: list[str] = []
    for index, item in enumerate(items):
        try:
            change(item)
        except (ApplicationError, serializers.ValidationError) as failed:
            raise _at_item(failed, index, done) from failed
        done.append(item["memory_id"])
    return done


def _at_item(failed: ApplicationError | serializers.ValidationError, index: int, done: list[str]) -> ApplicationError:
    if isinstance(failed, ApplicationError):
        message, code, status, field = failed.message, failed.code, failed.status, failed.field or "memory_id"
    else:
        first = next(iter(failed.detail.items())) if isinstance(failed.detail, dict) else ("memory_id", failed.detail)
        field, message, code, status = (
            first[0],
            str(first[1][0] if isinstance(first[1], list) else first[1]),
            "invalid",
            400,
        )
    field = {"new_content": "text"}.get(field, field)
    details = {"index": index, "done": done}
    return ApplicationError(message, code=code, status=status, field=f"memories[{index}].{field}", details=details)
