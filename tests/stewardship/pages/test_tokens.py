"""API tokens on a principal's page: the raw token is in the answer that issues it and nowhere
else, ever (not on later pages, not in the audit trail); it works against the API at once;
revoking it refuses it at once; the page shows when it was last used."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone

from rbac.models import ApiToken
from rbac.services import token_issue
from stewardship.models import AuditEntry
from tests.factories import bearer_client, make_agent_with_token, make_principal
from tests.stewardship.pages.conftest import HTMX, audit_lines, inline_error

pytestmark = pytest.mark.django_db

RAW = re.compile(r"hxt_[0-9a-f]{8}_[A-Za-z0-9_-]{20,}")


def _issue(steward, username: str, name: str, **headers):
    return steward.post(f"/steward/people/{username}/tokens/", {"name": name}, **headers)


def test_the_raw_token_is_shown_once_and_opens_the_api(steward):
    make_principal("scout")

    answer = _issue(steward, "scout", "laptop", **HTMX)

    html = answer.content.decode()
    shown = RAW.findall(html)
    assert len(shown) == 1, "the raw token appears exactly once in the answer"
    assert "Copy this token now: it will not be shown again." in html
    assert answer["HX-Trigger"] == "token-issued"
    assert "no-store" in answer["Cache-Control"]
    raw = shown[0]
    listed = bearer_client(raw).get("/api/v1/list_memories", {"actor_id": "scout", "user_id": "bob"})
    assert listed.status_code == 200 and listed.json()["ok"] is True
    assert raw not in steward.get("/steward/people/scout/").content.decode()
    assert raw not in steward.get("/steward/people/", **HTMX).content.decode()
    assert raw not in steward.get("/steward/audit/").content.decode()
    assert not any(raw in str(entry.before) + str(entry.after) + entry.target for entry in AuditEntry.objects.all())
    token = ApiToken.objects.get(user__username="scout")
    assert audit_lines("token.issue") == [
        {
            "actor": "ada",
            "target": "principal:scout",
            "before": None,
            "after": {"name": "laptop", "prefix": token.prefix},
        }
    ]
    assert raw.startswith(f"hxt_{token.prefix}_")


def test_a_plain_form_post_shows_the_token_on_the_page_instead_of_redirecting(steward):
    make_principal("scout")

    answer = _issue(steward, "scout", "laptop")

    assert answer.status_code == 200, "a redirect would lose the token"
    assert len(RAW.findall(answer.content.decode())) == 1
    assert "<html" in answer.content.decode() and "no-store" in answer["Cache-Control"]


def test_an_agent_added_with_a_first_token_sees_it_once(steward):
    answer = steward.post("/steward/people/", {"username": "scout", "kind": "agent", "token_name": "first"}, **HTMX)

    shown = RAW.findall(answer.content.decode())
    assert len(shown) == 1
    assert bearer_client(shown[0]).get("/api/v1/whoami").json()["actor_id"] == "scout"
    assert [line["after"]["name"] for line in audit_lines("token.issue")] == ["first"]
    assert shown[0] not in steward.get("/steward/people/scout/").content.decode()


def test_a_token_needs_a_name(steward):
    make_principal("scout")

    answer = _issue(steward, "scout", "", **HTMX)

    assert answer.status_code == 400
    assert (inline_error(answer)["code"], inline_error(answer)["field"]) == ("required", "name")
    assert not ApiToken.objects.exists() and audit_lines("token.issue") == []


def test_revoking_refuses_the_token_at_once_and_is_audited_once(steward):
    _, issued = make_agent_with_token("scout")
    api = bearer_client(issued.raw)
    assert api.get("/api/v1/whoami").status_code == 200
    url = f"/steward/people/scout/tokens/{issued.token.pk}/revoke/"

    answer = steward.post(url, **HTMX)
    again = steward.post(url, **HTMX)

    assert answer.status_code == 200 and answer["HX-Trigger"] == "token-revoked"
    row = answer.content.decode()
    assert row.lstrip().startswith(f'<tr id="token-{issued.token.prefix}">') and "revoked" in row
    assert "Revoke</button>" not in row
    assert api.get("/api/v1/whoami").status_code == 401
    assert again.status_code == 200
    assert [(line["before"]["revoked_at"], line["after"]["prefix"]) for line in audit_lines("token.revoke")] == [
        (None, issued.token.prefix)
    ], "revoking a revoked token changes nothing and writes no line"


def test_a_token_of_someone_else_is_not_found_under_this_principal(steward):
    _, issued = make_agent_with_token("scout")
    make_principal("other")

    assert steward.post(f"/steward/people/other/tokens/{issued.token.pk}/revoke/").status_code == 404
    assert ApiToken.objects.active().count() == 1


def test_the_page_shows_when_a_token_was_last_used(steward):
    _, issued = make_agent_with_token("scout")
    before = steward.get("/steward/people/scout/").content.decode()
    bearer_client(issued.raw).get("/api/v1/whoami")

    after = steward.get("/steward/people/scout/").content.decode()

    row = re.compile(rf'<tr id="token-{issued.token.prefix}">.*?</tr>', re.S)
    used = timezone.localtime(ApiToken.objects.get(pk=issued.token.pk).last_used_at)
    assert "<td>never</td>" in row.search(before).group(0)
    assert f"<td>{used:%Y-%m-%d %H:%M}</td>" in row.search(after).group(0)


def test_tokens_come_a_page_at_a_time(steward):
    scout = make_principal("scout")
    for n in range(30):
        token_issue(user=scout.user, name=f"t{n:02d}")

    page = steward.get("/steward/people/scout/").content.decode()
    more = re.search(r'hx-get="(/steward/people/scout/\?tokens=\d+)"', page)
    rest = steward.get(more.group(1), **HTMX).content.decode()

    names = re.findall(r'<tr id="token-[0-9a-f]+">\s*<td>(t\d+)</td>', page + rest)
    assert names == [f"t{n:02d}" for n in range(29, -1, -1)]
    assert "<html" not in rest


def test_revoking_all_refuses_every_active_token_at_once_with_one_audit_line(steward):
    _, first = make_agent_with_token("scout")
    second = token_issue(user=first.token.user, name="ci")
    other = make_agent_with_token("other")[1]
    apis = [bearer_client(first.raw), bearer_client(second.raw)]

    answer = steward.post("/steward/people/scout/tokens/revoke-all/", **HTMX)
    again = steward.post("/steward/people/scout/tokens/revoke-all/", **HTMX)

    assert answer.status_code == 200 and answer["HX-Trigger"] == "tokens-revoked"
    assert "2 tokens revoked." in answer.content.decode()
    assert "Revoke all tokens" not in answer.content.decode(), "nothing left to revoke"
    assert [api.get("/api/v1/whoami").status_code for api in apis] == [401, 401]
    assert bearer_client(other.raw).get("/api/v1/whoami").status_code == 200, "another principal's token works on"
    assert "No token was active." in again.content.decode()
    (line,) = audit_lines("token.revoke_all")
    assert line["before"]["active"] == [
        {"name": first.token.name, "prefix": first.token.prefix},
        {"name": "ci", "prefix": second.token.prefix},
    ]
    assert line["after"] == {"active": [], "revoked": 2}
    assert first.raw not in str(line) and second.raw not in str(line)
