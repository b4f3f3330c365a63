"""HELIX_DATA_DIR holds the secret key, the first admin's credentials and the database: no one
but its owner may list or read it (as root, the embedded database's own user may pass through)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from helixsite import data_dir

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = "import django; django.setup(); from django.conf import settings; settings.SECRET_KEY"


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_data_dir_and_its_secret_key_are_private_to_their_owner(tmp_path):
    new = tmp_path / "parent" / "data"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "helixsite.settings.base", "HELIX_DATA_DIR": str(new)}
    env.pop("HELIX_SECRET_KEY", None)

    subprocess.run([sys.executable, "-c", SETTINGS], cwd=ROOT, env=env, check=True, timeout=60)

    assert mode(new) & 0o066 == 0, f"others may list or read the data dir: {mode(new):o}"
    assert mode(new) == (0o711 if os.geteuid() == 0 else 0o700)
    assert mode(new / "secret_key") == 0o600


def test_an_open_data_dir_and_its_secret_files_are_closed_and_reported(tmp_path):
    opened = tmp_path / "data"
    opened.mkdir()
    opened.chmod(0o775)
    for name in ("secret_key", "first-admin.txt"):
        (opened / name).write_text("secret")
        (opened / name).chmod(0o644)
    (opened / "notes.txt").write_text("not a secret")
    (opened / "notes.txt").chmod(0o644)

    was = data_dir.ensure_private(opened)

    assert was == 0o775
    assert mode(opened) == data_dir.private_mode()
    assert mode(opened / "secret_key") == 0o600
    assert mode(opened / "first-admin.txt") == 0o600
    assert mode(opened / "notes.txt") == 0o644, "only the files known to hold secrets are changed"
    assert data_dir.ensure_private(opened) is None, "a private data dir is reported once only"


def test_a_secret_file_is_written_0600_and_never_through_an_existing_file(tmp_path):
    path = tmp_path / "first-admin.txt"

    data_dir.write_secret(path, "password")

    assert mode(path) == 0o600 and path.read_text() == "password"
    with pytest.raises(FileExistsError):
        data_dir.write_secret(path, "other")
    assert path.read_text() == "password"
