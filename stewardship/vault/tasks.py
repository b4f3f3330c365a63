"""Background tasks of the vault (django-q2). They take ids and call a service."""

from __future__ import annotations

from stewardship.vault import services


def vault_job_run(job_id: str) -> None:
    services.vault_job_run(job_id=job_id)


def vault_backups_scheduled() -> str:
    """Hourly (migration 0002): a backup when one is due, and the retention."""
    backup = services.backups_scheduled_run()
    return f"backup {backup.id} {backup.status}" if backup else "no backup due"
