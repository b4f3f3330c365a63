"""What the room's forms accept: shapes and lengths, and names looked up to their rows.

The rules (who may, the last admin, reserved workspaces…) stay in the services; a form only
refuses input no service could act on, in the one error shape (``form_refusal``)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError

from helixsite.errors import InvalidInput
from memory.reembed.target import PROVIDERS
from rbac.models import Principal, Role, Workspace
from rbac.policy import Action
from stewardship.suggest import did_you_mean


def form_refusal(form: forms.Form) -> InvalidInput:
    """The first thing wrong with a submitted form, as the one error shape (code, message, field)."""
    field, errors = next(iter(form.errors.as_data().items()))
    error = errors[0]
    return InvalidInput(
        error.messages[0], code=error.code or "invalid", field=None if field == NON_FIELD_ERRORS else field
    )


def _workspace_named(slug: str) -> Workspace:
    workspace = Workspace.objects.filter(slug=slug).first()
    if workspace is None:
        raise ValidationError(f"No workspace with the slug {slug}.{did_you_mean('workspace', slug)}", code="not_found")
    return workspace


def _principal_named(username: str) -> User:
    user = get_user_model().objects.select_related("principal").filter(username=username).first()
    if user is None:
        raise ValidationError(f"No principal named {username}.{did_you_mean('principal', username)}", code="not_found")
    return user


class PrincipalCreateForm(forms.Form):
    username = forms.CharField(max_length=150, validators=[UnicodeUsernameValidator()])
    kind = forms.ChoiceField(choices=Principal.Kind.choices)
    password = forms.CharField(required=False, strip=False, widget=forms.PasswordInput)
    global_admin = forms.BooleanField(required=False)
    token_name = forms.CharField(required=False, max_length=100)

    def clean_password(self) -> str | None:
        password = self.cleaned_data["password"]
        if not password:
            return None
        validate_password(password, User(username=self.data.get("username", "")))
        return password

    def clean_token_name(self) -> str | None:
        return self.cleaned_data["token_name"] or None


class PrincipalFilterForm(forms.Form):
    """The principals list's filters; a value that is not one of the choices filters nothing."""

    STATUSES = [("", "any"), ("active", "active"), ("deactivated", "deactivated")]

    name = forms.CharField(required=False, max_length=150)
    kind = forms.ChoiceField(required=False, choices=[("", "any"), *Principal.Kind.choices])
    status = forms.ChoiceField(required=False, choices=STATUSES)
    admins = forms.BooleanField(required=False)


class NameFilterForm(forms.Form):
    name = forms.CharField(required=False, max_length=100)


class GlobalAdminForm(forms.Form):
    global_admin = forms.TypedChoiceField(choices=[("yes", "yes"), ("no", "no")], coerce=lambda value: value == "yes")


class TokenIssueForm(forms.Form):
    name = forms.CharField(max_length=100)


class WorkspaceRoleForm(forms.Form):
    """A role for the principal whose page it is, in a workspace named by slug."""

    workspace = forms.SlugField(max_length=60)
    role = forms.ChoiceField(choices=Role.choices)

    def clean_workspace(self) -> Workspace:
        return _workspace_named(self.cleaned_data["workspace"])


class MemberRoleForm(forms.Form):
    """A role in the workspace whose page it is, for a principal named by username."""

    principal = forms.CharField(max_length=150)
    role = forms.ChoiceField(choices=Role.choices)

    def clean_principal(self) -> User:
        return _principal_named(self.cleaned_data["principal"])


class NamedCreateForm(forms.Form):
    """A workspace or a federation: a name, and a slug made from it unless one is given."""

    name = forms.CharField(max_length=100)
    slug = forms.SlugField(required=False, max_length=60)

    def clean_slug(self) -> str | None:
        return self.cleaned_data["slug"] or None


class RenameForm(forms.Form):
    """A workspace's display name; its slug (in every URL and API call) never changes."""

    name = forms.CharField(max_length=100)


class AttachForm(forms.Form):
    workspace = forms.SlugField(max_length=60)

    def clean_workspace(self) -> Workspace:
        return _workspace_named(self.cleaned_data["workspace"])


class AccessCheckForm(forms.Form):
    principal = forms.CharField(max_length=150)
    action = forms.ChoiceField(choices=[(action.value, action.value) for action in Action])
    workspace = forms.SlugField(max_length=60)

    def clean_principal(self) -> User:
        return _principal_named(self.cleaned_data["principal"])

    def clean_workspace(self) -> Workspace:
        return _workspace_named(self.cleaned_data["workspace"])

    def clean_action(self) -> Action:
        return Action(self.cleaned_data["action"])


def cleaned(form: forms.Form) -> dict[str, Any]:
    """The form's values, or its first error raised as the one error shape."""
    if not form.is_valid():
        raise form_refusal(form)
    return form.cleaned_data


class OwnerForm(forms.Form):
    """An owner (the user_id their memories are stored under) and, optionally, one workspace."""

    user_id = forms.CharField(max_length=200)
    workspace = forms.SlugField(required=False, max_length=60)

    def clean_workspace(self) -> str | None:
        return self.cleaned_data["workspace"] or None


class OwnerEraseForm(OwnerForm):
    confirm = forms.CharField(max_length=200)


class ReembedTargetForm(forms.Form):
    """The model a re-embed is to move to, as ``manage.py reembed`` takes it; what the command
    would refuse is refused by the same checks (``memory.reembed.target.target_parse``)."""

    provider = forms.ChoiceField(choices=[(provider, provider) for provider in PROVIDERS])
    model = forms.CharField(required=False, max_length=200)
    dimension = forms.IntegerField(required=False)
    base_url = forms.CharField(required=False, max_length=500)
    no_switch = forms.BooleanField(required=False)
