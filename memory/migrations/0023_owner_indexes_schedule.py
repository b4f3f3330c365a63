"""The worker's schedule for the largest owners' vector indexes (memory.vector_indexes), every
five minutes. The indexes themselves are built by it, concurrently, not by this migration."""

from django.db import migrations
from django.utils import timezone

NAME = "memory: the largest owners' vector indexes"


def schedule(apps, schema_editor):
    apps.get_model("django_q", "Schedule").objects.get_or_create(
        name=NAME,
        defaults={
            "func": "memory.tasks.owner_indexes_refresh",
            "schedule_type": "I",
            "minutes": 5,
            "repeats": -1,
            "next_run": timezone.now(),
        },
    )


def unschedule(apps, schema_editor):
    apps.get_model("django_q", "Schedule").objects.filter(name=NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("memory", "0022_memory_speaker_first_name"),
        ("django_q", "0019_alter_task_options_alter_ormq_key_alter_ormq_lock_and_more"),
    ]

    operations = [migrations.RunPython(schedule, unschedule)]
