"""`manage.py serve` (what `make run` runs), driven as a new user would."""

from __future__ import annotations

import http.cookiejar
import os
import re
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

import psutil
import psycopg
import pytest

from helixsite import embedded_db

ROOT = Path(__file__).resolve().parents[2]
# serve makes a database (initdb, every migration) and loads the embedding model before it says it
# runs: about 15 s on an idle machine, several times that on a busy one. A bound, never a measure.
SERVE_STARTUP_SECONDS = 300


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def serve_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update({"DJANGO_SETTINGS_MODULE": "helixsite.settings.base", "PYTHONUNBUFFERED": "1"}, **extra)
    return env


class Output:
    """Collects a process's stdout on a thread so reading never blocks the test."""

    def __init__(self, process: subprocess.Popen) -> None:
        self.lines: list[str] = []
        self._thread = threading.Thread(target=self._read, args=(process,), daemon=True)
        self._thread.start()

    def _read(self, process: subprocess.Popen) -> None:
        for line in process.stdout:
            self.lines.append(line.rstrip("\n"))

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def wait_for(self, needle: str, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if needle in self.text:
                return True
            time.sleep(0.2)
        return False


def admin_login(base: str, username: str, password: str) -> str:
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    form = opener.open(f"{base}/admin/login/").read().decode()
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
    data = urllib.parse.urlencode(
        {"username": username, "password": password, "csrfmiddlewaretoken": csrf, "next": "/admin/"}
    ).encode()
    request = urllib.request.Request(f"{base}/admin/login/", data=data, headers={"Referer": f"{base}/admin/login/"})
    return opener.open(request).read().decode()


@pytest.mark.slow
def test_serve_starts_everything_hands_over_credentials_and_ctrl_c_stops_it_all(tmp_path):
    port = free_port()
    data_dir = tmp_path / "d"
    data_dir.mkdir(mode=0o755)  # as an older release left it
    (data_dir / "secret_key").write_text("a key an older release wrote")
    process = subprocess.Popen(
        [sys.executable, "manage.py", "serve"],
        cwd=ROOT,
        env=serve_env(
            HELIX_DATA_DIR=str(data_dir), HELIX_PORT=str(port), HELIX_WEB_WORKERS="1", HELIX_WORKER_PROCESSES="1"
        ),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    output = Output(process)
    base = f"http://127.0.0.1:{port}"
    try:
        assert output.wait_for("Helixsite is running.", timeout=SERVE_STARTUP_SECONDS), output.text
        # Its output is a pipe, not a terminal: the credentials are in a file only this user can read.
        handed_over = data_dir / "first-admin.txt"
        assert f"API token are in {handed_over} (readable by this user only)" in output.text
        assert stat.S_IMODE(handed_over.stat().st_mode) == 0o600
        username = re.search(r"username:\s+(\S+)", handed_over.read_text()).group(1)
        password = re.search(r"password:\s+(\S+)", handed_over.read_text()).group(1)
        token = re.search(r"API token:\s+(\S+)", handed_over.read_text()).group(1)
        assert password not in output.text and token not in output.text

        with urllib.request.urlopen(f"{base}/healthz", timeout=120) as health:
            assert health.status == 200
        assert "Site administration" in admin_login(base, username, password)
        whoami = urllib.request.Request(f"{base}/api/v1/whoami", headers={"Authorization": f"Bearer {token}"})
        with urllib.request.urlopen(whoami, timeout=120) as response:
            assert b'"actor_id":"admin"' in response.read()
        db = embedded_db.status(data_dir)
        with psycopg.connect(host=str(db.socket_dir), port=db.port, user="postgres", dbname="helixsite") as conn:
            (stored,) = conn.execute("SELECT password FROM auth_user WHERE username = %s", [username]).fetchone()
        assert stored.startswith("pbkdf2_sha256$") and password not in stored

        # As root the database runs as another user, which opens the data dir each time a process attaches.
        assert f"HELIX_DATA_DIR {data_dir} was open to other users (mode 755)" in output.text
        assert stat.S_IMODE(data_dir.stat().st_mode) & 0o066 == 0, "others may list or read the data dir"
        assert stat.S_IMODE((data_dir / "secret_key").stat().st_mode) == 0o600

        ours = psutil.Process(process.pid).children(recursive=True)
        postgres = [p for p in psutil.process_iter(["cmdline"]) if str(data_dir) in " ".join(p.info["cmdline"] or [])]
        assert postgres, "the embedded database runs from the data dir"
    finally:
        process.send_signal(signal.SIGINT)
        returncode = process.wait(timeout=90)
    assert returncode == 0, output.text
    assert "Stopped the embedded database." in output.text
    # serve has returned; its children and the database's processes end on their own time, which
    # a busy machine stretches: waited for (generously), not given half a second.
    deadline = time.monotonic() + 30
    while (leftovers := _still_running(ours + postgres)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert leftovers == [], f"still running 30 s after serve returned from Ctrl-C: {leftovers}"


def _still_running(processes: list[psutil.Process]) -> list[psutil.Process]:
    def running(process: psutil.Process) -> bool:
        try:
            return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
        except psutil.NoSuchProcess:
            return False

    return [p for p in processes if running(p)]


def test_a_port_in_use_stops_serve_with_one_clear_line(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "manage.py", "serve"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
            env=serve_env(HELIX_PORT=str(port), HELIX_DATA_DIR=str(tmp_path / "d")),
        )
    assert result.returncode == 1
    assert result.stderr.strip() == (
        f"CommandError: port {port} on 127.0.0.1 is already in use; "
        "stop whatever uses it or choose another with HELIX_PORT."
    )


def test_an_unreachable_database_url_stops_serve_with_one_clear_line():
    result = subprocess.run(
        [sys.executable, "manage.py", "serve"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**serve_env(HELIX_PORT=str(free_port())), "DATABASE_URL": "postgres://helix:pw@127.0.0.1:9/helix"},
    )
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr
    assert lines[0].startswith("CommandError: cannot reach the database given by DATABASE_URL")
    assert "pw" not in lines[0].replace("password", "")
