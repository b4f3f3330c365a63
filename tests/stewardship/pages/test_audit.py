"""The audit trail reads as what changed (per key, before → after, in words) and is filtered by
one of the actions it holds, a page at a time."""

from __future__ import annotations

import re

import pytest

from stewardship.models import AuditEntry
from tests.stewardship.pages.conftest import HTMX

pytestmark = pytest.mark.django_db


def _line(action: str, target: str, before, after) -> AuditEntry:
    return AuditEntry.objects.create(actor_name="ada", action=action, target=target, before=before, after=after)


def _changes(html: str, entry: AuditEntry) -> list[tuple[str, str]]:
    row = re.search(rf'<tr id="audit-{entry.id}">.*?</tr>', html, re.S).group(0)
    pairs = re.findall(r"(?:<dt>([^<]*)</dt>)?<dd><del>([^<]*)</del> → <ins>([^<]*)</ins></dd>", row)
    return [(key, f"{before} → {after}") for key, before, after in pairs]


def _listed(html: str) -> list[str]:
    return re.findall(r'<tr id="audit-(\d+)">', html)


def test_a_line_shows_each_key_that_changed_before_and_after_in_words(steward):
    deactivated = _line(
        "principal.deactivate",
        "principal:bob",
        {"is_active": True, "roles": ["viewer", "worker"], "note": ""},
        {"is_active": False, "roles": ["viewer", "worker"], "note": "left the team"},
    )
    created = _line("workspace.create", "workspace:team", None, {"slug": "team", "federation": None})
    patched = _line("config.patch", "config:version 2", {"HELIX_TOP_K": 10}, {"HELIX_TOP_K": 20, "HELIX_LLM": "none"})

    html = steward.get("/steward/audit/").content.decode()

    assert _changes(html, deactivated) == [("is_active", "yes → no"), ("note", "(empty) → left the team")]
    assert _changes(html, created) == [("slug", "– → team")], "a key created empty says nothing"
    assert _changes(html, patched) == [("HELIX_LLM", "– → none"), ("HELIX_TOP_K", "10 → 20")]
    assert "{&quot;" not in html and 'class="json"' not in html, "no JSON blob"


def test_the_action_filter_offers_the_actions_the_trail_holds_and_pages_with_the_cursor(steward):
    issued = [_line("token.issue", f"token:ci-{n}", None, {"name": f"ci-{n}"}) for n in range(5)]
    _line("principal.create", "principal:bob", None, {"kind": "agent"})

    page = steward.get("/steward/audit/").content.decode()
    options = re.findall(r'<option value="([^"]*)"', page[page.index('<select name="action"') :])
    assert options[:3] == ["", "principal.create", "token.issue"]

    from stewardship.pages import audit

    audit.PAGE_SIZE, size = 2, audit.PAGE_SIZE
    try:
        seen, url, params = [], "/steward/audit/", {"action": "token.issue"}
        while url:
            fragment = steward.get(url, params, **HTMX).content.decode()
            seen += _listed(fragment)
            more = re.search(r'hx-get="(/steward/audit/\?[^"]+)"', fragment)
            url, params = (more.group(1).replace("&amp;", "&"), {}) if more else (None, {})
    finally:
        audit.PAGE_SIZE = size
    assert seen == [str(entry.id) for entry in reversed(issued)], "every token.issue line once, newest first"
    assert "<html" not in fragment


def test_an_action_the_trail_does_not_hold_is_named_and_left_out(steward):
    _line("token.issue", "token:ci", None, {"name": "ci"})

    html = steward.get("/steward/audit/", {"action": "token.<script>" + "x" * 500}).content.decode()

    assert "Action: Select a valid choice." in html and "left out of the filter" in html
    assert "<script>x" not in html and len(_listed(html)) == 1
