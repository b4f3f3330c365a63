from django.db import migrations
from django.utils import timezone

PRUNE = "rate budget prune"


def schedule(apps, schema_editor):
    apps.get_model("django_q", "Schedule").objects.get_or_create(
        name=PRUNE,
        defaults={
            "func": "helixsite.agents.throttle.budget_prune",
            "schedule_type": "D",
            "repeats": -1,
            "next_run": timezone.now(),
        },
    )


def unschedule(apps, schema_editor):
    apps.get_model("django_q", "Schedule").objects.filter(name=PRUNE).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("agents", "0002_call_minute"),
    ]

    operations = [
        migrations.RunPython(schedule, unschedule),
    ]
