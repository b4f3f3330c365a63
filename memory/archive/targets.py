"""What an archive's names are in the installation it loads into: workspaces by slug (or as
``--workspace-map`` says), authors by username (or the ``--actor``), and write domains as the
write path resolves them for the target workspace. Settled before anything is written, so a
missing workspace or author refuses the import as a whole."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User

from memory.archive.files import ArchiveError, Manifest
from rbac.actors import SYSTEM
from rbac.models import Workspace
from rbac.policy import WriteDomain, write_domain_resolve


@dataclass
class Targets:
    workspaces: dict[str, Workspace]  # archive slug → workspace here
    authors: dict[str, int]  # username → user id here
    fallback: User | None  # writes the memories of authors unknown here
    _domains: dict[int, WriteDomain] = field(default_factory=dict)
    _users: dict[str, int | None] = field(default_factory=dict)

    def workspace(self, slug: Any) -> Workspace:
        if slug not in self.workspaces:
            raise ArchiveError(f"names workspace {slug!r}, which the manifest does not list.")
        return self.workspaces[slug]

    def domain(self, described: Any) -> WriteDomain:
        """The write domain the write path gives the first workspace of an archived domain here."""
        workspace = self.workspace(described["workspaces"][0])
        if workspace.pk not in self._domains:
            self._domains[workspace.pk] = write_domain_resolve(actor=SYSTEM, group_id=workspace.pk)
        return self._domains[workspace.pk]

    def visible_in(self, domain: WriteDomain, slugs: list[str]) -> list[int]:
        """Where the write path makes it visible, and every workspace that saw it where it comes from."""
        return sorted({*domain.visible_in, *(self.workspace(slug).pk for slug in slugs)})

    def author_id(self, username: str) -> int:
        if username in self.authors:
            return self.authors[username]
        if self.fallback is None:
            raise ArchiveError(f"names author {username!r}, which the manifest does not list.")
        return self.fallback.pk

    def user_ids(self, usernames: set[str | None]) -> dict[str | None, int | None]:
        """Who acted (history, edges), by username; None for anyone unknown here."""
        wanted = {name for name in usernames if name is not None and name not in self._users}
        if wanted:
            found = dict(get_user_model().objects.filter(username__in=wanted).values_list("username", "id"))
            self._users.update({name: found.get(name) for name in wanted})
        return {name: self._users.get(name) if name is not None else None for name in usernames}


def targets_resolve(*, manifest: Manifest, workspace_map: dict[str, str], actor: User | None) -> Targets:
    return Targets(
        workspaces=_workspaces(manifest, workspace_map),
        authors=_authors(manifest, actor),
        fallback=actor,
    )


def _workspaces(manifest: Manifest, workspace_map: dict[str, str]) -> dict[str, Workspace]:
    strange = sorted(set(workspace_map) - set(manifest.workspaces))
    if strange:
        raise ArchiveError(
            f"--workspace-map names {', '.join(strange)}, which the archive does not hold; "
            f"it holds {', '.join(manifest.workspaces) or 'no workspace'}.",
            field="workspace_map",
        )
    wanted = {slug: workspace_map.get(slug, slug) for slug in manifest.workspaces}
    found = {w.slug: w for w in Workspace.objects.filter(slug__in=set(wanted.values()))}
    mapped_missing = sorted(f"{old}={new}" for old, new in wanted.items() if new not in found and old != new)
    if mapped_missing:
        raise ArchiveError(
            f"--workspace-map {', '.join(mapped_missing)}: no such workspace here.", code="unknown_workspace"
        )
    missing = sorted(slug for slug, new in wanted.items() if new not in found)
    if missing:
        raise ArchiveError(
            f"The archive's memories are in workspace {', '.join(missing)}, which this installation does not have. "
            "Create it, or map it onto an existing one with --workspace-map OLD=NEW. Nothing was imported.",
            code="unknown_workspace",
        )
    return {slug: found[new] for slug, new in wanted.items()}


def _authors(manifest: Manifest, actor: User | None) -> dict[str, int]:
    found = dict(get_user_model().objects.filter(username__in=manifest.authors).values_list("username", "id"))
    missing = sorted(set(manifest.authors) - set(found))
    if missing and actor is None:
        raise ArchiveError(
            f"The archive's authors {', '.join(missing)} have no principal here. Create them, or name the "
            "principal that writes their memories with --actor NAME. Nothing was imported.",
            code="unknown_author",
        )
    return found
