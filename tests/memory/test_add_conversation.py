"""add_conversation: an exchange in one call, each message as its speaker's turn, in order, with the
earlier ones as context; refusals before anything is written; a failure half-way keeps what came
before it and nothing of itself; the same call again writes nothing twice."""

from __future__ import annotations

import numpy as np
import pytest
from django.test import TestCase, override_settings

from helixsite.errors import ApplicationError
from memory.api.write import AddConversationApi
from memory.ingest import conductor
from memory.models import IngestRun, IngestStage, Memory
from memory.outbox.selectors import add_status_get
from memory.providers import get_embedder, reset_providers
from tests.factories import add_memory_call, tool_call

pytestmark = pytest.mark.django_db

EVENING = "2026-03-02T19:00:00Z"
# Twenty turns about twenty different things: two and a half slices of the model's batches.
DOINGS = (
    "went swimming in the lake",
    "baked rye bread with her aunt",
    "fixed the bike's brakes",
    "read a novel about Mars",
    "planted tomatoes by the shed",
    "painted the kitchen door green",
    "watched the chess final",
    "sold the old piano",
    "adopted a grey kitten",
    "learned three chords on the ukulele",
    "hiked up to the lighthouse",
    "knitted a red scarf",
    "visited the glass museum",
    "cooked lentil soup for the neighbours",
    "wrote a letter to her grandfather",
    "cleaned out the attic",
    "joined a choir",
    "repaired the garden fence",
    "built a birdhouse",
    "sang at a wedding",
)
TWENTY = [{"speaker": "Jo", "content": f"Jo {doing} last weekend.", "occurred_at": EVENING} for doing in DOINGS]
EXCHANGE = [
    {"speaker": "Caroline", "content": "I went to the LGBTQ support group yesterday.", "occurred_at": EVENING},
    {"speaker": "Melanie", "content": "How was it?", "occurred_at": EVENING},
    {"speaker": "Caroline", "content": "Really moving: the stories gave me courage.", "occurred_at": EVENING},
]


def add_conversation(team, messages, *, actor=None, **options):
    """add_conversation as an agent calls it, with the enrichment after commit run inline."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        return tool_call(
            AddConversationApi,
            actor=actor or team["writer"],
            user_id=options.pop("user_id", "conv"),
            group_id="team",
            messages=messages,
            **options,
        )


def refusal(call) -> tuple[int, str, str | None]:
    with pytest.raises(ApplicationError) as refused:
        call()
    return refused.value.status, refused.value.code, refused.value.field


def test_each_message_is_stored_in_order_as_its_speakers_turn_after_the_one_before_it(team):
    answer = add_conversation(team, EXCHANGE, extract=False)

    stored = [Memory.objects.get(pk=r["memory_ids"][0]) for r in answer["results"]]
    assert [m.content for m in stored] == [
        "Caroline: I went to the LGBTQ support group yesterday.",
        "Melanie: How was it?",
        "Caroline: Really moving: the stories gave me courage.",
    ]
    assert [m.facets.get("speaker") for m in stored] == ["Caroline", "Melanie", "Caroline"]
    assert [m.context for m in stored] == ["", stored[0].content, stored[1].content]
    assert [m.valid_from.isoformat() for m in stored] == ["2026-03-02T19:00:00+00:00"] * 3
    runs = IngestRun.objects.filter(pk__in=[r["run_id"] for r in answer["results"]]).order_by("started_at")
    assert [r.message for r in runs] == [m.content for m in stored]
    assert {r.status for r in runs} == {"succeeded"}


def test_roles_label_the_assistants_turns_and_leave_the_users_own_words_as_they_are(team):
    answer = add_conversation(
        team,
        [
            {"role": "user", "content": "Our full CI run takes about twelve minutes."},
            {"role": "assistant", "content": "Caching the images should cut that down."},
            {"role": "assistant", "content": "assistant: Want me to draft the cache step?"},
        ],
        extract=False,
    )

    stored = [Memory.objects.get(pk=r["memory_ids"][0]) for r in answer["results"]]
    assert [m.content for m in stored] == [
        "Our full CI run takes about twelve minutes.",
        "assistant: Caching the images should cut that down.",
        "assistant: Want me to draft the cache step?",
    ]
    assert [m.facets.get("speaker") for m in stored] == [None, "assistant", "assistant"]


def test_the_same_messages_are_stored_as_one_add_memory_call_each_would_store_them(team):
    turns = [
        ("Our build takes about twelve minutes.", "2026-03-01T10:00:00Z"),
        ("I prefer answers without tables.", "2026-03-01T10:01:00Z"),
        ("The build now takes four minutes since we cached the images.", "2026-03-09T10:00:00Z"),
        ("Always write dates as YYYY-MM-DD.", "2026-03-09T10:02:00Z"),
    ]
    for extract in (False, True):
        one_by_one = []
        for message, when in turns:
            with TestCase.captureOnCommitCallbacks(execute=True):
                one_by_one.append(
                    add_memory_call(
                        actor=team["writer"],
                        user_id=f"single-{extract}",
                        group_id="team",
                        message=message,
                        occurred_at=when,
                        extract=extract,
                    )
                )
        together = add_conversation(
            team,
            [{"content": message, "occurred_at": when} for message, when in turns],
            user_id=f"together-{extract}",
            extract=extract,
        )["results"]

        def described(answers, owner):
            decided = [[(d["atom"].replace(owner, "X"), d["type"], d["op"]) for d in a["decisions"]] for a in answers]
            stored = Memory.objects.filter(user_id=owner)
            # The atoms of one message are written at the same instant: among them, by content (the
            # database returns rows of equal keys in whatever order its plan reads them).
            kept = [
                (m.content.replace(owner, "X"), m.memory_type, m.context.replace(owner, "X"), m.facets.get("speaker"))
                for m in sorted(stored, key=lambda m: (m.created_at, m.content.replace(owner, "X")))
            ]
            superseded = sorted(m.content.replace(owner, "X") for m in stored if m.valid_to is not None)
            return decided, kept, superseded

        assert described(together, f"together-{extract}") == described(one_by_one, f"single-{extract}")


def test_a_later_message_of_the_call_supersedes_what_an_earlier_one_said(team):
    answer = add_conversation(
        team,
        [
            {"content": "I live in Paris.", "occurred_at": "2026-01-10T09:00:00Z"},
            {"content": "I moved to Lisbon last week.", "occurred_at": "2026-02-10T09:00:00Z"},
        ],
        user_id="zoe",
    )

    first, second = answer["results"]
    assert second["superseded"] == first["memory_ids"]
    assert Memory.objects.current().filter(user_id="zoe").count() == 1


def test_the_same_call_again_writes_nothing_twice(team):
    first = add_conversation(team, EXCHANGE, extract=False)
    again = add_conversation(team, EXCHANGE, extract=False)

    assert [r["memory_ids"] for r in again["results"]] == [[], [], []]
    assert [r["deduped"] for r in again["results"]] == [r["memory_ids"] for r in first["results"]]
    assert Memory.objects.filter(user_id="conv").count() == 3


def test_a_message_the_call_already_gave_is_the_memory_it_wrote(team):
    said = [EXCHANGE[0], EXCHANGE[2], EXCHANGE[0], EXCHANGE[2]]
    answer = add_conversation(team, said, extract=False)

    first, second, third, fourth = answer["results"]
    assert (third["memory_ids"], third["deduped"]) == ([], first["memory_ids"])
    assert (fourth["memory_ids"], fourth["deduped"]) == ([], second["memory_ids"])
    assert Memory.objects.filter(user_id="conv").count() == 2


def _message(**fields):
    return {"content": "I keep the spare keys in the blue drawer.", **fields}


@pytest.mark.parametrize(
    ("messages", "settings_", "expected"),
    [
        ([], {}, (400, "invalid", "messages")),
        ("I live in Paris.", {}, (400, "invalid", "messages")),
        ([_message(), "a string"], {}, (400, "invalid", "messages[1]")),
        ([_message(), _message(text="x")], {}, (400, "unknown_parameter", "messages[1].text")),
        ([_message(role="boss")], {}, (400, "invalid", "messages[0].role")),
        ([_message(role="assistant", speaker="Ava")], {}, (400, "invalid", "messages[0].speaker")),
        ([_message(speaker="Ava: the bot")], {}, (400, "invalid", "messages[0].speaker")),
        ([_message(speaker=7)], {}, (400, "invalid", "messages[0].speaker")),
        ([_message(), _message(content="  \n ")], {}, (400, "empty_message", "messages[1].content")),
        ([_message(content=["not", "text"])], {}, (400, "invalid", "messages[0].content")),
        ([_message(content="x" * 40_000)], {}, (400, "message_too_large", "messages[0].content")),
        ([_message(occurred_at="last tuesday")], {}, (400, "invalid", "messages[0].occurred_at")),
        ([_message(occurred_at=20260101)], {}, (400, "invalid", "messages[0].occurred_at")),
        ([_message(), _message(metadata=["a", "list"])], {}, (400, "invalid", "messages[1].metadata")),
        ([_message(metadata={"blob": "y" * 20_000})], {}, (400, "metadata_too_large", "messages[0].metadata")),
        ([_message()] * 4, {"HELIX_MAX_MESSAGES_PER_CALL": 3}, (400, "too_many_messages", "messages")),
        ([_message()] * 30, {"HELIX_MAX_CONVERSATION_BYTES": 1000}, (400, "conversation_too_large", "messages")),
    ],
)
def test_a_bad_message_refuses_the_whole_call_naming_its_index_and_field_and_writes_nothing(
    team, messages, settings_, expected
):
    with override_settings(**settings_):
        assert refusal(lambda: add_conversation(team, messages)) == expected

    assert Memory.objects.count() == 0 and IngestRun.objects.count() == 0


def test_a_viewer_may_not_write_a_conversation(team):
    assert refusal(lambda: add_conversation(team, EXCHANGE, actor=team["viewer"]))[:2] == (403, "forbidden")
    assert Memory.objects.count() == 0 and IngestRun.objects.count() == 0


def test_a_message_failing_half_way_keeps_the_ones_before_it_and_nothing_of_itself_or_after(team, monkeypatch):
    real_apply = conductor.apply

    def refusing_the_second(request, writes):
        if "How was it?" in request.atoms[0].content:
            real_apply(request, writes)  # written, then refused: its savepoint is rolled back
            raise ApplicationError("refused for the test", code="refused", status=409)
        return real_apply(request, writes)

    monkeypatch.setattr(conductor, "apply", refusing_the_second)
    with pytest.raises(ApplicationError) as refused:
        add_conversation(team, EXCHANGE, extract=False)

    error = refused.value
    assert (error.status, error.code, error.field, error.details["index"]) == (409, "refused", "messages[1]", 1)
    assert [w["memory_ids"] for w in error.details["written"]] == [
        [str(Memory.objects.get(content__startswith="Caroline: I went").id)]
    ]
    assert list(Memory.objects.values_list("content", flat=True)) == [
        "Caroline: I went to the LGBTQ support group yesterday."
    ]
    runs = IngestRun.objects.order_by("started_at")
    assert [(r.status, r.error_code) for r in runs] == [("succeeded", ""), ("failed", "refused"), ("failed", "not_run")]

    monkeypatch.setattr(conductor, "apply", real_apply)
    again = add_conversation(team, EXCHANGE, extract=False)  # the same call again finishes the job
    assert [bool(r["memory_ids"]) for r in again["results"]] == [False, True, True]
    assert Memory.objects.count() == 3


def test_the_runs_of_a_call_failing_half_way_keep_the_stages_each_went_through(team, monkeypatch):
    real_apply = conductor.apply

    def refusing_the_second(request, writes):
        if "How was it?" in request.atoms[0].content:
            raise ApplicationError("refused for the test", code="refused", status=409)
        return real_apply(request, writes)

    monkeypatch.setattr(conductor, "apply", refusing_the_second)
    with pytest.raises(ApplicationError):
        add_conversation(team, EXCHANGE, extract=False)

    runs = IngestRun.objects.order_by("started_at")
    assert [(r.status, r.error) for r in runs] == [
        ("succeeded", ""),
        ("failed", "refused for the test"),
        ("failed", "message 1 of the same call failed first"),
    ]
    assert runs[0].result["memory_ids"] == [str(Memory.objects.get().id)] and runs[0].finished_at is not None
    stages = [[(s.name, s.status) for s in r.stages.order_by("position")] for r in runs]
    written = ["extract", "embed", "candidates", "decide", "values", "apply"]
    assert stages[0] == [(name, "succeeded") for name in written]
    assert stages[1] == [(name, "succeeded") for name in written[:-1]] + [("apply", "failed")]
    assert stages[2] == [("extract", "succeeded"), ("embed", "succeeded")]


def test_a_message_whose_extraction_fails_keeps_the_ones_before_it_and_its_run(team, monkeypatch):
    real_extract = conductor.extract

    def failing_on_the_second(*, message, **options):
        if "How was it?" in message:
            raise RuntimeError("extractor broke")
        return real_extract(message=message, **options)

    monkeypatch.setattr(conductor, "extract", failing_on_the_second)
    with pytest.raises(RuntimeError):
        add_conversation(team, EXCHANGE, extract=False)

    assert list(Memory.objects.values_list("content", flat=True)) == [
        "Caroline: I went to the LGBTQ support group yesterday."
    ]
    runs = IngestRun.objects.order_by("started_at")
    assert [(r.status, r.error_code, r.error) for r in runs] == [
        ("succeeded", "", ""),
        ("failed", "internal_error", "RuntimeError: extractor broke"),
        ("failed", "not_run", "message 1 of the same call failed first"),
    ]
    assert [[s.name for s in r.stages.order_by("position")] for r in runs] == [
        ["extract", "embed", "candidates", "decide", "values", "apply"],
        ["extract"],
        [],
    ]


def test_an_embedding_provider_down_writes_nothing_and_fails_every_run(team):
    with override_settings(
        HELIX_EMBEDDINGS="openai", HELIX_EMBEDDING_BASE_URL="http://127.0.0.1:9/v1", HELIX_EMBEDDING_MAX_RETRIES=0
    ):
        reset_providers()
        try:
            status, code, field = refusal(lambda: add_conversation(team, EXCHANGE))
        finally:
            reset_providers()

    assert (status, code, field) == (503, "embedding_unavailable", "messages[0]")
    assert Memory.objects.count() == 0
    assert list(IngestRun.objects.values_list("status", "error_code")) == [("failed", "embedding_unavailable")] * 3


def test_the_atoms_are_embedded_a_slice_of_messages_at_a_time_each_as_the_model_embeds_it(team, monkeypatch):
    embedder = get_embedder()
    calls = []
    real_embed = embedder.embed

    def counted(texts, *, purpose):
        calls.append((len(texts), purpose))
        return real_embed(texts, purpose=purpose)

    monkeypatch.setattr(embedder, "embed", counted)
    add_conversation(team, EXCHANGE, extract=False)
    assert [count for count, purpose in calls if purpose == "ingest"] == [1, 2]  # the first message, then the next two

    calls.clear()
    answer = add_conversation(team, TWENTY, extract=False)

    sizes = [count for count, purpose in calls if purpose == "ingest"]
    # The first message alone (the first write waits for no more), then slices twice as long up to SLICE_ATOMS.
    assert conductor.SLICE_ATOMS == 8
    assert sizes == [1, 2, 4, 8, 5]
    stored = [Memory.objects.get(pk=r["memory_ids"][0]) for r in answer["results"]]
    alone = real_embed([m.content for m in stored], purpose="query")
    assert [round(float(np.dot(m.embedding, v)), 4) for m, v in zip(stored, alone, strict=True)] == [1.0] * 20
    logged = IngestStage.objects.filter(name="embed", run__in=[r["run_id"] for r in answer["results"]])
    assert sorted(stage.output["batch"] for stage in logged) == sorted(size for size in sizes for _ in range(size))


def test_a_slice_the_model_fails_on_keeps_the_message_written_before_it(team, monkeypatch):
    embedder = get_embedder()
    real_embed = embedder.embed
    batches = []

    def failing_second(texts, *, purpose):
        batches.append(texts)
        if len(batches) == 2:
            raise RuntimeError("the model ran out of memory")
        return real_embed(texts, purpose=purpose)

    monkeypatch.setattr(embedder, "embed", failing_second)
    with pytest.raises(RuntimeError):
        add_conversation(team, TWENTY, extract=False)

    first = 1
    assert Memory.objects.count() == first  # the first slice's message, written before the model failed
    runs = list(IngestRun.objects.order_by("started_at").values_list("status", "error_code"))
    assert runs == [("succeeded", "")] * first + [("failed", "internal_error")] + [("failed", "not_run")] * (19 - first)
    failed = IngestRun.objects.order_by("started_at")[first]
    assert failed.stages.get(name="embed").error == "RuntimeError: the model ran out of memory"


def test_a_buffered_conversation_is_one_write_for_the_worker(team, django_capture_on_commit_callbacks):
    with override_settings(HELIX_ADD_BUFFERED=True):
        with django_capture_on_commit_callbacks(execute=False) as queued:
            accepted = tool_call(
                AddConversationApi,
                actor=team["writer"],
                user_id="conv",
                group_id="team",
                messages=EXCHANGE,
                extract=False,
            )
        assert accepted["status"] == "accepted" and Memory.objects.count() == 0
        with django_capture_on_commit_callbacks(execute=True):
            for callback in queued:
                callback()

    status = add_status_get(actor=team["writer"], pending_id=accepted["pending_id"])
    assert status["status"] == "done"
    assert [len(r["memory_ids"]) for r in status["result"]["results"]] == [1, 1, 1]
    assert Memory.objects.filter(user_id="conv").count() == 3


def test_a_new_session_in_the_same_call_starts_without_context_and_the_calls_context_leads_the_first(team):
    answer = add_conversation(
        team,
        [
            {"content": "Adoption agencies.", "occurred_at": "2026-03-02T19:00:00Z"},
            {"content": "I called two of them today.", "occurred_at": "2026-03-02T19:01:00Z"},
            {"content": "The first interview is booked.", "occurred_at": "2026-03-09T10:00:00Z"},
        ],
        extract=False,
        context={"turns": [{"role": "assistant", "content": "What did you research?"}]},
    )

    stored = [Memory.objects.get(pk=r["memory_ids"][0]) for r in answer["results"]]
    assert [m.context for m in stored] == ["What did you research?", "Adoption agencies.", ""]
