"""manage.py export and import throughput: a workspace of its own per size holding
``BENCH_EXPORT_SIZE`` synthetic memories (default 5000, loaded with import_jsonl's path and kept
between runs, with an edge from each to the next and their category filings) and
``BENCH_EXPORT_DOCUMENTS`` generated manuals of ten pages (default 10, about 30 chunks each, added
through the add_document service and kept too), exported to a directory and to a .tar.gz,
emptied, imported again, and imported once more (every row already there).

The import keeps the vector index (``rebuild_index="never"``): the benchmarks' database holds
other benchmarks' memories, and an index dropped under them would slow their searches."""

from __future__ import annotations

import os
import tempfile
import time
from itertools import pairwise
from pathlib import Path

from bench.documents import manual
from bench.setup import prepared
from memory.archive.export import Selection, archive_export
from memory.archive.load import archive_import
from memory.categories.models import Category
from memory.categories.services import memories_file
from memory.documents.models import Chunk, Document
from memory.documents.services import DocumentInput, document_add
from memory.models import Edge, EdgeType, Entity, Memory
from rbac.models import Workspace

DOCUMENT_PAGES = 10


def run() -> None:
    size = int(os.environ.get("BENCH_EXPORT_SIZE", "5000"))
    documents = int(os.environ.get("BENCH_EXPORT_DOCUMENTS", "10"))
    workspace = f"bench-export-{size}"
    actor = prepared(workspace=workspace, memories=size, principal="bench-export")
    scope = f"rbac:group:{Workspace.objects.get(slug=workspace).pk}"
    _link_and_file(scope)
    _shelve(actor, workspace, scope, documents)
    with tempfile.TemporaryDirectory(prefix="bench-export-") as folder:
        archive = Path(folder) / "archive"
        for out in (archive, Path(folder) / "archive.tar.gz"):
            started = time.perf_counter()
            report = archive_export(out=out, selection=Selection(workspaces=(workspace,)))
            _print(f"export to {out.name}", report.rows, time.perf_counter() - started)
        before = _counts(scope)
        _empty(scope)
        for what in ("import into an emptied workspace", "import again, every row already there"):
            started = time.perf_counter()
            loaded = archive_import(path=archive, actor=actor, rebuild_index="never", batch_size=500)
            rows = {kind: count.read for kind, count in loaded.counts.items()}
            written = sum(count.written for count in loaded.counts.values())
            _print(f"{what} ({written:,} rows written)", rows, time.perf_counter() - started)
        assert _counts(scope) == before, "the import brings back every memory, document and chunk"


def _print(what: str, rows: dict[str, int], seconds: float) -> None:
    total, memories, chunks = sum(rows.values()), rows["memories"], rows["chunks"]
    kinds = ", ".join(f"{n:,} {kind}" for kind, n in rows.items() if n)
    print(
        f"{what}: {total:,} rows in {seconds:.1f} s = {total / seconds:,.0f} rows/s, "
        f"{memories / seconds:,.0f} memories/s, {chunks / seconds:,.0f} chunks/s ({kinds})"
    )


def _counts(scope: str) -> tuple[int, int, int]:
    return (
        Memory.objects.filter(rbac_scope=scope).count(),
        Document.objects.filter(rbac_scope=scope).count(),
        Chunk.objects.filter(document__rbac_scope=scope).count(),
    )


def _link_and_file(scope: str) -> None:
    """An edge from each memory to the next, and category filings, so every kind of row is there."""
    ids = list(Memory.objects.filter(rbac_scope=scope).order_by("created_at", "id").values_list("id", flat=True))
    if not Edge.objects.filter(source_id__in=ids[:1]).exists():
        edges = [Edge(source_id=a, target_id=b, edge_type=EdgeType.RELATES_TO) for a, b in pairwise(ids)]
        Edge.objects.bulk_create(edges, batch_size=2000, ignore_conflicts=True)
        memories_file(memory_ids=ids)


def _shelve(actor, workspace: str, scope: str, documents: int) -> None:
    """``documents`` manuals in the workspace, added once and kept between runs."""
    have = Document.objects.filter(rbac_scope=scope).count()
    for n in range(have, documents):
        given = DocumentInput(user_id=f"reader-{n % 5}", title=f"Manual {n}", text=manual(DOCUMENT_PAGES, seed=n))
        document_add(actor=actor, given=given, group_id=workspace)


def _empty(scope: str) -> None:
    Document.objects.filter(rbac_scope=scope).delete()
    Memory.objects.filter(rbac_scope=scope).delete()
    Entity.objects.filter(rbac_scope=scope).delete()
    Category.objects.filter(rbac_scope=scope).delete()
