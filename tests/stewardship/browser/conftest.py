"""Page tests in a real browser: Debian's chromium driven by Playwright (pytest-playwright's
``page``), against a live server on the test database.

``HELIX_SCREENSHOTS=1`` saves a screenshot of each page the tests visit to docs/screenshots/
(the guide to the room, docs/stewardship.md, shows them)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from rbac.models import Principal
from tests.factories import make_principal

# The sync Playwright API runs an event loop in the test's thread; the test's own database
# calls are still plain synchronous ones.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

PASSWORD = "correct horse battery staple"
SCREENSHOTS = Path(__file__).resolve().parents[3] / "docs" / "screenshots"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    chromium = shutil.which("chromium")
    if chromium is None:
        raise RuntimeError("chromium is not installed; `make test` installs it (apt-get install chromium)")
    return {**browser_type_launch_args, "executable_path": chromium}


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
            page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)

    return _screenshot
