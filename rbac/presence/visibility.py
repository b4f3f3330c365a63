"""Whose agents an actor may see in presence.

An actor sees its own principal and every principal that is a member of a workspace the
actor can read: the people it already shares memories with. A global admin sees all.
Everyone else's agents are neither listed nor counted.
"""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q

from rbac.actors import Actor
from rbac.models import Membership
from rbac.policy import is_active, is_global_admin, readable_workspace_ids


def visible_principals_filter(actor: Actor, *, field: str) -> Q:
    """A filter on ``field`` (a user id column) for the principals visible to ``actor``."""
    if is_global_admin(actor):
        return Q()
    if not is_active(actor):
        return Q(pk__in=[])
    co_member = Membership.objects.filter(user_id=OuterRef(field), workspace_id__in=readable_workspace_ids(actor))
    return Q(**{field: actor.pk}) | Q(Exists(co_member))
