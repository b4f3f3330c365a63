"""Writes for principals and tokens."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from django.db import transaction
from django.utils import timezone

from rbac.models import ApiToken, Principal
from rbac.tokens import token_generate


@dataclass(frozen=True)
class IssuedToken:
    token: ApiToken
    raw: str


def principal_create(
    *, username: str, kind: str = Principal.Kind.HUMAN, is_global_admin: bool = False, password: str | None = None
) -> Principal:
    user_model = get_user_model()
    with transaction.atomic():
        user = user_model.objects.create_user(
            username=username, password=password, is_staff=is_global_admin, is_superuser=is_global_admin
        )
        if password is None:
            user.set_unusable_password()
            user.save(update_fields=["password"])
        return Principal.objects.create(user=user, kind=kind, is_global_admin=is_global_admin)


def token_issue(*, user: AbstractUser, name: str) -> IssuedToken:
    raw, prefix, digest = token_generate()
    token = ApiToken.objects.create(user=user, name=name, prefix=prefix, digest=digest)
    return IssuedToken(token=token, raw=raw)


def token_revoke(*, token: ApiToken) -> None:
    ApiToken.objects.filter(pk=token.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())


@dataclass(frozen=True)
class BootstrapCredentials:
    username: str
    password: str
    token: str


def admin_bootstrap(*, username: str = "admin") -> BootstrapCredentials | None:
    """Create the first global admin with a generated password and a token.

    Returns the credentials to print once, or None when a global admin exists.
    """
    with transaction.atomic():
        if Principal.objects.select_for_update().filter(is_global_admin=True).exists():
            return None
        password = secrets.token_urlsafe(18)
        principal = principal_create(
            username=username, kind=Principal.Kind.HUMAN, is_global_admin=True, password=password
        )
        issued = token_issue(user=principal.user, name="bootstrap")
    return BootstrapCredentials(username=username, password=password, token=issued.raw)
