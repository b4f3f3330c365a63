"""What state a memory is in, in words the room shows beside it wherever it lists one, with what
caused it: current; superseded (by a later memory); retracted (a later statement took it back, with
its contradiction review); contradicted (a later statement disagrees, its review open); forgotten;
expired. An erased memory no longer exists: its page says so (a 404).

Read in one pass for a page of memories, as the search's own edges read them
(``memory.search.expand.edges_around``): an expired edge or a cause the viewer may not see is not
shown, so a view-as page names nothing that principal could not open."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import User
from django.utils import timezone

from memory.charter.models import ContradictionReview
from memory.models import Edge, EdgeType, Memory


@dataclass(frozen=True)
class MemoryState:
    name: str  # current, superseded, retracted, contradicted, forgotten, expired
    since: datetime | None = None
    by: uuid.UUID | None = None  # the memory that caused it
    review: ContradictionReview | None = None

    @property
    def current(self) -> bool:
        return self.name == "current"


CURRENT = MemoryState("current")


def memory_states(ids: Iterable[uuid.UUID | str], *, viewer: User | None = None) -> dict[str, MemoryState]:
    """The state of each memory of ``ids`` (by id as text), with its cause as ``viewer`` (None: a
    global admin) may see it. A memory that does not exist is left out."""
    wanted = list({str(i) for i in ids})
    if not wanted:
        return {}
    rows = Memory.objects.filter(pk__in=wanted).values("id", "deleted_at", "expires_at", "valid_to")
    causes = _causes(wanted, viewer)
    reviews = _reviews(wanted)
    now = timezone.now()
    states: dict[str, MemoryState] = {}
    for row in rows:
        key = str(row["id"])
        retracted_by = causes.get((key, "retracts"))
        superseded_by = causes.get((key, EdgeType.SUPERSEDES))
        contradicted_by = causes.get((key, EdgeType.CONTRADICTS))
        if row["deleted_at"] is not None:
            states[key] = MemoryState("forgotten", since=row["deleted_at"])
        elif row["expires_at"] is not None and row["expires_at"] <= now:
            states[key] = MemoryState("expired", since=row["expires_at"])
        elif retracted_by is not None:
            states[key] = MemoryState("retracted", since=retracted_by[1], by=retracted_by[0], review=reviews.get(key))
        elif row["valid_to"] is not None:
            states[key] = MemoryState("superseded", since=row["valid_to"], by=superseded_by and superseded_by[0])
        elif contradicted_by is not None and (review := reviews.get(key)) is not None and review.status == "open":
            states[key] = MemoryState("contradicted", since=contradicted_by[1], by=contradicted_by[0], review=review)
        else:
            states[key] = CURRENT
    return states


def _causes(wanted: list[str], viewer: User | None) -> dict[tuple[str, str], tuple[uuid.UUID, datetime]]:
    """(memory, kind) → the newest live edge's source and its time: SUPERSEDES, CONTRADICTS, and
    "retracts" for a CONTRADICTS whose source says it takes the memory back."""
    sources = Memory.objects.live() if viewer is None else Memory.objects.live().visible_to(viewer)
    edges = (
        Edge.objects.live()
        .filter(target_id__in=wanted, edge_type__in=[EdgeType.SUPERSEDES, EdgeType.CONTRADICTS])
        .filter(source_id__in=sources.values("id"))
        .values_list("target_id", "edge_type", "source_id", "created_at", "source__facets")
        .order_by("created_at")
    )
    found: dict[tuple[str, str], tuple[uuid.UUID, datetime]] = {}
    for target, kind, source, created, facets in edges:
        found[(str(target), kind)] = (source, created)
        change = facets.get("change") if isinstance(facets, dict) else None
        if kind == EdgeType.CONTRADICTS and isinstance(change, list) and change[:1] == ["retracts"]:
            found[(str(target), "retracts")] = (source, created)
    return found


def _reviews(wanted: list[str]) -> dict[str, ContradictionReview]:
    """memory → its newest contradiction review (the memory as the older statement)."""
    reviews = ContradictionReview.objects.filter(to_memory_id__in=wanted).order_by("created_at")
    return {str(review.to_memory_id): review for review in reviews}
