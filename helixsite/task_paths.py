"""Renaming the worker's task paths in place, for migrations.

When a task function moves to another module, the django-q2 schedules and the tasks still
waiting in the ORM broker's queue name the old dotted path, and the worker could no longer
import it. A migration renames both, so an installation upgrades with its queue intact.
"""

from __future__ import annotations

from typing import Any

from django_q.signing import BadSignature, SignedPackage


def task_paths_rename(apps: Any, renames: dict[str, str]) -> None:
    """Point every schedule and every queued task that names an old path at the new one."""
    Schedule = apps.get_model("django_q", "Schedule")
    OrmQ = apps.get_model("django_q", "OrmQ")
    for old, new in renames.items():
        Schedule.objects.filter(func=old).update(func=new)
    for queued in OrmQ.objects.all():
        try:
            task = SignedPackage.loads(queued.payload)
        except BadSignature:
            continue  # signed with another key: no worker of this installation can run it either
        if isinstance(task, dict) and task.get("func") in renames:
            task["func"] = renames[task["func"]]
            queued.payload = SignedPackage.dumps(task)
            queued.save(update_fields=["payload"])


def renaming(renames: dict[str, str]) -> tuple[Any, Any]:
    """The forward and backward functions of a ``RunPython`` that renames ``renames``."""
    backward = {new: old for old, new in renames.items()}
    return (
        lambda apps, schema_editor: task_paths_rename(apps, renames),
        lambda apps, schema_editor: task_paths_rename(apps, backward),
    )
