"""Excerpts: what ``build_context`` packs of a memory too long for its share of the budget.

A working session's turns run to pages of code and prose, and one of them packed whole can take
most of a thousand tokens, leaving no room for the turn that holds the answer. A memory longer
than its share is packed as its pieces (sentences of prose, lines of code) that carry the
question's rarest words, then the pieces beside them (a value often follows the line that names
it), then its opening, in their order, with " … " where something was left out."""

from __future__ import annotations

import math
from dataclasses import dataclass

from memory.ingest.english.sentences import CODE_LINE, FENCE, line_sentences
from memory.ingest.english.topics import topic_words_with_parts

GAP = " … "
# A piece of this many characters or more (a paragraph without a stop, a minified line) is read
# as windows of words about this long, so that no one piece takes a whole share.
PIECE_CHARS = 320


@dataclass(frozen=True)
class Piece:
    line: int
    text: str


def excerpt(content: str, query: str, tokens: int) -> str:
    """``content`` within about ``tokens`` tokens (four characters each): whole when it fits,
    otherwise the pieces that answer ``query`` best, in order."""
    if len(content) <= 4 * tokens:
        return content
    pieces = _pieces(content)
    order = _by_priority(pieces, topic_words_with_parts(query))
    if not order:  # nothing but blank lines
        return content[: 4 * tokens].strip()
    chosen: set[int] = set()
    room = 4 * tokens
    for i in order:
        cost = len(pieces[i].text) + len(GAP)
        if cost <= room:
            chosen.add(i)
            room -= cost
    if not chosen:  # a share smaller than any piece: the best piece, cut
        return pieces[order[0]].text[: max(1, 4 * tokens - len(GAP))].rstrip() + GAP.rstrip()
    return _joined(pieces, sorted(chosen))


def _pieces(content: str) -> list[Piece]:
    """Prose as sentences, code (fenced, or a line that reads as code) as lines; each line is read once."""
    pieces: list[Piece] = []
    fenced = False
    for number, line in enumerate(content.split("\n")):
        if FENCE.search(line):
            fenced = not fenced if len(FENCE.findall(line)) % 2 else fenced
        if not line.strip():
            continue
        code = fenced or FENCE.search(line) or CODE_LINE.search(line)
        for text in [line.rstrip()] if code else line_sentences(line):
            pieces.extend(Piece(number, window) for window in _windows(text))
    return pieces


def _windows(text: str) -> list[str]:
    if len(text) < PIECE_CHARS:
        return [text]
    windows: list[str] = []
    words: list[str] = []
    size = 0
    for word in text.split(" "):
        if words and size + len(word) > PIECE_CHARS:
            windows.append(" ".join(words))
            words, size = [], 0
        words.append(word[:PIECE_CHARS])  # a "word" longer than a window is cut, not carried whole
        size += len(words[-1]) + 1
    return [*windows, " ".join(words)] if words else windows


def _by_priority(pieces: list[Piece], asked: set[str]) -> list[int]:
    """The pieces in the order they are packed: by the weight of the question's words each holds
    (a word in few pieces weighs more), a piece beside a weighed one at half its neighbour's weight,
    then the rest from the opening on."""
    held = [topic_words_with_parts(piece.text) & asked for piece in pieces]
    counts: dict[str, int] = {}
    for stems in held:
        for stem in stems:
            counts[stem] = counts.get(stem, 0) + 1
    weight = [sum(math.log(1 + len(pieces) / counts[s]) for s in stems) for stems in held]
    padded = [0.0, *weight, 0.0]
    beside = [max(padded[i], padded[i + 2]) for i in range(len(weight))]
    priority = [w or b / 2 for w, b in zip(weight, beside, strict=True)]
    return sorted(range(len(pieces)), key=lambda i: (-priority[i], i))


def _joined(pieces: list[Piece], chosen: list[int]) -> str:
    out: list[str] = [] if chosen and chosen[0] == 0 else [GAP.lstrip()]
    for before, i in zip([None, *chosen], chosen, strict=False):
        if before is not None:
            adjacent = i == before + 1
            out.append(("\n" if pieces[i].line != pieces[before].line else " ") if adjacent else GAP)
        out.append(pieces[i].text)
    if chosen and chosen[-1] != len(pieces) - 1:
        out.append(GAP.rstrip())
    return "".join(out).strip()
