"""Writes of documents: accept (new, unchanged, resumed or a new version), store, resume, forget.

An add is accepted at once: the document row is stored ``pending``, with a text and how many
chunks it will have, or with a file (checked cheaply: a PDF opens) that the worker reads. The
worker then stores it (``document_resume``): a file's text is read (its streams inflating within
a bound; a file it cannot read leaves the document ``refused``), then each chunk is embedded (a
batch per provider call) and the batch stored in one insert, in a transaction of its own which
also counts it on the document, so ``get_document`` shows the progress. A failure part-way leaves
the document ``partial`` (or ``failed`` before its first chunk) with its ``error``, and adding the
same content again, or the worker's sweep, stores only the chunks still missing. Forgetting a
document, or a new version once stored whole, forgets the memories extracted from it that nothing
else says (``memory.documents.extracted``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone

from helixsite.errors import ApplicationError, Conflict, Forbidden, InvalidInput, NotFound
from helixsite.task_broker import task_enqueue_after_commit
from memory.documents.chunks import Cut, chunk_place, chunk_prose, chunk_text
from memory.documents.extracted import extracted_links_carry, extracted_memories_retire
from memory.documents.formats import Source, document_read, file_check
from memory.documents.models import Chunk, Document, DocumentHistory, DocumentStatus, ExtractedFrom
from memory.documents.selectors import document_get_for_actor
from memory.embedding_space import embedding_space_check
from memory.providers import ProviderError, get_embedder
from memory.services.add import memory_add
from rbac.actors import Actor, recorded_user
from rbac.policy import WriteDomain, may_change, write_domain_resolve

# An add stopped by an error, or whose task never ran or was killed, is resumed by the worker's
# sweep once it has been left this long (a document being stored is touched at every chunk).
STALLED_AFTER = timedelta(minutes=5)
STORE_TASK = "memory.documents.tasks.document_resume"


@dataclass(frozen=True)
class DocumentInput:
    """What one add_document call asks to store, checked at the door."""

    user_id: str
    title: str
    text: str | None = None
    data: bytes | None = None  # a file's bytes (decoded from base64)
    content_type: str | None = None
    source_url: str = ""
    metadata: dict[str, Any] | None = None
    agent_id: str = ""
    extract: bool = False


@dataclass(frozen=True)
class Added:
    document: Document
    outcome: str  # created | replaced | resumed | unchanged


@dataclass(frozen=True)
class Forgotten:
    document: Document
    memories_forgotten: int  # read from its chunks and said nowhere else


def document_accept(
    *, actor: User, given: DocumentInput, group_id: str | int | None = None, document_id: Any = None
) -> Added:
    """Accept a document: read it, store its row (``pending``) and queue its chunks for the
    worker, which stores them (``document_resume``). The same content (sha256 of its text, or of
    the file sent)
    already stored for the owner in the write domain is not stored again: it is queued again if
    unfinished, else left as it is. Another content under the same title and source (or for
    ``document_id``) is a new version of that document: its chunks supersede the old ones, which
    are kept. Access is settled before a file is read."""
    added = _accepted(actor=actor, given=given, group_id=group_id, document_id=document_id)
    if added.outcome != "unchanged":
        task_enqueue_after_commit(STORE_TASK, str(added.document.pk), task_name=f"document {added.document.pk}")
    return added


def document_add(
    *, actor: User, given: DocumentInput, group_id: str | int | None = None, document_id: Any = None
) -> Added:
    """``document_accept``, with the chunks stored here and now rather than by the worker: for
    commands, imports and benches that wait for the document anyway."""
    added = _accepted(actor=actor, given=given, group_id=group_id, document_id=document_id)
    if added.outcome == "unchanged":
        return added
    return _stored(added.document, actor, added.outcome)


def _accepted(*, actor: User, given: DocumentInput, group_id: str | int | None, document_id: Any) -> Added:
    if document_id is not None:
        document = _replaceable(actor, document_id, given.user_id, group_id)
        source, digest = _read(given)
        if document.sha256 == digest:
            return _resumed(document, given)
        return Added(_version_new(document, actor, given, source, digest), "replaced")
    domain = write_domain_resolve(actor=actor, group_id=group_id)
    source, digest = _read(given)
    owned = Document.objects.live().filter(rbac_scope=domain.scope, user_id=given.user_id)
    same = owned.filter(sha256=digest).first()
    if same is not None:
        return _resumed(same, given)
    previous = owned.filter(title=given.title, source_url=given.source_url).first()
    if previous is not None:
        _authorize_change(actor, previous)
        return Added(_version_new(previous, actor, given, source, digest), "replaced")
    return Added(_created(actor, domain, given, source, digest), "created")


def document_resume(*, document_id: Any) -> Document | None:
    """Store a document's missing chunks (and extract what is left to extract), as its author;
    None when it is gone. Idempotent: what is stored already is not stored again."""
    document = Document.objects.live().select_related("author").filter(pk=document_id).first()
    if document is None:
        return None
    return _stored(document, document.author, "resumed").document


def documents_resume_stalled(*, older_than: timedelta = STALLED_AFTER, limit: int = 20) -> int:
    """Resume the documents left unfinished, untouched for longer than ``older_than``, oldest first:
    stopped by an error, or never stored (their task lost with the queue, or killed with its
    worker), or stored with memories still to extract. How many were finished. One still failing
    keeps its error for the next sweep."""
    unfinished = Q(status__in=[DocumentStatus.PENDING, DocumentStatus.PARTIAL, DocumentStatus.FAILED]) | Q(
        extract=True, workspace__isnull=False, chunks__extracted_at__isnull=True, chunks__version=F("version")
    )
    stalled = (
        Document.objects.live()
        .filter(unfinished, updated_at__lt=timezone.now() - older_than)
        .distinct()
        .order_by("updated_at")
        .values_list("id", flat=True)[:limit]
    )
    finished = 0
    for document_id in list(stalled):
        try:
            document_resume(document_id=document_id)
        except ApplicationError:
            continue
        finished += 1
    return finished


def document_forget(*, actor: Actor, document_id: Any, reason: str = "") -> Forgotten:
    """Soft-delete a document: it and its chunks leave every read path; rows and history stay.
    The memories read from it that nothing else says are forgotten with it, as forget_memory
    forgets (memory.documents.extracted). The author (with write access), a moderator of its
    workspace, or a global admin."""
    document = document_get_for_actor(actor=actor, document_id=document_id)
    _authorize_change(actor, document)
    now = timezone.now()
    with transaction.atomic():
        locked = Document.objects.select_for_update().get(pk=document.pk)
        locked.deleted_at = locked.updated_at = now
        locked.save(update_fields=["deleted_at", "updated_at"])
        Chunk.objects.filter(document=locked, deleted_at__isnull=True).update(deleted_at=now)
        _history(locked, DocumentHistory.Action.FORGET, actor, reason=reason)
        why = f"its document {locked.title!r} ({locked.pk}) was forgotten" + (f": {reason}" if reason else "")
        forgotten = extracted_memories_retire(document=locked, actor=actor, reason=why, now=now)
    return Forgotten(locked, forgotten)


# --- adding ----------------------------------------------------------------------------------


def _read(given: DocumentInput) -> tuple[Source | None, str]:
    """A text read and its digest; for a file, None (the worker reads it) and the file's digest."""
    if given.data is not None:
        file_check(given.data, given.content_type or "")
        return None, hashlib.sha256(given.data).hexdigest()
    source = document_read(text=given.text, data=None, content_type=None)
    return source, hashlib.sha256(source.text.encode("utf-8")).hexdigest()


def _created(actor: User, domain: WriteDomain, given: DocumentInput, source: Source | None, digest: str) -> Document:
    cuts = _cuts(source.text, source.page_starts) if source is not None else []
    document = Document(
        title=given.title,
        source_url=given.source_url,
        content_type=source.content_type if source is not None else given.content_type or "",
        metadata=given.metadata or {},
        text=source.text if source is not None else "",
        source_file=given.data if source is None else None,
        sha256=digest,
        chars=len(source.text) if source is not None else 0,
        page_starts=source.page_starts if source is not None else [],
        user_id=given.user_id,
        author=actor,
        agent_id=given.agent_id,
        rbac_scope=domain.scope,
        workspace=domain.workspace,
        visible_in=domain.visible_in,
        chunks_total=len(cuts),
        chunk_chars=settings.HELIX_DOCUMENT_CHUNK_CHARS,
        chunk_overlap=settings.HELIX_DOCUMENT_CHUNK_OVERLAP,
        extract=given.extract,
    )
    try:
        with transaction.atomic():
            document.save(force_insert=True)
    except IntegrityError:
        # Another call stored the same content, or a document of this title and source, meanwhile.
        raise Conflict(
            "A document with this content, or this title and source, was stored meanwhile; add it again.",
            code="duplicate",
        ) from None
    return document


def _version_new(document: Document, actor: User, given: DocumentInput, source: Source | None, digest: str) -> Document:
    """The next version of ``document``: its chunks so far are superseded (kept, with the text they
    point into in its history); the new text's chunks follow (a file's, once the worker read it)."""
    cuts = _cuts(source.text, source.page_starts) if source is not None else []
    now = timezone.now()
    try:
        with transaction.atomic():
            locked = Document.objects.select_for_update().get(pk=document.pk)
            _history(locked, DocumentHistory.Action.REPLACE, actor, text=locked.text)
            Chunk.objects.filter(document=locked, superseded_at__isnull=True).update(superseded_at=now)
            locked.version += 1
            locked.title, locked.source_url = given.title, given.source_url
            if source is not None:
                locked.content_type, locked.text, locked.source_file = source.content_type, source.text, None
                locked.page_starts, locked.chars = source.page_starts, len(source.text)
            else:
                locked.content_type, locked.text, locked.source_file = given.content_type or "", "", given.data
                locked.page_starts, locked.chars = [], 0
            locked.sha256 = digest
            locked.metadata = given.metadata if given.metadata is not None else locked.metadata
            locked.status, locked.chunks_total, locked.chunks_done, locked.error = (
                DocumentStatus.PENDING,
                len(cuts),
                0,
                "",
            )
            locked.chunk_chars = settings.HELIX_DOCUMENT_CHUNK_CHARS
            locked.chunk_overlap = settings.HELIX_DOCUMENT_CHUNK_OVERLAP
            locked.extract, locked.agent_id, locked.updated_at = given.extract, given.agent_id, now
            locked.memories_forgotten = locked.chunks_extracted = 0
            locked.save()
    except IntegrityError:
        raise Conflict(
            "Another document of this owner already has this content, or this title and source.", code="duplicate"
        ) from None
    return locked


def _resumed(document: Document, given: DocumentInput) -> Added:
    """The same content again: nothing new, or what an earlier call left unfinished, to store
    again. Anyone who may write where it is may finish it: the chunks are the same whoever stores
    them (its author does, as the worker's sweep would). A file the worker could not read is
    given to it again: it is read with the limits in force now."""
    if document.status == DocumentStatus.COMPLETE and not _extraction_left(document):
        return Added(_fresh(document), "unchanged")
    if document.status == DocumentStatus.REFUSED and given.data is not None:
        Document.objects.filter(pk=document.pk, status=DocumentStatus.REFUSED).update(
            source_file=given.data, status=DocumentStatus.PENDING, error="", updated_at=timezone.now()
        )
    return Added(_fresh(document), "resumed")


def _cuts(text: str, page_starts: list[int]) -> list[Cut]:
    cuts = chunk_text(
        text,
        size=settings.HELIX_DOCUMENT_CHUNK_CHARS,
        overlap=settings.HELIX_DOCUMENT_CHUNK_OVERLAP,
        page_starts=page_starts,
    )
    if not cuts:
        raise InvalidInput("The document holds no text.", code="empty_document", field="text")
    return cuts


# --- chunks ----------------------------------------------------------------------------------


def _stored(document: Document, actor: User, outcome: str) -> Added:
    """Read the file ``document`` was sent as, if it has not been read; embed and store the chunks
    it is missing, then extract from them if it asks; once a new version is whole, retire the
    memories only its earlier chunks said."""
    if document.source_file is not None:
        read = _source_read(document)
        if read is None:
            return Added(_fresh(document), outcome)  # replaced or forgotten meanwhile: that call goes on
        document = read
    cuts = chunk_text(
        document.text, size=document.chunk_chars, overlap=document.chunk_overlap, page_starts=document.page_starts
    )
    have = set(Chunk.objects.filter(document=document, version=document.version).values_list("position", flat=True))
    missing = [cut for cut in cuts if cut.position not in have]
    try:
        if missing:
            embedding_space_check()  # before embedding: a process left on the old model embeds nothing
        for batch in _batches(missing, settings.HELIX_DOCUMENT_EMBED_BATCH):
            vectors = get_embedder().embed([_embedded_text(document, cut) for cut in batch], purpose="document")
            if not _chunks_store(document, batch, vectors):
                return Added(_fresh(document), outcome)  # replaced or forgotten meanwhile: that call goes on
        _progress_settle(document)
        if document.extract:
            _extract(document, actor)
        _earlier_versions_settle(document, actor)
    except ProviderError as exc:
        raise _stopped(document, code=exc.code, message=str(exc), status=503) from exc
    except ApplicationError as exc:
        raise _stopped(document, code=exc.code, message=exc.message, status=exc.status) from exc
    except Exception as exc:
        _stopped(document, code="internal_error", message=f"{exc.__class__.__name__}: {exc}", status=500)
        raise
    return Added(_fresh(document), outcome)


def _source_read(document: Document) -> Document | None:
    """The text of the file ``document`` was sent as, read and stored with how many chunks it has
    (the file is then dropped); None when its version moved on or it was forgotten meanwhile. A
    file that cannot be read leaves the document ``refused`` with the reason, which is raised."""
    assert document.source_file is not None
    try:
        source = document_read(text=None, data=bytes(document.source_file), content_type=document.content_type)
        cuts = _cuts(source.text, source.page_starts)
    except InvalidInput as refused:
        Document.objects.filter(pk=document.pk, version=document.version).update(
            status=DocumentStatus.REFUSED,
            error=f"{refused.code}: {refused.message}"[:4000],
            source_file=None,
            updated_at=timezone.now(),
        )
        raise
    read = Document.objects.filter(pk=document.pk, version=document.version, deleted_at__isnull=True).update(
        text=source.text,
        content_type=source.content_type,
        page_starts=source.page_starts,
        chars=len(source.text),
        chunks_total=len(cuts),
        source_file=None,
        updated_at=timezone.now(),
    )
    return _fresh(document) if read else None


def _embedded_text(document: Document, cut: Cut) -> str:
    """What a chunk is embedded as: where it sits (title, headings), then its text."""
    return f"{chunk_place(document.title, cut.heading)}\n\n{document.text[cut.char_start : cut.char_end]}"


def _chunks_store(document: Document, cuts: list[Cut], vectors) -> bool:
    """A batch of chunks in one transaction and one insert, counted on its document; False when the
    document's version has moved on or it was forgotten."""
    now = timezone.now()
    with transaction.atomic():
        locked = (
            Document.objects.select_for_update()
            .filter(pk=document.pk, version=document.version, deleted_at__isnull=True)
            .only("id", "chunks_total")
            .first()
        )
        if locked is None:
            return False
        chunks = [
            Chunk(
                document_id=document.pk,
                version=document.version,
                position=cut.position,
                text=document.text[cut.char_start : cut.char_end],
                heading=cut.heading,
                char_start=cut.char_start,
                char_end=cut.char_end,
                page=cut.page,
                user_id=document.user_id,
                visible_in=document.visible_in,
                embedding=vector,
                created_at=now,
            )
            for cut, vector in zip(cuts, vectors, strict=True)
        ]
        Chunk.objects.bulk_create(chunks, ignore_conflicts=True)  # a concurrent resume stored some: fine
        # Last, once this transaction holds the table: a re-embed that switched the installation
        # to another model while this write waited on its lock is seen here, and refuses it.
        embedding_space_check()
        for chunk in chunks:
            extracted_links_carry(document=document, position=chunk.position, text=chunk.text)
        done = Chunk.objects.filter(document_id=document.pk, version=document.version).count()
        status = DocumentStatus.COMPLETE if done >= locked.chunks_total else DocumentStatus.PARTIAL
        Document.objects.filter(pk=document.pk).update(chunks_done=done, status=status, error="", updated_at=now)
    return True


def _progress_settle(document: Document) -> None:
    """Every chunk was there already (a resume with nothing left to store): say so."""
    done = Chunk.objects.filter(document_id=document.pk, version=document.version).count()
    Document.objects.filter(pk=document.pk, version=document.version, chunks_total__lte=done).exclude(
        status=DocumentStatus.COMPLETE, error=""
    ).update(chunks_done=done, status=DocumentStatus.COMPLETE, error="", updated_at=timezone.now())


def _earlier_versions_settle(document: Document, actor: User) -> None:
    """A new version stored whole (and read, if it asks): the memories read from earlier versions'
    chunks that none of its chunks has kept, and that nothing else says, are forgotten, and the
    document says how many (``memories_forgotten``)."""
    if document.version < 2:
        return
    with transaction.atomic():
        locked = Document.objects.select_for_update().filter(pk=document.pk, version=document.version).first()
        if locked is None or locked.deleted_at is not None:
            return  # a newer version, or the forget, settles them
        why = f"its document {locked.title!r} ({locked.pk}) no longer says it from version {locked.version}"
        forgotten = extracted_memories_retire(document=locked, actor=actor, reason=why, now=timezone.now())
        if forgotten:
            locked.memories_forgotten += forgotten
            locked.save(update_fields=["memories_forgotten"])


def _stopped(document: Document, *, code: str, message: str, status: int) -> ApplicationError:
    """Record why the run stopped, and the error the caller gets: where the document stands."""
    done = Chunk.objects.filter(document_id=document.pk, version=document.version).count()
    state = DocumentStatus.COMPLETE if done >= document.chunks_total else DocumentStatus.PARTIAL
    state = DocumentStatus.FAILED if done == 0 else state
    Document.objects.filter(pk=document.pk, version=document.version).update(
        status=state, chunks_done=done, error=f"{code}: {message}"[:4000], updated_at=timezone.now()
    )
    details = {"document_id": str(document.pk), "status": str(state), "chunks_done": done}
    return ApplicationError(
        f"{message} The document is stored {state} ({done} of {document.chunks_total} chunks); "
        "add it again to continue where it stopped.",
        code=code,
        status=status,
        details=details,
    )


def _fresh(document: Document) -> Document:
    return Document.objects.select_related("author", "workspace").get(pk=document.pk)


def _batches(items: list[Cut], size: int) -> Iterator[list[Cut]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


# --- extraction (extract=true) -----------------------------------------------------------------


def _extraction_left(document: Document) -> bool:
    return document.extract and (
        Chunk.objects.filter(document=document, version=document.version, extracted_at__isnull=True).exists()
    )


def _extract(document: Document, actor: User) -> None:
    """Each chunk not yet read goes through add_memory's pipeline in the document's write domain;
    the memories it wrote, or found known, are linked to the chunk (EXTRACTED_FROM). Headings and
    code are not statements: only a chunk's prose is read."""
    if document.workspace_id is None:  # its workspace was deleted: there is nowhere to write
        return
    waiting = Chunk.objects.filter(
        document=document, version=document.version, extracted_at__isnull=True, deleted_at__isnull=True
    ).order_by("position")
    for chunk in waiting.only("id", "text", "position"):
        prose = chunk_prose(chunk.text)
        result = _extracted(document, actor, chunk, prose) if prose.strip() else {}
        created = set(result.get("memory_ids", []))
        known = (set(result.get("deduped", [])) | set(result.get("updated", []))) - created
        links = [ExtractedFrom(memory_id=m, chunk_id=chunk.id, created=True) for m in created]
        links += [ExtractedFrom(memory_id=m, chunk_id=chunk.id, created=False) for m in known]
        with transaction.atomic():
            ExtractedFrom.objects.bulk_create(links, ignore_conflicts=True)
            now = timezone.now()
            Chunk.objects.filter(pk=chunk.id).update(extracted_at=now)
            read = Chunk.objects.filter(document=document, version=document.version, extracted_at__isnull=False)
            # Touched, so the sweep leaves it to this run; counted, so get_document shows the progress.
            Document.objects.filter(pk=document.pk, version=document.version).update(
                chunks_extracted=read.count(), updated_at=now
            )


def _extracted(document: Document, actor: User, chunk: Chunk, prose: str) -> dict[str, Any]:
    return memory_add(
        actor=actor,
        user_id=document.user_id,
        message=prose,
        group_id=document.workspace_id,
        agent_id=document.agent_id,
        metadata={"document_id": str(document.pk), "chunk_index": chunk.position},
        extract=True,
    )


# --- access ------------------------------------------------------------------------------------


def _replaceable(actor: User, document_id: Any, user_id: str, group_id: str | int | None) -> Document:
    document = document_get_for_actor(actor=actor, document_id=document_id)
    if document.user_id != user_id:
        raise NotFound("No document with this id belongs to this user_id.", field="user_id")
    if group_id not in (None, "") and write_domain_resolve(actor=actor, group_id=group_id).scope != document.rbac_scope:
        raise InvalidInput("The document belongs to another workspace.", code="other_workspace", field="group_id")
    _authorize_change(actor, document)
    return document


def _authorize_change(actor: Actor, document: Document) -> None:
    """forget_memory's rule: the author with write access, a moderator of a workspace that sees
    it, or a global admin."""
    if may_change(actor=actor, author_id=document.author_id, visible_in=document.visible_in):
        return
    raise Forbidden(
        "Only the author (with write access) or a moderator of its workspace may change this document.",
        details={"action": "change_document"},
    )


def _history(document: Document, action: str, actor: Actor, *, text: str = "", reason: str = "") -> None:
    DocumentHistory.objects.create(
        document=document,
        action=action,
        version=document.version,
        title=document.title,
        sha256=document.sha256,
        text=text,
        actor=recorded_user(actor),
        reason=(reason or "")[:500],
    )
