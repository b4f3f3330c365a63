"""Evidence recall on real conversations: the LoCoMo conversations of ``../shared/data/locomo-dev.json``
driven through the agent API of a running server (real HTTP: ``helixsite.web`` and a queue worker),
by the protocol of ``../shared/data/README.md``.

One owner per conversation, each ingestion mode in a workspace of its own with a reader of its own;
every turn goes through ``add_memory`` in order (``"<speaker>: <text>"``, plus ``" [shares <caption>]"``
for an image, the session's date as ``occurred_at``, the turn's ``dia_id`` in ``metadata``, no
``context``); once the worker has drained the queue, every question of categories 1–4 goes through
``search_memory`` as that owner, limit 10. recall@k is the share of a
question's evidence turns among the first k results; MRR is over the first evidence turn found.

The data is CC BY-NC 4.0 and stays outside the repository: ``BENCH_LOCOMO_FILE`` names another copy.
``BENCH_LOCOMO_EXTRACT=false`` (or ``true``) runs one ingestion mode; ``BENCH_LOCOMO_REUSE=1`` keeps
what an earlier run ingested; ``BENCH_LOCOMO_VIA=process`` asks the questions in this process
instead of over HTTP, once per set of settings given as JSON in ``BENCH_LOCOMO_SETTINGS`` (an object,
or a list of them), for quick comparisons.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from django.conf import settings
from django.db import connection
from django.test import override_settings

from bench.http_search import _server
from bench.setup import prepared
from bench.timing import percentiles
from helixsite.client import Helixsite
from helixsite.task_broker import queue_broker
from memory.models import Memory
from memory.search.conductor import memory_search
from rbac.services import token_issue

# Each ingestion mode in a workspace of its own, read by a principal of its own: BM25 counts words
# over what the reader sees, so one mode's memories must not weigh on the other's.
SPACES = {False: "bench-locomo-v", True: "bench-locomo-x"}
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
CLIENTS = int(os.environ.get("BENCH_LOCOMO_CLIENTS", "2"))


@dataclass
class Turn:
    dia_id: str
    message: str
    occurred_at: str


@dataclass
class Question:
    text: str
    category: int
    evidence: set[str]


@dataclass
class Conversation:
    name: str
    turns: list[Turn] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)


def data_file() -> Path:
    default = Path(settings.BASE_DIR).parent / "shared" / "data" / "locomo-dev.json"
    return Path(os.environ.get("BENCH_LOCOMO_FILE", default))


def run() -> None:
    path = data_file()
    if not path.exists():
        print(
            f"LoCoMo data not found at {path}: this benchmark reads locomo-dev.json from ../shared/data/ "
            "(CC BY-NC 4.0, never copied into the repository) or from BENCH_LOCOMO_FILE."
        )
        return
    conversations = load(path)
    turns = sum(len(c.turns) for c in conversations)
    questions = sum(len(c.questions) for c in conversations)
    print(f"{path.name}: {len(conversations)} conversations, {turns} turns, {questions} questions (categories 1-4)")
    wanted = os.environ.get("BENCH_LOCOMO_EXTRACT", "false,true").split(",")
    via = os.environ.get("BENCH_LOCOMO_VIA", "http")
    overrides = json.loads(os.environ.get("BENCH_LOCOMO_SETTINGS", "{}"))
    configs = overrides if isinstance(overrides, list) else [overrides]
    readers = {}
    for extract, space in SPACES.items():
        actor = prepared(workspace=space, principal=space)
        readers[extract] = (actor, token_issue(user=actor, name="bench locomo").raw)
    connection.close()
    with _server() as base_url, _worker():
        for mode in wanted:
            extract = mode.strip() == "true"
            prefix = "locomo-x-" if extract else "locomo-v-"
            space = SPACES[extract]
            actor, token = readers[extract]
            owned = Memory.objects.filter(user_id__startswith=prefix)
            if not (os.environ.get("BENCH_LOCOMO_REUSE") and owned.exists()):
                owned.delete()
                seconds = _ingest(base_url, token, actor.username, conversations, prefix, extract=extract, group=space)
                print(
                    f"\nextract={mode}: {turns} turns ingested over HTTP in {seconds:.1f} s, "
                    f"{turns / seconds:.1f} turns/s ({CLIENTS} clients), queue drained"
                )
            print(f"extract={mode}: {owned.count()} memories")
            if via == "process":
                for config in configs:
                    with override_settings(**config):
                        print(f"settings {json.dumps(config)}")
                        print(_evaluate_in_process(actor, conversations, prefix))
            else:
                print(_evaluate_over_http(base_url, token, actor.username, conversations, prefix))


def load(path: Path) -> list[Conversation]:
    conversations = []
    for item in json.loads(path.read_text()):
        talk = item["conversation"]
        conversation = Conversation(name=item.get("sample_id", f"conv-{len(conversations)}"))
        sessions = sorted(
            (int(key.split("_")[1]), key) for key in talk if re.fullmatch(r"session_\d+", key) and talk[key]
        )
        for _, key in sessions:
            when = datetime.strptime(talk[f"{key}_date_time"], "%I:%M %p on %d %B, %Y").isoformat() + "Z"
            for turn in talk[key]:
                message = f"{turn['speaker']}: {turn['text']}"
                if turn.get("blip_caption"):
                    message += f" [shares {turn['blip_caption']}]"
                conversation.turns.append(Turn(turn["dia_id"], message, when))
        known = {t.dia_id for t in conversation.turns}
        for qa in item["qa"]:
            if qa.get("category") not in CATEGORIES:
                continue
            evidence = {e for e in _evidence_ids(qa.get("evidence", [])) if e in known}
            if evidence:
                conversation.questions.append(Question(qa["question"], qa["category"], evidence))
        conversations.append(conversation)
    return conversations


def _evidence_ids(raw: list[str]) -> list[str]:
    """``"D8:6; D9:17"`` holds two ids, ``"D:11:26"`` means ``"D11:26"``."""
    found = []
    for entry in raw:
        for part in re.split(r"[;,\s]+", entry):
            match = re.fullmatch(r"D:?(\d+):(\d+)", part.strip())
            if match:
                found.append(f"D{match[1]}:{match[2]}")
    return found


def _ingest(
    base_url: str, token: str, actor_id: str, conversations, prefix: str, *, extract: bool, group: str
) -> float:
    """Each conversation in order on one client; ``CLIENTS`` conversations at a time."""
    pending = list(conversations)
    lock = threading.Lock()
    errors: list[str] = []

    def client() -> None:
        with Helixsite(base_url, token=token, actor_id=actor_id, timeout=120) as helix:
            while True:
                with lock:
                    if not pending:
                        return
                    conversation = pending.pop(0)
                for turn in conversation.turns:
                    try:
                        helix.add_memory(
                            user_id=prefix + conversation.name,
                            message=turn.message,
                            group_id=group,
                            metadata={"dia_id": turn.dia_id},
                            occurred_at=turn.occurred_at,
                            extract=extract,
                        )
                    except Exception as exc:  # a failed turn is reported, and the run goes on
                        errors.append(f"{conversation.name} {turn.dia_id}: {exc}")

    started = time.perf_counter()
    threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    _drained()
    for error in errors[:10]:
        print(f"  add_memory failed: {error}")
    if errors:
        print(f"  {len(errors)} turns failed")
    return time.perf_counter() - started


def _evaluate_over_http(base_url: str, token: str, actor_id: str, conversations, prefix: str) -> str:
    answers, samples = [], []
    with Helixsite(base_url, token=token, actor_id=actor_id, timeout=120) as helix:
        helix.search_memory(user_id=prefix + conversations[0].name, query="warm up")
        for conversation in conversations:
            for question in conversation.questions:
                started = time.perf_counter()
                found = helix.search_memory(user_id=prefix + conversation.name, query=question.text, limit=10)
                samples.append((time.perf_counter() - started) * 1000)
                answers.append((question, [r["metadata"].get("dia_id") for r in found["results"]]))
    return summary(answers) + f"\n  search_memory over HTTP: {percentiles(samples)} ms ({len(samples)} questions)"


def _evaluate_in_process(actor, conversations, prefix: str) -> str:
    answers, samples = [], []
    for conversation in conversations:
        for question in conversation.questions:
            started = time.perf_counter()
            found = memory_search(
                actor=actor, query=question.text, user_id=prefix + conversation.name, limit=10, reinforce=False
            )
            samples.append((time.perf_counter() - started) * 1000)
            answers.append((question, [r["metadata"].get("dia_id") for r in found["results"]]))
    return summary(answers) + f"\n  search in process: {percentiles(samples)} ms ({len(samples)} questions)"


def summary(answers: list[tuple[Question, list[str | None]]]) -> str:
    """recall@5, recall@10 and MRR, overall and per category."""
    groups: dict[str, list[tuple[float, float, float]]] = defaultdict(list)
    for question, dia_ids in answers:
        scores = _scores(question.evidence, dia_ids)
        groups["all"].append(scores)
        groups[CATEGORIES[question.category]].append(scores)
    lines = []
    for name in ("all", *CATEGORIES.values()):
        rows = groups.get(name)
        if not rows:
            continue
        r5, r10, mrr = (sum(column) / len(rows) for column in zip(*rows, strict=True))
        lines.append(f"  {name:12} recall@5 {r5:.3f}  recall@10 {r10:.3f}  MRR {mrr:.3f}  ({len(rows)} questions)")
    return "\n".join(lines)


def _scores(evidence: set[str], dia_ids: list[str | None]) -> tuple[float, float, float]:
    def recall(k: int) -> float:
        return len(evidence & set(dia_ids[:k])) / len(evidence)

    rank = next((i for i, d in enumerate(dia_ids, start=1) if d in evidence), None)
    return recall(5), recall(10), 1 / rank if rank else 0.0


def _drained(timeout: float = 1800) -> None:
    """Enrichment has run for every memory written: the queue, in the database or on Redis
    (HELIX_QUEUE_URL), holds no task waiting and none claimed by a worker, twice in a row (the two
    counts are read one after the other: a task finishing in between can queue the next)."""
    broker, empty = queue_broker(), 0
    deadline = time.monotonic() + timeout
    while empty < 2:
        empty = 0 if broker.queue_size() or broker.lock_size() else empty + 1
        if time.monotonic() > deadline:
            raise RuntimeError("the worker did not drain the queue")
        time.sleep(1)
    connection.close()


@contextlib.contextmanager
def _worker():
    process = subprocess.Popen(
        [sys.executable, "manage.py", "qcluster"],
        cwd=Path(settings.BASE_DIR),
        env={**os.environ, "HELIX_LOG_LEVEL": "WARNING"},
        stdout=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        yield
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
