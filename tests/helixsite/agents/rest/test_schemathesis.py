"""Property-based calls generated from /api/schema/ against a live server: no input, however
odd, makes the server answer 5xx, and every answer matches its documented schema."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from helixsite.agents.catalogue import tool_classes
from rbac.models import Role
from tests.factories import grant, make_agent_with_token, make_workspace

pytestmark = pytest.mark.slow

PHASES = ("examples", "coverage", "fuzzing")


def run_verdict(report_dir: Path) -> dict[str, Any]:
    """The run as a whole, from schemathesis's JSON report."""
    (path,) = report_dir.glob("json-*.json")
    return json.loads(path.read_text())


def scenario_outcomes(report_dir: Path) -> dict[tuple[str, str], tuple[str, int]]:
    """(operation, phase) → (status, test cases run), from the NDJSON event log (the JSON
    report only has totals). An operation is a label like "POST /api/v1/add_memory"."""
    (path,) = report_dir.glob("ndjson-*.ndjson")
    outcomes: dict[tuple[str, str], tuple[str, int]] = {}
    with path.open() as events:
        for line in events:
            if finished := json.loads(line).get("ScenarioFinished"):
                recorder = finished["recorder"]
                outcomes[recorder["label"], finished["phase"]] = (finished["status"], len(recorder.get("cases", {})))
    return outcomes


def expected_operations() -> set[str]:
    """Every tool answers POST; the read tools answer GET too."""
    tools = tool_classes()
    return {f"POST /api/v1/{tool.tool}" for tool in tools} | {
        f"GET /api/v1/{tool.tool}" for tool in tools if tool.reads
    }


def assert_every_operation_ran_clean(reports: Path, output: str) -> None:
    """The run finished, tested every operation of the schema with cases of its own in every
    phase, and no check failed or errored anywhere."""
    verdict = run_verdict(reports)
    operations = verdict["operations"]
    assert (verdict["complete"], verdict["stop_reason"]) == (True, "completed"), output
    assert operations["tested"] == operations["selected"] == operations["total"], operations
    assert (operations["errored"], operations["skipped"]) == (0, 0), operations
    assert {phase: verdict["phases"][phase]["status"] for phase in PHASES} == dict.fromkeys(PHASES, "success")
    assert (verdict["failures"], verdict["errors"]) == ([], []), output
    cases = verdict["test_cases"]
    assert (cases["with_failures"], cases["errored"], cases["without_checks"]) == (0, 0, 0), cases

    outcomes = scenario_outcomes(reports)
    tested = {operation for operation, _ in outcomes}
    assert expected_operations() <= tested, "every tool is in the schema and was run"
    assert len(tested) == operations["total"]
    assert sum(count for _, count in outcomes.values()) == cases["generated"]
    # Every operation ran cases of its own in every phase; only a GET has no documented
    # example to replay (examples document request bodies).
    ran = {(operation, phase): (status, count > 0) for (operation, phase), (status, count) in outcomes.items()}
    assert ran == {
        (operation, phase): ("skip", False)
        if (phase, operation.split()[0]) == ("examples", "GET")
        else ("success", True)
        for operation in tested
        for phase in PHASES
    }


def test_generated_calls_never_get_a_server_error(live_server, transactional_db, tmp_path, monkeypatch):
    # The live server keeps a database connection for as long as a client's connection lasts,
    # as a served process keeps its pooled ones, instead of opening one per call.
    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", None)
    workspace = make_workspace("team")
    principal, issued = make_agent_with_token("fuzzer")
    grant(principal, workspace, Role.WORKER)
    reports = tmp_path / "reports"
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
        ",".join(PHASES),
        "--request-timeout",
        "30",
        "--generation-database",
        "none",
        "--report",
        "json,ndjson",
        "--report-dir",
        str(reports),
    ]

    run = subprocess.run(command, capture_output=True, text=True, timeout=900, cwd=tmp_path)

    output = run.stdout[-6000:] + run.stderr[-2000:]
    assert run.returncode == 0, output
    assert_every_operation_ran_clean(reports, output)
