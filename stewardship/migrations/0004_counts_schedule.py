"""The worker's schedule for stewardship.tasks.counts_refresh: what is stored, counted every 5 minutes.

A data migration, like the other schedules: created once, read by django-q2's scheduler in
`qcluster`; its interval can be changed in Django admin (Django Q → Scheduled tasks) and
migrating again keeps that change."""

from django.db import migrations

NAME = "stewardship: count what is stored"
FUNC = "stewardship.tasks.counts_refresh"


def create_schedule(apps, schema_editor) -> None:
    Schedule = apps.get_model("django_q", "Schedule")
    Schedule.objects.get_or_create(
        name=NAME, defaults={"func": FUNC, "schedule_type": "I", "minutes": 5, "repeats": -1}
    )


def delete_schedule(apps, schema_editor) -> None:
    apps.get_model("django_q", "Schedule").objects.filter(name=NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("stewardship", "0003_counts_snapshot"),
        ("django_q", "0019_alter_task_options_alter_ormq_key_alter_ormq_lock_and_more"),
    ]
    operations = [migrations.RunPython(create_schedule, delete_schedule)]
