"""Evidence recall on real conversations: the LoCoMo conversations of ``../shared/data/locomo-dev.json``
driven through the agent API of a running server (real HTTP: ``helixsite.web`` and a queue worker),
by the protocol of ``../shared/data/README.md``.

One owner per conversation, each ingestion mode in a workspace of its own with a reader of its own;
every turn goes through ``add_memory`` in order (``"<speaker>: <text>"``, plus ``" [shares <caption>]"``
for an image, the session's date as ``occurred_at``, the turn's ``dia_id`` in ``metadata``, no
``context``); once the worker has drained the queue, every question of categories 1–4 goes through
``search_memory`` as that owner, limit 10. recall@k is the share of a
question's evidence turns among the first k results; MRR is over the first evidence turn found.

Beside it, the hybrid's own parts over the same turns (``bench.baselines``): plain cosine with the
server's embedder and plain BM25, computed once (they do not depend on the ingestion mode); a line
per category says where the server's recall@10 falls below the better of them. And what reaches a
model (``bench.answer_reach``): the share of questions whose answer is in the text of the top ten
results, of ``build_context`` at 1,000 and 2,000 tokens, and of the cosine ranking's top ten turns.

A question may name its category (``"ability"``): the name is its category, whatever its number;
otherwise LoCoMo's categories 1-4 name it and category 5 (no answer in the conversation) is left out.

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
import signal
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

from bench.answer_reach import answer_shares, normalised
from bench.baselines import Bm25, cosine_ranking, embedded
from bench.http_search import _server
from bench.setup import prepared
from bench.timing import percentiles
from helixsite.client import Helixsite
from helixsite.task_broker import queue_broker
from memory.models import Memory
from memory.search.conductor import memory_build_context, memory_search
from rbac.services import token_issue

# Each ingestion mode in a workspace of its own, read by a principal of its own: BM25 counts words
# over what the reader sees, so one mode's memories must not weigh on the other's (nor one corpus's
# on another's: a file other than LoCoMo's gets workspaces of its own, ``spaces``).
SPACES = {False: "bench-locomo-v", True: "bench-locomo-x"}
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
CLIENTS = int(os.environ.get("BENCH_LOCOMO_CLIENTS", "2"))
# How turns go in: a session per add_conversation call ("sessions"), or a turn per add_memory ("turns").
INGEST = os.environ.get("BENCH_LOCOMO_INGEST", "sessions")
# The most a message may weigh in a JSON body: each character escaped (a backslash, "u" and four hex
# digits: six bytes), and room for the call's other fields.
ESCAPED_BYTES = 6
BODY_HEADROOM_BYTES = 16384
BUDGETS = (1000, 2000)  # build_context's token budgets whose packed text is read for the answer
TOP = 10


@dataclass
class Turn:
    dia_id: str
    message: str
    occurred_at: str


@dataclass
class Question:
    text: str
    category: str  # its name: the question's own "ability", or LoCoMo's name for its number
    evidence: set[str]
    answer: str = ""  # the gold answer as written (a number becomes its digits); "" when none
    superseded: set[str] = field(default_factory=set)  # turns whose value the evidence updates


@dataclass
class Answer:
    """What one ranking gave for a question: the turns of its first results, best first, and the text
    that reached the model, by where it was read ("search top-10", "context 1000", …)."""

    question: Question
    dia_ids: list[str | None]
    texts: dict[str, str] = field(default_factory=dict)
    # The turns each result is labelled the successor of (``supersedes``, ``restates``), by rank.
    succeeds: dict[int, set[str]] = field(default_factory=dict)


@dataclass
class Conversation:
    name: str
    turns: list[Turn] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)


def data_file() -> Path:
    default = Path(settings.BASE_DIR).parent / "shared" / "data" / "locomo-dev.json"
    return Path(os.environ.get("BENCH_LOCOMO_FILE", default))


def spaces(path: Path) -> dict[bool, str]:
    """The workspace of each ingestion mode for the corpus at ``path``: LoCoMo's own, or one named after
    another file, so that two corpora never share an owner's memories or BM25's word counts."""
    if path.name == "locomo-dev.json":
        return SPACES
    stem = re.sub(r"[^a-z0-9]+", "-", path.stem.lower()).strip("-")[:40]
    return {extract: f"bench-{stem}-{'x' if extract else 'v'}" for extract in SPACES}


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
    names = ", ".join(dict.fromkeys(q.category for c in conversations for q in c.questions))
    print(f"{path.name}: {len(conversations)} conversations, {turns} turns, {questions} questions ({names})")
    cosine, bm25 = baselines(conversations)
    print("\nbaselines over the same turns, whatever the mode: plain cosine (the server's embedder)")
    print(summary([(a.question, a.dia_ids) for a in cosine]))
    print("plain BM25 (k1 1.2, b 0.75)")
    print(summary([(a.question, a.dia_ids) for a in bm25]))
    wanted = os.environ.get("BENCH_LOCOMO_EXTRACT", "false,true").split(",")
    via = os.environ.get("BENCH_LOCOMO_VIA", "http")
    overrides = json.loads(os.environ.get("BENCH_LOCOMO_SETTINGS", "{}"))
    configs = overrides if isinstance(overrides, list) else [overrides]
    readers = {}
    workspaces = spaces(path)
    for extract, space in workspaces.items():
        actor = prepared(workspace=space, principal=space)
        readers[extract] = (actor, token_issue(user=actor, name="bench locomo").raw)
    connection.close()
    _accept_every_turn(conversations)
    with _server() as base_url, _worker():
        for mode in wanted:
            extract = mode.strip() == "true"
            prefix = f"{workspaces[extract].removeprefix('bench-')}-"
            space = workspaces[extract]
            actor, token = readers[extract]
            owned = Memory.objects.filter(user_id__startswith=prefix)
            if not (os.environ.get("BENCH_LOCOMO_REUSE") and owned.exists()):
                owned.delete()
                _vacuum()
                seconds = _ingest(base_url, token, actor.username, conversations, prefix, extract=extract, group=space)
                print(
                    f"\nextract={mode}: {turns} turns ingested over HTTP in {seconds:.1f} s, "
                    f"{turns / seconds:.1f} turns/s ({CLIENTS} clients), queue drained"
                )
            else:
                # What an earlier run left queued (its enrichment) is done before anything is timed.
                _drained()
            print(f"\nextract={mode}: {owned.count()} memories")
            if via == "process":
                for config in configs:
                    with override_settings(**config):
                        print(f"settings {json.dumps(config)}")
                        answers, timing = _evaluate_in_process(actor, conversations, prefix)
                        print(report(answers, cosine, bm25) + timing)
            else:
                answers, timing = _evaluate_over_http(base_url, token, actor.username, conversations, prefix)
                print(report(answers, cosine, bm25) + timing)


def _vacuum() -> None:
    """The rows an earlier run deleted, gone from the tables and their indexes: left, they are
    read again by every search that probes the workspace's index (15,000 dead entries behind
    2,800 live ones after a few runs), a state an installation that never deletes a whole
    conversation's memories at once does not reach."""
    with connection.cursor() as cursor:
        for table in ("memory_memory", "memory_edge", "memory_memoryhistory"):
            cursor.execute(f"VACUUM (ANALYZE) {table}")


def load(path: Path) -> list[Conversation]:
    conversations = []
    for item in json.loads(path.read_text()):
        talk = item["conversation"]
        conversation = Conversation(name=item.get("sample_id", f"conv-{len(conversations)}"))
        sessions = sorted(
            (int(key.split("_")[1]), key) for key in talk if re.fullmatch(r"session_\d+", key) and talk[key]
        )
        for _, key in sessions:
            when = _session_time(talk[f"{key}_date_time"])
            for turn in talk[key]:
                message = f"{turn['speaker']}: {turn['text']}"
                if turn.get("blip_caption"):
                    message += f" [shares {turn['blip_caption']}]"
                conversation.turns.append(Turn(turn["dia_id"], message, when))
        known = {t.dia_id for t in conversation.turns}
        for qa in item["qa"]:
            name = category_name(qa)
            if name is None:
                continue
            evidence = {e for e in _evidence_ids(qa.get("evidence", [])) if e in known}
            superseded = {e for e in _evidence_ids(qa.get("superseded_evidence", [])) if e in known}
            answer = qa.get("answer")
            if evidence:
                conversation.questions.append(
                    Question(qa["question"], name, evidence, _answer_text(answer), superseded - evidence)
                )
        conversations.append(conversation)
    return conversations


def category_name(qa: dict) -> str | None:
    """A question's own ``ability`` when it names one (it is kept whatever its number), else LoCoMo's
    name for its category; None for category 5, whose answer is not in the conversation."""
    ability = qa.get("ability")
    if isinstance(ability, str) and ability.strip():
        return ability.strip()
    return CATEGORIES.get(qa.get("category"))  # type: ignore[arg-type]


def _answer_text(answer: object) -> str:
    """A gold answer may be a number (``2022``) or missing."""
    return "" if answer is None or isinstance(answer, dict | list) else str(answer)


def _session_time(text: str) -> str:
    """LoCoMo's ``"1:56 pm on 8 May, 2023"``; an ISO 8601 time is taken as it is (UTC when it has no zone)."""
    try:
        return datetime.strptime(text, "%I:%M %p on %d %B, %Y").isoformat() + "Z"
    except ValueError:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
        return moment.isoformat() if moment.tzinfo else moment.isoformat() + "Z"


def _accept_every_turn(conversations: list[Conversation]) -> None:
    """The server and worker this benchmark starts take its longest turn in one ``add_memory`` (a working
    session's turn may carry a long file), and its heaviest session in one ``add_conversation``: the
    message and call limits are raised to them when they are over, and the body limit to what that
    session may weigh as escaped JSON."""
    longest = max((len(t.message.encode()) for c in conversations for t in c.turns), default=0)
    if longest > settings.HELIX_MAX_MESSAGE_BYTES:
        os.environ["HELIX_MAX_MESSAGE_BYTES"] = str(longest)
        print(f"the longest turn is {longest:,} bytes: the server started here accepts messages that long")
    calls = [session for c in conversations for session in sessions(c.turns)]
    most = max((len(session) for session in calls), default=0)
    if most > settings.HELIX_MAX_MESSAGES_PER_CALL:
        os.environ["HELIX_MAX_MESSAGES_PER_CALL"] = str(most)
    heaviest = max((sum(len(t.message.encode()) for t in session) for session in calls), default=0)
    if heaviest > settings.HELIX_MAX_CONVERSATION_BYTES:
        os.environ["HELIX_MAX_CONVERSATION_BYTES"] = str(heaviest)
        print(f"the heaviest session holds {heaviest:,} bytes: the server started here accepts calls that large")
    body = ESCAPED_BYTES * heaviest + BODY_HEADROOM_BYTES  # a session's call, every character escaped
    if body > settings.HELIX_MAX_BODY_BYTES:
        os.environ["HELIX_MAX_BODY_BYTES"] = str(body)


def baselines(conversations: list[Conversation]) -> tuple[list[Answer], list[Answer]]:
    """Each question ranked over its conversation's turns, as ingested, by plain cosine and by plain
    BM25: the top ten turns of each, in the order of the questions."""
    cosine, bm25 = [], []
    for conversation in conversations:
        texts = [t.message for t in conversation.turns]
        vectors = embedded(texts)
        queries = embedded([q.text for q in conversation.questions])
        index = Bm25(texts)
        for question, query in zip(conversation.questions, queries, strict=True):
            top = cosine_ranking(vectors, query, limit=TOP)
            read = " ".join(texts[i] for i in top)
            cosine.append(Answer(question, [conversation.turns[i].dia_id for i in top], {"cosine top-10": read}))
            top = index.ranking(question.text, limit=TOP)
            bm25.append(Answer(question, [conversation.turns[i].dia_id for i in top]))
    return cosine, bm25


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
                if INGEST == "turns":
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
                    continue
                for session in sessions(conversation.turns):
                    try:
                        helix.add_conversation(
                            user_id=prefix + conversation.name,
                            messages=[_message(turn) for turn in session],
                            group_id=group,
                            extract=extract,
                        )
                    except Exception as exc:  # a failed session is reported, and the run goes on
                        errors.append(f"{conversation.name} {session[0].dia_id}–{session[-1].dia_id}: {exc}")

    started = time.perf_counter()
    threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    drained = _drained()
    call = "add_memory" if INGEST == "turns" else "add_conversation"
    for error in errors[:10]:
        print(f"  {call} failed: {error}")
    if errors:
        print(
            f"  {len(errors)} {'turns' if INGEST == 'turns' else 'sessions'} failed: "
            "the figures below are of an incomplete ingestion"
        )
    return drained - started


def sessions(turns: list[Turn]) -> list[list[Turn]]:
    """The turns in calls of add_conversation: a session each (turns of one event time, in order)."""
    found: list[list[Turn]] = []
    for turn in turns:
        if found and found[-1][0].occurred_at == turn.occurred_at:
            found[-1].append(turn)
        else:
            found.append([turn])
    return found


def _message(turn: Turn) -> dict[str, object]:
    """A turn as add_conversation takes it, stored as the same text add_memory stores: a transcript's
    line keeps its speaker ("Caroline: …"), an assistant's turn its role, a user's own turn its words."""
    speaker, _, said = turn.message.partition(": ")
    message: dict[str, object] = {"occurred_at": turn.occurred_at, "metadata": {"dia_id": turn.dia_id}}
    if speaker == "assistant":
        return {**message, "role": "assistant", "content": said}
    if speaker == "user" or not said or len(speaker) > 100:
        return {**message, "content": turn.message}
    return {**message, "speaker": speaker, "content": said}


def _evaluate_over_http(
    base_url: str, token: str, actor_id: str, conversations, prefix: str
) -> tuple[list[Answer], str]:
    """Each question through ``search_memory`` (timed), then, when it has an answer to look for,
    through ``build_context`` at each budget."""
    answers, samples = [], []
    with Helixsite(base_url, token=token, actor_id=actor_id, timeout=120) as helix:
        helix.search_memory(user_id=prefix + conversations[0].name, query="warm up")
        for conversation in conversations:
            owner = prefix + conversation.name
            for question in conversation.questions:
                started = time.perf_counter()
                found = helix.search_memory(user_id=owner, query=question.text, limit=TOP)
                samples.append((time.perf_counter() - started) * 1000)
                contexts = {}
                if normalised(question.answer):
                    for budget in BUDGETS:
                        contexts[budget] = helix.build_context(user_id=owner, query=question.text, token_budget=budget)
                answers.append(_answer(question, found["results"], contexts))
    return answers, f"\n  search_memory over HTTP: {percentiles(samples)} ms ({len(samples)} questions)"


def _evaluate_in_process(actor, conversations, prefix: str) -> tuple[list[Answer], str]:
    answers, samples = [], []
    for conversation in conversations:
        owner = prefix + conversation.name
        for question in conversation.questions:
            started = time.perf_counter()
            found = memory_search(actor=actor, query=question.text, user_id=owner, limit=TOP, reinforce=False)
            samples.append((time.perf_counter() - started) * 1000)
            contexts = {}
            if normalised(question.answer):
                for budget in BUDGETS:
                    contexts[budget] = memory_build_context(
                        actor=actor, query=question.text, user_id=owner, token_budget=budget, reinforce=False
                    )
            answers.append(_answer(question, found["results"], contexts))
    return answers, f"\n  search in process: {percentiles(samples)} ms ({len(samples)} questions)"


def _answer(question: Question, results: list[dict], contexts: dict[int, dict]) -> Answer:
    """The text read for the answer is what the tools hand a model: the results' contents, and the
    memories ``build_context`` packed (their contents without the ids before them, whose hex digits
    would otherwise hold any short number)."""
    texts = {"search top-10": " ".join(r["content"] for r in results[:TOP])}
    for budget, context in contexts.items():
        texts[f"context {budget}"] = " ".join(m["content"] for m in context["memories"])
    turns = {r["id"]: r["metadata"].get("dia_id") for r in results}
    succeeds = {
        rank: {
            turns[i] for i in [*r.get("supersedes", []), *([r["restates"]] if r.get("restates") else [])] if i in turns
        }
        for rank, r in enumerate(results)
    }
    return Answer(question, [r["metadata"].get("dia_id") for r in results], texts, succeeds)


def report(answers: list[Answer], cosine: list[Answer], bm25: list[Answer]) -> str:
    """The server's recall, its recall@10 beside that of its parts, and what reached the model."""
    ranked = summary([(a.question, a.dia_ids) for a in answers])
    lines = [ranked, beside_parts(answers, cosine, bm25), reached(answers, cosine)]
    if any(a.question.superseded for a in answers):
        lines.append(updates_first({"Helixsite": answers, "cosine": cosine, "BM25": bm25}))
    return "\n".join(lines)


def updates_first(rankings: dict[str, list[Answer]]) -> str:
    """For the questions whose evidence updates a value stated in earlier turns: in how many of those
    whose top ten holds both an updated and an updating turn the update comes first, and (the server's)
    in how many it also says so: labelled the successor of an updated turn it ranks above."""
    lines = []
    for name, answers in rankings.items():
        both = first = marked = 0
        for answer in answers:
            if not answer.question.superseded:
                continue
            top = answer.dia_ids[:TOP]
            new = next((i for i, d in enumerate(top) if d in answer.question.evidence), None)
            old = next((i for i, d in enumerate(top) if d in answer.question.superseded), None)
            if new is not None and old is not None:
                both += 1
                first += new < old
                marked += new < old and bool(answer.succeeds.get(new, set()) & answer.question.superseded)
        line = f"  update ranked above what it updates, {name}: {first} of {both} questions with both in the top ten"
        if name == "Helixsite":
            line += f"; above it and labelled its successor (supersedes, restates) in {marked}"
        lines.append(line)
    return "\n".join(lines)


def beside_parts(answers: list[Answer], cosine: list[Answer], bm25: list[Answer]) -> str:
    """Per category, the server's recall@10 next to plain cosine's and plain BM25's, flagged where it is
    below the better of the two: the hybrid must never rank below its own parts."""
    server, *parts = (recall_table([(a.question, a.dia_ids) for a in given]) for given in (answers, cosine, bm25))
    width = max(12, *(len(name) for name in server))
    lines = [f"  {'recall@10':{width}} Helixsite  cosine  BM25"]
    for name, scores in server.items():
        ours, plain, lexical = scores[1], parts[0][name][1], parts[1][name][1]
        best = max(plain, lexical)
        flag = f"BELOW max(cosine, BM25) by {best - ours:.3f}" if ours < best else "not below its parts"
        lines.append(f"  {name:{width}} {ours:9.3f}  {plain:6.3f}  {lexical:4.3f}  {flag}")
    return "\n".join(lines)


def reached(answers: list[Answer], cosine: list[Answer]) -> str:
    """Per category, the share of questions whose answer is in the text each source hands the model."""
    rows = [
        (a.question.category, a.question.answer, {**a.texts, **c.texts})
        for a, c in zip(answers, cosine, strict=True)
        if normalised(a.question.answer)
    ]
    shares = answer_shares(rows)
    sources = ["search top-10", *(f"context {b}" for b in BUDGETS), "cosine top-10"]
    width = max(12, *(len(name) for name in shares)) if shares else 12
    lines = [f"  {'answer in':{width}} " + "  ".join(sources)]
    for name, (count, share) in shares.items():
        figures = "  ".join(f"{share.get(source, 0.0):>{len(source)}.3f}" for source in sources)
        lines.append(f"  {name:{width}} {figures}  ({count} questions with an answer)")
    return "\n".join(lines)


def summary(answers: list[tuple[Question, list[str | None]]]) -> str:
    """recall@5, recall@10 and MRR, overall and per category."""
    table = recall_table(answers)
    width = max(12, *(len(name) for name in table)) if table else 12
    return "\n".join(
        f"  {name:{width}} recall@5 {r5:.3f}  recall@10 {r10:.3f}  MRR {mrr:.3f}  ({count} questions)"
        for name, (r5, r10, mrr, count) in table.items()
    )


def recall_table(answers: list[tuple[Question, list[str | None]]]) -> dict[str, tuple[float, float, float, int]]:
    """recall@5, recall@10, MRR and the number of questions: for "all", then for each category in the
    order its first question comes."""
    groups: dict[str, list[tuple[float, float, float]]] = defaultdict(list)
    for question, dia_ids in answers:
        scores = _scores(question.evidence, dia_ids)
        groups["all"].append(scores)
        groups[question.category].append(scores)
    table = {}
    for name, rows in groups.items():
        r5, r10, mrr = (sum(column) / len(rows) for column in zip(*rows, strict=True))
        table[name] = (r5, r10, mrr, len(rows))
    return table


def _scores(evidence: set[str], dia_ids: list[str | None]) -> tuple[float, float, float]:
    def recall(k: int) -> float:
        return len(evidence & set(dia_ids[:k])) / len(evidence)

    rank = next((i for i, d in enumerate(dia_ids, start=1) if d in evidence), None)
    return recall(5), recall(10), 1 / rank if rank else 0.0


def _drained(timeout: float = 1800) -> float:
    """When enrichment had run for every memory written (``time.perf_counter``): the queue, in the
    database or on Redis (HELIX_QUEUE_URL), held no task waiting and none claimed by a worker from
    then on for a second (the two counts are read one after the other: a task finishing in between
    can queue the next). Read every 50 ms, so the time is the drain's, not the reading's."""
    broker, since = queue_broker(), None
    deadline = time.monotonic() + timeout
    while since is None or time.perf_counter() - since < 1:
        busy = broker.queue_size() or broker.lock_size()
        since = None if busy else (since or time.perf_counter())
        if time.monotonic() > deadline:
            raise RuntimeError("the worker did not drain the queue")
        time.sleep(0.05)
    connection.close()
    return since


@contextlib.contextmanager
def _worker():
    # Its warnings and errors (a task that failed and waits for its retry) are kept for reading after.
    log = Path(settings.HELIX_DATA_DIR) / "bench" / "locomo-worker.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    written = log.open("w")
    process = subprocess.Popen(
        [sys.executable, "manage.py", "qcluster"],
        cwd=Path(settings.BASE_DIR),
        env={**os.environ, "HELIX_LOG_LEVEL": "WARNING"},
        stdout=subprocess.DEVNULL,
        stderr=written,
        start_new_session=True,
    )
    try:
        yield
    finally:
        written.close()
        # The cluster's own processes too (a session of their own): one left behind takes tasks,
        # and CPU, from whatever runs next on the machine.
        os.killpg(process.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=30)
        with contextlib.suppress(ProcessLookupError):  # none left: the cluster stopped as asked
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
