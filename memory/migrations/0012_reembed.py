import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("memory", "0011_profile"),
    ]

    operations = [
        migrations.CreateModel(
            name="ReembedJob",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("provider", models.CharField(max_length=32)),
                ("model", models.CharField(max_length=200)),
                ("dimension", models.PositiveIntegerField()),
                ("base_url", models.CharField(blank=True, help_text="the openai provider's endpoint", max_length=500)),
                ("source", models.CharField(help_text="the embedding space it replaces", max_length=300)),
                (
                    "status",
                    models.CharField(
                        choices=[
                            ("running", "Running"),
                            ("switching", "Switching"),
                            ("done", "Done"),
                            ("aborted", "Aborted"),
                        ],
                        default="running",
                        max_length=16,
                    ),
                ),
                ("phase", models.CharField(blank=True, help_text="what a running job does now", max_length=64)),
                ("done", models.PositiveBigIntegerField(default=0, help_text="rows embedded with the target model")),
                ("total", models.PositiveBigIntegerField(default=0, help_text="rows to embed, as last counted")),
                (
                    "switch_ms",
                    models.FloatField(blank=True, help_text="how long the switch held the tables", null=True),
                ),
                ("error", models.TextField(blank=True, help_text="why the last run stopped, if it failed")),
                ("started_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("updated_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("finished_at", models.DateTimeField(blank=True, null=True)),
            ],
            options={
                "ordering": ["-started_at", "-id"],
            },
        ),
    ]
