"""PostgreSQL backend that brings up the embedded server on first connection.

The connection parameters differ from Django's own backend: the host is the embedded
server's socket directory, known once the server runs. Anything that never connects
(``embedded_db status``, ``check``) never starts the server.

With the pool, a database out of reach is answered at once rather than after the pool's
timeout on every request: once the pool has failed to give a connection and a direct one
fails too, requests fail fast, and a direct connection tried at growing intervals says when
the database is back. Then the pool, whose own retries have been spaced out meanwhile, is
replaced by a fresh one, so service resumes without a restart.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import psycopg
from django.db import DEFAULT_DB_ALIAS
from django.db.backends.postgresql import base
from psycopg_pool import PoolTimeout

from helixsite import embedded_db
from helixsite.db.outage import Outage, connect_directly

PROBE_TIMEOUT_SECONDS = 3
POOL_OUTAGE = Outage(what="web")  # the primary's; each read replica has one of its own
_REPLICA_OUTAGES: dict[str, Outage] = {}
_renewing = threading.Lock()


def outage_of(alias: str) -> Outage:
    """This process's view of whether the database behind ``alias`` is out of reach."""
    if alias == DEFAULT_DB_ALIAS:
        return POOL_OUTAGE
    with _renewing:
        return _REPLICA_OUTAGES.setdefault(alias, Outage(what="web", subject=f"the read replica {alias}"))


class DatabaseWrapper(base.DatabaseWrapper):
    def get_connection_params(self) -> dict[str, Any]:
        params = super().get_connection_params()
        data_dir = self.settings_dict.get("EMBEDDED_DATA_DIR")
        if data_dir:
            embedded = embedded_db.ensure_running(Path(data_dir), self.settings_dict["EMBEDDED_APP_DATABASE"])
            params.update(embedded)
        return params

    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        if self.pool is None:
            return super().get_new_connection(conn_params)
        if outage_of(self.alias).active:
            self._probe(conn_params)
        try:
            return super().get_new_connection(conn_params)
        except PoolTimeout:
            self._probe(conn_params)  # every connection busy, or none to be had: a direct one tells which
            raise

    def _probe(self, conn_params: dict[str, Any]) -> None:
        """Raise at once if the database is known to be out of reach or a direct connection
        fails; if one succeeds after an outage, start over with a fresh pool."""
        outage = outage_of(self.alias)
        if not outage.due():
            wait = outage.seconds_until_due()
            raise psycopg.OperationalError(
                f"{outage.subject} is unreachable ({outage.last_reason}); next try in {wait:.0f}s"
            )
        try:
            connect_directly(conn_params, timeout=PROBE_TIMEOUT_SECONDS).close()
        except psycopg.Error as exc:
            outage.failed(exc)
            raise
        with _renewing:
            if outage.active:
                self.close_pool()
                outage.recovered()
