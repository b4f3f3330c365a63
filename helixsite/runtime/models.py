"""Stored configuration: numbered patch versions and encrypted provider credentials."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ConfigVersionQuerySet(models.QuerySet["ConfigVersion"]):
    def newest_first(self) -> ConfigVersionQuerySet:
        return self.order_by("-number")


class ConfigVersion(models.Model):
    """One applied patch: the whole set of patched keys from then on (``values``), what it
    changed against the version before (``diff``: key, before, after), who applied it and when.
    The newest number is the version in force; restoring an earlier one writes a new version."""

    number = models.PositiveIntegerField(unique=True)
    values = models.JSONField(default=dict)
    diff = models.JSONField(default=list)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    actor_name = models.CharField(max_length=150)
    created_at = models.DateTimeField(auto_now_add=True)
    restored_from = models.PositiveIntegerField(null=True, blank=True)

    objects = ConfigVersionQuerySet.as_manager()

    class Meta:
        ordering = ["-number"]

    def __str__(self) -> str:
        return f"config version {self.number}"


class Credential(models.Model):
    """A provider's API key, encrypted (Fernet) with a key kept outside the database. Cleared
    keeps the row with an empty ciphertext, so the page can say who cleared it and when."""

    name = models.CharField(max_length=40, primary_key=True)
    ciphertext = models.TextField(blank=True, default="")
    changed_at = models.DateTimeField()
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    actor_name = models.CharField(max_length=150)

    def __str__(self) -> str:
        return f"credential {self.name}"

    @property
    def is_set(self) -> bool:
        return bool(self.ciphertext)
