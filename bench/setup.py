"""A database of the benchmarks' own, and a workspace per benchmark within it, so they never
touch an installation's memories or each other's."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.core.management import call_command

from bench.corpus import statements
from memory.ingest.bulk import ImportRow, import_rows
from memory.models import Memory, MemorySource
from memory.providers import get_embedder
from rbac.models import Role, Workspace
from rbac.policy import SYSTEM
from rbac.selectors import user_get_by_name
from rbac.services import membership_grant, principal_create, workspace_create


def prepared(*, workspace: str, memories: int = 0, principal: str = "bench"):
    """Migrate, make the bench principal and ``workspace``, and keep exactly ``memories`` seed
    rows in it (synthetic statements loaded as agent memories); whatever else an earlier run of
    the same benchmark wrote there goes."""
    call_command("migrate", verbosity=0)
    if not Workspace.objects.filter(slug=workspace).exists():
        workspace_create(actor=SYSTEM, name=workspace, slug=workspace)
    if not Workspace.objects.filter(slug="bench").exists():
        workspace_create(actor=SYSTEM, name="bench", slug="bench")
    try:
        actor = user_get_by_name(username=principal)
    except Exception:
        actor = principal_create(username=principal, kind="agent").user
    space = Workspace.objects.get(slug=workspace)
    membership_grant(actor=SYSTEM, workspace=space, user=actor, role=Role.WORKER)
    if memories:
        in_space = Memory.objects.filter(rbac_scope=f"rbac:group:{space.id}")
        in_space.exclude(source=MemorySource.AGENT).delete()
        missing = memories - in_space.count()
        if missing > 0:
            rows = [
                ImportRow(i, user, text, "fact", workspace, {}, None, "")
                for i, (user, text) in enumerate(statements(memories)[-missing:])
            ]
            import_rows(actor=actor, rows=rows, batch_size=512, rebuild_index="auto")
    return actor


@contextmanager
def remembering_embedder(*modules: Any) -> Iterator[None]:
    """Within: each of ``modules`` embeds through the installation's embedder, which runs once
    per distinct text; a text seen before gets the vector it got then. For loads whose texts
    repeat: every row still gets its own text's vector, without the model's time again."""
    vectors: dict[str, Any] = {}

    class Remembering:
        def embed(self, texts: list[str], *, purpose: str) -> list[Any]:
            new = list(dict.fromkeys(t for t in texts if t not in vectors))
            if new:
                vectors.update(zip(new, get_embedder().embed(new, purpose=purpose), strict=True))
            return [vectors[t] for t in texts]

    for module in modules:
        module.get_embedder = Remembering
    try:
        yield
    finally:
        for module in modules:
            module.get_embedder = get_embedder
