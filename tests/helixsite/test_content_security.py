"""Every page carries a Content-Security-Policy of our own origin only, and every page we serve
works under it: no inline script or style, nothing loaded from elsewhere."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from helixsite.content_security import POLICY
from rbac.policy import SYSTEM
from rbac.services import principal_create, workspace_create

PASSWORD = "correct horse battery staple"


@pytest.fixture
def admin_client(db) -> Client:
    principal_create(username="root", is_global_admin=True, password=PASSWORD)
    client = Client()
    client.login(username="root", password=PASSWORD)
    return client


@pytest.mark.parametrize(
    "path",
    [
        "/admin/",
        "/admin/rbac/principal/",
        "/admin/rbac/workspace/add/",
        "/api/docs/",
        "/api/docs/?script",
        "/api/v1/whoami",
        "/healthz",
        "/no-such-page",
    ],
)
def test_every_response_carries_the_policy(admin_client, path):
    response = admin_client.get(path, HTTP_ACCEPT="text/html")

    assert response["Content-Security-Policy"] == POLICY
    assert "default-src 'self'" in POLICY and "frame-ancestors 'none'" in POLICY and "unsafe" not in POLICY


def test_the_login_page_carries_the_policy(client, db):
    assert client.get("/admin/login/")["Content-Security-Policy"] == POLICY


def test_the_api_docs_page_has_no_inline_script_or_style_and_loads_nothing_from_elsewhere(client, db):
    page = client.get("/api/docs/").content.decode()

    assert "<style" not in page
    assert all(" src=" in tag for tag in re.findall(r"<script[^>]*>", page)), "every script is a file"
    assert not re.search(r"""(src|href)=["']https?://""", page), "everything comes from this server"
    script = client.get("/api/docs/?script")
    assert script["Content-Type"].startswith("application/javascript") and b"SwaggerUIBundle" in script.content


# Recorded in the page before any of its own scripts run, so a refusal on load is caught too.
RECORD_VIOLATIONS = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.cspViolations.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`);
});
"""


@pytest.mark.slow
def test_admin_and_api_pages_work_in_a_browser_under_the_policy(live_server, browser_page):
    base, page = live_server.url, browser_page
    principal_create(username="root", is_global_admin=True, password=PASSWORD)
    workspace_create(actor=SYSTEM, name="Team", slug="team")
    problems: list[str] = []
    page.on("console", lambda m: m.type == "error" and problems.append(f"{m.text} ({m.location['url']})"))
    # Chromium asks every site for /favicon.ico, which we do not serve: a 404, not the policy's doing.
    page.route("**/favicon.ico", lambda route: route.fulfill(status=204))
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.add_init_script(RECORD_VIOLATIONS)

    def visit(path: str) -> None:
        response = page.goto(f"{base}{path}")
        assert response.status == 200, path
        assert response.headers["content-security-policy"] == POLICY, path
        page.wait_for_load_state("networkidle")
        problems.extend(page.evaluate("window.cspViolations"))

    visit("/admin/login/")
    page.fill("#id_username", "root")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    page.wait_for_url(f"{base}/admin/")
    problems.extend(page.evaluate("window.cspViolations"))

    visit("/admin/rbac/principal/")
    page.check("#action-toggle")  # the changelist's script runs: selecting all counts them
    assert "1 of 1 selected" in page.text_content(".action-counter")
    visit("/admin/rbac/workspace/add/")
    theme = page.get_attribute("html", "data-theme")
    page.click("button.theme-toggle")  # the admin's own script runs on a change form too
    assert page.get_attribute("html", "data-theme") != theme
    visit("/admin/rbac/principal/add/")
    assert page.locator("#add_id_user").is_visible(), "the related-object links are drawn"
    visit("/api/v1/whoami")
    assert "root" in page.text_content("body"), "the browsable API shows the answer"
    visit("/api/docs/")
    page.wait_for_selector(".opblock-summary-path")  # Swagger UI ran and rendered the operations
    assert "/api/v1/whoami" in page.text_content("#swagger-ui")

    assert problems == [], "\n".join(problems)
