"""The backfill: `manage.py file_memories` files what is in no category yet, with a progress bar."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from memory.categories.models import Filing
from rbac.models import Role
from rbac.policy import write_domain_resolve
from tests.factories import grant, make_memory, make_principal, make_workspace

pytestmark = pytest.mark.django_db


@pytest.fixture
def unfiled(db) -> list[str]:
    writer = make_principal("writer")
    grant(writer, make_workspace("team"), Role.WORKER)
    domain = write_domain_resolve(actor=writer.user, group_id="team")
    texts = ["Bob is allergic to peanuts.", "Bob deploys with Terraform.", "Bob's sister is a doctor."]
    texts += [f"Bob noted item {i}." for i in range(4)]
    return [str(make_memory(author=writer, domain=domain, content=text).id) for text in texts]


def run(*args: str) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("file_memories", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_every_unfiled_memory_is_filed_in_batches_with_a_progress_bar(unfiled):
    out, err = run("--batch-size", "3")

    assert out.strip() == "Filed 7 memories: 7 by rules."
    assert "7/7" in err  # tqdm's bar, on stderr
    assert {str(i) for i in Filing.objects.values_list("memory_id", flat=True)} == set(unfiled)


def test_running_it_again_files_nothing(unfiled):
    run()
    before = Filing.objects.count()

    out, _ = run()

    assert out.strip() == "Filed 0 memories: nothing to file."
    assert Filing.objects.count() == before


def test_a_limit_stops_early_and_the_next_run_goes_on(unfiled):
    assert run("--limit", "5", "--batch-size", "2")[0].strip() == "Filed 5 memories: 5 by rules."
    assert run()[0].strip() == "Filed 2 memories: 2 by rules."


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--batch-size", "0"), "--batch-size must be between 1 and 5000."),
        (("--limit", "-1"), "--limit must be 0 or more."),
        (("--llm",), "--llm needs an LLM: HELIX_LLM is none."),
    ],
)
def test_bad_options_are_refused_with_a_clear_line(unfiled, args, message):
    with pytest.raises(CommandError, match=message):
        run(*args)
