"""A database of the benchmarks' own, so they never touch an installation's memories."""

from __future__ import annotations

from django.core.management import call_command

from bench.corpus import statements
from memory.ingest.bulk import ImportRow, import_rows
from memory.models import Memory, MemorySource
from rbac.models import Role, Workspace
from rbac.policy import SYSTEM
from rbac.selectors import user_get_by_name
from rbac.services import membership_grant, principal_create, workspace_create


def prepared(*, memories: int):  # noqa: ANN201 - the bench principal
    """Migrate, make the bench principal and workspace, and top the corpus up to ``memories`` rows."""
    call_command("migrate", verbosity=0)
    if not Workspace.objects.filter(slug="bench").exists():
        workspace_create(actor=SYSTEM, name="Bench", slug="bench")
        principal_create(username="bench", kind="agent")
    actor = user_get_by_name(username="bench")
    membership_grant(actor=SYSTEM, workspace=Workspace.objects.get(slug="bench"), user=actor, role=Role.WORKER)
    # Only the seed corpus stays between runs: what earlier runs added or imported goes.
    Memory.objects.exclude(source=MemorySource.AGENT, user_id__startswith="user").delete()
    missing = memories - Memory.objects.count()
    if missing > 0:
        rows = [
            ImportRow(i, user, text, "fact", "bench", {}, None, "")
            for i, (user, text) in enumerate(statements(memories)[-missing:])
        ]
        import_rows(actor=actor, rows=rows, batch_size=512, rebuild_index="auto")
    return actor
