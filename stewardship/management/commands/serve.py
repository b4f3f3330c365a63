"""Run the whole installation from one command (``make run``).

Database (embedded unless DATABASE_URL is set) → migrations → static files → the
embedding space check → the first global admin → the django-q2 worker cluster and the
uvicorn web server as child processes. Ctrl-C (or SIGTERM) stops every process this
command started, the embedded database included.
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import psycopg
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from helixsite import data_dir, embedded_db
from helixsite.queue_url import QueueUnreachable, redis_location
from helixsite.task_broker import RedisBroker
from memory.embedding_space import embedding_space_ensure
from rbac.first_admin import credentials_hand_over
from rbac.services import admin_bootstrap
from stewardship.vault.restore import restore_recover

READY_TIMEOUT_SECONDS = 120
STOP_TIMEOUT_SECONDS = 15


class Command(BaseCommand):
    help = "Start the database, worker and web server; Ctrl-C stops everything it started."

    def handle(self, *args, **options) -> None:
        self._stop_requested = False
        self._children: list[tuple[str, subprocess.Popen]] = []
        signal.signal(signal.SIGINT, self._request_stop)
        signal.signal(signal.SIGTERM, self._request_stop)
        self._check_port_free()
        self._check_queue()
        self._make_data_dir_private()
        started_database = self._start_database()
        try:
            self._prepare()
            self._start_children()
            self._wait_until_ready()
            self._supervise()
        finally:
            self._stop_children()
            with contextlib.suppress(Exception):  # a connection to a database gone has nothing to close
                connection.close()
            if started_database:
                self._stop_database()

    def _stop_database(self) -> None:
        try:
            stopped = embedded_db.stop(settings.HELIX_DATA_DIR)
        except embedded_db.EmbeddedDatabaseError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write("Stopped the embedded database." if stopped else "The embedded database had already stopped.")

    def _request_stop(self, signum: int, frame: object) -> None:
        self._stop_requested = True

    def _make_data_dir_private(self) -> None:
        was = data_dir.ensure_private(settings.HELIX_DATA_DIR)
        if was is not None:
            self.stdout.write(
                f"HELIX_DATA_DIR {settings.HELIX_DATA_DIR} was open to other users (mode {was:o}); "
                f"it is now {data_dir.private_mode():o}."
            )

    def _start_database(self) -> bool:
        """Bring up the database; True when this command started the embedded server."""
        was_running = not settings.DATABASE_URL and embedded_db.status(settings.HELIX_DATA_DIR).running
        if not settings.DATABASE_URL:
            for done in restore_recover():  # a restore killed mid-way: put right before anything connects
                self.stdout.write(f"Interrupted restore: {done}.")
        try:
            # A direct connection first: through the pool, "refused" would surface only
            # as a pool timeout after several seconds.
            psycopg.connect(**connection.get_connection_params()).close()
            connection.ensure_connection()
        except embedded_db.EmbeddedDatabaseError as exc:
            raise CommandError(str(exc)) from None
        except Exception as exc:
            first_line = (str(exc).strip().splitlines() or [exc.__class__.__name__])[0]
            raise CommandError(
                f"cannot reach the database given by DATABASE_URL ({first_line}); "
                "check that the server runs and the URL's host, port, user and password."
            ) from None
        if settings.DATABASE_URL:
            self.stdout.write("Database: external PostgreSQL (DATABASE_URL).")
            return False
        state = embedded_db.status(settings.HELIX_DATA_DIR)
        verb = "attached to the running" if was_running else "started the"
        self.stdout.write(f"Database: {verb} embedded PostgreSQL {state.postgres_version} in {state.pgdata}.")
        return not was_running

    def _check_queue(self) -> None:
        """With HELIX_QUEUE_URL, Redis must answer now: the worker would wait for it, and the
        server never become healthy, without saying why."""
        if not settings.HELIX_QUEUE_URL:
            return
        try:
            RedisBroker().check()
        except QueueUnreachable as exc:
            raise CommandError(
                f"cannot reach {exc}; check that the Redis server runs and HELIX_QUEUE_URL's host, port and password."
            ) from None

    def _check_port_free(self) -> None:
        with socket.socket(socket.AF_INET6 if ":" in settings.HELIX_HOST else socket.AF_INET) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind((settings.HELIX_HOST, settings.HELIX_PORT))
            except OSError as exc:
                if exc.errno == errno.EADDRINUSE:
                    raise CommandError(
                        f"port {settings.HELIX_PORT} on {settings.HELIX_HOST} is already in use; "
                        "stop whatever uses it or choose another with HELIX_PORT."
                    ) from None
                raise CommandError(
                    f"cannot listen on {settings.HELIX_HOST}:{settings.HELIX_PORT}: {exc.strerror}"
                ) from None

    def _prepare(self) -> None:
        call_command("migrate", interactive=False, verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        try:
            embedding_space_ensure()
        except ImproperlyConfigured as exc:
            raise CommandError(str(exc)) from None
        credentials = admin_bootstrap()
        if credentials is not None:
            self.stdout.write("")
            credentials_hand_over(credentials=credentials, out=self.stdout)

    def _start_children(self) -> None:
        manage = str(settings.BASE_DIR / "manage.py")
        web = [
            sys.executable,
            "-m",
            "helixsite.web",
            "--host",
            settings.HELIX_HOST,
            "--port",
            str(settings.HELIX_PORT),
            "--workers",
            str(settings.HELIX_WEB_WORKERS),
            "--log-level",
            "warning",
            "--forwarded-allow-ips",
            ",".join(settings.HELIX_FORWARDED_ALLOW_IPS),
        ]
        for name, argv in (("worker", [sys.executable, manage, "qcluster"]), ("web", web)):
            # Own session: a Ctrl-C reaches only this command, which then stops children in order.
            process = subprocess.Popen(argv, cwd=settings.BASE_DIR, env=os.environ.copy(), start_new_session=True)
            self._children.append((name, process))

    def _wait_until_ready(self) -> None:
        deadline = time.monotonic() + READY_TIMEOUT_SECONDS
        url = f"{self._base_url()}/healthz"
        while not self._stop_requested:
            self._check_children_alive()
            try:
                with urllib.request.urlopen(url, timeout=2) as response:
                    if response.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if time.monotonic() > deadline:
                raise CommandError(f"the server did not become healthy within {READY_TIMEOUT_SECONDS}s; see {url}")
            time.sleep(0.5)
        else:
            return
        self._print_banner()

    def _supervise(self) -> None:
        while not self._stop_requested:
            self._check_children_alive()
            time.sleep(0.5)
        self.stdout.write("\nStopping…")

    def _check_children_alive(self) -> None:
        for name, process in self._children:
            if process.poll() is not None:
                raise CommandError(f"the {name} process exited unexpectedly (exit code {process.returncode}).")

    def _stop_children(self) -> None:
        # The leader alone gets SIGTERM: django-q2 and uvicorn stop their own workers in
        # order, and a signal to every worker at once would cut that short.
        for _name, process in reversed(self._children):
            if process.poll() is None:
                os.kill(process.pid, signal.SIGTERM)
        deadline = time.monotonic() + STOP_TIMEOUT_SECONDS
        for name, process in reversed(self._children):
            try:
                process.wait(timeout=max(deadline - time.monotonic(), 0.1))
            except subprocess.TimeoutExpired:
                self.stderr.write(f"The {name} process did not stop in {STOP_TIMEOUT_SECONDS}s; killing it.")
            # Grandchildren (uvicorn and django-q2 workers) share the child's process group.
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)

    def _base_url(self) -> str:
        host = settings.HELIX_HOST if settings.HELIX_HOST not in ("0.0.0.0", "::") else "127.0.0.1"
        return f"http://{host}:{settings.HELIX_PORT}"

    def _print_banner(self) -> None:
        base = self._base_url()
        self.stdout.write(self.style.SUCCESS("\nHelixsite is running."))
        self.stdout.write(
            f"  room:     {base}/steward/   (log in with the admin username and password given on first start)"
        )
        self.stdout.write(f"  admin:    {base}/admin/   (Django admin, for inspecting raw rows)")
        self.stdout.write(f"  health:   {base}/healthz")
        self.stdout.write(f"  API:      {base}/api/v1/<tool>   (OpenAPI {base}/api/schema/, browse {base}/api/docs/)")
        self.stdout.write(
            f"  MCP:      {base}/mcp   (or stdio: HELIX_MCP_TOKEN=<token> {sys.executable} manage.py mcp)"
        )
        self.stdout.write(f"  worker:   django-q2 cluster, {settings.Q_CLUSTER['workers']} processes")
        if settings.HELIX_QUEUE_URL:
            self.stdout.write(f"  queue:    Redis at {redis_location(settings.HELIX_QUEUE_URL)} (HELIX_QUEUE_URL)")
        else:
            self.stdout.write("  queue:    in the database (set HELIX_QUEUE_URL for Redis)")
        self.stdout.write(f"  web:      uvicorn, {settings.HELIX_WEB_WORKERS} workers")
        self.stdout.write("Press Ctrl-C to stop everything.\n")
