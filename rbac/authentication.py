"""Bearer tokens (``Authorization: Bearer hxt_…``): the lookup every transport shares (REST,
MCP over HTTP, MCP over stdio), and the DRF authentication class built on it."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from rbac.models import ApiToken
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
    token = ApiToken.objects.active().select_related("user__principal").filter(digest=token_digest(raw)).first()
    if token is None:
        raise exceptions.AuthenticationFailed("Invalid or revoked token.")
    now = timezone.now()
    if token.last_used_at is None or token.last_used_at <= now - LAST_USED_RESOLUTION:
        # Conditional again: of calls racing on a stale row, one writes.
        stale = ApiToken.objects.filter(pk=token.pk).exclude(last_used_at__gt=now - LAST_USED_RESOLUTION)
        stale.update(last_used_at=now)
    return token


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
