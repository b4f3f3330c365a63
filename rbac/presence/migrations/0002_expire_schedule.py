"""Schedule presence.tasks.presence_expire every minute on the django-q2 cluster.

The first schedule in the project: created here, so that every installation that
migrates has it and nobody must remember a setup step. Operators may change its
interval in Django admin (Django Q → Scheduled tasks); migrating again keeps their change.
"""

from django.db import migrations

NAME = "presence_expire"
FUNC = "presence.tasks.presence_expire"


def create_schedule(apps, schema_editor) -> None:
    Schedule = apps.get_model("django_q", "Schedule")
    if not Schedule.objects.filter(name=NAME).exists():
        Schedule.objects.create(name=NAME, func=FUNC, schedule_type="I", minutes=1, repeats=-1)


def delete_schedule(apps, schema_editor) -> None:
    apps.get_model("django_q", "Schedule").objects.filter(name=NAME, func=FUNC).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("presence", "0001_agent_instance"),
        ("django_q", "0019_alter_task_options_alter_ormq_key_alter_ormq_lock_and_more"),
    ]
    operations = [migrations.RunPython(create_schedule, delete_schedule)]
