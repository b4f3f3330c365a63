"""Metadata filters: mem0's filter language, as the mem0ai 2.2.1 client sends it in ``filters``,
checked once at the door and turned into one SQL condition over a memory row.

The language (docs/agents.md, "Filters"): an object whose entries all hold (AND); ``AND`` / ``OR``
take a list of such objects, ``NOT`` one object or a list (none of them holds). An entry is a field
and a condition: a value (equals), a list (equals one of), ``"*"`` (present, not null) or an object
of operators (``eq ne in nin gt gte lt lte contains icontains``, all of which hold). The fields:

- ``user_id`` (the owner) and ``agent_id`` (the agent instance that wrote it) are the memory's
  columns; ``run_id`` and ``app_id`` are keys of its metadata (Helixsite keeps no session or app
  of its own: the ingest run a memory has is not mem0's run);
- ``created_at``, ``updated_at`` and ``timestamp`` (the event time, ``valid_from``): RFC 3339, a
  day (YYYY-MM-DD: ``eq`` is the whole day, ``gt`` after it, ``lt`` before it) or Unix seconds;
- ``categories``: the paths of the categories a memory is filed in (``contains`` a part of one);
- ``keywords``: ``contains`` / ``icontains`` over the memory's text;
- ``metadata``: an object of metadata keys, each with a condition. Equality is of JSON values
  (``"5"`` is not ``5``) and is answered by the GIN index on ``metadata`` (``@>``); ``gt``… compare
  numbers with numbers and strings with strings; ``contains`` finds a substring of a string or an
  element of an array.

``ne`` and ``nin`` hold for a field that is present and differs; ``NOT`` also holds where it is
absent. Bounds: ``HELIX_FILTER_MAX_DEPTH`` nested objects, ``HELIX_FILTER_MAX_TERMS`` conditions
and listed values, ``MAX_VALUE_CHARS`` per text. Anything else is refused (400) naming the part
(``filters.AND[1].metadata.color``), before any statement runs.

The SQL binds every value and every metadata key as a parameter (``Bind``); only column names and
operators of this module's own are written into it. It never yields NULL, so ``NOT`` is exact.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.conf import settings

from helixsite.errors import InvalidInput
from memory.event_time import moment_parse

LOGICAL = ("AND", "OR", "NOT")
OPERATORS = ("eq", "ne", "in", "nin", "gt", "gte", "lt", "lte", "contains", "icontains")
WILDCARD = "*"
METADATA_KEY = re.compile(r"[A-Za-z0-9_.:\-]{1,64}")
MAX_VALUE_CHARS = 1000

# A parameter's value → its placeholder in the statement.
Bind = Callable[[Any], str]


@dataclass(frozen=True)
class Target:
    kind: str  # text (a column), metadata (a key), moment (a column), category, content
    name: str  # the column, or the metadata key


@dataclass(frozen=True)
class Condition:
    target: Target
    op: str  # one of OPERATORS, or WILDCARD
    value: Any  # a string, a JSON scalar, a tuple of them (in, nin), or (start, end) for a moment


@dataclass(frozen=True)
class Logical:
    op: str  # AND, OR, NOT (one part)
    parts: tuple[Node, ...]


Node = Condition | Logical

FIELDS = {
    "user_id": Target("text", "user_id"),
    "agent_id": Target("text", "agent_id"),
    "run_id": Target("metadata", "run_id"),
    "app_id": Target("metadata", "app_id"),
    "created_at": Target("moment", "created_at"),
    "updated_at": Target("moment", "updated_at"),
    "timestamp": Target("moment", "valid_from"),
    "categories": Target("category", "path"),
    "keywords": Target("content", "content"),
}
ALLOWED = {
    "text": {"eq", "ne", "in", "nin", "contains", "icontains", WILDCARD},
    "metadata": {*OPERATORS, WILDCARD},
    "moment": {"eq", "ne", "gt", "gte", "lt", "lte", WILDCARD},
    "category": {"eq", "ne", "in", "nin", "contains", "icontains", WILDCARD},
    "content": {"contains", "icontains"},
}
COMPARED = {"gt": ">", "gte": ">=", "lt": "<", "lte": "<="}


@dataclass(frozen=True)
class MemoryFilter:
    """A checked filter: its tree, and its canonical text (a key for what depends on it)."""

    tree: Node
    key: str

    def sql(self, alias: str, bind: Bind) -> str:
        return _render(self.tree, alias, bind)

    def named(self, alias: str) -> tuple[str, dict[str, Any]]:
        """The condition with ``%(filter_<n>)s`` parameters, for a statement of named ones."""
        params: dict[str, Any] = {}

        def bind(value: Any) -> str:
            name = f"filter_{len(params)}"
            params[name] = value
            return f"%({name})s"

        return self.sql(alias, bind), params

    def positional(self, alias: str) -> tuple[str, list[Any]]:
        """The condition with ``%s`` parameters, in order, for the ORM's ``RawSQL``."""
        params: list[Any] = []

        def bind(value: Any) -> str:
            params.append(value)
            return "%s"

        return self.sql(alias, bind), params


def memory_filter_parse(raw: Any, *, field: str = "filters") -> MemoryFilter | None:
    """``raw`` checked and parsed; None for no filter (absent, or an empty object)."""
    if raw is None or raw == {}:
        return None
    tree = _Parser().group(raw, field, depth=1)
    return MemoryFilter(tree=tree, key=json.dumps(raw, sort_keys=True, separators=(",", ":")))


def _refused(path: str, message: str, code: str = "invalid_filter") -> InvalidInput:
    return InvalidInput(f"{path}: {message}", code=code, field=path)


class _Parser:
    """One parse: it counts the terms as it goes, so a wide input is refused at the first term too
    many, and checks the depth before it descends, so a deep one is never recursed into."""

    def __init__(self) -> None:
        self.terms = 0
        self.max_depth: int = settings.HELIX_FILTER_MAX_DEPTH
        self.max_terms: int = settings.HELIX_FILTER_MAX_TERMS

    def count(self, path: str, n: int = 1) -> None:
        self.terms += n
        if self.terms > self.max_terms:
            raise _refused(path, f"a filter holds at most {self.max_terms} conditions and values.", "filter_too_large")

    def group(self, raw: Any, path: str, *, depth: int) -> Node:
        """An object: every entry holds."""
        if depth > self.max_depth:
            raise _refused(path, f"filters nest at most {self.max_depth} objects deep.", "filter_too_deep")
        if not isinstance(raw, dict) or not raw:
            raise _refused(path, "must be an object naming a field, or AND / OR / NOT.")
        parts = tuple(self.entry(key, value, path, depth) for key, value in raw.items())
        return parts[0] if len(parts) == 1 else Logical("AND", parts)

    def entry(self, key: Any, value: Any, path: str, depth: int) -> Node:
        if not isinstance(key, str):
            raise _refused(path, "a field is named by a string.")
        here = f"{path}.{key[:80]}"
        if key in LOGICAL:
            return self.logical(key, value, here, depth)
        if key == "metadata":
            return self.metadata(value, here)
        target = FIELDS.get(key)
        if target is None:
            known = ", ".join([*FIELDS, "metadata", *LOGICAL])
            hint = f' A metadata key is named inside metadata: {{"metadata": {{"{key[:80]}": …}}}}.'
            raise _refused(here, f"unknown field; the fields are {known}.{hint}", "unknown_filter_field")
        return self.condition(target, value, here)

    def logical(self, op: str, value: Any, path: str, depth: int) -> Node:
        if op == "NOT" and isinstance(value, dict):
            items: list[Any] = [value]
            paths = [path]
        elif isinstance(value, list) and value:
            if len(value) > self.max_terms:
                raise _refused(path, f"at most {self.max_terms} conditions.", "filter_too_large")
            items, paths = value, [f"{path}[{i}]" for i in range(len(value))]
        else:
            raise _refused(
                path, f"{op} takes a non-empty list of objects" + (" or one object." if op == "NOT" else ".")
            )
        parts = tuple(self.group(item, where, depth=depth + 1) for item, where in zip(items, paths, strict=True))
        if op == "NOT":
            return Logical("NOT", (parts[0] if len(parts) == 1 else Logical("OR", parts),))
        return parts[0] if len(parts) == 1 else Logical(op, parts)

    def metadata(self, value: Any, path: str) -> Node:
        if not isinstance(value, dict) or not value:
            raise _refused(path, 'must be an object of metadata keys and conditions: {"colour": "red"}.')
        parts = []
        for key, condition in value.items():
            here = f"{path}.{str(key)[:80]}"
            if not isinstance(key, str) or not METADATA_KEY.fullmatch(key):
                raise _refused(here, "a metadata key is 1 to 64 letters, digits and _ . : -")
            parts.append(self.condition(Target("metadata", key), condition, here))
        return parts[0] if len(parts) == 1 else Logical("AND", tuple(parts))

    def condition(self, target: Target, value: Any, path: str) -> Node:
        if value == WILDCARD:
            return self.compare(target, WILDCARD, None, path)
        if isinstance(value, dict):
            if not value:
                raise _refused(path, f"an object of operators: {', '.join(OPERATORS)}.")
            parts = tuple(self.compare(target, op, operand, f"{path}.{str(op)[:80]}") for op, operand in value.items())
            return parts[0] if len(parts) == 1 else Logical("AND", parts)
        if isinstance(value, list):
            return self.compare(target, "in", value, path)
        return self.compare(target, "eq", value, path)

    def compare(self, target: Target, op: str, operand: Any, path: str) -> Condition:
        if op not in OPERATORS and op != WILDCARD:
            raise _refused(
                path, f"unknown operator; the operators are {', '.join(OPERATORS)}.", "unknown_filter_operator"
            )
        if op not in ALLOWED[target.kind]:
            usable = ", ".join(sorted(ALLOWED[target.kind]))
            raise _refused(path, f"{op} does not apply to this field; use {usable}.", "unknown_filter_operator")
        self.count(path)
        if op == WILDCARD:
            return Condition(target, op, None)
        if op in ("in", "nin"):
            if not isinstance(operand, list) or not operand:
                raise _refused(path, f"{op} takes a non-empty list of values.")
            self.count(path, len(operand) - 1)
            values = tuple(_operand(target, "eq", item, f"{path}[{i}]") for i, item in enumerate(operand))
            return Condition(target, op, values)
        return Condition(target, op, _operand(target, op, operand, path))


def _operand(target: Target, op: str, value: Any, path: str) -> Any:
    """The value checked for what ``op`` compares it with on ``target``."""
    if target.kind == "moment":
        return _moment(value, path)
    if target.kind != "metadata" or op in ("contains", "icontains"):
        text = _text(value, path)
        return text.strip().lower() if target.kind == "category" else text
    if op in COMPARED:
        if isinstance(value, str):
            return _text(value, path)
        if isinstance(value, int | float) and not isinstance(value, bool):
            return _number(value, path)
        raise _refused(path, f"{op} compares a number or a string.")
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return _number(value, path)
    if isinstance(value, str):
        return _text(value, path)
    raise _refused(path, "a metadata value to match is a string, a number, true, false or null.")


def _text(value: Any, path: str) -> str:
    if not isinstance(value, str):
        raise _refused(path, "must be a string.")
    if len(value) > MAX_VALUE_CHARS:
        raise _refused(path, f"at most {MAX_VALUE_CHARS} characters.", "filter_too_large")
    if "\x00" in value or not _encodable(value):
        raise _refused(path, "holds a character that cannot be stored (NUL or a lone surrogate).")
    return value


def _encodable(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _number(value: int | float, path: str) -> int | float:
    if isinstance(value, float) and not math.isfinite(value):
        raise _refused(path, "must be a finite number.")
    if isinstance(value, int) and abs(value) > 10**30:
        raise _refused(path, "a number of at most 30 digits.")
    return value


def _moment(value: Any, path: str) -> tuple[datetime, datetime]:
    """The instants a time names, first and last: a day is all of it; a date-time or Unix seconds, one."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        try:
            moment = datetime.fromtimestamp(value, UTC)
        except (OverflowError, OSError, ValueError):
            raise _refused(path, "Unix seconds out of range.") from None
        return moment, moment
    text = _text(value, path)
    start = moment_parse(text, field=path, code="invalid_filter")
    return start, moment_parse(text, field=path, code="invalid_filter", end_of_day=True)


# --- SQL ---------------------------------------------------------------------------------------


def _render(node: Node, alias: str, bind: Bind) -> str:
    if isinstance(node, Logical):
        if node.op == "NOT":
            return f"NOT {_render(node.parts[0], alias, bind)}"
        return "(" + f" {node.op} ".join(_render(part, alias, bind) for part in node.parts) + ")"
    render = {
        "text": _text_sql,
        "metadata": _metadata_sql,
        "moment": _moment_sql,
        "category": _category_sql,
        "content": _content_sql,
    }[node.target.kind]
    return f"({render(node, alias, bind)})"


def _text_sql(node: Condition, alias: str, bind: Bind) -> str:
    column = f"{alias}.{node.target.name}"
    present = f"{column} <> ''"  # a blank agent_id is none
    return {
        WILDCARD: lambda: present,
        "eq": lambda: f"{column} = {bind(node.value)}",
        "ne": lambda: f"{present} AND {column} <> {bind(node.value)}",
        "in": lambda: f"{column} = ANY({bind(list(node.value))}::text[])",
        "nin": lambda: f"{present} AND NOT ({column} = ANY({bind(list(node.value))}::text[]))",
        "contains": lambda: f"strpos({column}, {bind(node.value)}) > 0",
        "icontains": lambda: f"strpos(lower({column}), lower({bind(node.value)})) > 0",
    }[node.op]()


def _metadata_sql(node: Condition, alias: str, bind: Bind) -> str:
    # Each placeholder is bound as the text reaches it: the ORM's parameters are positional.
    key, value, column = node.target.name, node.value, f"{alias}.metadata"

    def holds(scalar: Any) -> str:  # the GIN index (jsonb_path_ops) answers containment
        return f"{column} @> {bind(json.dumps({key: scalar}))}::jsonb"

    def typed(kind: str) -> str:
        return f"jsonb_typeof({column} -> {bind(key)}::text) = '{kind}'"

    def present() -> str:
        return f"coalesce(jsonb_typeof({column} -> {bind(key)}::text), 'null') <> 'null'"

    if node.op in COMPARED:
        kind, cast = ("string", ' COLLATE "C"') if isinstance(value, str) else ("number", "::numeric")
        # Only a value of the operand's type is compared: a cast of any other would fail.
        return (
            f"coalesce(CASE WHEN {typed(kind)} THEN ({column} ->> {bind(key)}::text){cast} "
            f"{COMPARED[node.op]} {bind(value)}{cast} END, false)"
        )
    if node.op == "contains":  # a substring of a string, or an element of an array
        string = typed("string")
        within = f"strpos({column} ->> {bind(key)}::text, {bind(value)}) > 0"
        return f"coalesce({string} AND {within}, false) OR {holds([value])}"
    if node.op == "icontains":
        string = typed("string")
        within = f"strpos(lower({column} ->> {bind(key)}::text), lower({bind(value)})) > 0"
        return f"coalesce({string} AND {within}, false)"
    return {
        WILDCARD: present,
        "eq": lambda: holds(value),
        "ne": lambda: f"{present()} AND NOT {holds(value)}",
        "in": lambda: " OR ".join(holds(v) for v in value),
        "nin": lambda: f"{present()} AND NOT (" + " OR ".join(holds(v) for v in value) + ")",
    }[node.op]()


def _moment_sql(node: Condition, alias: str, bind: Bind) -> str:
    column = f"{alias}.{node.target.name}"
    if node.op == WILDCARD:
        return "TRUE"  # every memory has its times
    start, end = node.value
    return {
        "eq": lambda: f"{column} BETWEEN {bind(start)} AND {bind(end)}",
        "ne": lambda: f"NOT ({column} BETWEEN {bind(start)} AND {bind(end)})",
        "gt": lambda: f"{column} > {bind(end)}",
        "gte": lambda: f"{column} >= {bind(start)}",
        "lt": lambda: f"{column} < {bind(start)}",
        "lte": lambda: f"{column} <= {bind(end)}",
    }[node.op]()


def _category_sql(node: Condition, alias: str, bind: Bind) -> str:
    path = "filter_k.path"
    matched = {
        WILDCARD: lambda: "TRUE",
        "eq": lambda: f"{path} = {bind(node.value)}",
        "ne": lambda: f"{path} = {bind(node.value)}",
        "in": lambda: f"{path} = ANY({bind(list(node.value))}::text[])",
        "nin": lambda: f"{path} = ANY({bind(list(node.value))}::text[])",
        "contains": lambda: f"strpos({path}, {bind(node.value)}) > 0",
        "icontains": lambda: f"strpos({path}, lower({bind(node.value)})) > 0",
    }[node.op]()
    filed = (
        "EXISTS (SELECT 1 FROM categories_filing filter_f JOIN categories_category filter_k "
        f"ON filter_k.id = filter_f.category_id WHERE filter_f.memory_id = {alias}.id AND {matched})"
    )
    return f"NOT {filed}" if node.op in ("ne", "nin") else filed


def _content_sql(node: Condition, alias: str, bind: Bind) -> str:
    column = f"{alias}.content"
    if node.op == "icontains":
        return f"strpos(lower({column}), lower({bind(node.value)})) > 0"
    return f"strpos({column}, {bind(node.value)}) > 0"
