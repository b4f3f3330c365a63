"""docs/configuration.md's tables are what the settings registry writes, so the documentation
cannot list another default, range or meaning than the server uses."""

from __future__ import annotations

import pytest

from helixsite.settings import reference
from helixsite.settings.registry import SETTINGS


def test_the_committed_documentation_is_what_the_registry_writes():
    committed = reference.DOCUMENT.read_text()
    assert reference.reference_text(committed) == committed, "run python -m helixsite.settings.reference"


def test_every_registered_setting_has_one_row_in_the_documentation():
    text = reference.DOCUMENT.read_text()
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    named = [line.split("`")[1] for line in rows]
    assert sorted(named) == sorted(SETTINGS)


def test_a_table_written_by_hand_is_written_again_from_the_registry():
    document = "## Server\n\n<!-- settings: Server -->\n| `HELIX_PORT` | `80` | a port |\n<!-- /settings -->\n"
    with pytest.raises(ValueError, match="must mark exactly one table"):
        reference.reference_text(document)
    whole = reference.reference_text(reference.DOCUMENT.read_text().replace("| `8000` |", "| `80` |"))
    assert "| `HELIX_PORT` | `8000` | 1–65535 | port the web server listens on |" in whole


def test_a_mark_naming_no_section_of_the_registry_is_refused():
    stray = reference.DOCUMENT.read_text() + "\n<!-- settings: Nowhere -->\n<!-- /settings -->\n"
    with pytest.raises(ValueError, match="'Nowhere'"):
        reference.reference_text(stray)


def test_the_command_says_when_the_documentation_is_out_of_date(monkeypatch, tmp_path, capsys):
    stale = tmp_path / "configuration.md"
    stale.write_text(reference.DOCUMENT.read_text().replace("| `8000` |", "| `80` |"))
    monkeypatch.setattr(reference, "DOCUMENT", stale)
    assert reference.main(["--check"]) == 1
    assert reference.main([]) == 0
    assert reference.main(["--check"]) == 0 and "| `8000` |" in stale.read_text()
