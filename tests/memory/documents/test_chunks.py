"""The chunker on its own: every chunk an exact span of the text, cut at headings, code kept
whole, overlap only within a section and never from inside code."""

from __future__ import annotations

from memory.documents.chunks import CODE_MAX_FACTOR, chunk_prose, chunk_text


def spans(text: str, **options) -> list[str]:
    return [text[c.char_start : c.char_end] for c in chunk_text(text, **{"size": 300, "overlap": 60, **options})]


def test_every_heading_starts_a_chunk_and_headings_nest():
    text = "# A\n\nalpha.\n\n## B\n\nbeta.\n\n### C\n\ngamma.\n\n## D\n\ndelta.\n\nSetext\n------\n\nepsilon."

    cuts = chunk_text(text, size=300, overlap=60)

    assert [text[c.char_start : c.char_end] for c in cuts] == [
        "# A\n\nalpha.",
        "## B\n\nbeta.",
        "### C\n\ngamma.",
        "## D\n\ndelta.",
        "Setext\n------\n\nepsilon.",
    ]
    assert [c.heading for c in cuts] == ["A", "A › B", "A › B › C", "A › D", "A › Setext"]


def test_plain_text_is_cut_between_paragraphs():
    paragraphs = [f"Paragraph {n} says something about topic {n} at some length." for n in range(20)]
    text = "\n\n".join(paragraphs)

    chunks = spans(text, overlap=0)

    assert all(len(c) <= 300 for c in chunks)
    assert "\n\n".join(chunks) == text, "no overlap asked: the chunks tile the text"
    assert all(c.startswith("Paragraph") and c.endswith("length.") for c in chunks)


def test_a_code_block_is_kept_whole_and_overlap_never_starts_inside_it():
    code = "```python\n" + "".join(f"print({n})\n" for n in range(40)) + "```"
    text = "# Code\n\n" + "Some words before the code. " * 8 + "\n\n" + code + "\n\nA sentence after the code."

    chunks = spans(text)

    assert code in chunks
    assert all(c == code or "print(" not in c for c in chunks), "no chunk holds part of the block"


def test_a_code_block_longer_than_several_chunks_is_cut_between_its_lines():
    code = "```\n" + "".join(f"line {n:04d} of a very long generated listing\n" for n in range(200)) + "```"

    chunks = spans(code, size=200, overlap=0)

    assert len(code) > 200 * CODE_MAX_FACTOR and len(chunks) > 1
    assert all(c.endswith(("listing", "```")) for c in chunks)


def test_overlap_stays_within_a_section_and_starts_at_a_sentence():
    body = " ".join(f"Fact number {n} is stated here." for n in range(40))
    text = f"# One\n\n{body}\n\n# Two\n\nShort."

    cuts = chunk_text(text, size=250, overlap=80)
    chunks = [text[c.char_start : c.char_end] for c in cuts]

    overlapping = [(a, b) for a, b in zip(cuts, cuts[1:], strict=False) if b.char_start < a.char_end]
    assert overlapping and all(a.heading == b.heading for a, b in overlapping)
    assert all(c.startswith(("# One", "Fact number", "# Two")) for c in chunks)
    assert chunks[-1] == "# Two\n\nShort."


def test_offsets_hold_on_text_with_odd_whitespace_and_unicode():
    text = "  # Tête  \n\n\tcafé  —  naïve\n\n\n- élan\n- 東京\n\n    indented code\n\n> quoted\n"

    cuts = chunk_text(text, size=300, overlap=60)

    assert [text[c.char_start : c.char_end] for c in cuts] == [
        "# Tête  \n\n\tcafé  —  naïve\n\n\n- élan\n- 東京\n\n    indented code\n\n> quoted"
    ]
    assert cuts[0].heading == "Tête"
    assert all(0 <= c.char_start < c.char_end <= len(text) for c in cuts)


def test_pages_are_counted_from_the_page_starts():
    text = "Page one text.\n\nPage two text.\n\nPage three text."

    cuts = chunk_text(text, size=20, overlap=0, page_starts=[0, 16, 32])

    assert [c.page for c in cuts] == [1, 2, 3]


def test_prose_drops_headings_code_and_markers():
    prose = chunk_prose("## Rollback\n\nRun it:\n\n```sh\nhelm rollback\n```\n\n- Page the on-call.\n> Then wait.")

    assert prose == "Run it:\n\nPage the on-call. Then wait."
