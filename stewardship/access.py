"""Who enters the control room: active global admins, by a browser session.

Anonymous visitors go to the room's login page; a logged-in principal who is not a global admin
gets a 403 page saying so (not the login page again, which would suggest a wrong password). An
htmx request from a page whose session ended or lost the role is told to reload that page, which
then answers as above, instead of a login form or a 403 page swapped into a fragment."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django_htmx.http import HttpResponseClientRefresh

from rbac.policy import is_global_admin


def is_steward(user: Any) -> bool:
    return bool(user.is_authenticated and user.is_active and is_global_admin(user))


def steward_only(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    @functools.wraps(view)
    def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.htmx and not is_steward(request.user):
            refused = HttpResponseClientRefresh()
            refused.status_code = 403 if request.user.is_authenticated else 401
            return refused
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path(), login_url=reverse("steward:login"))
        if not is_steward(request.user):
            return render(request, "stewardship/forbidden.html", status=403)
        return view(request, *args, **kwargs)

    return guarded
