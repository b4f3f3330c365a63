"""Reads for the people and access pages: principals, their tokens and roles, workspaces and their
members, federations and theirs. Each is a queryset for the cursor (``paging.page_after``) to
cut a page from, so no list is ever read whole; counts are per shown row, never per table."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db.models import Count, IntegerField, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce

from rbac.models import ApiToken, Federation, FederationMember, Membership, Principal, Workspace


def _count_of(queryset: QuerySet, *, by: str) -> Coalesce:
    """The number of ``queryset`` rows whose ``by`` is the outer row, as a column of the outer row."""
    counted = queryset.filter(**{by: OuterRef("pk")}).order_by().values(by).annotate(n=Count("pk")).values("n")
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)


def principals_filtered(*, name: str = "", kind: str = "", status: str = "", admins: bool = False) -> QuerySet[User]:
    users = (
        get_user_model()
        .objects.select_related("principal")
        .annotate(active_tokens=_count_of(ApiToken.objects.filter(revoked_at__isnull=True), by="user"))
    )
    if name:
        users = users.filter(username__icontains=name)
    if kind == Principal.Kind.AGENT:
        users = users.filter(principal__kind=kind)
    elif kind == Principal.Kind.HUMAN:
        # A user made outside the services (createsuperuser) has no profile and is a human.
        users = users.filter(Q(principal__kind=kind) | Q(principal__isnull=True))
    if status:
        users = users.filter(is_active=status == "active")
    if admins:
        users = users.filter(principal__is_global_admin=True)
    return users


def principal_by_name(*, username: str) -> User | None:
    return get_user_model().objects.select_related("principal").filter(username=username).first()


def tokens_of(*, user: User) -> QuerySet[ApiToken]:
    return ApiToken.objects.filter(user=user)


def roles_of(*, user: User) -> QuerySet[Membership]:
    return Membership.objects.filter(user=user).select_related("workspace", "granted_by")


def members_of(*, workspace: Workspace) -> QuerySet[Membership]:
    return Membership.objects.filter(workspace=workspace).select_related("user__principal", "granted_by")


def workspaces_filtered(*, name: str = "") -> QuerySet[Workspace]:
    federation = FederationMember.objects.current().filter(workspace=OuterRef("pk")).values("federation__slug")[:1]
    workspaces = Workspace.objects.annotate(
        members=_count_of(Membership.objects.all(), by="workspace"), federation_slug=Subquery(federation)
    )
    if name:
        workspaces = workspaces.filter(Q(slug__icontains=name) | Q(name__icontains=name))
    return workspaces


def workspace_federation(*, workspace: Workspace) -> Federation | None:
    """The federation the workspace is in now, if any."""
    return Federation.objects.filter(members__workspace=workspace, members__left_at__isnull=True).first()


def federations_filtered(*, name: str = "") -> QuerySet[Federation]:
    federations = Federation.objects.annotate(
        workspaces_now=_count_of(FederationMember.objects.current(), by="federation")
    )
    if name:
        federations = federations.filter(Q(slug__icontains=name) | Q(name__icontains=name))
    return federations


def federation_members(*, federation: Federation) -> QuerySet[FederationMember]:
    """Every time a workspace spent in the federation, the current ones and those that ended."""
    return FederationMember.objects.filter(federation=federation).select_related("workspace")
