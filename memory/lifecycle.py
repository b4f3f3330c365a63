"""Forgetting on a clock: expiry and decay.

- **Expiry.** ``add_memory`` may give the memories it writes an ``expires_at`` (or a ``ttl``).
  From that moment every read path passes over them (``Memory.objects.live()`` and the search's
  scope both compare with ``now()``); ``HELIX_EXPIRY_GRACE_DAYS`` later the sweep deletes them for
  good, with their edges, history and mentions, and the entities no memory mentions any more.
  Saying a fact again renews it: its expiry becomes the later of the two, or none when the new
  statement has none.
- **Decay.** With ``HELIX_DECAY_AFTER_DAYS`` > 0 the sweep hides memories that have faded: of an
  episodic type (``HELIX_DECAY_TYPES``), importance below ``HELIX_DECAY_MAX_IMPORTANCE``, written
  longer ago than that and not recalled in that time (a search that returns a memory counts as a
  recall, so recall keeps a memory alive). Hidden is a soft delete with a history row: a global
  admin restores it like any forgotten memory, and a restored memory is not hidden again for the
  same period.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from memory.models import Entity, HistoryAction, Memory, MemoryHistory, MemoryType
from memory.profiles import profiles_touch_memories
from rbac.actors import Actor, recorded_user

DECAY_REASON = "decayed: not recalled and of little importance"
EXPIRED_REASON = "expired"


def expiry_renew(*, memory_id: Any, expires_at: datetime | None) -> None:
    """A statement said again keeps the memory that holds it at least as long as it asks."""
    held = Memory.objects.filter(pk=memory_id, expires_at__isnull=False)
    if expires_at is None:
        held.update(expires_at=None)
    else:
        held.filter(expires_at__lt=expires_at).update(expires_at=expires_at)


def expiries_exist(*, scope: str, user_id: str) -> bool:
    """Whether any memory of the owner in the write domain has an expiry, forgotten and superseded
    ones included; most owners have none."""
    return Memory.objects.filter(rbac_scope=scope, user_id=user_id, expires_at__isnull=False).exists()


def expired_holders_retire(*, scope: str, user_id: str, keys: list[str], now: datetime) -> int:
    """Expired memories still holding one of ``keys`` (the sweep has not deleted them yet) give
    their fingerprint up to a new statement of the same fact: they are forgotten now, with history.
    The caller holds the owner's write lock."""
    expired = list(
        Memory.objects.select_for_update().filter(
            rbac_scope=scope,
            user_id=user_id,
            content_key__in=keys,
            deleted_at__isnull=True,
            valid_to__isnull=True,
            expires_at__lte=now,
        )
    )
    memories_hide(expired, reason=EXPIRED_REASON, details={"rule": "expiry"}, now=now)
    return len(expired)


def lifecycle_sweep(*, now: datetime | None = None) -> dict[str, int]:
    """The hourly sweep: delete what expired longer ago than the grace period, hide what decayed."""
    now = now or timezone.now()
    return {"expired_deleted": _delete_expired(now), "decayed": _decay(now)}


def _delete_expired(now: datetime) -> int:
    cutoff = now - timedelta(days=settings.HELIX_EXPIRY_GRACE_DAYS)
    with transaction.atomic():
        gone = Memory.objects.filter(expires_at__lte=cutoff)
        profiles_touch_memories(gone.only("user_id", "visible_in"))
        mentioned = list(Entity.objects.filter(mentions__memory__in=gone).values_list("pk", flat=True).distinct())
        _, per_model = gone.delete()
        # A name only expired memories mentioned goes with them.
        Entity.objects.filter(pk__in=mentioned, mentions__isnull=True).delete()
    return per_model.get(Memory._meta.label, 0)


def _decay(now: datetime) -> int:
    days = settings.HELIX_DECAY_AFTER_DAYS
    if days <= 0:
        return 0
    since = now - timedelta(days=days)
    types = [t for t in settings.HELIX_DECAY_TYPES if t in MemoryType.values]
    with transaction.atomic():
        faded = list(
            Memory.objects.current()
            .select_for_update(skip_locked=True, of=("self",))
            .filter(
                memory_type__in=types,
                importance__lt=settings.HELIX_DECAY_MAX_IMPORTANCE,
                created_at__lt=since,
                immutable=False,
            )
            .filter(
                Q(access__isnull=True)
                | Q(access__last_accessed_at__isnull=True)
                | Q(access__last_accessed_at__lt=since)
            )
            # A memory an admin brought back is not hidden again for the same reason at once.
            .exclude(history__action=HistoryAction.RESTORE, history__created_at__gte=since)
        )
        memories_hide(faded, reason=DECAY_REASON, details={"rule": "decay", "after_days": days}, now=now)
    return len(faded)


def memories_hide(
    memories: list[Memory], *, reason: str, details: dict[str, Any], now: datetime, actor: Actor | None = None
) -> None:
    """Forget ``memories`` as ``forget_memory`` does (soft delete, a FORGET history row each, the
    owners' profiles marked stale), by a rule rather than a request: restorable by an admin."""
    if not memories:
        return
    Memory.objects.filter(pk__in=[m.pk for m in memories]).update(deleted_at=now, updated_at=now)
    profiles_touch_memories(memories)
    MemoryHistory.objects.bulk_create(
        MemoryHistory(
            memory=memory,
            action=HistoryAction.FORGET,
            old_content=memory.content,
            new_content=memory.content,
            details=details,
            actor=recorded_user(actor) if actor is not None else None,
            reason=reason[:500],
            created_at=now,
        )
        for memory in memories
    )
