"""Bearer tokens (``Authorization: Bearer hxt_…``): the lookup every transport shares (REST,
MCP over HTTP, MCP over stdio), and the DRF authentication class built on it."""

from __future__ import annotations

from datetime import timedelta
from typing import cast

from django.contrib.auth.models import User
from django.db import connection, models
from django.utils import timezone
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from helixsite.db.base import DatabaseWrapper
from helixsite.db.compiled import CompiledQuery
from rbac.models import ApiToken, Principal
from rbac.tokens import TOKEN_PREFIX, token_digest

# Writing last_used_at on every call would put a write on every read; once a minute is enough.
LAST_USED_RESOLUTION = timedelta(minutes=1)
KEYWORD = "Bearer"


def token_authenticate(raw: str) -> ApiToken:
    """The active token with this raw value (its user and the user's principal selected: every
    tool asks whether the caller is a global admin), its last use recorded.

    Raises DRF's ``AuthenticationFailed`` (answered 401 ``unauthenticated``) otherwise."""
    if not raw.startswith(TOKEN_PREFIX):
        raise exceptions.AuthenticationFailed("Malformed bearer token.")
    token = _active_token(token_digest(raw))
    if token is None:
        raise exceptions.AuthenticationFailed("Invalid or revoked token.")
    now = timezone.now()
    if token.last_used_at is None or token.last_used_at <= now - LAST_USED_RESOLUTION:
        # Conditional again: of calls racing on a stale row, one writes.
        stale = ApiToken.objects.filter(pk=token.pk).exclude(last_used_at__gt=now - LAST_USED_RESOLUTION)
        stale.update(last_used_at=now)
    return token


def _active_token(digest: str) -> ApiToken | None:
    """``ApiToken.objects.active()`` with its user and principal, by digest: on every call, so
    compiled once rather than built by the ORM each time, and prepared on the server (0.29 →
    0.15 ms a lookup). Its columns come in the order of the three models' concrete fields, as the
    ORM selects them."""
    with cast(DatabaseWrapper, connection).prepared_cursor() as cursor:
        cursor.execute(_ACTIVE_TOKEN.sql, _ACTIVE_TOKEN.params(digest))
        row = cursor.fetchone()
    if row is None:
        return None
    token_fields, user_fields, principal_fields = (_attnames(model) for model in (ApiToken, User, Principal))
    ends = len(token_fields), len(token_fields) + len(user_fields)
    token = ApiToken.from_db(connection.alias, token_fields, row[: ends[0]])
    token.user = User.from_db(connection.alias, user_fields, row[ends[0] : ends[1]])
    if row[ends[1]] is not None:  # a user made outside the services may have no principal
        token.user.principal = Principal.from_db(connection.alias, principal_fields, row[ends[1] :])
    return token


def _attnames(model: type[models.Model]) -> list[str]:
    return [field.attname for field in model._meta.concrete_fields]


_ACTIVE_TOKEN = CompiledQuery(
    lambda digest: ApiToken.objects.active().select_related("user__principal").filter(digest=digest).order_by(),
    placeholder="digest-placeholder",
)


def bearer_authenticate(header: str) -> ApiToken | None:
    """The token an ``Authorization`` header value presents; None when it presents no bearer token."""
    parts = header.split()
    if not parts or parts[0].lower() != KEYWORD.lower():
        return None
    if len(parts) != 2:
        raise exceptions.AuthenticationFailed("Malformed bearer token.")
    return token_authenticate(parts[1])


class ApiTokenAuthentication(authentication.BaseAuthentication):
    keyword = KEYWORD

    def authenticate(self, request: Request) -> tuple | None:
        token = bearer_authenticate(authentication.get_authorization_header(request).decode("latin-1"))
        return None if token is None else (token.user, token)

    def authenticate_header(self, request: Request) -> str:
        return self.keyword
