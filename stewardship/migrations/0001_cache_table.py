from django.core.management import call_command
from django.db import migrations


def create_cache_table(apps, schema_editor) -> None:
    # The shared cache (throttle counters, the worker cluster's heartbeat) lives in the database.
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    initial = True
    dependencies = []
    operations = [migrations.RunPython(create_cache_table, migrations.RunPython.noop)]
