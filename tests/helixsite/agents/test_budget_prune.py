"""Budget rows (API tokens, usernames and addresses of failed logins) do not pile up: a bucket
untouched for a day is full, so its row goes, by a daily task of the worker."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone
from django_q.models import Schedule

from helixsite.agents.models import RateBudget
from helixsite.db.budgets import FULL_AFTER, budget_prune, budget_spend

pytestmark = pytest.mark.django_db


def test_buckets_untouched_for_a_day_are_pruned_and_spent_ones_stay():
    for key in ("login:user:mallory", "login:addr:203.0.113.9", "token:7"):
        assert budget_spend(key=key, capacity=5, per_second=5 / 900) is None
    RateBudget.objects.filter(key__startswith="login:").update(
        updated_at=timezone.now() - FULL_AFTER - timedelta(minutes=1)
    )

    assert budget_prune() == 2
    assert list(RateBudget.objects.values_list("key", flat=True)) == ["token:7"]


def test_a_pruned_bucket_starts_full_again_as_it_would_have_refilled():
    key = "login:user:mallory"
    for _ in range(2):
        budget_spend(key=key, capacity=2, per_second=2 / 86400)
    assert budget_spend(key=key, capacity=2, per_second=2 / 86400) is not None, "empty"
    RateBudget.objects.filter(key=key).update(updated_at=timezone.now() - FULL_AFTER - timedelta(seconds=1))

    budget_prune()

    assert [budget_spend(key=key, capacity=2, per_second=2 / 86400) is None for _ in range(3)] == [True, True, False]


def test_the_worker_prunes_daily():
    (schedule,) = Schedule.objects.filter(func="helixsite.agents.throttle.budget_prune")
    assert (schedule.schedule_type, schedule.repeats) == (Schedule.DAILY, -1)


def test_a_login_window_longer_than_a_day_keeps_its_buckets_until_it_has_passed(settings):
    settings.HELIX_LOGIN_FAILURE_WINDOW_SECONDS = 3 * 86400
    budget_spend(key="login:user:mallory", capacity=5, per_second=5 / (3 * 86400))
    RateBudget.objects.update(updated_at=timezone.now() - timedelta(days=2))

    assert budget_prune() == 0
    RateBudget.objects.update(updated_at=timezone.now() - timedelta(days=3, minutes=1))
    assert budget_prune() == 1


def test_budgets_are_kept_unlogged_so_a_spend_waits_for_no_disk_flush():
    """A spend commits on every call; the table is unlogged, so the commit does not wait for the
    write-ahead log (a crash of the server empties it: every budget full again)."""
    assert budget_spend(key="token:1", capacity=3, per_second=1.0) is None
    with connection.cursor() as cursor:
        cursor.execute("SELECT relpersistence FROM pg_class WHERE oid = 'agents_ratebudget'::regclass")
        assert cursor.fetchone() == ("u",)
    assert RateBudget.objects.get(key="token:1").tokens == pytest.approx(2, abs=0.01)
