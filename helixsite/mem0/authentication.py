"""mem0's credentials: ``Authorization: Token <key>``, where the key is a Helixsite API token.
Only that: no session, no other scheme; the lookup is the agent API's (``token_authenticate``)."""

from __future__ import annotations

from rest_framework import authentication, exceptions
from rest_framework.request import Request

from rbac.authentication import token_authenticate

KEYWORD = "Token"


class Mem0TokenAuthentication(authentication.BaseAuthentication):
    def authenticate(self, request: Request) -> tuple | None:
        parts = authentication.get_authorization_header(request).decode("latin-1").split()
        if not parts:
            return None  # answered 401 by IsAuthenticated, with this scheme in WWW-Authenticate
        if parts[0].lower() != KEYWORD.lower() or len(parts) != 2:
            raise exceptions.AuthenticationFailed("Send the Helixsite token as 'Authorization: Token <token>'.")
        token = token_authenticate(parts[1])
        return token.user, token

    def authenticate_header(self, request: Request) -> str:
        return KEYWORD
