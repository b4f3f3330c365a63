"""How the agent tools appear in the OpenAPI document (``/api/schema/``): the error shape every
tool may answer, distinct component names per tool, their summaries and descriptions as
Markdown, and the bearer-token scheme."""

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

_NOT_AN_END = ("e.g.", "i.e.", "etc.", "vs.")
_LIST_ITEM = ("- ", "* ", "+ ")


def described(doc: str) -> tuple[str, str]:
    """A tool's docstring as the OpenAPI document (and MCP) show it: its first sentence as the
    summary, and the whole as Markdown: lines wrapped in the source joined into their paragraph
    (a list item or an indented line keeps its own), reStructuredText's ``literal`` as `code`."""
    paragraphs: list[list[str]] = [[]]
    for line in doc.replace("``", "`").splitlines():
        text = line.strip()
        if not text:
            paragraphs.append([])  # a blank line ends the paragraph
        elif paragraphs[-1] and not line.startswith(" ") and not text.startswith(_LIST_ITEM):
            paragraphs[-1][-1] += " " + text  # a line wrapped in the source goes on the one before
        else:
            paragraphs[-1].append(text)
    blocks = ["\n".join(lines) for lines in paragraphs if lines]
    description = "\n\n".join(blocks)
    return _first_sentence(blocks[0] if blocks else ""), description


def _first_sentence(text: str) -> str:
    """Up to the first full stop, question or exclamation mark followed by a space (not one of an
    abbreviation), else the whole paragraph's first line."""
    text = text.split("\n")[0]
    for end, character in enumerate(text):
        ends = character in ".?!" and text[end + 1 : end + 2] == " "
        if ends and not any(text[: end + 1].endswith(word) for word in _NOT_AN_END):
            return text[: end + 1]
    return text


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
