"""Buffered writes whose task never reached the worker's queue are queued again.

With the queue on Redis (HELIX_QUEUE_URL), a write accepted while Redis was away is committed in
the outbox with no task anywhere. ``requeued_at`` records when the sweep last queued it again (so
it waits HELIX_REQUEUE_AFTER_SECONDS before the next try), the partial index finds the queued rows
among the finished ones, and the schedule runs the sweep every 5 minutes. Like the other
schedules, a data migration: created once, read by django-q2's scheduler in `qcluster`; its
interval can be changed in Django admin and migrating again keeps that change."""

from django.db import migrations, models

NAME = "queue: requeue stranded work"
FUNC = "memory.tasks.stranded_requeue"


def create_schedule(apps, schema_editor) -> None:
    Schedule = apps.get_model("django_q", "Schedule")
    Schedule.objects.using(schema_editor.connection.alias).get_or_create(
        name=NAME, defaults={"func": FUNC, "schedule_type": "I", "minutes": 5, "repeats": -1}
    )


def delete_schedule(apps, schema_editor) -> None:
    apps.get_model("django_q", "Schedule").objects.using(schema_editor.connection.alias).filter(name=NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("outbox", "0003_task_paths"),
        ("django_q", "0019_alter_task_options_alter_ormq_key_alter_ormq_lock_and_more"),
    ]

    operations = [
        migrations.AddField(
            model_name="pendinginput",
            name="requeued_at",
            field=models.DateTimeField(
                blank=True,
                help_text="when the sweep last queued its task again (it never reached the queue)",
                null=True,
            ),
        ),
        migrations.AddIndex(
            model_name="pendinginput",
            index=models.Index(condition=models.Q(("status", "queued")), fields=["created_at"], name="pending_queued"),
        ),
        migrations.RunPython(create_schedule, delete_schedule),
    ]
