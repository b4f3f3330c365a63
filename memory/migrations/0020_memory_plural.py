"""Django admin names the memories "memories", not "memorys". Options only: no schema change."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("memory", "0019_attribute_holders_index"),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="memory",
            options={"ordering": ["-created_at"], "verbose_name_plural": "memories"},
        ),
    ]
