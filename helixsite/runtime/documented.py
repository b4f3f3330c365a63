"""The settings ``docs/configuration.md`` documents: its tables read as (name, default, meaning),
so the room's effective-configuration page lists exactly what the documentation lists."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from django.conf import settings

_NAME = re.compile(r"`((?:HELIX_|DATABASE_URL|DATABASE_REPLICA_URLS)[A-Z0-9_]*)`")
_MARKUP = re.compile(r"[`*]|\[([^\]]*)\]\([^)]*\)")


@dataclass(frozen=True)
class DocumentedSetting:
    name: str
    section: str
    default: str
    meaning: str


def _plain(cell: str) -> str:
    return _MARKUP.sub(lambda match: match.group(1) or "", cell.replace("\\|", "|")).strip()


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip())[1:-1]]


@functools.cache
def documented_settings() -> tuple[DocumentedSetting, ...]:
    """Every row of the documentation's tables naming a setting; a row naming two (``A`` / ``B``)
    gives one entry each, with its half of the default."""
    found: list[DocumentedSetting] = []
    section = ""
    path = settings.BASE_DIR / "docs" / "configuration.md"
    for line in path.read_text().splitlines():
        if line.startswith("#"):
            section = line.lstrip("#").strip()
            continue
        cells = _cells(line) if line.startswith("|") else []
        if len(cells) < 3:
            continue
        names = _NAME.findall(cells[0])
        defaults = cells[1].split(" / ") if len(names) > 1 else [cells[1]]
        for index, name in enumerate(names):
            default = defaults[index] if index < len(defaults) else cells[1]
            found.append(DocumentedSetting(name, section, _plain(default), _plain(cells[2])))
    return tuple(found)
