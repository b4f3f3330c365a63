"""The agent-level add fixtures are shared with the outbox tests."""

from tests.outbox.conftest import buffered, run_callbacks, submit  # noqa: F401
