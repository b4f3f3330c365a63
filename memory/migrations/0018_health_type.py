"""A memory type for health: allergies, conditions, diagnoses and medication, typed apart because
they matter for safety. A new choice changes no column (the type is a 16-character string), so
the release before, which never writes it, runs against this schema unchanged; the concept of
the same name is what enrichment maps a health memory to."""

from django.db import migrations, models


def create_health_concept(apps, schema_editor) -> None:
    Concept = apps.get_model("memory", "Concept")
    Concept.objects.update_or_create(
        name="health", defaults={"description": "an allergy, condition, diagnosis or medication"}
    )


def remove_health_concept(apps, schema_editor) -> None:
    apps.get_model("memory", "Concept").objects.filter(name="health").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("memory", "0017_event_time_whole_range"),
    ]

    operations = [
        migrations.AlterField(
            model_name="memory",
            name="memory_type",
            field=models.CharField(
                choices=[
                    ("fact", "Fact"),
                    ("preference", "Preference"),
                    ("goal", "Goal"),
                    ("decision", "Decision"),
                    ("skill", "Skill"),
                    ("opinion", "Opinion"),
                    ("event", "Event"),
                    ("procedure", "Procedure"),
                    ("observation", "Observation"),
                    ("conclusion", "Conclusion"),
                    ("raw", "Raw"),
                    ("health", "Health"),
                ],
                default="fact",
                max_length=16,
            ),
        ),
        migrations.RunPython(create_health_concept, remove_health_concept),
    ]
