"""The erasure's proof: every erased text searched in every text and JSON column of every table.

A text is searched by its first ``PROBE_CHARS`` characters, so an excerpt (the atlas keeps 140
characters of a memory, a row's name 60) is found too; in a JSON column also as JSON writes it
(quotes and newlines escaped). Texts shorter than ``MIN_CHARS`` are not searched: they would be
found in rows that have nothing to do with the owner.

Some rows are kept on purpose: another owner's, or this owner's in a workspace not erased. A text
one of them holds was said there too; it is counted as ``kept`` and not looked for anywhere, since
every copy of it (a stage's output, a notice) may be that row's. Every other hit is a row the
erasure missed, and fails the check.

The cost is one pass over each table per erasure: every row's text streams through one
Aho–Corasick automaton of all the texts, so a row costs its length, not its length times the
number of texts (a million memories and an owner's 2,000 texts: see docs/benchmarks.md).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import ahocorasick
from django.apps import apps
from django.contrib.postgres.fields import ArrayField
from django.db import connection, models

MIN_CHARS = 8
PROBE_CHARS = 48
ROW_IDS_SHOWN = 20
_ROWS_AT_ONCE = 2000


@dataclass(frozen=True)
class KeptRows:
    """The rows of ``model`` the erasure keeps on purpose: a SQL condition on alias ``r``."""

    model: type[models.Model]
    where: str
    params: dict[str, Any]


@dataclass(frozen=True)
class TextFound:
    table: str
    rows: int
    row_ids: list[str]  # the first ROW_IDS_SHOWN, to look them up

    def as_dict(self) -> dict[str, Any]:
        return {"table": self.table, "rows": self.rows, "row_ids": self.row_ids}


@dataclass(frozen=True)
class TextCheck:
    searched: int  # distinct texts (by their first PROBE_CHARS characters) looked for
    too_short: int  # texts under MIN_CHARS, not looked for
    kept: int  # texts still said in rows kept on purpose, not looked for
    tables: int
    columns: int
    found: list[TextFound]  # where an erased text is still stored

    @property
    def clean(self) -> bool:
        return not self.found

    def as_dict(self) -> dict[str, Any]:
        return {
            "clean": self.clean,
            "searched": self.searched,
            "too_short": self.too_short,
            "kept_elsewhere": self.kept,
            "tables": self.tables,
            "columns": self.columns,
            "found": [f.as_dict() for f in self.found],
        }


def erased_texts_search(*, texts: list[str], kept: list[KeptRows]) -> TextCheck:
    """Search ``texts`` everywhere; call it after the erasure, in its transaction."""
    wanted = {t.strip() for t in texts if t and t.strip()}
    probes = sorted({t[:PROBE_CHARS] for t in wanted if len(t) >= MIN_CHARS})
    too_short = sum(1 for t in wanted if len(t) < MIN_CHARS)
    kept_by = {k.model: k for k in kept}
    searched = [(model, columns) for model in _models() if (columns := _text_columns(model))]
    kept_probes: set[int] = set()
    hits: dict[str, dict[str, set[int]]] = defaultdict(dict)
    matcher = _matcher(probes) if probes else None
    for model, columns in searched:
        for pk, is_kept, found in _hits(model, columns, matcher, kept_by.get(model)) if matcher else []:
            if is_kept:
                kept_probes.update(found)
            else:
                hits[model._meta.db_table][pk] = set(found)
    found_rows = []
    for table, rows in sorted(hits.items()):
        left = sorted(pk for pk, found in rows.items() if found - kept_probes)
        if left:
            found_rows.append(TextFound(table, len(left), left[:ROW_IDS_SHOWN]))
    columns_count = sum(len(c) for _, c in searched)
    return TextCheck(len(probes), too_short, len(kept_probes), len(searched), columns_count, found_rows)


def _models() -> list[type[models.Model]]:
    return [m for m in apps.get_models(include_auto_created=True) if m._meta.managed and not m._meta.proxy]


def _text_columns(model: type[models.Model]) -> list[str]:
    """SQL for each column that may hold text, as text (JSON as JSON writes it)."""
    quote = connection.ops.quote_name
    columns = []
    for f in model._meta.concrete_fields:
        if getattr(f, "generated", False):
            continue
        column = f"r.{quote(str(f.column))}"
        if isinstance(f, models.CharField | models.TextField):
            columns.append(column)
        elif isinstance(f, models.JSONField):
            columns.append(f"{column}::text")
        elif isinstance(f, ArrayField) and isinstance(f.base_field, models.CharField | models.TextField):
            columns.append(f"array_to_string({column}, chr(31))")
    return columns


def _hits(
    model: type[models.Model], columns: list[str], matcher: ahocorasick.Automaton, kept: KeptRows | None
) -> Iterator[tuple[str, bool, set[int]]]:
    """(row id, kept on purpose, the probes it holds) for each row holding one. The rows stream
    through a server-side cursor; each row's text is read once, whatever the number of probes."""
    quote = connection.ops.quote_name
    sql = f"""
        SELECT r.{quote(str(model._meta.pk.column))}::text, {kept.where if kept else "FALSE"},
               concat_ws(chr(31), {", ".join(columns)})
        FROM {quote(model._meta.db_table)} r"""
    with connection.chunked_cursor() as cursor:
        cursor.execute(sql, kept.params if kept else {})
        while rows := cursor.fetchmany(_ROWS_AT_ONCE):
            for pk, is_kept, hay in rows:
                found = {n for _, numbers in matcher.iter(hay) for n in numbers} if hay else set()
                if found:
                    yield pk, bool(is_kept), found


def _matcher(probes: list[str]) -> ahocorasick.Automaton:
    """One automaton for every probe, and for each probe as JSON writes it inside a string (quotes,
    backslashes and control characters escaped), each leading to the probe's number."""
    numbers: dict[str, set[int]] = defaultdict(set)
    for n, probe in enumerate(probes):
        numbers[probe].add(n)
        numbers[json.dumps(probe, ensure_ascii=False)[1:-1]].add(n)
    matcher = ahocorasick.Automaton()
    for key, found in numbers.items():
        matcher.add_word(key, tuple(found))
    matcher.make_automaton()
    return matcher
