"""The names the room knows, offered as a steward types a principal, a workspace or an owner, and
the nearest ones when a name typed is not known.

Suggestions are those whose name starts with what was typed, then those holding it, in any case:
at most ``SUGGESTED``. The nearest names to a typo are ``difflib``'s closest among at most
``CANDIDATES`` names of that kind, for a name of at most ``NEAREST_CHARS`` characters: both bound
the work a typed name can cause."""

from __future__ import annotations

import difflib
from collections.abc import Callable

from django.contrib.auth import get_user_model
from django.db.models import Q

from rbac.models import Workspace
from stewardship.owner_counts import owner_counts

SUGGESTED = 20
CANDIDATES = 5000
NEAREST_CHARS = 64
KINDS = ("principal", "workspace", "owner")


def _principals(text: str, limit: int) -> list[str]:
    users = get_user_model().objects.order_by("username").values_list("username", flat=True)
    if not text:
        return list(users[:limit])
    first = list(users.filter(username__istartswith=text)[:limit])
    rest = users.filter(username__icontains=text).exclude(username__in=first)
    return first + list(rest[: limit - len(first)])


def _workspaces(text: str, limit: int) -> list[str]:
    slugs = Workspace.objects.order_by("slug").values_list("slug", flat=True)
    if not text:
        return list(slugs[:limit])
    first = list(slugs.filter(slug__istartswith=text)[:limit])
    rest = slugs.filter(Q(slug__icontains=text) | Q(name__icontains=text)).exclude(slug__in=first)
    return first + list(rest[: limit - len(first)])


def _owners(text: str, limit: int) -> list[str]:
    # An owner is listed once per workspace it has memories in: read enough rows for ``limit`` names.
    names = list(dict.fromkeys(row.user_id for row in owner_counts(text=text, limit=limit * 4)))
    lowered = text.lower()
    return sorted(names, key=lambda name: not name.lower().startswith(lowered))[:limit]


_FINDERS: dict[str, Callable[[str, int], list[str]]] = {
    "principal": _principals,
    "workspace": _workspaces,
    "owner": _owners,
}


def suggested(kind: str, text: str) -> list[str]:
    """The known names of ``kind`` matching ``text`` (all of them, up to the bound, for none)."""
    return _FINDERS[kind](text.strip(), SUGGESTED)


def nearest(kind: str, name: str) -> list[str]:
    """Up to three known names of ``kind`` closest to ``name`` (a typo's likely meaning)."""
    name = name.strip()
    if not name or len(name) > NEAREST_CHARS:
        return []
    known = _FINDERS[kind]("", CANDIDATES)
    return difflib.get_close_matches(name, known, n=3, cutoff=0.6)


def did_you_mean(kind: str, name: str) -> str:
    """ " Did you mean a or b?" for a name not known, or nothing when no known name is close."""
    close = nearest(kind, name)
    if not close:
        return ""
    return " Did you mean " + " or ".join(close) + "?"
