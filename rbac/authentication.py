"""DRF authentication with hashed bearer tokens (``Authorization: Bearer hxt_…``)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from rbac.models import ApiToken
from rbac.tokens import TOKEN_PREFIX, token_digest

# Writing last_used_at on every call would put a write on every read; once a minute is enough.
LAST_USED_RESOLUTION = timedelta(minutes=1)


class ApiTokenAuthentication(authentication.BaseAuthentication):
    keyword = "Bearer"

    def authenticate(self, request: Request) -> tuple | None:
        header = authentication.get_authorization_header(request).decode("latin-1").split()
        if not header or header[0].lower() != self.keyword.lower():
            return None
        if len(header) != 2 or not header[1].startswith(TOKEN_PREFIX):
            raise exceptions.AuthenticationFailed("Malformed bearer token.")
        token = ApiToken.objects.active().select_related("user").filter(digest=token_digest(header[1])).first()
        if token is None:
            raise exceptions.AuthenticationFailed("Invalid or revoked token.")
        now = timezone.now()
        ApiToken.objects.filter(pk=token.pk).exclude(last_used_at__gt=now - LAST_USED_RESOLUTION).update(
            last_used_at=now
        )
        return token.user, token

    def authenticate_header(self, request: Request) -> str:
        return self.keyword
