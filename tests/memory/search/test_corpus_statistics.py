"""BM25's corpus statistics, kept as memories and chunks change (memory.search.corpus): after a
mixed workload they equal a count made afresh from the rows, before and after the fold, and a
search scores with them at once."""

from __future__ import annotations

import io
from collections import Counter, defaultdict
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import TestCase
from django.utils import timezone

from memory.documents.models import Chunk
from memory.erasure.services import owner_erase
from memory.lifecycle import lifecycle_sweep
from memory.models import CorpusTerm, CorpusTermDelta, Memory
from memory.search.corpus import (
    CHUNKS,
    MEMORIES,
    Corpus,
    corpus_fold,
    statistics,
    statistics_of_text,
    statistics_of_texts,
)
from memory.services.corrections import memory_restore
from rbac.models import Role
from rbac.policy import write_domain_resolve
from tests.factories import Caller, bearer_client, grant, make_agent_with_token, make_principal, make_workspace

pytestmark = pytest.mark.django_db


@pytest.fixture
def agents():
    crew, other = make_workspace("crew"), make_workspace("other")
    callers = []
    for name, workspace in (("scribe", crew), ("clerk", other)):
        principal, token = make_agent_with_token(name)
        grant(principal, workspace, Role.WORKER)
        client = bearer_client(token.raw)
        client.defaults["HTTP_HOST"] = "127.0.0.1"
        callers.append(Caller(name, client))
    return callers, (crew, other)


def remember(agent: Caller, user_id: str, group: str, message: str, **options) -> str:
    answer = agent.call("add_memory", user_id=user_id, group_id=group, message=message, extract=False, **options)
    assert answer.status_code == 200, answer.json()
    (memory_id,) = answer.json()["memory_ids"]
    return memory_id


def add_document(agent: Caller, **arguments):
    """add_document, and the worker's storing of its chunks (run when the call commits)."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        return agent.call("add_document", **arguments)


def recounted(corpus: Corpus) -> dict[tuple, tuple[int, int, int]]:
    """(visibility, term) → (rows, own length, context length), counted in Python from the rows."""
    if corpus is MEMORIES:
        sql = """SELECT visible_in, tsvector_to_array(search_vector), length(search_vector), length(context_vector)
                 FROM memory_memory WHERE deleted_at IS NULL"""
    else:
        sql = """SELECT visible_in, tsvector_to_array(search_vector), length(search_vector), 0
                 FROM documents_chunk WHERE deleted_at IS NULL AND superseded_at IS NULL"""
    counts: dict[tuple, list[int]] = defaultdict(lambda: [0, 0, 0])
    with connection.cursor() as cursor:
        cursor.execute(sql)
        for visible_in, lexemes, own, context in cursor.fetchall():
            key = tuple(visible_in)
            total = counts[(key, "")]
            total[0], total[1], total[2] = total[0] + 1, total[1] + own, total[2] + context
            for lexeme in lexemes:
                counts[(key, lexeme)][0] += 1
    return {key: tuple(value) for key, value in counts.items()}  # type: ignore[misc]


def kept(corpus: Corpus) -> dict[tuple, tuple[int, int, int]]:
    """The same, as the statistics hold it: totals plus deltas not folded yet, zeros left out."""
    sums: Counter = Counter()
    for model in (CorpusTerm, CorpusTermDelta):
        for row in model.objects.filter(corpus=corpus.name):
            key = (tuple(row.visibility), row.term)
            sums[(*key, 0)] += row.documents
            sums[(*key, 1)] += row.own_length
            sums[(*key, 2)] += row.context_length
    keys = {(v, t) for v, t, _ in sums}
    found = {key: (sums[(*key, 0)], sums[(*key, 1)], sums[(*key, 2)]) for key in keys}
    return {key: value for key, value in found.items() if value[0] != 0}


def assert_exact():
    for corpus in (MEMORIES, CHUNKS):
        expected = recounted(corpus)
        assert kept(corpus) == expected, corpus.name
        assert expected, f"the workload left no {corpus.name} to count"


def test_the_statistics_stay_exact_through_a_mixed_workload(agents):
    (scribe, clerk), (crew, other) = agents
    admin = make_principal("root", admin=True).user
    kept_ids = [
        remember(scribe, "ada", "crew", "Ada keeps the deploy runbook for the payments service."),
        remember(scribe, "ada", "crew", "Ada prefers green tea in the morning."),
        remember(scribe, "bob", "crew", "Bob rotates the staging credentials every Friday."),
        remember(clerk, "cyd", "other", "Cyd keeps bees on the roof of the payments office."),
    ]
    expiring = remember(scribe, "ada", "crew", "Ada is at the offsite in Lisbon this week.", ttl=3600)
    documents = []
    for title, text in (("Runbook", "# Deploy\n\nCanary first.\n\n## Rollback\n\nRun helm rollback."),) * 1:
        answer = add_document(scribe, user_id="ada", group_id="crew", title=title, text=text)
        assert answer.status_code == 200, answer.json()
        documents.append(answer.json()["document"]["id"])
    assert_exact()

    corpus_fold()
    assert not CorpusTermDelta.objects.exists()
    assert_exact()

    # Many rows in one statement, of two visibility sets; edits; forgets and a restore.
    domain = write_domain_resolve(actor=admin, group_id="crew")
    Memory.objects.bulk_create(
        [
            Memory(content=f"Imported note {i} about tea and bees.", content_key=f"k{i}", user_id="dee",
                   author=admin, rbac_scope=domain.scope, visible_in=[crew.id] if i % 2 else [crew.id, other.id],
                   embedding=[1.0] + [0.0] * 383)
            for i in range(6)
        ]
    )  # fmt: skip
    Memory.objects.filter(pk=kept_ids[1]).update(content="Ada prefers black coffee in the morning.")
    Memory.objects.filter(pk=kept_ids[0]).update(context="Earlier she said the runbook moved to the wiki.")
    assert scribe.call("forget_memory", memory_id=kept_ids[2]).status_code == 200
    assert clerk.call("forget_memory", memory_id=kept_ids[3]).status_code == 200
    memory_restore(actor=admin, memory_id=kept_ids[3])
    Memory.objects.filter(user_id="dee").update(visible_in=[other.id])  # shared elsewhere, every row at once
    answer = add_document(
        scribe, user_id="ada", group_id="crew", title="Runbook",
        text="# Deploy\n\nCanary first, always.\n\n## Rollback\n\nRun helm rollback, then page on-call.",
    )  # fmt: skip
    assert answer.status_code == 200, answer.json()
    assert_exact()

    # Expiry deletes after the grace period, an owner erased, a document forgotten.
    Memory.objects.filter(pk=expiring).update(expires_at=timezone.now() - timedelta(days=30))
    lifecycle_sweep()
    assert not Memory.objects.filter(pk=expiring).exists()
    owner_erase(user_id="bob")
    second = add_document(scribe, user_id="ada", group_id="crew", title="Tea", text="Steep green tea 3 min.")
    assert second.status_code == 200, second.json()
    assert scribe.call("forget_document", document_id=second.json()["document"]["id"]).status_code == 200
    assert_exact()

    corpus_fold()
    assert not CorpusTermDelta.objects.exists()
    assert not CorpusTerm.objects.filter(documents=0).exists()
    assert_exact()
    assert Chunk.objects.filter(deleted_at__isnull=True, superseded_at__isnull=True).exists()


def test_an_erased_owners_own_words_leave_the_statistics(agents):
    (scribe, _), _ = agents
    remember(scribe, "ada", "crew", "Ada waters the ficus on Tuesdays.")
    remember(scribe, "zed", "crew", "Zed collects Xylophonist memorabilia.")
    assert CorpusTermDelta.objects.filter(term="xylophonist").exists()

    owner_erase(user_id="zed")

    for model in (CorpusTerm, CorpusTermDelta):
        assert not model.objects.filter(term__in=["xylophonist", "memorabilia", "zed"]).exists()
    assert CorpusTerm.objects.filter(term="ficus", documents=1).exists()


def test_a_reader_sees_the_counts_of_its_own_workspaces_only_and_at_once(agents):
    (scribe, clerk), (crew, other) = agents
    remember(scribe, "ada", "crew", "The lighthouse keeper logs the tides.")
    corpus_fold()
    remember(clerk, "cyd", "other", "A lighthouse stands on the northern cape.")
    remember(clerk, "cyd", "other", "The lighthouse lamp was replaced in spring.")

    assert statistics(MEMORIES, [crew.id], ["lighthous"]).frequencies == {"lighthous": 1.0}
    assert statistics(MEMORIES, [other.id], ["lighthous"]).frequencies == {"lighthous": 2.0}
    everyone = statistics(MEMORIES, None, ["lighthous", "tide", "absent"])
    assert everyone.frequencies == {"lighthous": 3.0, "tide": 1.0, "absent": 0.0}
    assert everyone.documents == 3.0


def test_a_querys_terms_come_with_their_statistics_as_the_index_stems_them(agents):
    (scribe, clerk), (crew, other) = agents
    remember(scribe, "ada", "crew", "The lighthouse keeper logs the tides.")
    corpus_fold()
    remember(clerk, "cyd", "other", "A lighthouse stands on the northern cape.")

    terms, counted = statistics_of_text(MEMORIES, None, "Which lighthouses log the tides of the absent sea?")

    assert terms == ["absent", "lighthous", "log", "sea", "tide"]  # stemmed, sorted, stop words gone
    assert counted == statistics(MEMORIES, None, terms)
    assert counted.frequencies == {"absent": 0.0, "lighthous": 2.0, "log": 1.0, "sea": 0.0, "tide": 1.0}
    assert statistics_of_text(MEMORIES, [crew.id], "the of a") == ([], statistics(MEMORIES, [crew.id], []))


def test_several_texts_come_each_with_its_own_terms_and_the_statistics_of_all(agents):
    (scribe, clerk), (crew, other) = agents
    remember(scribe, "ada", "crew", "The lighthouse keeper logs the tides.")
    corpus_fold()
    remember(clerk, "cyd", "other", "A lighthouse stands on the northern cape.")

    texts = ["Which lighthouses log the tides?", "the of a", "An absent sea, a lighthouse"]
    lexemes, counted = statistics_of_texts(MEMORIES, [crew.id], texts)

    assert lexemes == [["lighthous", "log", "tide"], [], ["absent", "lighthous", "sea"]]
    assert counted == statistics(MEMORIES, [crew.id], ["absent", "lighthous", "log", "sea", "tide"])
    assert counted.frequencies["lighthous"] == 1.0  # the other workspace's lighthouse is not counted
    assert statistics_of_texts(MEMORIES, None, []) == ([], statistics(MEMORIES, None, []))


def test_a_recount_rebuilds_statistics_that_were_damaged(agents):
    (scribe, _), _ = agents
    remember(scribe, "ada", "crew", "Ada tunes the harpsichord before each recital.")
    corpus_fold()
    CorpusTerm.objects.filter(term="harpsichord").update(documents=40)
    CorpusTermDelta.objects.create(corpus="memory", visibility=[999], term="ghost", documents=3)

    call_command("recount_search_statistics", stdout=io.StringIO())

    assert kept(MEMORIES) == recounted(MEMORIES)
