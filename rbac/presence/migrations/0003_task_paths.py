"""The app's worker tasks moved with the app into `rbac.presence`: schedules and queued tasks follow."""

from django.db import migrations

from helixsite.task_paths import renaming

forward, backward = renaming(
    {
        "presence.tasks.presence_expire": "rbac.presence.tasks.presence_expire",
    }
)


class Migration(migrations.Migration):
    dependencies = [
        ("presence", "0002_expire_schedule"),
        ("django_q", "0019_alter_task_options_alter_ormq_key_alter_ormq_lock_and_more"),
    ]
    operations = [migrations.RunPython(forward, backward)]
