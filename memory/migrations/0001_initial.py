from django.db import migrations, models
import django.utils.timezone
from pgvector.django import VectorExtension


class Migration(migrations.Migration):
    initial = True
    dependencies = []

    operations = [
        VectorExtension(),
        migrations.CreateModel(
            name="EmbeddingSpace",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("provider", models.CharField(max_length=32)),
                ("model", models.CharField(max_length=200)),
                ("dimension", models.PositiveIntegerField()),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
            ],
        ),
        migrations.CreateModel(
            name="Inference",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("created_at", models.DateTimeField(db_index=True, default=django.utils.timezone.now)),
                ("kind", models.CharField(choices=[("chat", "chat"), ("embedding", "embedding")], max_length=16)),
                ("provider", models.CharField(max_length=32)),
                ("model", models.CharField(max_length=200)),
                ("purpose", models.CharField(max_length=64)),
                ("attempt", models.PositiveSmallIntegerField(default=1)),
                ("input_tokens", models.PositiveIntegerField(blank=True, null=True)),
                ("output_tokens", models.PositiveIntegerField(blank=True, null=True)),
                ("latency_ms", models.FloatField()),
                ("ok", models.BooleanField()),
                ("error", models.CharField(blank=True, max_length=500)),
                ("run_id", models.UUIDField(blank=True, db_index=True, null=True)),
            ],
            options={"ordering": ["-created_at"]},
        ),
    ]
