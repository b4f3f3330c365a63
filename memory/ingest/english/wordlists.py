"""The lexicon's long word lists, kept as data: ``lists/<name>.txt`` in this package, one word
or phrase a line, ``#`` lines saying why the list exists. Each is read once, when the section
module that uses it is imported."""

from __future__ import annotations

from importlib.resources import files

_LISTS = files("memory.ingest.english") / "lists"


def word_list(name: str) -> tuple[str, ...]:
    """The words of ``lists/<name>.txt``, in the file's order."""
    text = (_LISTS / f"{name}.txt").read_text(encoding="utf-8")
    return tuple(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))
