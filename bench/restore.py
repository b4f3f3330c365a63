"""A restore of an installation of BENCH_RESTORE_MEMORIES (default 100,000) memories, with
owners erased after the backup that the restore must erase again before it serves.

The memories are 200 owners' (500 each) in one workspace, loaded through import_jsonl's path
with texts drawn from a pool of 5,000 statements (the model runs once per distinct text). Then:
a backup, BENCH_RESTORE_ERASED (default 5) owners erased, and the restore, run in this process
as the worker would run it: safety backup, restore into a new database, the audit trail carried,
the erasures made again, the switch. Each step's time comes from the job's own steps.

It replaces the database it runs in, so it runs in one of its own:
``HELIX_DB_NAME=helixsite_restore python -m bench restore``. The vault is a temporary directory."""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import User
from tqdm import tqdm

from bench.corpus import statements
from bench.setup import prepared, remembering_embedder
from memory.ingest import bulk
from memory.ingest.bulk import ImportRow, import_rows
from memory.models import Memory
from stewardship import erasure
from stewardship.vault import jobs, restore
from stewardship.vault.models import VaultJob
from stewardship.vault.services import backup_now

OWNERS = 200
POOL = 5_000
WORKSPACE = "bench-restore"


def run() -> None:
    if settings.DATABASES["default"]["NAME"] in ("helixsite", "helixsite_bench"):
        print("skipped: a restore replaces its database; run it with HELIX_DB_NAME=helixsite_restore")
        return
    total = int(os.environ.get("BENCH_RESTORE_MEMORIES", "100000"))
    erased = int(os.environ.get("BENCH_RESTORE_ERASED", "5"))
    actor = prepared(workspace=WORKSPACE, principal="bench-restore")
    memories_top_up(actor, total)
    admin, _ = User.objects.get_or_create(username="bench-restore-admin", defaults={"is_superuser": True})
    with tempfile.TemporaryDirectory() as vault:
        settings.HELIX_BACKUP_DIR = Path(vault)
        started = time.perf_counter()
        backup = backup_now(actor=admin)
        print(f"backup of {Memory.objects.count():,} memories: {time.perf_counter() - started:.1f} s, "
              f"{backup.size_bytes / 1e6:.0f} MB")  # fmt: skip
        owners = [f"restore{n:03d}" for n in range(erased)]
        started = time.perf_counter()
        for owner in owners:
            erasure.owner_erase(actor=admin, user_id=owner, workspace=None, confirm=owner)
        print(f"{erased} owners erased after the backup in {time.perf_counter() - started:.1f} s")
        job = VaultJob.objects.create(kind=VaultJob.Kind.RESTORE, backup_id=backup.id, actor=admin, actor_name="bench")
        timed = _timed_steps()
        started = time.perf_counter()
        restore.restore_job(job=jobs.job_claim(job_id=job.pk) or job)
        elapsed = time.perf_counter() - started
        steps = timed()
    job = VaultJob.objects.get(pk=job.pk)
    again = job.result.get("erasures_reapplied", [])
    left = Memory.objects.filter(user_id__in=owners).count()
    print(f"restore: {job.status} in {elapsed:.1f} s; {len(again)} erasures made again "
          f"({sum(a['rows_erased_again'] for a in again):,} rows), {left} of their memories left; "
          f"{Memory.objects.count():,} memories after")  # fmt: skip
    for step, seconds in steps.items():
        print(f"  {step}: {seconds:.1f} s")


def _timed_steps():
    """Time between the job's step changes, measured as the restore writes them: a function that
    closes the last step and gives the times."""
    spent: dict[str, float] = {}
    state = {"step": "", "at": time.perf_counter()}
    original = jobs.job_step

    def step(job, what, *, progress_bytes=None):
        now = time.perf_counter()
        if what != state["step"]:
            if state["step"]:
                spent[state["step"]] = spent.get(state["step"], 0.0) + now - state["at"]
            state.update(step=what, at=now)
        if job is not None:
            original(job, what, progress_bytes=progress_bytes)

    restore.job_step = step  # type: ignore[attr-defined]

    def finish() -> dict[str, float]:
        step(None, "done")
        return spent

    return finish


def memories_top_up(actor, total: int) -> None:
    """Load memories of the 200 owners until they have ``total`` (also for ``bench compact``)."""
    have = Memory.objects.filter(user_id__startswith="restore").count()
    missing = total - have
    if missing <= 0:
        return
    pool = [text for _, text in statements(POOL, seed=31)]
    rows = [
        ImportRow(j, f"restore{j % OWNERS:03d}", pool[(j // OWNERS) % POOL], "fact", WORKSPACE, {}, None, "")
        for j in range(have, have + missing)
    ]  # fmt: skip
    with remembering_embedder(bulk), tqdm(total=len(rows), desc="memories", unit="memory", mininterval=5) as bar:
        import_rows(actor=actor, rows=rows, batch_size=2000, rebuild_index="auto", progress=bar.update)
