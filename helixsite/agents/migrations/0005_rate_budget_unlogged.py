from django.db import migrations


class Migration(migrations.Migration):
    """Budgets are spent on every call; unlogged, a spend's commit does not wait for the write-ahead
    log to reach the disk. A crash of the database empties the table: every budget is full again,
    as a bucket untouched for a day already is (helixsite.db.budgets)."""

    dependencies = [
        ("agents", "0004_read_position"),
    ]

    operations = [
        migrations.RunSQL("ALTER TABLE agents_ratebudget SET UNLOGGED", "ALTER TABLE agents_ratebudget SET LOGGED"),
    ]
