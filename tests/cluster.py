"""An installation spread over processes, as docs/deployment.md describes one: a PostgreSQL primary
and a streaming replica made from the binaries that ship with the embedded server (``initdb``,
``pg_basebackup``, ``pg_ctl``), each listening on a loopback port, a Redis server, and web
servers and worker clusters started with ``DATABASE_URL``, ``DATABASE_REPLICA_URLS`` and
``HELIX_QUEUE_URL``, each in a process group of its own.

Used by the replica tests (tests/helixsite/test_replicas.py) and by ``python -m bench cluster``.
Every wait is bounded generously and polls; nothing here depends on how fast the machine is.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg

from helixsite.embedded_db import _pgserver
from tests import processes

ROOT = Path(__file__).resolve().parents[1]
DEADLINE = 300  # seconds, for every wait
DATABASE = "helixsite"
# PostgreSQL refuses to run as root; the embedded server runs as this system user then, and so do these.
SYSTEM_USER = "pgserver"


def wait_for(condition: Callable[[], Any], what: str, deadline: float = DEADLINE) -> Any:
    """Poll until ``condition`` holds (its value), failing after ``deadline`` seconds."""
    give_up = time.monotonic() + deadline
    while not (value := condition()):
        assert time.monotonic() < give_up, f"gave up waiting for {what}"
        time.sleep(0.25)
    return value


def _bin(command: str) -> str:
    utils = _pgserver().utils
    return str(utils.POSTGRES_VERSIONS[utils.TARGET_POSTGRES_VERSION] / command)


def _as_postgres_owner() -> dict[str, Any]:
    if os.geteuid() != 0:
        return {}
    _pgserver().utils.ensure_user_exists(SYSTEM_USER)
    return {"user": SYSTEM_USER, "group": SYSTEM_USER}


def _own(path: Path) -> None:
    if os.geteuid() == 0:
        entry = pwd.getpwnam(SYSTEM_USER)
        os.chown(path, entry.pw_uid, entry.pw_gid)


class PostgresNode:
    """One PostgreSQL server on ``127.0.0.1:port`` with its data in ``directory``."""

    def __init__(self, directory: Path, port: int) -> None:
        self.directory, self.port = directory, port
        self.data, self.log = directory / "data", directory / "server.log"

    def url(self, database: str = DATABASE) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def connect(self, database: str = DATABASE) -> psycopg.Connection:
        return psycopg.connect(self.url(database), autocommit=True, connect_timeout=10)

    def run(self, command: str, *args: str) -> None:
        subprocess.run(
            [_bin(command), *args], check=True, capture_output=True, cwd=self.directory, **_as_postgres_owner()
        )

    def initdb(self) -> None:
        self.run("initdb", "--auth=trust", "--encoding=utf8", "-U", "postgres", "-D", str(self.data))
        with (self.data / "postgresql.conf").open("a") as conf:
            conf.write("\nshared_buffers = 128MB\nmax_connections = 200\nwal_keep_size = 256MB\n")

    def start(self) -> None:
        options = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.directory}"
        self.run("pg_ctl", "-w", "-t", str(DEADLINE), "-D", str(self.data), "-l", str(self.log), "-o", options, "start")
        wait_for(self._answers, f"PostgreSQL on port {self.port}")

    def _answers(self) -> bool:
        try:
            self.connect("postgres").close()
        except psycopg.OperationalError:
            return False
        return True

    def crash(self) -> None:
        """Stop at once, as a machine that dies would (immediate: no checkpoint, clients cut off)."""
        self.run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def stop(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self.run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def scalar(self, sql: str, params: Any = None, database: str = DATABASE) -> Any:
        """The first column of the first row ``sql`` returns (None: no row, or no result)."""
        with self.connect(database) as connection:
            cursor = connection.execute(sql, params)
            row = cursor.fetchone() if cursor.description else None
        return None if row is None else row[0]


def new_node(directory: Path, port: int) -> PostgresNode:
    """A node whose (new) directory the server's user owns, to ``initdb`` next."""
    node = PostgresNode(directory, port)
    node.directory.mkdir(mode=0o700)
    _own(node.directory)
    return node


@contextlib.contextmanager
def primary_and_replica(port: Callable[[], int]) -> Iterator[tuple[PostgresNode, PostgresNode]]:
    """A migrated primary holding the database ``helixsite`` and a streaming replica of it."""
    directory = Path(tempfile.mkdtemp(prefix="helix-cluster-"))
    directory.chmod(0o755)
    primary, replica = new_node(directory / "primary", port()), new_node(directory / "replica", port())
    try:
        primary.initdb()
        primary.start()
        with primary.connect("postgres") as connection:
            connection.execute(f"CREATE DATABASE {DATABASE}")
        manage(["migrate", "--no-input", "-v", "0"], DATABASE_URL=primary.url())
        replica.run(
            "pg_basebackup", "-h", "127.0.0.1", "-p", str(primary.port), "-U", "postgres",
            "-D", str(replica.data), "-X", "stream", "-R", "-c", "fast",
        )  # fmt: skip
        replica.start()
        yield primary, replica
    finally:
        replica.stop()
        primary.stop()
        shutil.rmtree(directory, ignore_errors=True)


class Group:
    """A process leading a group of its own (a web server and its workers, a worker cluster),
    logging to a file that is printed when it stops."""

    def __init__(self, name: str, command: list[str], env: dict[str, str]) -> None:
        self.name, self.command = name, command
        self.url: str | None = None  # a web server's base URL
        self.log = tempfile.TemporaryFile("w+")  # noqa: SIM115 (open as long as the group runs; closed by stop)
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=process_env(**env), stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True
        )

    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL the whole group, as a host that dies would."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=DEADLINE)

    def stop(self, *, quiet: bool = False) -> None:
        processes.stop(self.process)
        self.log.seek(0)
        if not quiet:
            print(f"--- {self.name}\n{self.log.read()}")
        self.log.close()


def web(name: str, port: int, env: dict[str, str], workers: int = 1) -> Group:
    """A web server on ``127.0.0.1:port``, answering once ``/healthz`` answers."""
    command = [sys.executable, "-m", "helixsite.web", "--host", "127.0.0.1", "--port", str(port)]
    group = Group(name, [*command, "--workers", str(workers), "--log-level", "warning"], env)
    group.url = f"http://127.0.0.1:{port}"
    processes.wait_until_serving(group.url, group.process)
    return group


def worker(name: str, env: dict[str, str], processes: int = 1) -> Group:
    return Group(name, [sys.executable, "manage.py", "qcluster"], {"HELIX_WORKER_PROCESSES": str(processes), **env})


def manage(arguments: list[str], **env: str) -> str:
    """``manage.py`` with ``env`` (DATABASE_URL…): its output, failing with its log if it fails."""
    completed = subprocess.run(
        [sys.executable, "manage.py", *arguments],
        cwd=ROOT,
        env=process_env(**env),
        capture_output=True,
        text=True,
        timeout=DEADLINE,
    )
    assert completed.returncode == 0, f"manage.py {' '.join(arguments)} failed:\n{completed.stdout}\n{completed.stderr}"
    return completed.stdout


def process_env(**extra: str) -> dict[str, str]:
    """The environment of a process of this installation: the base settings, offline, ``extra``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HELIX_", "DATABASE_"))}
    env.update(
        DJANGO_SETTINGS_MODULE="helixsite.settings.base",
        HF_HUB_OFFLINE="1",
        TRANSFORMERS_OFFLINE="1",
        PYTHONUNBUFFERED="1",
        HELIX_LOG_LEVEL="WARNING",
    )
    env.update(extra)
    return env
