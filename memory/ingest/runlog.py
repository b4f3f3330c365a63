"""The run log of one add_memory call. The run row is written when the call starts;
stages are kept in memory and written with the outcome in one go, so logging costs
three statements whatever the number of stages (and of the runs of a call, written together)."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import connection
from django.utils import timezone

from memory.models import Inference, IngestRun, IngestStage

# The outcomes of several runs in one statement. Not ``bulk_update``: its CASE per column and row
# took twice as long to build as a save per run (19 ms against 10 for a call of 22 messages).
_OUTCOMES = f"""
UPDATE {IngestRun._meta.db_table} AS r
SET status = o.status, error_code = o.error_code, error = o.error, llm_calls = o.llm_calls, result = o.result::jsonb,
    finished_at = o.finished_at, enrichment_due_at = o.enrichment_due_at
FROM unnest(%s::uuid[], %s::text[], %s::text[], %s::text[], %s::int[], %s::text[], %s::timestamptz[], %s::timestamptz[])
     AS o(id, status, error_code, error, llm_calls, result, finished_at, enrichment_due_at)
WHERE r.id = o.id
"""


# The stages of many runs in one statement (a conversation's hundred rows through the ORM cost more
# in Python than in the database).
_STAGES = f"""
INSERT INTO {IngestStage._meta.db_table} (run_id, position, name, status, duration_ms, error, inference_ids, output)
SELECT s.run_id, s.position, s.name, s.status, s.duration_ms, s.error,
       ARRAY(SELECT jsonb_array_elements_text(s.inference_ids::jsonb)::bigint), s.output::jsonb
FROM unnest(%s::uuid[], %s::int[], %s::text[], %s::text[], %s::float8[], %s::text[], %s::text[], %s::text[])
     AS s(run_id, position, name, status, duration_ms, error, inference_ids, output)
"""


class RunLog:
    def __init__(self, run: IngestRun) -> None:
        self.run = run
        self.stages: list[IngestStage] = []

    @classmethod
    def start(cls, **fields: Any) -> RunLog:
        return cls(IngestRun.objects.create(**fields))

    @classmethod
    def start_many(cls, rows: list[dict[str, Any]]) -> list[RunLog]:
        """The runs of a conversation's messages, written in one statement, started in their order."""
        return [cls(run) for run in IngestRun.objects.bulk_create([IngestRun(**fields) for fields in rows])]

    @property
    def id(self) -> uuid.UUID:
        return self.run.id

    @contextmanager
    def stage(self, name: str) -> Iterator[dict[str, Any]]:
        """Time a stage; the yielded dict becomes its debug output."""
        output: dict[str, Any] = {}
        started = time.perf_counter()
        error = ""
        try:
            yield output
        except Exception as exc:
            error = f"{exc.__class__.__name__}: {exc}"
            raise
        finally:
            self.record(name, seconds=time.perf_counter() - started, output=output, error=error)

    def record(self, name: str, *, seconds: float, output: dict[str, Any], error: str = "") -> None:
        """A stage timed elsewhere: one several runs shared (the embedding of a conversation's messages)."""
        self.stages.append(
            IngestStage(
                run=self.run,
                position=len(self.stages),
                name=name,
                status=IngestStage.Status.FAILED if error else IngestStage.Status.SUCCEEDED,
                duration_ms=round(seconds * 1000, 2),
                error=error,
                output=output,
            )
        )

    def end(
        self,
        *,
        result: dict[str, Any] | None = None,
        error_code: str = "",
        error: str = "",
        llm_calls: int = 0,
        enrichment_due: bool = False,
    ) -> None:
        """The outcome, written by ``save_many``. ``enrichment_due``: the run stored memories the
        worker is to enrich; the mark stays until it has, so work whose task never reached the
        queue is found again."""
        run = self.run
        run.status = IngestRun.Status.FAILED if error_code else IngestRun.Status.SUCCEEDED
        run.error_code, run.error, run.llm_calls = error_code, error[:4000], llm_calls
        run.result = result or {}
        run.finished_at = timezone.now()
        run.enrichment_due_at = run.finished_at if enrichment_due else None

    @classmethod
    def save_many(cls, logs: list[RunLog]) -> None:
        """Write the stages and outcomes of ``logs``, ended: two statements whatever their number."""
        # Only LLM calls carry the run id; without one there is nothing to look up.
        called = [log.id for log in logs if log.run.llm_calls]
        made = (
            list(Inference.objects.filter(run_id__in=called).values_list("run_id", "purpose", "id")) if called else []
        )
        for log in logs:
            for stage in log.stages:
                stage.inference_ids = [pk for run_id, purpose, pk in made if run_id == log.id and purpose == stage.name]
        stages = [stage for log in logs for stage in log.stages]
        runs = [log.run for log in logs]
        with connection.cursor() as cursor:
            cursor.execute(
                _STAGES,
                [
                    [stage.run_id for stage in stages],
                    [stage.position for stage in stages],
                    [stage.name for stage in stages],
                    [stage.status for stage in stages],
                    [stage.duration_ms for stage in stages],
                    [stage.error for stage in stages],
                    [json.dumps(stage.inference_ids) for stage in stages],
                    [json.dumps(stage.output) for stage in stages],
                ],
            )
            cursor.execute(
                _OUTCOMES,
                [
                    [run.id for run in runs],
                    [run.status for run in runs],
                    [run.error_code for run in runs],
                    [run.error for run in runs],
                    [run.llm_calls for run in runs],
                    [json.dumps(run.result) for run in runs],
                    [run.finished_at for run in runs],
                    [run.enrichment_due_at for run in runs],
                ],
            )
