"""Report on and control the embedded PostgreSQL server."""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from helixsite import embedded_db


class Command(BaseCommand):
    help = "Show the status of the embedded PostgreSQL server, or start or stop it."

    def add_arguments(self, parser) -> None:
        parser.add_argument("action", choices=["status", "start", "stop"], nargs="?", default="status")

    def handle(self, *args, action: str, **options) -> None:
        if settings.DATABASE_URL:
            raise CommandError(
                "DATABASE_URL is set: this installation uses an external PostgreSQL, not the embedded one."
            )
        data_dir = settings.HELIX_DATA_DIR
        if action == "start":
            try:
                embedded_db.ensure_running(data_dir, settings.HELIX_DB_NAME)
            except embedded_db.EmbeddedDatabaseError as exc:
                raise CommandError(str(exc)) from None
        elif action == "stop":
            try:
                stopped = embedded_db.stop(data_dir)
            except embedded_db.EmbeddedDatabaseError as exc:
                raise CommandError(str(exc)) from None
            self.stdout.write("stopped" if stopped else "not running")
            return
        self._print_status(embedded_db.status(data_dir))

    def _print_status(self, status: embedded_db.EmbeddedStatus) -> None:
        state = "running" if status.running else ("stopped" if status.initialized else "not initialized")
        if status.running and status.state and status.state != "ready":
            state = f"running ({status.state})"
        self.stdout.write(f"state:    {state}")
        self.stdout.write(f"pgdata:   {status.pgdata}")
        if status.postgres_version:
            self.stdout.write(f"version:  PostgreSQL {status.postgres_version}")
        if status.running:
            self.stdout.write(f"pid:      {status.pid}")
            self.stdout.write(f"socket:   {status.socket_dir}/.s.PGSQL.{status.port}")
            dsn = f"host={status.socket_dir} port={status.port} user=postgres dbname={settings.HELIX_DB_NAME}"
            self.stdout.write(f"psql:     psql '{dsn}'")
