"""Request bodies as the agent tools read them."""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


class JsonParser(JSONParser):
    """DRF's JSON parser, also answering a body nested too deeply for the parser with 400
    ``malformed_request`` (it raised RecursionError: a 500)."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - nested too deeply.") from None
