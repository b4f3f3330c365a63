"""The web server believes X-Forwarded-For only from the proxies HELIX_FORWARDED_ALLOW_IPS names:
otherwise anyone on the machine could spread failed logins over addresses they make up."""

from __future__ import annotations

import contextlib
import http.cookiejar
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from typing import IO

import pytest

from rbac.services import principal_create
from tests.helixsite.agents.mcp.conftest import ROOT, free_port, server_env

pytestmark = pytest.mark.slow


@pytest.fixture
def web_server(transactional_db) -> Iterator[Callable[..., str]]:
    """Start the web server on the test database with the given options; its base URL."""
    for username in ("alice", "bob", "carol"):
        principal_create(username=username, is_global_admin=True, password="correct horse battery staple")
    with contextlib.ExitStack() as stack:

        def start(*options: str) -> str:
            port = free_port()
            command = [sys.executable, "-m", "helixsite.web", "--host", "127.0.0.1", "--port", str(port), *options]
            # Test settings: static files from the apps (no collectstatic) and the test password hasher.
            env = server_env(DJANGO_SETTINGS_MODULE="helixsite.settings.test", HELIX_LOGIN_ADDRESS_FAILURES="2")
            log = stack.enter_context(tempfile.TemporaryFile("w+"))
            process = subprocess.Popen(
                command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
            stack.callback(_stop, process, log)
            _wait_until_serving(f"http://127.0.0.1:{port}", process)
            return f"http://127.0.0.1:{port}"

        yield start


def _stop(process: subprocess.Popen, log: IO[str]) -> None:
    process.terminate()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=30)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    log.seek(0)
    print(log.read())  # shown when the test fails


def _wait_until_serving(base: str, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        assert process.poll() is None, "the web server exited"
        with (
            contextlib.suppress(urllib.error.URLError, ConnectionError),
            urllib.request.urlopen(f"{base}/admin/login/", timeout=60) as response,
        ):
            if response.status == 200:
                return
        time.sleep(0.3)
    raise AssertionError("the web server did not answer")


def failed_login(base: str, username: str, claimed_address: str) -> int:
    """A wrong password for ``username``, sent with X-Forwarded-For naming ``claimed_address``."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    form = opener.open(f"{base}/admin/login/").read().decode()
    csrf = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
    data = urllib.parse.urlencode({"username": username, "password": "wrong", "csrfmiddlewaretoken": csrf}).encode()
    request = urllib.request.Request(f"{base}/admin/login/", data=data, headers={"X-Forwarded-For": claimed_address})
    try:
        with opener.open(request) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_made_up_forwarded_addresses_do_not_escape_the_address_budget(web_server):
    base = web_server()

    statuses = [failed_login(base, user, f"203.0.113.{n}") for n, user in enumerate(("alice", "bob", "carol"))]

    assert statuses == [200, 200, 429], "the peer's own address spent its budget of 2"


def test_a_named_proxy_is_believed(web_server):
    base = web_server("--forwarded-allow-ips", "127.0.0.1")

    statuses = [failed_login(base, user, f"203.0.113.{n}") for n, user in enumerate(("alice", "bob", "carol"))]

    assert statuses == [200, 200, 200], "each client address the proxy names has its own budget"
