"""The vault on disk: ``<HELIX_BACKUP_DIR>/<id>.dump`` (a pg_dump custom-format archive) and
``<id>.json`` (its manifest), both 0600 in a directory only the server's user may enter.

A file is written under a ``.partial`` name and renamed when complete, so a crash never leaves
something that looks like a backup. Paths are built here from validated ids only."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import secrets
from datetime import datetime
from pathlib import Path
from typing import Any

from helixsite.data_dir import backup_dir
from helixsite.errors import NotFound

ID_PATTERN = re.compile(r"^\d{8}-\d{6}-[0-9a-f]{4}$")
_CHUNK = 1024 * 1024
_FILE_MODE = 0o600


def new_id(now: datetime) -> str:
    return f"{now:%Y%m%d-%H%M%S}-{secrets.token_hex(2)}"


def checked_id(backup_id: str) -> str:
    if not ID_PATTERN.fullmatch(backup_id or ""):
        raise NotFound("No such backup.", field="backup_id")
    return backup_id


def archive_path(backup_id: str) -> Path:
    return backup_dir() / f"{checked_id(backup_id)}.dump"


def manifest_path(backup_id: str) -> Path:
    return backup_dir() / f"{checked_id(backup_id)}.json"


def partial(path: Path) -> Path:
    return path.with_name(path.name + ".partial")


def private_file(path: Path) -> None:
    """Create (or empty) ``path`` readable by its owner only."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, _FILE_MODE)
    os.close(fd)


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def manifest_write(backup_id: str, manifest: dict[str, Any]) -> None:
    target = manifest_path(backup_id)
    temporary = partial(target)
    private_file(temporary)
    temporary.write_text(json.dumps(manifest, indent=2, sort_keys=True))
    temporary.replace(target)


def manifest_read(backup_id: str) -> dict[str, Any] | None:
    try:
        manifest = json.loads(manifest_path(backup_id).read_text())
    except (OSError, ValueError):
        return None
    return manifest if isinstance(manifest, dict) else None


def stored_ids() -> list[str]:
    """Ids of the complete backups on disk: an archive with its manifest."""
    found = []
    for entry in backup_dir().glob("*.json"):
        backup_id = entry.name.removesuffix(".json")
        if ID_PATTERN.fullmatch(backup_id) and (entry.parent / f"{backup_id}.dump").is_file():
            found.append(backup_id)
    return sorted(found)


def remove(backup_id: str) -> None:
    """The archive, its manifest and any partial leftovers; the manifest last, so a crash half-way
    leaves an archive without manifest (ignored), never a manifest naming a missing archive."""
    archive, manifest = archive_path(backup_id), manifest_path(backup_id)
    for path in (partial(archive), archive, partial(manifest), manifest):
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
