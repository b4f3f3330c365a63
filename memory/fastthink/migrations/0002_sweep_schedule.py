"""The worker's schedule for fastthink.tasks.think_sweep.

A data migration rather than code at startup: `serve` (and any deployment) runs migrate
before the worker starts, the row is created once, and django-q2's scheduler inside
`qcluster` reads it from the database like any other schedule. Its interval can be
changed in Django admin (Background tasks → Scheduled tasks) without touching code;
running the sweep more or less often changes nothing but how soon ended sessions go.
"""

from django.db import migrations

NAME = "fastthink: sweep think sessions"
FUNC = "fastthink.tasks.think_sweep"


def create_schedule(apps, schema_editor) -> None:
    Schedule = apps.get_model("django_q", "Schedule")
    Schedule.objects.update_or_create(
        name=NAME, defaults={"func": FUNC, "schedule_type": "I", "minutes": 5, "repeats": -1}
    )


def delete_schedule(apps, schema_editor) -> None:
    apps.get_model("django_q", "Schedule").objects.filter(name=NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("fastthink", "0001_initial"),
        ("django_q", "0019_alter_task_options_alter_ormq_key_alter_ormq_lock_and_more"),
    ]
    operations = [migrations.RunPython(create_schedule, delete_schedule)]
