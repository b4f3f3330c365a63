"""The agent tool base class: one tool is one ``ToolApi`` subclass, served over HTTP as
``/api/v1/<tool>`` and over MCP under the same name, with the same parameters and results.

A tool has a name, an ``InputSerializer`` (the one place its parameters and their bounds are
checked; unknown parameters are rejected), an ``OutputSerializer`` that documents the answer,
and ``run(actor, **params)`` calling one service or selector. ``actor_id`` in a call must name
the token's principal (``helixsite.agents.actor``); calls count against the token's budget
(``helixsite.agents.throttle``).
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import Any, ClassVar

from django.contrib.auth.models import AnonymousUser, User
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_view
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from helixsite.agents.actor import ActorIsCaller, actor_check
from helixsite.agents.openapi import ERRORS, described, name_components, tag_of
from helixsite.agents.throttle import TokenRateThrottle
from helixsite.agents.usage import call_record
from helixsite.db import replicas

READ_FROM_HEADER = "X-Helix-Read-From"
# How deep a parameter's JSON may nest (metadata, context): deeper is refused, not recursed into.
MAX_DEPTH = 32


class ToolKind(StrEnum):
    """What a tool does to what is stored: the one fact that decides whether it answers GET and
    runs on a read replica, whether it is served while a restore runs (REST and MCP alike), and
    how the observatory groups it."""

    SEARCH = "search"  # searches stored memories; changes nothing
    READ = "read"  # reads; changes nothing
    MEMORY_WRITE = "memory_write"  # changes stored memories
    WRITE = "write"  # changes something else: sessions, presence, enrolment, documents

    @property
    def reads(self) -> bool:
        return self in (ToolKind.SEARCH, ToolKind.READ)


class ToolInput(serializers.Serializer):
    """A tool's parameters. A parameter the tool does not know is an error, not ignored:
    a misspelt ``limt`` silently falling back to the default would hide the caller's bug.
    No text anywhere in a call may hold what PostgreSQL cannot store (NUL, a lone surrogate),
    and no value may nest deeper than ``MAX_DEPTH``."""

    def to_internal_value(self, data: Any) -> dict:
        if isinstance(data, Mapping):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError(
                    {
                        name: [serializers.ErrorDetail("Unknown parameter.", code="unknown_parameter")]
                        for name in unknown
                    }
                )
            for name, value in data.items():
                problem = _unstorable(value, depth=0)
                if problem:
                    raise serializers.ValidationError({name: [serializers.ErrorDetail(*problem)]})
        return super().to_internal_value(data)


class ActorInput(ToolInput):
    actor_id = serializers.CharField(max_length=150, help_text="the calling principal: the token's own name")


class ToolApi(APIView):
    """One tool. Every tool states its ``kind``; those that only read (``reads``, derived from
    it) answer GET (query string) as well as POST (JSON body).

    ``example`` holds a request and a response as an agent would see them, for the docs."""

    tool: ClassVar[str]
    kind: ClassVar[ToolKind]
    reads: ClassVar[bool]  # from ``kind``, never set by hand
    # A reading tool that writes first and reads what it wrote keeps to the primary (False).
    reads_on_replica: ClassVar[bool] = True
    example: ClassVar[dict[str, Any]] = {}
    InputSerializer: ClassVar[type[ToolInput]]
    OutputSerializer: ClassVar[type[serializers.Serializer]]
    permission_classes = [IsAuthenticated, ActorIsCaller]
    throttle_classes = [TokenRateThrottle]
    _prefetched: Callable[[], None] | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "tool" in cls.__dict__:
            if "kind" not in cls.__dict__:
                raise TypeError(f"{cls.__name__} states no kind (a ToolKind)")
            cls.reads = cls.kind.reads
            _document(cls)

    def dispatch(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        # The whole call as the caller waits for it: authentication, budget, parsing, the tool.
        started = time.perf_counter()
        try:
            response = super().dispatch(request, *args, **kwargs)
        finally:
            if self._prefetched is not None:
                self._prefetched()
        duration_ms = (time.perf_counter() - started) * 1000
        failed = response.status_code >= 400
        call_record(tool=self.tool, duration_ms=duration_ms, failed=failed)
        return response

    def check_throttles(self, request: Request) -> None:
        # The caller is known and allowed: a tool whose slow first step needs nothing but its
        # arguments (a search's query embedding) starts it now, while the budget is spent.
        self._prefetched = self.prefetch(request)
        super().check_throttles(request)

    def prefetch(self, request: Request) -> Callable[[], None] | None:
        """Start the tool's slow first step from the arguments as sent, not yet checked; what
        this returns is called when the call ends. Most tools have none."""
        return None

    def post(self, request: Request) -> Response:
        return self.respond(self.perform(actor=request.user, params=self.parse(request.data)))

    def get(self, request: Request) -> Response:
        return self.respond(self.perform(actor=request.user, params=self.parse(request.query_params)))

    def respond(self, answer: dict[str, Any]) -> Response:
        response = Response(answer)
        if self.reads:  # which database answered: the primary, or a read replica (its alias)
            response[READ_FROM_HEADER] = replicas.answered_by()
        return response

    @classmethod
    def parse(cls, raw: Any) -> dict[str, Any]:
        params = cls.InputSerializer(data=raw)
        params.is_valid(raise_exception=True)
        data = dict(params.validated_data)
        data.pop("actor_id", None)
        return data

    @classmethod
    def call(cls, *, actor: User, arguments: dict[str, Any]) -> dict[str, Any]:
        """The tool called by another transport (MCP): the same checks as over HTTP."""
        actor_check(actor=actor, claimed=arguments.get("actor_id"))
        return cls.perform(actor=actor, params=cls.parse(arguments))

    @classmethod
    def perform(cls, *, actor: User | AnonymousUser, params: dict[str, Any]) -> dict[str, Any]:
        """``run`` where it belongs: a reading tool on a read replica that has replayed the
        caller's writes (if replicas are configured), any other on the primary, after which
        the caller's reads wait for its write to reach a replica."""
        call = replicas.read_as if cls.reads and cls.reads_on_replica else replicas.write_as
        return call(actor.pk, lambda: cls.run(actor=actor, **params))

    @classmethod
    def run(cls, *args: Any, **params: Any) -> dict[str, Any]:
        """The tool itself, called as ``run(actor=..., **params)``: one service or selector call.
        Every tool class defines it with its own keyword parameters, which is why this signature
        is left open; this base answers a class that forgot with a clear error instead of a
        silent empty result."""
        raise NotImplementedError(f"{cls.__name__} defines no run()")


def _document(cls: type[ToolApi]) -> None:
    """The tool's HTTP methods and its OpenAPI operations: summary, request, responses, examples."""
    cls.http_method_names = ["get", "post", "options"] if cls.reads else ["post", "options"]
    name_components(cls)
    summary, description = described(inspect.getdoc(cls) or cls.tool)
    common: dict[str, Any] = {"summary": summary, "description": description, "tags": [tag_of(cls)]}
    examples = []
    if cls.example:
        examples = [
            OpenApiExample(f"{cls.tool} request", value=cls.example["request"], request_only=True),
            OpenApiExample(f"{cls.tool} response", value=cls.example["response"], response_only=True),
        ]
    responses = {200: cls.OutputSerializer, **ERRORS}
    views = {
        "post": extend_schema(
            operation_id=cls.tool, request=cls.InputSerializer, responses=responses, examples=examples, **common
        )
    }
    if cls.reads:
        views["get"] = extend_schema(
            operation_id=f"{cls.tool}_get", parameters=[cls.InputSerializer], responses=responses, **common
        )
    extend_schema_view(**views)(cls)


def _unstorable(value: Any, *, depth: int) -> tuple[str, str] | None:
    """Why ``value`` cannot be stored, as (message, code), or None."""
    if depth > MAX_DEPTH:
        return f"Nested more than {MAX_DEPTH} levels deep.", "too_deep"
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return "Text holds a lone surrogate, which is not a character.", "invalid_characters"
        return ("Text holds a NUL character.", "invalid_characters") if "\x00" in value else None
    if isinstance(value, Mapping):
        items: list[Any] = [*value.keys(), *value.values()]
    elif isinstance(value, list | tuple):
        items = list(value)
    else:
        return None
    for item in items:
        problem = _unstorable(item, depth=depth + 1)
        if problem:
            return problem
    return None
