"""A retraction's review gave its reason as the change's topic stems ("retracts what was said of
allergic negativ peanut test"); it now quotes the memory taken back (memory.ingest.decide), and
the reviews raised before say so too."""

from django.db import migrations

STEMMED = "retracts what was said of "
QUOTED_WORDS = 16  # as memory.ingest.decide.QUOTED_WORDS, copied: a migration keeps its own


def reasons_in_words(apps, schema_editor):
    review_model = apps.get_model("charter", "ContradictionReview")
    stemmed = review_model.objects.filter(reason__startswith=STEMMED).select_related("to_memory")
    for review in stemmed.iterator():
        words = review.to_memory.content.split()
        quoted = " ".join(words[:QUOTED_WORDS]) + (" …" if len(words) > QUOTED_WORDS else "")
        review.reason = f"retracts “{quoted}”"[:500]
        review.save(update_fields=["reason"])


class Migration(migrations.Migration):
    dependencies = [("charter", "0001_initial")]

    operations = [migrations.RunPython(reasons_in_words, migrations.RunPython.noop)]
