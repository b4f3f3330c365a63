"""How the agent tools appear in the OpenAPI document (``/api/schema/``): the error shape every
tool may answer, distinct component names per tool, and the bearer-token scheme."""

from __future__ import annotations

from typing import Any

from django.apps import apps
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import serializers


class ErrorDetailOut(serializers.Serializer):
    code = serializers.CharField(help_text="machine-readable: invalid, required, unknown_parameter, not_found…")
    message = serializers.CharField()
    field = serializers.CharField(required=False, help_text="the parameter at fault")
    # DRF's metaclass takes declared fields out of the class body, so this one does not shadow
    # Serializer.fields; the stubs cannot know that.
    fields = serializers.DictField(required=False, help_text="every field error, by parameter")  # type: ignore[assignment]


class ErrorOut(serializers.Serializer):
    ok = serializers.BooleanField(default=False)
    error = ErrorDetailOut()


ERRORS = {status: ErrorOut for status in (400, 401, 403, 404, 409, 413, 429, 503)}


def name_components(tool: Any) -> None:
    """Serializers nested in a tool get the tool's name in the OpenAPI components
    (``SearchMemoryInput``), so every tool's ``InputSerializer`` stays distinct."""
    stem = "".join(part.title() for part in tool.tool.split("_"))
    for attribute, suffix in (("InputSerializer", "Input"), ("OutputSerializer", "Output")):
        serializer = tool.__dict__.get(attribute)
        if serializer is not None and serializer.__qualname__.startswith(f"{tool.__name__}."):
            serializer.__name__ = f"{stem}{suffix}"


def tag_of(tool: Any) -> str:
    """The tool's group in the docs: the label of the app that defines it (memory, fastthink, rbac…)."""
    config = apps.get_containing_app_config(tool.__module__)
    return config.label if config else tool.__module__.split(".")[0]


class TokenAuthenticationScheme(OpenApiAuthenticationExtension):
    target_class = "rbac.authentication.ApiTokenAuthentication"
    name = "bearerToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {"type": "http", "scheme": "bearer", "description": "An API token: hxt_<prefix>_<secret>."}
