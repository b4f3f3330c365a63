"""mem0's npm client (``mem0ai``, the version tests/mem0/node/package-lock.json pins) under Node,
unchanged, against Helixsite's mem0 door: tests/mem0/node/run.mjs adds and searches and prints
what each call answered; this asserts on it. ``make test`` installs the client (``npm ci``)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

NODE_DIR = Path(__file__).parent / "node"


def run_node_client(door, tmp_path: Path) -> dict[str, Any]:
    node = shutil.which("node")
    assert node, "This test runs mem0's npm client: install Node 20 (README)."
    assert (NODE_DIR / "node_modules" / "mem0ai").is_dir(), (
        "mem0's npm client is not installed: run `make node-client`."
    )
    env = {
        **os.environ,
        # The client reports usage to PostHog unless this is exactly "false" (its config file
        # under MEM0_DIR is written only when it does).
        "MEM0_TELEMETRY": "false",
        "MEM0_DIR": str(tmp_path),
        "HELIX_MEM0_HOST": door.url,
        "HELIX_MEM0_TOKEN": door.tokens["writer"],
        "HELIX_MEM0_OUTSIDER_TOKEN": door.tokens["outsider"],
    }
    done = subprocess.run([node, "run.mjs"], cwd=NODE_DIR, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_npm_client_adds_searches_and_is_refused_another_workspace(door, tmp_path):
    answers = run_node_client(door, tmp_path)

    verbatim, inferred = answers["verbatim"]["results"], answers["inferred"]["results"]
    assert [e["event"] for e in verbatim] == ["ADD", "ADD", "ADD"]
    assert verbatim[0]["memory"] == "I moved to Lisbon last spring."
    assert inferred and {e["event"] for e in inferred} == {"ADD"}
    assert any("bees" in e["memory"] for e in inferred)

    in_the_run = answers["inTheRun"]["results"]
    assert in_the_run[0]["memory"] == "I moved to Lisbon last spring."
    assert (in_the_run[0]["userId"], in_the_run[0]["agentId"], in_the_run[0]["metadata"]) == (
        "alice",
        "coach",
        {"topic": "home"},
    )
    assert {r["runId"] for r in in_the_run} == {"run-1"}
    # Bob moved to Lisbon too, but the filter holds the search to alice.
    assert answers["bob"]["results"][0]["event"] == "ADD"
    assert {r["userId"] for r in answers["alicesOnly"]["results"]} == {"alice"}
    assert "bees" in answers["hobbies"]["results"][0]["memory"]
    assert {r["metadata"]["topic"] for r in answers["hobbies"]["results"]} == {"hobby"}
    assert answers["alices"]["count"] == len(verbatim) + len(inferred)

    refused = answers["refused"]
    assert (refused["get"]["name"], refused["get"]["errorCode"]) == ("MemoryNotFoundError", "HTTP_404")
    assert refused["delete"]["name"] == "MemoryNotFoundError"
    for in_team in (refused["searchInTeam"], refused["addInTeam"]):
        assert in_team["name"] == "MemoryNotFoundError"
        assert json.loads(in_team["message"])["detail"] == "Workspace not found."
    assert (refused["unknownToken"]["name"], refused["unknownToken"]["errorCode"]) == (
        "AuthenticationError",
        "HTTP_401",
    )
    assert answers["afterRefusals"]["memory"] == "I moved to Lisbon last spring."

    # The deprecated deleteUser (DELETE /v1/entities/<type>/<id>/) forgets what that user holds.
    assert answers["bobDeleted"]["message"] == "Entity deleted successfully."
    assert answers["bobsAfter"]["count"] == 0
