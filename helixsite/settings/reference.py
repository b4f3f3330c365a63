"""What the settings registry writes: the tables of ``docs/configuration.md`` and the module
``helixsite/settings/registered.py``.

The prose around the tables is written by hand. Each table sits between ``<!-- settings: TITLE
-->`` and ``<!-- /settings -->``, TITLE being a section of the registry (or ``patchable``, for what
the room may change), and is written again whole, so a table cannot say other than the registry.

``registered.py`` reads every setting the environment sets that the settings module
(``base.py``) does not read itself, one typed line each: so adding a setting is its registry
entry, and what the settings module does with a value beyond reading it is written there.

``python -m helixsite.settings.reference`` writes both; with ``--check`` it only says whether
they are current (exit status 1 if not).
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from helixsite.settings.registry import SECTIONS, SETTINGS, Section, Setting, patchable_settings

DOCUMENT = Path(__file__).resolve().parents[2] / "docs" / "configuration.md"
SETTINGS_MODULE = Path(__file__).resolve().parent / "base.py"
REGISTERED = Path(__file__).resolve().parent / "registered.py"
# The reader of each kind (``helixsite.settings.env``); a URL is text, checked where it is used.
READERS = {"url": "read_text"}
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


def read_by_hand(source: str) -> set[str]:
    """The settings ``source`` (the settings module) reads itself: the first argument of each
    ``read_*`` call."""
    return {
        node.args[0].value
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id.startswith("read_")
        and node.args
        and isinstance(node.args[0], ast.Constant)
    }


def registered_text(settings_module: str) -> str:
    """``registered.py``: a line reading each setting of the environment the settings module
    does not read itself, in the registry's order."""
    by_hand = read_by_hand(settings_module)
    read = [
        entry
        for entry in SETTINGS.values()
        if entry.environment and entry.kind != "derived" and entry.name not in by_hand
    ]
    readers = sorted({_reader(entry) for entry in read})
    lines = [
        '"""Every setting the environment sets that ``base.py`` does not read itself, read through',
        "the registry's typed readers. Written by ``python -m helixsite.settings.reference`` from",
        '``helixsite.settings.registry``: do not edit; add a setting to the registry instead."""',
        "",
        "from helixsite.settings.env import (",
        *[f"    {reader}," for reader in readers],
        ")",
        "",
        "__all__ = [",
        *[f'    "{entry.name}",' for entry in read],
        "]",
        "",
        *[f'{entry.name} = {_reader(entry)}("{entry.name}")' for entry in read],
    ]
    return "\n".join(lines) + "\n"


def _reader(entry: Setting) -> str:
    return READERS.get(entry.kind, f"read_{entry.kind}")


def main(argv: Sequence[str]) -> int:
    written = {
        DOCUMENT: reference_text(DOCUMENT.read_text()),
        REGISTERED: registered_text(SETTINGS_MODULE.read_text()),
    }
    stale = [path for path, text in written.items() if not path.exists() or path.read_text() != text]
    if "--check" in argv:
        for path in stale:
            print(f"{path} is not what the settings registry writes; run python -m helixsite.settings.reference.")
        return 1 if stale else 0
    for path in stale:
        path.write_text(written[path])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
