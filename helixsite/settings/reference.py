"""The tables of ``docs/configuration.md``, written from the settings registry.

The prose around them is written by hand. Each table sits between ``<!-- settings: TITLE -->`` and
``<!-- /settings -->``, TITLE being a section of the registry (or ``patchable``, for what the room
may change), and is written again whole, so a table cannot say other than the registry.

``python -m helixsite.settings.reference`` writes the file; with ``--check`` it only says whether
the file is current (exit status 1 if not).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from pathlib import Path

from helixsite.settings.registry import SECTIONS, Section, Setting, patchable_settings

DOCUMENT = Path(__file__).resolve().parents[2] / "docs" / "configuration.md"
PATCHABLE = "patchable"
_BLOCK = re.compile(r"^<!-- settings: (?P<title>.+?) -->\n.*?^<!-- /settings -->$", re.S | re.M)


def _cells(*cells: str) -> str:
    return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"


def _name_cell(entry: Setting) -> str:
    if entry.environment:
        return f"`{entry.name}`"
    origin = "derived, not read" if entry.kind == "derived" else "not read"
    return f"`{entry.name}` ({origin} from the environment)"


def section_table(section: Section) -> str:
    rows = [
        _cells(_name_cell(entry), entry.default_markdown(), entry.range_text(), entry.meaning)
        for entry in section.settings
    ]
    return "\n".join(["| variable | default | range | meaning |", "| --- | --- | --- | --- |", *rows])


def patchable_table() -> str:
    groups: dict[str, list[str]] = {}
    for entry in patchable_settings():
        groups.setdefault(entry.patch_group or "", []).append(f"`{entry.name}`")
    rows = [_cells(group, ", ".join(names)) for group, names in groups.items()]
    return "\n".join(["| group | settings |", "| --- | --- |", *rows])


def tables() -> dict[str, str]:
    return {**{section.title: section_table(section) for section in SECTIONS}, PATCHABLE: patchable_table()}


def reference_text(document: str) -> str:
    """``document`` with each marked table written again from the registry. Every table the
    registry has must be marked exactly once, and no mark may name a table it does not have."""
    wanted, written = tables(), []

    def table(match: re.Match[str]) -> str:
        title = match["title"]
        if title not in wanted:
            raise ValueError(f"{DOCUMENT.name} marks a table {title!r} the settings registry does not have.")
        written.append(title)
        return f"<!-- settings: {title} -->\n{wanted[title]}\n<!-- /settings -->"

    text = _BLOCK.sub(table, document)
    unmarked = [title for title in wanted if written.count(title) != 1]
    if unmarked:
        raise ValueError(f"{DOCUMENT.name} must mark exactly one table for each of: {', '.join(unmarked)}.")
    return text


def main(argv: Sequence[str]) -> int:
    current = DOCUMENT.read_text()
    wanted = reference_text(current)
    if "--check" in argv:
        if wanted != current:
            print(f"{DOCUMENT} is not what the settings registry writes; run python -m helixsite.settings.reference.")
            return 1
        return 0
    DOCUMENT.write_text(wanted)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
