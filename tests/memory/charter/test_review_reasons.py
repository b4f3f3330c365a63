"""A review says why it was raised in words an admin reads: a retraction quotes the memory it takes
back, not the stems its topic is matched by; reviews raised before say so too once migrated."""

from __future__ import annotations

from importlib import import_module

import pytest
from django.apps import apps

from memory.charter.models import ContradictionReview

pytestmark = pytest.mark.django_db

ALLERGY = "I'm allergic to peanuts."
TAKEN_BACK = "I'm not allergic to peanuts after all, the test was negative."


def test_a_retraction_is_reviewed_with_the_words_it_takes_back(submit):
    old = submit(ALLERGY)["memory_ids"][0]
    answer = submit(TAKEN_BACK)

    (decision,) = answer["decisions"]
    review = ContradictionReview.objects.get(to_memory_id=old)
    said = review.to_memory.content
    assert (decision["op"], decision["reason"]) == ("CONTRADICT", f"retracts “{said}”")
    assert review.reason == f"retracts “{said}”"


def test_a_review_raised_with_stems_reads_in_words_once_migrated(submit):
    old = submit(ALLERGY)["memory_ids"][0]
    submit(TAKEN_BACK)
    review = ContradictionReview.objects.get(to_memory_id=old)
    ContradictionReview.objects.filter(pk=review.pk).update(reason="retracts what was said of allergic negativ peanut")

    import_module("memory.charter.migrations.0002_review_reasons_in_words").reasons_in_words(apps, None)

    review.refresh_from_db()
    assert review.reason == f"retracts “{review.to_memory.content}”"
