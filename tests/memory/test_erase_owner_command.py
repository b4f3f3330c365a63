"""manage.py erase_owner as an operator runs it: counts first, then erasure only with --yes or the
owner's id typed at a terminal, and the verification report."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from memory.models import IngestRun, Memory, MemoryHistory
from rbac.models import Role
from tests.factories import grant, make_workspace

pytestmark = pytest.mark.django_db


class Terminal(io.StringIO):
    """Standard input from a person at a terminal, who types ``answer``."""

    def isatty(self) -> bool:
        return True


def run(*args: str, stdin: io.StringIO | None = None) -> str:
    out = io.StringIO()
    call_command("erase_owner", *args, stdout=out, stdin=stdin or io.StringIO())
    return out.getvalue()


@pytest.fixture
def stored(team, add):
    grant(team["writer"].principal, make_workspace("lab"), Role.WORKER)
    add("I live in Osaka.", user_id="alice")
    add("I prefer jasmine tea.", user_id="alice")
    add("I now prefer barley coffee.", user_id="alice")
    add("I collect vintage fountain pens.", user_id="alice", group_id="lab")
    add("I live in Lisbon.", user_id="bob")


def alice_rows() -> tuple[int, int, int]:
    return (
        Memory.objects.filter(user_id="alice").count(),
        IngestRun.objects.filter(user_id="alice").count(),
        MemoryHistory.objects.filter(memory__user_id="alice").count(),
    )


def test_with_yes_it_erases_and_prints_the_verification(stored):
    out = run("alice", "--yes")

    assert "Stored about alice" in out and "memories" in out and "ingest runs" in out
    assert "Verification PASSED: nothing of theirs is left" in out
    assert "Searched" in out and "erased texts" in out
    assert alice_rows() == (0, 0, 0)
    assert Memory.objects.filter(user_id="bob").count() == 1


def test_in_one_workspace_it_keeps_the_others(stored):
    out = run("alice", "--workspace", "team", "--yes")

    assert "Stored about alice in workspace team" in out and "PASSED" in out
    assert list(Memory.objects.filter(user_id="alice").values_list("content", flat=True)) == [
        "alice collects vintage fountain pens."
    ]


def test_without_yes_and_without_a_terminal_it_refuses_and_erases_nothing(stored):
    before = alice_rows()

    with pytest.raises(CommandError, match="Not a terminal, so nothing was erased: run again with --yes"):
        run("alice")

    assert alice_rows() == before


def test_at_a_terminal_it_erases_once_the_owner_id_is_typed(stored):
    out = run("alice", stdin=Terminal("alice\n"))

    assert "Type the owner's id, alice, to erase all of this:" in out and "PASSED" in out
    assert alice_rows() == (0, 0, 0)


def test_at_a_terminal_anything_else_erases_nothing(stored):
    before = alice_rows()

    with pytest.raises(CommandError, match="Not confirmed: nothing was erased."):
        run("alice", stdin=Terminal("yes\n"))

    assert alice_rows() == before


def test_an_unknown_workspace_is_a_clear_error(stored):
    with pytest.raises(CommandError, match=r"No workspace with the slug nope. \(not_found\)"):
        run("alice", "--workspace", "nope", "--yes")

    assert alice_rows()[0] == 4


def test_nothing_to_erase_says_so(stored):
    assert run("nobody", "--yes") == "Nothing is stored about nobody: nothing to erase.\n"
    assert run("bob", "--workspace", "lab") == "Nothing is stored about bob in workspace lab: nothing to erase.\n"
