"""Forgetting on a clock: an index for the memories that expire, and the worker's hourly
lifecycle sweep (memory.tasks.lifecycle_sweep). The schedule is a row django-q2's scheduler
reads; its interval can be changed in Django admin (Background tasks → Scheduled tasks)."""

from django.db import migrations, models
from django.utils import timezone

NAME = "memory: lifecycle sweep (expiry, decay)"


def schedule(apps, schema_editor):
    apps.get_model("django_q", "Schedule").objects.get_or_create(
        name=NAME,
        defaults={
            "func": "memory.tasks.lifecycle_sweep",
            "schedule_type": "H",
            "repeats": -1,
            "next_run": timezone.now(),
        },
    )


def unschedule(apps, schema_editor):
    apps.get_model("django_q", "Schedule").objects.filter(name=NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("memory", "0009_conversation_context"),
        ("django_q", "0019_alter_task_options_alter_ormq_key_alter_ormq_lock_and_more"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="memory",
            index=models.Index(
                condition=models.Q(("expires_at__isnull", False)), fields=["expires_at"], name="memory_expiry"
            ),
        ),
        migrations.RunPython(schedule, unschedule),
    ]
