from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET
from rest_framework.exceptions import AuthenticationFailed

from rbac.authentication import bearer_authenticate
from rbac.policy import is_global_admin
from stewardship.selectors import health_report


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when every part holds, 503 naming the parts that do not. Anyone may ask; the
    details (errors, versions, the worker's heartbeat) are for a global admin's session or
    token, and while the database is out of reach nobody can be told to be one."""
    report = health_report()
    details = report.checks["database"]["ok"] and _asked_by_global_admin(request)
    return JsonResponse(report.as_dict(details=details), status=200 if report.ok else 503)


def _asked_by_global_admin(request: HttpRequest) -> bool:
    try:
        token = bearer_authenticate(request.headers.get("Authorization", ""))
    except AuthenticationFailed:
        return False
    return is_global_admin(token.user if token else request.user)
