"""What every process on the host learns about a restore, through two files in the vault's
directory (HELIX_BACKUP_DIR, on the host of the embedded database every process shares). A
foundation: the agent tools of both transports, the room's guard and the vault read it.

``restore-in-progress`` exists while a restore runs: web workers refuse writes with 503 (a write
made then would be lost when the restored database takes the old one's place). It names the
process running the restore, so a marker left by a process that died stops counting.

``restored`` is touched when a restore has replaced the database: each process, before its next
request or task (checked at most every few seconds), drops what it cached of the database it had
(content-type ids, which permission checks look up)."""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
from pathlib import Path
from typing import Any

import psutil
from django.conf import settings
from django.contrib.contenttypes.models import ContentType

from helixsite.data_dir import backup_dir
from helixsite.errors import ApplicationError

MESSAGE = "A restore of the database is running; writes are refused until it ends. Try again shortly."
RUNNING_FILE = "restore-in-progress"
RESTORED_FILE = "restored"
CHECK_EVERY_SECONDS = 2.0


class RestoreInProgress(ApplicationError):
    status = 503
    code = "restore_in_progress"


_seen = {"mtime": None, "checked": 0.0}
_lock = threading.Lock()


def _path(name: str) -> Path:
    # Read on every write request: a path, never a directory made or its mode checked.
    return Path(settings.HELIX_BACKUP_DIR) / name


def restore_begin(*, job_id: str) -> None:
    backup_dir()
    _path(RUNNING_FILE).write_text(json.dumps({"job": job_id, "pid": os.getpid(), "since": time.time()}))


def restore_end(*, restored: bool) -> None:
    if restored:
        backup_dir()
        _path(RESTORED_FILE).write_text(str(time.time()))
        forget_if_restored(force=True)
    with contextlib.suppress(FileNotFoundError):
        _path(RUNNING_FILE).unlink()


def restore_running() -> dict[str, Any] | None:
    """The running restore (its job id), or None; a marker whose process is gone counts as none."""
    try:
        marker = json.loads(_path(RUNNING_FILE).read_text())
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        return {"job": None}  # being written: a restore is starting
    if not isinstance(marker, dict) or not _alive(marker.get("pid")):
        return None
    return marker


def _alive(pid: Any) -> bool:
    """Whether the process runs: a killed one whose parent has not reaped it yet is a zombie."""
    try:
        return psutil.Process(int(pid or 0)).status() != psutil.STATUS_ZOMBIE
    except (psutil.Error, ValueError, TypeError):
        return False


def restore_abandoned() -> dict[str, Any] | None:
    """The marker of a restore whose process is gone (killed mid-way), or None: the vault puts
    right what it left (``stewardship.vault.restore.restore_recover``) and removes it."""
    try:
        marker = json.loads(_path(RUNNING_FILE).read_text())
    except (OSError, ValueError):
        return None  # none, or one being written
    if not isinstance(marker, dict):
        return {}
    return None if _alive(marker.get("pid")) else marker


def forget_if_restored(*, force: bool = False, **signal_arguments: Any) -> None:
    now = time.monotonic()
    if not force and now - _seen["checked"] < CHECK_EVERY_SECONDS:  # type: ignore[operator]
        return
    with _lock:
        _seen["checked"] = now
        try:
            mtime: float | None = _path(RESTORED_FILE).stat().st_mtime_ns
        except FileNotFoundError:
            mtime = None
        changed = mtime != _seen["mtime"]
        _seen["mtime"] = mtime
    if changed or force:
        ContentType.objects.clear_cache()


def tool_refused_during_restore(*, reads: bool) -> None:
    """A tool that writes is refused (``restore_in_progress``, 503) while a restore runs; one that
    only reads goes on, answered by the database being replaced until the switch. Both
    transports ask this, from the same ``ToolApi.kind``."""
    if not reads and restore_running():
        raise RestoreInProgress(MESSAGE)
