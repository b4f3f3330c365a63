"""Schedule the vault's automatic backups: an hourly check that takes a backup when the newest
scheduled one is older than HELIX_BACKUP_INTERVAL_HOURS (default 24) and keeps the newest
HELIX_BACKUP_KEEP (default 7). The interval lives in the setting, so changing it needs no
migration; migrating again keeps an operator's change to the schedule row."""

from django.db import migrations
from django.utils import timezone

NAME = "vault scheduled backups"
FUNC = "stewardship.vault.tasks.vault_backups_scheduled"


def schedule(apps, schema_editor):
    Schedule = apps.get_model("django_q", "Schedule")
    Schedule.objects.using(schema_editor.connection.alias).get_or_create(
        name=NAME,
        defaults={"func": FUNC, "schedule_type": "H", "repeats": -1, "next_run": timezone.now()},
    )


def unschedule(apps, schema_editor):
    apps.get_model("django_q", "Schedule").objects.using(schema_editor.connection.alias).filter(name=NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("vault", "0001_initial"),
        ("django_q", "0019_alter_task_options_alter_ormq_key_alter_ormq_lock_and_more"),
    ]

    operations = [migrations.RunPython(schedule, unschedule)]
