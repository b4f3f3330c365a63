"""A second benchmark corpus, written for the product: long user–assistant working sessions (standing
instructions and preferences, values that change, answers spread over turns, code in the answers), so
ranking is not tuned to short chats between two people.

Each ``chat_*.py`` module here holds one ``CHAT`` (``bench.working_sessions.shape``). ``python -m bench
working_sessions`` checks every chat, writes them in the LoCoMo shape to
``var/bench/working-sessions.json`` (each question's ``ability`` is its category, its superseded
turns in ``superseded_evidence``) and runs ``bench.locomo`` on that file: the same protocol, the
same comparison with plain cosine and BM25.

``BENCH_WORKING_CHATS`` (names or their beginnings, separated by spaces or commas: ``ws-10 ws-11``)
measures those chats alone, in a file and workspaces of their own: chats written after a ranking
rule, read on their own, say whether it holds on what it was not written beside.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import pkgutil
import re
from pathlib import Path

from django.conf import settings

from bench.answer_reach import holds_answer
from bench.working_sessions.shape import ABILITIES, Chat

SPEAKERS = ("user", "assistant")


def chats(selected: tuple[str, ...] = ()) -> list[Chat]:
    """Every chat of this package, by module name; with ``selected``, those whose name begins with one of them."""
    found = []
    for module in sorted(m.name for m in pkgutil.iter_modules(__path__) if m.name.startswith("chat_")):
        chat = importlib.import_module(f"{__name__}.{module}").CHAT
        if not selected or chat.name.startswith(selected):
            found.append(chat)
    return found


# bench.locomo names a corpus's workspaces after the first 40 characters of its file's stem.
_STEM_CHARS = 40


def selection(text: str) -> tuple[str, ...]:
    """The chat names (or their beginnings) a ``BENCH_WORKING_CHATS`` value lists."""
    return tuple(name for name in re.split(r"[\s,]+", text) if name)


def file_for(selected: tuple[str, ...]) -> Path:
    """Where the corpus (or the ``selected`` chats alone) is written: a file per selection, so its
    ingestions never mix with the whole corpus's."""
    folder = Path(settings.HELIX_DATA_DIR) / "bench"
    stem = "working-sessions" + "".join(f"-{name}" for name in selected)
    if len(stem) > _STEM_CHARS:  # the workspaces are named after the stem's first characters
        stem = "working-sessions-" + hashlib.sha256(stem.encode()).hexdigest()[:12]
    return folder / f"{stem}.json"


def problems(chat: Chat) -> list[str]:
    """What makes ``chat`` unfit to measure with: a key named twice, evidence naming no turn, an answer
    no evidence turn holds, a question of no known ability, a session out of order."""
    found: list[str] = []
    texts: dict[str, str] = {}
    for session in chat.sessions:
        for turn in session.turns:
            if turn.speaker not in SPEAKERS:
                found.append(f"{chat.name}: speaker {turn.speaker!r} is neither user nor assistant")
            if turn.key is None:
                continue
            if turn.key in texts:
                found.append(f"{chat.name}: key {turn.key!r} names two turns")
            texts[turn.key] = turn.text
    times = [session.when for session in chat.sessions]
    if times != sorted(times):
        found.append(f"{chat.name}: sessions are not in time order")
    for question in chat.questions:
        where = f"{chat.name}: {question.question!r}"
        if question.ability not in ABILITIES:
            found.append(f"{where}: ability {question.ability!r} is not one of {', '.join(ABILITIES)}")
        unknown = [key for key in question.evidence + question.superseded if key not in texts]
        if unknown or not question.evidence:
            found.append(f"{where}: evidence {unknown or 'missing'} names no turn")
            continue
        if question.ability == "knowledge-update" and not question.superseded:
            found.append(f"{where}: a knowledge update names the turns it supersedes")
        held = [texts[key] for key in question.evidence]
        for part in question.answer.split("; "):
            if not any(holds_answer(part, text) for text in held):
                found.append(f"{where}: no evidence turn holds the answer {part!r}")
    return found


def to_locomo(chat: Chat) -> dict:
    """``chat`` as one LoCoMo conversation: ``D<session>:<turn>`` ids, the evidence keys as those ids."""
    conversation: dict[str, object] = {"speaker_a": "user", "speaker_b": "assistant"}
    ids: dict[str, str] = {}
    for number, session in enumerate(chat.sessions, start=1):
        turns = []
        for index, turn in enumerate(session.turns, start=1):
            dia_id = f"D{number}:{index}"
            turns.append({"speaker": turn.speaker, "text": turn.text, "dia_id": dia_id})
            if turn.key:
                ids[turn.key] = dia_id
        conversation[f"session_{number}"] = turns
        conversation[f"session_{number}_date_time"] = session.when
    qa = [
        {
            "question": q.question,
            "answer": q.answer,
            "evidence": [ids[key] for key in q.evidence],
            "superseded_evidence": [ids[key] for key in q.superseded],
            "ability": q.ability,
        }
        for q in chat.questions
    ]
    return {"sample_id": chat.name, "conversation": conversation, "qa": qa}


def written(path: Path, selected: tuple[str, ...] = ()) -> tuple[int, int, int]:
    """Check every chat (or the ``selected`` ones) and write them to ``path``; the chats, turns and
    questions written."""
    every = chats(selected)
    if not every:
        raise SystemExit(f"no working chat is named {' or '.join(selected)}…")
    found = [problem for chat in every for problem in problems(chat)]
    if found:
        raise SystemExit("the working sessions are unfit to measure with:\n  " + "\n  ".join(found))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps([to_locomo(chat) for chat in every], indent=1, ensure_ascii=False))
    turns = sum(len(s.turns) for chat in every for s in chat.sessions)
    return len(every), turns, sum(len(chat.questions) for chat in every)


def run() -> None:
    from bench import locomo

    selected = selection(os.environ.get("BENCH_WORKING_CHATS", ""))
    path = file_for(selected)
    count, turns, questions = written(path, selected)
    print(f"{count} working chats, {turns} turns, {questions} questions written to {path}")
    os.environ["BENCH_LOCOMO_FILE"] = str(path)
    locomo.run()
