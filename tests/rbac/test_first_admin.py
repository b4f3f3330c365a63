"""The first admin's credentials are given once: printed on a terminal, otherwise written to a
file only this user can read, so a redirected log never holds them."""

from __future__ import annotations

import io
import re
import stat

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from rbac.models import Principal

pytestmark = pytest.mark.django_db


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def credentials_in(text: str) -> tuple[str, str, str]:
    return tuple(re.search(rf"{label}:\s+(\S+)", text).group(1) for label in ("username", "password", "API token"))


def test_off_a_terminal_the_credentials_go_to_a_private_file_and_not_to_the_output(settings, tmp_path):
    settings.HELIX_DATA_DIR = tmp_path / "data"
    out = io.StringIO()

    call_command("bootstrap_admin", stdout=out)

    file = tmp_path / "data" / "first-admin.txt"
    assert stat.S_IMODE(file.stat().st_mode) == 0o600
    username, password, token = credentials_in(file.read_text())
    printed = out.getvalue()
    assert password not in printed and token not in printed
    assert f"are in {file} (readable by this user only)" in printed
    assert Principal.objects.get(user__username=username).user.check_password(password)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    assert client.get("/api/v1/whoami").json()["actor_id"] == "admin"


def test_a_file_left_by_an_earlier_installation_is_replaced(settings, tmp_path):
    settings.HELIX_DATA_DIR = tmp_path
    (tmp_path / "first-admin.txt").write_text("password: of an admin this database does not have")

    call_command("bootstrap_admin", stdout=io.StringIO())

    username, password, _ = credentials_in((tmp_path / "first-admin.txt").read_text())
    assert Principal.objects.get(user__username=username).user.check_password(password)
    assert stat.S_IMODE((tmp_path / "first-admin.txt").stat().st_mode) == 0o600


def test_on_a_terminal_the_credentials_are_printed_and_no_file_is_written(settings, tmp_path):
    settings.HELIX_DATA_DIR = tmp_path
    out = Terminal()

    call_command("bootstrap_admin", stdout=out)

    username, password, token = credentials_in(out.getvalue())
    assert Principal.objects.get(user__username=username).user.check_password(password)
    assert token.startswith("hxt_")
    assert not (tmp_path / "first-admin.txt").exists()
