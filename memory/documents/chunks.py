"""Cutting a document's text into chunks by its structure.

The text is read as Markdown (CommonMark with tables): its top-level blocks are headings,
paragraphs, lists, tables, quotes and code. A heading always starts a chunk; blocks that follow
are gathered while the chunk stays within ``size`` characters; a fenced or indented code block is
never cut (unless it alone is over ``CODE_MAX_FACTOR`` chunks long), a longer paragraph or list
is cut between lines, then sentences, then words. A chunk that continues a section begins with up
to ``overlap`` characters of the one before it, from a word's start and never from inside code.

Every chunk is an exact span of the text: ``text[char_start:char_end]`` is the chunk.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from markdown_it import MarkdownIt

CODE_MAX_FACTOR = 4  # a code block longer than this many chunks is cut between its lines after all
HEADING_SEPARATOR = " › "

_markdown = MarkdownIt("commonmark").enable("table")
_CODE = ("fence", "code_block")
_MARKERS = re.compile(r"^\s{0,3}(?:[-*+>]\s+|\d+[.)]\s+)")


@dataclass(frozen=True)
class Piece:
    start: int
    end: int
    kind: str  # heading | code | text
    level: int = 0  # a heading's level
    title: str = ""  # a heading's text


@dataclass(frozen=True)
class Cut:
    position: int
    char_start: int
    char_end: int
    heading: str  # the headings it sits under, outermost first
    page: int | None = None  # 1-based, when the document has pages


def chunk_text(text: str, *, size: int, overlap: int, page_starts: list[int] | None = None) -> list[Cut]:
    # A part of a long block leaves room for the overlap the chunk holding it starts with.
    part_size = max(size - overlap, size // 2)
    pieces = [part for piece in _blocks(text) for part in _fitted(text, piece, size, part_size)]
    spans = _gathered(text, pieces, size=size, overlap=overlap)
    return [
        Cut(
            position=i,
            char_start=start,
            char_end=end,
            heading=heading[:500],
            page=bisect.bisect_right(page_starts, start) if page_starts else None,
        )
        for i, (start, end, heading) in enumerate(spans)
    ]


def _blocks(text: str) -> list[Piece]:
    """The top-level blocks as spans of ``text``, each without the blank space around it."""
    line_starts = [0, *(m.end() for m in re.finditer("\n", text))]
    tokens = _markdown.parse(text)
    pieces = []
    for i, token in enumerate(tokens):
        if token.level != 0 or token.map is None or token.nesting == -1:
            continue
        first, last = token.map
        start = line_starts[first]
        end = line_starts[last] if last < len(line_starts) else len(text)
        while end > start and text[end - 1].isspace():
            end -= 1
        if token.type not in _CODE:
            while start < end and text[start].isspace():
                start += 1
        if end <= start:
            continue
        if token.type == "heading_open":
            title = " ".join(tokens[i + 1].content.split()) if i + 1 < len(tokens) else ""
            pieces.append(Piece(start, end, "heading", level=int(token.tag[1]), title=title))
        else:
            pieces.append(Piece(start, end, "code" if token.type in _CODE else "text"))
    return pieces


def _fitted(text: str, piece: Piece, size: int, part_size: int) -> list[Piece]:
    """``piece``, or its parts of at most ``part_size`` when it is longer than a chunk may be."""
    limit = size * CODE_MAX_FACTOR if piece.kind == "code" else size
    if piece.end - piece.start <= limit or piece.kind == "heading":
        return [piece]
    parts, start = [], piece.start
    while piece.end - start > part_size:
        cut = _cut_point(text, start, start + part_size, lines_only=piece.kind == "code")
        parts.append(Piece(start, cut, piece.kind))
        start = cut
        while start < piece.end and text[start].isspace():
            start += 1
    if start < piece.end:
        parts.append(Piece(start, piece.end, piece.kind))
    return [Piece(p.start, _trimmed_end(text, p), p.kind) for p in parts]


def _cut_point(text: str, start: int, limit: int, *, lines_only: bool) -> int:
    """The best place to end a part that starts at ``start`` and may reach ``limit``: after a
    line, else after a sentence, else after a word, else at ``limit``."""
    window = text[start:limit]
    floor = len(window) // 3  # not so early that the part is a sliver
    patterns = [r"\n"] if lines_only else [r"\n", r"[.!?;:][\"')\]]*\s", r"\s"]
    for pattern in patterns:
        ends = [m.end() for m in re.finditer(pattern, window) if m.end() > floor]
        if ends:
            return start + ends[-1]
    return limit


def _trimmed_end(text: str, piece: Piece) -> int:
    end = piece.end
    while end > piece.start + 1 and text[end - 1].isspace():
        end -= 1
    return end


def _gathered(text: str, pieces: list[Piece], *, size: int, overlap: int) -> list[tuple[int, int, str]]:
    spans: list[tuple[int, int, str]] = []
    path: list[tuple[int, str]] = []
    code = [(p.start, p.end) for p in pieces if p.kind == "code"]
    start = end = -1
    heading_only = False
    for piece in pieces:
        if piece.kind == "heading":
            if start >= 0:
                spans.append((start, end, _path(path)))
            path = [*(h for h in path if h[0] < piece.level), (piece.level, piece.title)]
            start, end, heading_only = piece.start, piece.end, True
        elif start < 0:
            start, end, heading_only = piece.start, piece.end, False
        elif piece.end - start <= size or heading_only:
            end, heading_only = piece.end, False
        else:
            spans.append((start, end, _path(path)))
            start = _overlap_start(text, code, previous=(start, end), following=piece, size=size, overlap=overlap)
            end = piece.end
    if start >= 0:
        spans.append((start, end, _path(path)))
    return spans


def _overlap_start(
    text: str, code: list[tuple[int, int]], *, previous: tuple[int, int], following: Piece, size: int, overlap: int
) -> int:
    """Where the chunk holding ``following`` starts: up to ``overlap`` characters back into the
    chunk before, at a word's start, never inside a code block, and so that it stays within ``size``."""
    if overlap <= 0:
        return following.start
    earliest = max(previous[1] - overlap, following.end - size, previous[0] + 1)
    if earliest >= previous[1]:
        return following.start
    window = text[earliest : previous[1]]
    # From a sentence's start if one begins in the window, else from a word's.
    begin_at = re.search(r"(?<=[.!?;:])\s+(\S)", window) or re.search(r"(?<=\s)(\S)", window)
    if begin_at is None:
        return following.start
    begin = earliest + begin_at.start(1)
    if any(a <= begin < b or begin < a < previous[1] for a, b in code):
        return following.start
    return begin


def _path(path: list[tuple[int, str]]) -> str:
    return HEADING_SEPARATOR.join(title for _, title in path if title)


def chunk_prose(text: str) -> str:
    """A chunk's sentences for extraction and extractive answers: its paragraphs apart, without
    headings, code, or list and quote markers, so that a heading never runs into (or becomes)
    a statement."""
    paragraphs: list[str] = []
    lines: list[str] = []
    fenced = False
    for line in text.split("\n"):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        elif not fenced and line.strip() and not line.lstrip().startswith("#"):
            lines.append(_MARKERS.sub("", line).strip())
            continue
        if lines:
            paragraphs.append(" ".join(lines))
        lines = []
    if lines:
        paragraphs.append(" ".join(lines))
    return "\n\n".join(paragraphs)


def chunk_place(title: str, heading: str) -> str:
    """Where a chunk sits, for its embedding and a packed context: the document's title, then its
    headings (once, when the outermost heading is the title)."""
    if not heading or heading == title or heading.startswith(title + HEADING_SEPARATOR):
        return heading or title
    return f"{title}{HEADING_SEPARATOR}{heading}"
