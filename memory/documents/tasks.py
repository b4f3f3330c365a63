"""Background tasks of the documents: they take ids, call a service, and are idempotent."""

from __future__ import annotations

import logging

from helixsite.errors import ApplicationError
from memory.documents.services import document_resume as resume
from memory.documents.services import documents_resume_stalled

logger = logging.getLogger(__name__)


def document_resume(document_id: str) -> str | None:
    """Store what add_document accepted, or what an interrupted run left unstored, as the
    document's author: its status after the run, None when it is gone. A run stopped by an error
    (the embedding provider down) leaves it recorded on the document, for get_document and the
    worker's sweep, which resumes it."""
    try:
        document = resume(document_id=document_id)
    except ApplicationError as exc:
        logger.warning("document %s stopped: %s: %s", document_id, exc.code, exc.message)
        return f"stopped: {exc.code}"
    return None if document is None else str(document.status)


def documents_resume() -> int:
    """Every 10 minutes (a django-q2 schedule): finish the adds left unfinished, stopped by an
    error, never run, or killed with their worker."""
    return documents_resume_stalled()
