"""Hypothesis strategies for a tool call's arguments, drawn from the tool's JSON Schema (its MCP
``inputSchema``, which is its REST request body): mostly values an agent could send, so calls
get past validation into the services, mixed with values meant to break things (wrong types,
numbers past any column, NUL, lone surrogates, nesting past the limit, unknown keys, missing
required ones, a body that is not an object at all)."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

# Text no column can hold, numbers past every bound, shapes nobody expects.
ODD_TEXT = [
    "",
    " ",
    "nul \x00 inside",
    "lone \ud800 surrogate",
    "\udfff",
    "\u202eright to left",
    "e\u0301\u0301\u0301",
    "👩‍👩‍👧 𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
    "'; DROP TABLE memory_memory; --",
    "%s %(x)s {0} ${x}",
    "x" * 5000,
    "0",
    "-1",
    "١٢٣",  # digits, but not ASCII ones
    "99999999999999999999999999",
    "null",
]
ODD_NUMBERS = [0, -1, 2**31, 2**63, -(2**63) - 1, 10**30, 1.5, -0.0, 1e308, 5e-324]


def nested(depth: int) -> Any:
    value: Any = "bottom"
    for level in range(depth):
        value = [value] if level % 2 else {"deeper": value}
    return value


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
HOSTILE = st.one_of(
    st.sampled_from(ODD_TEXT),
    st.sampled_from(ODD_NUMBERS),
    st.sampled_from([None, True, [], {}, nested(40), nested(33), [nested(20)] * 3]),
    JSON,
)


def tool_arguments(schema: dict[str, Any], plausible: dict[str, st.SearchStrategy]) -> st.SearchStrategy:
    """A call's arguments for ``schema``; ``plausible`` gives, by parameter name, values that
    name real things (the caller, its workspace, stored memories)."""

    @st.composite
    def arguments(draw: st.DrawFn) -> Any:
        required = set(schema.get("required", ()))
        drawn: dict[str, Any] = {}
        for name, parameter in schema["properties"].items():
            # A caller names what it knows (the owner, the session…) more often than it tunes.
            odds = [True, True, True, False] if name in plausible else [True, False, False]
            if name in required or draw(st.sampled_from(odds)):
                drawn[name] = draw(_value(name, parameter, plausible))
        mutation = draw(st.sampled_from(range(20)))  # the simplest draw (0) leaves the call whole
        if mutation == 17 and required:
            drawn.pop(draw(st.sampled_from(sorted(required))), None)
        elif mutation == 18:
            drawn[draw(st.sampled_from(["limt", "actorId", "", "\x00", "__proto__"]))] = draw(HOSTILE)
        elif mutation == 19:
            return draw(HOSTILE)  # not an object at all
        return drawn

    return arguments()


def _value(name: str, parameter: dict[str, Any], plausible: dict[str, st.SearchStrategy]) -> st.SearchStrategy:
    """Plausible eight times in ten (so that most calls reach the services), else just past the
    schema's bounds or hostile."""
    likely = plausible[name] if name in plausible else _valid(parameter)
    choices = [likely] * 8 + [_past_bounds(parameter), HOSTILE]
    return st.sampled_from(range(len(choices))).flatmap(lambda index: choices[index])


def _kinds(parameter: dict[str, Any]) -> list[str]:
    kinds = parameter.get("type")
    return kinds if isinstance(kinds, list) else [kinds] if kinds else []


def _valid(parameter: dict[str, Any]) -> st.SearchStrategy:
    """A value the schema allows."""
    if "enum" in parameter:
        return st.sampled_from(parameter["enum"])
    strategies = [_valid_of_kind(kind, parameter) for kind in _kinds(parameter)]
    return st.one_of(strategies) if strategies else JSON


def _valid_of_kind(kind: str, parameter: dict[str, Any]) -> st.SearchStrategy:
    if kind == "string":
        if parameter.get("format") == "uuid":
            return st.uuids().map(str)
        storable = st.characters(codec="utf-8", exclude_characters="\x00")
        return st.text(
            storable, min_size=parameter.get("minLength", 0), max_size=min(parameter.get("maxLength", 60), 60)
        )
    if kind == "integer":
        low = parameter.get("minimum", -1000)
        return st.integers(low, parameter.get("maximum", low + 1000))
    if kind == "boolean":
        return st.booleans()
    if kind == "array":
        return st.lists(_valid(parameter.get("items", {})), max_size=min(parameter.get("maxItems", 8), 8))
    if kind == "object":
        return st.dictionaries(st.text(max_size=12), JSON, max_size=6)
    if kind == "null":
        return st.none()
    return JSON


def _past_bounds(parameter: dict[str, Any]) -> st.SearchStrategy:
    """Just outside what the schema allows: one past a bound, one character too many, one item too many."""
    edges: list[Any] = [None]
    kinds = _kinds(parameter)
    if "string" in kinds:
        edges += ["z" * (parameter.get("maxLength", 2000) + 1), "z" * max(parameter.get("minLength", 0) - 1, 0)]
    if "integer" in kinds:
        edges += [parameter[bound] + step for bound, step in (("minimum", -1), ("maximum", 1)) if bound in parameter]
    if "array" in kinds:
        edges.append([0] * (parameter.get("maxItems", 150) + 1))
    if "enum" in parameter:
        edges.append(f"{parameter['enum'][0]}!")
    return st.sampled_from(edges)
