"""Logging in to and out of the room: Django's session views with the room's own templates."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import reverse_lazy

from rbac.login import LoginForm


class LoginView(auth_views.LoginView):
    """Within the budget of failed logins (``rbac.login``), as the admin's login is."""

    template_name = "stewardship/login.html"
    authentication_form = LoginForm
    redirect_authenticated_user = False
    next_page = reverse_lazy("steward:observatory")


class LogoutView(auth_views.LogoutView):
    next_page = reverse_lazy("steward:login")
