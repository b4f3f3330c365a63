"""Standing instructions and preferences reach the requests they bear on: "Add a job that builds the
docs site" shares no word with "when you give me YAML, don't use anchors or aliases", yet the job
must follow it."""

from __future__ import annotations

import time

import pytest
from django.test import override_settings

from memory.ingest.english.instructions import is_standing
from memory.models import Memory
from memory.search.conductor import memory_search
from memory.search.standing import is_request


@pytest.mark.parametrize(
    "text",
    [
        "From now on, keep cover letters under 250 words. Recruiters skim.",
        "Whenever you write SQL for me, keywords in uppercase.",
        "Small request: when you give me YAML, don't use anchors or aliases.",
        "Never give me bare docker run commands, I lose track of them.",
        "And please: always set seeds explicitly in any script you give me.",
        "One ground rule before we go on: give me the whole file back, never fragments.",
        "Always write dates as YYYY-MM-DD.",
        "I'd rather read plain matplotlib than seaborn.",
        "Personal thing: I can't stand pie charts.",
        "Logging: I don't use wandb. Write metrics to one CSV per run.",
        "Env stuff: I use uv for everything. Not conda, not bare pip.",
        "Whatever we buy has to be quiet: it lives in the hall cupboard.",
        "I prefer answers without tables, I read them on my phone.",
        "Honestly I hate Makefiles, tabs and all.",
        "Thanks, that works.\n\nGoing forward, put every shell command in its own block.",
        "One rule: whenever you change a build file, give me the whole file, not a fragment with 'add this under android {}'.",
        "Also, a standing request: any time you propose a new dependency, say how many KB it adds.",
        "For comparisons, short bullet lists work much better for me than wide tables.",
        "Looks right. I'm a Makefile person, by the way.",
        "Lunch sounds good. I'm vegetarian, so not the steak place.",
        "One more thing: use British spelling in anything I'll send out.",
        "Before we start: British spelling throughout, please.",
        "I want a Makefile in every repo as the front door.",
        "The test split stays sealed. If I ever ask to peek at it early, push back.",
    ],
)
def test_a_rule_for_later_work_or_a_way_the_owner_likes_things_is_standing(text):
    assert is_standing(text)


@pytest.mark.parametrize(
    "text",
    [
        "Our build takes about twelve minutes.",
        "I went to a support group yesterday and it was so powerful.",
        "Keep it up, Mel! I'm so proud of you.",
        "Never mind, it works now.",
        "Always good to hear from you!",
        "The deploy failed again with exit code 137.",
        "Can you look at this stack trace?",
        "```\n# always use anything you like here\nalways_run = True\n```\nThat's the config.",
        "We moved standup to 9:30 last week.",
        "Can you give me the node group change? No rush.",
        '"No phone in bed" is at day 9, thank you very much.',
        'It\'s in the short description already: "Simple habit tracker. No account, no ads, your data stays yours."',
        "Applied it. I want to see this report every week instead of finding out at the end of the month.",
        "Let's install pg_stat_statements from day one, I want query stats before we tune anything.",
        "x" * 50_000,
    ],
)
def test_a_statement_of_fact_a_question_or_code_is_not_standing(text):
    assert not is_standing(text)


@pytest.mark.parametrize(
    "query",
    [
        "Add a job that builds the docs site whenever main changes.",
        "Draft what goes alongside my Ostrander application.",
        "Please write me a helper that loads the carrier list from disk.",
        "How do I see what's eating space on the backup disk?",
        "Which used mini PC should I get as a second node?",
        "Retry logic's done and staged. What one-liner should go in the history for it?",
        "Let's pick the learning rate by scoring each candidate on test.",
        "Can you plot weekly order counts?",
        "Upgrade Room to 2.7 for me.",
        "Have the tag build also create a GitHub release with the bundle attached.",
        "Do a notice like the oven one for our summer fortnight off.",
        "Is there something that would make drawing the charts easier?",
        "What's the easiest way to automate pushing screenshots to the store?",
        "Turn the outage write-up into a half-page version for the managers.",
    ],
)
def test_a_request_for_work_is_a_request(query):
    assert is_request(query)


@pytest.mark.parametrize(
    "query",
    [
        "What instruments does Tim play?",
        "Have you seen my keys anywhere?",
        "Do Jon and Gina start businesses out of what they love?",
        "Do the tests pass on main?",
        "When did Caroline go to the support group?",
        "Where does Zoe live now?",
        "How long does our build take?",
        "Who approves production deploys?",
        "what " * 10_000,
    ],
)
def test_a_question_about_what_is_or_happened_is_no_request(query):
    assert not is_request(query)


def test_reading_hostile_text_for_rules_and_requests_is_bounded():
    hostile = ("always you " * 40_000) + "\n" + ("a." * 100_000)
    started = time.process_time()
    is_standing(hostile)
    is_request(hostile)
    is_standing("```\n" * 50_000)
    assert time.process_time() - started < 3.0


RULE = "user: Small request: when you give me YAML, don't use anchors or aliases. Half the team can't read them."
WORK = [
    "user: The docs site lives in docs/ and builds with mkdocs build --strict.",
    "assistant: Here is the workflow for the tests job, with the pip cache keyed on the lock file.",
    "user: Our main branch is protected; merges need one approval from Ines.",
    "assistant: The lint job now runs ruff and mypy in parallel with the tests.",
    "user: Preview environments are torn down nightly at 02:00.",
    "user: The coverage report goes to Codecov after the tests job.",
    "assistant: I'd suggest caching the Docker layers with the GitHub Actions cache backend.",
]
REQUEST = "Add a job that builds the docs site whenever main changes."


@pytest.mark.django_db
def test_a_request_gets_the_standing_rule_it_bears_on_in_its_last_places(team, add):
    add(RULE, extract=False)
    for line in WORK:
        add(line, extract=False)

    with override_settings(HELIX_SEARCH_STANDING_SLOTS=0):
        without = memory_search(actor=team["writer"], query=REQUEST, user_id="bob", limit=3)["results"]
    results = memory_search(actor=team["writer"], query=REQUEST, user_id="bob", limit=3)["results"]

    assert RULE not in [r["content"] for r in without]
    assert len(results) == 3
    assert [r["content"] for r in results if r.get("standing")] == [RULE]
    assert [r["content"] for r in results[:1]] == [r["content"] for r in without[:1]]


@pytest.mark.django_db
def test_a_question_gets_no_standing_rule_and_another_owners_rule_never_comes(team, add):
    add(RULE, extract=False, user_id="alice")
    add("assistant: From now on I'll always give you YAML without anchors.", extract=False)
    for line in WORK:
        add(line, extract=False)

    asked = memory_search(actor=team["writer"], query="Which branch is protected?", user_id="bob", limit=3)
    requested = memory_search(actor=team["writer"], query=REQUEST, user_id="bob", limit=3)

    assert not any(r.get("standing") for r in asked["results"] + requested["results"])
    assert not Memory.objects.filter(user_id="bob", facets__standing=True).exists()


@pytest.mark.django_db
def test_a_rule_said_among_other_things_is_stored_standing_in_both_modes(team, add):
    add("user: Done with the cache. Also: never use inplace=True in pandas code you give me.", extract=False)
    add("Done with the cache. Also: never use inplace=True in pandas code you give me.", user_id="carol")

    assert Memory.objects.filter(user_id="bob", facets__standing=True).count() == 1
    assert Memory.objects.filter(user_id="carol", facets__standing=True).exists()


@pytest.mark.django_db
def test_a_way_the_owner_likes_things_is_standing_when_extracted_too(team, add):
    # Read in the owner's words: "bob hates corporate buzzwords" would read as a report about bob.
    add("Reading that back: I hate corporate buzzwords. I finished the draft last night.", extract=True)

    standing = Memory.objects.filter(user_id="bob", facets__standing=True)
    assert [m.content for m in standing] == ["Reading that back: bob hates corporate buzzwords."]


@pytest.mark.django_db
def test_the_standing_places_hold_one_memory_of_a_message(team, add):
    add("user: Honestly I hate Makefiles. I'd rather read plain bash scripts in scripts/.", extract=True)
    add(RULE, extract=True)
    for line in WORK:
        add(line, extract=False)
    both = Memory.objects.filter(user_id="bob", facets__standing=True, content__icontains="bash")
    makefiles = Memory.objects.get(user_id="bob", facets__standing=True, content__icontains="makefiles")
    assert both.count() == 1 and makefiles.run_id == both.get().run_id  # one message, two standing statements

    with override_settings(HELIX_SEARCH_STANDING_SLOTS=2):
        results = memory_search(actor=team["writer"], query=REQUEST, user_id="bob", limit=4)["results"]

    standing = [r["content"] for r in results if r.get("standing")]
    assert len(standing) == 2
    assert sum("Makefiles" in c or "bash" in c for c in standing) == 1
    assert any("anchors" in c for c in standing)


PIE_CHARTS = (
    "user: Maggie's old reports had a pie chart of revenue by product category on slide 3. Personal thing: I "
    "can't stand pie charts. If it's a share of something, give me a horizontal bar chart sorted by size."
)


@pytest.mark.django_db
def test_a_rules_place_shows_its_message_kept_whole(team, add):
    """Extracted, the rule's statements split what not to do ("bob cannot stand pie charts", read as
    a rule) from what to do instead (the bar chart, read as a fact): its place shows the message."""
    add(PIE_CHARTS, extract=True)
    for line in WORK:
        add(line, extract=False)
    rule = Memory.objects.get(user_id="bob", facets__standing=True)
    assert "pie charts" in rule.content and "bar chart" not in rule.content
    whole = Memory.objects.get(user_id="bob", content=PIE_CHARTS)

    results = memory_search(
        actor=team["writer"], query="Show me how the quarter's sales split across categories.", user_id="bob", limit=4
    )["results"]

    standing = [r for r in results if r.get("standing")]
    assert [r["id"] for r in standing] == [str(whole.id)]
    assert rule.content not in [r["content"] for r in results]


RULES = [
    RULE,
    "user: From now on, always pin third-party actions to a commit SHA.",
    "user: Whenever you write a workflow for me, give every job a timeout.",
    "user: Never give me bare docker run commands, I lose track of them.",
]


@pytest.mark.django_db
@pytest.mark.parametrize(("limit", "rules"), [(4, 2), (5, 2), (10, 4), (1, 0)])
def test_standing_rules_take_at_most_half_the_places_a_request_asks_for(team, add, limit, rules):
    # Enough of the request's own matches that no rule is among its first ten.
    pages = [f"user: The docs site's page {n} builds from docs/part{n}.md whenever main changes." for n in range(12)]
    for text in RULES + WORK + pages:
        add(text, extract=False)

    with override_settings(HELIX_SEARCH_STANDING_SLOTS=0):
        found = memory_search(actor=team["writer"], query=REQUEST, user_id="bob", limit=limit)["results"]
    results = memory_search(actor=team["writer"], query=REQUEST, user_id="bob", limit=limit)["results"]

    assert len(results) == limit
    added = [r for r in results if r.get("standing") and r["content"] not in [f["content"] for f in found]]
    assert len(added) == rules
    # What the request found on its own keeps the first places.
    kept = limit - rules
    assert [r["content"] for r in results[:kept]] == [r["content"] for r in found[:kept]]
