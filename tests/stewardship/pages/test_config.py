"""The configuration pages: the effective settings with their sources, edit → review → apply
with the diff, refusals naming the field, env-set keys read-only, versions and restore."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django.urls import reverse
from django.utils.html import escape

from helixsite.runtime import reload
from helixsite.runtime.models import ConfigVersion
from helixsite.runtime.reload import runtime_reset
from helixsite.settings.registry import SETTINGS, plain_text
from tests.stewardship.pages.conftest import HTMX, audit_lines, inline_error


@pytest.fixture(autouse=True)
def startup_config_again() -> Iterator[None]:
    yield
    runtime_reset()


def review(steward, **submitted: str):
    return steward.post(reverse("steward:config-review"), submitted, **HTMX)


def apply(steward, base_version: int = 0, **submitted: str):
    return steward.post(reverse("steward:config-apply"), {"base_version": base_version, **submitted}, **HTMX)


def test_the_effective_page_lists_every_setting_with_its_value_and_source(steward, monkeypatch):
    monkeypatch.setenv("HELIX_SEARCH_FUSION", "blend")
    html = steward.get(reverse("steward:config")).content.decode()
    assert 'id="setting-HELIX_PORT" data-source="default"' in html
    assert 'id="setting-HELIX_SEARCH_FUSION" data-source="environment"' in html
    assert "Django&#x27;s signing key" in html or "signing key" in html
    assert 'href="/steward/config/"' in html, "the room's navigation lists the page"


def test_review_shows_before_and_after_per_key_and_changes_nothing(steward):
    answer = review(steward, HELIX_SEARCH_SEMANTIC_WEIGHT="0.5", HELIX_SEARCH_FUSION="rrf", HELIX_SEARCH_RRF_K="60")
    html = answer.content.decode()
    assert answer.status_code == 200
    assert 'id="diff-HELIX_SEARCH_SEMANTIC_WEIGHT"' in html and "0.75" in html and "0.5" in html
    assert 'id="diff-HELIX_SEARCH_FUSION"' in html
    assert 'id="diff-HELIX_SEARCH_RRF_K"' not in html, "a value already in force is no change"
    assert ConfigVersion.objects.count() == 0


def test_apply_writes_a_version_and_an_audit_line(steward):
    answer = apply(steward, HELIX_SEARCH_SEMANTIC_WEIGHT="0.5")
    assert answer.status_code == 200 and answer["HX-Trigger"] == "config-applied"
    assert 'id="config-applied-version">1<' in answer.content.decode()
    version = ConfigVersion.objects.get()
    assert (version.actor_name, version.values) == ("ada", {"HELIX_SEARCH_SEMANTIC_WEIGHT": 0.5})
    assert audit_lines("config.patch") == [
        {
            "actor": "ada",
            "target": "config:version 1",
            "before": {"HELIX_SEARCH_SEMANTIC_WEIGHT": 0.75},
            "after": {"HELIX_SEARCH_SEMANTIC_WEIGHT": 0.5},
        }
    ]
    page = steward.get(reverse("steward:config")).content.decode()
    assert 'id="setting-HELIX_SEARCH_SEMANTIC_WEIGHT" data-source="patch"' in page


@pytest.mark.parametrize(
    ("submitted", "code", "field"),
    [
        ({"HELIX_SECRET_KEY": "x"}, "unknown_key", "HELIX_SECRET_KEY"),
        ({"HELIX_SEARCH_SEMANTIC_WEIGHT": "heavy"}, "invalid_value", "HELIX_SEARCH_SEMANTIC_WEIGHT"),
        ({"HELIX_API_RATE": "0/minute"}, "invalid_value", "HELIX_API_RATE"),
        ({"HELIX_SEARCH_MODES": "[1"}, "invalid_value", "HELIX_SEARCH_MODES"),
    ],
)
def test_a_bad_patch_is_refused_inline_with_the_field(steward, submitted, code, field):
    for answer in (review(steward, **submitted), apply(steward, **submitted)):
        assert answer.status_code == 400
        assert refusal(answer) == (code, field)
    assert ConfigVersion.objects.count() == 0 and audit_lines("config.patch") == []


def refusal(answer) -> tuple[str | None, str | None]:
    """The refusal's code and field: at the field the form shows for it, or else above the form."""
    at_field = re.search(
        r'<p class="field-error" id="config-([A-Z0-9_]+)-refusal" role="alert" data-code="([^"]+)"',
        answer.content.decode(),
    )
    if at_field:
        return at_field.group(2), at_field.group(1)
    return inline_error(answer)["code"], inline_error(answer)["field"]


def test_a_refused_value_is_shown_at_its_field_and_the_other_edits_stay(steward):
    answer = review(steward, HELIX_SEARCH_SEMANTIC_WEIGHT="heavy", HELIX_API_RATE="5/minute")
    html = answer.content.decode()

    field = _row(html, '<input id="config-HELIX_SEARCH_SEMANTIC_WEIGHT"', ">")
    assert 'aria-invalid="true"' in field and "autofocus" in field and 'value="heavy"' in field
    assert 'aria-describedby="config-HELIX_SEARCH_SEMANTIC_WEIGHT-refusal ' in field
    message = _row(html, 'id="config-HELIX_SEARCH_SEMANTIC_WEIGHT-refusal"', "</p>")
    assert "HELIX_SEARCH_SEMANTIC_WEIGHT" in message or "number" in message
    assert inline_error(answer)["code"] is None, "not at the top of the form, far from the field"
    assert html.count('aria-invalid="true"') == 1
    assert 'value="5/minute"' in _row(html, '<input id="config-HELIX_API_RATE"', ">"), "the other edit is kept"


def test_back_to_editing_keeps_the_reviewed_edits(steward):
    reviewed = review(steward, HELIX_SEARCH_SEMANTIC_WEIGHT="0.5", HELIX_API_RATE="5/minute").content.decode()
    back = _row(reviewed, '<button type="submit" class="secondary" id="config-back"', "</button>")
    assert f'hx-post="{reverse("steward:config-edit")}"' in back

    sent = {"base_version": "0", "HELIX_SEARCH_SEMANTIC_WEIGHT": "0.5", "HELIX_API_RATE": "5/minute"}
    form = steward.post(reverse("steward:config-edit"), sent, **HTMX).content.decode()
    assert 'value="0.5"' in _row(form, '<input id="config-HELIX_SEARCH_SEMANTIC_WEIGHT"', ">")
    assert 'value="5/minute"' in _row(form, '<input id="config-HELIX_API_RATE"', ">")
    assert 'id="config-review-submit"' in form
    assert ConfigVersion.objects.count() == 0


def test_what_differs_from_its_default_is_marked_and_the_pages_can_be_filtered(steward, monkeypatch):
    monkeypatch.setenv("HELIX_SEARCH_FUSION", "rrf")  # as the server started with it
    monkeypatch.setitem(reload._startup, "HELIX_SEARCH_FUSION", "rrf")
    monkeypatch.setenv("HELIX_SEARCH_RRF_K", "60")  # set, to its default: not a difference
    apply(steward, HELIX_SEARCH_SEMANTIC_WEIGHT="0.5")

    effective = steward.get(reverse("steward:config")).content.decode()
    assert 'data-changed="true"' in _row(effective, 'id="setting-HELIX_SEARCH_SEMANTIC_WEIGHT"', ">")
    assert 'data-changed="true"' in _row(effective, 'id="setting-HELIX_SEARCH_FUSION"', ">")
    assert 'data-changed="false"' in _row(effective, 'id="setting-HELIX_SEARCH_RRF_K"', ">")
    assert 'tag changed">changed</span>' in _row(effective, 'id="setting-HELIX_SEARCH_SEMANTIC_WEIGHT"', "</tr>")
    assert "changed</span>" not in _row(effective, 'id="setting-HELIX_SEARCH_RRF_K"', "</tr>")
    edit = steward.get(reverse("steward:config-edit")).content.decode()
    assert 'data-changed="true"' in _row(edit, 'id="edit-HELIX_SEARCH_SEMANTIC_WEIGHT"', ">")
    assert 'data-changed="false"' in _row(edit, 'id="edit-HELIX_API_RATE"', ">")
    for html, listed in ((effective, "config-effective"), (edit, "config-change")):
        assert f'id="{listed}-filter" data-filters="{listed}"' in html
        assert f'data-changed-only="{listed}"' in html
        assert "stewardship/config" in html and ".js" in html


def test_the_defaults_are_version_0_and_undo_the_first_patch(steward):
    apply(steward, HELIX_SEARCH_SEMANTIC_WEIGHT="0.5")
    versions = steward.get(reverse("steward:config-versions")).content.decode()
    row = _row(versions, 'id="config-version-0"', "</tr>")
    assert "the defaults" in row and 'id="config-restore-0"' in row

    reviewed = steward.post(reverse("steward:config-restore-review", args=[0]), **HTMX).content.decode()
    assert "restore the defaults" in reviewed
    assert "0.75" in _row(reviewed, 'id="diff-HELIX_SEARCH_SEMANTIC_WEIGHT"', "</tr>")
    restored = steward.post(reverse("steward:config-restore", args=[0]), {"base_version": 1}, **HTMX)

    assert restored.status_code == 200 and "(restoring the defaults)" in restored.content.decode()
    newest = ConfigVersion.objects.newest_first().first()
    assert (newest.number, newest.restored_from, newest.values) == (2, 0, {})
    page = steward.get(reverse("steward:config")).content.decode()
    assert 'id="setting-HELIX_SEARCH_SEMANTIC_WEIGHT" data-source="default"' in page
    versions = steward.get(reverse("steward:config-versions")).content.decode()
    assert "restores the defaults" in _row(versions, 'id="config-version-2"', "</tr>")
    assert 'id="config-restore-0"' not in versions, "nothing to restore: the defaults are in force"
    again = steward.post(reverse("steward:config-restore-review", args=[0]), **HTMX)
    assert (again.status_code, inline_error(again)["code"]) == (400, "no_change")


def test_a_key_set_by_the_environment_is_read_only(steward, monkeypatch):
    monkeypatch.setenv("HELIX_SEARCH_FUSION", "blend")
    form = steward.get(reverse("steward:config-edit")).content.decode()
    assert 'name="HELIX_SEARCH_FUSION" disabled' in form
    assert "set by the environment, which wins over a patch" in form
    refused = review(steward, HELIX_SEARCH_FUSION="rrf")
    assert (refused.status_code, refusal(refused)) == (400, ("set_by_environment", "HELIX_SEARCH_FUSION"))


def test_a_stale_review_is_refused(steward):
    apply(steward, HELIX_SEARCH_PPR_WEIGHT="0.2")
    stale = apply(steward, base_version=0, HELIX_SEARCH_SEMANTIC_WEIGHT="0.5")
    assert (stale.status_code, inline_error(stale)["code"]) == (409, "stale_review")
    refused = apply(steward, base_version="many", HELIX_SEARCH_SEMANTIC_WEIGHT="0.5")
    assert (refused.status_code, inline_error(refused)["field"]) == (400, "base_version")


def test_an_earlier_version_is_restored_after_its_review(steward):
    apply(steward, HELIX_SEARCH_SEMANTIC_WEIGHT="0.5")
    apply(steward, base_version=1, HELIX_SEARCH_SEMANTIC_WEIGHT="0.9")
    versions = steward.get(reverse("steward:config-versions")).content.decode()
    assert 'id="config-restore-1"' in versions and 'id="config-restore-2"' not in versions

    reviewed = steward.post(reverse("steward:config-restore-review", args=[1]), **HTMX).content.decode()
    assert 'id="diff-HELIX_SEARCH_SEMANTIC_WEIGHT"' in reviewed and "0.9" in reviewed
    restored = steward.post(reverse("steward:config-restore", args=[1]), {"base_version": 2}, **HTMX)

    assert restored.status_code == 200
    newest = ConfigVersion.objects.newest_first().first()
    assert (newest.number, newest.restored_from, newest.values) == (3, 1, {"HELIX_SEARCH_SEMANTIC_WEIGHT": 0.5})
    assert audit_lines("config.restore")[0]["after"] == {"HELIX_SEARCH_SEMANTIC_WEIGHT": 0.5}


def test_restoring_a_version_that_does_not_exist_is_a_404(steward):
    answer = steward.post(reverse("steward:config-restore-review", args=[42]), **HTMX)
    assert (answer.status_code, inline_error(answer)["code"]) == (404, "not_found")


def _row(html: str, start: str, end: str) -> str:
    begin = html.index(start)
    return html[begin : html.index(end, begin)]


def test_the_pages_show_each_settings_meaning_default_and_range_from_the_registry(steward):
    entry = SETTINGS["HELIX_SEARCH_BM25_K1"]
    effective = _row(
        steward.get(reverse("steward:config")).content.decode(), 'id="setting-HELIX_SEARCH_BM25_K1"', "</tr>"
    )
    assert escape(plain_text(entry.meaning)) in effective
    assert "default 1.5 · 0–10" in effective
    edit = steward.get(reverse("steward:config-edit")).content.decode()
    field = _row(edit, 'for="config-HELIX_LLM_TIMEOUT"', "</small>")
    assert "default 30.0" in field and "· 0.1–600 seconds" in field
    assert escape(plain_text(SETTINGS["HELIX_LLM_TIMEOUT"].meaning)) in field


def test_the_effective_page_never_shows_a_queue_url_that_may_carry_a_password(steward, settings, monkeypatch):
    monkeypatch.setenv("HELIX_QUEUE_URL", "redis://:hunter2@queue.internal:6379/0")
    settings.HELIX_QUEUE_URL = "redis://:hunter2@queue.internal:6379/0"
    html = steward.get(reverse("steward:config")).content.decode()
    assert 'id="setting-HELIX_QUEUE_URL"' in html
    assert "hunter2" not in html and "queue.internal" not in html


def test_a_value_written_as_code_in_a_meaning_keeps_its_characters(steward):
    effective = _row(
        steward.get(reverse("steward:config")).content.decode(), 'id="setting-HELIX_FORWARDED_ALLOW_IPS"', "</tr>"
    )

    assert "or *) whose X-Forwarded-For" in effective
    assert plain_text("**bold**, `a*b`, [the guide](docs/x.md)") == "bold, a*b, the guide"
