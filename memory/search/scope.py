"""What a caller may read, as SQL: the one raw form of "live, visible to these workspaces, of this
owner, in this window", for memories and for chunks, which every statement that reads them uses.

Its ORM twin is ``Memory.objects.live().visible_to(actor)`` (``rbac.policy.visible_memories_filter``)
and ``Chunk.objects.live().visible_to(actor)``; ``tests/memory/search/test_scope.py`` compares the
rows both select over a generated mix of states, workspaces, federations and windows. No other
module writes a ``visible_in`` clause (``tests/test_one_definition.py`` looks).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings

from memory.search.corpus import CHUNKS, MEMORIES, Corpus
from memory.search.filters import MemoryFilter
from rbac.actors import Actor
from rbac.policy import is_global_admin, readable_workspace_ids


@dataclass(frozen=True)
class Window:
    """An event-time window: a memory's ``valid_from``, a chunk's ``created_at``."""

    start: datetime | None
    end: datetime | None
    explicit: bool

    def contains(self, moment: datetime) -> bool:
        return (self.start is None or moment >= self.start) and (self.end is None or moment <= self.end)


def live(corpus: Corpus, alias: str) -> str:
    """SQL: a row of ``corpus`` (named ``alias``) that may be read at all."""
    return corpus.live.format(a=alias)


def current_memory(alias: str = "m") -> str:
    """SQL: a live memory that nothing superseded (what deduplication and the atlas consider)."""
    return f"{live(MEMORIES, alias)} AND {alias}.valid_to IS NULL"


def visible(
    corpus: Corpus, *, readable: list[int] | None, user_id: str | None, window: Window | None, alias: str
) -> tuple[str, dict[str, Any]]:
    """SQL and its parameters: the live rows of ``corpus`` in a workspace of ``readable`` (None:
    every workspace, as a global admin sees), of ``user_id`` when given, in ``window`` when given."""
    clauses = [live(corpus, alias)]
    params: dict[str, Any] = {}
    if readable is not None:
        # Of one owner, the workspaces are checked on the owner's rows, not through their index:
        # the planner took the rows of every workspace the reader sees from it to intersect with
        # the owner's (7.6 ms a statement in a workspace of 100,000 memories, for an owner of 500),
        # and an owner of many rows is read through an index of their own (memory.vector_indexes).
        # "IS TRUE" keeps the same rows and is no operator an index answers.
        overlap = f"{alias}.visible_in && %(readable)s::int[]"
        clauses.append(f"({overlap}) IS TRUE" if user_id is not None else overlap)
        params["readable"] = readable
    if user_id is not None:
        clauses.append(f"{alias}.user_id = %(owner)s")
        params["owner"] = user_id
    if window is not None and window.start is not None:
        clauses.append(f"{alias}.{corpus.event_time} >= %(window_start)s")
        params["window_start"] = window.start
    if window is not None and window.end is not None:
        clauses.append(f"{alias}.{corpus.event_time} <= %(window_end)s")
        params["window_end"] = window.end
    return " AND ".join(clauses), params


@dataclass(frozen=True)
class Scope:
    """Who is asking and what they may see: the filter every read path puts on memories and chunks."""

    readable: list[int] | None  # None: a global admin, who sees every workspace
    user_id: str | None
    concept: str | None = None
    tags: tuple[str, ...] = ()
    category: str | None = None  # a normalized path: memories filed in it or below
    # How many memories the category holds in the whole installation (memory.categories.counts),
    # when known: a category of few is read from its filings, a large one probed row by row.
    category_rows: int | None = None
    # The caller's metadata filter (memory.search.filters): every statement that reads memories
    # through ``sql`` applies it, so seeds, the graph walk and the results all keep to it.
    filters: MemoryFilter | None = None

    @classmethod
    def of(cls, actor: Actor, user_id: str | None, **narrowed: Any) -> Scope:
        """What ``actor`` may read (of ``user_id``'s, when given), narrowed by concept, tags or category."""
        readable = None if is_global_admin(actor) else readable_workspace_ids(actor)
        return cls(readable=readable, user_id=user_id, **narrowed)

    @property
    def category_few(self) -> bool:
        return self.category_rows is not None and self.category_rows <= settings.HELIX_SEARCH_EXACT_ROWS

    def steady(self, window: Window | None = None) -> bool:
        """Whether the best plan of a statement over this scope (in ``window``) is the same
        whoever asks: only the owner and the workspaces, no category, concept, tags, metadata
        filter or time window, whose selectivity a plan depends on. Such statements are prepared
        (``helixsite.db.base.DatabaseWrapper.prepared_cursor``); a category search's, kept to a
        generic plan, took twice as long (docs/benchmarks.md)."""
        plain = self.category is None and self.concept is None and not self.tags and self.filters is None
        return plain and (window is None or (window.start is None and window.end is None))

    @property
    def narrow(self) -> bool:
        """Few rows may match (one owner's, a small category's, a filter's): gathered first and
        ranked exactly, unless the gathering finds them many (memory.search.seeds)."""
        return self.user_id is not None or self.category_few or self.filters is not None

    def sql(self, window: Window | None = None, alias: str = "m") -> tuple[str, dict[str, Any]]:
        """The memories in scope."""
        where, params = visible(MEMORIES, readable=self.readable, user_id=self.user_id, window=window, alias=alias)
        clauses = [where]
        if self.concept:
            clauses.append(
                f"EXISTS (SELECT 1 FROM memory_instanceof i JOIN memory_concept c ON c.id = i.concept_id "
                f"WHERE i.memory_id = {alias}.id AND c.name = %(concept)s)"
            )
            params["concept"] = self.concept
        if self.category:
            # The category's ids, found once for the statement. A small category's memories are
            # read from its filings (an index by category); a large one's rows are each probed for
            # a filing (an index by memory), never by a pass over every filing of the category:
            # OFFSET 0 keeps PostgreSQL from making it a join that reads them all (230,000
            # filings, for an owner's 1,500 rows).
            ids = "ARRAY(SELECT k.id FROM categories_category k WHERE k.lineage @> ARRAY[%(category)s]::varchar[])"
            if self.category_few:
                filed = f"SELECT f.memory_id FROM categories_filing f WHERE f.category_id = ANY({ids})"
                clauses.append(f"{alias}.id IN ({filed})")
            else:
                clauses.append(
                    f"EXISTS (SELECT 1 FROM categories_filing f WHERE f.memory_id = {alias}.id "
                    f"AND f.category_id = ANY({ids}) OFFSET 0)"
                )
            params["category"] = self.category
        if self.tags:
            clauses.append(f"{alias}.context_tags @> %(tags)s::varchar[]")
            params["tags"] = list(self.tags)
        if self.filters is not None:
            condition, values = self.filters.named(alias)
            clauses.append(condition)
            params.update(values)
        return " AND ".join(clauses), params

    def chunks_sql(self, window: Window | None = None, alias: str = "c") -> tuple[str, dict[str, Any]]:
        """The chunks in scope: current chunks of documents not forgotten (a chunk has no concept,
        tags or category of its own)."""
        return visible(CHUNKS, readable=self.readable, user_id=self.user_id, window=window, alias=alias)
