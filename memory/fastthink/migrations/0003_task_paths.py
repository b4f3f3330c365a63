"""The app's worker tasks moved with the app into `memory.fastthink`: schedules and queued tasks follow."""

from django.db import migrations

from helixsite.task_paths import renaming

forward, backward = renaming(
    {
        "fastthink.tasks.think_sweep": "memory.fastthink.tasks.think_sweep",
    }
)


class Migration(migrations.Migration):
    dependencies = [
        ("fastthink", "0002_sweep_schedule"),
        ("django_q", "0019_alter_task_options_alter_ormq_key_alter_ormq_lock_and_more"),
    ]
    operations = [migrations.RunPython(forward, backward)]
