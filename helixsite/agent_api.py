"""The agent tools over HTTP: one endpoint per tool, ``/api/v1/<tool>``, the same names,
parameters and results as the MCP server, which calls the same classes.

A tool is a ``ToolApi`` subclass: its name, an ``InputSerializer`` (unknown parameters are
rejected), an ``OutputSerializer`` that documents the answer, and ``run(actor, **params)``
calling one service or selector. ``actor_id`` in a call must name the token's principal.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import Any, ClassVar

from django.conf import settings
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_view
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView

from helixsite.errors import Forbidden
from rbac.permissions import ActorIsCaller


class ToolInput(serializers.Serializer):
    """A tool's parameters. A parameter the tool does not know is an error, not ignored:
    a misspelt ``limt`` silently falling back to the default would hide the caller's bug."""

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
        return super().to_internal_value(data)


class ActorInput(ToolInput):
    actor_id = serializers.CharField(max_length=150, help_text="the calling principal: the token's own name")


class TokenRateThrottle(SimpleRateThrottle):
    """Calls per API token (per user for a browser session), counted in the shared cache so
    every web worker enforces the same budget."""

    scope = "agent"

    def get_rate(self) -> str:
        return settings.HELIX_API_RATE

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        token = getattr(request, "auth", None)
        ident = f"token:{token.pk}" if hasattr(token, "pk") else f"user:{request.user.pk}"
        return f"throttle:{self.scope}:{ident}"


class ErrorDetailOut(serializers.Serializer):
    code = serializers.CharField(help_text="machine-readable: invalid, required, unknown_parameter, not_found…")
    message = serializers.CharField()
    field = serializers.CharField(required=False, help_text="the parameter at fault")
    fields = serializers.DictField(required=False, help_text="every field error, by parameter")


class ErrorOut(serializers.Serializer):
    ok = serializers.BooleanField(default=False)
    error = ErrorDetailOut()


ERRORS = {
    400: ErrorOut, 401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 409: ErrorOut, 413: ErrorOut, 429: ErrorOut,
}  # fmt: skip


class ToolApi(APIView):
    """One tool. ``reads`` tools answer GET (query string) as well as POST (JSON body).

    ``example`` holds a request and a response as an agent would see them, for the docs."""

    tool: ClassVar[str]
    reads: ClassVar[bool] = False
    example: ClassVar[dict[str, Any]] = {}
    InputSerializer: ClassVar[type[ToolInput]]
    OutputSerializer: ClassVar[type[serializers.Serializer]]
    permission_classes = [IsAuthenticated, ActorIsCaller]
    throttle_classes = [TokenRateThrottle]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "tool" not in cls.__dict__:
            return
        cls.http_method_names = ["get", "post", "options"] if cls.reads else ["post", "options"]
        _name_components(cls)
        doc = inspect.getdoc(cls) or cls.tool
        common = {"summary": doc.split("\n")[0], "description": doc, "tags": [cls.__module__.split(".")[0]]}
        examples = [
            OpenApiExample(f"{cls.tool} request", value=cls.example["request"], request_only=True),
            OpenApiExample(f"{cls.tool} response", value=cls.example["response"], response_only=True),
        ] if cls.example else []  # fmt: skip
        responses = {200: cls.OutputSerializer, **ERRORS}
        views = {
            "post": extend_schema(operation_id=cls.tool, request=cls.InputSerializer, responses=responses,
                                  examples=examples, **common),
        }  # fmt: skip
        if cls.reads:
            views["get"] = extend_schema(operation_id=f"{cls.tool}_get", parameters=[cls.InputSerializer],
                                         responses=responses, **common)  # fmt: skip
        extend_schema_view(**views)(cls)

    def post(self, request: Request) -> Response:
        return Response(self.run(actor=request.user, **self.parse(request.data)))

    def get(self, request: Request) -> Response:
        return Response(self.run(actor=request.user, **self.parse(request.query_params)))

    @classmethod
    def parse(cls, raw: Any) -> dict[str, Any]:
        params = cls.InputSerializer(data=raw)
        params.is_valid(raise_exception=True)
        data = dict(params.validated_data)
        data.pop("actor_id", None)
        return data

    @classmethod
    def call(cls, *, actor: Any, arguments: dict[str, Any]) -> dict[str, Any]:
        """The tool called by another transport (MCP): the same checks as over HTTP."""
        claimed = arguments.get("actor_id")
        if claimed is not None and claimed != actor.get_username():
            from rbac.policy import is_global_admin

            if not (getattr(cls, "admin_may_act_for_others", False) and is_global_admin(actor)):
                raise Forbidden(
                    "actor_id must be the principal the token belongs to.", code="actor_mismatch", field="actor_id"
                )
        return cls.run(actor=actor, **cls.parse(arguments))

    @classmethod
    def run(cls, *, actor: Any, **params: Any) -> dict[str, Any]:
        """The tool itself: one service or selector call. Every tool class defines it; this
        base answers a class that forgot with a clear error instead of a silent empty result."""
        raise NotImplementedError(f"{cls.__name__} defines no run()")


def _name_components(tool: type[ToolApi]) -> None:
    """Serializers nested in a tool get the tool's name in the OpenAPI components
    (``SearchMemoryInput``), so every tool's ``InputSerializer`` stays distinct."""
    stem = "".join(part.title() for part in tool.tool.split("_"))
    for attribute, suffix in (("InputSerializer", "Input"), ("OutputSerializer", "Output")):
        serializer = tool.__dict__.get(attribute)
        if serializer is not None and serializer.__qualname__.startswith(f"{tool.__name__}."):
            serializer.__name__ = f"{stem}{suffix}"


class TokenAuthenticationScheme(OpenApiAuthenticationExtension):
    target_class = "rbac.authentication.ApiTokenAuthentication"
    name = "bearerToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {"type": "http", "scheme": "bearer", "description": "An API token: hxt_<prefix>_<secret>."}
