"""PostgreSQL backend that brings up the embedded server on first connection.

Only the connection parameters differ from Django's own backend: the host is the
embedded server's socket directory, known once the server runs. Anything that never
connects (``embedded_db status``, ``check``) never starts the server.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.db.backends.postgresql import base

from helixsite import embedded_db


class DatabaseWrapper(base.DatabaseWrapper):
    def get_connection_params(self) -> dict[str, Any]:
        params = super().get_connection_params()
        data_dir = self.settings_dict.get("EMBEDDED_DATA_DIR")
        if data_dir:
            embedded = embedded_db.ensure_running(Path(data_dir), self.settings_dict["EMBEDDED_APP_DATABASE"])
            params.update(embedded)
        return params
