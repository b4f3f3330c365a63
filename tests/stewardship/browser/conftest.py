"""Page tests in a real browser: Debian's chromium driven by Playwright (``browser_page`` of
tests/conftest.py), against a live server on the test database.

``HELIX_SCREENSHOTS=1`` saves a screenshot of each page the tests visit to docs/screenshots/
(the guide to the room, docs/stewardship.md, shows them)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from rbac.models import Principal
from tests.factories import make_principal

PASSWORD = "correct horse battery staple"
SCREENSHOTS = Path(__file__).resolve().parents[3] / "docs" / "screenshots"


@pytest.fixture
def page(browser_page):
    """Debian's chromium through Playwright, against the live server (tests/conftest.py)."""
    return browser_page


@pytest.fixture
def problems(page) -> Iterator[list[str]]:
    """Console errors and refused resources (a Content-Security-Policy violation is both): a page
    test ends by asserting there were none."""
    found: list[str] = []

    def console(message) -> None:
        # A failed load is reported below with its address.
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            found.append(message.text)

    page.on("console", console)
    page.on("pageerror", lambda error: found.append(str(error)))
    page.on(
        "response",
        lambda response: found.append(f"{response.status} {response.url}") if response.status >= 400 else None,
    )
    yield found


def person(username: str, *, admin: bool) -> Principal:
    principal = make_principal(username, kind=Principal.Kind.HUMAN, admin=admin)
    principal.user.set_password(PASSWORD)
    principal.user.save()
    return principal


@pytest.fixture
def log_in(page, live_server) -> Callable[[str], None]:
    def _log_in(username: str) -> None:
        page.goto(f"{live_server.url}/steward/login/")
        page.get_by_label("Username").fill(username)
        page.get_by_label("Password").fill(PASSWORD)
        page.get_by_role("button", name="Log in").click()
        page.wait_for_load_state()

    return _log_in


@pytest.fixture
def screenshot(page) -> Callable[[str], None]:
    def _screenshot(name: str) -> None:
        if os.environ.get("HELIX_SCREENSHOTS"):
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            # Hiding the text caret injects a <style> the page's policy refuses (a console error).
            page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True, caret="initial")

    return _screenshot
