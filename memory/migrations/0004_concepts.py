from django.db import migrations

CONCEPTS = {
    "fact": "something true about the subject",
    "preference": "a like, dislike or choice the subject prefers",
    "goal": "something the subject wants or plans to achieve",
    "decision": "a choice that was made",
    "skill": "something the subject knows how to do",
    "opinion": "a view or belief",
    "experience": "something that happened to the subject",
    "achievement": "something the subject accomplished",
    "action": "something the subject did or will do",
    "procedure": "how something is done",
    "observation": "something noticed",
    "conclusion": "a result of reasoning",
}


def create_concepts(apps, schema_editor) -> None:
    Concept = apps.get_model("memory", "Concept")
    for name, description in CONCEPTS.items():
        Concept.objects.update_or_create(name=name, defaults={"description": description})


class Migration(migrations.Migration):
    dependencies = [("memory", "0003_write_path")]
    operations = [migrations.RunPython(create_concepts, migrations.RunPython.noop)]
