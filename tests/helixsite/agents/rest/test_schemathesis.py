"""Property-based calls generated from /api/schema/ against a live server: no input, however
odd, makes the server answer 5xx, and every answer matches its documented schema."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rbac.models import Role
from tests.factories import grant, make_agent_with_token, make_workspace

pytestmark = pytest.mark.slow


def test_generated_calls_never_get_a_server_error(live_server, transactional_db, tmp_path):
    workspace = make_workspace("team")
    principal, issued = make_agent_with_token("fuzzer")
    grant(principal, workspace, Role.WORKER)
    command = [
        str(Path(sys.executable).with_name("schemathesis")),
        "run",
        f"{live_server.url}/api/schema/",
        "--checks",
        "not_a_server_error,response_schema_conformance,content_type_conformance",
        "--header",
        f"Authorization: Bearer {issued.raw}",
        "--max-examples",
        "12",
        "--seed",
        "7",
        "--phases",
        "examples,coverage,fuzzing",
        "--request-timeout",
        "30",
        "--generation-database",
        "none",
    ]

    run = subprocess.run(command, capture_output=True, text=True, timeout=900, cwd=tmp_path)

    report = run.stdout[-6000:] + run.stderr[-2000:]
    assert run.returncode == 0, report
    assert "No issues found" in run.stdout or "passed" in run.stdout, report
