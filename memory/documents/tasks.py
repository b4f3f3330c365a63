"""Background tasks of the documents: they take ids, call a service, and are idempotent."""

from __future__ import annotations

from memory.documents.services import document_resume as resume
from memory.documents.services import documents_resume_stalled


def document_resume(document_id: str) -> None:
    """Store what an interrupted add_document left unstored, as the document's author."""
    resume(document_id=document_id)


def documents_resume() -> int:
    """Every 10 minutes (a django-q2 schedule): finish the adds an error stopped part-way."""
    return documents_resume_stalled()
