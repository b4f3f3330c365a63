from django.db import migrations

RESERVED = [("default", "Default"), ("onboarding", "Onboarding")]


def create_reserved(apps, schema_editor) -> None:
    Workspace = apps.get_model("rbac", "Workspace")
    for slug, name in RESERVED:
        Workspace.objects.update_or_create(slug=slug, defaults={"name": name, "reserved": True})


class Migration(migrations.Migration):
    dependencies = [("rbac", "0002_workspaces_federations_visibility")]
    operations = [migrations.RunPython(create_reserved, migrations.RunPython.noop)]
