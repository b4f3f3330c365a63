"""The app's worker tasks moved with the app into `memory.outbox`: schedules and queued tasks follow."""

from django.db import migrations

from helixsite.task_paths import renaming

forward, backward = renaming(
    {
        "outbox.tasks.outbox_prune": "memory.outbox.tasks.outbox_prune",
        "outbox.tasks.pending_input_run": "memory.tasks.pending_input_run",
    }
)


class Migration(migrations.Migration):
    dependencies = [
        ("outbox", "0002_prune_schedule"),
        ("django_q", "0019_alter_task_options_alter_ormq_key_alter_ormq_lock_and_more"),
    ]
    operations = [migrations.RunPython(forward, backward)]
