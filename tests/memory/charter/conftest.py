"""The agent-level add fixtures are shared with the outbox tests."""

from tests.memory.outbox.conftest import buffered, run_callbacks, submit  # noqa: F401
