"""Roles in workspaces, granted and revoked from either side: on a principal's page (its
workspaces) or on a workspace's page (its members). Granting a role to a member changes its role."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_POST

from helixsite.errors import ApplicationError
from rbac.models import Role, Workspace
from stewardship import access_changes, answers
from stewardship.access import steward_only
from stewardship.forms import MemberRoleForm, WorkspaceRoleForm, cleaned
from stewardship.pages.people import PRINCIPAL, account_or_404, principal_context, principal_url
from stewardship.pages.workspaces import WORKSPACE, workspace_context, workspace_url

ROLES = "stewardship/partials/principal_roles.html"
MEMBERS = "stewardship/partials/workspace_members.html"


def _granted(user: User, workspace: Workspace, role: str) -> str:
    return f"{user.get_username()} is {Role(role).label} in {workspace.slug}."


@steward_only
@require_POST
def role_grant(request: HttpRequest, username: str) -> HttpResponse:
    account = account_or_404(username)
    form = WorkspaceRoleForm(request.POST)
    try:
        values = cleaned(form)
        access_changes.membership_grant(actor=request.user, user=account, **values)
    except ApplicationError as error:
        context = principal_context(account, sent={"roles": form.data})
        return answers.refused(request, error, form="roles", page=PRINCIPAL, fragment=ROLES, context=context)
    context = principal_context(account, notices={"roles": _granted(account, values["workspace"], values["role"])})
    return answers.changed(request, fragment=ROLES, context=context, event="role-changed", then=principal_url(account))


@steward_only
@require_POST
def role_revoke(request: HttpRequest, username: str, workspace: str) -> HttpResponse:
    account = account_or_404(username)
    place = get_object_or_404(Workspace, slug=workspace)
    try:
        access_changes.membership_revoke(actor=request.user, workspace=place, user=account)
    except ApplicationError as error:
        context = principal_context(account)
        return answers.refused(request, error, form="roles", page=PRINCIPAL, fragment=ROLES, context=context)
    context = principal_context(account, notices={"roles": f"{username} has no role in {place.slug} any more."})
    return answers.changed(request, fragment=ROLES, context=context, event="role-changed", then=principal_url(account))


@steward_only
@require_POST
def member_grant(request: HttpRequest, slug: str) -> HttpResponse:
    workspace = get_object_or_404(Workspace, slug=slug)
    form = MemberRoleForm(request.POST)
    try:
        values = cleaned(form)
        user, role = values["principal"], values["role"]
        access_changes.membership_grant(actor=request.user, workspace=workspace, user=user, role=role)
    except ApplicationError as error:
        context = workspace_context(workspace, sent={"members": form.data})
        return answers.refused(request, error, form="members", page=WORKSPACE, fragment=MEMBERS, context=context)
    context = workspace_context(workspace, notices={"members": _granted(user, workspace, role)})
    then = workspace_url(workspace)
    return answers.changed(request, fragment=MEMBERS, context=context, event="role-changed", then=then)


@steward_only
@require_POST
def member_revoke(request: HttpRequest, slug: str, username: str) -> HttpResponse:
    workspace = get_object_or_404(Workspace, slug=slug)
    account = account_or_404(username)
    try:
        access_changes.membership_revoke(actor=request.user, workspace=workspace, user=account)
    except ApplicationError as error:
        context = workspace_context(workspace)
        return answers.refused(request, error, form="members", page=WORKSPACE, fragment=MEMBERS, context=context)
    context = workspace_context(workspace, notices={"members": f"{username} has no role in {slug} any more."})
    then = workspace_url(workspace)
    return answers.changed(request, fragment=MEMBERS, context=context, event="role-changed", then=then)
