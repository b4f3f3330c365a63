"""Principals (who acts) and their API tokens."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class Principal(models.Model):
    """Profile of a Django user: a human with a browser session or an agent with tokens."""

    class Kind(models.TextChoices):
        HUMAN = "human", "human"
        AGENT = "agent", "agent"

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="principal")
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.HUMAN)
    is_global_admin = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.user.get_username()} ({self.kind})"


class ApiTokenQuerySet(models.QuerySet["ApiToken"]):
    def active(self) -> ApiTokenQuerySet:
        return self.filter(revoked_at__isnull=True, user__is_active=True)


class ApiToken(models.Model):
    """A bearer token. Only the SHA-256 digest is stored; the raw value is shown once.

    Tokens carry 256 bits of randomness, so a fast digest is enough: there is nothing
    to brute-force that a slow password hash would protect.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=100)
    prefix = models.CharField(max_length=16, help_text="Public part of the token, for telling tokens apart.")
    digest = models.CharField(max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(default=timezone.now)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    objects = ApiTokenQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} (hxt_{self.prefix}_…)"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None
