"""The permission check: may principal P do action A in workspace W? Answered by the policy
itself (``rbac.selectors.access_explain``), with the rule that decided."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from helixsite.errors import ApplicationError
from rbac.models import Role
from rbac.policy import ALL_PERMISSIONS, ROLE_PERMISSIONS, Action, permission_needed
from rbac.selectors import access_explain
from stewardship import answers
from stewardship.access import steward_only
from stewardship.forms import AccessCheckForm, cleaned

PAGE = "stewardship/access_check.html"
ANSWER = "stewardship/partials/access_answer.html"

ACTIONS = {
    Action.READ: "read memories",
    Action.WRITE: "write its own memories",
    Action.MODERATE: "correct others' memories",
    Action.MANAGE_MEMBERS: "manage members and roles",
    Action.FEDERATE: "attach to or detach from a federation",
    Action.DELETE_WORKSPACE: "delete the workspace",
}


@steward_only
@require_GET
def access_check(request: HttpRequest) -> HttpResponse:
    """The form, and once asked, the answer (for htmx, only the answer)."""
    context = {"asked": request.GET, "actions": ACTIONS.items(), "errors": {}}
    context |= {"permissions": ALL_PERMISSIONS, "roles": _role_table(), "needs": _action_table()}
    status = 200
    if "action" in request.GET:  # asked; a link may only fill in the principal
        try:
            values = cleaned(AccessCheckForm(request.GET))
            context["answer"] = access_explain(
                user=values["principal"], action=values["action"], workspace=values["workspace"]
            )
        except ApplicationError as error:
            context["errors"] = {"check": error}
            status = error.status
    return answers.page_or_fragment(request, page=PAGE, fragment=ANSWER, context=context, status=status)


def _role_table() -> list[tuple[str, list[bool]]]:
    """Each role and, for each workspace permission, whether the role carries it."""
    return [(Role(role).label, [p in ROLE_PERMISSIONS[role] for p in ALL_PERMISSIONS]) for role in Role.values]


def _action_table() -> list[tuple[str, str, str | None]]:
    """Each action, what it means, and the permission a role must carry for it (None: global admins only)."""
    return [(action, meaning, permission_needed(action)) for action, meaning in ACTIONS.items()]
