"""A request for work gets the reply to the earlier ask it repeats: "Add a macOS binary to what gets
built when I push a version tag" matches the owner's own ask for release automation best, and builds
on the workflow the assistant answered it with."""

from __future__ import annotations

import pytest
from django.test import TestCase

from memory.api.write import AddConversationApi
from memory.models import Memory
from memory.search import conductor
from memory.search.conductor import memory_build_context, memory_search
from memory.services.corrections import memory_forget
from tests.factories import tool_call

ASK = (
    "Release automation. I want: push a tag v*, GitHub Actions builds the Pi binary and the Windows "
    "exe and attaches both to a release."
)
REPLY = (
    "Full .github/workflows/release.yml:\n\n```yaml\non:\n  push:\n    tags: ['v*']\njobs:\n  build:\n"
    "    strategy:\n      matrix:\n        target: [aarch64-unknown-linux-gnu, x86_64-pc-windows-gnu]\n"
    "    steps:\n      - uses: actions/checkout@v4\n      - run: cross build --release --target ${{ matrix.target }}\n```"
)
EXCHANGE = [
    {"role": "user", "content": "First release build: cargo build --release, the binary is 8.4 MB."},
    {"role": "assistant", "content": "Strip the symbols in the release profile and it drops to about 3 MB."},
    {"role": "user", "content": "Binary's down to 3.1 MB after stripping symbols."},
    {"role": "user", "content": ASK},
    {"role": "assistant", "content": REPLY},
    {"role": "user", "content": "Tagged v0.3.0, the release has both files. The Windows binary is 2.2 MB, funny."},
    {"role": "assistant", "content": "MSVC binaries tend to come out smaller than the GNU ones."},
    {"role": "user", "content": "The version tag and the Cargo.toml version drifted apart once, fixed by hand."},
    {"role": "user", "content": "Done, and the release page now says 0.3.0 everywhere, built from the tag."},
]
REQUEST = "Add a macOS binary to what gets built when I push a version tag."


def converse(team, messages, **options):
    with TestCase.captureOnCommitCallbacks(execute=True):
        return tool_call(
            AddConversationApi, actor=team["writer"], user_id="bob", group_id="team", messages=messages, **options
        )


def contents(results):
    return [r["content"] for r in results]


def without_replies(monkeypatch, actor, query):
    """The ranking with the replies left out: what the request finds on its own."""
    with monkeypatch.context() as patched:
        patched.setattr(conductor, "replies_to", lambda *args: {})
        return memory_search(actor=actor, query=query, user_id="bob", limit=10)["results"]


@pytest.fixture
def exchange(team):
    converse(team, EXCHANGE, extract=False)
    return {m.content: m for m in Memory.objects.filter(user_id="bob")}


@pytest.mark.django_db
def test_a_requests_best_ask_brings_the_reply_to_it_right_after_it(exchange, team, monkeypatch):
    ask, reply = exchange[ASK], exchange[f"assistant: {REPLY}"]

    organic = contents(without_replies(monkeypatch, team["writer"], REQUEST))
    results = memory_search(actor=team["writer"], query=REQUEST, user_id="bob", limit=10)["results"]

    at = contents(results).index(ask.content)
    assert at < 3  # the ask is among the request's best
    assert organic.index(reply.content) > organic.index(ask.content) + 1  # not right after it on its own
    assert contents(results)[at + 1] == reply.content
    assert results[at + 1]["replies_to"] == str(ask.id)
    assert sum("replies_to" in r for r in results) == 1


@pytest.mark.django_db
def test_a_question_about_what_happened_ranks_as_before(exchange, team, monkeypatch):
    question = "What did I want for the release automation?"

    organic = contents(without_replies(monkeypatch, team["writer"], question))
    results = memory_search(actor=team["writer"], query=question, user_id="bob", limit=10)["results"]

    assert contents(results) == organic
    assert not any("replies_to" in r for r in results)


@pytest.mark.django_db
def test_a_forgotten_reply_or_another_owners_ask_brings_nothing(exchange, team):
    reply = exchange[f"assistant: {REPLY}"]
    memory_forget(actor=team["writer"], memory_id=reply.id)

    results = memory_search(actor=team["writer"], query=REQUEST, user_id="bob", limit=10)["results"]

    assert reply.content not in contents(results)
    assert not any("replies_to" in r for r in results)
    # Another owner's reply to the same words is never bob's.
    with TestCase.captureOnCommitCallbacks(execute=True):
        tool_call(
            AddConversationApi,
            actor=team["writer"],
            user_id="alice",
            group_id="team",
            messages=[{"role": "user", "content": ASK}, {"role": "assistant", "content": REPLY}],
            extract=False,
        )
    results = memory_search(actor=team["writer"], query=REQUEST, user_id="bob", limit=10)["results"]
    assert {r["user_id"] for r in results} == {"bob"}
    assert not any("replies_to" in r for r in results)


@pytest.mark.django_db
def test_the_reply_of_an_extracted_ask_comes_after_it_too(team):
    converse(team, EXCHANGE, extract=True)
    reply = Memory.objects.get(user_id="bob", content=f"assistant: {REPLY}")

    results = memory_search(actor=team["writer"], query=REQUEST, user_id="bob", limit=10)["results"]

    answered = next(r for r in results if r["content"] == reply.content)
    asked = Memory.objects.get(pk=answered["replies_to"])
    assert asked.run_id != reply.run_id and not asked.facets.get("speaker")
    assert contents(results).index(reply.content) <= 3


RULES = [
    "user: From now on, always pin third-party actions to a commit SHA.",
    "user: Whenever you write a workflow for me, give every job a timeout.",
    "user: Never give me bare docker run commands, I lose track of them.",
    "user: Small request: when you give me YAML, don't use anchors or aliases. Half the team can't read them.",
]


@pytest.mark.django_db
@pytest.mark.parametrize("budget", [400, 800, 2000])
def test_a_requests_standing_rules_are_packed_first_within_an_eighth_of_the_budget(exchange, team, budget):
    converse(team, [{"role": "user", "content": rule} for rule in RULES], extract=False)
    rules = {m.content for m in Memory.objects.filter(user_id="bob", facets__standing=True)}
    assert rules == set(RULES)

    context = memory_build_context(actor=team["writer"], query=REQUEST, user_id="bob", token_budget=budget)

    packed = context["memories"]
    first = [m for m in packed[: len(rules)] if m["content"] in rules]
    assert first and packed[: len(first)] == first  # the rules lead
    assert sum(m["tokens"] for m in first) <= budget // conductor.STANDING_SHARE
    assert context["tokens"] <= budget
    # The work the request builds on is packed too.
    assert f"assistant: {REPLY}" in [m["content"] for m in packed]


ASKED = "How do we stop preview environments piling up if a PR just sits open for weeks? Some of ours do."
ANSWERED = (
    "A nightly cleanup on the preview host that removes previews whose containers haven't been recreated in "
    "a week:\n\n```bash\n#!/usr/bin/env bash\nmax_age_days=7\nfor name in $(docker ps -a --filter label=preview "
    "--format '{{.Names}}'); do\n  docker rm -f \"$name\"\ndone\n```"
)


@pytest.mark.django_db
def test_the_reply_to_a_question_kept_whole_comes_right_after_it(team):
    """The rules keep only "Some of ours do." of the question; the message is kept whole as a raw
    source, made by the worker after the call, so after the reply: its reply is still the one
    said after its statements."""
    converse(
        team,
        [
            *EXCHANGE[:3],
            {"role": "user", "content": ASKED},
            {"role": "assistant", "content": ANSWERED},
            *EXCHANGE[5:],
        ],
        extract=True,
    )
    asked = Memory.objects.get(user_id="bob", content=ASKED)
    answer = Memory.objects.get(user_id="bob", content=f"assistant: {ANSWERED}")
    assert asked.created_at > answer.created_at

    results = memory_search(
        actor=team["writer"],
        query="Make the script that throws away stale preview environments wait two weeks instead of one.",
        user_id="bob",
        limit=10,
    )["results"]

    at = contents(results).index(ASKED)
    assert at < 3
    assert contents(results)[at + 1] == answer.content
    assert results[at + 1]["replies_to"] == str(asked.id)
