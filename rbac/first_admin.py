"""How the first admin's credentials reach the person who started the installation, once.

On a terminal they are printed. Anywhere else (output redirected to a log, a service
manager's journal, a CI log) printed credentials would outlive the moment and be read by
whoever reads the log, so they go to ``<HELIX_DATA_DIR>/first-admin.txt``, created 0600, and
only where that file is gets printed.
"""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import OutputWrapper
from django.utils import timezone

from helixsite.data_dir import FIRST_ADMIN_FILE, ensure_private, write_secret
from rbac.services import BootstrapCredentials


def credentials_hand_over(*, credentials: BootstrapCredentials, out: OutputWrapper) -> None:
    """Print the credentials when ``out`` is a terminal; else write them to a file only this user can read."""
    lines = [
        f"  username:  {credentials.username}",
        f"  password:  {credentials.password}",
        f"  API token: {credentials.token}",
    ]
    if out.isatty():
        out.write("Created the first global admin. Shown once; keep them:")
        out.write("\n".join(lines) + "\n")
        return
    path = settings.HELIX_DATA_DIR / FIRST_ADMIN_FILE
    ensure_private(settings.HELIX_DATA_DIR)
    path.unlink(missing_ok=True)  # left by an earlier installation whose admin this one does not have
    created = timezone.now().strftime("%Y-%m-%d %H:%M UTC")
    write_secret(path, f"The first global admin of this Helixsite, created {created}:\n" + "\n".join(lines) + "\n")
    out.write(
        f"Created the first global admin. Its username, password and API token are in {path} "
        "(readable by this user only): keep them somewhere safe, then delete the file."
    )
