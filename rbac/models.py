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
    enrolled_at = models.DateTimeField(null=True, blank=True, help_text="first admission through enroll_client")

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


class Role(models.TextChoices):
    GROUPADMIN = "groupadmin", "group admin"
    MODERATOR = "moderator", "moderator"
    WORKER = "worker", "worker"
    VIEWER = "viewer", "viewer"


class Workspace(models.Model):
    """A working group. Memories are visible through the workspaces they are materialized in."""

    DEFAULT = "default"
    ONBOARDING = "onboarding"

    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=60, unique=True)
    reserved = models.BooleanField(default=False, help_text="default and onboarding: never deleted or federated")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["slug"]
        # Granted per workspace through django-guardian; a role is a set of these.
        permissions = [
            ("read_workspace", "Read memories in the workspace"),
            ("write_workspace", "Write own memories in the workspace"),
            ("moderate_workspace", "Correct others' memories in the workspace"),
            ("manage_workspace", "Manage members and roles of the workspace"),
        ]

    def __str__(self) -> str:
        return self.slug


class Membership(models.Model):
    """A principal's role in a workspace. The role's guardian permissions are granted with it."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=16, choices=Role.choices)
    granted_at = models.DateTimeField(default=timezone.now)
    granted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "workspace"], name="membership_one_role_per_workspace")]
        ordering = ["workspace__slug", "user__username"]

    def __str__(self) -> str:
        return f"{self.user} is {self.role} in {self.workspace}"


class Federation(models.Model):
    """A dedup group: workspaces whose members deduplicate writes against each other."""

    name = models.CharField(max_length=100)
    slug = models.SlugField(max_length=60, unique=True)
    created_at = models.DateTimeField(default=timezone.now)
    workspaces = models.ManyToManyField(Workspace, through="FederationMember", related_name="federations")

    class Meta:
        ordering = ["slug"]

    def __str__(self) -> str:
        return self.slug


class FederationMemberQuerySet(models.QuerySet["FederationMember"]):
    def current(self) -> FederationMemberQuerySet:
        return self.filter(left_at__isnull=True)


class FederationMember(models.Model):
    """A workspace's time in a federation. Rows are closed (``left_at``), never deleted."""

    federation = models.ForeignKey(Federation, on_delete=models.CASCADE, related_name="members")
    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="federation_members")
    joined_at = models.DateTimeField(default=timezone.now)
    left_at = models.DateTimeField(null=True, blank=True)

    objects = FederationMemberQuerySet.as_manager()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["workspace"], condition=models.Q(left_at__isnull=True), name="workspace_in_one_federation"
            )
        ]
        ordering = ["-joined_at"]

    def __str__(self) -> str:
        return f"{self.workspace} in {self.federation}"


class MemoryProvenance(models.Model):
    """Memory ↔ federation: the memory was written through this federation."""

    memory = models.OneToOneField("memory.Memory", on_delete=models.CASCADE, related_name="provenance")
    federation = models.ForeignKey(Federation, on_delete=models.PROTECT, related_name="memories")

    def __str__(self) -> str:
        return f"{self.memory_id} written through {self.federation_id}"
