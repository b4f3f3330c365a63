"""Who acts: a principal (a Django user: a human with a session or an agent with tokens), or the
operator at the shell. Every service and selector takes ``actor: Actor``."""

from __future__ import annotations

from typing import TypeAlias

from django.contrib.auth.models import User


class SystemActor:
    """The operator at the shell (management commands): trusted like a global admin."""

    is_authenticated = True
    is_active = True
    username = "system"
    pk = None

    def get_username(self) -> str:
        return self.username

    def __repr__(self) -> str:
        return "SYSTEM"


SYSTEM = SystemActor()

Actor: TypeAlias = User | SystemActor


def recorded_user(actor: Actor) -> User | None:
    """The user a row records as having acted: the operator at the shell has no row, so nobody."""
    return actor if isinstance(actor, User) and actor.pk else None
