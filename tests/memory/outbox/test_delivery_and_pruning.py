"""pending_outcomes: what reaches whom, how many at once, and what the prune task forgets."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from memory.charter.services import contradiction_resolve
from memory.outbox.models import Notice, NoticeKind, PendingInput
from memory.outbox.tasks import outbox_prune
from rbac.models import Role
from rbac.policy import SYSTEM
from rbac.services import membership_revoke
from tests.factories import grant, make_principal, make_workspace

pytestmark = pytest.mark.django_db


def alert(user, subject: str) -> None:
    Notice.objects.address(kind=NoticeKind.OPS_ALERT, subject=subject, recipients=[user], payload={"alert": subject})


def test_at_most_the_configured_number_of_outcomes_ride_along_the_rest_come_next_time(submit, team, settings):
    settings.HELIX_PENDING_OUTCOMES_MAX = 2
    for subject in ("one", "two", "three"):
        alert(team["writer"], subject)

    first = submit("I play the cello.")["pending_outcomes"]
    second = submit("I play chess.")["pending_outcomes"]

    assert [n["alert"] for n in first] == ["one", "two"]
    assert [n["alert"] for n in second] == ["three"]


def test_a_review_is_not_sent_to_someone_who_lost_sight_of_the_memories(submit, team):
    moderator = make_principal("mod")
    grant(moderator, team["workspace"], Role.MODERATOR)
    submit("I live in Osaka.")
    submit("I don't live in Osaka.")
    membership_revoke(actor=SYSTEM, workspace=team["workspace"], user=moderator.user)
    grant(moderator, make_workspace("elsewhere"), Role.WORKER)

    delivered = submit("I like tea.", actor=moderator.user, group_id="elsewhere")["pending_outcomes"]

    assert delivered == []
    assert Notice.objects.get(recipient=moderator.user).retired_at is not None
    assert [n["kind"] for n in submit("I play the cello.")["pending_outcomes"]] == ["contradiction_review"]


def test_pruning_forgets_old_delivered_notices_and_finished_writes_but_keeps_open_reviews(submit, team, settings):
    settings.HELIX_OUTBOX_RETENTION_DAYS = 30
    settings.HELIX_ADD_BUFFERED = True
    submit("I live in Osaka.")
    submit("I don't live in Osaka.")
    alert(team["writer"], "old alert")
    submit("I play the cello.")  # delivers the review, the alert and the earlier outcomes
    long_ago = timezone.now() - timedelta(days=31)
    Notice.objects.update(created_at=long_ago, delivered_at=long_ago)
    PendingInput.objects.filter(delivered_at__isnull=False).update(finished_at=long_ago)
    fresh = PendingInput.objects.filter(delivered_at__isnull=True).count()

    pruned = outbox_prune()

    assert pruned == {"notices": 1, "pending_inputs": 2}
    assert list(Notice.objects.values_list("kind", flat=True)) == ["contradiction_review"]
    assert PendingInput.objects.count() == fresh == 1

    review = Notice.objects.get()
    settings.HELIX_ADD_BUFFERED = False
    contradiction_resolve(
        actor=team["writer"], from_id=review.payload["from_id"], to_id=review.payload["to_id"], resolution="confirm"
    )
    Notice.objects.update(retired_at=long_ago)
    assert outbox_prune()["notices"] == 1 and not Notice.objects.exists()
