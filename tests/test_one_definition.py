"""Each rule is written once. A raw visibility clause, a live-row clause, a BM25 term score, a
memory row built by hand or the characters of an agent id, anywhere but in its one definition,
fails here (and so ``make test``): use ``memory.search.scope`` (raw SQL),
``rbac.policy.visible_in_any`` (the ORM), ``memory.search.bm25``, ``Memory.written`` or
``helixsite.agents.agent_ids``."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("helixsite", "memory", "rbac", "stewardship", "bench")
RULES = {
    "visible_in &&": {"memory/search/scope.py"},
    "visible_in__overlap": {"rbac/policy.py"},
    "deleted_at IS NULL": {"memory/search/corpus.py"},
    "expires_at > now()": {"memory/search/corpus.py"},
    "ln(1 +": {"memory/search/bm25.py"},
    # A new memory row is built by Memory.written(domain, …), whichever door writes it.
    "Memory(": {"memory/models.py"},
    "Memory.objects.create(": set(),
    # Every agent_id and parent_agent_id a tool takes is checked by helixsite.agents.agent_ids.
    "A-Za-z0-9._:/@-": {"helixsite/agents/agent_ids.py"},
}


def _sources() -> dict[str, str]:
    files = (path for package in PACKAGES for path in (ROOT / package).rglob("*.py"))
    return {str(p.relative_to(ROOT)): p.read_text() for p in files if "migrations" not in p.parts}


@pytest.mark.parametrize("clause", sorted(RULES))
def test_the_clause_is_written_in_its_one_definition_only(clause):
    written = {path for path, text in _sources().items() if clause in text}
    assert written == RULES[clause]
